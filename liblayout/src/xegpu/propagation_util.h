// Helpers the propagation rules share (xegpu.md §5-§7): effective order of a slice, setDimData
// through a slice, and the print-and-verify step every derived layout goes through.
#pragma once

#include "layout/core/expected.h"
#include "layout/xegpu/propagation.h"
#include "layout/xegpu/xegpu_layout.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace layout::xegpu::detail {

using Dims = std::vector<int64_t>;

// The product, saturated at 2^62 so that long lists of i32 fields cannot overflow; callers
// compare it with limits far below that.
inline int64_t productOf(const Dims& v) {
  constexpr int64_t cap = int64_t{1} << 62;
  int64_t p = 1;
  for (int64_t x : v) p = (x > 0 && p > cap / x) ? cap : p * x;
  return p;
}

// setDimData: overwrite view dim `dim` (a dim of the sliced view) of sg_data, inst_data and
// lane_data where the layout has them; -1 leaves a field alone.
inline void setViewDimData(XeLayout& l, size_t dim, int64_t sg, int64_t inst, int64_t lane) {
  const size_t root = size_t(l.keptDims()[dim]);
  if (sg >= 0 && !l.sgData.empty()) l.sgData[root] = sg;
  if (inst >= 0 && !l.instData.empty()) l.instData[root] = inst;
  if (lane >= 0 && !l.laneData.empty()) l.laneData[root] = lane;
}

// Prints, then parses back through the verifier, so a derived layout upstream would reject is an
// error here as well.
inline Expected<std::string> verifiedText(const XeLayout& l, const std::string& what) {
  const std::string text = printXegpu(l);
  auto back = parseXegpuAttr(text);
  if (!back)
    return makeError(what + ": the derived layout " + text +
                     " is not legal: " + back.error().message);
  return text;
}

inline XeLayout plainLayout(Dims sgLayout, Dims sgData, Dims instData, Dims laneLayout,
                            Dims laneData, Dims order = {}) {
  XeLayout l;
  l.sgLayout = std::move(sgLayout);
  l.sgData = std::move(sgData);
  l.instData = std::move(instData);
  l.laneLayout = std::move(laneLayout);
  l.laneData = std::move(laneData);
  l.order = std::move(order);
  return l;
}

} // namespace layout::xegpu::detail
