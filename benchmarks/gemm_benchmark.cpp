// The GEMM kernel path: building the kernel IR from a configuration (layouts, block-load plans,
// shuffles), and simulating a whole GEMM in the Xe simulator (issue 7's target: 512^3 bf16 in
// <= 5 s on one core). Inputs are made once; each iteration re-runs the simulation on them.
#include "codegen/gemm_kernel_builder.h"
#include "kernels/gemm_verification.h"
#include "kernels/xe_simulator.h"

#include <benchmark/benchmark.h>

namespace {

using namespace layout;

codegen::GemmConfig cubed(int64_t size, codegen::GemmDataType t) {
  codegen::GemmConfig c; // the RFC tiling: sg_layout [8, 4], sg_data [32, 64]
  c.m = c.n = c.k = size;
  c.dtype = t;
  c.kTile = codegen::dataTypeTraits(t).dpasK * 2;
  return c;
}

void BM_BuildGemmKernelRfc(benchmark::State& state) {
  const auto c = cubed(4096, codegen::GemmDataType::BF16);
  for (auto _ : state) benchmark::DoNotOptimize(codegen::buildGemmKernel(c));
}
BENCHMARK(BM_BuildGemmKernelRfc)->Unit(benchmark::kMicrosecond);

void simulate(benchmark::State& state, codegen::GemmDataType t) {
  const auto c = cubed(state.range(0), t);
  auto kernel = codegen::buildGemmKernel(c);
  auto in = kernels::makeGemmInputs(c, kernels::InputKind::Random, 1);
  for (auto _ : state) {
    auto stats = kernels::simulateGemmKernel(*kernel, in.memory);
    if (!stats) state.SkipWithError(stats.error().message.c_str());
  }
  if (!kernels::verifyGemm(c, in).passed) state.SkipWithError("verification failed");
  state.counters["GFLOP/s"] = benchmark::Counter(static_cast<double>(2 * c.m * c.n * c.k),
                                                 benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
}

void BM_SimulateGemmBf16(benchmark::State& state) {
  simulate(state, codegen::GemmDataType::BF16);
}
BENCHMARK(BM_SimulateGemmBf16)->Arg(512)->Unit(benchmark::kMillisecond);
void BM_SimulateGemmInt8(benchmark::State& state) {
  simulate(state, codegen::GemmDataType::Int8);
}
BENCHMARK(BM_SimulateGemmInt8)->Arg(512)->Unit(benchmark::kMillisecond);
void BM_SimulateGemmTf32(benchmark::State& state) {
  simulate(state, codegen::GemmDataType::TF32);
}
BENCHMARK(BM_SimulateGemmTf32)->Arg(512)->Unit(benchmark::kMillisecond);

} // namespace
