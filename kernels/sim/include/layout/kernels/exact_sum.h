// The exact sum of many doubles (such as products of two fp16 / bf16 / tf32 values, each exact in
// binary64), and its correctly rounded double: the reference of the GEMM verification, so the
// tolerance is checked against the exact product sum, not against a float64 sum that rounds too.
//
//   layout::kernels::ExactSum s(/*minExponent=*/-60, /*maxExponent=*/2);
//   s.add(1.0); s.add(0x1p-60); s.add(-1.0);
//   s.rounded();   // 0x1p-60 (a float64 sum gives 0)
//
// Why by hand: the hot loop adds every product of an M x N x K GEMM. Each product goes into a
// bin per 16 bits of exponent (a Kulisch-style accumulator: an int64 bin for significands of up to
// 23 bits, the products of the GEMM input types, a 128-bit bin for wider ones; a few cycles per
// add, exact for up to 2^60 terms); Boost.Multiprecision (cpp_int) combines the bins and rounds
// once per element, where arbitrary width is needed.
#pragma once

#include <cstdint>
#include <vector>

namespace layout::kernels {

class ExactSum {
public:
  // Every added value must be an integer multiple of 2^minExponent and below 2^maxExponent in
  // magnitude (the caller knows both from its inputs).
  ExactSum(int minExponent, int maxExponent);

  void clear();
  // Adds x (x = 0 is allowed). Exact for values with at most 53 significant bits whose lowest
  // set bit is at or above 2^minExponent.
  void add(double x);
  // The sum rounded to the nearest double (ties to even).
  double rounded() const;

  // 2^e of the lowest set bit of x (x != 0), for callers that compute minExponent.
  static int lowestBitExponent(double x);

private:
  void flush(); // the int64 bins into the 128-bit ones

  int minExponent_;
  // Bin b holds integer multiples of 2^(minExponent + 16 b).
  std::vector<int64_t> fast_;
  std::vector<__int128> bins_;
  uint64_t adds_ = 0; // to the int64 bins since the last flush
};

} // namespace layout::kernels
