// The GEMM kernel path: building the kernel IR from a configuration (layouts, block-load plans,
// shuffles), and simulating a whole GEMM in the Xe simulator (issue 7's target: 512^3 bf16 in
// <= 5 s on one core). Inputs are made once; each iteration re-runs the simulation on them.
// Issue 31: the exact verification, the inputs, one DPAS instruction, and the whole run of
// `layoutctl gemm` at 2048^3 (inputs, simulation, verification of every element; target <= 4 s
// on a 2-core machine) on 1 thread and on the hardware's threads (the second argument; 0: all).
#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/kernels/gemm_verification.h"
#include "layout/kernels/xe_simulator.h"

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

void setMacRate(benchmark::State& state, const codegen::GemmConfig& c) {
  state.counters["GFLOP/s"] = benchmark::Counter(static_cast<double>(2 * c.m * c.n * c.k),
                                                 benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
}

void BM_BuildGemmKernelRfc(benchmark::State& state) {
  const auto c = cubed(4096, codegen::GemmDataType::BF16);
  for (auto _ : state) benchmark::DoNotOptimize(codegen::buildGemmKernel(c));
}
BENCHMARK(BM_BuildGemmKernelRfc)->Unit(benchmark::kMicrosecond);

// size^3 on `threads` threads (1: issue 7's one-core figure).
void simulate(benchmark::State& state, codegen::GemmDataType t, int threads = 1) {
  const auto c = cubed(state.range(0), t);
  auto kernel = codegen::buildGemmKernel(c);
  auto in = kernels::makeGemmInputs(c, kernels::InputKind::Random, 1);
  for (auto _ : state) {
    auto stats = kernels::simulateGemmKernel(*kernel, in.memory, {threads, nullptr});
    if (!stats) state.SkipWithError(stats.error().message.c_str());
  }
  if (!kernels::verifyGemm(c, in).passed) state.SkipWithError("verification failed");
  setMacRate(state, c);
}

void BM_SimulateGemmBf16(benchmark::State& state) {
  simulate(state, codegen::GemmDataType::BF16);
}
BENCHMARK(BM_SimulateGemmBf16)->Arg(512)->Arg(1024)->Unit(benchmark::kMillisecond);
// The same on the hardware's threads (wall time).
void BM_SimulateGemmBf16Threads(benchmark::State& state) {
  simulate(state, codegen::GemmDataType::BF16, 0);
}
BENCHMARK(BM_SimulateGemmBf16Threads)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_SimulateGemmF16(benchmark::State& state) {
  simulate(state, codegen::GemmDataType::F16);
}
BENCHMARK(BM_SimulateGemmF16)->Arg(512)->Unit(benchmark::kMillisecond);
void BM_SimulateGemmInt8(benchmark::State& state) {
  simulate(state, codegen::GemmDataType::Int8);
}
BENCHMARK(BM_SimulateGemmInt8)->Arg(512)->Unit(benchmark::kMillisecond);
void BM_SimulateGemmTf32(benchmark::State& state) {
  simulate(state, codegen::GemmDataType::TF32);
}
BENCHMARK(BM_SimulateGemmTf32)->Arg(512)->Unit(benchmark::kMillisecond);

// One DPAS instruction (8x16x16 bf16 -> f32, the RFC's repeat count), through the same code as
// the simulator.
void BM_SimulateDpasBf16(benchmark::State& state) {
  std::vector<std::vector<uint32_t>> a(16, std::vector<uint32_t>(8)),
      b(16, std::vector<uint32_t>(8)), c(16, std::vector<uint32_t>(8));
  for (int l = 0; l < 16; ++l) {
    for (int i = 0; i < 8; ++i) a[l][i] = 0x3f80u + static_cast<uint32_t>(l + i); // bf16 ~1
    for (int j = 0; j < 8; ++j) b[l][j] = 0x3f803f80u + static_cast<uint32_t>(j);
  }
  for (auto _ : state)
    benchmark::DoNotOptimize(kernels::simulateDpas(codegen::GemmDataType::BF16, 8, a, b, c));
}
BENCHMARK(BM_SimulateDpasBf16)->Unit(benchmark::kNanosecond);

// The exact verification of every element (random bf16: the binary64 vector reference with one
// split), on a result the simulator wrote.
void BM_VerifyGemmBf16(benchmark::State& state) {
  const auto c = cubed(state.range(0), codegen::GemmDataType::BF16);
  const int threads = static_cast<int>(state.range(1));
  auto kernel = codegen::buildGemmKernel(c);
  auto in = kernels::makeGemmInputs(c, kernels::InputKind::Random, 1);
  if (!kernels::simulateGemmKernel(*kernel, in.memory)) state.SkipWithError("simulation failed");
  for (auto _ : state) {
    const auto v = kernels::verifyGemm(c, in, kernels::kRoundToNearestUnit, {}, {threads, nullptr});
    if (!v.passed) state.SkipWithError("verification failed");
  }
  setMacRate(state, c);
}
BENCHMARK(BM_VerifyGemmBf16)
    ->Args({512, 1})
    ->Args({1024, 1})
    ->Args({1024, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Fresh inputs (A, B, the float64 copies, C poisoned) of a size^3 bf16 GEMM.
void BM_MakeGemmInputs(benchmark::State& state) {
  const auto c = cubed(state.range(0), codegen::GemmDataType::BF16);
  for (auto _ : state)
    benchmark::DoNotOptimize(kernels::makeGemmInputs(c, kernels::InputKind::Random, 1,
                                                     static_cast<int>(state.range(1))));
}
BENCHMARK(BM_MakeGemmInputs)
    ->Args({2048, 1})
    ->Args({2048, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// What `layoutctl gemm --m S --n S --k S` does after printing the plan: inputs, the simulation and
// the exact verification of every element, on `threads` threads (issue 31: 2048^3 in <= 4 s).
void BM_GemmEndToEnd(benchmark::State& state) {
  const auto c = cubed(state.range(0), codegen::GemmDataType::BF16);
  const int threads = static_cast<int>(state.range(1));
  auto kernel = codegen::buildGemmKernel(c);
  for (auto _ : state) {
    auto in = kernels::makeGemmInputs(c, kernels::InputKind::Random, 1, threads);
    if (!kernels::simulateGemmKernel(*kernel, in.memory, {threads, nullptr}))
      state.SkipWithError("simulation failed");
    if (!kernels::verifyGemm(c, in, kernels::kRoundToNearestUnit, {}, {threads, nullptr}).passed)
      state.SkipWithError("verification failed");
  }
  setMacRate(state, c);
}
BENCHMARK(BM_GemmEndToEnd)
    ->Args({2048, 1})
    ->Args({2048, 0})
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);

} // namespace
