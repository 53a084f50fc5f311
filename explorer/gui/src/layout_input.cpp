#include "explorer/layout_input.h"

#include "layout/protocol/layout_attribute.h"
#include "layout/text/layout_json.h"

#include <cctype>
#include <charconv>

namespace explorer {

using layout::Expected;
using layout::makeError;

Expected<LayoutInput> parseLayoutInput(std::string_view text, std::span<const int64_t> shape,
                                       const layout::AttrAliases& aliases) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return makeError("empty layout: enter an encoding or JSON");
  std::string_view body = text.substr(first);
  if (body[0] == '{') {
    auto ll = layout::parseLayoutJson(text);
    if (!ll) return withContext(ll.error(), "layout JSON");
    return LayoutInput{std::move(*ll), "layout JSON"};
  }
  if (shape.empty()) return makeError("shape: an encoding needs the tensor shape");
  // An alias (#name) or attribute of any dialect.
  auto attr = layout::parseAttribute(text, aliases);
  if (!attr) return attr.error();
  auto parsed = layout::layoutAttributeFromAttr(*attr);
  if (!parsed) return parsed.error();
  auto ll = layout::toLinearLayout(*parsed, shape);
  if (!ll) return ll.error();
  const auto* enc = parsed->triton();
  return LayoutInput{std::move(*ll), "#" + (enc ? enc->attr.text : attr->text)};
}

Expected<std::vector<int64_t>> parseShapeText(std::string_view text) {
  std::string t(text);
  if (t.rfind("tensor<", 0) == 0) {
    // tensor<32x64xf16>: drop the element type.
    t = t.substr(7);
    if (!t.empty() && t.back() == '>') t.pop_back();
    size_t lastX = t.rfind('x');
    if (lastX != std::string::npos && lastX + 1 < t.size() && !std::isdigit(t[lastX + 1]))
      t = t.substr(0, lastX);
  }
  std::vector<int64_t> shape;
  size_t i = 0;
  while (i <= t.size()) {
    size_t j = t.find_first_of("x,", i);
    if (j == std::string::npos) j = t.size();
    std::string part = t.substr(i, j - i);
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    while (!part.empty() && part.back() == ' ') part.pop_back();
    int64_t v = 0;
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || p != part.data() + part.size() || v <= 0)
      return makeError("shape: '" + std::string(text) +
                       "' is not a list of positive sizes like 32x32");
    if (v > (int64_t{1} << 22)) return makeError("shape: size " + part + " is larger than 2^22");
    shape.push_back(v);
    i = j + 1;
  }
  return shape;
}

} // namespace explorer
