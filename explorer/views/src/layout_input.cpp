#include "layout/views/layout_input.h"

#include "layout/protocol/layout_attribute.h"
#include "layout/text/layout_json.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace layout::views {

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
    return LayoutInput{std::move(*ll), "layout JSON", {}};
  }
  if (body.rfind("tensor<", 0) == 0) {
    // tensor<64x64xf16, #mma>: the encoding over the type's own shape.
    LAYOUT_TRY_ASSIGN(type, splitTensorType(body));
    LAYOUT_TRY_ASSIGN(typeShape, parseShapeText(type.shape));
    auto in = parseLayoutInput(type.encoding, typeShape, aliases);
    if (in) in->shape = typeShape;
    return in;
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
  return LayoutInput{std::move(*ll), "#" + (enc ? enc->attr.text : attr->text), {}};
}

Expected<TensorTypeText> splitTensorType(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  const size_t last = text.find_last_not_of(" \t\r\n");
  if (first == std::string_view::npos || text.substr(first).rfind("tensor<", 0) != 0 ||
      text[last] != '>')
    return makeError("tensor type: expected tensor<SHAPE x TYPE, ENCODING>, like "
                     "tensor<64x64xf16, #mma>");
  const std::string_view inner = text.substr(first + 7, last - first - 7);
  // The shape and element type end at the first comma outside brackets.
  int depth = 0;
  for (size_t i = 0; i < inner.size(); ++i) {
    const char c = inner[i];
    if (c == '<' || c == '[' || c == '{' || c == '(') ++depth;
    if (c == '>' || c == ']' || c == '}' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      std::string_view encoding = inner.substr(i + 1);
      encoding.remove_prefix(std::min(encoding.size(), encoding.find_first_not_of(" \t\r\n")));
      if (encoding.empty()) break;
      return TensorTypeText{"tensor<" + std::string(inner.substr(0, i)) + ">",
                            std::string(encoding)};
    }
  }
  return makeError("tensor type: '" + std::string(text.substr(first, last + 1 - first)) +
                   "' has no encoding (expected tensor<SHAPE x TYPE, ENCODING>)");
}

std::vector<std::string> tensorTypesIn(std::string_view text) {
  std::vector<std::string> types;
  constexpr size_t kMaxTypes = 256; // a listing to pick from, not an index of the file
  for (size_t at = text.find("tensor<"); at != std::string_view::npos && types.size() < kMaxTypes;
       at = text.find("tensor<", at + 1)) {
    // Skip "xtensor<" and the like: the word must start here.
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_'))
      continue;
    int depth = 0;
    size_t end = at + 6;
    for (; end < text.size() && end - at < 4096; ++end) {
      if (text[end] == '<') ++depth;
      if (text[end] == '>' && --depth == 0) break;
      if (text[end] == '\n') break; // a type stays on its line
    }
    if (end >= text.size() || text[end] != '>') continue;
    const std::string type(text.substr(at, end + 1 - at));
    if (!splitTensorType(type)) continue; // no encoding
    if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(type);
  }
  return types;
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

} // namespace layout::views
