// The layout matrix and the free input bits as dynamic bitsets (layout/core/bit_rows.h).
#include "layout/core/bit_rows.h"

#include "layout/core/gf2_matrix.h"
#include "layout/core/linear_layout.h"

namespace layout {

std::vector<BitRow> layoutMatrixRows(const LinearLayout& l) {
  const std::vector<uint64_t> packed = layoutMatrix(l);
  const size_t words = size_t(layoutMatrixWordsPerRow(l));
  const size_t columns = size_t(l.totalInDimSizeLog2());
  std::vector<BitRow> rows;
  rows.reserve(size_t(l.totalOutDimSizeLog2()));
  for (int r = 0; r < l.totalOutDimSizeLog2(); ++r) {
    const auto first = packed.begin() + std::ptrdiff_t(size_t(r) * words);
    BitRow row(first, first + std::ptrdiff_t(words)); // the row's words, bit c = column c
    row.resize(columns);
    rows.push_back(std::move(row));
  }
  return rows;
}

BitRow freeInputBits(const LinearLayout& l) {
  BitRow bits(size_t(l.totalInDimSizeLog2()));
  size_t at = 0;
  const auto masks = l.freeVariableMasks();
  for (int d = 0; d < l.numInDims(); ++d) {
    for (int b = 0; b < l.inDimSizeLog2(d); ++b)
      if ((masks[size_t(d)].second >> b) & 1) bits.set(at + size_t(b));
    at += size_t(l.inDimSizeLog2(d));
  }
  return bits;
}

} // namespace layout
