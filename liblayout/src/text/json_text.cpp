// JSON text to nlohmann::json (layout/text/json_text.h).
#include "layout/text/json_text.h"

#include <nlohmann/json.hpp>

namespace layout::detail {

Expected<nlohmann::json> parseJsonText(std::string_view text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return makeError(std::string("malformed JSON: ") + e.what());
  }
}

} // namespace layout::detail
