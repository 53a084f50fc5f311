// The explorer's work when a layout or view changes (not per frame): enumerating a 256x256
// tensor's owners (TensorMap::build), building its tensor and hardware scenes (labels, colours,
// marks for 65,536 cells), and writing the tensor scene as SVG. Per-frame drawing is measured
// in the app itself (benchmarks/explorer_frame_times.sh).
#include "layout/views/layout_input.h"
#include "layout/views/layout_maps.h"
#include "layout/views/svg_export.h"
#include "layout/views/views.h"

#include <benchmark/benchmark.h>

namespace {

const layout::views::TensorMap& map256() {
  static const layout::views::TensorMap map = [] {
    int64_t shape[] = {256, 256};
    auto in =
        layout::views::parseLayoutInput("#ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = "
                                        "[4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
                                        shape);
    return *layout::views::TensorMap::build(in->layout);
  }();
  return map;
}

void BM_ExplorerTensorMap256(benchmark::State& state) {
  const auto& ll = map256().layout();
  for (auto _ : state) benchmark::DoNotOptimize(layout::views::TensorMap::build(ll));
}
BENCHMARK(BM_ExplorerTensorMap256)->Unit(benchmark::kMillisecond);

void BM_ExplorerTensorScene256(benchmark::State& state) {
  layout::views::ViewOptions opt;
  opt.selectedThread = 0;
  for (auto _ : state) benchmark::DoNotOptimize(layout::views::tensorScene(map256(), opt));
}
BENCHMARK(BM_ExplorerTensorScene256)->Unit(benchmark::kMillisecond);

void BM_ExplorerHardwareScene256(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(layout::views::hardwareScene(map256(), {}));
}
BENCHMARK(BM_ExplorerHardwareScene256)->Unit(benchmark::kMillisecond);

void BM_ExplorerSvg256(benchmark::State& state) {
  const layout::views::Scene scene = layout::views::tensorScene(map256(), {});
  for (auto _ : state) benchmark::DoNotOptimize(layout::views::sceneToSvg(scene));
}
BENCHMARK(BM_ExplorerSvg256)->Unit(benchmark::kMillisecond);

} // namespace
