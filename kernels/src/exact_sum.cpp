// The exact sum of products (exact_sum.h).
#include "kernels/exact_sum.h"

#include <boost/multiprecision/cpp_int.hpp>

#include <cassert>
#include <cmath>

namespace layout::kernels {

using boost::multiprecision::cpp_int;

namespace {

constexpr int kBinBits = 8;

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
      bins_(static_cast<size_t>((maxExponent - minExponent + 53) / kBinBits + 2), 0) {}

void ExactSum::clear() {
  std::fill(bins_.begin(), bins_.end(), 0);
}

void ExactSum::add(double x) {
  if (x == 0) return;
  int64_t mantissa = 0;
  int exponent = 0;
  decompose(x, mantissa, exponent);
  const int offset = exponent - minExponent_;
  assert(offset >= 0 && "ExactSum: a value below 2^minExponent");
  const size_t bin = static_cast<size_t>(offset / kBinBits);
  assert(bin < bins_.size() && "ExactSum: a value above 2^maxExponent");
  // At most 53 + 7 bits per add: 2^60 adds fit in a 128-bit bin.
  bins_[bin] += static_cast<__int128>(mantissa) << (offset % kBinBits);
}

double ExactSum::rounded() const {
  cpp_int total = 0;
  for (size_t b = bins_.size(); b-- > 0;) {
    total <<= kBinBits;
    const __int128 v = bins_[b];
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
