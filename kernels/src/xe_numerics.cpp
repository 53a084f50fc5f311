// IEEE binary16 conversions (bit manipulation, so the results do not depend on the host's
// half-precision support).
#include "kernels/xe_numerics.h"

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

float halfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0)
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
  // Zero or subnormal: mantissa * 2^-24, exact in float.
  const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
  return sign ? -magnitude : magnitude;
}

} // namespace layout::kernels
