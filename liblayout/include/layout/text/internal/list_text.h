// Internal: integer lists as the libraries and tools print them in messages and text reports.
//
//   listText(std::vector<int64_t>{2, 16})    // "[2, 16]": as MLIR attributes print them
//   listText(std::vector<int>{0, 1, 2}, " ")  // "[0 1 2]": conversion plans' register lists
//   joinText(std::vector<int64_t>{8, 0})      // "8, 0": inside brackets of the caller's own
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace layout::detail {

// The values in decimal, `separator` between them, no brackets.
std::string joinText(std::span<const int64_t> values, std::string_view separator = ", ");
std::string joinText(std::span<const int> values, std::string_view separator = ", ");
// joinText in square brackets.
std::string listText(std::span<const int64_t> values, std::string_view separator = ", ");
std::string listText(std::span<const int> values, std::string_view separator = ", ");

} // namespace layout::detail
