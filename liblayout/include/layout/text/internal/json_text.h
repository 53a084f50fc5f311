// Internal: parsing JSON text into nlohmann::json, bounded. Every JSON input of the tools (batch
// lines, layout JSON, hardware targets, GEMM configurations, bank instructions, explorer sessions)
// goes through parseJsonText, so the limits below hold everywhere:
//   - nesting deeper than ResourceLimits::maxJsonDepth is refused before parsing, so neither the
//     parser's callers nor nlohmann's own copies and dumps (which recurse per level) run deep;
//   - more than ResourceLimits::maxJsonValues values is refused before parsing, so a 64 MiB input
//     of tiny values cannot grow into gigabytes of parsed nodes.
//
//   auto j = layout::detail::parseJsonText(R"({"m": 64})");   // Expected<nlohmann::json>
//   if (!j) std::cerr << j.error().message;                    // "malformed JSON: ..." or a limit
#pragma once

#include "layout/core/expected.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string_view>

namespace layout::detail {

// The nesting depth and the number of values of JSON text, counted without parsing it (strings
// are skipped, so brackets inside them do not count). Values are the root, plus one per comma and
// per non-empty array or object: exact for valid JSON. The scan stops where the depth first
// passes `maxDepth` (then `depth` is maxDepth + 1 and `values` counts only what came before).
struct JsonTextShape {
  uint64_t depth = 0;
  uint64_t values = 0;
  uint64_t deepestAt = 0; // byte offset of the first bracket at `depth`
};
JsonTextShape measureJsonText(std::string_view text, uint64_t maxDepth = UINT64_MAX);

// The resource limits' JSON depth and value checks alone: an error naming the limit, its
// variable and the byte offset, or nothing.
Expected<void> checkJsonTextLimits(std::string_view text);

// checkJsonTextLimits, then nlohmann's parser; its message is cut to a few hundred bytes (it
// quotes the last token read, which can be the whole input).
Expected<nlohmann::json> parseJsonText(std::string_view text);

} // namespace layout::detail
