/// \file
/// What a layout conversion between two distributed layouts costs, the way Triton's convert_layout
/// lowering classifies it (Linear Layouts paper §5): the first step of the conversion planner
/// (layout/conversion/conversion_plan.h), here on its own for callers that need the kind only
/// (XeGPU's convert_layout propagation). Exact at any size: pure algebra, nothing enumerated.
///
/// \code
///   auto c = layout::classifyConversion(src, dst);
///   if (c && c->kind == layout::ConversionKind::WarpShuffle) ...  // c->comp: dst -> src
/// \endcode
#pragma once

#include "layout/core/linear_layout.h"

#include <string_view>

namespace layout {

/// The kind of a conversion, from its comp (ConversionClass::comp):
/// - `None`: src == dst;
/// - `RegisterPermutation`: comp is trivial over lane, warp and block: each lane already holds
///   what it needs, registers are renamed;
/// - `WarpShuffle`: comp is trivial over warp and block: data moves between lanes of a warp;
/// - `SharedMemory`: otherwise (data moves between warps, or blocks).
enum class ConversionKind { None, RegisterPermutation, WarpShuffle, SharedMemory };
/// "none", "registerPermutation", "warpShuffle", "sharedMemory".
std::string_view conversionKindName(ConversionKind k);

/// A conversion classified: its kind and the layouts it was derived from.
struct ConversionClass {
  ConversionKind kind = ConversionKind::None;
  /// src and dst with in-dims exactly (register, lane, warp, block), absent ones of size 1.
  LinearLayout src, dst;
  /// comp = dst.invertAndCompose(src), out-dims in (register, lane, warp, block) order: for every
  /// dst location, the src location holding the same element (a gather map, defined under
  /// broadcast: a src that holds an element twice offers its smallest location).
  LinearLayout comp;
};

/// Classifies the conversion from `src` to `dst`.
///
/// Requires: src and dst distributed layouts (in-dims among register, lane, warp, block) over
/// the same out-dims and sizes, with the same lane, warp and block counts, each holding every
/// element (surjective). Errors name the side ("src", "dst"), the dim and the rule.
Expected<ConversionClass> classifyConversion(const LinearLayout& src, const LinearLayout& dst);

} // namespace layout
