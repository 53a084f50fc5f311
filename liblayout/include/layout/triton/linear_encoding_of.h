// A linear layout back as TritonGPU encoding text: #ttg.linear for a distributed layout (in-dims
// among register, lane, warp, block), #ttg.shared_linear for a shared one (offset, block), over
// tensor dims dim0..dimN-1. toLinearLayout of the result, over the layout's out-dim sizes, gives
// the layout back; the explorer copies it so a picture can be pasted into a TTGIR file.
//
//   auto ll = layout::triton::toLinearLayout(*parseEncoding(blockedText), shape);
//   auto text = layout::triton::linearEncodingOf(*ll);   // "#ttg.linear<{register = [...], ...}>"
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/triton/encoding.h"

namespace layout::triton {

// Errors name what does not fit: an out-dim not named dim<i>, an in-dim of neither kind.
Expected<Encoding> linearEncodingOf(const LinearLayout& l);

} // namespace layout::triton
