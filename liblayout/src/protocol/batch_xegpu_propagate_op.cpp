// Batch op xegpu.propagate (interchange §2), also `layoutctl propagate OP`: backward layout
// propagation through one op. The request parser checks which arguments each op takes.
#include "layout/xegpu/propagation_json.h"
#include "typed_op.h"

#include <nlohmann/json.hpp>

namespace layout {

namespace {

Expected<xegpu::OperandLayouts> propagate(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(req, propagationRequestFromJson(r.args));
  return xegpu::propagate(req);
}

// A shape (shapeA, sourceShape, instData, ...): every dimension at least 1.
Expected<void> dimsAtLeastOne(const nlohmann::json& value) {
  for (size_t i = 0; i < value.size(); ++i)
    if (value[i].is_number_integer() && value[i].get<int64_t>() < 1)
      return makeError("dimension " + std::to_string(i) + " is " +
                       std::to_string(value[i].get<int64_t>()) + ": every dimension is at least 1");
  return {};
}

std::string operandsText(const xegpu::OperandLayouts& operands) {
  std::string out;
  for (const auto& [name, value] : operands) out += name + ": " + value + "\n";
  return out;
}

} // namespace

void registerXegpuPropagateOp(BatchProcessor& p) {
  BatchOp op = typedOp<xegpu::OperandLayouts>(
      "args {op, result, ...op args (see layoutctl propagate --help)} -> {operand: layout text}",
      {OpArg("op", OpArgKind::String).asPositional(),
       OpArg("result", OpArgKind::String),
       OpArg("input", OpArgKind::String),
       OpArg("elementType", OpArgKind::String),
       OpArg("target", OpArgKind::Target),
       OpArg("shapeA", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("shapeB", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("sourceShape", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("resultShape", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("reductionDims", OpArgKind::IntList),
       OpArg("broadcastDims", OpArgKind::IntList),
       OpArg("permutation", OpArgKind::IntList),
       OpArg("shape", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("transpose", OpArgKind::IntList),
       OpArg("sourceBits", OpArgKind::Count),
       OpArg("resultBits", OpArgKind::Count),
       OpArg("elementBits", OpArgKind::Count),
       OpArg("transposeBitWidth", OpArgKind::Count),
       OpArg("packed", OpArgKind::Flag),
       OpArg("level", OpArgKind::String),
       OpArg("numSubgroups", OpArgKind::Count),
       OpArg("maxReduceVectorSize", OpArgKind::Count),
       OpArg("instData", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("partialSubgroup", OpArgKind::Flag)},
      propagate, propagationResultToJson, operandsText);
  op.checksOwnArgs = true; // which keys apply depends on "op"
  p.registerOp("xegpu.propagate", std::move(op));
}

} // namespace layout
