// Number formats of the Xe DPAS inputs: IEEE half, bfloat16 and TF32 to and from float.
//
//   uint16_t h = layout::kernels::floatToHalf(1.5f);     // 0x3e00
//   float f = layout::kernels::halfToFloat(h);           // 1.5
//   float t = layout::kernels::truncateToTf32(0.1f);     // the 10-bit-mantissa value DPAS uses
#pragma once

#include <bit>
#include <cstdint>

namespace layout::kernels {

// Round to nearest even; NaN stays NaN, overflow gives infinity.
uint16_t floatToHalf(float f);
// Exact (inline: the simulator decodes every f16 DPAS operand with it).
inline float halfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0)
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
  // Zero or subnormal: mantissa * 2^-24, exact in float.
  const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
  return sign ? -magnitude : magnitude;
}

inline uint16_t floatToBf16(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40); // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u); // round to nearest even
  return static_cast<uint16_t>(u >> 16);
}
inline float bf16ToFloat(uint16_t h) {
  return std::bit_cast<float>(uint32_t{h} << 16);
}

// DPAS reads only the top 10 mantissa bits of a TF32 operand's fp32 bit pattern
// (docs/reference/intel-xe.md §3.3); the simulator drops the other 13.
inline float truncateToTf32(float f) {
  return std::bit_cast<float>(std::bit_cast<uint32_t>(f) & 0xffffe000u);
}

} // namespace layout::kernels
