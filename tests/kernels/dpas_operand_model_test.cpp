// Self-checks of the independent DPAS SG16 oracle (tests/support/dpas_operand_model.h) against the
// worked examples of docs/reference/intel-xe.md §3.2 and against a plain double matmul.
#include "support/dpas_operand_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

using layout::testing::bf16BitsToFloat;
using layout::testing::bitsFloat;
using layout::testing::dpasK;
using layout::testing::DpasLaneOperands;
using layout::testing::DpasModelType;
using layout::testing::floatBits;
using layout::testing::floatToBf16Bits;
using layout::testing::floatToHalfBits;
using layout::testing::halfBitsToFloat;
using layout::testing::packDpasOperands;
using layout::testing::referenceDpas;
using layout::testing::truncateToTf32Bits;
using layout::testing::unpackDpasResult;

namespace {

constexpr DpasModelType kAllTypes[] = {DpasModelType::F16, DpasModelType::BF16, DpasModelType::S8,
                                       DpasModelType::TF32};
constexpr int kAllM[] = {1, 2, 4, 8};

// Matrices whose every element has a distinct, recognisable bit pattern (tag + index).
std::vector<uint32_t> tagged(int rows, int cols, uint32_t tag, uint32_t mask) {
  std::vector<uint32_t> v(static_cast<std::size_t>(rows) * cols);
  for (int i = 0; i < rows * cols; ++i) v[i] = (tag + static_cast<uint32_t>(i)) & mask;
  return v;
}

uint32_t encode(DpasModelType t, int value) {
  switch (t) {
  case DpasModelType::F16:
    return floatToHalfBits(static_cast<float>(value));
  case DpasModelType::BF16:
    return floatToBf16Bits(static_cast<float>(value));
  case DpasModelType::TF32:
    return floatBits(static_cast<float>(value));
  case DpasModelType::S8:
    return static_cast<uint32_t>(value) & 0xFFu;
  }
  return 0;
}

} // namespace

// Worked example: intel_sub_group_f16_f16_matrix_mad_k16(short8 a, int8 b, float8 acc), lane 3:
// a.s5 = A[5][3]; b.s5 = B[10][3] | B[11][3] << 16; result.s5 = D[5][3].
TEST(DpasOperandModel, WorkedExampleF16) {
  const int M = 8;
  auto A = tagged(M, 16, 0x1000, 0xFFFF);  // A[r][k] = 0x1000 + 16r + k
  auto B = tagged(16, 16, 0x2000, 0xFFFF); // B[k][n] = 0x2000 + 16k + n
  auto C = tagged(M, 16, 0x30000000, 0xFFFFFFFF);
  DpasLaneOperands ops = packDpasOperands(DpasModelType::F16, M, A, B, C);
  ASSERT_EQ(ops.a.size(), 16u);
  ASSERT_EQ(ops.a[3].size(), 8u);
  ASSERT_EQ(ops.b[3].size(), 8u);
  ASSERT_EQ(ops.c[3].size(), 8u);
  EXPECT_EQ(ops.a[3][5], 0x1053u);                                // A[5][3]
  EXPECT_EQ(ops.b[3][5], 0x20A3u | (0x20B3u << 16));              // B[10][3] | B[11][3] << 16
  EXPECT_EQ(ops.c[3][5], 0x30000000u + 5 * 16 + 3);               // C[5][3]
  EXPECT_EQ(unpackDpasResult(M, ops.c)[5 * 16 + 3], ops.c[3][5]); // D[5][3] <- lane 3, .s5
  // Full table, f16 row: lane l component r = A[r][l]; b dword j = B[2j][n] | B[2j+1][n] << 16.
  for (int l = 0; l < 16; ++l)
    for (int r = 0; r < M; ++r) EXPECT_EQ(ops.a[l][r], A[r * 16 + l]);
  for (int n = 0; n < 16; ++n)
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(ops.b[n][j], B[(2 * j) * 16 + n] | (B[(2 * j + 1) * 16 + n] << 16));
}

TEST(DpasOperandModel, WorkedExampleS8) {
  const int M = 8;
  auto A = tagged(M, 32, 0, 0xFF);     // A[r][k] = (32r + k) & 0xFF
  auto B = tagged(32, 16, 0x40, 0xFF); // B[k][n] = (0x40 + 16k + n) & 0xFF
  auto C = tagged(M, 16, 0, 0xFFFFFFFF);
  DpasLaneOperands ops = packDpasOperands(DpasModelType::S8, M, A, B, C);
  // lane 3, a.s5 = A[5][6] | A[5][7] << 8; A[5][6] = 166 = 0xA6, A[5][7] = 0xA7.
  EXPECT_EQ(ops.a[3][5], 0xA7A6u);
  // lane 3, b.s5 = bytes B[20..23][3]: (0x40 + 16k + 3) & 0xFF for k = 20..23 = 0x83, 0x93, 0xA3,
  // 0xB3.
  EXPECT_EQ(ops.b[3][5], 0xB3A39383u);
  for (int l = 0; l < 16; ++l) {
    ASSERT_EQ(ops.a[l].size(), static_cast<std::size_t>(M));
    for (int r = 0; r < M; ++r)
      EXPECT_EQ(ops.a[l][r], A[r * 32 + 2 * l] | (A[r * 32 + 2 * l + 1] << 8));
  }
  // Sign-extended int32 bit patterns are accepted and masked to 8 bits.
  std::vector<uint32_t> As(M * 32, static_cast<uint32_t>(-2)); // 0xFFFFFFFE
  DpasLaneOperands ops2 = packDpasOperands(DpasModelType::S8, M, As, B, C);
  EXPECT_EQ(ops2.a[0][0], 0xFEFEu);
}

TEST(DpasOperandModel, WorkedExampleTf32) {
  for (int M : kAllM) {
    auto A = tagged(M, 8, 0x3F800000, 0xFFFFFFFF); // A[r][k] = 0x3F800000 + 8r + k
    auto B = tagged(8, 16, 0x40000000, 0xFFFFFFFF);
    auto C = tagged(M, 16, 0, 0xFFFFFFFF);
    DpasLaneOperands ops = packDpasOperands(DpasModelType::TF32, M, A, B, C);
    const int comps = (M + 1) / 2;
    for (int l = 0; l < 16; ++l) {
      ASSERT_EQ(ops.a[l].size(), static_cast<std::size_t>(comps)) << "M=" << M;
      for (int i = 0; i < comps; ++i) {
        const int row = 2 * i + l / 8;
        const uint32_t want = row < M ? A[row * 8 + l % 8] : 0u; // M = 1: lanes 8..15 ignored
        EXPECT_EQ(ops.a[l][i], want) << "M=" << M << " lane " << l << " comp " << i;
      }
      for (int j = 0; j < 8; ++j) EXPECT_EQ(ops.b[l][j], B[j * 16 + l]); // B[j][n]
    }
    if (M == 8) {
      EXPECT_EQ(ops.a[11][2], 0x3F800000u + 5 * 8 + 3); // component 2 of lane 11 = A[5][3]
      EXPECT_EQ(ops.a[4][3], 0x3F800000u + 6 * 8 + 4);  // component 3 of lane 4 = A[6][4]
    }
    if (M == 1) {
      EXPECT_EQ(ops.a[5][0], 0x3F800005u);
      EXPECT_EQ(ops.a[13][0], 0u);
    }
  }
}

// Every element of A/B/C reaches exactly one (lane, component) slot, for every type and M.
TEST(DpasOperandModel, EveryElementExactlyOnce) {
  for (DpasModelType t : kAllTypes) {
    const int K = dpasK(t);
    const int bits = t == DpasModelType::S8 ? 8 : (t == DpasModelType::TF32 ? 32 : 16);
    const uint32_t mask = bits == 32 ? 0xFFFFFFFFu : ((1u << bits) - 1u);
    for (int M : kAllM) {
      // Nonzero element values (1..255, so they fit every element width); the multiset of nonzero
      // fields found in the lane registers must equal the multiset of matrix elements.
      std::vector<uint32_t> A(M * K), B(K * 16), C(M * 16);
      for (std::size_t i = 0; i < A.size(); ++i) A[i] = 1 + static_cast<uint32_t>(i % 255);
      for (std::size_t i = 0; i < B.size(); ++i) B[i] = 1 + static_cast<uint32_t>(i % 255);
      for (std::size_t i = 0; i < C.size(); ++i) C[i] = 0x100 + static_cast<uint32_t>(i);
      DpasLaneOperands ops = packDpasOperands(t, M, A, B, C);
      // Count fields: split each register into elements of `bits` width.
      auto count = [&](const std::vector<std::vector<uint32_t>>& regs, int regBits) {
        std::map<uint32_t, int> m;
        for (const auto& lane : regs)
          for (uint32_t v : lane)
            for (int s = 0; s < regBits; s += bits) {
              uint32_t f = (v >> s) & mask;
              if (f) ++m[f];
            }
        return m;
      };
      const int aBits = t == DpasModelType::TF32 ? 32 : 16;
      auto ca = count(ops.a, aBits);
      auto cb = count(ops.b, 32);
      std::map<uint32_t, int> wantA, wantB;
      for (uint32_t v : A) ++wantA[v];
      for (uint32_t v : B) ++wantB[v];
      EXPECT_EQ(ca, wantA) << "type " << static_cast<int>(t) << " M=" << M;
      EXPECT_EQ(cb, wantB) << "type " << static_cast<int>(t) << " M=" << M;
      EXPECT_EQ(unpackDpasResult(M, ops.c), C);
    }
  }
}

// referenceDpas equals a plain double matmul on small-integer data (all partial sums exact).
TEST(DpasOperandModel, ReferenceMatchesDoubleMatmulOnSmallIntegers) {
  std::mt19937 rng(12345);
  for (DpasModelType t : kAllTypes) {
    const int K = dpasK(t);
    for (int M : kAllM) {
      for (int trial = 0; trial < 5; ++trial) {
        std::uniform_int_distribution<int> small(-8, 8), acc(-100, 100);
        std::vector<int> Ai(M * K), Bi(K * 16), Ci(M * 16);
        for (int& v : Ai) v = small(rng);
        for (int& v : Bi) v = small(rng);
        for (int& v : Ci) v = acc(rng);
        std::vector<uint32_t> A(M * K), B(K * 16), C(M * 16);
        for (std::size_t i = 0; i < A.size(); ++i) A[i] = encode(t, Ai[i]);
        for (std::size_t i = 0; i < B.size(); ++i) B[i] = encode(t, Bi[i]);
        for (std::size_t i = 0; i < C.size(); ++i)
          C[i] = t == DpasModelType::S8 ? static_cast<uint32_t>(Ci[i])
                                        : floatBits(static_cast<float>(Ci[i]));
        auto D = referenceDpas(t, M, A, B, C);
        ASSERT_EQ(D.size(), static_cast<std::size_t>(M * 16));
        for (int r = 0; r < M; ++r)
          for (int n = 0; n < 16; ++n) {
            double s = Ci[r * 16 + n];
            for (int k = 0; k < K; ++k)
              s += static_cast<double>(Ai[r * K + k]) * static_cast<double>(Bi[k * 16 + n]);
            const uint32_t got = D[r * 16 + n];
            if (t == DpasModelType::S8)
              EXPECT_EQ(static_cast<int32_t>(got), static_cast<int32_t>(s));
            else
              EXPECT_EQ(bitsFloat(got), static_cast<float>(s));
          }
      }
    }
  }
}

// Each addition is rounded to fp32 RNE in increasing k: 1 + 16 * 2^-24 stays 1 (every step is a
// tie to even), where an exact sum would give 1 + 2^-20.
TEST(DpasOperandModel, SequentialRneRounding) {
  const int M = 1;
  std::vector<uint32_t> A(16, floatToHalfBits(std::ldexp(1.0f, -12)));
  std::vector<uint32_t> B(16 * 16, floatToHalfBits(std::ldexp(1.0f, -12)));
  std::vector<uint32_t> C(16, floatBits(1.0f));
  auto D = referenceDpas(DpasModelType::F16, M, A, B, C);
  for (uint32_t d : D) EXPECT_EQ(d, floatBits(1.0f));
  // Starting from 1 + 2^-23 (odd), the first tie rounds up to 1 + 2^-22, then stays.
  std::vector<uint32_t> C2(16, floatBits(1.0f + std::ldexp(1.0f, -23)));
  auto D2 = referenceDpas(DpasModelType::F16, M, A, B, C2);
  for (uint32_t d : D2) EXPECT_EQ(d, floatBits(1.0f + std::ldexp(1.0f, -22)));
  // Order matters: large product first cancels C, small ones then survive.
  std::vector<uint32_t> A3(16, floatToBf16Bits(1.0f));
  std::vector<uint32_t> B3(16 * 16, floatToBf16Bits(std::ldexp(1.0f, -30)));
  for (int n = 0; n < 16; ++n) B3[n] = floatToBf16Bits(-1.0f); // k = 0 product is -1
  std::vector<uint32_t> C3(16, floatBits(1.0f));
  auto D3 = referenceDpas(DpasModelType::BF16, M, A3, B3, C3);
  for (uint32_t d : D3) EXPECT_EQ(bitsFloat(d), 15.0f * std::ldexp(1.0f, -30));
}

TEST(DpasOperandModel, SubnormalsAndOverflow) {
  const int M = 1;
  std::vector<uint32_t> A(16, 0), B(16 * 16, 0), C(16, 0);
  A[0] = floatToBf16Bits(std::ldexp(1.0f, -75));
  for (int n = 0; n < 16; ++n) B[n] = floatToBf16Bits(std::ldexp(1.0f, -74));
  auto D = referenceDpas(DpasModelType::BF16, M, A, B, C);
  for (uint32_t d : D) EXPECT_EQ(d, 1u); // 2^-149, smallest fp32 subnormal, no FTZ
  A[0] = floatToBf16Bits(std::ldexp(1.0f, 100));
  for (int n = 0; n < 16; ++n) B[n] = floatToBf16Bits(std::ldexp(1.0f, 100));
  D = referenceDpas(DpasModelType::BF16, M, A, B, C);
  for (uint32_t d : D) EXPECT_EQ(d, 0x7F800000u); // 2^200 overflows fp32 -> +inf
  // A product below fp32's subnormal range added to 0 rounds to 0 (2^-150 is a tie -> 0).
  A[0] = floatToBf16Bits(std::ldexp(1.0f, -75));
  for (int n = 0; n < 16; ++n) B[n] = floatToBf16Bits(std::ldexp(1.0f, -75));
  D = referenceDpas(DpasModelType::BF16, M, A, B, C);
  for (uint32_t d : D) EXPECT_EQ(d, 0u);
  // 1.5 * 2^-150 is above the tie -> 2^-149.
  A[0] = floatToBf16Bits(1.5f * std::ldexp(1.0f, -75));
  D = referenceDpas(DpasModelType::BF16, M, A, B, C);
  for (uint32_t d : D) EXPECT_EQ(d, 1u);
}

TEST(DpasOperandModel, S8SignedAndWrapping) {
  const int M = 2;
  std::vector<uint32_t> A(M * 32, 1), B(32 * 16, 1), C(M * 16, 0x7FFFFFFFu);
  auto D = referenceDpas(DpasModelType::S8, M, A, B, C);
  for (uint32_t d : D) EXPECT_EQ(d, 0x8000001Fu);             // INT32_MAX + 32 wraps
  std::fill(A.begin(), A.end(), 0x80u);                       // -128, given as 0..255
  std::fill(B.begin(), B.end(), static_cast<uint32_t>(-128)); // -128, sign-extended
  std::fill(C.begin(), C.end(), 0u);
  D = referenceDpas(DpasModelType::S8, M, A, B, C);
  for (uint32_t d : D) EXPECT_EQ(static_cast<int32_t>(d), 32 * 16384);
  std::fill(B.begin(), B.end(), 0x7Fu); // 127 * -128 * 32
  D = referenceDpas(DpasModelType::S8, M, A, B, C);
  for (uint32_t d : D) EXPECT_EQ(static_cast<int32_t>(d), -127 * 128 * 32);
}

TEST(DpasOperandModel, Tf32TruncatesInputs) {
  EXPECT_EQ(truncateToTf32Bits(0x3F801FFFu), 0x3F800000u);
  EXPECT_EQ(truncateToTf32Bits(0x3F802000u), 0x3F802000u);
  EXPECT_EQ(truncateToTf32Bits(0xBF803FFFu), 0xBF802000u);
  EXPECT_EQ(truncateToTf32Bits(0x7F800001u) & 0x7FC00000u, 0x7FC00000u); // NaN stays NaN
  EXPECT_EQ(truncateToTf32Bits(0x7F800000u), 0x7F800000u);
  const int M = 1;
  std::vector<uint32_t> A(8, 0), B(8 * 16, 0), C(16, 0);
  A[0] = 0x3F801FFFu; // 1 + (2^13 - 1) * 2^-23 -> 1.0 in tf32
  for (int n = 0; n < 16; ++n) B[n] = floatBits(3.0f);
  auto D = referenceDpas(DpasModelType::TF32, M, A, B, C);
  for (uint32_t d : D) EXPECT_EQ(bitsFloat(d), 3.0f);
  // C is used at full fp32 precision (not truncated).
  for (uint32_t& c : C) c = 0x3F800001u;
  for (int n = 0; n < 16; ++n) B[n] = 0;
  D = referenceDpas(DpasModelType::TF32, M, A, B, C);
  for (uint32_t d : D) EXPECT_EQ(d, 0x3F800001u);
}

TEST(DpasOperandModel, HalfConversions) {
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3C00u);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xC000u);
  EXPECT_EQ(floatToHalfBits(0.0f), 0x0000u);
  EXPECT_EQ(floatToHalfBits(-0.0f), 0x8000u);
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7BFFu);
  EXPECT_EQ(floatToHalfBits(65519.0f), 0x7BFFu);
  EXPECT_EQ(floatToHalfBits(65520.0f), 0x7C00u); // tie to even -> inf
  EXPECT_EQ(floatToHalfBits(1e10f), 0x7C00u);
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -14)), 0x0400u);
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -24)), 0x0001u);
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -25)), 0x0000u);        // tie -> even 0
  EXPECT_EQ(floatToHalfBits(1.5f * std::ldexp(1.0f, -24)), 0x0002u); // tie -> even 2
  EXPECT_EQ(floatToHalfBits(1.0f + std::ldexp(1.0f, -11)), 0x3C00u); // tie -> even
  EXPECT_EQ(floatToHalfBits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02u);
  EXPECT_EQ(floatToHalfBits(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3C01u);
  EXPECT_EQ(floatToHalfBits(2047.0f / 1024.0f * std::ldexp(1.0f, -15)), 0x0400u); // sub -> normal
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -140)), 0x0000u);
  EXPECT_EQ(halfBitsToFloat(0x3555u), (1.0f + 0x155 / 1024.0f) * 0.25f);
  EXPECT_EQ(halfBitsToFloat(0x0001u), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isinf(halfBitsToFloat(0xFC00u)) && halfBitsToFloat(0xFC00u) < 0);
  EXPECT_TRUE(std::isnan(halfBitsToFloat(0x7E00u)));
  EXPECT_TRUE(std::isnan(halfBitsToFloat(floatToHalfBits(std::nanf("")))));
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu)) continue; // NaN
    ASSERT_EQ(floatToHalfBits(halfBitsToFloat(static_cast<uint16_t>(h))), h) << std::hex << h;
  }
}

TEST(DpasOperandModel, Bf16Conversions) {
  EXPECT_EQ(floatToBf16Bits(1.0f), 0x3F80u);
  EXPECT_EQ(floatToBf16Bits(-3.0f), 0xC040u);
  EXPECT_EQ(floatToBf16Bits(bitsFloat(0x3F808000u)), 0x3F80u); // tie -> even
  EXPECT_EQ(floatToBf16Bits(bitsFloat(0x3F818000u)), 0x3F82u); // tie -> even (up)
  EXPECT_EQ(floatToBf16Bits(bitsFloat(0x3F808001u)), 0x3F81u);
  EXPECT_EQ(floatToBf16Bits(bitsFloat(0x7F7FFFFFu)), 0x7F80u); // overflow -> inf
  EXPECT_EQ(floatToBf16Bits(bitsFloat(0x00000001u)), 0x0000u);
  EXPECT_TRUE(std::isnan(bf16BitsToFloat(floatToBf16Bits(bitsFloat(0x7F800001u)))));
  EXPECT_EQ(bf16BitsToFloat(0x4049u), bitsFloat(0x40490000u));
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    if ((h & 0x7F80u) == 0x7F80u && (h & 0x7Fu)) continue; // NaN
    ASSERT_EQ(floatToBf16Bits(bf16BitsToFloat(static_cast<uint16_t>(h))), h) << std::hex << h;
  }
}

TEST(DpasOperandModel, RejectsBadShapes) {
  std::vector<uint32_t> A(3 * 16), B(16 * 16), C(3 * 16);
  EXPECT_THROW(packDpasOperands(DpasModelType::F16, 3, A, B, C), std::invalid_argument);
  std::vector<uint32_t> A2(2 * 16), C2(2 * 16);
  EXPECT_THROW(packDpasOperands(DpasModelType::S8, 2, A2, B, C2), std::invalid_argument);
  EXPECT_THROW(referenceDpas(DpasModelType::TF32, 2, A2, B, C2), std::invalid_argument);
  EXPECT_THROW(unpackDpasResult(2, std::vector<std::vector<uint32_t>>(15)), std::invalid_argument);
}
