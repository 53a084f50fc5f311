// Benchmark of the Intel block-load planner (layout/intel/block_load_plan.h) on seed 002's
// operand A: parse once, plan per iteration, as the lowering of one tt.load asks for it.
//
//   ./build/benchmarks/layout_benchmarks --benchmark_filter=PlanBlockLoads
#include "layout/intel/block_load_plan.h"

#include <benchmark/benchmark.h>

namespace {

void BM_PlanBlockLoads_256x32(benchmark::State& state) {
  auto enc = layout::triton::parseEncoding(
      "#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, "
      "executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], "
      "repCluster = [4, 2]}>, kWidth = 1}>");
  auto pvc = layout::intel::blockIoTarget("pvc");
  int64_t shape[] = {256, 32};
  for (auto _ : state)
    benchmark::DoNotOptimize(layout::intel::planBlockLoads(*enc, shape, 16, false, *pvc));
}
BENCHMARK(BM_PlanBlockLoads_256x32);

} // namespace
