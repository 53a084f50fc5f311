// Files in and out for the tools. Reading user input with a size limit: whole files, standard
// input, and request lines. Every read is bounded by resourceLimits() (maxInputBytes,
// maxLineBytes), and paths that are not readable files (a directory, /dev/zero) are refused by
// name before anything is read. Writing checks that every byte reached the file (a full disk,
// /dev/full, is an error, not a silent success).
//
//   auto text = layout::readInputFile("kernel.mlir", "--input");
//   // error: "--input: '/dev/zero' is a character device, not a file"
//   // error: "--input: 'big.json' has more than 64 MiB; the limit is ... (LAYOUT_MAX_INPUT_BYTES)"
#pragma once

#include "layout/core/expected.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace layout {

// The whole file at `path` (regular files and pipes; "-" is not special here). `what` names the
// argument in messages.
Expected<std::string> readInputFile(const std::string& path, const std::string& what);

// Everything left on `in` (e.g. standard input), at most maxInputBytes.
Expected<std::string> readInputStream(std::istream& in, const std::string& what);

// One line of `in` without its '\n'. TooLong: the line exceeds `maxBytes`; `line` holds its first
// `maxBytes` bytes and the rest is still unread (skipRestOfLine). End: nothing was left to read.
enum class LineRead { Line, TooLong, End };
LineRead readBoundedLine(std::istream& in, std::string& line, uint64_t maxBytes);
// Discards up to and including the next '\n' without storing it.
void skipRestOfLine(std::istream& in);

// Writes `data` to `path` (created or truncated); an error names `what`, the file and the cause.
Expected<void> writeOutputFile(const std::string& path, std::string_view data,
                               const std::string& what);

// "64 MiB", "1 KiB", "100 bytes": how messages print a byte limit.
std::string describeBytes(uint64_t bytes);

} // namespace layout
