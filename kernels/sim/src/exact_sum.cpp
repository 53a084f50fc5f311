// The exact sum of products (exact_sum.h).
#include "layout/kernels/exact_sum.h"

#include <boost/multiprecision/cpp_int.hpp>

#include <bit>
#include <cassert>
#include <cmath>

namespace layout::kernels {

using boost::multiprecision::cpp_int;

namespace {

// Bin b holds multiples of 2^(minExponent + 16 b). A significand of at most 23 bits (every
// product of two fp16 / bf16 / tf32 values: 22) shifted by up to 15 bits is below 2^38, so 2^24
// of them fit in an int64 bin; wider significands go to the 128-bit bins, and the int64 bins are
// flushed into those every 2^24 adds.
constexpr int kBinBits = 16;
constexpr int kFastBits = 23;
constexpr uint64_t kFlushEvery = uint64_t{1} << 24;

// x = mantissa * 2^exponent with an odd (or zero) 53-bit integer mantissa.
void decompose(double x, int64_t& mantissa, int& exponent) {
  int e = 0;
  const double m = std::frexp(x, &e); // x = m * 2^e, 0.5 <= |m| < 1
  mantissa = static_cast<int64_t>(std::ldexp(m, 53));
  exponent = e - 53;
  if (mantissa == 0) return;
  const int zeros = __builtin_ctzll(static_cast<uint64_t>(mantissa < 0 ? -mantissa : mantissa));
  mantissa >>= zeros; // arithmetic shift of an exact multiple of 2^zeros
  exponent += zeros;
}

} // namespace

ExactSum::ExactSum(int minExponent, int maxExponent)
    : minExponent_(minExponent),
      fast_(static_cast<size_t>((maxExponent - minExponent + 53) / kBinBits + 2), 0),
      bins_(fast_.size(), 0) {}

void ExactSum::clear() {
  std::fill(fast_.begin(), fast_.end(), 0);
  std::fill(bins_.begin(), bins_.end(), 0);
  adds_ = 0;
}

void ExactSum::flush() {
  for (size_t b = 0; b < fast_.size(); ++b) {
    bins_[b] += fast_[b];
    fast_[b] = 0;
  }
  adds_ = 0;
}

void ExactSum::add(double x) {
  // The binary64 fields directly (frexp / ldexp cost more than the add): x = +-m 2^e with the
  // 53-bit significand m. Subnormals have no hidden bit and the exponent of the smallest normal.
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  const int field = static_cast<int>((bits >> 52) & 0x7ff);
  if ((bits << 1) == 0) return; // +-0
  uint64_t m = bits & ((uint64_t{1} << 52) - 1);
  if (field != 0) m |= uint64_t{1} << 52;
  int e = (field == 0 ? 1 : field) - 1075;
  // Trailing zeros off (the bits below 2^minExponent are zero: the caller's promise).
  const int zeros = std::countr_zero(m);
  m >>= zeros;
  e += zeros;
  assert(e >= minExponent_ && "ExactSum: a value below 2^minExponent");
  const int offset = e - minExponent_;
  const size_t bin = static_cast<size_t>(offset / kBinBits);
  assert(bin < bins_.size() && "ExactSum: a value above 2^maxExponent");
  const bool negative = (bits >> 63) != 0;
  if (m < (uint64_t{1} << kFastBits)) {
    const int64_t v = static_cast<int64_t>(m << (offset % kBinBits));
    fast_[bin] += negative ? -v : v;
    if (++adds_ == kFlushEvery) flush();
    return;
  }
  const __int128 v = static_cast<__int128>(m) << (offset % kBinBits);
  bins_[bin] += negative ? -v : v;
}

double ExactSum::rounded() const {
  cpp_int total = 0;
  for (size_t b = bins_.size(); b-- > 0;) {
    total <<= kBinBits;
    // Both tiers; their sum fits in 128 bits (the int64 tier is flushed every 2^24 adds).
    const __int128 v = bins_[b] + fast_[b];
    const bool negative = v < 0;
    const unsigned __int128 magnitude =
        negative ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
    cpp_int part = static_cast<uint64_t>(magnitude >> 64);
    part <<= 64;
    part += static_cast<uint64_t>(magnitude);
    total += negative ? cpp_int(-part) : part;
  }
  if (total == 0) return 0.0;
  // Round |total| * 2^minExponent to 53 bits, to nearest, ties to even.
  const bool negative = total < 0;
  cpp_int magnitude = negative ? cpp_int(-total) : total;
  const int bits = static_cast<int>(boost::multiprecision::msb(magnitude)) + 1;
  int exponent = minExponent_;
  if (bits > 53) {
    const int drop = bits - 53;
    const cpp_int rest = magnitude & ((cpp_int(1) << drop) - 1);
    const cpp_int half = cpp_int(1) << (drop - 1);
    magnitude >>= drop;
    exponent += drop;
    if (rest > half || (rest == half && (magnitude & 1) != 0)) magnitude += 1;
  }
  const double value = std::ldexp(static_cast<double>(magnitude.convert_to<uint64_t>()), exponent);
  return negative ? -value : value;
}

int ExactSum::lowestBitExponent(double x) {
  int64_t mantissa = 0;
  int exponent = 0;
  decompose(x, mantissa, exponent);
  return exponent;
}

} // namespace layout::kernels
