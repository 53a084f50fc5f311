// The JSON form of a propagation result (batch op `xegpu.propagate`, `layoutctl propagate
// --format json`): {operand: layout text}, keys in alphabetical order as clients have always
// read them.
//
//   {"a": "#xegpu.layout<...>", "b": "...", "c": "..."}             dpas
//   {"movement": "lanes", "needsDataMovement": true}                 convert_layout
//   {"compatible": false}                                            compatible
//   {"candidates": [[8, 4], [16, 2]]}                                sg_layout_candidates
//
// Reading a request is the protocol's (src/protocol/batch_xegpu_propagate_op.cpp).
#pragma once

#include "layout/xegpu/propagation.h"

#include <nlohmann/json_fwd.hpp>

namespace layout {

nlohmann::ordered_json propagationResultToJson(const xegpu::PropagationResult& result);

} // namespace layout
