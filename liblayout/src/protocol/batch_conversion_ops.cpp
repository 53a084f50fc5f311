// Batch op convert.plan (interchange §2), also `layoutctl convert`: how a tensor moves from one
// distributed layout to another: none, a register permutation, intra-warp shuffle rounds, or a
// shared-memory round trip with a synthesized swizzle (layout/conversion/conversion_plan.h).
#include "layout/conversion/conversion_plan.h"
#include "layout/protocol/op_args.h"
#include "layout/triton/layout_operand.h"
#include "typed_op.h"

#include <nlohmann/json.hpp>

namespace layout {

using nlohmann::ordered_json;

namespace {

// src / dst: encoding text (converted over shape) or a layout JSON object.
Expected<LinearLayout> operand(const BatchRequest& r, const char* name,
                               const std::vector<int64_t>& shape) {
  const nlohmann::json& value = r.args.at(name);
  LAYOUT_TRY_ASSIGN(op,
                    parseLayoutOperand(value.is_string() ? value.get<std::string>() : value.dump(),
                                       shape, OperandKind::Distributed, r.argPath(name)));
  return std::move(op.layout);
}

Expected<conversion::ConversionPlan> plan(const BatchRequest& r) {
  std::vector<int64_t> shape;
  if (r.args.contains("shape")) {
    LAYOUT_TRY_ASSIGN(s, r.shapeArg());
    shape = std::move(s);
  }
  LAYOUT_TRY_ASSIGN(elemBits, r.uintArg("elemBits"));
  LAYOUT_TRY_ASSIGN(target, r.stringArg("target"));
  LAYOUT_TRY_ASSIGN(src, operand(r, "src", shape));
  LAYOUT_TRY_ASSIGN(dst, operand(r, "dst", shape));
  return conversion::planConversion(src, dst, int(elemBits), target);
}

} // namespace

void registerConversionOps(BatchProcessor& p) {
  p.registerOp(
      "convert.plan",
      typedOp<conversion::ConversionPlan>(
          "args {src, dst (encoding text or layout JSON), shape, elemBits, target (a "
          "hardware target with a bank model, default nvidia)} -> none, register "
          "permutation, shuffle rounds or a shared-memory swizzle",
          {OpArg("src", OpArgKind::Operand).needed(), OpArg("dst", OpArgKind::Operand).needed(),
           OpArg("shape", OpArgKind::Shape), opargs::elementBitsArg(opargs::kElementBits).needed(),
           OpArg("target", OpArgKind::Target).defaultsTo("nvidia")},
          plan, conversion::conversionPlanToJson, conversion::conversionPlanText));
}

} // namespace layout
