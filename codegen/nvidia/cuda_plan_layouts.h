// Internal to the NVIDIA GEMM planners: reading linear layouts at (register, lane, warp), the
// per-CTA layouts of typed Triton encodings, and offsets of a shared layout's inverse.
#pragma once

#include "layout/codegen/cuda_gemm_plan.h"
#include "layout/core/expected.h"
#include "layout/core/linear_layout.h"
#include "layout/triton/encoding.h"

#include <cstdint>

namespace layout::codegen::cuda_plan {

// A distributed layout's coordinate of (register, lane, warp) in its two out-dims.
TileCoord at(const LinearLayout& ll, uint64_t reg, uint64_t lane, uint64_t warp);

// The same layout with its two out-dims swapped (dim0 <-> dim1), for B stored N x K.
Expected<LinearLayout> swapOutDims(const LinearLayout& ll);

// A distributed encoding over [rows, cols]: register, lane, warp -> (row, column) of one CTA
// (the block dim dropped).
Expected<LinearLayout> distributedLayout(const triton::Encoding& encoding, int64_t rows,
                                         int64_t cols);

// A shared encoding over [rows, cols]: offset -> (row, column) of one CTA.
Expected<LinearLayout> sharedLayout(const triton::Encoding& encoding, int64_t rows, int64_t cols);

// Offsets of a shared layout's inverse: (row, col) -> offset in elements.
struct SharedOffsets {
  LinearLayout inverse;
  uint32_t of(TileCoord c) const {
    uint64_t in[2] = {static_cast<uint64_t>(c[0]), static_cast<uint64_t>(c[1])}, out[1] = {0};
    inverse.apply(in, out);
    return static_cast<uint32_t>(out[0]);
  }
};

} // namespace layout::codegen::cuda_plan
