// Fresh GEMM inputs, the exact reference (the exact sum of the exact products, rounded once), and
// the comparison rules.
//
//   auto kernel = layout::codegen::buildGemmKernel(config);
//   auto inputs = layout::kernels::makeGemmInputs(config, InputKind::Random, /*seed=*/42);
//   auto stats = layout::kernels::simulateGemmKernel(*kernel, inputs.memory);
//   auto v = layout::kernels::verifyGemm(config, inputs);   // v.passed, v.summary()
//
// Rules (stated in the README):
// - int8 -> int32: bit for bit against the exact integer sum (wrapped to 32 bits).
// - InputKind::ExactSums (f16, bf16, tf32 inputs that are small integers, so every partial sum
//   is an integer below 2^24 and exact in fp32): bit for bit against the exact sum.
// - InputKind::Random (uniform in [-1, 1), rounded to the input type): |D - ref| <=
//   gamma(K') * sum_k |a_ik * b_kj|, with ref the exact sum of the products (each exact in
//   binary64; summed exactly in a multiprecision accumulator, rounded once to binary64, whose
//   half-ulp is added to the bound), K' = the K the kernel accumulates (K rounded up to k_tile;
//   the padding adds exact zeros) and gamma(n) = n * 2^-24 / (1 - n * 2^-24), the bound of n
//   sequential fp32 additions of exact products (Higham, Accuracy and Stability, §4.2).
//
// The reference of every element is exact (see verifyGemm), computed on several threads; the
// result is the same for any thread count.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "layout/codegen/gemm_config.h"
#include "layout/kernels/xe_simulator.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace layout::kernels {

enum class InputKind { ExactSums, Random };

struct GemmInputs {
  InputKind kind = InputKind::Random;
  GemmMemory memory;     // A, B in the kernel's surfaces; C filled with a NaN / 0x7fc00000 poison
  std::vector<double> a; // A[M][K], the values the kernel reads (after rounding to the type)
  std::vector<double> b; // B[K][N] (logical, whatever transpose_b stores)
};

// Fresh inputs from a seed (a SplitMix64 stream, so a seed reproduces a run), made on `threads`
// threads (0: gemmThreadCount(0)); the same for any count.
GemmInputs makeGemmInputs(const codegen::GemmProblem& c, InputKind kind, uint64_t seed,
                          int threads = 0);

struct GemmVerification {
  bool passed = false;
  std::string rule; // "exact int32", "exact fp32", "fp32 bound gamma(K') * sum|ab|"
  int64_t checked = 0, mismatches = 0;
  double maxError = 0;                     // max |D - ref|
  double maxAllowedRatio = 0;              // max |D - ref| / allowed (random floats; <= 1 passes)
  int64_t firstRow = -1, firstColumn = -1; // the first failing element
  double firstGot = 0, firstExpected = 0;
  std::string summary() const;
};

// {passed, rule, checked, mismatches, maxError, maxBoundRatio[, first: {row, column, got,
// expected}]}: the verification as layoutctl gemm --format json and the Python module print it.
nlohmann::ordered_json gemmVerificationToJson(const GemmVerification& v);

// The unit roundoff of the bound for random floats. The simulator and the OpenCL prelude declare
// round-to-nearest (2^-24); the hardware documents no rounding mode, so a device run is checked
// against the looser bound of any faithful rounding (2^-23), keeping int8 and exact inputs as the
// bit-exact checks.
inline constexpr double kRoundToNearestUnit = 0x1p-24;
inline constexpr double kFaithfulRoundingUnit = 0x1p-23;

struct VerifyOptions {
  int threads = 0;                  // 0: gemmThreadCount(0) (xe_simulator.h); 1: this thread only
  WorkProgress* progress = nullptr; // rows checked, of the rows to check
};

// Compares memory.c (the kernel's result) with the reference computed from inputs.a / .b, over
// every row, or over `rows` only (large device runs check a sample of rows: the reference costs
// N x K exact additions per row).
//
// The exact sums: where every input is an fp32 value (each product exact in binary64) and the
// products' exponents span few enough bits, each element's products are split by a fixed
// binary64 boundary into a high part, summed exactly in binary64 (its bits lie on a grid that
// K sums cannot overflow) and a low remainder, summed the same way (one or two splits), and
// the parts are added in 128-bit integers and rounded once, on vectors of columns. Other inputs
// take the multiprecision accumulator (exact_sum.h). Both give the same bits.
GemmVerification verifyGemm(const codegen::GemmProblem& c, const GemmInputs& inputs,
                            double unitRoundoff = kRoundToNearestUnit,
                            std::span<const int64_t> rows = {}, const VerifyOptions& options = {});

} // namespace layout::kernels
