// The explorer's work when a layout or view changes (not per frame): enumerating a 256x256
// tensor's owners (TensorMap::build), building its tensor and hardware scenes (labels, colours,
// marks for 65,536 cells), and writing the tensor scene as SVG. Per-frame drawing is measured
// in the app itself (benchmarks/explorer_frame_times.sh).
#include "explorer/layout_input.h"
#include "explorer/layout_maps.h"
#include "explorer/svg_export.h"
#include "explorer/views.h"

#include <benchmark/benchmark.h>

namespace {

const explorer::TensorMap& map256() {
  static const explorer::TensorMap map = [] {
    int64_t shape[] = {256, 256};
    auto in = explorer::parseLayoutInput("#ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = "
                                         "[4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
                                         shape);
    return *explorer::TensorMap::build(in->layout);
  }();
  return map;
}

void BM_ExplorerTensorMap256(benchmark::State& state) {
  const auto& ll = map256().layout();
  for (auto _ : state) benchmark::DoNotOptimize(explorer::TensorMap::build(ll));
}
BENCHMARK(BM_ExplorerTensorMap256)->Unit(benchmark::kMillisecond);

void BM_ExplorerTensorScene256(benchmark::State& state) {
  explorer::ViewOptions opt;
  opt.selectedThread = 0;
  for (auto _ : state) benchmark::DoNotOptimize(explorer::tensorScene(map256(), opt));
}
BENCHMARK(BM_ExplorerTensorScene256)->Unit(benchmark::kMillisecond);

void BM_ExplorerHardwareScene256(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(explorer::hardwareScene(map256(), {}));
}
BENCHMARK(BM_ExplorerHardwareScene256)->Unit(benchmark::kMillisecond);

void BM_ExplorerSvg256(benchmark::State& state) {
  const explorer::Scene scene = explorer::tensorScene(map256(), {});
  for (auto _ : state) benchmark::DoNotOptimize(explorer::sceneToSvg(scene));
}
BENCHMARK(BM_ExplorerSvg256)->Unit(benchmark::kMillisecond);

} // namespace
