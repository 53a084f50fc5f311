// Benchmarks of the bank analysis, the swizzle synthesis (layout/smem) and the conversion planner
// on a 128x128 f16 tile stored by a blocked layout and read back transposed, as a convert_layout
// through shared memory asks for it. Layouts are converted once; each iteration analyses /
// synthesizes / plans.
//
//   ./build/benchmarks/layout_benchmarks --benchmark_filter='Banks|Swizzle|ConvertPlan'
#include "layout/conversion/conversion_plan.h"
#include "layout/smem/swizzle_synthesis.h"
#include "layout/triton/encoding.h"

#include <benchmark/benchmark.h>

namespace {

using namespace layout;

const int64_t kShape[] = {128, 128};

LinearLayout convert(const char* text) {
  return *triton::toLinearLayout(*triton::parseEncoding(text), kShape);
}

LinearLayout storeLayout() {
  return convert("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = "
                 "[4, 1], order = [1, 0]}>");
}

LinearLayout loadLayout() {
  return convert("#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = "
                 "[1, 4], order = [0, 1]}>");
}

// The whole tile: 4 warps x 64 accesses x 4 phases, closed form plus the first access's tables.
void BM_BanksAnalyze_128x128(benchmark::State& state) {
  smem::SharedAccess a{storeLayout(), *smem::xorSwizzleShared(kShape, 8, 8), 16, {}};
  auto ins = *smem::bankInstruction("nvidia.st.b128");
  for (auto _ : state) benchmark::DoNotOptimize(smem::analyzeBanks(a, ins));
}
BENCHMARK(BM_BanksAnalyze_128x128)->Unit(benchmark::kMicrosecond);

// The same tile padded (#ttg.padded_shared): every access enumerated.
void BM_BanksAnalyzeEnumerated_128x128(benchmark::State& state) {
  auto enc =
      *triton::parseEncoding("#ttg.padded_shared<[128:+8] {order = [1, 0], shape = [128, 128]}>");
  smem::SharedAccess a{storeLayout(), *triton::toLinearLayout(enc, kShape), 16,
                       *triton::paddedSharedAddressMap(enc)};
  auto ins = *smem::bankInstruction("nvidia.st.b128");
  for (auto _ : state) benchmark::DoNotOptimize(smem::analyzeBanks(a, ins));
}
BENCHMARK(BM_BanksAnalyzeEnumerated_128x128)->Unit(benchmark::kMicrosecond);

// Synthesis with both bank reports and the family search (Triton's vec / perPhase / maxPhase on
// both orders, seed 004's rule).
void BM_SwizzleSynthesis_128x128(benchmark::State& state) {
  smem::SwizzleRequest req{storeLayout(), loadLayout(), 16,
                           *smem::bankInstruction("nvidia.st.b128"),
                           *smem::bankInstruction("nvidia.ld.b16")};
  for (auto _ : state) benchmark::DoNotOptimize(smem::synthesizeSwizzle(req));
}
BENCHMARK(BM_SwizzleSynthesis_128x128)->Unit(benchmark::kMillisecond);

} // namespace

namespace {

// A conversion plan through shared memory (the same store / load pair; instructions from the
// nvidia target, every width pair tried) and one through shuffles.
void BM_ConvertPlanShared_128x128(benchmark::State& state) {
  LinearLayout src = storeLayout(), dst = loadLayout();
  for (auto _ : state) benchmark::DoNotOptimize(conversion::planConversion(src, dst, 16, "nvidia"));
}
BENCHMARK(BM_ConvertPlanShared_128x128)->Unit(benchmark::kMillisecond);

void BM_ConvertPlanShuffle_32x32(benchmark::State& state) {
  const int64_t shape[] = {32, 32};
  auto conv = [&](const char* t) {
    return *triton::toLinearLayout(*triton::parseEncoding(t), shape);
  };
  LinearLayout src = conv("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                          "warpsPerCTA = [4, 1], order = [1, 0]}>");
  LinearLayout dst = conv("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], "
                          "warpsPerCTA = [4, 1], order = [1, 0]}>");
  for (auto _ : state) benchmark::DoNotOptimize(conversion::planConversion(src, dst, 16, "nvidia"));
}
BENCHMARK(BM_ConvertPlanShuffle_32x32)->Unit(benchmark::kMicrosecond);

} // namespace
