#!/usr/bin/env bash
# check_layers.sh must pass on the tree as it is and, on a copy with every violation below planted
# (each in its own file, so each is reported on its own line), fail naming each file and rule.
# usage: check_layers_test.sh SOURCE_DIR
set -u
src=$(cd "${1:-.}" && pwd)
check=$src/tests/architecture/check_layers.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fresh_copy() {
  rm -rf "$work/tree"
  mkdir -p "$work/tree"
  (cd "$src" && cp -r liblayout codegen kernels explorer python examples benchmarks "$work/tree/")
}

# expect_violation NAME PATTERN: the check of the planted copy prints PATTERN.
names=()
patterns=()
expect_violation() {
  names+=("$1")
  patterns+=("$2")
}

plant() { # plant FILE LINE: appends an include line to FILE of the copy
  printf '%s\n' "$2" >>"$work/tree/$1"
}

fresh_copy
if bash "$check" "$work/tree" >/dev/null; then echo "ok   clean tree"; else
  echo "FAIL clean tree: the copy as it is has violations"
  failures=$((failures + 1))
fi

fresh_copy
plant liblayout/src/core/linear_layout.cpp '#include "layout/protocol/batch.h"'
expect_violation "core includes protocol" \
  "liblayout/src/core/linear_layout.cpp: includes \"layout/protocol/batch.h\": 'core' may include only its own headers"

plant codegen/nvidia/cuda_gemm_plan.cpp '#include "layout/kernels/xe_simulator.h"'
expect_violation "codegen includes kernels" "codegen/nvidia/cuda_gemm_plan.cpp: includes \"layout/kernels/xe_simulator.h\""

plant kernels/sim/src/xe_simulator.cpp '#include "layout/views/scene.h"'
expect_violation "kernels include the views" "kernels/sim/src/xe_simulator.cpp: includes \"layout/views/scene.h\": 'kernels' may include only its own headers"

plant explorer/gui/main.cpp '#include "layout/cuda/cuda_gemm_run.h"'
expect_violation "the desktop app includes the CUDA runner" "explorer/gui/main.cpp: includes \"layout/cuda/cuda_gemm_run.h\": 'gui'"

plant python/src/gf2layout_module.cpp '#include "layout/views/views.h"'
expect_violation "the Python module includes the views" "python/src/gf2layout_module.cpp: includes \"layout/views/views.h\": 'python' may include only"

plant explorer/cli/main.cpp '#include "explorer_app.h"'
expect_violation "layoutctl includes the app's internal header" "explorer/cli/main.cpp: internal header \"explorer_app.h\" is not in its own directory"

plant liblayout/src/smem/bank_model.cpp '#include "../triton/encoding_cache.h"'
expect_violation "a relative path into another module" "liblayout/src/smem/bank_model.cpp: '#include \"../triton/encoding_cache.h\"' reaches into another directory"

plant examples/conversion_example.cpp '#include "kernels/xe_simulator.h"'
expect_violation "a bare include root" "examples/conversion_example.cpp: '#include \"kernels/xe_simulator.h\"' is neither a public header"

mkdir -p "$work/tree/codegen/include/codegen"
printf '#pragma once\n' >"$work/tree/codegen/include/codegen/stray.h"
expect_violation "a header outside include/layout/<library>/" \
  "codegen/include/codegen/stray.h: a public header of 'codegen' belongs under include/layout/codegen/"

plant liblayout/include/layout/layout.h '#include "layout/codegen/kernel_ir.h"'
expect_violation "the front door includes a library above liblayout" \
  "liblayout/include/layout/layout.h: includes \"layout/codegen/kernel_ir.h\": 'liblayout' may include only"

plant codegen/intel/kernel_ir.cpp '#include "layout/layout.h"'
expect_violation "codegen includes liblayout's front door" \
  "codegen/intel/kernel_ir.cpp: includes \"layout/layout.h\": 'codegen' may include only"

cp "$work/tree/liblayout/include/layout/layout.h" "$work/tree/codegen/include/layout/layout.h"
expect_violation "a front door outside liblayout" \
  "codegen/include/layout/layout.h: a public header of 'codegen' belongs under include/layout/codegen/"

plant liblayout/include/layout/core/linear_layout.h '#include <nlohmann/json.hpp>'
expect_violation "an installed header includes the whole JSON library" "liblayout/include/layout/core/linear_layout.h: a public header includes <nlohmann/json.hpp>"

mkdir -p "$work/tree/kernels/rocm"
printf '#include "layout/core/linear_layout.h"\n' >"$work/tree/kernels/rocm/run.cpp"
expect_violation "a library the table does not know" "kernels/rocm/run.cpp"

plant liblayout/include/layout/target/hardware_target.h '#include "layout/text/internal/json_text.h"'
expect_violation "an installed header includes an internal one" \
  "liblayout/include/layout/target/hardware_target.h: includes \"layout/text/internal/json_text.h\": an internal header, not installed"

out=$(bash "$check" "$work/tree" 2>&1)
status=$?
if [[ $status -ne 1 ]]; then
  echo "FAIL the planted copy: expected exit 1, got $status"
  failures=$((failures + 1))
fi
for i in "${!names[@]}"; do
  if grep -qF -- "${patterns[$i]}" <<<"$out"; then
    echo "ok   ${names[$i]}"
  else
    echo "FAIL ${names[$i]}: the check did not print '${patterns[$i]}'"
    failures=$((failures + 1))
  fi
done
echo "check_layers_test: $failures failures"
[[ $failures -eq 0 ]]
