// Triton's operator*: the direct sum ("tiling") of two layouts.
#include "layout/core/linear_layout.h"

#include "layout_builder.h"

#include <algorithm>

namespace layout {
namespace {

using NameList = SmallVector<DimName, 8>;

bool contains(const NameList& v, DimName n) {
  return std::find(v.begin(), v.end(), n) != v.end();
}

NameList inNames(const LinearLayout& l) {
  NameList v;
  for (int i = 0; i < l.numInDims(); ++i) v.push_back(l.inDimName(i));
  return v;
}

NameList outNames(const LinearLayout& l) {
  NameList v;
  for (int i = 0; i < l.numOutDims(); ++i) v.push_back(l.outDimName(i));
  return v;
}

// Triton's supremum: the order-preserving union of two dim lists. Dims found in only one list
// come as early as that list allows (the first list's first); shared dims must appear in the
// same relative order.
Expected<NameList> supremum(const NameList& x, const NameList& y, const char* what) {
  NameList sharedX, sharedY;
  for (DimName n : x)
    if (contains(y, n)) sharedX.push_back(n);
  for (DimName n : y)
    if (contains(x, n)) sharedY.push_back(n);
  if (!(sharedX == sharedY)) {
    std::string a, b;
    for (DimName n : sharedX) a += (a.empty() ? "" : ", ") + quoted(n);
    for (DimName n : sharedY) b += (b.empty() ? "" : ", ") + quoted(n);
    return makeError(std::string("product: the shared ") + what +
                     "-dims appear in inconsistent orders: [" + a + "] in the inner layout, [" + b +
                     "] in the outer layout");
  }
  NameList result;
  size_t i = 0, j = 0;
  while (i < x.size() || j < y.size()) {
    if (i < x.size() && !contains(y, x[i])) {
      result.push_back(x[i++]);
    } else if (j < y.size() && !contains(x, y[j])) {
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
  // The empty layout is the identity of the product (chains of products start from it).
  if (inner.numInDims() == 0 && inner.numOutDims() == 0) return outer;
  if (outer.numInDims() == 0 && outer.numOutDims() == 0) return inner;
  LAYOUT_TRY_ASSIGN(ins, supremum(inNames(inner), inNames(outer), "in"));
  LAYOUT_TRY_ASSIGN(outs, supremum(outNames(inner), outNames(outer), "out"));
  auto log2In = [](const LinearLayout& l, DimName n) {
    int d = l.inDimIndex(n);
    return d < 0 ? 0 : l.inDimSizeLog2(d);
  };
  auto log2Out = [](const LinearLayout& l, DimName n) {
    int o = l.outDimIndex(n);
    return o < 0 ? 0 : l.outDimSizeLog2(o);
  };
  DimShape inShape, outShape;
  for (DimName n : ins) inShape.push_back({n, log2In(inner, n) + log2In(outer, n)});
  for (DimName n : outs) outShape.push_back({n, log2Out(inner, n) + log2Out(outer, n)});
  LAYOUT_TRY_ASSIGN(
      b, LayoutBuilder::make({inShape.data(), inShape.size()}, {outShape.data(), outShape.size()}));
  const LinearLayout& r = b.layout();

  // Each factor's out-dims: where they land in the result, and outer's shift past inner's size.
  struct Field {
    int fromOffset, len, toOffset;
  };
  SmallVector<Field, 8> innerFields, outerFields;
  for (int o = 0; o < inner.numOutDims(); ++o) {
    int k = r.outDimIndex(inner.outDimName(o));
    innerFields.push_back(
        {inner.outDimBitOffset(o), inner.outDimSizeLog2(o), r.outDimBitOffset(k)});
  }
  for (int o = 0; o < outer.numOutDims(); ++o) {
    int k = r.outDimIndex(outer.outDimName(o));
    outerFields.push_back({outer.outDimBitOffset(o), outer.outDimSizeLog2(o),
                           r.outDimBitOffset(k) + log2Out(inner, outer.outDimName(o))});
  }
  // With single-word bases on all sides, moving a field is a shift and a mask.
  const bool narrow =
      inner.wordsPerBasis() == 1 && outer.wordsPerBasis() == 1 && r.wordsPerBasis() == 1;
  auto copyBasis = [narrow](const uint64_t* from, uint64_t* to,
                            const SmallVector<Field, 8>& fields) {
    if (narrow) {
      uint64_t word = 0;
      for (const Field& f : fields)
        word |= ((from[0] >> (f.fromOffset & 63)) & ((uint64_t{1} << f.len) - 1))
                << (f.toOffset & 63);
      to[0] = word;
      return;
    }
    for (const Field& f : fields)
      detail::xorBits(to, f.toOffset, f.len, detail::getBits(from, f.fromOffset, f.len));
  };
  for (int d = 0; d < r.numInDims(); ++d) {
    int g = r.inDimFirstBasis(d);
    if (int di = inner.inDimIndex(r.inDimName(d)); di >= 0)
      for (int i = 0; i < inner.inDimSizeLog2(di); ++i, ++g)
        copyBasis(inner.basisWords(inner.inDimFirstBasis(di) + i), b.basis(g), innerFields);
    if (int dq = outer.inDimIndex(r.inDimName(d)); dq >= 0)
      for (int i = 0; i < outer.inDimSizeLog2(dq); ++i, ++g)
        copyBasis(outer.basisWords(outer.inDimFirstBasis(dq) + i), b.basis(g), outerFields);
  }
  return b.build();
}

} // namespace layout
