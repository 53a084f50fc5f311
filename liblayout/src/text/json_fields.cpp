// JSON field helpers shared by the modules' readers (layout/text/internal/json_fields.h).
#include "layout/text/internal/json_fields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>

namespace layout::detail {

// What a JSON value is, for "expected X, got Y" messages.
std::string describeJson(const nlohmann::json& j, NumberStyle style) {
  using nlohmann::json;
  switch (j.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::boolean:
    return "a boolean";
  case json::value_t::string:
    return "a string";
  case json::value_t::array:
    return "an array";
  case json::value_t::object:
    return "an object";
  case json::value_t::number_float:
    return "a non-integer number";
  default:
    if (style == NumberStyle::Sign)
      return j.is_number_integer() && j.get<int64_t>() < 0 ? "a negative number" : "a number";
    return j.is_number_unsigned() ? std::to_string(j.get<uint64_t>())
                                  : std::to_string(j.get<int64_t>());
  }
}

std::string joinPath(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

// An object whose keys are all among `known` (a typo in a hardware description must not pass).
// `root` names the object when `path` is empty.
Expected<void> checkObjectKeys(const nlohmann::json& j, const std::string& path,
                               std::initializer_list<std::string_view> known,
                               std::string_view root) {
  if (!j.is_object())
    return makeError((path.empty() ? std::string(root) : path) + ": expected an object, got " +
                     describeJson(j));
  for (const auto& [key, value] : j.items()) {
    (void)value;
    if (std::find(known.begin(), known.end(), key) == known.end())
      return makeError(joinPath(path, key) + ": unknown field");
  }
  return {};
}

const nlohmann::json* findField(const nlohmann::json& obj, std::string_view key) {
  auto it = obj.find(std::string(key));
  return it == obj.end() ? nullptr : &*it;
}

// A required integer field in [lo, hi].
Expected<void> readIntField(const nlohmann::json& obj, const std::string& path,
                            std::string_view key, int64_t lo, int64_t hi, int64_t& out) {
  const nlohmann::json* v = findField(obj, key);
  std::string p = joinPath(path, key);
  if (!v) return makeError(p + ": missing field");
  if (!v->is_number_integer())
    return makeError(p + ": expected an integer, got " + describeJson(*v));
  // nlohmann/json stores every non-negative integer as unsigned: both bounds apply to it too (a
  // bank model's "bytesPerLane": 0 must not reach a division).
  const bool outside = v->is_number_unsigned()
                           ? (hi < 0 || v->get<uint64_t>() > static_cast<uint64_t>(hi) ||
                              (lo > 0 && v->get<uint64_t>() < static_cast<uint64_t>(lo)))
                           : (v->get<int64_t>() < lo || v->get<int64_t>() > hi);
  if (outside)
    return makeError(p + ": " + describeJson(*v) + " is outside [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "]");
  out = v->is_number_unsigned() ? static_cast<int64_t>(v->get<uint64_t>()) : v->get<int64_t>();
  return {};
}

Expected<void> readIntField(const nlohmann::json& obj, const std::string& path,
                            std::string_view key, int64_t lo, int64_t hi, int& out) {
  int64_t v = 0;
  if (auto e = readIntField(obj, path, key, lo, hi, v); !e) return e;
  out = static_cast<int>(v);
  return {};
}

Expected<void> requirePowerOfTwo(int64_t v, const std::string& path) {
  if (v <= 0 || !std::has_single_bit(static_cast<uint64_t>(v)))
    return makeError(path + ": " + std::to_string(v) + " is not a power of two");
  return {};
}

} // namespace layout::detail
