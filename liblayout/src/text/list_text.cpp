// Integer lists as text (layout/text/internal/list_text.h).
#include "layout/text/internal/list_text.h"

namespace layout::detail {

namespace {

template <typename Int> std::string join(std::span<const Int> values, std::string_view separator) {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) s += separator;
    s += std::to_string(values[i]);
  }
  return s;
}

} // namespace

std::string joinText(std::span<const int64_t> values, std::string_view separator) {
  return join(values, separator);
}

std::string joinText(std::span<const int> values, std::string_view separator) {
  return join(values, separator);
}

std::string listText(std::span<const int64_t> values, std::string_view separator) {
  return "[" + join(values, separator) + "]";
}

std::string listText(std::span<const int> values, std::string_view separator) {
  return "[" + join(values, separator) + "]";
}

} // namespace layout::detail
