/// \file
/// Fitting a layout to a tensor shape, as Triton's LayoutUtils do when an encoding meets a shape:
/// grow by repeating in registers, shrink by broadcasting.
///
/// \code
///   // A 16x16 tile on a 64x8 tensor: repeat along dim0 in registers, broadcast along dim1.
///   DimSize shape[] = {{DimName("dim0"), 64}, {DimName("dim1"), 8}};
///   auto grown  = ensureLayoutNotSmallerThan(tile, shape);
///   auto fitted = ensureLayoutNotLargerThan(*grown, shape);
/// \endcode
#pragma once

#include "layout/core/linear_layout.h"

#include <span>

namespace layout {

/// Zeros every basis component that is >= the desired size of its out-dim (broadcasting), and
/// shrinks the out-dims to `shape` (one entry per out-dim, matched by name). With
/// broadcastRegisters = false, register bases that would become broadcasts are dropped instead.
Expected<LinearLayout> ensureLayoutNotLargerThan(const LinearLayout& layout,
                                                 std::span<const DimSize> shape,
                                                 bool broadcastRegisters = true);

/// Multiplies by identity1D(want / have, firstInDim, outDim) for every out-dim (in out-dim order)
/// that is smaller than `shape`: the extra elements go to new bases of the first in-dim, which must
/// be "register" or "offset".
Expected<LinearLayout> ensureLayoutNotSmallerThan(const LinearLayout& layout,
                                                  std::span<const DimSize> shape);

/// Triton's identityStandardND: the product of `identity1D(shape[d], inDim, "dim<d>")` over d in
/// `order` (most minor first). The out-dims come in `order`'s order, as in Triton.
Expected<LinearLayout> identityStandardND(DimName inDim, std::span<const uint64_t> shape,
                                          std::span<const int> order);

/// One factor of a product chain: identity1D(size, in, out), or zeros1D(size, in, out) (out size
/// 1) when `zeros`.
struct Factor1D {
  uint64_t size;
  DimName in, out;
  bool zeros = false;
};

/// product(f0, product(f1, ...)) ... i.e. ((f0 * f1) * f2) * ..., built in one pass. The encodings
/// describe most layouts as such chains; building them directly skips the intermediate layouts.
///
/// \code
///   // kWidth registers and 4 lanes along dim1, then 8 lanes along dim0:
///   Factor1D f[] = {{2, dims::reg(), dims::standardOut(1)},
///                   {4, dims::lane(), dims::standardOut(1)},
///                   {8, dims::lane(), dims::standardOut(0)}};
///   auto tile = productOf1D(f);
/// \endcode
Expected<LinearLayout> productOf1D(std::span<const Factor1D> factors);

} // namespace layout
