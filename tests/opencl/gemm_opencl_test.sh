#!/usr/bin/env bash
# The emitted OpenCL C runs (issue 17): `layoutctl gemm --target opencl` builds each kernel, runs
# the unchanged .cl text on the first OpenCL device (PoCL here) behind the Intel built-in prelude,
# and verifies D against the float64 / exact-integer reference. Each configuration runs with
# exact inputs (bit for bit) and random inputs (the fp32 summation bound). Without an OpenCL
# device (exit 3) the test is skipped, unless LAYOUT_REQUIRE_OPENCL is set (the test command
# installs PoCL and sets it).
# usage: gemm_opencl_test.sh /path/to/layoutctl
set -u
ctl=$1
failures=0
passes=0

probe=$("$ctl" gemm --m 16 --n 16 --k 16 --sg-layout 1x1 --sg-data 8x16 --k-tile 16 \
  --target opencl 2>&1)
status=$?
if [[ $status -eq 3 ]]; then
  if [[ -n ${LAYOUT_REQUIRE_OPENCL:-} ]]; then
    echo "FAIL: no OpenCL device, and LAYOUT_REQUIRE_OPENCL is set: $probe"
    exit 1
  fi
  echo "skipped: no OpenCL device ($probe)"
  exit 0
fi

# The ICD loader is opened at run time: layoutctl does not link it, and without one it says so.
if ldd "$ctl" | grep -q "libOpenCL"; then
  echo "FAIL ldd: layoutctl links libOpenCL"
  failures=$((failures + 1))
else
  passes=$((passes + 1))
fi
out=$(LAYOUT_OPENCL_LOADER=/nonexistent/libOpenCL.so.1 "$ctl" gemm --m 16 --n 16 --k 16 \
  --sg-layout 1x1 --sg-data 8x16 --k-tile 16 --target opencl 2>&1)
status=$?
if [[ $status -eq 3 && $out == *"opencl: no device: cannot load the OpenCL ICD loader /nonexistent/libOpenCL.so.1"* ]]; then
  passes=$((passes + 1))
else
  echo "FAIL no-loader: exit $status: $out"
  failures=$((failures + 1))
fi

# NAME -- gemm options: the configurations the issue lists.
configs=(
  "f16 --dtype f16 --m 128 --n 128 --k 64 --sg-layout 2x2 --sg-data 32x64"
  "bf16 --dtype bf16 --m 128 --n 128 --k 64 --sg-layout 2x2 --sg-data 32x64"
  "tf32 --dtype tf32 --m 64 --n 64 --k 32 --sg-layout 2x2 --sg-data 32x32 --k-tile 16"
  "int8 --dtype int8 --m 128 --n 128 --k 128 --sg-layout 2x2 --sg-data 32x64 --k-tile 64"
  "transposed-b --dtype bf16 --m 128 --n 128 --k 64 --sg-layout 2x2 --sg-data 32x64 --transpose-b"
  "bmg --dtype bf16 --arch bmg --m 128 --n 128 --k 64 --sg-layout 2x2 --sg-data 32x64"
  "repeat-count-4 --dtype f16 --m 64 --n 64 --k 64 --sg-layout 2x2 --sg-data 16x32 --repeat-count 4"
  "k-tile-64 --dtype bf16 --m 128 --n 128 --k 128 --sg-layout 2x2 --sg-data 32x32 --k-tile 64"
  "tails --dtype bf16 --m 100 --n 72 --k 40 --sg-layout 2x2 --sg-data 32x32"
  "int8-tails --dtype int8 --m 72 --n 40 --k 100 --sg-layout 2x2 --sg-data 32x32 --k-tile 32"
  # Grouped workgroup order: 5 tile rows in groups of 3 (a ragged last group); any tile the
  # emitted index expressions miss stays NaN and fails verification.
  "grouped-order --dtype bf16 --m 320 --n 192 --k 64 --sg-layout 2x2 --sg-data 32x32 --group-m 3"
)
for c in "${configs[@]}"; do
  read -r name args <<<"$c"
  for inputs in exact random; do
    # shellcheck disable=SC2086 # the options are words
    out=$("$ctl" gemm $args --inputs "$inputs" --seed 7 --target opencl 2>&1)
    status=$?
    if [[ $status -eq 0 && $out == *"ran the emitted OpenCL C on "* && $out == *"verification: PASSED"* ]]; then
      passes=$((passes + 1))
    else
      echo "FAIL $name ($inputs inputs): exit $status"
      echo "$out" | tail -5
      failures=$((failures + 1))
    fi
  done
done

echo "$passes passed, $failures failed"
[[ $failures -eq 0 ]]
