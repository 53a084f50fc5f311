#include "xor_select.h"

#include "rref_columns_avx512.h"

#include <bit>
#include <cstdlib>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LAYOUT_HAVE_AVX512_PATH 1
#endif

namespace layout::detail {

bool cpuHasAvx512() {
#ifdef LAYOUT_HAVE_AVX512_PATH
  // LAYOUT_NO_AVX512 forces the portable paths (the test suite runs once with it set).
  static const bool has = __builtin_cpu_supports("avx512f") && !std::getenv("LAYOUT_NO_AVX512");
  return has;
#else
  return false;
#endif
}

bool cpuHasAvx512Gf2() {
#if defined(LAYOUT_HAVE_AVX512_PATH) && defined(LAYOUT_RREF_COLUMNS_AVX512)
  static const bool has = cpuHasAvx512() && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vbmi") &&
                          __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("gfni") &&
                          __builtin_cpu_supports("bmi2");
  return has;
#else
  return false;
#endif
}

namespace {

// Two set bits per step: half the loop-carried steps of a plain set-bit walk.
uint64_t xorSelectScalar(const uint64_t* cols, uint64_t x) {
  uint64_t acc0 = 0, acc1 = 0;
  for (; x & (x - 1); x &= x - 1, x &= x - 1) {
    acc0 ^= cols[std::countr_zero(x)];
    acc1 ^= cols[std::countr_zero(x & (x - 1))];
  }
  if (x) acc0 ^= cols[std::countr_zero(x)];
  return acc0 ^ acc1;
}

#ifdef LAYOUT_HAVE_AVX512_PATH
#pragma GCC diagnostic push
// GCC 12 flags the intrinsics' own placeholder temporaries (_mm512_undefined_*).
#pragma GCC diagnostic ignored "-Wuninitialized"
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
// Eight columns per step, selected by a byte of the selector used directly as the lane mask: no
// data-dependent branches, so no mispredictions whatever the input.
__attribute__((target("avx512f"))) uint64_t xorSelectAvx512(const uint64_t* cols, int n,
                                                            uint64_t x) {
  __m512i acc = _mm512_setzero_si512();
  for (int i = 0; i < n; i += 8)
    acc = _mm512_xor_si512(acc, _mm512_maskz_loadu_epi64(__mmask8(x >> i), cols + i));
  __m256i half = _mm256_xor_si256(_mm512_castsi512_si256(acc), _mm512_extracti64x4_epi64(acc, 1));
  __m128i quarter = _mm_xor_si128(_mm256_castsi256_si128(half), _mm256_extracti128_si256(half, 1));
  return uint64_t(_mm_cvtsi128_si64(quarter)) ^ uint64_t(_mm_extract_epi64(quarter, 1));
}
#pragma GCC diagnostic pop
#endif

} // namespace

uint64_t xorSelect(const uint64_t* cols, int n, uint64_t selector) {
  selector &= n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
#ifdef LAYOUT_HAVE_AVX512_PATH
  if (cpuHasAvx512()) return xorSelectAvx512(cols, n, selector);
#endif
  return xorSelectScalar(cols, selector);
}

} // namespace layout::detail
