// Shared op arguments (layout/protocol/op_args.h).
#include "layout/protocol/op_args.h"

#include "layout/text/internal/json_text.h"
#include "layout/text/internal/quoted_input.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>

namespace layout::opargs {

namespace {

constexpr uint64_t kMaxDimSize = uint64_t{1} << 40;

bool startsWith(std::string_view text, char c) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == c;
}

Expected<nlohmann::json> jsonText(std::string_view text, const std::string& name) {
  auto j = detail::parseJsonText(text);
  if (!j) return withContext(j.error(), name);
  return j;
}

constexpr const char* kByteAddressRule = "a byte address is an integer in [0, 2^48]";

// A decimal integer of at most `maxDigits` digits, or nothing.
std::optional<uint64_t> decimal(std::string_view s, size_t maxDigits) {
  if (s.empty() || s.size() > maxDigits) return std::nullopt;
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

} // namespace

OpArg elementBitsArg(std::span<const int> allowed) {
  return OpArg("elemBits", OpArgKind::ElementBits)
      .oneOf(allowed)
      .spelled("element-bits")
      .alsoSpelled("elem-bits");
}

Expected<int> elementBits(int64_t bits, std::span<const int> allowed, const std::string& name) {
  return checkElementBits(bits, name, allowed);
}

Expected<std::vector<int64_t>> shapeFromJson(const nlohmann::json& j, const std::string& name) {
  if (!j.is_array()) return makeError(name + ": expected a list of dim sizes");
  std::vector<int64_t> shape;
  for (size_t i = 0; i < j.size(); ++i) {
    const auto& d = j[i];
    const std::string where = name + "[" + std::to_string(i) + "]";
    if (!d.is_number_unsigned() || d.get<uint64_t>() == 0)
      return makeError(where + ": expected a positive integer");
    if (d.get<uint64_t>() > kMaxDimSize) return makeError(where + ": size exceeds 2^40");
    shape.push_back(int64_t(d.get<uint64_t>()));
  }
  return shape;
}

Expected<std::vector<int64_t>> shapeFromText(std::string_view text, const std::string& name) {
  if (text.rfind("tensor<", 0) == 0) {
    if (text.back() != '>')
      return makeError(name + ": expected tensor<AxBx...xTYPE>, got " + detail::quoteInput(text));
    text = text.substr(7, text.size() - 8);
    const size_t lastX = text.rfind('x');
    if (lastX == std::string_view::npos)
      return makeError(name + ": expected tensor<AxBx...xTYPE> with a shape");
    text = text.substr(0, lastX); // drop the element type
  }
  std::vector<int64_t> shape;
  size_t at = 0;
  for (;;) {
    const size_t x = text.find('x', at);
    const std::string_view part = text.substr(at, x == std::string_view::npos ? x : x - at);
    auto size = decimal(part, 13);
    if (!size)
      return makeError(name + ": " + detail::quoteInput(part) + " is not a dim size (use 16x32)");
    if (*size == 0 || *size > kMaxDimSize)
      return makeError(name + ": " + std::string(part) + " is outside [1, 2^40]");
    shape.push_back(int64_t(*size));
    if (x == std::string_view::npos) break;
    at = x + 1;
  }
  return shape;
}

Expected<smem::BankInstruction> bankInstruction(const nlohmann::json& j, const std::string& name) {
  if (j.is_string()) {
    auto i = smem::bankInstruction(j.get<std::string>());
    if (!i) return withContext(i.error(), name);
    return i;
  }
  auto i = smem::bankInstructionFromJson(j);
  if (!i) return withContext(i.error(), name);
  return i;
}

Expected<smem::BankInstruction> bankInstructionFromText(std::string_view text,
                                                        const std::string& name) {
  if (!startsWith(text, '{')) return bankInstruction(nlohmann::json(std::string(text)), name);
  LAYOUT_TRY_ASSIGN(j, jsonText(text, name));
  return bankInstruction(j, name);
}

Expected<std::vector<smem::LaneAddress>> laneAddresses(const nlohmann::json& j,
                                                       const std::string& name) {
  if (!j.is_array()) return makeError(name + ": expected [[lane, byte], ...]");
  std::vector<smem::LaneAddress> out;
  for (size_t i = 0; i < j.size(); ++i) {
    const auto& e = j[i];
    if (!e.is_array() || e.size() != 2 || !e[0].is_number_unsigned() ||
        !e[1].is_number_unsigned() || e[0].get<uint64_t>() > 4095)
      return makeError(name + "[" + std::to_string(i) +
                       "]: expected [lane, byte] with a lane in [0, 4095] and a byte address >= 0");
    if (e[1].get<uint64_t>() > smem::kMaxByteAddress)
      return makeError(name + "[" + std::to_string(i) + "][1]: byte address " +
                       std::to_string(e[1].get<uint64_t>()) + " is above 2^48 (" +
                       kByteAddressRule + ")");
    out.push_back({int(e[0].get<uint64_t>()), e[1].get<uint64_t>()});
  }
  return out;
}

Expected<std::vector<smem::LaneAddress>> laneAddressesFromText(std::string_view text,
                                                               const std::string& name) {
  if (startsWith(text, '[')) {
    LAYOUT_TRY_ASSIGN(j, jsonText(text, name));
    return laneAddresses(j, name);
  }
  std::vector<smem::LaneAddress> out;
  size_t at = 0;
  for (;;) {
    const size_t comma = text.find(',', at);
    const std::string_view part =
        text.substr(at, comma == std::string_view::npos ? comma : comma - at);
    const size_t colon = part.find(':');
    auto lane = decimal(part.substr(0, colon), 4);
    if (!lane || *lane > 4095 || colon == std::string_view::npos)
      return makeError(name + ": " + detail::quoteInput(part) +
                       " is not LANE:BYTE with a lane in [0, 4095]");
    // The byte address is checked on its own: any 64-bit decimal reads, then the analysis's rule.
    const std::string_view byteText = part.substr(colon + 1);
    auto byte = decimal(byteText, 20);
    if (!byte)
      return makeError(name + ": " + detail::quoteInput(part) + ": the byte address " +
                       detail::quoteInput(byteText) + " is not a non-negative integer (" +
                       kByteAddressRule + ")");
    if (*byte > smem::kMaxByteAddress)
      return makeError(name + ": " + detail::quoteInput(part) + ": byte address " +
                       std::to_string(*byte) + " is above 2^48 (" + kByteAddressRule + ")");
    out.push_back({int(*lane), *byte});
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }
  return out;
}

} // namespace layout::opargs
