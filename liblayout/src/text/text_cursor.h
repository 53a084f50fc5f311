// Internal: where a hand-written reader stands in its text (byte offset, 1-based line and
// column), shared by the MLIR op reader (mlir_ops.cpp) and the attribute parser
// (mlir_attribute.cpp) so that both count lines and columns alike for their error locations.
//
//   detail::TextCursor c;            // line 1, column 1
//   c.advance("a\nb");               // past 'a': column 2
//   c.advance("a\nb");               // past '\n': line 2, column 1
//   detail::TextCursor saved = c;    // a plain value: copy it to back off after a look-ahead
#pragma once

#include <cstddef>
#include <string_view>

namespace layout::detail {

struct TextCursor {
  size_t pos = 0;
  int line = 1, column = 1;

  // One byte on in `text` (the text the cursor walks); a '\n' starts the next line. At the end
  // of the text nothing moves, so a reader may call it without checking.
  void advance(std::string_view text) {
    if (pos >= text.size()) return;
    if (text[pos] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    ++pos;
  }

  // To byte `end` of the current line (no '\n' before it): a whole comment in one step.
  void skipWithinLine(size_t end) {
    column += int(end - pos);
    pos = end;
  }
};

} // namespace layout::detail
