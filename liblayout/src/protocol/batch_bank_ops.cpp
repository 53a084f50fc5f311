// Batch ops banks.analyze and banks.swizzle (interchange §2): bank-conflict reports and swizzle
// synthesis (layout/smem).
#include "layout/protocol/batch.h"
#include "layout/protocol/op_args.h"
#include "layout/smem/shared_operands.h"
#include "layout/smem/swizzle_synthesis.h"
#include "layout/triton/layout_operand.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace layout {

using nlohmann::ordered_json;

namespace {

Expected<void> onlyArgs(const BatchRequest& r, const char* op,
                        std::initializer_list<std::string_view> known) {
  for (const auto& [key, value] : r.args.items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      return makeError("args." + key + ": unknown argument of " + op);
  return {};
}

// An instruction: a built-in name ("cdna4.ds_read_b128") or a model object.
Expected<smem::BankInstruction> instructionArg(const BatchRequest& r, const char* name) {
  const std::string path = std::string("args.") + name;
  auto it = r.args.find(name);
  if (it == r.args.end())
    return makeError(path + ": missing (an instruction name such as \"cdna4.ds_read_b128\" or a "
                            "bank model object)");
  return opargs::bankInstruction(*it, path);
}

// Encoding text or a layout JSON object, as text for parseLayoutOperand.
Expected<std::string> operandText(const BatchRequest& r, const char* name) {
  auto it = r.args.find(name);
  if (it == r.args.end())
    return makeError(std::string("args.") + name + ": missing (encoding text or layout JSON)");
  if (it->is_string()) return it->get<std::string>();
  if (it->is_object()) return it->dump();
  return makeError(std::string("args.") + name +
                   ": expected encoding text or a layout JSON object");
}

Expected<int> elemBitsArg(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(bits, r.uintArg("elemBits"));
  return opargs::elementBits(int64_t(std::min<uint64_t>(bits, 1u << 30)), opargs::kElementBits,
                             "args.elemBits");
}

Expected<std::vector<int64_t>> optionalShape(const BatchRequest& r) {
  if (!r.args.contains("shape")) return std::vector<int64_t>{};
  return r.shapeArg();
}

Expected<ordered_json> analyzeAddresses(const BatchRequest& r, const smem::BankInstruction& ins) {
  if (auto e = onlyArgs(r, "banks.analyze", {"byteAddresses", "bytesPerLane", "instruction"}); !e)
    return e.error();
  LAYOUT_TRY_ASSIGN(addresses,
                    opargs::laneAddresses(r.args["byteAddresses"], "args.byteAddresses"));
  LAYOUT_TRY_ASSIGN(bytes, r.uintArgOr("bytesPerLane", uint64_t(ins.bytesPerLane)));
  if (bytes < 1 || bytes > 256)
    return makeError("args.bytesPerLane: " + std::to_string(bytes) + " is outside [1, 256]");
  LAYOUT_TRY_ASSIGN(report, smem::analyzeByteAddresses(addresses, int(bytes), ins));
  return smem::bankReportToJson(report);
}

Expected<ordered_json> analyzeOp(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(ins, instructionArg(r, "instruction"));
  if (r.args.contains("byteAddresses")) return analyzeAddresses(r, ins);
  if (auto e = onlyArgs(
          r, "banks.analyze",
          {"access", "shared", "shape", "elemBits", "instruction", "swizzleUnit", "maxPhase"});
      !e)
    return e.error();
  LAYOUT_TRY_ASSIGN(shape, optionalShape(r));
  LAYOUT_TRY_ASSIGN(elemBits, elemBitsArg(r));
  LAYOUT_TRY_ASSIGN(access, operandText(r, "access"));
  smem::SharedSpec spec;
  if (r.args.contains("shared")) {
    LAYOUT_TRY_ASSIGN(t, operandText(r, "shared"));
    spec.text = t;
  }
  if (r.args.contains("swizzleUnit")) {
    LAYOUT_TRY_ASSIGN(u, r.uintArg("swizzleUnit"));
    LAYOUT_TRY_ASSIGN(p, r.uintArgOr("maxPhase", 1));
    if (u < 1 || u > (1u << 20) || p < 1 || p > (1u << 20))
      return makeError("args.swizzleUnit / args.maxPhase: expected powers of two in [1, 2^20]");
    spec.swizzleUnit = int(u);
    spec.maxPhase = int(p);
  } else if (r.args.contains("maxPhase")) {
    return makeError("args.maxPhase: needs args.swizzleUnit");
  }
  auto a = smem::sharedAccessFromText(access, spec, shape, elemBits);
  if (!a) return makeError("args." + a.error().message);
  LAYOUT_TRY_ASSIGN(report, smem::analyzeBanks(*a, ins));
  return smem::bankReportToJson(report);
}

Expected<ordered_json> swizzleOp(const BatchRequest& r) {
  if (auto e =
          onlyArgs(r, "banks.swizzle",
                   {"store", "load", "shape", "elemBits", "storeInstruction", "loadInstruction"});
      !e)
    return e.error();
  LAYOUT_TRY_ASSIGN(shape, optionalShape(r));
  LAYOUT_TRY_ASSIGN(elemBits, elemBitsArg(r));
  LAYOUT_TRY_ASSIGN(storeText, operandText(r, "store"));
  LAYOUT_TRY_ASSIGN(loadText, operandText(r, "load"));
  LAYOUT_TRY_ASSIGN(store,
                    parseLayoutOperand(storeText, shape, OperandKind::Distributed, "args.store"));
  LAYOUT_TRY_ASSIGN(load,
                    parseLayoutOperand(loadText, shape, OperandKind::Distributed, "args.load"));
  LAYOUT_TRY_ASSIGN(st, instructionArg(r, "storeInstruction"));
  LAYOUT_TRY_ASSIGN(ld, instructionArg(r, "loadInstruction"));
  LAYOUT_TRY_ASSIGN(res, smem::synthesizeSwizzle(smem::SwizzleRequest{
                             std::move(store.layout), std::move(load.layout), elemBits, st, ld}));
  return smem::swizzleResultToJson(res);
}

} // namespace

void registerBankOps(BatchProcessor& p) {
  p.registerOp("banks.analyze",
               BatchOp{0,
                       "args {access, shared | swizzleUnit+maxPhase (default row-major), shape, "
                       "elemBits, instruction} or {byteAddresses: [[lane, byte], ...], "
                       "bytesPerLane, instruction} -> per-phase ways, wavefronts, phase tables",
                       analyzeOp,
                       {"access", "shared", "swizzleUnit", "maxPhase", "shape", "elemBits",
                        "instruction", "byteAddresses", "bytesPerLane"}});
  p.registerOp(
      "banks.swizzle",
      BatchOp{0,
              "args {store, load, shape, elemBits, storeInstruction, loadInstruction} -> "
              "a conflict-free XOR swizzle, both reports, the lower bound, the families",
              swizzleOp,
              {"store", "load", "shape", "elemBits", "storeInstruction", "loadInstruction"}});
}

} // namespace layout
