// Internal: quoting user input (attribute text, option values, file content) in error messages.
// An input can be as large as the input limit (64 MiB, docs/limits.md); a message quotes at most
// about kQuotedInputBytes of it, around the fault, and says how long the whole input is:
//
//   quoteInput("16x32")                  // 'x32' -> "'16x32'"
//   quoteInput(huge, 1000000)            // "'...aaaa,bbbb...' (byte 1000000 of 70000000)"
//   quoteInput(huge)                     // "'#ttg.blocked<{aaa...' (70000000 bytes)"
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace layout::detail {

// The most bytes of an input an error message quotes.
inline constexpr size_t kQuotedInputBytes = 200;

// `text` in single quotes, whole when it has at most kQuotedInputBytes bytes; otherwise about
// kQuotedInputBytes bytes of it around byte `at` (the fault; npos: from the start), "..." where
// it is cut, and its total length after the closing quote. Cuts never split a UTF-8 sequence.
inline std::string quoteInput(std::string_view text, size_t at = std::string_view::npos) {
  if (text.size() <= kQuotedInputBytes) return "'" + std::string(text) + "'";
  size_t begin = 0;
  if (at != std::string_view::npos && at < text.size())
    begin = at > kQuotedInputBytes / 2 ? at - kQuotedInputBytes / 2 : 0;
  size_t end = begin + kQuotedInputBytes;
  if (end > text.size()) {
    end = text.size();
    begin = end - kQuotedInputBytes;
  }
  const auto continuation = [&](size_t i) {
    return i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80;
  };
  while (begin > 0 && continuation(begin)) --begin;
  while (end < text.size() && continuation(end)) ++end;
  std::string out = "'";
  if (begin > 0) out += "...";
  out.append(text.substr(begin, end - begin));
  if (end < text.size()) out += "...";
  out += "' (";
  if (at != std::string_view::npos && at < text.size())
    out += "byte " + std::to_string(at) + " of ";
  return out + std::to_string(text.size()) + " bytes)";
}

} // namespace layout::detail
