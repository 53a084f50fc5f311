// An element-by-element model of the Intel `#ttig.subgroup_2d_block` encoding (one CTA, no CGA),
// written only from the prose of docs/reference/intel-xe.md §1.5 ("Subgroup2DBlock encoding") and
// docs/reference/triton-linear-layout.md §5.1 (combineCtaCgaWithShape: repetition to cover the
// tensor). It is an independent oracle for tests: plain C++ std only, no layout/ header, and no
// basis vectors. The prose's bases are translated into "which (row, column) does register `reg` of
// lane `lane` of warp `warp` hold" arithmetic (divisions and remainders).
//
// Geometry of one block message (height x width elements, subgroup of tpw lanes):
//   pe          = ceil(width / tpw)        adjacent columns a lane packs (1 unless width > tpw)
//   lanesPerRow = width / pe               lanes that share one row (= 2^c in the prose)
//   rowsPerWarp = tpw / lanesPerRow        rows one register sweep of the subgroup covers
//   lane l      -> row l / lanesPerRow, column (l % lanesPerRow) * pe
//   register r  -> column + r % pe, row + (r / pe) * rowsPerWarp
// Then numBlocks blocks side by side along the columns (block index = the next register bits),
// then warps (low warp bits along dim1, high bits along dim0; the dim order[0] is broadcast),
// then repetition registers covering the tensor, dim0 (rows) first, then dim1.
//
// Ambiguities resolved (see the .cpp for the reasoning):
//   - "i = 1, 2, ..." in the register bases is read as powers of two (1, 2, 4, ...), as for lanes.
//   - Every lane < tpw is a real lane: the lane bases always number exactly log2(tpw).
//   - If rowsPerWarp > height (e.g. 1 x 8 with tpw 16) the block has no row registers and the
//     lanes still span rowsPerWarp rows, so the block tile is rowsPerWarp rows high, not height.
#pragma once

#include <cstdint>
#include <utility>

namespace layout::testing {

struct Subgroup2DBlockModel {
  int height = 0, width = 0;   // instrShape (rows, columns) of one block message, powers of two
  int numBlocks = 1;           // power of two
  int threadsPerWarp = 16;     // 16 or 32 (any power of two is accepted)
  int warpsPerCTA[2] = {1, 1}; // powers of two
  int order0 = 1;              // order[0]: the dim warps broadcast along (0 or 1)
};

// The element (row, column) that register `reg` of lane `lane` of warp `warp` holds, for a tensor
// of shape rows x cols (powers of two) at least as large as the CTA tile in both dims. Throws
// std::invalid_argument on invalid parameters or out-of-range reg / lane / warp.
std::pair<int64_t, int64_t> subgroup2DBlockElement(const Subgroup2DBlockModel& m, int64_t rows,
                                                   int64_t cols, int64_t reg, int64_t lane,
                                                   int64_t warp);

// How many registers per lane the layout has for that tensor shape.
int64_t subgroup2DBlockRegisters(const Subgroup2DBlockModel& m, int64_t rows, int64_t cols);

// The CTA tile (rows, cols) covered by one register sweep of all lanes and warps, before the
// repetition that covers the tensor (broadcast warp dims add nothing to it).
std::pair<int64_t, int64_t> subgroup2DBlockCtaTile(const Subgroup2DBlockModel& m);

} // namespace layout::testing
