// Element widths (layout/core/element_bits.h).
#include "layout/core/element_bits.h"

namespace layout {

std::string elementBitsText(std::span<const int> allowed) {
  std::string s;
  for (size_t i = 0; i < allowed.size(); ++i)
    s += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + std::to_string(allowed[i]);
  return s;
}

Expected<int> checkElementBits(int64_t bits, std::string_view field, std::span<const int> allowed) {
  if (!isElementBits(bits, allowed))
    return makeError(std::string(field) + ": " + std::to_string(bits) + " is not " +
                     elementBitsText(allowed));
  return int(bits);
}

} // namespace layout
