// Reading propagation requests from JSON, with errors that name the key and the expected type.
#include "layout/xegpu/propagation_json.h"

#include <nlohmann/json.hpp>

#include <set>

namespace layout {

namespace {

using nlohmann::json;

Expected<std::vector<int64_t>> intList(const json& v, const std::string& key) {
  if (!v.is_array()) return makeError("args." + key + ": expected a list of integers");
  std::vector<int64_t> out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number_integer() || v[i].get<int64_t>() < 0 ||
        v[i].get<int64_t>() > (int64_t{1} << 40))
      return makeError("args." + key + "[" + std::to_string(i) +
                       "]: expected an integer in [0, 2^40]");
    out.push_back(v[i].get<int64_t>());
  }
  return out;
}

Expected<int> smallInt(const json& v, const std::string& key) {
  if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > 1024)
    return makeError("args." + key + ": expected an integer in [0, 1024]");
  return int(v.get<int64_t>());
}

Expected<std::string> text(const json& v, const std::string& key) {
  if (!v.is_string()) return makeError("args." + key + ": expected a string");
  return v.get<std::string>();
}

} // namespace

Expected<xegpu::PropagationRequest> propagationRequestFromJson(const json& args) {
  if (!args.is_object()) return makeError("args: expected an object");
  xegpu::PropagationRequest r;
  for (const auto& [key, v] : args.items()) {
    if (key == "op") {
      LAYOUT_TRY_ASSIGN(s, text(v, key));
      r.op = s;
    } else if (key == "result" || key == "input" || key == "elementType" || key == "target" ||
               key == "level") {
      LAYOUT_TRY_ASSIGN(s, text(v, key));
      (key == "result"        ? r.result
       : key == "input"       ? r.input
       : key == "elementType" ? r.elementType
       : key == "level"       ? r.level
                              : r.target) = s;
    } else if (key == "shapeA" || key == "shapeB" || key == "sourceShape" || key == "resultShape" ||
               key == "reductionDims" || key == "broadcastDims" || key == "permutation" ||
               key == "shape" || key == "transpose" || key == "instData") {
      LAYOUT_TRY_ASSIGN(list, intList(v, key));
      if (key == "transpose")
        r.transpose = list;
      else if (key == "shapeA")
        r.shapeA = list;
      else if (key == "shapeB")
        r.shapeB = list;
      else if (key == "sourceShape")
        r.sourceShape = list;
      else if (key == "resultShape")
        r.resultShape = list;
      else if (key == "reductionDims")
        r.reductionDims = list;
      else if (key == "broadcastDims")
        r.broadcastDims = list;
      else if (key == "permutation")
        r.permutation = list;
      else if (key == "instData")
        r.instData = list;
      else
        r.shape = list;
    } else if (key == "sourceBits" || key == "resultBits" || key == "elementBits" ||
               key == "transposeBitWidth") {
      LAYOUT_TRY_ASSIGN(n, smallInt(v, key));
      (key == "sourceBits"    ? r.sourceBits
       : key == "resultBits"  ? r.resultBits
       : key == "elementBits" ? r.elementBits
                              : r.transposeBitWidth) = n;
    } else if (key == "numSubgroups" || key == "maxReduceVectorSize") {
      LAYOUT_TRY_ASSIGN(n, smallInt(v, key));
      (key == "numSubgroups" ? r.numSubgroups : r.maxReduceVectorSize) = n;
    } else if (key == "packed" || key == "partialSubgroup") {
      if (!v.is_boolean()) return makeError("args." + key + ": expected true or false");
      (key == "packed" ? r.packed : r.partialSubgroup) = v.get<bool>();
    } else {
      return makeError("args." + key + ": unknown argument of xegpu.propagate");
    }
  }
  if (r.op.empty()) return makeError("args.op: missing (one of the ops of layoutctl propagate)");
  if (r.result.empty() && xegpu::propagationNeedsResult(r))
    return makeError("args.result: missing (the result's layout text)");
  return r;
}

nlohmann::ordered_json propagationResultToJson(const xegpu::OperandLayouts& operands) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [name, value] : operands) {
    if (name == "needsDataMovement" || name == "compatible") {
      out[name] = value == "true";
    } else if (name == "candidates") {
      // sg_layout_candidates: a list of sg_layout lists ("[[8, 4], [16, 2]]" as text), best first.
      auto list = nlohmann::ordered_json::parse(value, nullptr, /*allow_exceptions=*/false);
      out[name] = list.is_array() ? std::move(list) : nlohmann::ordered_json(value);
    } else {
      out[name] = value;
    }
  }
  return out;
}

} // namespace layout
