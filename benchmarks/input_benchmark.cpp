// Reading user input within its limits (docs/limits.md): the layout JSON reader on an ordinary
// layout and on 100k dims (linear: it was quadratic), and the batch loop's bounded line reader.
#include "layout/core/resource_limits.h"
#include "layout/protocol/batch.h"
#include "layout/text/layout_json.h"

#include <benchmark/benchmark.h>

#include <sstream>
#include <string>

namespace {

// The 16x16 layout of interchange §1.
const char* kSpecLayout =
    R"({"inDims":[{"name":"register","bases":[[0,1],[8,0]]},)"
    R"({"name":"lane","bases":[[0,2],[0,4],[1,0],[2,0],[4,0]]},{"name":"warp","bases":[]}],)"
    R"("outDims":[{"name":"dim0","size":16},{"name":"dim1","size":16}]})";

void BM_LayoutJsonParse_SpecLayout(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(layout::parseLayoutJson(kSpecLayout));
}
BENCHMARK(BM_LayoutJsonParse_SpecLayout)->Unit(benchmark::kMicrosecond);

void BM_LayoutJsonParse_ManyDims(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::string text = R"({"inDims":[)";
  for (int64_t i = 0; i < n; ++i)
    text += (i ? "," : "") + std::string(R"({"name":"d)") + std::to_string(i) + R"(","bases":[]})";
  text += R"(],"outDims":[{"name":"o","size":1}]})";
  layout::ResourceLimits limits = layout::resourceLimits();
  limits.maxDims = uint64_t(n) + 1;
  layout::setResourceLimits(limits);
  for (auto _ : state) benchmark::DoNotOptimize(layout::parseLayoutJson(text));
  state.SetComplexityN(n);
}
BENCHMARK(BM_LayoutJsonParse_ManyDims)
    ->Arg(25000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

// 1,000 isInvertible requests on the spec layout through BatchProcessor::run.
void BM_BatchRun_1000Lines(benchmark::State& state) {
  std::string input;
  for (int i = 0; i < 1000; ++i)
    input += R"({"id": )" + std::to_string(i) + R"(, "op": "isInvertible", "inputs": [)" +
             kSpecLayout + "]}\n";
  const layout::BatchProcessor batch;
  for (auto _ : state) {
    std::istringstream in(input);
    std::ostringstream out;
    benchmark::DoNotOptimize(batch.run(in, out));
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_BatchRun_1000Lines)->Unit(benchmark::kMillisecond);

} // namespace
