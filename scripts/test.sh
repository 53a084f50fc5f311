#!/usr/bin/env bash
# Builds and runs the whole test suite: the Release build with every GoogleTest suite and the
# layoutctl end-to-end tests, the same suite again under AddressSanitizer + UndefinedBehavior-
# Sanitizer, a shared-library build installed and used by examples/downstream, the batch/JSON
# fuzzer for a bounded time (FUZZ_SECONDS, default 60), the explorer
# input fuzzer (EXPLORER_FUZZ_SECONDS, default 30) and the input-limits fuzzer (alias files, view
# shapes, long batch lines, scripts; LIMITS_FUZZ_SECONDS, default 30). The explorer's GUI tests
# run under xvfb-run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=${JOBS:-2}
# The SPIR-V tests skip where clang-14 / llvm-spirv-14 / spirv-val are missing; here they are
# installed, so a missing tool is a failure.
export LAYOUT_REQUIRE_SPIRV=1
# PoCL is installed too, so the OpenCL runs of the emitted kernels must not skip.
export LAYOUT_REQUIRE_OPENCL=1

echo "== Formatting (clang-format-14, .clang-format) =="
if [[ -d .git ]]; then
  git ls-files -z '*.cpp' '*.h' | xargs -0 clang-format-14 --dry-run -Werror
  echo "formatting: every C++ file is formatted"
fi

# The Python module is built for Debian's interpreter, the one python3-pytest / python3-numpy
# serve (another python3 may come first on PATH); its pytest suite must not skip.
python_flags=()
[[ -x /usr/bin/python3 ]] && python_flags=(-DPython_EXECUTABLE=/usr/bin/python3)
export LAYOUT_REQUIRE_PYTHON=1

echo "== Release build and tests =="
# ccache, where installed, keeps the objects for the later builds of the same sources: the pip
# install test (tests/python/pip_install_test.sh) and the shared-library stage (the same flags).
ccache_flags=()
command -v ccache >/dev/null && ccache_flags=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${python_flags[@]}" "${ccache_flags[@]}" >/dev/null
cmake --build build -j"$jobs"
echo "== API reference (Doxygen; a warning fails the build) =="
cmake --build build --target docs
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== Shared libraries (-DBUILD_SHARED_LIBS=ON): versioned, installed, used downstream =="
cmake -S . -B build-shared -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DLAYOUT_BUILD_TESTS=OFF -DLAYOUT_BUILD_BENCHMARKS=OFF -DLAYOUT_BUILD_EXAMPLES=OFF \
  -DLAYOUT_BUILD_EXPLORER=OFF -DLAYOUT_BUILD_PYTHON=OFF "${ccache_flags[@]}" >/dev/null
cmake --build build-shared -j"$jobs"
bash tests/package/downstream_test.sh build-shared . build-shared/explorer/cli/layoutctl

echo "== ASan + UBSan build and tests (clang-14, assertions on), with the libFuzzer targets =="
# One sanitizer build serves the test suite and the fuzzers: clang-14 (libFuzzer needs clang),
# -O1 -g1 (line tables only, what the sanitizers recommend), assertions on (no -DNDEBUG: the one
# stage where they run), every object instrumented for coverage-guided fuzzing too.
asan_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1"
  -DCMAKE_CXX_COMPILER=clang++-14)
# The explorer's views library and its tests run here; the desktop app is left to the Release
# stage (its GUI tests run Mesa and GLFW, whose own allocations LeakSanitizer would report).
cmake -S . -B build-asan "${asan_flags[@]}" -DLAYOUT_SANITIZE=ON -DLAYOUT_BUILD_FUZZERS=ON \
  -DLAYOUT_BUILD_BENCHMARKS=OFF -DLAYOUT_BUILD_EXPLORER=OFF >/dev/null
cmake --build build-asan -j"$jobs"
# The portable-kernel rerun of the whole suite is left to the Release stage: under the sanitizers
# it doubles this stage's time for code the Release rerun already covers.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -E _portable_kernels

# fuzz TARGET SEED_CORPUS SECONDS MAX_LEN: runs one libFuzzer target on a copy of its seed corpus.
# A finding prints the end of the fuzzer's log (the report and the crashing input's name) and ends
# the script; a clean run prints the final stats.
fuzz() {
  local corpus log status=0
  corpus=$(mktemp -d)
  log=$(mktemp)
  cp "$2"/* "$corpus"/
  ./build-asan/tests/fuzz/"$1" "$corpus" -dict=tests/fuzz/batch.dict -max_total_time="$3" \
    -max_len="$4" -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1 || status=$?
  if [[ $status -ne 0 ]]; then
    tail -n 80 "$log"
    echo "fuzz: $1 found a failure (exit $status)"
    exit 1
  fi
  tail -n 5 "$log"
  rm -rf "$corpus" "$log"
}

echo "== Fuzzing the layout JSON reader and the batch loop (${FUZZ_SECONDS:-60} s) =="
fuzz batch_fuzzer tests/fuzz/corpus "${FUZZ_SECONDS:-60}" 4096

echo "== Fuzzing the explorer's layout input, shapes and scripts (${EXPLORER_FUZZ_SECONDS:-30} s) =="
fuzz explorer_input_fuzzer tests/fuzz/explorer_corpus "${EXPLORER_FUZZ_SECONDS:-30}" 2048

echo "== Fuzzing alias files, view shapes, long batch lines and scripts (${LIMITS_FUZZ_SECONDS:-30} s) =="
fuzz input_limits_fuzzer tests/fuzz/limits_corpus "${LIMITS_FUZZ_SECONDS:-30}" 4096

# Every stage passed (set -e ends the script at the first failure).
echo "test.sh: formatting, Release, shared-library, ASan+UBSan and fuzzing stages all passed"
