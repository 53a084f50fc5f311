// Internal: parsing JSON text into nlohmann::json with the parser's own position-bearing message.
#pragma once

#include "layout/core/expected.h"

#include <nlohmann/json_fwd.hpp>

#include <string_view>

namespace layout::detail {

Expected<nlohmann::json> parseJsonText(std::string_view text);

} // namespace layout::detail
