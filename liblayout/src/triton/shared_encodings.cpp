// Shared-memory TritonGPU encodings: swizzled_shared and amd_rotating_shared.
#include "encoding_internal.h"

namespace layout::triton::detail {

// Columns (order[0]) are the identity; the basis of row r (a power of two) is
// (r, vec * phase(r) % numCols): the XOR swizzle col ^= vec * phase(row) as a linear map. With
// `rotating` (AMD), phase(r) = (r / perPhase % maxPhase) ^ (r / (perPhase * maxPhase) % maxPhase).
Expected<LinearLayout> swizzledSharedToLinearLayout(const AttrValue& attr,
                                                    std::span<const int64_t> shape, bool rotating) {
  LAYOUT_TRY_ASSIGN(vec, intParam(attr, "vec"));
  LAYOUT_TRY_ASSIGN(perPhase, intParam(attr, "perPhase"));
  LAYOUT_TRY_ASSIGN(maxPhase, intParam(attr, "maxPhase"));
  LAYOUT_TRY_ASSIGN(order, intList(attr, "order"));
  const int rank = int(order.size());
  if (auto err = checkRank(size_t(rank), shape); !err) return err.error();
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(attr, rank));
  // Triton builds the rotating tile on the whole shape (combineCtaCgaWithShape then broadcasts
  // what exceeds a CTA's part); the plain swizzle on the per-CTA shape.
  const std::vector<int64_t> perCta =
      rotating ? std::vector<int64_t>(shape.begin(), shape.end()) : shapePerCTA(cga, shape);
  const DimName offset = dims::offset();
  if (rank == 1) {
    LAYOUT_TRY_ASSIGN(id,
                      LinearLayout::identity1D(uint64_t(perCta[0]), offset, dims::standardOut(0)));
    return combineCtaCgaWithShape(id, cga, shape);
  }
  const int colDim = int(order[0]), rowDim = int(order[1]);
  const int64_t numCols = perCta[colDim], numRows = perCta[rowDim];
  InDimBases bases{offset, {}};
  for (int64_t col = 1; col < numCols; col *= 2) bases.bases.push_back({0, uint64_t(col)});
  for (int64_t row = 1; row < numRows; row *= 2) {
    int64_t phase = (row / perPhase) % maxPhase;
    if (rotating) phase ^= (row / perPhase / maxPhase) % maxPhase;
    // Unsigned: vec * phase can pass 2^63 (vec = 2^62); modulo the power of two numCols the
    // wrapped product is the same.
    bases.bases.push_back({uint64_t(row), (uint64_t(vec) * uint64_t(phase)) % uint64_t(numCols)});
  }
  LAYOUT_TRY_ASSIGN(cta, LinearLayout::createSurjective(
                             {bases}, {dims::standardOut(rowDim), dims::standardOut(colDim)}));
  LinearLayout ret = std::move(cta);
  for (int i = 2; i < rank; ++i) {
    LAYOUT_TRY_ASSIGN(id, LinearLayout::identity1D(uint64_t(perCta[order[i]]), offset,
                                                   dims::standardOut(int(order[i]))));
    LAYOUT_TRY_ASSIGN(next, product(ret, id));
    ret = std::move(next);
  }
  return combineCtaCgaWithShape(ret, cga, shape);
}

} // namespace layout::triton::detail
