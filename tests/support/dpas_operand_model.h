// An element-by-element model of how Intel DPAS (`intel_sub_group_*_matrix_mad_k*`,
// `__spirv_SubgroupMatrixMultiplyAccumulateINTEL`) distributes its operands over the 16 lanes of a
// subgroup (SG16: PVC, BMG), written only from the prose of docs/reference/intel-xe.md §3.2
// (SG16 table, general rule, worked example) and §3.3 (numerics). It shares no code with liblayout,
// codegen or kernels and includes no layout/ header: it is an oracle, so it must not inherit their
// mistakes. Everything is plain loops over (lane, component).
//
// Conventions (matrices are row-major vectors of raw element bits, one element per uint32_t):
//   A is M x K, B is K x 16, C and D are M x 16. K = 16 (f16/bf16), 32 (s8), 8 (tf32).
//   M in {1, 2, 4, 8}. Element bits above the element width are ignored (masked off), so s8 values
//   may be passed either as 0..255 or as sign-extended int32 bit patterns.
//
// Per-lane registers (lane l / n in 0..15), exactly the OpenCL argument vectors:
//   f16/bf16 A: a[l][r] (r < M)   = A[r][l]                             (16 bits, zero-extended)
//   s8 A:       a[l][r] (r < M)   = A[r][2l] | A[r][2l+1] << 8          (16 bits, zero-extended)
//   tf32 A:     a[l][i] (i < ceil(M/2)) = A[2i + l/8][l%8] (fp32 bits, passed through untouched)
//               when 2i + l/8 >= M (only M = 1, lanes 8..15) the value is 0 ("ignored").
//   f16/bf16 B: b[n][j] (j < 8)   = B[2j][n] | B[2j+1][n] << 16          ("VNNI", lower row low)
//   s8 B:       b[n][j] (j < 8)   = B[4j][n] | B[4j+1][n] << 8 | B[4j+2][n] << 16
//                                   | B[4j+3][n] << 24
//   tf32 B:     b[n][j] (j < 8)   = B[j][n]                               (fp32 bits, untouched)
//   C / D:      c[n][r] (r < M)   = C[r][n]                               (raw 32 bits)
//
// Reference numerics (a *declared* model, ref §3.3: silicon order/rounding is not specified):
//   Float types: D[r][n] = C[r][n]; then for k = 0, 1, ..., K-1 in increasing order:
//     D[r][n] = fp32_RNE(D[r][n] + A[r][k] * B[k][n]), where the product is exact (computed in
//     double, where a product of two <= 24-bit significands is exact) and the sum is rounded once
//     from its exact value to fp32 round-to-nearest-even (implemented as an exact double TwoSum,
//     round-to-odd to 53 bits, then one RNE conversion to float: no double-rounding error).
//     IEEE semantics with subnormals everywhere (no flush-to-zero); overflow gives +-inf. NaN
//     payload bits of a NaN result are whatever the host produces (tests should avoid NaNs).
//     Note this is one addition per k, not the 8 two-product stages of the vISA pseudo code.
//   tf32 inputs: each fp32 A/B bit pattern is reduced to tf32 by clearing the low 13 mantissa
//     bits (round toward zero, i.e. "only 10 mantissa bits used"; the hardware is not documented
//     to round). A NaN whose payload sits only in the low 13 bits stays a (quiet) NaN rather than
//     becoming inf. C is used as full fp32.
//   s8: signed x signed, exact products, sum wraps modulo 2^32 (two's complement int32 bits).
#pragma once

#include <cstdint>
#include <vector>

namespace layout::testing {

enum class DpasModelType { F16, BF16, S8, TF32 }; // C/D: float for F16/BF16/TF32, int32 for S8

inline constexpr int kDpasSubgroupSize = 16;

// K of the instruction: 16 (f16/bf16), 32 (s8), 8 (tf32).
int dpasK(DpasModelType t);
// Number of A register components per lane: M for f16/bf16/s8, ceil(M/2) for tf32.
int dpasAComponents(DpasModelType t, int M);

struct DpasLaneOperands {
  std::vector<std::vector<uint32_t>> a; // a[lane][i]: raw bits (16-bit values zero-extended)
  std::vector<std::vector<uint32_t>> b; // b[lane][j]: raw 32-bit dwords, j < 8
  std::vector<std::vector<uint32_t>> c; // c[lane][r]: raw 32-bit bits, r < M
};

// Distributes A (M x K), B (K x 16), C (M x 16) to the 16 lanes. Throws std::invalid_argument on a
// bad M or on a matrix of the wrong size.
DpasLaneOperands packDpasOperands(DpasModelType t, int M, const std::vector<uint32_t>& A,
                                  const std::vector<uint32_t>& B, const std::vector<uint32_t>& C);

// Inverse for the result: d[lane][r] -> D (M x 16 row-major raw 32-bit bits), D[r][n] = d[n][r].
std::vector<uint32_t> unpackDpasResult(int M, const std::vector<std::vector<uint32_t>>& d);

// D = C + A*B as raw bits (M x 16 row-major), numerics as described above.
std::vector<uint32_t> referenceDpas(DpasModelType t, int M, const std::vector<uint32_t>& A,
                                    const std::vector<uint32_t>& B, const std::vector<uint32_t>& C);

// Reduces an fp32 bit pattern to tf32 as described above (low 13 mantissa bits cleared).
uint32_t truncateToTf32Bits(uint32_t fp32Bits);

// Scalar helpers, independent of any other conversion code in the repository.
uint16_t floatToBf16Bits(float f); // RNE; NaN -> quiet NaN with the same sign
float bf16BitsToFloat(uint16_t h);
uint16_t floatToHalfBits(float f); // RNE; normals, subnormals, overflow to inf; NaN -> quiet NaN
float halfBitsToFloat(uint16_t h);
uint32_t floatBits(float f);
float bitsFloat(uint32_t u);

} // namespace layout::testing
