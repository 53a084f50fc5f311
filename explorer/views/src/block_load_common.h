// Helpers shared by the block-load views (block_load_view.cpp for Triton DPAS operands,
// xegpu_block_load_view.cpp for XeGPU layouts): rectangles, labels, and where each element of a
// 2D block load lands (work-item, register, GRF byte) according to the reference executors.
#pragma once

#include "layout/intel/block_io.h"
#include "layout/intel/block_load_plan.h"
#include "layout/views/scene.h"

#include <cstdint>
#include <string>
#include <vector>

namespace layout::views::detail {

// "(r, c)".
std::string coordText(int64_t r, int64_t c);

// "subgroup 3" or "subgroups 0, 4".
std::string subgroupList(const std::vector<int>& subgroups);

// The load's OpenCL-style shape name ("16b_8r16x1c").
std::string loadName(const layout::intel::BlockLoad& l);

struct Rect {
  int64_t r0 = 0, c0 = 0, rows = 0, cols = 0;

  bool contains(int64_t r, int64_t c) const {
    return r >= r0 && r < r0 + rows && c >= c0 && c < c0 + cols;
  }
};

// Where one element of a load lands: the work-item, the register of its result (in `regBits`
// units), its bit offset in that work-item's result, and the byte of the load's GRF image; -1
// where the executor gave none.
struct LoadSlot {
  int workItem = -1, reg = -1;
  int64_t bit = -1;
  int64_t grfByte = -1;
};

// The slots of every element of a load's rows x cols rectangle (row-major), found by running the
// reference executors on a surface whose elements hold their own row + 1, then their column + 1
// (0 is padding or an undefined slot). Empty when the element size is not whole bytes or the
// executors refuse the load.
std::vector<LoadSlot> loadSlots(const layout::intel::BlockIoTarget& target,
                                const layout::intel::BlockLoad& l, int64_t rows, int64_t cols,
                                int elemBits, int regBits);

// The inspector's lines for an element a load brings: "\nwork-item 3, register 5 of L0's result
// (16-bit registers)" and "\nGRF byte 166 of L0's destination (GRF 2, byte 38)"; empty when the
// executors gave no work-item. `unit`: "16-bit registers".
std::string slotText(const LoadSlot& slot, const std::string& load, const std::string& unit,
                     int grfBytes);

// Outlines load `index` at (x, y) (`rc` in cells of `cell` units): the selected subgroup's loads
// in palette::kOutline labelled "<index>: <name>", the others in palette::kBoundary; with
// `subgroups`, the tile's first load also names its subgroups.
void outlineLoad(Scene& s, float x, float y, const Rect& rc, float cell, bool selected,
                 size_t index, const std::string& name, const std::vector<int>* subgroups);

} // namespace layout::views::detail
