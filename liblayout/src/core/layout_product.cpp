// Triton's operator*: the direct sum ("tiling") of two layouts.
#include "layout/core/linear_layout.h"

#include "layout_builder.h"

#include <algorithm>

namespace layout {
namespace {

// Triton's supremum: the order-preserving union of two dim lists. Dims found in only one list
// come as early as that list allows; shared dims must appear in the same relative order.
Expected<std::vector<DimName>> supremum(const std::vector<DimName>& x,
                                        const std::vector<DimName>& y, const char* what) {
  auto in = [](const std::vector<DimName>& v, DimName n) {
    return std::find(v.begin(), v.end(), n) != v.end();
  };
  std::vector<DimName> sharedX, sharedY;
  for (DimName n : x)
    if (in(y, n)) sharedX.push_back(n);
  for (DimName n : y)
    if (in(x, n)) sharedY.push_back(n);
  if (sharedX != sharedY) {
    std::string a, b;
    for (DimName n : sharedX) a += (a.empty() ? "" : ", ") + quoted(n);
    for (DimName n : sharedY) b += (b.empty() ? "" : ", ") + quoted(n);
    return makeError(std::string("product: the shared ") + what +
                     "-dims appear in inconsistent orders: [" + a + "] in the inner layout, [" +
                     b + "] in the outer layout");
  }
  std::vector<DimName> result;
  size_t i = 0, j = 0;
  while (i < x.size() || j < y.size()) {
    if (i < x.size() && !in(y, x[i])) {
      result.push_back(x[i++]);
    } else if (j < y.size() && !in(x, y[j])) {
      result.push_back(y[j++]);
    } else { // both heads are the same shared dim
      result.push_back(x[i]);
      ++i;
      ++j;
    }
  }
  return result;
}

} // namespace

Expected<LinearLayout> product(const LinearLayout& inner, const LinearLayout& outer) {
  LAYOUT_TRY_ASSIGN(inNames, supremum(inner.inDimNames(), outer.inDimNames(), "in"));
  LAYOUT_TRY_ASSIGN(outNames, supremum(inner.outDimNames(), outer.outDimNames(), "out"));
  auto log2In = [](const LinearLayout& l, DimName n) {
    int d = l.inDimIndex(n);
    return d < 0 ? 0 : l.inDimSizeLog2(d);
  };
  auto log2Out = [](const LinearLayout& l, DimName n) {
    int o = l.outDimIndex(n);
    return o < 0 ? 0 : l.outDimSizeLog2(o);
  };
  std::vector<std::pair<DimName, int>> inShape, outShape;
  for (DimName n : inNames) inShape.push_back({n, log2In(inner, n) + log2In(outer, n)});
  for (DimName n : outNames) outShape.push_back({n, log2Out(inner, n) + log2Out(outer, n)});
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(inShape, outShape));
  const LinearLayout& r = b.layout();

  // Where each factor's out-dims land in the result, and by how much outer's are shifted.
  SmallVector<int32_t, 8> innerOut, outerOut, outerShift;
  for (int o = 0; o < inner.numOutDims(); ++o) innerOut.push_back(r.outDimIndex(inner.outDimName(o)));
  for (int o = 0; o < outer.numOutDims(); ++o) {
    outerOut.push_back(r.outDimIndex(outer.outDimName(o)));
    outerShift.push_back(log2Out(inner, outer.outDimName(o)));
  }
  for (int d = 0; d < r.numInDims(); ++d) {
    int g = r.inDimFirstBasis(d);
    int di = inner.inDimIndex(r.inDimName(d));
    if (di >= 0)
      for (int i = 0; i < inner.inDimSizeLog2(di); ++i, ++g)
        for (int o = 0; o < inner.numOutDims(); ++o) {
          const int k = innerOut[o];
          detail::xorBits(b.basis(g), r.outDimBitOffset(k), r.outDimSizeLog2(k),
                          inner.basis(di, i, o));
        }
    int dq = outer.inDimIndex(r.inDimName(d));
    if (dq >= 0)
      for (int i = 0; i < outer.inDimSizeLog2(dq); ++i, ++g)
        for (int o = 0; o < outer.numOutDims(); ++o) {
          const int k = outerOut[o];
          detail::xorBits(b.basis(g), r.outDimBitOffset(k), r.outDimSizeLog2(k),
                          outer.basis(dq, i, o) << outerShift[o]);
        }
  }
  return b.build();
}

} // namespace layout
