// Batch ops banks.analyze and banks.swizzle (interchange §2), also `layoutctl banks` and
// `layoutctl swizzle`: bank-conflict reports and swizzle synthesis (layout/smem).
#include "layout/protocol/op_args.h"
#include "layout/smem/shared_operands.h"
#include "layout/smem/swizzle_synthesis.h"
#include "layout/triton/layout_operand.h"
#include "typed_op.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace layout {

using nlohmann::json;

namespace {

// The arguments of one form of banks.analyze: the other form's are errors naming them.
Expected<void> onlyArgs(const BatchRequest& r, std::initializer_list<std::string_view> known,
                        const char* form) {
  for (const auto& [key, value] : r.args.items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      return makeError(r.argPath(key) + ": not an argument of " + form);
  return {};
}

Expected<smem::BankInstruction> instructionArg(const BatchRequest& r, const char* name) {
  return opargs::bankInstruction(r.args.at(name), r.argPath(name));
}

// Encoding text or a layout JSON object, as text for parseLayoutOperand.
std::string operandText(const BatchRequest& r, const char* name) {
  const json& value = r.args.at(name);
  return value.is_string() ? value.get<std::string>() : value.dump();
}

Expected<std::vector<int64_t>> optionalShape(const BatchRequest& r) {
  if (!r.args.contains("shape")) return std::vector<int64_t>{};
  return r.shapeArg();
}

Expected<smem::BankReport> analyzeAddresses(const BatchRequest& r,
                                            const smem::BankInstruction& ins) {
  LAYOUT_TRY(
      onlyArgs(r, {"byteAddresses", "bytesPerLane", "instruction"}, "the byte-address form"));
  LAYOUT_TRY_ASSIGN(addresses,
                    opargs::laneAddresses(r.args["byteAddresses"], r.argPath("byteAddresses")));
  LAYOUT_TRY_ASSIGN(bytes, r.uintArgOr("bytesPerLane", uint64_t(ins.bytesPerLane)));
  return smem::analyzeByteAddresses(addresses, int(bytes), ins);
}

Expected<smem::BankReport> analyze(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(ins, instructionArg(r, "instruction"));
  if (r.args.contains("byteAddresses")) return analyzeAddresses(r, ins);
  LAYOUT_TRY(onlyArgs(
      r, {"access", "shared", "shape", "elemBits", "instruction", "swizzleUnit", "maxPhase"},
      "the access-layout form"));
  if (!r.args.contains("access"))
    return makeError(r.argPath("access") + ": missing (encoding text or layout JSON; or give " +
                     r.argPath("byteAddresses") + ")");
  if (!r.args.contains("elemBits"))
    return makeError(r.argPath("elemBits") + ": missing (the element width of the access)");
  LAYOUT_TRY_ASSIGN(shape, optionalShape(r));
  LAYOUT_TRY_ASSIGN(elemBits, r.uintArg("elemBits"));
  smem::SharedSpec spec;
  if (r.args.contains("shared")) spec.text = operandText(r, "shared");
  if (r.args.contains("swizzleUnit")) {
    LAYOUT_TRY_ASSIGN(u, r.uintArg("swizzleUnit"));
    LAYOUT_TRY_ASSIGN(p, r.uintArgOr("maxPhase", 1));
    spec.swizzleUnit = int(u);
    spec.maxPhase = int(p);
  }
  auto a = smem::sharedAccessFromText(operandText(r, "access"), spec, shape, int(elemBits));
  // Its errors name the field ("maxPhase: ..."); a batch response names it as an argument.
  if (!a && r.spelling == ArgSpelling::Batch) return makeError("args." + a.error().message);
  if (!a) return a.error();
  return smem::analyzeBanks(*a, ins);
}

Expected<smem::SwizzleResult> swizzle(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(shape, optionalShape(r));
  LAYOUT_TRY_ASSIGN(elemBits, r.uintArg("elemBits"));
  LAYOUT_TRY_ASSIGN(store, parseLayoutOperand(operandText(r, "store"), shape,
                                              OperandKind::Distributed, r.argPath("store")));
  LAYOUT_TRY_ASSIGN(load, parseLayoutOperand(operandText(r, "load"), shape,
                                             OperandKind::Distributed, r.argPath("load")));
  if (r.args.contains("target"))
    return smem::synthesizeSwizzleForTarget(store.layout, load.layout, int(elemBits),
                                            r.args["target"].get<std::string>());
  if (!r.args.contains("storeInstruction"))
    return makeError("give " + r.argPath("storeInstruction") + " and " +
                     r.argPath("loadInstruction") + ", or " + r.argPath("target"));
  LAYOUT_TRY_ASSIGN(st, instructionArg(r, "storeInstruction"));
  LAYOUT_TRY_ASSIGN(ld, instructionArg(r, "loadInstruction"));
  return smem::synthesizeSwizzle(
      smem::SwizzleRequest{std::move(store.layout), std::move(load.layout), int(elemBits), st, ld});
}

} // namespace

void registerBankOps(BatchProcessor& p) {
  p.registerOp(
      "banks.analyze",
      typedOp<smem::BankReport>(
          "args {access, shared | swizzleUnit+maxPhase (default row-major), shape, elemBits, "
          "instruction} or {byteAddresses: [[lane, byte], ...], bytesPerLane, instruction} -> "
          "per-phase ways, wavefronts, phase tables",
          {OpArg("access", OpArgKind::Operand),
           OpArg("shared", OpArgKind::Operand).excluding("swizzleUnit"),
           OpArg("swizzleUnit", OpArgKind::Count).within(1, 1u << 20),
           OpArg("maxPhase", OpArgKind::Count).within(1, 1u << 20).requiring("swizzleUnit"),
           OpArg("shape", OpArgKind::Shape), opargs::elementBitsArg(opargs::kElementBits),
           OpArg("instruction", OpArgKind::Instruction).needed(),
           OpArg("byteAddresses", OpArgKind::Addresses).spelled("addresses").excluding("access"),
           OpArg("bytesPerLane", OpArgKind::Count).within(1, 256)},
          analyze, smem::bankReportToJson, smem::bankReportText, smem::bankReportCsv));
  p.registerOp(
      "banks.swizzle",
      typedOp<smem::SwizzleResult>(
          "args {store, load, shape, elemBits, storeInstruction, loadInstruction | target} -> a "
          "conflict-free XOR swizzle, both reports, the lower bound, the families",
          {OpArg("store", OpArgKind::Operand).needed(), OpArg("load", OpArgKind::Operand).needed(),
           OpArg("shape", OpArgKind::Shape), opargs::elementBitsArg(opargs::kElementBits).needed(),
           OpArg("storeInstruction", OpArgKind::Instruction)
               .requiring("loadInstruction")
               .excluding("target"),
           OpArg("loadInstruction", OpArgKind::Instruction)
               .requiring("storeInstruction")
               .excluding("target"),
           OpArg("target", OpArgKind::Target)},
          swizzle, smem::swizzleResultToJson, smem::swizzleResultText));
}

} // namespace layout
