// The JSON form of a propagation request (batch op `xegpu.propagate`, `layoutctl propagate`):
//
//   {"op": "transpose", "result": "#xegpu.layout<...>", "permutation": [1, 0]}
//   {"op": "dpas", "result": "...", "shapeA": [256, 32], "shapeB": [32, 256],
//    "elementType": "bf16", "target": "pvc"}
//
// Keys are the field names of layout::xegpu::PropagationRequest; unknown keys are an error, so a
// misspelt argument is not silently ignored.
#pragma once

#include "layout/xegpu/propagation.h"

#include <nlohmann/json_fwd.hpp>

namespace layout {

Expected<xegpu::PropagationRequest> propagationRequestFromJson(const nlohmann::json& args);

// {operand: layout text}; for convert_layout {"needsDataMovement": bool, "movement": kind}; for
// compatible {"compatible": bool}.
nlohmann::ordered_json propagationResultToJson(const xegpu::OperandLayouts& operands);

} // namespace layout
