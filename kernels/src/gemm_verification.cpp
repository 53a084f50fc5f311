// GEMM inputs in the kernel's memory layout, the reference product and the comparison rules.
#include "kernels/gemm_verification.h"

#include <nlohmann/json.hpp>

#include "codegen/kernel_ir.h"
#include "kernels/xe_numerics.h"

#include "kernels/exact_sum.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace layout::kernels {
namespace {

using codegen::GemmDataType;
using codegen::MatrixOperand;

// SplitMix64: a small, seedable, well-mixed stream (reproducible across platforms, unlike
// std::uniform_*_distribution).
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; } // [0, 1)
};

// One input element: its bits in memory and the value the kernel computes with.
struct Element {
  uint32_t bits;
  double value;
};

Element makeElement(GemmDataType t, InputKind kind, SplitMix64& rng) {
  if (t == GemmDataType::Int8) {
    const int v = static_cast<int>(rng.next() % 256) - 128;
    return {static_cast<uint32_t>(v) & 0xffu, static_cast<double>(v)};
  }
  const float f = kind == InputKind::ExactSums
                      ? static_cast<float>(static_cast<int>(rng.next() % 5) - 2)
                      : static_cast<float>(rng.uniform() * 2 - 1);
  switch (t) {
  case GemmDataType::F16: {
    const uint16_t h = floatToHalf(f);
    return {h, halfToFloat(h)};
  }
  case GemmDataType::BF16: {
    const uint16_t h = floatToBf16(f);
    return {h, bf16ToFloat(h)};
  }
  default: {
    const float v = truncateToTf32(f);
    return {std::bit_cast<uint32_t>(v), v};
  }
  }
}

std::vector<uint8_t> surfaceBuffer(const codegen::GemmConfig& c, MatrixOperand m) {
  const auto s = codegen::matrixSurface(c, m);
  return std::vector<uint8_t>(static_cast<size_t>(s.height * s.pitchBytes), 0);
}

} // namespace

GemmInputs makeGemmInputs(const codegen::GemmConfig& c, InputKind kind, uint64_t seed) {
  GemmInputs in;
  in.kind = kind;
  SplitMix64 rng{seed};
  const int bytes = codegen::dataTypeTraits(c.dtype).inputBits / 8;
  in.memory.a = surfaceBuffer(c, MatrixOperand::A);
  in.memory.b = surfaceBuffer(c, MatrixOperand::B);
  in.memory.c = surfaceBuffer(c, MatrixOperand::C);
  const int64_t pitchA = codegen::matrixSurface(c, MatrixOperand::A).pitchBytes;
  const int64_t pitchB = codegen::matrixSurface(c, MatrixOperand::B).pitchBytes;
  in.a.resize(static_cast<size_t>(c.m * c.k));
  in.b.resize(static_cast<size_t>(c.k * c.n));
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t k = 0; k < c.k; ++k) {
      const Element e = makeElement(c.dtype, kind, rng);
      std::memcpy(&in.memory.a[static_cast<size_t>(i * pitchA + k * bytes)], &e.bits, bytes);
      in.a[static_cast<size_t>(i * c.k + k)] = e.value;
    }
  for (int64_t k = 0; k < c.k; ++k)
    for (int64_t n = 0; n < c.n; ++n) {
      const Element e = makeElement(c.dtype, kind, rng);
      const int64_t at = c.transposeB ? n * pitchB + k * bytes : k * pitchB + n * bytes;
      std::memcpy(&in.memory.b[static_cast<size_t>(at)], &e.bits, bytes);
      in.b[static_cast<size_t>(k * c.n + n)] = e.value;
    }
  // Poison C (a quiet NaN / 0x7fc00000) so an element no store reaches cannot pass.
  for (size_t i = 0; i + 4 <= in.memory.c.size(); i += 4) {
    const uint32_t poison = 0x7fc00000u;
    std::memcpy(&in.memory.c[i], &poison, 4);
  }
  return in;
}

namespace {

// The range of the products a_ik * b_kj: the lowest set bit any of them can have (every product is
// a multiple of 2^min) and a bound on their magnitude (below 2^max).
std::pair<int, int> productExponents(const GemmInputs& in) {
  auto range = [](const std::vector<double>& v) {
    int lo = 0, hi = -1100;
    bool any = false;
    for (double x : v) {
      if (x == 0) continue;
      int e = 0;
      std::frexp(x, &e);
      hi = std::max(hi, e);
      const int low = ExactSum::lowestBitExponent(x);
      lo = any ? std::min(lo, low) : low;
      any = true;
    }
    return std::pair{any ? lo : 0, any ? hi : 0};
  };
  const auto [aLo, aHi] = range(in.a);
  const auto [bLo, bHi] = range(in.b);
  return {aLo + bLo, aHi + bHi + 1};
}

} // namespace

GemmVerification verifyGemm(const codegen::GemmConfig& c, const GemmInputs& in, double unitRoundoff,
                            std::span<const int64_t> rows) {
  GemmVerification v;
  const bool isInt = c.dtype == GemmDataType::Int8;
  const bool exact = isInt || in.kind == InputKind::ExactSums;
  const int64_t kAccumulated = (c.k + c.kTile - 1) / c.kTile * c.kTile;
  auto gamma = [](double n, double u) { return n * u / (1 - n * u); };
  // The kernel's fp32 accumulation against the exact sum; sum|ab| is rounded up for the
  // float64 additions that compute it.
  const double g = gamma(static_cast<double>(kAccumulated), unitRoundoff) *
                   (1 + gamma(static_cast<double>(c.k), 0x1p-53));
  v.rule = isInt   ? "exact int32"
           : exact ? "exact fp32"
                   : "|D - ref| <= gamma(" + std::to_string(kAccumulated) +
                         ") * sum|a*b| (fp32, u = 2^" + std::to_string(std::ilogb(unitRoundoff)) +
                         ", against the exact sum)";
  const int64_t pitchC = codegen::matrixSurface(c, MatrixOperand::C).pitchBytes;
  const auto [minExponent, maxExponent] = productExponents(in);
  // The exact sum of each element of the row (every product of two fp16 / bf16 / tf32 values is
  // exact in binary64), rounded once to the nearest double.
  std::vector<ExactSum> sum(static_cast<size_t>(isInt ? 0 : c.n),
                            ExactSum(minExponent, maxExponent));
  std::vector<double> absSum(static_cast<size_t>(c.n));
  std::vector<int64_t> isum(static_cast<size_t>(c.n));
  const int64_t rowCount = rows.empty() ? c.m : static_cast<int64_t>(rows.size());
  for (int64_t r = 0; r < rowCount; ++r) {
    const int64_t i = rows.empty() ? r : rows[static_cast<size_t>(r)];
    if (i < 0 || i >= c.m) continue;
    for (auto& s : sum) s.clear();
    std::fill(absSum.begin(), absSum.end(), 0.0);
    std::fill(isum.begin(), isum.end(), 0);
    for (int64_t k = 0; k < c.k; ++k) {
      const double a = in.a[static_cast<size_t>(i * c.k + k)];
      const double* brow = &in.b[static_cast<size_t>(k * c.n)];
      if (isInt)
        for (int64_t j = 0; j < c.n; ++j)
          isum[j] += static_cast<int64_t>(a) * static_cast<int64_t>(brow[j]);
      else if (a != 0)
        for (int64_t j = 0; j < c.n; ++j) {
          sum[static_cast<size_t>(j)].add(a * brow[j]);
          absSum[j] += std::fabs(a * brow[j]);
        }
    }
    for (int64_t j = 0; j < c.n; ++j) {
      uint32_t bits;
      std::memcpy(&bits, &in.memory.c[static_cast<size_t>(i * pitchC + j * 4)], 4);
      double got, expected;
      bool ok;
      if (isInt) {
        const int32_t want = static_cast<int32_t>(static_cast<uint32_t>(isum[j]));
        got = static_cast<int32_t>(bits);
        expected = want;
        ok = static_cast<int32_t>(bits) == want;
      } else {
        got = std::bit_cast<float>(bits);
        expected = sum[static_cast<size_t>(j)].rounded();
        const double err = std::fabs(got - expected);
        if (exact) {
          ok = got == expected; // NaN (an unwritten element) fails too
        } else {
          // |got - exact| <= |got - expected| + |expected - exact|, the latter at most half an
          // ulp of binary64.
          const double allowed = g * absSum[j] + 0x1p-53 * std::fabs(expected);
          ok = err <= allowed;
          if (allowed > 0) v.maxAllowedRatio = std::max(v.maxAllowedRatio, err / allowed);
        }
        if (!std::isnan(err)) v.maxError = std::max(v.maxError, err);
      }
      ++v.checked;
      if (!ok) {
        if (v.mismatches++ == 0) {
          v.firstRow = i;
          v.firstColumn = j;
          v.firstGot = got;
          v.firstExpected = expected;
        }
      }
    }
  }
  v.passed = v.mismatches == 0;
  return v;
}

std::string GemmVerification::summary() const {
  std::ostringstream o;
  o << (passed ? "PASSED" : "FAILED") << ": " << checked << " elements, " << mismatches
    << " mismatches (" << rule << ")";
  if (maxAllowedRatio > 0)
    o << ", max error " << maxError << " = " << maxAllowedRatio << " of the bound";
  if (!passed)
    o << "; first at D[" << firstRow << "][" << firstColumn << "]: got " << firstGot
      << ", expected " << firstExpected;
  return o.str();
}

nlohmann::ordered_json gemmVerificationToJson(const GemmVerification& v) {
  nlohmann::ordered_json j{{"passed", v.passed},     {"rule", v.rule},
                           {"checked", v.checked},   {"mismatches", v.mismatches},
                           {"maxError", v.maxError}, {"maxBoundRatio", v.maxAllowedRatio}};
  if (!v.passed)
    j["first"] = {{"row", v.firstRow},
                  {"column", v.firstColumn},
                  {"got", v.firstGot},
                  {"expected", v.firstExpected}};
  return j;
}

} // namespace layout::kernels
