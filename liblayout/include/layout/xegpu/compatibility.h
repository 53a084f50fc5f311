// Whether two XeGPU layouts of one value agree at a level (upstream's level-based
// DistributeLayoutAttr::isCompatibleWith, docs/reference/xegpu.md §6), so that no
// convert_layout is needed between them.
//
//   auto a = parseXegpuAttr("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>");
//   auto b = parseXegpuAttr("#xegpu.slice<#xegpu.layout<lane_layout = [1, 1, 16], "
//                           "lane_data = [1, 1, 1]>, dims = [0]>");
//   int64_t shape[] = {8, 16};
//   isCompatible(*a, *b, shape, LayoutKind::Lane);   // true: same lane coordinates
#pragma once

#include "layout/core/expected.h"
#include "layout/xegpu/layout_kind.h"
#include "layout/xegpu/xegpu_layout.h"

#include <cstdint>
#include <span>

namespace layout::xegpu {

// Subgroup: equal effective order, sg_layout and sg_data, or else every subgroup id in
// [0, prod(a.sg_layout)) owns the same sg_data blocks of `shape` under both. Lane: the same with
// lane_layout / lane_data and the coordinates each lane owns (sg fields and inst_data are not
// read). InstData: equal effective inst_data. `partialSubgroup` adds the 2-D rule proposed in
// llvm#201667 and reverted before it merged (a target lane_layout that divides a's along the one
// dim where they differ, same lane_data); upstream does not apply it.
Expected<bool> isCompatible(const XeLayout& a, const XeLayout& b, std::span<const int64_t> shape,
                            LayoutKind level, bool partialSubgroup = false);

} // namespace layout::xegpu
