// A TritonGPU encoding's linear layout from its attribute text, for tests that start from
// encodings: a parse or conversion error fails the calling test (with the library's message) and
// gives an empty layout rather than reading a missing value.
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/triton/encoding.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace layout_test {

//   encodingLayout("#ttg.blocked<{sizePerThread = [1, 4], ...}>", {64, 64})
inline layout::LinearLayout encodingLayout(const std::string& text, std::vector<int64_t> shape) {
  auto enc = layout::triton::parseEncoding(text);
  EXPECT_TRUE(enc) << text << ": " << (enc ? "" : enc.error().message);
  if (!enc) return layout::LinearLayout();
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  EXPECT_TRUE(ll) << text << ": " << (ll ? "" : ll.error().message);
  return ll ? *ll : layout::LinearLayout();
}

} // namespace layout_test
