// The block-load tiling of an Intel DPAS operand: which 2D block load (layout::intel::
// planBlockLoads) brings each element of one subgroup's part of the operand, and how one
// work-item's DPAS operand registers are picked out of its load results (the plan's shuffles).
//
//   int64_t shape[] = {256, 32};
//   auto v = layout::views::blockLoadView(
//       "#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, "
//       "executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], "
//       "repCluster = [4, 2]}>, kWidth = 1}>",
//       shape, 16, /*workItem=*/3);
//   v->numLoads;                      // 1: one 16b_32r16x2c load per subgroup
//   v->scene.grid("operand");         // the operand in memory coordinates
//
// Grid "operand": one cell per element in memory coordinates (rows, cols of the surface the
// loads read: the tensor's dims, swapped when the operand is transposed in memory). Cells the
// selected subgroup loads are filled with palette::categorical(load, numLoads), the others
// dimmed; every load is outlined (a SceneRect in palette::kOutline) and labelled "<load>:
// <shape name>"; the cells the selected work-item holds carry kMarkHighlight. Tensors above
// `maxCells` elements are cropped to the subgroup's loads (gridRow0 / gridCol0 say where).
// With `allSubgroups` (the explorer's view) every subgroup's loads are drawn over the workgroup
// tile: subgroups whose tiles coincide (the operand is broadcast across them) form one tile, and
// each cell is filled with palette::categorical(tile, numSubgroupTiles); the selected subgroup's
// loads keep the kOutline outlines, the other tiles' loads are outlined in palette::kBoundary.
// Each loaded cell's `details` say which load of which subgroups brings it, the work-item and
// the register of the load's result (in operandRegisterBits units) that receive it, and its
// byte in the load's GRF image (intel::loadPerWorkItem, intel::loadGrfImage).
// Grid "workitem": rows = the DPAS instructions fed, cols = their operand registers; cell (i, u)
// reads "L<load> r<k>" (register k of that load's result) and the memory coordinate of its first
// element, filled in the load's colour (with allSubgroups: the subgroup tile's colour).
#pragma once

#include "layout/intel/block_load_plan.h"
#include "layout/views/scene.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace layout::views {

struct BlockLoadViewOptions {
  std::string target = "pvc";      // "pvc" or "bmg"
  bool transposedInMemory = false; // the operand is stored column-major
  int subgroup = 0;                // the warp whose loads and work-item are drawn
  int64_t maxCells = 1 << 18;      // larger tensors are cropped to the subgroup's loads
  float cellSize = 0;              // operand cells; 0: 16
  bool allSubgroups = false;       // also draw every other subgroup's loads (see above)
};

struct BlockLoadViewResult {
  Scene scene;
  layout::intel::BlockLoadPlan plan;
  int numLoads = 0;
  int workItemElements = 0;           // distinct elements the work-item holds (highlighted cells)
  int workItemRegisters = 0;          // DPAS operand registers assembled for the work-item
  int64_t gridRow0 = 0, gridCol0 = 0; // memory coordinate of the operand grid's top-left cell
  int numSubgroups = 1;               // the operand layout's warps
  int numSubgroupTiles = 1;           // their distinct tiles (broadcast subgroups share one)
  int64_t unloadedCells = 0;          // drawn cells that no drawn subgroup's load covers
};

// Errors: "encoding: ..." (parse), "target: ...", "workItem: ...", "subgroup: ...", and the
// planner's own messages (not a DPAS operand, element size, no legal load, ...).
layout::Expected<BlockLoadViewResult> blockLoadView(std::string_view operandText,
                                                    std::span<const int64_t> shape, int elemBits,
                                                    int workItem = 0,
                                                    const BlockLoadViewOptions& opt = {});

} // namespace layout::views
