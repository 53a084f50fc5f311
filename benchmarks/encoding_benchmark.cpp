// Benchmarks of TritonGPU encoding conversion (parse once, convert per iteration, as a compiler
// asks for a layout on many shapes).
//
//   ./build/benchmarks/layout_benchmarks --benchmark_filter=Encoding
#include "layout/triton/encoding.h"

#include <benchmark/benchmark.h>

namespace {

void BM_EncodingToLinearLayout_Blocked128x128(benchmark::State& state) {
  auto enc = layout::triton::parseEncoding(
      "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
      "order = [1, 0]}>");
  int64_t shape[] = {128, 128};
  for (auto _ : state)
    benchmark::DoNotOptimize(layout::triton::toLinearLayoutUncached(*enc, shape));
}
BENCHMARK(BM_EncodingToLinearLayout_Blocked128x128);

void BM_EncodingParse_Blocked(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(layout::triton::parseEncoding(
        "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
        "order = [1, 0]}>"));
}
BENCHMARK(BM_EncodingParse_Blocked);

} // namespace

namespace {

// Issue 3's reference case: a 128x128 dot operand of an Ampere MMA.
void BM_EncodingToLinearLayout_MmaDotOperand128x128(benchmark::State& state) {
  auto enc = layout::triton::parseEncoding(
      "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
      "warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>");
  int64_t shape[] = {128, 128};
  for (auto _ : state)
    benchmark::DoNotOptimize(layout::triton::toLinearLayoutUncached(*enc, shape));
}
BENCHMARK(BM_EncodingToLinearLayout_MmaDotOperand128x128);

void BM_EncodingToLinearLayout_MmaDotOperand128x128_Cached(benchmark::State& state) {
  auto enc = layout::triton::parseEncoding(
      "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
      "warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>");
  int64_t shape[] = {128, 128};
  (void)layout::triton::toLinearLayout(*enc, shape);
  for (auto _ : state) benchmark::DoNotOptimize(layout::triton::toLinearLayout(*enc, shape));
}
BENCHMARK(BM_EncodingToLinearLayout_MmaDotOperand128x128_Cached);

} // namespace
