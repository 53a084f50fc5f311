// layoutctl report (issue 33) on a 2,000-op TTGIR file: the flash-attention kernel of the Triton
// 3.6 corpus with its function repeated under new names until the module holds 2,000 ops (real
// dumps of large kernels repeat the same encodings and shapes the same way). Goal: under 1 s.
#include "layout/report/kernel_report.h"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string generatedKernel(int minOps) {
  std::ifstream in(std::string(LAYOUT_TRITON_CORPUS) + "/attn_fwd_f16_128x64_d64.sm80.ttgir");
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  size_t start = 0, end = 0;
  while (start < lines.size() && lines[start].find("tt.func") == std::string::npos) ++start;
  for (end = start + 1; end < lines.size() && lines[end].rfind("  } loc", 0) != 0;) ++end;
  if (end >= lines.size()) return "";
  const std::regex op(R"(^\s+(%\S+ = )?[a-z_]+\.[a-z_.]+)");
  int perFunction = 0;
  for (size_t i = start; i <= end; ++i) perFunction += std::regex_search(lines[i], op) ? 1 : 0;
  std::ostringstream out;
  for (size_t i = 0; i < start; ++i) out << lines[i] << "\n";
  for (int copy = 0; copy * perFunction < minOps; ++copy) {
    out << std::regex_replace(lines[start], std::regex("@attn_fwd_kernel"),
                              "@attn_fwd_kernel_" + std::to_string(copy))
        << "\n";
    for (size_t i = start + 1; i <= end; ++i) out << lines[i] << "\n";
  }
  for (size_t i = end + 1; i < lines.size(); ++i) out << lines[i] << "\n";
  return out.str();
}

void BM_ReportKernel_2000Ops(benchmark::State& state) {
  const std::string text = generatedKernel(2000);
  size_t ops = 0;
  for (auto _ : state) {
    auto r = layout::report::reportFromText(text, {});
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    ops = r->ops.size();
    benchmark::DoNotOptimize(layout::report::reportToJson(*r).dump());
  }
  state.counters["analysedOps"] = double(ops);
}
BENCHMARK(BM_ReportKernel_2000Ops)->Unit(benchmark::kMillisecond);

} // namespace
