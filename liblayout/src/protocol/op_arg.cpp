// Declared op arguments (layout/protocol/op_arg.h).
#include "layout/protocol/op_arg.h"

#include "layout/protocol/op_args.h"
#include "layout/target/hardware_target.h"
#include "layout/text/internal/json_text.h"
#include "layout/text/internal/quoted_input.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>

namespace layout {

using nlohmann::json;

OpArg::OpArg(std::string key, OpArgKind k)
    : name(std::move(key)), kind(k), cliOption(kebabCase(name)) {}

OpArg& OpArg::needed() {
  mandatory = true;
  return *this;
}

OpArg& OpArg::defaultsTo(std::string cliText) {
  defaultText = std::move(cliText);
  return *this;
}

OpArg& OpArg::spelled(std::string option) {
  cliOption = std::move(option);
  return *this;
}

OpArg& OpArg::alsoSpelled(std::string option) {
  cliAliases.push_back(std::move(option));
  return *this;
}

OpArg& OpArg::oneOf(std::span<const int> allowed) {
  choices.assign(allowed.begin(), allowed.end());
  return *this;
}

OpArg& OpArg::asPositional() {
  positional = true;
  return *this;
}

OpArg& OpArg::requiring(std::string other) {
  together.push_back(std::move(other));
  return *this;
}

OpArg& OpArg::excluding(std::string other) {
  apart.push_back(std::move(other));
  return *this;
}

OpArg& OpArg::within(uint64_t lo, uint64_t hi) {
  range = {lo, hi};
  return *this;
}

OpArg& OpArg::satisfying(std::function<Expected<void>(const json&)> rule) {
  validator = std::move(rule);
  return *this;
}

std::string kebabCase(std::string_view camel) {
  std::string out;
  for (char c : camel) {
    if (c >= 'A' && c <= 'Z') {
      out += '-';
      out += char(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

std::string argPath(const OpArg& arg, ArgSpelling spelling) {
  if (spelling == ArgSpelling::Batch) return "args." + arg.name;
  return arg.positional ? kebabCase(arg.name) : "--" + arg.cliOption;
}

namespace {

// "1024", or "2^20" for a large power of two.
std::string boundText(uint64_t v) {
  if (v < 1024 || (v & (v - 1)) != 0) return std::to_string(v);
  int k = 0;
  while ((uint64_t{1} << k) != v) ++k;
  return "2^" + std::to_string(k);
}

Expected<void> checkIntList(const json& value, const std::string& path) {
  if (!value.is_array()) return makeError(path + ": expected a list of non-negative integers");
  for (size_t i = 0; i < value.size(); ++i)
    if (!value[i].is_number_unsigned())
      return makeError(path + "[" + std::to_string(i) + "]: expected a non-negative integer");
  return {};
}

// "1,0" or "256x128" (either separator), each part a decimal of at most 12 digits.
Expected<json> intListFromText(std::string_view text, const std::string& path) {
  const char sep = text.find('x') != std::string_view::npos ? 'x' : ',';
  json out = json::array();
  size_t at = 0;
  for (;;) {
    const size_t end = text.find(sep, at);
    const std::string_view part = text.substr(at, end == std::string_view::npos ? end : end - at);
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || part.size() > 12 || ec != std::errc() || p != part.data() + part.size())
      return makeError(path + ": " + layout::detail::quoteInput(std::string(part)) +
                       " is not a non-negative integer");
    out.push_back(v);
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return out;
}

bool startsWith(std::string_view text, char c) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == c;
}

Expected<void> checkKind(const OpArg& arg, const json& value, ArgSpelling spelling) {
  const std::string path = argPath(arg, spelling);
  switch (arg.kind) {
  case OpArgKind::Any:
    return {};
  case OpArgKind::String:
    if (!value.is_string()) return makeError(path + ": expected a string");
    return {};
  case OpArgKind::Operand:
    if (!value.is_string() && !value.is_object())
      return makeError(path + ": expected encoding text or a layout JSON object");
    return {};
  case OpArgKind::Shape: {
    auto s = opargs::shapeFromJson(value, path);
    if (!s) return s.error();
    return {};
  }
  case OpArgKind::Count:
    if (!value.is_number_unsigned()) return makeError(path + ": expected a non-negative integer");
    if (arg.range &&
        (value.get<uint64_t>() < arg.range->first || value.get<uint64_t>() > arg.range->second))
      return makeError(path + ": " + std::to_string(value.get<uint64_t>()) + " is outside [" +
                       boundText(arg.range->first) + ", " + boundText(arg.range->second) + "]");
    return {};
  case OpArgKind::Flag:
    if (!value.is_boolean()) return makeError(path + ": expected true or false");
    return {};
  case OpArgKind::ElementBits: {
    if (!value.is_number_unsigned()) return makeError(path + ": expected a non-negative integer");
    auto b = opargs::elementBits(int64_t(std::min<uint64_t>(value.get<uint64_t>(), 1u << 30)),
                                 arg.choices, path);
    if (!b) return b.error();
    return {};
  }
  case OpArgKind::Target: {
    if (!value.is_string()) return makeError(path + ": expected a target name or @file.json");
    auto t = target::hardwareTarget(value.get<std::string>());
    if (!t) return withContext(t.error(), path);
    return {};
  }
  case OpArgKind::Instruction: {
    auto i = opargs::bankInstruction(value, path);
    if (!i) return i.error();
    return {};
  }
  case OpArgKind::Addresses: {
    auto a = opargs::laneAddresses(value, path);
    if (!a) return a.error();
    return {};
  }
  case OpArgKind::IntList:
    return checkIntList(value, path);
  }
  return {};
}

} // namespace

json withUnsignedIntegers(json value) {
  if (value.is_number_integer() && !value.is_number_unsigned() && value.get<int64_t>() >= 0)
    return json(value.get<uint64_t>());
  if (value.is_array() || value.is_object())
    for (auto& element : value) element = withUnsignedIntegers(std::move(element));
  return value;
}

bool holdsIntegers(OpArgKind kind) {
  return kind == OpArgKind::Shape || kind == OpArgKind::Count || kind == OpArgKind::ElementBits ||
         kind == OpArgKind::Instruction || kind == OpArgKind::Addresses ||
         kind == OpArgKind::IntList;
}

Expected<void> checkOpArg(const OpArg& arg, const json& given, ArgSpelling spelling) {
  // Only kinds with integers are normalised: an operand may be a large layout object, copied on
  // every request for nothing.
  const json normalised = holdsIntegers(arg.kind) ? withUnsignedIntegers(given) : json();
  const json& value = holdsIntegers(arg.kind) ? normalised : given;
  LAYOUT_TRY(checkKind(arg, value, spelling));
  if (arg.validator)
    if (auto ok = arg.validator(value); !ok) return withContext(ok.error(), argPath(arg, spelling));
  return {};
}

Expected<json> opArgFromText(const OpArg& arg, std::string_view text, ArgSpelling spelling) {
  const std::string path = argPath(arg, spelling);
  switch (arg.kind) {
  case OpArgKind::Any:
  case OpArgKind::String:
  case OpArgKind::Operand: // parseLayoutOperand takes layout JSON as text
  case OpArgKind::Target:
    return json(std::string(text));
  case OpArgKind::Shape: {
    if (text.empty()) return makeError(path + ": empty shape");
    LAYOUT_TRY_ASSIGN(shape, opargs::shapeFromText(text, path));
    return json(std::vector<uint64_t>(shape.begin(), shape.end())); // unsigned, as parsed JSON
  }
  case OpArgKind::Count:
  case OpArgKind::ElementBits: {
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || text.size() > 19 || ec != std::errc() || p != text.data() + text.size())
      return makeError(path + ": " + layout::detail::quoteInput(std::string(text)) +
                       " is not a non-negative integer");
    return json(v);
  }
  case OpArgKind::Flag:
    return json(text == "true");
  case OpArgKind::Instruction: {
    if (!startsWith(text, '{')) return json(std::string(text));
    auto j = detail::parseJsonText(text);
    if (!j) return withContext(j.error(), path);
    return j;
  }
  case OpArgKind::Addresses: {
    LAYOUT_TRY_ASSIGN(addresses, opargs::laneAddressesFromText(text, path));
    json out = json::array();
    for (const auto& a : addresses) out.push_back({uint64_t(a.lane), a.byteAddress});
    return out;
  }
  case OpArgKind::IntList:
    return intListFromText(text, path);
  }
  return json(std::string(text));
}

Error missingOpArg(const OpArg& arg, ArgSpelling spelling) {
  const bool cli = spelling == ArgSpelling::CommandLine;
  std::string what;
  switch (arg.kind) {
  case OpArgKind::Operand:
    what = "encoding text or layout JSON";
    break;
  case OpArgKind::Shape:
    what = cli ? "a tensor shape such as 64x32" : "a tensor shape such as [64, 32]";
    break;
  case OpArgKind::ElementBits:
    what = "element bits: " + elementBitsText(arg.choices);
    break;
  case OpArgKind::Target:
    what = "a hardware target: " + target::builtinTargetNames() + " or @file.json";
    break;
  case OpArgKind::Instruction:
    what = "an instruction name such as \"cdna4.ds_read_b128\" or a bank model";
    break;
  case OpArgKind::Addresses:
    what = cli ? "LANE:BYTE,..." : "[[lane, byte], ...]";
    break;
  default:
    break;
  }
  return makeError(argPath(arg, spelling) + ": missing" + (what.empty() ? "" : " (" + what + ")"));
}

bool holdsData(OpArgKind kind) {
  return kind == OpArgKind::Operand || kind == OpArgKind::Instruction ||
         kind == OpArgKind::Addresses || kind == OpArgKind::String || kind == OpArgKind::Any;
}

} // namespace layout
