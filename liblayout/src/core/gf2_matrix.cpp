#include "layout/core/gf2_matrix.h"

#include "layout/core/linear_layout.h"

#include "bit_ops.h"
#include "rref_columns_avx512.h"
#include "xor_select.h"

#include <algorithm>
#include <bit>

namespace layout {

namespace {

// rows[i] ^= lo[nibble 0 of the window] ^ hi[nibble 1] for every row: clears the window's pivot
// columns (and applies the matching pivot-row sums) in one pass.
void clearWindowScalar(uint64_t* rows, int numRows, int c0, const uint64_t* lo,
                       const uint64_t* hi) {
  for (int i = 0; i < numRows; ++i) {
    const uint64_t s = rows[i] >> c0;
    rows[i] ^= lo[s & 15] ^ hi[(s >> 4) & 15];
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LAYOUT_HAVE_AVX512_PATH 1
// The same with AVX-512: eight rows per step, each 16-entry table held in two registers and
// indexed by vpermt2q.
#pragma GCC diagnostic push
// GCC 12 flags the intrinsics' own placeholder temporaries (_mm512_undefined_*).
#pragma GCC diagnostic ignored "-Wuninitialized"
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
__attribute__((target("avx512f"))) void clearWindowAvx512(uint64_t* rows, int numRows, int c0,
                                                          const uint64_t* lo, const uint64_t* hi) {
  const __m512i lo0 = _mm512_loadu_si512(lo), lo1 = _mm512_loadu_si512(lo + 8);
  const __m512i hi0 = _mm512_loadu_si512(hi), hi1 = _mm512_loadu_si512(hi + 8);
  const __m512i shift = _mm512_set1_epi64(c0), shift4 = _mm512_set1_epi64(c0 + 4);
  const __m512i fifteen = _mm512_set1_epi64(15);
  for (int i = 0; i < numRows; i += 8) {
    const __mmask8 m = numRows - i >= 8 ? __mmask8(0xFF) : __mmask8((1u << (numRows - i)) - 1);
    __m512i v = _mm512_maskz_loadu_epi64(m, rows + i);
    __m512i l = _mm512_and_si512(_mm512_srlv_epi64(v, shift), fifteen);
    __m512i h = _mm512_and_si512(_mm512_srlv_epi64(v, shift4), fifteen);
    v = _mm512_xor_si512(v, _mm512_permutex2var_epi64(lo0, l, lo1));
    v = _mm512_xor_si512(v, _mm512_permutex2var_epi64(hi0, h, hi1));
    _mm512_mask_storeu_epi64(rows + i, m, v);
  }
}
#pragma GCC diagnostic pop
#endif

void clearWindow(uint64_t* rows, int numRows, int c0, const uint64_t* lo, const uint64_t* hi) {
#ifdef LAYOUT_HAVE_AVX512_PATH
  if (detail::cpuHasAvx512()) return clearWindowAvx512(rows, numRows, c0, lo, hi);
#endif
  clearWindowScalar(rows, numRows, c0, lo, hi);
}

} // namespace

namespace {

// Sparse matrices (layout matrices: about one bit per row): insert each row into an echelon basis
// indexed by its lowest bit, then back-substitute from the highest pivot down. Work is
// proportional to the set bits met, not to rows x columns.
int rrefSparse64(uint64_t* rows, int numRows) {
  uint64_t byPivot[64];
  uint64_t pivots = 0;
  for (int i = 0; i < numRows; ++i) {
    uint64_t x = rows[i];
    // byPivot[b] has lowest bit b: XORing it clears b and can only set higher bits.
    for (uint64_t t = x & pivots; t; t = x & pivots) x ^= byPivot[std::countr_zero(t)];
    if (x) {
      byPivot[std::countr_zero(x)] = x;
      pivots |= x & (uint64_t{0} - x);
    }
  }
  for (uint64_t t = pivots; t; t &= ~(uint64_t{1} << (63 - std::countl_zero(t)))) {
    const int b = 63 - std::countl_zero(t);
    // Higher pivot rows are already fully reduced: each XOR clears exactly one pivot bit.
    for (uint64_t q = byPivot[b] & pivots & ~(uint64_t{1} << b); q; q &= q - 1)
      byPivot[b] ^= byPivot[std::countr_zero(q)];
  }
  int r = 0;
  for (uint64_t t = pivots; t; t &= t - 1) rows[r++] = byPivot[std::countr_zero(t)];
  for (int i = r; i < numRows; ++i) rows[i] = 0;
  return r;
}

} // namespace

// Up to 64 rows on a CPU with AVX-512 VBMI2 and GFNI: Gauss-Jordan on the transposed matrix in
// vector registers (rref_columns_avx512.cpp), about 4x faster than what follows on any density.
// Elsewhere, dense matrices: Gauss-Jordan in windows of 8 columns ("method of four Russians"): per
// window, find its pivot rows by insertion, reduce them against each other, then clear the window's
// pivot columns from every other row with two 16-entry tables of pivot-row sums, one lookup pair
// per row. A window costs one pass over the rows instead of one pass per column. Sparse matrices
// take rrefSparse64.
int rrefInPlace64(uint64_t* rows, int numRows) {
  if (numRows <= 64 && detail::cpuHasAvx512Gf2()) return detail::rrefColumnsAvx512(rows, numRows);
  int bits = 0;
  for (int i = 0; i < numRows; ++i) bits += std::popcount(rows[i]);
  if (bits <= 2 * numRows) return rrefSparse64(rows, numRows);
  int r = 0;
  for (int c0 = 0; c0 < 64 && r < numRows; c0 += 8) {
    uint64_t sel[8];
    int pivotBit[8], from[8], k = 0;
    // The window's pivot rows, kept fully reduced against each other: reducing a row is then one
    // independent XOR per pivot bit it has, with no chain through the row itself.
    for (int i = r; i < numRows && k < 8; ++i) {
      const uint64_t orig = rows[i];
      if (!((orig >> c0) & 0xFF)) continue; // nothing in the window: nothing to reduce either
      uint64_t acc = 0;
      for (int j = 0; j < k; ++j)
        acc ^= sel[j] & (uint64_t{0} - ((orig >> (c0 + pivotBit[j])) & 1));
      const uint64_t x = orig ^ acc;
      const uint64_t window = (x >> c0) & 0xFF;
      if (!window) continue;
      const int p = std::countr_zero(window);
      for (int j = 0; j < k; ++j) sel[j] ^= x & (uint64_t{0} - ((sel[j] >> (c0 + p)) & 1));
      pivotBit[k] = p;
      from[k] = i;
      sel[k++] = x;
    }
    if (k == 0) continue;
    uint64_t byBit[8] = {};
    for (int j = 0; j < k; ++j) byBit[pivotBit[j]] = sel[j];
    alignas(64) uint64_t lo[16], hi[16];
    lo[0] = hi[0] = 0;
    for (int p = 1; p < 16; ++p) {
      const int b = std::countr_zero(unsigned(p));
      lo[p] = lo[p & (p - 1)] ^ byBit[b];
      hi[p] = hi[p & (p - 1)] ^ byBit[b + 4];
    }
    // Rows [r, r + k) become the pivot rows: the other rows found there move into the slots the
    // pivot rows came from below r + k (the order of not-yet-pivot rows does not matter).
    int freed[8] = {}, nFreed = 0, displaced[8] = {}, nDisplaced = 0;
    for (int j = 0; j < k; ++j)
      if (from[j] >= r + k) freed[nFreed++] = from[j];
    for (int i = r; i < r + k; ++i)
      if (std::find(from, from + k, i) == from + k) displaced[nDisplaced++] = i;
    for (int t = 0; t < nFreed; ++t) rows[freed[t]] = rows[displaced[t]];
    clearWindow(rows, numRows, c0, lo, hi); // pivot rows clear themselves; rewritten below
    for (int b = 0, at = r; b < 8; ++b)
      if (byBit[b]) rows[at++] = byBit[b];
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
