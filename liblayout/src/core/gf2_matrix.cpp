#include "layout/core/gf2_matrix.h"

#include "layout/core/linear_layout.h"

#include "bit_ops.h"

#include <algorithm>
#include <bit>

#include "layout/core/small_vector.h"

namespace layout {

// Gauss-Jordan in windows of 8 columns ("method of four Russians"): per window, find its pivot
// rows by insertion, reduce them against each other, then clear the window's pivot columns from
// every other row with two 16-entry tables of pivot-row sums, one lookup pair per row. A window
// costs one pass over the rows instead of one pass per column.
int rrefInPlace64(uint64_t* rows, int numRows) {
  SmallVector<uint64_t, 64> rest;
  int r = 0;
  for (int c0 = 0; c0 < 64 && r < numRows; c0 += 8) {
    uint64_t sel[8];
    int pivotBit[8], k = 0;
    SmallVector<int32_t, 64> selectedRow;
    for (int i = r; i < numRows && k < 8; ++i) {
      uint64_t x = rows[i];
      for (int j = 0; j < k; ++j) x ^= sel[j] & (uint64_t{0} - ((x >> (c0 + pivotBit[j])) & 1));
      const uint64_t window = (x >> c0) & 0xFF;
      if (!window) continue;
      pivotBit[k] = std::countr_zero(window);
      sel[k++] = x;
      selectedRow.push_back(i);
    }
    if (k == 0) continue;
    // Back-substitute so that each pivot column is set in its own pivot row only.
    for (int j = k - 1; j >= 0; --j)
      for (int m = 0; m < j; ++m)
        sel[m] ^= sel[j] & (uint64_t{0} - ((sel[m] >> (c0 + pivotBit[j])) & 1));
    uint64_t byBit[8] = {};
    for (int j = 0; j < k; ++j) byBit[pivotBit[j]] = sel[j];
    uint64_t lo[16], hi[16];
    lo[0] = hi[0] = 0;
    for (int p = 1; p < 16; ++p) {
      const int b = std::countr_zero(unsigned(p));
      lo[p] = lo[p & (p - 1)] ^ byBit[b];
      hi[p] = hi[p & (p - 1)] ^ byBit[b + 4];
    }
    // New order: rows above r, the window's pivot rows by pivot column, then the other rows.
    rest.clear();
    for (int i = r, s = 0; i < numRows; ++i) {
      if (s < int(selectedRow.size()) && selectedRow[s] == i) {
        ++s;
        continue;
      }
      rest.push_back(rows[i]);
    }
    int at = r;
    for (int b = 0; b < 8; ++b)
      if (byBit[b]) rows[at++] = byBit[b];
    std::copy(rest.begin(), rest.end(), rows + at);
    auto clearWindow = [&](int i) {
      const uint64_t s = rows[i] >> c0;
      rows[i] ^= lo[s & 15] ^ hi[(s >> 4) & 15];
    };
    for (int i = 0; i < r; ++i) clearWindow(i);
    for (int i = r + k; i < numRows; ++i) clearWindow(i);
    r += k;
  }
  return r;
}

int rrefInPlace(uint64_t* rows, int numRows, int wordsPerRow) {
  if (wordsPerRow == 1) return rrefInPlace64(rows, numRows);
  const int w = wordsPerRow;
  auto row = [&](int i) { return rows + size_t(i) * w; };
  int r = 0;
  for (int c = 0; c < w * 64 && r < numRows; ++c) {
    int p = r;
    while (p < numRows && !detail::testBit(row(p), c)) ++p;
    if (p == numRows) continue;
    if (p != r) std::swap_ranges(row(p), row(p) + w, row(r));
    for (int i = 0; i < numRows; ++i)
      if (i != r && detail::testBit(row(i), c)) detail::xorInto(row(i), row(r), w);
    ++r;
  }
  return r;
}

int layoutMatrixWordsPerRow(const LinearLayout& l) {
  return detail::wordsFor(l.totalInDimSizeLog2());
}

std::vector<uint64_t> layoutMatrix(const LinearLayout& l) {
  const int rows = l.totalOutDimSizeLog2(), cols = l.totalInDimSizeLog2();
  const int w = layoutMatrixWordsPerRow(l);
  std::vector<uint64_t> m(size_t(rows) * w, 0);
  for (int c = 0; c < cols; ++c) {
    const uint64_t* basis = l.basisWords(c);
    for (int r = 0; r < rows; ++r)
      if (detail::testBit(basis, r)) detail::flipBit(m.data() + size_t(r) * w, c);
  }
  return m;
}

} // namespace layout
