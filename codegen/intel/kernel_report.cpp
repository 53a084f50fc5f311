// The kernel plan as text and JSON: configuration, launch, layouts, block I/O and the static
// report.
#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/codegen/performance_model.h"

#include "layout/intel/block_load_plan.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace layout::codegen {
namespace {

std::string axisText(const GemmKernel& k, const AxisIndex& a) {
  std::string s;
  auto add = [&](const std::string& term) { s += (s.empty() ? "" : " + ") + term; };
  if (a.workgroup == WorkgroupTerm::RowTile)
    add("wg_m*" + std::to_string(workgroupTileM(k.config)));
  if (a.workgroup == WorkgroupTerm::ColumnTile)
    add("wg_n*" + std::to_string(workgroupTileN(k.config)));
  if (a.addK) add("k0");
  if (a.origin >= 0) add(k.origins[a.origin].name + (a.originAxis == 0 ? "_row" : "_col"));
  if (a.constant != 0 || s.empty()) add(std::to_string(a.constant));
  return s;
}

bool hasSplitBarrier(const GemmKernel& k) {
  return std::any_of(k.mainLoop.begin(), k.mainLoop.end(),
                     [](const Op& op) { return std::holds_alternative<SplitBarrierOp>(op); });
}

nlohmann::ordered_json blockIoJson(const GemmKernel& k, const BlockIoOp& op) {
  nlohmann::ordered_json j;
  j["op"] = intel::blockOpName(op.kind);
  j["matrix"] = matrixName(op.matrix);
  j["shape"] = intel::blockShapeName(op.shape);
  j["row"] = axisText(k, op.row);
  j["column"] =
      axisText(k, op.column) + (op.xDivisor > 1 ? " (/" + std::to_string(op.xDivisor) + ")" : "");
  if (op.value >= 0) j["value"] = k.values[op.value].name;
  return j;
}

} // namespace

nlohmann::ordered_json kernelPlanToJson(const GemmKernel& k) {
  nlohmann::ordered_json j;
  j["config"] = gemmConfigToJson(k.config);
  j["kernel"] = k.name;
  j["launch"] = {
      {"workgroups", {k.launch.workgroupsN, k.launch.workgroupsM}},
      {"localSize", {k.launch.localSize(), 1}},
      {"globalSize", {k.launch.workgroupsN * k.launch.localSize(), k.launch.workgroupsM}},
      {"subgroupSize", k.launch.subgroupSize}};
  const KernelBuildOptions options = kernelBuildOptions(k.config);
  j["buildOptions"] = {{"levelZero", options.levelZero}, {"opencl", options.openCl}};
  nlohmann::ordered_json surfaces = nlohmann::ordered_json::object();
  for (auto m : {MatrixOperand::A, MatrixOperand::B, MatrixOperand::C}) {
    const auto s = matrixSurface(k.config, m);
    const auto extent = matrixExtent(k.config, m);
    surfaces[std::string(matrixName(m))] = {
        {"widthBytes", s.widthBytes},
        {"height", s.height},
        {"pitchBytes", s.pitchBytes},
        {"rowBytes", extent[1] * matrixElementBits(k.config, m) / 8}};
  }
  // The widening of A's and B's rows (rowBytes .. widthBytes) is read as data: it must be zero.
  surfaces["paddingMustBeZero"] = true;
  j["surfaces"] = surfaces;
  j["encodings"] = {{"A", k.encodingA}, {"B", k.encodingB}, {"C", k.encodingC}};
  nlohmann::ordered_json origins = nlohmann::ordered_json::object();
  for (const auto& o : k.origins) {
    nlohmann::ordered_json bases = nlohmann::ordered_json::array();
    const int w = o.layout.inDimIndex(dims::warp());
    for (int i = 0; w >= 0 && i < o.layout.inDimSizeLog2(w); ++i)
      bases.push_back(o.layout.basis(w, i));
    origins[o.name] = bases;
  }
  j["subgroupOrigins"] = origins;
  j["blockLoads"] = {{"A", intel::blockLoadPlanToJson(k.planA)},
                     {"B", intel::blockLoadPlanToJson(k.planB)}};
  nlohmann::ordered_json io = nlohmann::ordered_json::array();
  for (const auto* list : {&k.mainLoop, &k.epilogue})
    for (const Op& op : *list)
      if (const auto* b = std::get_if<BlockIoOp>(&op)) io.push_back(blockIoJson(k, *b));
  j["blockIo"] = io;
  const KernelReport& r = k.report;
  j["pipeline"] = {{"stages", k.config.stages}, {"splitBarrier", hasSplitBarrier(k)}};
  j["report"] = {{"dpasPerKStep", r.dpasPerKStep},
                 {"loadsPerKStep", r.loadsPerKStep},
                 {"prefetchesPerKStep", r.prefetchesPerKStep},
                 {"storesPerSubgroup", r.storesPerSubgroup},
                 {"bytesLoadedPerKStep", r.bytesLoadedPerKStep},
                 {"bytesPerDpas", r.bytesPerDpas},
                 {"kSteps", r.kSteps},
                 {"grf",
                  {{"accumulators", r.accumulatorGrf},
                   {"operands", r.operandGrf},
                   {"messagePayloads", r.messageGrf},
                   {"scalars", r.scalarGrf},
                   {"compilerReserved", r.reservedGrf},
                   {"total", r.totalGrf},
                   {"available", r.grfAvailable}}},
                 {"flops", r.flops}};
  if (auto m = predictPerformance(k))
    j["report"]["model"] = {{"device", m->device.device},
                            {"peakTflops", m->device.peakTflops()},
                            {"dpasCyclesPerKStep", m->dpasCyclesPerKStep},
                            {"tileBytesPerKStep", m->tileBytesPerKStep},
                            {"memoryCyclesPerKStep", m->memoryCyclesPerKStep},
                            {"coreUtilization", m->coreUtilization},
                            {"fractionOfPeakWithoutL2Reuse", m->lowerFraction},
                            {"fractionOfPeakWithFullL2Reuse", m->upperFraction}};
  return j;
}

std::string kernelReportText(const GemmKernel& k) {
  const auto& c = k.config;
  const auto& r = k.report;
  std::ostringstream o;
  o << "kernel " << k.name << ": D[" << c.m << ", " << c.n << "] = A[" << c.m << ", " << c.k
    << "] * B"
    << (c.transposeB ? "^T[" + std::to_string(c.n) + ", " + std::to_string(c.k) + "]"
                     : "[" + std::to_string(c.k) + ", " + std::to_string(c.n) + "]")
    << ", " << dataTypeTraits(c.dtype).name << " -> " << dataTypeTraits(c.dtype).accumulator
    << ", arch " << c.arch << "\n";
  o << "  workgroup tile " << workgroupTileM(c) << "x" << workgroupTileN(c) << " (sg_layout ["
    << c.sgLayout[0] << ", " << c.sgLayout[1] << "], sg_data [" << c.sgData[0] << ", "
    << c.sgData[1] << "]), k_tile " << c.kTile << ", DPAS " << c.repeatCount << "x16x"
    << dataTypeTraits(c.dtype).dpasK << "\n";
  o << "  launch: " << k.launch.workgroupsM << "x" << k.launch.workgroupsN << " workgroups of "
    << k.launch.subgroupsPerWorkgroup << " subgroups (local size " << k.launch.localSize()
    << ", global " << k.launch.workgroupsN * k.launch.localSize() << "x" << k.launch.workgroupsM
    << ")\n";
  o << "  layouts: A " << k.encodingA << "\n           B " << k.encodingB << "\n           C "
    << k.encodingC << "\n";
  o << "  block I/O per subgroup:\n";
  for (const auto* list : {&k.mainLoop, &k.epilogue})
    for (const Op& op : *list)
      if (const auto* b = std::get_if<BlockIoOp>(&op))
        o << "    " << intel::blockOpName(b->kind) << " " << matrixName(b->matrix) << " "
          << intel::blockShapeName(b->shape) << " at (row " << axisText(k, b->row) << ", col "
          << axisText(k, b->column) << (b->xDivisor > 1 ? " /" + std::to_string(b->xDivisor) : "")
          << ")\n";
  o << "  report per subgroup: " << r.dpasPerKStep << " DPAS, " << r.loadsPerKStep << " loads, "
    << r.prefetchesPerKStep << " prefetches per K step (" << r.kSteps << " steps); "
    << r.bytesLoadedPerKStep << " bytes loaded per K step = " << r.bytesPerDpas
    << " bytes per DPAS; " << r.storesPerSubgroup << " stores\n";
  o << "  pipeline: prefetch " << c.stages << " K step(s) ahead"
    << (hasSplitBarrier(k) ? "; split work-group barrier: arrive at the start of each K step, "
                             "wait at its end"
                           : "; no barrier")
    << "\n";
  o << "  registers: " << r.totalGrf << " of " << r.grfAvailable << " GRF (" << r.accumulatorGrf
    << " accumulators + " << r.operandGrf << " operands + " << r.messageGrf
    << " block-I/O payloads + " << r.scalarGrf << " scalars + " << r.reservedGrf
    << " reserved for the compiler; assumed: one payload register per block-I/O message of a K "
       "step, the scalars in one register, 16 registers of compiler margin)\n";
  if (auto m = predictPerformance(k)) {
    char line[400];
    std::snprintf(
        line, sizeof line,
        "  model (%s, %.1f TFLOP/s peak): per K step a workgroup's DPAS take %.0f cycles "
        "of one Xe core, its tiles (%.0f bytes) %.0f cycles at the core's share of the "
        "memory bandwidth; %.0f %% of the cores busy over the waves: %.0f %% of peak without L2 "
        "reuse, %.0f %% with each operand read once (ignores latency, load and shuffle "
        "issue, the epilogue)\n",
        m->device.device.c_str(), m->device.peakTflops(), m->dpasCyclesPerKStep,
        m->tileBytesPerKStep, m->memoryCyclesPerKStep, 100 * m->coreUtilization,
        100 * m->lowerFraction, 100 * m->upperFraction);
    o << line;
  }
  return o.str();
}

} // namespace layout::codegen
