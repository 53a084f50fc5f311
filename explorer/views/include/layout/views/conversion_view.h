// The conversion view: layoutctl convert as a picture. Layout A is the source, layout B the
// destination, over the same tensor; the planner (layout/conversion/conversion_plan.h) says how
// the data moves, and the scene shows it:
//   grids "convert.src" and "convert.dst": the tensor under each layout (owners as labels; each
//     cell's `details` is its trace summary, conversion_trace.h: "src T7:2 -> dst T17:6, ...");
//   register permutation: grid "convert.registers", one cell per destination register, "r5 <- r2";
//   intra-warp shuffles: per round a grid "convert.round.<i>" of three rows over the lanes: row 0
//     the register each lane sends, row 2 what it receives ("L7.r2 -> r5", coloured as the lane it
//     reads), and across row 1 an arrow from the sending lane's cell to each receiver;
//   shared memory: the buffer's layout (#ttg.shared_linear text), then the bank maps of the store
//     and of the load: grids "convert.store.banks" (phase 0), "convert.store.banks.<p>", and
//     "convert.load.banks[.<p>]", warp 0's first access phase by phase as the banks view draws
//     it (bank_view.h appendBankPhases; rows: wavefronts, cols: banks), one heat scale and its
//     legend for both.
//
//   auto plan = layout::conversion::planConversion(src, dst, 16, "nvidia");
//   Scene s = layout::views::conversionScene(*srcMap, *dstMap, *plan, {});
#pragma once

#include "layout/conversion/conversion_plan.h"
#include "layout/views/layout_maps.h"
#include "layout/views/scene.h"
#include "layout/views/views.h"

namespace layout::views {

Scene conversionScene(const TensorMap& src, const TensorMap& dst,
                      const layout::conversion::ConversionPlan& plan, const ViewOptions& opt);

} // namespace layout::views
