// Internal: reading hardware descriptions and layouts from JSON with messages that name the field
// path ("instructions[2].banks") and the rule. Shared by every JSON reader of liblayout.
#pragma once

#include "layout/core/expected.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace layout::detail {

// How describeJson names a number: its value, or only its sign ("a number", "a negative number").
enum class NumberStyle { Value, Sign };

// What a JSON value is, for "expected X, got Y" messages.
std::string describeJson(const nlohmann::json& j, NumberStyle style = NumberStyle::Value);

std::string joinPath(const std::string& path, std::string_view key);

// An object whose keys are all among `known` (a typo in a hardware description must not pass).
// `root` names the object when `path` is empty.
Expected<void> checkObjectKeys(const nlohmann::json& j, const std::string& path,
                               std::initializer_list<std::string_view> known,
                               std::string_view root);

const nlohmann::json* findField(const nlohmann::json& obj, std::string_view key);

// A required integer field in [lo, hi].
Expected<void> readIntField(const nlohmann::json& obj, const std::string& path,
                            std::string_view key, int64_t lo, int64_t hi, int64_t& out);

Expected<void> readIntField(const nlohmann::json& obj, const std::string& path,
                            std::string_view key, int64_t lo, int64_t hi, int& out);

Expected<void> requirePowerOfTwo(int64_t v, const std::string& path);

} // namespace layout::detail
