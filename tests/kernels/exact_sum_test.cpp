// ExactSum (kernels/exact_sum.h) against an independent exact reference: Boost's cpp_rational
// sums the same values as fractions, and the correctly rounded double of the fraction is found by
// comparing with the neighbouring doubles (nextafter), not by ExactSum's bin arithmetic.
#include "layout/kernels/exact_sum.h"

#include <boost/multiprecision/cpp_int.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace layout::kernels {
namespace {

using boost::multiprecision::cpp_rational;

cpp_rational exactly(double x) {
  int e = 0;
  const double m = std::frexp(x, &e);
  cpp_rational r = static_cast<int64_t>(std::ldexp(m, 53));
  const int shift = e - 53;
  boost::multiprecision::cpp_int p = 1;
  p <<= (shift < 0 ? -shift : shift);
  if (shift < 0) return cpp_rational(r / p);
  return cpp_rational(r * p);
}

// The double nearest to q (ties to even), by exact integer division: |q| = n / d scaled by 2^-e
// so that the quotient has 53 bits, the remainder deciding the rounding.
double nearest(const cpp_rational& q) {
  using boost::multiprecision::cpp_int;
  if (q == 0) return 0.0;
  const bool negative = q < 0;
  cpp_int n = abs(numerator(q)), d = denominator(q);
  int e = static_cast<int>(boost::multiprecision::msb(n)) -
          static_cast<int>(boost::multiprecision::msb(d)) - 52;
  // n / (d 2^e) in [2^52, 2^53).
  for (;;) {
    cpp_int num = e < 0 ? cpp_int(n << -e) : n, den = e > 0 ? cpp_int(d << e) : d;
    cpp_int m = num / den, r = num % den;
    if (m >= (cpp_int(1) << 53)) {
      ++e;
      continue;
    }
    if (m < (cpp_int(1) << 52)) {
      --e;
      continue;
    }
    if (2 * r > den || (2 * r == den && (m & 1) != 0)) m += 1;
    const double v = std::ldexp(static_cast<double>(m.convert_to<uint64_t>()), e);
    return negative ? -v : v;
  }
}

TEST(ExactSum, CancellationThatFloat64Loses) {
  ExactSum s(-60, 2);
  s.add(1.0);
  s.add(0x1p-60);
  s.add(-1.0);
  EXPECT_EQ(s.rounded(), 0x1p-60);
  double naive = 1.0;
  naive += 0x1p-60;
  naive -= 1.0;
  EXPECT_EQ(naive, 0.0);
  s.clear();
  EXPECT_EQ(s.rounded(), 0.0);
}

// Ties round to even: 1 + 2^-53 is halfway between 1 and 1 + 2^-52.
TEST(ExactSum, TiesToEven) {
  ExactSum s(-60, 2);
  s.add(1.0);
  s.add(0x1p-53);
  EXPECT_EQ(s.rounded(), 1.0);
  s.add(0x1p-60); // just above the tie
  EXPECT_EQ(s.rounded(), 1.0 + 0x1p-52);
  ExactSum t(-60, 2);
  t.add(1.0 + 0x1p-52);
  t.add(0x1p-53); // tie between 1 + 2^-52 (odd) and 1 + 2^-51 (even)
  EXPECT_EQ(t.rounded(), 1.0 + 0x1p-51);
  ExactSum n(-60, 2);
  n.add(-1.0);
  n.add(-0x1p-53);
  EXPECT_EQ(n.rounded(), -1.0);
}

// Products of bf16-like values over a wide exponent range, against cpp_rational.
TEST(ExactSum, RandomProductsAgainstRationals) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> mant(-255, 255), expo(-60, 0), count(1, 300);
  for (int trial = 0; trial < 200; ++trial) {
    ExactSum s(-2 * 68, 2);
    cpp_rational q = 0;
    const int n = count(rng);
    for (int i = 0; i < n; ++i) {
      const double a = std::ldexp(mant(rng), expo(rng) - 8);
      const double b = std::ldexp(mant(rng), expo(rng) - 8);
      const double p = a * b; // exact: 16 significant bits
      s.add(p);
      q += exactly(p);
    }
    EXPECT_EQ(s.rounded(), nearest(q)) << "trial " << trial;
  }
}

// Full 53-bit significands (the 128-bit bins) mixed with short ones (the int64 bins).
TEST(ExactSum, WideSignificandsAgainstRationals) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int> expo(-40, 0), count(1, 200);
  for (int trial = 0; trial < 100; ++trial) {
    ExactSum s(-40 - 53, 2);
    cpp_rational q = 0;
    for (int i = count(rng); i-- > 0;) {
      double x = i % 2 ? std::ldexp(double(rng() >> 11), expo(rng) - 53)
                       : std::ldexp(double(int(rng() % 255) - 127), expo(rng) - 8);
      if (rng() % 2) x = -x;
      s.add(x);
      q += exactly(x);
    }
    EXPECT_EQ(s.rounded(), nearest(q)) << "trial " << trial;
  }
}

// More adds than the int64 bins take before they are flushed into the 128-bit ones.
TEST(ExactSum, ManyAddsFlushExactly) {
  ExactSum s(-40, 2);
  const uint64_t n = (uint64_t{1} << 24) + 5;
  const double x = 0x1.fffffcp-8; // (2^23 - 1) 2^-30: 23 significant bits, the int64 bins
  for (uint64_t i = 0; i < n; ++i) s.add(x);
  // n x = (2^24 + 5)(2^23 - 1) 2^-30, 47 significant bits: exactly a double.
  EXPECT_EQ(s.rounded(), std::ldexp(double(n) * double((1 << 23) - 1), -30));
}

} // namespace
} // namespace layout::kernels
