// Internal: parsing JSON text into nlohmann::json with the parser's own position-bearing message.
#pragma once

#include "layout/core/expected.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace layout::detail {

inline Expected<nlohmann::json> parseJsonText(std::string_view text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return makeError(std::string("malformed JSON: ") + e.what());
  }
}

} // namespace layout::detail
