// The layout upstream sets up for a vector.multi_reduction (setupMultiReductionResultLayout,
// docs/reference/xegpu.md §7): the source layout is chosen, the result is that layout sliced
// over the reduction dims. It depends on the level, the source shape, the layout the result's
// consumer wants (a slice or not, or none) and, at subgroup level, the subgroup count.
//
//   int64_t src[] = {32, 128};
//   auto s = multiReductionSourceLayout({LayoutKind::Lane, src, {1}}, std::nullopt);
//   // #xegpu.layout<lane_layout = [16, 1], lane_data = [1, 1]>
#pragma once

#include "layout/core/expected.h"
#include "layout/xegpu/layout_kind.h"
#include "layout/xegpu/xegpu_layout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace layout::xegpu {

struct ReductionSetup {
  LayoutKind level = LayoutKind::Lane;
  std::span<const int64_t> sourceShape;
  std::vector<int64_t> reductionDims;
  int64_t numSubgroups = 0;        // subgroup level, used when there is no consumer layout
  int64_t subgroupSize = 16;       // lanes of a subgroup (the target's)
  int64_t maxReduceVectorSize = 1; // upstream fixes 1; elements a lane reduces in-register
};

struct LaneSplit {
  std::vector<int64_t> laneLayout, laneData;
};

// Lanes on the innermost dim (on dim rank-2 when `vertical`), min(subgroupSize, shape) of them;
// the other of the two innermost dims gets lane_data min(maxReduceVectorSize, shape). All other
// dims 1.
LaneSplit reductionLaneSplit(std::span<const int64_t> sourceShape, int64_t subgroupSize,
                             int64_t maxReduceVectorSize, bool vertical);

// The source layout (a plain #xegpu.layout); the result layout is it sliced over
// setup.reductionDims. `consumer` is the layout the result's user wants, if any.
Expected<XeLayout> multiReductionSourceLayout(const ReductionSetup& setup,
                                              const std::optional<XeLayout>& consumer);

} // namespace layout::xegpu
