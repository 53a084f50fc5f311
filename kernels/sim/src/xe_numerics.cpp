// IEEE binary16 conversion from float (bit manipulation, so the result does not depend on the
// host's half-precision support); halfToFloat is inline in the header.
#include "layout/kernels/xe_numerics.h"

namespace layout::kernels {

uint16_t floatToHalf(float f) {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t absBits = u & 0x7fffffffu;
  if (absBits > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);  // NaN
  if (absBits >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u); // rounds to inf
  if (absBits >= 0x38800000u) {                                             // normal half
    const uint32_t rounded = absBits + 0xfffu + ((absBits >> 13) & 1u);
    return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
  }
  if (absBits < 0x33000000u) return sign; // below half the smallest subnormal: zero
  // Subnormal half: shift the significand (with its implicit bit) into place, round to even.
  const int exponent = static_cast<int>(absBits >> 23);
  const uint32_t significand = (absBits & 0x7fffffu) | 0x800000u;
  const int shift = 126 - exponent; // 14 .. 24
  uint32_t half = significand >> shift;
  const uint32_t rest = significand & ((1u << shift) - 1), halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

} // namespace layout::kernels
