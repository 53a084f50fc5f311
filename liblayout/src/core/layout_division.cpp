// divideLeft / divideRight: factor a layout as a product with a known factor.
#include "layout/core/linear_layout.h"

#include "layout_builder.h"

namespace layout {
namespace {

int log2InOr0(const LinearLayout& l, DimName n) {
  int d = l.inDimIndex(n);
  return d < 0 ? 0 : l.inDimSizeLog2(d);
}
int log2OutOr0(const LinearLayout& l, DimName n) {
  int o = l.outDimIndex(n);
  return o < 0 ? 0 : l.outDimSizeLog2(o);
}

// B's dims must all be dims of A, each no larger. Then C has A's dims with the sizes divided.
bool quotientShape(const LinearLayout& A, const LinearLayout& B, DimShape& ins, DimShape& outs) {
  for (int d = 0; d < B.numInDims(); ++d) {
    int a = A.inDimIndex(B.inDimName(d));
    if (a < 0 || A.inDimSizeLog2(a) < B.inDimSizeLog2(d)) return false;
  }
  for (int o = 0; o < B.numOutDims(); ++o) {
    int a = A.outDimIndex(B.outDimName(o));
    if (a < 0 || A.outDimSizeLog2(a) < B.outDimSizeLog2(o)) return false;
  }
  for (int d = 0; d < A.numInDims(); ++d)
    ins.push_back({A.inDimName(d), A.inDimSizeLog2(d) - log2InOr0(B, A.inDimName(d))});
  for (int o = 0; o < A.numOutDims(); ++o)
    outs.push_back({A.outDimName(o), A.outDimSizeLog2(o) - log2OutOr0(B, A.outDimName(o))});
  return true;
}

// B's component along A's out-dim `o` (0 where B lacks that out-dim).
uint64_t componentOr0(const LinearLayout& B, int bIn, int i, DimName out) {
  int o = B.outDimIndex(out);
  return o < 0 ? 0 : B.basis(bIn, i, o);
}

// C when `candidate` (B * C or C * B) rebuilds A exactly; otherwise no quotient.
std::optional<LinearLayout> keepIfRebuilds(LinearLayout C, const Expected<LinearLayout>& candidate,
                                           const LinearLayout& A) {
  if (!candidate || !(*candidate == A)) return std::nullopt;
  return C;
}

} // namespace

Expected<std::optional<LinearLayout>> divideLeft(const LinearLayout& A, const LinearLayout& B) {
  DimShape ins, outs;
  if (!quotientShape(A, B, ins, outs)) return std::optional<LinearLayout>();
  LAYOUT_TRY_ASSIGN(c, LayoutBuilder::make(ins, outs));
  int g = 0;
  for (int d = 0; d < A.numInDims(); ++d) {
    int bIn = B.inDimIndex(A.inDimName(d));
    int nB = log2InOr0(B, A.inDimName(d));
    // A's first bases along d are B's; the rest, with B's out bits cleared, are C's.
    for (int i = 0; i < nB; ++i)
      for (int o = 0; o < A.numOutDims(); ++o)
        if (A.basis(d, i, o) != componentOr0(B, bIn, i, A.outDimName(o)))
          return std::optional<LinearLayout>();
    for (int i = nB; i < A.inDimSizeLog2(d); ++i, ++g)
      for (int o = 0; o < A.numOutDims(); ++o) {
        int shift = log2OutOr0(B, A.outDimName(o));
        uint64_t a = A.basis(d, i, o);
        if (a & ((uint64_t{1} << shift) - 1)) return std::optional<LinearLayout>();
        c.setComponent(g, o, a >> shift);
      }
  }
  LinearLayout C = c.build();
  return keepIfRebuilds(C, product(B, C), A);
}

Expected<std::optional<LinearLayout>> divideRight(const LinearLayout& A, const LinearLayout& B) {
  DimShape ins, outs;
  if (!quotientShape(A, B, ins, outs)) return std::optional<LinearLayout>();
  LAYOUT_TRY_ASSIGN(c, LayoutBuilder::make(ins, outs));
  int g = 0;
  for (int d = 0; d < A.numInDims(); ++d) {
    int bIn = B.inDimIndex(A.inDimName(d));
    int nC = ins[d].second;
    // A's first bases along d are C's (within C's out sizes); the rest are B's shifted past them.
    for (int i = 0; i < nC; ++i, ++g)
      for (int o = 0; o < A.numOutDims(); ++o) {
        uint64_t a = A.basis(d, i, o);
        if (a >> outs[o].second) return std::optional<LinearLayout>();
        c.setComponent(g, o, a);
      }
    for (int i = nC; i < A.inDimSizeLog2(d); ++i)
      for (int o = 0; o < A.numOutDims(); ++o)
        if (A.basis(d, i, o) != componentOr0(B, bIn, i - nC, A.outDimName(o)) << outs[o].second)
          return std::optional<LinearLayout>();
  }
  LinearLayout C = c.build();
  return keepIfRebuilds(C, product(C, B), A);
}

} // namespace layout
