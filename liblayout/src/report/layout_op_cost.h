// What the ops that only change a tensor's layout or shape cost (kernel_report.h): whether each
// thread already holds what the op's result needs, and how a reduction combines its elements.
// Internal to the report module.
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/report/kernel_report.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace layout::report::detail {

// The ops whose result is the source's elements relabelled: tt.trans {order}, tt.reshape,
// tt.join, tt.split, tt.broadcast, tt.expand_dims {axis}. `src` and `result` are the linear
// layouts of the (first) operand and result tensors over their shapes; `order` (trans) and
// `axis` (expand_dims) come from the op. Method: the op maps each result coordinate to the
// source coordinate it takes (a GF(2)-linear map over power-of-two shapes: trans permutes dims,
// reshape relinearizes row-major, broadcast zeroes the broadcast dims, expand_dims drops the new
// dim, join drops the pair index, split appends it); the result layout pushed through that map is
// classified against the source (classifyConversion). Free when each thread keeps its elements
// (none, or a register renaming).
Expected<LayoutChangeFigures> layoutChange(std::string_view op, const LinearLayout& src,
                                           const LinearLayout& result,
                                           std::span<const int64_t> order, int axis);

// tt.reduce over `axis` of a source layout (Triton's lowering: combine inside each thread, then
// butterfly shuffles over the lanes along the axis, then through shared memory across the warps
// along it). `elemBits` and `operands` (reduced tensors) scale the shuffle count.
Expected<ReductionFigures> reductionCost(const LinearLayout& src, int axis, int elemBits,
                                         int operands);

} // namespace layout::report::detail
