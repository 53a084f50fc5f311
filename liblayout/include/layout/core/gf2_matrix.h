/// \file
/// Dense GF(2) matrices and Gauss-Jordan elimination with the pivot of each row at its lowest set
/// bit, the canonical reduced row-echelon form that Triton's f2reduce produces.
///
/// \code
///   std::vector<uint64_t> rows = layout::layoutMatrix(l);   // rows = out bits, cols = in bits
///   const int words = layout::layoutMatrixWordsPerRow(l);
///   int rank = layout::rrefInPlace(rows.data(), int(rows.size()) / words, words);
/// \endcode
#pragma once

#include <cstdint>
#include <vector>

namespace layout {

class LinearLayout;

/// Reduces `numRows` rows of `wordsPerRow` words (column c = bit c % 64 of word c / 64) to reduced
/// row-echelon form: each nonzero row's pivot is its lowest set column, pivots increase down the
/// rows, every pivot column is zero in all other rows, and zero rows come last. Returns the rank.
int rrefInPlace(uint64_t* rows, int numRows, int wordsPerRow);

/// Single-word rows (at most 64 columns): the fast path.
int rrefInPlace64(uint64_t* rows, int numRows);

/// Words per row of layoutMatrix(l): ceil(total in bits / 64), at least 1.
int layoutMatrixWordsPerRow(const LinearLayout& l);

/// Triton's getMatrix without its 64-bit limit: one row per output bit (out-dim by out-dim, LSB
/// first), one column per input bit (in-dim by in-dim, LSB first), rows of
/// layoutMatrixWordsPerRow(l) words.
std::vector<uint64_t> layoutMatrix(const LinearLayout& l);

} // namespace layout
