// Propagation results as JSON: one object per result type, keys in alphabetical order.
#include "layout/xegpu/propagation_json.h"

#include <nlohmann/json.hpp>

namespace layout {

namespace {

using nlohmann::ordered_json;
using namespace xegpu;

ordered_json toJson(const DpasLayouts& r) {
  return {{"a", r.a}, {"b", r.b}, {"c", r.c}};
}
ordered_json toJson(const SourceLayout& r) {
  return {{"source", r.source}};
}
ordered_json toJson(const ReductionLayouts& r) {
  return {{"acc", r.acc}, {"result", r.result}, {"source", r.source}};
}
ordered_json toJson(const InsertStridedSliceLayouts& r) {
  ordered_json out = {{"dest", r.dest}};
  if (r.result) out["result"] = *r.result;
  out["source"] = r.source;
  return out;
}
ordered_json toJson(const TensorDescLayout& r) {
  return {{"tensor_desc", r.tensorDesc}};
}
ordered_json toJson(const ConvertLayoutCost& r) {
  return {{"movement", dataMovementName(r.movement)}, {"needsDataMovement", r.needsDataMovement()}};
}
ordered_json toJson(const Compatibility& r) {
  return {{"compatible", r.compatible}};
}
ordered_json toJson(const SgLayoutCandidates& r) {
  ordered_json list = ordered_json::array();
  for (const auto& grid : r.candidates) list.push_back(grid);
  return {{"candidates", std::move(list)}};
}

} // namespace

ordered_json propagationResultToJson(const PropagationResult& result) {
  return std::visit([](const auto& r) { return toJson(r); }, result);
}

} // namespace layout
