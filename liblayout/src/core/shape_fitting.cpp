#include "layout/core/shape_fitting.h"

#include "layout_builder.h"

#include <bit>

namespace layout {
namespace {

// The desired size of every out-dim, in out-dim order; `shape` must name each out-dim once.
Expected<std::vector<int>> desiredLog2(const LinearLayout& l, std::span<const DimSize> shape,
                                       const char* fn) {
  if (int(shape.size()) != l.numOutDims())
    return makeError(std::string(fn) + ": the shape has " + std::to_string(shape.size()) +
                     " dims but the layout has " + std::to_string(l.numOutDims()) + " out-dims");
  std::vector<int> want(l.numOutDims(), -1);
  for (const DimSize& d : shape) {
    int o = l.outDimIndex(d.name);
    if (o < 0 || want[o] >= 0)
      return makeError(std::string(fn) + ": shape dim " + quoted(d.name) +
                       " must name each out-dim of the layout once");
    if (!std::has_single_bit(d.size))
      return makeError(std::string(fn) + ": size " + std::to_string(d.size) + " of " +
                       quoted(d.name) + " is not a power of two");
    want[o] = std::countr_zero(d.size);
  }
  return want;
}

} // namespace

Expected<LinearLayout> ensureLayoutNotLargerThan(const LinearLayout& layout,
                                                 std::span<const DimSize> shape,
                                                 bool broadcastRegisters) {
  LAYOUT_TRY_ASSIGN(want, desiredLog2(layout, shape, "ensureLayoutNotLargerThan"));
  const int regDim = layout.inDimIndex(dims::reg());
  DimShape outShape = LayoutBuilder::outShape(layout);
  for (int o = 0; o < layout.numOutDims(); ++o)
    outShape[o].second = std::min(outShape[o].second, want[o]);
  // Components that do not fit become 0 (broadcast); without register broadcasting, such
  // register bases are dropped instead.
  SmallVector<bool, 64> dropped;
  dropped.resize(size_t(layout.totalInDimSizeLog2()));
  DimShape inShape = LayoutBuilder::inShape(layout);
  if (regDim >= 0 && !broadcastRegisters)
    for (int i = 0; i < layout.inDimSizeLog2(regDim); ++i)
      for (int o = 0; o < layout.numOutDims(); ++o)
        if (layout.basis(regDim, i, o) >= (uint64_t{1} << outShape[o].second)) {
          dropped[layout.inDimFirstBasis(regDim) + i] = true;
          --inShape[regDim].second;
          break;
        }
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(inShape, outShape));
  int g = 0;
  for (int d = 0; d < layout.numInDims(); ++d)
    for (int i = 0; i < layout.inDimSizeLog2(d); ++i) {
      if (dropped[layout.inDimFirstBasis(d) + i]) continue;
      for (int o = 0; o < layout.numOutDims(); ++o) {
        const uint64_t c = layout.basis(d, i, o);
        if (c < (uint64_t{1} << outShape[o].second)) b.setComponent(g, o, c);
      }
      ++g;
    }
  return b.build();
}

Expected<LinearLayout> ensureLayoutNotSmallerThan(const LinearLayout& layout,
                                                  std::span<const DimSize> shape) {
  LAYOUT_TRY_ASSIGN(want, desiredLog2(layout, shape, "ensureLayoutNotSmallerThan"));
  if (layout.numOutDims() == 0) return layout;
  if (layout.numInDims() == 0 ||
      (layout.inDimName(0) != dims::reg() && layout.inDimName(0) != dims::offset()))
    return makeError("ensureLayoutNotSmallerThan: the first in-dim must be 'register' or "
                     "'offset' to take the repeated elements");
  const DimName kDim = layout.inDimName(0);
  LinearLayout ret = layout;
  for (int o = 0; o < layout.numOutDims(); ++o) {
    int have = layout.outDimSizeLog2(o);
    if (want[o] <= have) continue;
    LAYOUT_TRY_ASSIGN(
        id, LinearLayout::identity1D(uint64_t{1} << (want[o] - have), kDim, layout.outDimName(o)));
    LAYOUT_TRY_ASSIGN(p, product(ret, id));
    ret = std::move(p);
  }
  return ret;
}

Expected<LinearLayout> productOf1D(std::span<const Factor1D> factors) {
  // Dims in order of first appearance, as the chained products' supremum gives them.
  DimShape ins, outs;
  auto indexOf = [](DimShape& dimsSoFar, DimName n) {
    for (size_t i = 0; i < dimsSoFar.size(); ++i)
      if (dimsSoFar[i].first == n) return int(i);
    dimsSoFar.push_back({n, 0});
    return int(dimsSoFar.size()) - 1;
  };
  for (const Factor1D& f : factors) {
    if (f.size == 0 || !std::has_single_bit(f.size))
      return makeError((f.zeros ? "zeros1D" : "identity1D") + std::string(": size ") +
                       std::to_string(f.size) + " of in-dim " + quoted(f.in) +
                       " must be a power of two");
    const int log2 = std::countr_zero(f.size);
    ins[size_t(indexOf(ins, f.in))].second += log2;
    outs[size_t(indexOf(outs, f.out))].second += f.zeros ? 0 : log2;
  }
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make({ins.data(), ins.size()}, {outs.data(), outs.size()}));
  // Each factor takes the next bases of its in-dim and the next bits of its out-dim.
  SmallVector<int, 8> usedIn(ins.size(), 0), usedOut(outs.size(), 0);
  const LinearLayout& r = b.layout();
  for (const Factor1D& f : factors) {
    const int d = r.inDimIndex(f.in), o = r.outDimIndex(f.out);
    const int log2 = std::countr_zero(f.size);
    for (int k = 0; k < log2; ++k) {
      const int g = r.inDimFirstBasis(d) + usedIn[size_t(d)]++;
      if (!f.zeros) b.setComponent(g, o, uint64_t{1} << (usedOut[size_t(o)] + k));
    }
    if (!f.zeros) usedOut[size_t(o)] += log2;
  }
  return b.build();
}

Expected<LinearLayout> identityStandardND(DimName inDim, std::span<const uint64_t> shape,
                                          std::span<const int> order) {
  if (shape.size() != order.size())
    return makeError("identityStandardND: shape has " + std::to_string(shape.size()) +
                     " dims but order has " + std::to_string(order.size()));
  std::vector<bool> seen(shape.size());
  for (int d : order) {
    if (d < 0 || d >= int(shape.size()) || seen[d])
      return makeError("identityStandardND: order must be a permutation of 0.." +
                       std::to_string(int(shape.size()) - 1));
    seen[d] = true;
  }
  SmallVector<Factor1D, 8> factors;
  for (int d : order) factors.push_back({shape[size_t(d)], inDim, dims::standardOut(d)});
  return productOf1D({factors.data(), factors.size()});
}

} // namespace layout
