// layoutctl report (issue 33) on 2,000-op files: a kernel of the corpus with its function (or
// module) repeated under new names until the file holds 2,000 ops (real dumps of large kernels
// repeat the same encodings and shapes the same way). Goal: under 1 s.
//   BM_ReportKernel_2000Ops  the Triton 3.6 flash-attention kernel (TTGIR)
//   BM_ReportXegpu_2000Ops   the XeGPU subgroup GEMM (tests/data/ir/xegpu/gemm_sg.mlir)
#include "layout/report/kernel_report.h"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

// `path` with the lines from the first one starting with `opener` to the last one ending the
// unit (`closer` at the start of a line, else the end of the file) repeated, `name` renamed in
// the opener of each copy, until the copies hold `minOps` ops.
std::string repeated(const std::string& path, const std::regex& opener, const std::string& closer,
                     const std::string& name, int minOps) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  size_t start = 0, end = 0;
  while (start < lines.size() && !std::regex_search(lines[start], opener)) ++start;
  if (start >= lines.size()) return "";
  end = closer.empty() ? lines.size() - 1 : start + 1;
  while (!closer.empty() && end < lines.size() && lines[end].rfind(closer, 0) != 0) ++end;
  if (end >= lines.size()) return "";
  const std::regex op(R"(^\s+(%\S+ = )?[a-z_]+\.[a-z_.]+)");
  int perCopy = 0;
  for (size_t i = start; i <= end; ++i) perCopy += std::regex_search(lines[i], op) ? 1 : 0;
  std::ostringstream out;
  for (size_t i = 0; i < start; ++i) out << lines[i] << "\n";
  for (int copy = 0; copy * perCopy < minOps; ++copy) {
    out << std::regex_replace(lines[start], std::regex(name), name + "_" + std::to_string(copy))
        << "\n";
    for (size_t i = start + 1; i <= end; ++i) out << lines[i] << "\n";
  }
  for (size_t i = end + 1; i < lines.size(); ++i) out << lines[i] << "\n";
  return out.str();
}

void reportOf(benchmark::State& state, const std::string& text) {
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

void BM_ReportKernel_2000Ops(benchmark::State& state) {
  reportOf(state,
           repeated(std::string(LAYOUT_TRITON_CORPUS) + "/attn_fwd_f16_128x64_d64.sm80.ttgir",
                    std::regex("tt.func"), "  } loc", "@attn_fwd_kernel", 2000));
}
BENCHMARK(BM_ReportKernel_2000Ops)->Unit(benchmark::kMillisecond);

void BM_ReportXegpu_2000Ops(benchmark::State& state) {
  reportOf(state, repeated(std::string(LAYOUT_TRITON_CORPUS) + "/../xegpu/gemm_sg.mlir",
                           std::regex("^gpu.module"), "", "@gemm_sg", 2000));
}
BENCHMARK(BM_ReportXegpu_2000Ops)->Unit(benchmark::kMillisecond);

} // namespace
