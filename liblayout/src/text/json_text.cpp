// JSON text to nlohmann::json, within the resource limits (layout/text/internal/json_text.h).
#include "layout/text/internal/json_text.h"

#include "layout/core/resource_limits.h"

#include <nlohmann/json.hpp>

#include <cstring>

namespace layout::detail {

namespace {

// nlohmann's messages end in "last read: '<token>'", and a token can be megabytes long.
constexpr size_t kMaxMessageBytes = 300;

std::string shortened(std::string message) {
  if (message.size() <= kMaxMessageBytes) return message;
  const size_t total = message.size();
  message.resize(kMaxMessageBytes);
  return message + "... (" + std::to_string(total) + " bytes in all)";
}

} // namespace

JsonTextShape measureJsonText(std::string_view text, uint64_t maxDepth) {
  JsonTextShape shape;
  shape.values = 1;
  uint64_t depth = 0;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    switch (*p) {
    case '"': {
      // Skip the string: find its closing quote, stepping over escapes.
      ++p;
      for (;;) {
        const void* q = std::memchr(p, '"', size_t(end - p));
        if (!q) return shape; // unterminated: the parser reports it
        const char* quote = static_cast<const char*>(q);
        size_t backslashes = 0;
        for (const char* b = quote; b > p && b[-1] == '\\'; --b) ++backslashes;
        p = quote + 1;
        if (backslashes % 2 == 0) break;
      }
      continue;
    }
    case '[':
    case '{': {
      ++depth;
      if (depth > shape.depth) {
        shape.depth = depth;
        shape.deepestAt = uint64_t(p - text.data());
        if (depth > maxDepth) return shape; // refused: the rest need not be read
      }
      // A non-empty container adds one value beyond its commas.
      const char* next = p + 1;
      while (next < end && (*next == ' ' || *next == '\t' || *next == '\n' || *next == '\r'))
        ++next;
      if (next < end && *next != ']' && *next != '}') ++shape.values;
      break;
    }
    case ']':
    case '}':
      if (depth > 0) --depth;
      break;
    case ',':
      ++shape.values;
      break;
    default:
      break;
    }
    ++p;
  }
  return shape;
}

Expected<void> checkJsonTextLimits(std::string_view text) {
  const ResourceLimits& limits = resourceLimits();
  const JsonTextShape shape = measureJsonText(text, limits.maxJsonDepth);
  if (shape.depth > limits.maxJsonDepth)
    return makeError("JSON nested more than " + std::to_string(limits.maxJsonDepth) +
                     " levels deep (at byte " + std::to_string(shape.deepestAt) +
                     "); the limit is " + std::to_string(limits.maxJsonDepth) +
                     " (raise it with LAYOUT_MAX_JSON_DEPTH)");
  if (shape.values > limits.maxJsonValues)
    return makeError("JSON has " + std::to_string(shape.values) + " values; the limit is " +
                     describeLimit(limits.maxJsonValues) +
                     " (raise it with LAYOUT_MAX_JSON_VALUES)");
  return {};
}

Expected<nlohmann::json> parseJsonText(std::string_view text) {
  LAYOUT_TRY(checkJsonTextLimits(text));
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return makeError(shortened(std::string("malformed JSON: ") + e.what()));
  }
}

} // namespace layout::detail
