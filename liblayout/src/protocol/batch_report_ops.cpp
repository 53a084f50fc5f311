// Batch op report.kernel, also `layoutctl report FILE.mlir`: every layout-bearing op of a kernel's
// MLIR with what it costs (layout/report/kernel_report.h), as JSON, text or SARIF.
#include "layout/report/kernel_report.h"
#include "typed_op.h"

#include <nlohmann/json.hpp>

namespace layout {

namespace {

// The report with the SARIF choice it was asked for: `sarif` makes the JSON SARIF 2.1.0.
struct ReportResult {
  report::KernelReport report;
  bool sarif = false;
};

Expected<ReportResult> runReport(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(text, r.stringArg("mlir"));
  report::ReportOptions options;
  if (r.args.contains("target")) {
    LAYOUT_TRY_ASSIGN(t, r.stringArg("target"));
    options.target = t;
    if (auto known = report::bankModelForTarget(t); !known)
      return makeError(r.argPath("target") + ": " + known.error().message);
  }
  LAYOUT_TRY_ASSIGN(k, report::reportFromText(text, options));
  const bool sarif =
      r.args.contains("sarif") && r.args["sarif"].is_boolean() && r.args["sarif"].get<bool>();
  return ReportResult{std::move(k), sarif};
}

nlohmann::ordered_json resultJson(const ReportResult& r) {
  return r.sarif ? report::reportToSarif(r.report) : report::reportToJson(r.report);
}

// SARIF is JSON whatever --format says: it is the format.
std::string resultText(const ReportResult& r) {
  return r.sarif ? report::reportToSarif(r.report).dump(2) + "\n" : report::reportText(r.report);
}

} // namespace

void registerReportOps(BatchProcessor& p) {
  p.registerOp("report.kernel",
               typedOp<ReportResult>(
                   "args {mlir (the text of a TritonGPU IR file), target (sm80, sm90, cuda:90, "
                   "gfx942, ...; default the module's ttg.target), sarif} -> every "
                   "convert_layout, shared-memory access, dot and load/store with its cost",
                   {OpArg("mlir", OpArgKind::String).needed().asPositional(),
                    OpArg("target", OpArgKind::String), OpArg("sarif", OpArgKind::Flag)},
                   runReport, resultJson, resultText));
}

} // namespace layout
