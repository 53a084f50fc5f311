// Batch op convert.plan (interchange §2): how a tensor moves from one distributed layout to
// another: none, a register permutation, intra-warp shuffle rounds, or a shared-memory round trip
// with a synthesized swizzle (layout/conversion/conversion_plan.h).
#include "layout/conversion/conversion_plan.h"
#include "layout/protocol/batch.h"
#include "layout/protocol/op_args.h"
#include "layout/triton/layout_operand.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace layout {

using nlohmann::ordered_json;

namespace {

// src / dst: encoding text (converted over shape) or a layout JSON object.
Expected<LinearLayout> operand(const BatchRequest& r, const char* name,
                               const std::vector<int64_t>& shape) {
  const std::string path = std::string("args.") + name;
  auto it = r.args.find(name);
  if (it == r.args.end()) return makeError(path + ": missing (encoding text or layout JSON)");
  if (!it->is_string() && !it->is_object())
    return makeError(path + ": expected encoding text or a layout JSON object");
  LAYOUT_TRY_ASSIGN(op, parseLayoutOperand(it->is_string() ? it->get<std::string>() : it->dump(),
                                           shape, OperandKind::Distributed, path));
  return std::move(op.layout);
}

Expected<ordered_json> planOp(const BatchRequest& r) {
  std::vector<int64_t> shape;
  if (r.args.contains("shape")) {
    LAYOUT_TRY_ASSIGN(s, r.shapeArg());
    shape = std::move(s);
  }
  LAYOUT_TRY_ASSIGN(bitsArg, r.uintArg("elemBits"));
  LAYOUT_TRY_ASSIGN(elemBits, opargs::elementBits(int64_t(std::min<uint64_t>(bitsArg, 1u << 30)),
                                                  opargs::kElementBits, "args.elemBits"));
  std::string target = "nvidia";
  if (r.args.contains("target")) {
    LAYOUT_TRY_ASSIGN(t, r.stringArg("target"));
    target = t;
  }
  LAYOUT_TRY_ASSIGN(src, operand(r, "src", shape));
  LAYOUT_TRY_ASSIGN(dst, operand(r, "dst", shape));
  LAYOUT_TRY_ASSIGN(plan, conversion::planConversion(src, dst, int(elemBits), target));
  return conversion::conversionPlanToJson(plan);
}

} // namespace

void registerConversionOps(BatchProcessor& p) {
  p.registerOp("convert.plan",
               BatchOp{0,
                       "args {src, dst (encoding text or layout JSON), shape, elemBits, target (a "
                       "hardware target with a bank model, default nvidia)} -> none, register "
                       "permutation, shuffle rounds or a shared-memory swizzle",
                       planOp,
                       {"src", "dst", "shape", "elemBits", "target"}});
}

} // namespace layout
