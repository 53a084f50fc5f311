// GoogleTest helpers shared by the core tests: build layouts from spelled-out bases and compare
// them with readable failure messages.
#pragma once

#include "layout/core/linear_layout.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace layout_test {

inline std::string describe(const std::vector<layout::InDimBases>& ins,
                            const std::vector<layout::DimSize>& outs) {
  std::ostringstream s;
  for (const auto& in : ins) {
    s << "\n  " << in.name.str() << ": [";
    for (const auto& b : in.bases) {
      s << "[";
      for (size_t o = 0; o < b.size(); ++o) s << (o ? "," : "") << b[o];
      s << "]";
    }
    s << "]";
  }
  s << "\n  outs:";
  for (const auto& o : outs) s << " " << o.name.str() << "(" << o.size << ")";
  return s.str();
}

// Compares a layout with explicit in-dims (names, order, bases) and out-dims (names, order, sizes).
inline void expectLayout(const layout::LinearLayout& l, const std::vector<layout::InDimBases>& ins,
                         const std::vector<layout::DimSize>& outs) {
  EXPECT_TRUE(l.inDims() == ins && l.outDims() == outs)
      << "got" << describe(l.inDims(), l.outDims()) << "\nwant" << describe(ins, outs);
}

inline layout::LinearLayout make(const std::vector<layout::InDimBases>& ins,
                                 const std::vector<layout::DimSize>& outs) {
  auto l = layout::LinearLayout::create(ins, outs);
  if (!l) {
    ADD_FAILURE() << "create failed: " << l.error().message << describe(ins, outs);
    return layout::LinearLayout();
  }
  return *l;
}

} // namespace layout_test
