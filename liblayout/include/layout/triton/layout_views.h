// The text views of `triton-tensor-layout` (Triton's getLayoutStr), byte for byte.
//
//   auto enc = layout::triton::parseEncoding("#ttg.blocked<{...}>");
//   int64_t shape[] = {16, 16};
//   auto ll = layout::triton::toLinearLayout(*enc, shape);
//   auto text = layout::triton::layoutStr(*enc, *ll, shape, /*hwView=*/false);
//   if (text) std::cout << *text;
//
// Distributed, tensor view: one cell per element (row-major), listing every holder as
// [B<b>:]T<thread>:<register>, numpy-style brackets. Distributed, hardware view: per block and
// warp, one line per register with each lane's coordinate. Shared, tensor view: cell i shows the
// element stored at offset i; shared, hardware view: "Offset: o -> (coords)" lines per block.
//
// Errors: a tensor of more cells, or a layout of more hardware positions, than
// resourceLimits().maxViewCells (checked before anything is allocated); a rank over 16; out-dims
// that do not match the shape.
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/triton/encoding.h"

#include <cstdint>
#include <span>
#include <string>

namespace layout::triton {

// `ll` maps (register, lane, warp, block) to dim0..; absent in-dims count as size 1.
Expected<std::string> distributedLayoutStr(const LinearLayout& ll, std::span<const int64_t> shape,
                                           bool hwView);
// `ll` maps (offset, block) to dim0...
Expected<std::string> sharedLayoutStr(const LinearLayout& ll, std::span<const int64_t> shape,
                                      bool hwView);
// Picks the view family from the encoding.
Expected<std::string> layoutStr(const Encoding& encoding, const LinearLayout& ll,
                                std::span<const int64_t> shape, bool hwView);

} // namespace layout::triton
