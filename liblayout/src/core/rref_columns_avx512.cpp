// Gauss-Jordan elimination of up to 64 rows of 64 bits on the transposed matrix, held in eight
// AVX-512 registers. This file alone is compiled with -mavx512f -mavx512bw -mavx512vbmi
// -mavx512vbmi2 -mgfni -mbmi -mbmi2 and is only entered after detail::cpuHasAvx512Gf2() said yes,
// so it calls no standard-library function (an inline one instantiated here would carry AVX-512
// code that the linker may pick for other files too).
//
// Why columns: with one 64-bit word per column (bit i = row i), finding column c's pivot is one
// AND-NOT and one lowest-bit extraction, and the row operation "every row with bit c gets the pivot
// row" is, per column word, "if it has the pivot row's bit, XOR in the mask of those rows": one
// vptestmq and one masked XOR per register of eight columns. Columns already processed never
// change again (pivot columns are unit vectors; a non-pivot column is a combination of earlier
// pivot columns, which row operations preserve), so step c touches only registers c/8..7.
//
// The loop-carried chain is scalar: the next few columns are kept in general registers and
// updated there, so the vector work (and its extraction latency) runs ahead off the chain; the
// vector registers take the steps in groups, so the chain of updates through each register is
// shorter too. 64x64 dense: ~180 ns on Zen 4, against ~800 ns for the windowed scalar path.
#include "rref_columns_avx512.h"

#if defined(LAYOUT_RREF_COLUMNS_AVX512)
#include <cstdint>
#include <immintrin.h>
#include <utility>

// GCC 12 flags the intrinsics' own placeholder temporaries (_mm512_undefined_*).
#pragma GCC diagnostic ignored "-Wuninitialized"
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace layout::detail {

namespace {

// 64x64 bit transpose of a matrix held as 8 registers of 8 rows (qword q of register j = row
// 8j + q). Bytes: gather each 8x8 bit block into a qword (vpermb), transpose the block's bits
// (gf2p8affineqb with the data as the matrix operand), then move the blocks to their transposed
// places (an 8x8 qword transpose across registers) and restore byte order (vpermb).
__attribute__((always_inline)) inline void transpose64x64(__m512i r[8]) {
  // Qword b of the result holds byte b of the register's 8 rows, last row first: the byte
  // reversal makes gf2p8affineqb's "bit i of output byte = parity(matrix byte 7 - i & x)" a plain
  // transpose.
  alignas(64) static const unsigned char kGatherBlocks[64] = {
      56, 48, 40, 32, 24, 16, 8,  0,  57, 49, 41, 33, 25, 17, 9,  1,  58, 50, 42, 34, 26, 18,
      10, 2,  59, 51, 43, 35, 27, 19, 11, 3,  60, 52, 44, 36, 28, 20, 12, 4,  61, 53, 45, 37,
      29, 21, 13, 5,  62, 54, 46, 38, 30, 22, 14, 6,  63, 55, 47, 39, 31, 23, 15, 7};
  // Output qword t, byte j = input qword j, byte t: an 8x8 byte transpose.
  alignas(64) static const unsigned char kTransposeBytes[64] = {
      0,  8,  16, 24, 32, 40, 48, 56, 1,  9,  17, 25, 33, 41, 49, 57, 2,  10, 18, 26, 34, 42,
      50, 58, 3,  11, 19, 27, 35, 43, 51, 59, 4,  12, 20, 28, 36, 44, 52, 60, 5,  13, 21, 29,
      37, 45, 53, 61, 6,  14, 22, 30, 38, 46, 54, 62, 7,  15, 23, 31, 39, 47, 55, 63};
  const __m512i gather = _mm512_load_si512(kGatherBlocks);
  const __m512i unitBytes = _mm512_set1_epi64(0x8040201008040201LL);
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j)
    r[j] = _mm512_gf2p8affine_epi64_epi8(unitBytes, _mm512_permutexvar_epi8(gather, r[j]), 0);
  // Qword b of register j now holds block (j, b) transposed; swap register and qword indices one
  // index bit k at a time: registers a and a | k exchange the qwords whose index has bit k set
  // against those of the partner that have it clear.
  alignas(64) static const long long kSwapIdx[3][2][8] = {
      {{0, 8, 2, 10, 4, 12, 6, 14}, {1, 9, 3, 11, 5, 13, 7, 15}},
      {{0, 1, 8, 9, 4, 5, 12, 13}, {2, 3, 10, 11, 6, 7, 14, 15}},
      {{0, 1, 2, 3, 8, 9, 10, 11}, {4, 5, 6, 7, 12, 13, 14, 15}}};
#pragma GCC unroll 3
  for (int bitIdx = 0; bitIdx < 3; ++bitIdx) {
    const int k = 1 << bitIdx;
    const __m512i lo = _mm512_load_si512(kSwapIdx[bitIdx][0]);
    const __m512i hi = _mm512_load_si512(kSwapIdx[bitIdx][1]);
#pragma GCC unroll 8
    for (int a = 0; a < 8; ++a) {
      if (a & k) continue;
      const __m512i x = r[a], y = r[a | k];
      r[a] = _mm512_permutex2var_epi64(x, lo, y);
      r[a | k] = _mm512_permutex2var_epi64(x, hi, y);
    }
  }
  const __m512i bytes = _mm512_load_si512(kTransposeBytes);
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) r[j] = _mm512_permutexvar_epi8(bytes, r[j]);
}

// Steps per vector update, and columns kept ahead in general registers (enough to cover a vector
// update plus the extraction of a column). Measured on Zen 4: groups of 2 with 8 columns ahead
// beat single steps by 15%; groups of 4 or 8 lose (more live registers, longer scalar work).
constexpr int kGroup = 2;
constexpr int kLookahead = 8;

struct Elimination {
  __m512i col[8];                         // col[j] qword l: column 8j + l, bit i = row i
  uint64_t s[kLookahead];                 // s[i]: column c + i, up to date through step c - 1
  uint64_t used;                          // rows already chosen as pivots
  uint64_t bitMem[64], clearMem[64];      // per step: the masks of the vector update
  alignas(64) unsigned char pivotRow[64]; // pivotRow[c]: column c's pivot row, 64 when it has none
};

template <int J> __attribute__((always_inline)) inline uint64_t lane(const __m512i* v) {
  const __m128i pair = _mm512_extracti32x4_epi32(v[J / 8], (J % 8) / 2);
  return uint64_t(_mm_extract_epi64(pair, J % 2));
}

// The scalar half of the pivot step of `column`, whose word `col` is up to date through the
// previous step: the pivot row's bit (0 when the column has no pivot, which makes every update
// below a no-op) and the rows it clears.
__attribute__((always_inline)) inline uint64_t pivotOf(Elimination& e, int column, uint64_t col,
                                                       uint64_t& rowsToClear) {
  const uint64_t cand = col & ~e.used;
  uint64_t bit = cand & (0 - cand);
  // Keep the chain in general registers: GCC otherwise moves `used` into mask registers, and
  // every GPR <-> k move lengthens the loop-carried path.
  asm("" : "+r"(bit));
  rowsToClear = col ^ bit;
  e.used |= bit;
  asm("" : "+r"(e.used));
  e.pivotRow[column] = (unsigned char)_tzcnt_u64(bit); // tzcnt(0) = 64
  return bit;
}

// x ^= clear if x has the pivot row's bit: the row operation seen from one column.
__attribute__((always_inline)) inline uint64_t applyPivot(uint64_t x, uint64_t bit,
                                                          uint64_t clear) {
  return (x & bit) ? x ^ clear : x;
}

// Pivot steps C .. C + kGroup - 1. The scalar chain finds the pivots one by one; the vector
// registers then take the whole group at once, which divides the chain of dependent updates
// through each register by kGroup. The group's row operations are linear and change a column x
// only through its bits at the group's pivot rows, so they add to x the sum over steps k with
// x's bit at pivot row k set of y_k: step k's cleared rows carried through the later steps.
template <int C> __attribute__((always_inline)) inline void stepGroup(Elimination& e) {
  uint64_t bit[kGroup], clear[kGroup];
#pragma GCC unroll 8
  for (int k = 0; k < kGroup; ++k) {
    uint64_t x = e.s[k];
#pragma GCC unroll 8
    for (int i = 0; i < k; ++i) x = applyPivot(x, bit[i], clear[i]);
    bit[k] = pivotOf(e, C + k, x, clear[k]);
  }
  // y_k, and the broadcasts from memory: a load-port operation, where a broadcast from a general
  // register would take a vector ALU slot, the resource this loop runs short of.
#pragma GCC unroll 8
  for (int k = 0; k < kGroup; ++k) {
    uint64_t y = clear[k];
#pragma GCC unroll 8
    for (int i = k + 1; i < kGroup; ++i) y = applyPivot(y, bit[i], clear[i]);
    e.bitMem[C + k] = bit[k];
    e.clearMem[C + k] = y;
  }
  __m512i vBit[kGroup], vClear[kGroup];
#pragma GCC unroll 8
  for (int k = 0; k < kGroup; ++k) {
    asm("vpbroadcastq %1, %0" : "=v"(vBit[k]) : "m"(e.bitMem[C + k]));
    asm("vpbroadcastq %1, %0" : "=v"(vClear[k]) : "m"(e.clearMem[C + k]));
  }
#pragma GCC unroll 8
  for (int j = C / 8; j < 8; ++j) {
    // All tests on the column before any update; ternary logic 0x3C is a ^ b, merge-masked so
    // the register is updated in place.
    __mmask8 has[kGroup];
#pragma GCC unroll 8
    for (int k = 0; k < kGroup; ++k) has[k] = _mm512_test_epi64_mask(e.col[j], vBit[k]);
#pragma GCC unroll 8
    for (int k = 0; k < kGroup; ++k)
      e.col[j] = _mm512_mask_ternarylogic_epi64(e.col[j], has[k], vClear[k], vClear[k], 0x3C);
  }
#pragma GCC unroll 16
  for (int i = kGroup; i < kLookahead; ++i) {
#pragma GCC unroll 8
    for (int k = 0; k < kGroup; ++k) e.s[i] = applyPivot(e.s[i], bit[k], clear[k]);
  }
#pragma GCC unroll 16
  for (int i = kGroup; i < kLookahead; ++i) e.s[i - kGroup] = e.s[i];
  // The next columns as of now (the vector update applied the steps through C + kGroup - 1).
  [&]<int... I>(std::integer_sequence<int, I...>) {
    ((C + kLookahead + I < 64
          ? void(e.s[kLookahead - kGroup + I] = lane<(C + kLookahead + I) % 64>(e.col))
          : void()),
     ...);
  }
  (std::make_integer_sequence<int, kGroup>{});
}

template <int... C> __attribute__((always_inline)) inline void steps(Elimination& e) {
  (stepGroup<kGroup * C>(e), ...);
}

} // namespace

int rrefColumnsAvx512(uint64_t* rows, int numRows) {
  Elimination e;
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) {
    const int n = numRows - 8 * j; // rows of this register present in the input
    const __mmask8 present = n >= 8   ? __mmask8(0xFF)
                             : n <= 0 ? __mmask8(0)
                                      : __mmask8((1u << n) - 1);
    // Past the input the mask reads nothing; the pointer stays `rows` (null for an empty matrix:
    // offsetting it would be undefined even unread).
    e.col[j] = _mm512_maskz_loadu_epi64(present, n > 0 ? rows + 8 * j : rows);
  }
  transpose64x64(e.col);
  e.used = 0;
  [&]<int... I>(std::integer_sequence<int, I...>) {
    ((e.s[I] = lane<I>(e.col)), ...);
  }
  (std::make_integer_sequence<int, kLookahead>{});
  [&]<int... G>(std::integer_sequence<int, G...>) {
    steps<G...>(e);
  }
  (std::make_integer_sequence<int, 64 / kGroup>{});
  transpose64x64(e.col);
  alignas(64) uint64_t m[64];
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) _mm512_store_si512(m + 8 * j, e.col[j]);
  // Pivot rows in the order of their pivot columns: the pivot-row indices of the columns that
  // have one, packed (vpcompressb), pick the rows; zero rows follow.
  const __m512i pivotRows = _mm512_loadu_si512(e.pivotRow);
  const __mmask64 hasPivot = _mm512_cmpneq_epi8_mask(pivotRows, _mm512_set1_epi8(64));
  alignas(64) unsigned char order[64];
  _mm512_store_si512(order, _mm512_maskz_compress_epi8(hasPivot, pivotRows));
  const int rank = __builtin_popcountll(hasPivot);
  for (int i = 0; i < rank; ++i) rows[i] = m[order[i]];
  for (int i = rank; i < numRows; ++i) rows[i] = 0;
  return rank;
}

} // namespace layout::detail

#endif
