// The layout JSON of the interchange contract (docs/interchange.md §1).
//
//   auto l = layout::parseLayoutJson(R"({"inDims": [{"name": "lane", "bases": [[1], [2]]}],
//                                         "outDims": [{"name": "dim0", "size": 4}]})");
//   if (!l) std::cerr << "error: " << l.error().message << "\n";
//   std::string text = layout::printLayoutJson(*l);   // adds "surjective": true
#pragma once

#include "layout/core/linear_layout.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace layout {

// Reads a layout from parsed JSON. Rejects, naming the field: missing or mistyped fields, sizes
// that are not powers of two, components >= their out-dim's size, bases with the wrong number of
// components, duplicate dim names, negative numbers, non-integers. Unknown keys are ignored.
Expected<LinearLayout> layoutFromJson(const nlohmann::json& j);
// Parses text, then layoutFromJson.
Expected<LinearLayout> parseLayoutJson(std::string_view text);

// The JSON form, with "surjective" added; keys in contract order.
nlohmann::ordered_json layoutToJson(const LinearLayout& l);
// The values (numbers, strings, arrays, objects) of layoutToJson(l), counted without building it,
// and the check that they fit the JSON value limit (ResourceLimits::maxJsonValues) that every
// JSON input meets: a result the batch returns can always be read back, and a wide result is an
// error naming the limit instead of gigabytes of JSON.
uint64_t layoutJsonValueCount(const LinearLayout& l);
Expected<void> checkLayoutJsonSize(const LinearLayout& l);
// indent < 0: one line.
std::string printLayoutJson(const LinearLayout& l, int indent = -1);

} // namespace layout
