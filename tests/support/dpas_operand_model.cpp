// Independent DPAS SG16 operand-distribution and numerics model; see dpas_operand_model.h.
#include "support/dpas_operand_model.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace layout::testing {

namespace {

constexpr int kN = kDpasSubgroupSize;

void checkM(int M) {
  if (M != 1 && M != 2 && M != 4 && M != 8)
    throw std::invalid_argument("DPAS model: M must be 1, 2, 4 or 8, got " + std::to_string(M));
}

void checkSize(const char* what, const std::vector<uint32_t>& v, std::size_t expected) {
  if (v.size() != expected)
    throw std::invalid_argument(std::string("DPAS model: ") + what + " has " +
                                std::to_string(v.size()) + " elements, expected " +
                                std::to_string(expected));
}

uint64_t doubleBits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

// fp32 RNE of the exact value of x + y (x, y doubles whose exact sum is finite in double range).
float addRoundToFloat(double x, double y) {
  double s = x + y;
  if (!std::isfinite(s)) return static_cast<float>(s);
  // Knuth TwoSum: e is the exact rounding error, s + e == x + y exactly.
  double bv = s - x;
  double av = s - bv;
  double e = (x - av) + (y - bv);
  // Round to odd at 53 bits: if the sum was inexact and s is even, step to the neighbour on the
  // side of the exact value (that neighbour is odd). Round-to-odd to p >= 24 + 2 bits followed by
  // RNE to 24 bits equals a direct RNE of the exact value.
  if (e != 0.0 && (doubleBits(s) & 1u) == 0) {
    s = std::nextafter(s, e > 0 ? std::numeric_limits<double>::infinity()
                                : -std::numeric_limits<double>::infinity());
  }
  return static_cast<float>(s); // RNE (default rounding mode)
}

double elementValue(DpasModelType t, uint32_t bits) {
  switch (t) {
  case DpasModelType::F16:
    return static_cast<double>(halfBitsToFloat(static_cast<uint16_t>(bits & 0xFFFFu)));
  case DpasModelType::BF16:
    return static_cast<double>(bf16BitsToFloat(static_cast<uint16_t>(bits & 0xFFFFu)));
  case DpasModelType::TF32:
    return static_cast<double>(bitsFloat(truncateToTf32Bits(bits)));
  case DpasModelType::S8:
    break;
  }
  throw std::logic_error("DPAS model: elementValue on an integer type");
}

int32_t s8Value(uint32_t bits) {
  uint32_t b = bits & 0xFFu;
  return b >= 0x80u ? static_cast<int32_t>(b) - 256 : static_cast<int32_t>(b);
}

} // namespace

int dpasK(DpasModelType t) {
  switch (t) {
  case DpasModelType::F16:
  case DpasModelType::BF16:
    return 16;
  case DpasModelType::S8:
    return 32;
  case DpasModelType::TF32:
    return 8;
  }
  throw std::invalid_argument("DPAS model: unknown type");
}

int dpasAComponents(DpasModelType t, int M) {
  checkM(M);
  return t == DpasModelType::TF32 ? (M + 1) / 2 : M;
}

DpasLaneOperands packDpasOperands(DpasModelType t, int M, const std::vector<uint32_t>& A,
                                  const std::vector<uint32_t>& B, const std::vector<uint32_t>& C) {
  checkM(M);
  const int K = dpasK(t);
  checkSize("A", A, static_cast<std::size_t>(M) * K);
  checkSize("B", B, static_cast<std::size_t>(K) * kN);
  checkSize("C", C, static_cast<std::size_t>(M) * kN);
  auto a = [&](int r, int k) { return A[static_cast<std::size_t>(r) * K + k]; };
  auto b = [&](int k, int n) { return B[static_cast<std::size_t>(k) * kN + n]; };

  DpasLaneOperands ops;
  ops.a.assign(kN, {});
  ops.b.assign(kN, std::vector<uint32_t>(8, 0));
  ops.c.assign(kN, std::vector<uint32_t>(M, 0));

  for (int l = 0; l < kN; ++l) {
    // A: "contributed across lanes by columns, lower lanes = lower columns".
    switch (t) {
    case DpasModelType::F16:
    case DpasModelType::BF16:
      for (int r = 0; r < M; ++r) ops.a[l].push_back(a(r, l) & 0xFFFFu);
      break;
    case DpasModelType::S8:
      // N = 16 < K = 32: two columns per 16-bit value, lower column in the lower byte.
      for (int r = 0; r < M; ++r)
        ops.a[l].push_back((a(r, 2 * l) & 0xFFu) | ((a(r, 2 * l + 1) & 0xFFu) << 8));
      break;
    case DpasModelType::TF32:
      // N = 16 > K = 8: lane l holds column l % 8 of rows 2i + l / 8 (lower lanes the even rows).
      for (int i = 0; i < (M + 1) / 2; ++i) {
        int row = 2 * i + l / 8;
        ops.a[l].push_back(row < M ? a(row, l % 8) : 0u);
      }
      break;
    }
    // B: "each lane one column; <= 16-bit elements packed along K into 32-bit values (lower row in
    // lower bits)".
    for (int j = 0; j < 8; ++j) {
      uint32_t dw = 0;
      switch (t) {
      case DpasModelType::F16:
      case DpasModelType::BF16:
        dw = (b(2 * j, l) & 0xFFFFu) | ((b(2 * j + 1, l) & 0xFFFFu) << 16);
        break;
      case DpasModelType::S8:
        for (int i = 0; i < 4; ++i) dw |= (b(4 * j + i, l) & 0xFFu) << (8 * i);
        break;
      case DpasModelType::TF32:
        dw = b(j, l);
        break;
      }
      ops.b[l][j] = dw;
    }
    // C: "lane n = column n, component r = row r".
    for (int r = 0; r < M; ++r) ops.c[l][r] = C[static_cast<std::size_t>(r) * kN + l];
  }
  return ops;
}

std::vector<uint32_t> unpackDpasResult(int M, const std::vector<std::vector<uint32_t>>& d) {
  checkM(M);
  if (d.size() != static_cast<std::size_t>(kN))
    throw std::invalid_argument("DPAS model: result must have 16 lanes");
  std::vector<uint32_t> D(static_cast<std::size_t>(M) * kN);
  for (int n = 0; n < kN; ++n) {
    if (d[n].size() != static_cast<std::size_t>(M))
      throw std::invalid_argument("DPAS model: result lane must have M components");
    for (int r = 0; r < M; ++r) D[static_cast<std::size_t>(r) * kN + n] = d[n][r];
  }
  return D;
}

std::vector<uint32_t> referenceDpas(DpasModelType t, int M, const std::vector<uint32_t>& A,
                                    const std::vector<uint32_t>& B,
                                    const std::vector<uint32_t>& C) {
  checkM(M);
  const int K = dpasK(t);
  checkSize("A", A, static_cast<std::size_t>(M) * K);
  checkSize("B", B, static_cast<std::size_t>(K) * kN);
  checkSize("C", C, static_cast<std::size_t>(M) * kN);
  std::vector<uint32_t> D(static_cast<std::size_t>(M) * kN);
  for (int r = 0; r < M; ++r) {
    for (int n = 0; n < kN; ++n) {
      const uint32_t c = C[static_cast<std::size_t>(r) * kN + n];
      if (t == DpasModelType::S8) {
        uint32_t acc = c;
        for (int k = 0; k < K; ++k) {
          int32_t p = s8Value(A[static_cast<std::size_t>(r) * K + k]) *
                      s8Value(B[static_cast<std::size_t>(k) * kN + n]);
          acc += static_cast<uint32_t>(p); // modulo 2^32
        }
        D[static_cast<std::size_t>(r) * kN + n] = acc;
      } else {
        float acc = bitsFloat(c);
        for (int k = 0; k < K; ++k) {
          double p = elementValue(t, A[static_cast<std::size_t>(r) * K + k]) *
                     elementValue(t, B[static_cast<std::size_t>(k) * kN + n]); // exact
          acc = addRoundToFloat(static_cast<double>(acc), p);
        }
        D[static_cast<std::size_t>(r) * kN + n] = floatBits(acc);
      }
    }
  }
  return D;
}

uint32_t truncateToTf32Bits(uint32_t u) {
  const bool isNan = (u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0;
  uint32_t t = u & ~0x1FFFu;
  if (isNan) t |= 0x00400000u; // keep NaN a (quiet) NaN
  return t;
}

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

uint16_t floatToBf16Bits(float f) {
  uint32_t u = floatBits(f);
  if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0)
    return static_cast<uint16_t>((u >> 16) | 0x0040u); // quiet NaN, same sign
  uint32_t lsb = (u >> 16) & 1u;
  u += 0x7FFFu + lsb; // RNE on the low 16 bits; carries into the exponent (to inf) as required
  return static_cast<uint16_t>(u >> 16);
}

float bf16BitsToFloat(uint16_t h) {
  return bitsFloat(static_cast<uint32_t>(h) << 16);
}

uint16_t floatToHalfBits(float f) {
  const uint32_t u = floatBits(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t expField = (u >> 23) & 0xFFu;
  const uint32_t mant = u & 0x007FFFFFu;
  if (expField == 0xFFu) return static_cast<uint16_t>(sign | 0x7C00u | (mant ? 0x0200u : 0u));
  if (expField == 0 && mant == 0) return sign;
  // value = sig * 2^(e - 23), sig < 2^24.
  int e;
  uint32_t sig;
  if (expField == 0) {
    e = -126;
    sig = mant;
  } else {
    e = static_cast<int>(expField) - 127;
    sig = mant | 0x00800000u;
  }
  // The half quantum at this magnitude is 2^(max(e, -14) - 10); q = value / quantum, rounded RNE.
  const int eh = e < -14 ? -14 : e;
  const int shift = 13 + (eh - e);
  uint32_t q;
  if (shift >= 32) {
    q = 0; // e <= -33: value < 2^-32, below half the smallest subnormal (2^-25)
  } else {
    q = sig >> shift;
    const uint32_t rem = sig & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u))) ++q;
  }
  // Normal: q in [2^10, 2^11] -> ((eh + 14) << 10) + q == ((e + 15) << 10) + (q - 1024), with a
  // carry into the exponent when q == 2^11. Subnormal (eh == -14 from e < -14): bits == q.
  const uint32_t bits = (static_cast<uint32_t>(eh + 14) << 10) + q;
  if (bits >= 0x7C00u) return static_cast<uint16_t>(sign | 0x7C00u);
  return static_cast<uint16_t>(sign | bits);
}

float halfBitsToFloat(uint16_t h) {
  const bool neg = (h & 0x8000u) != 0;
  const int expField = (h >> 10) & 0x1F;
  const int mant = h & 0x3FF;
  float v;
  if (expField == 0x1F) {
    v = mant ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else if (expField == 0) {
    v = std::ldexp(static_cast<float>(mant), -24);
  } else {
    v = std::ldexp(static_cast<float>(mant | 0x400), expField - 25);
  }
  return neg ? -v : v;
}

} // namespace layout::testing
