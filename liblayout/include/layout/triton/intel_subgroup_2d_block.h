// Intel's 2D block-load encoding (#ttig.subgroup_2d_block, Subgroup2DBlockEncodingAttr): the
// layout of a tensor as 2D block messages deliver it, typed, and its linear layout.
//
//   auto enc = layout::triton::parseEncoding(
//       "#ttig.subgroup_2d_block<{warpsPerCTA = [8, 4], instrShape = [32, 16], numBlocks=2, "
//       "order=[1, 0], kWidth=2, threadsPerWarp=16}>");
//   auto p = layout::triton::subgroup2DBlockParams(*enc);        // instrShape = {32, 16}, ...
//   auto ll = layout::triton::toLinearLayout(*enc, {256, 32});   // register, lane, warp, block
//
// The layout (docs/reference/intel-xe.md §1.5): one message of instrShape (rows, columns) over the
// subgroup's lanes (a lane packs adjacent columns when the row is wider than the subgroup; when
// it is narrower the next rows go to the next lanes), numBlocks messages side by side along the
// columns, warps over warpsPerCTA with those along order[0] holding copies, then repeated in
// registers to cover the tensor. kWidth is carried, not used by the layout.
#pragma once

#include "layout/core/expected.h"
#include "layout/core/linear_layout.h"
#include "layout/triton/encoding.h"

#include <array>
#include <cstdint>
#include <span>

namespace layout::triton {

struct Subgroup2DBlockParams {
  std::array<int64_t, 2> warpsPerCTA{1, 1};
  std::array<int64_t, 2> instrShape{8, 16}; // (height, width) of one message, in elements
  int64_t numBlocks = 1;
  std::array<int64_t, 2> order{1, 0};
  int64_t kWidth = 1;
  int64_t threadsPerWarp = 16;
};

// The parameters of a #ttig.subgroup_2d_block encoding.
Expected<Subgroup2DBlockParams> subgroup2DBlockParams(const Encoding& encoding);

// The layout for one CTA (no CGA) of `shape` (rank 2). Checks what the layout needs (powers of
// two, threadsPerWarp 16 or 32 — the attribute verifier, like the backend's, allows only 16).
Expected<LinearLayout> subgroup2DBlockLayout(const Subgroup2DBlockParams& params,
                                             std::span<const int64_t> shape);

} // namespace layout::triton
