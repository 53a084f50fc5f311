// liblayout -> the naive model (public API only), for tests that hand liblayout's layouts to an
// independent oracle.
#pragma once

#include "layout/core/linear_layout.h"
#include "support/naive_layout.h"

#include <string>

namespace layout_test {

inline naive::Layout toNaive(const layout::LinearLayout& l) {
  naive::Layout n;
  for (const layout::InDimBases& d : l.inDims())
    n.ins.push_back({std::string(d.name.str()), d.bases});
  for (const layout::DimSize& d : l.outDims())
    n.outs.push_back({std::string(d.name.str()), d.size});
  return n;
}

} // namespace layout_test
