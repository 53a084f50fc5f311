// The simulator's DPAS against the independent operand-distribution model
// (tests/support/dpas_operand_model, written from the reference's prose by someone who had not
// read the simulator): the oracle packs random matrices into per-lane registers, the simulator
// multiplies them, and the result must equal the oracle's reference bit for bit, for every type
// and repeat count, including inputs whose sums round.
#include "layout/kernels/xe_simulator.h"
#include "support/dpas_operand_model.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

namespace layout::kernels {
namespace {

using testing::DpasModelType;

struct TypePair {
  codegen::GemmDataType sim;
  DpasModelType model;
};

uint32_t randomElement(DpasModelType t, std::mt19937& rng, bool wide) {
  std::uniform_real_distribution<float> narrow(-1.0f, 1.0f);
  // Wide: magnitudes from 2^-20 to 2^20, so additions round and cancel.
  auto value = [&] {
    const float v = narrow(rng);
    return wide ? std::ldexp(v, static_cast<int>(rng() % 41) - 20) : v;
  };
  switch (t) {
  case DpasModelType::F16:
    return testing::floatToHalfBits(std::ldexp(narrow(rng), static_cast<int>(rng() % 9) - 4));
  case DpasModelType::BF16:
    return testing::floatToBf16Bits(value());
  case DpasModelType::TF32:
    return testing::floatBits(value()); // low mantissa bits set: both sides must drop them
  case DpasModelType::S8:
    return rng() & 0xffu;
  }
  return 0;
}

TEST(DpasSimulation, MatchesTheIndependentOperandModel) {
  const TypePair types[] = {{codegen::GemmDataType::F16, DpasModelType::F16},
                            {codegen::GemmDataType::BF16, DpasModelType::BF16},
                            {codegen::GemmDataType::Int8, DpasModelType::S8},
                            {codegen::GemmDataType::TF32, DpasModelType::TF32}};
  std::mt19937 rng(2026);
  for (const auto& t : types)
    for (int m : {1, 2, 4, 8}) {
      if (t.model == DpasModelType::TF32 && m == 1) continue; // lanes 8-15 ignored: tested below
      for (int trial = 0; trial < 20; ++trial) {
        const int k = testing::dpasK(t.model);
        const bool wide = trial % 2 == 1;
        std::vector<uint32_t> a(m * k), b(k * 16), c(m * 16);
        for (auto& x : a) x = randomElement(t.model, rng, wide);
        for (auto& x : b) x = randomElement(t.model, rng, wide);
        for (auto& x : c)
          x = t.model == DpasModelType::S8
                  ? static_cast<uint32_t>(rng())
                  : testing::floatBits(std::ldexp(std::uniform_real_distribution<float>(-1, 1)(rng),
                                                  wide ? static_cast<int>(rng() % 21) - 10 : 0));
        const auto lanes = testing::packDpasOperands(t.model, m, a, b, c);
        const auto d = simulateDpas(t.sim, m, lanes.a, lanes.b, lanes.c);
        EXPECT_EQ(testing::unpackDpasResult(m, d), testing::referenceDpas(t.model, m, a, b, c))
            << codegen::dataTypeTraits(t.sim).name << " M " << m << " trial " << trial;
      }
    }
}

// Sequential fp32 accumulation in k order is the declared model: 1 + 16 x 2^-24 stays 1 when
// added one term at a time (each addition is a tie that rounds to even), while the exact sum
// 1 + 2^-20 is representable. A model that summed exactly first would give 1 + 2^-20.
TEST(DpasSimulation, AccumulatesOneProductAtATime) {
  std::vector<uint32_t> a(16), b(16 * 16, 0), c(16, 0);
  for (auto& x : a) x = testing::floatToBf16Bits(1.0f);
  c[0] = testing::floatBits(1.0f);
  for (int k = 0; k < 16; ++k) b[k * 16] = testing::floatToBf16Bits(std::ldexp(1.0f, -24));
  const auto lanes = testing::packDpasOperands(DpasModelType::BF16, 1, a, b, c);
  const auto d = simulateDpas(codegen::GemmDataType::BF16, 1, lanes.a, lanes.b, lanes.c);
  EXPECT_EQ(d[0][0], testing::floatBits(1.0f));
}

// At the exponent extremes (bf16 and tf32 have fp32's exponents): 2^64 x 2^64 = 2^128 is beyond
// fp32, yet added exactly to -FLT_MAX = -(2^128 - 2^104) it gives 2^104, where a product rounded
// to fp32 first would give infinity; 2^-80 x 2^-80 added to 2^-126 leaves it. Random products
// from the subnormal range up to 2^120 agree with the independent model bit for bit.
TEST(DpasSimulation, ProductsAreExactAtTheExponentExtremes) {
  for (auto [sim, model] : {std::pair{codegen::GemmDataType::BF16, DpasModelType::BF16},
                            std::pair{codegen::GemmDataType::TF32, DpasModelType::TF32}}) {
    SCOPED_TRACE(codegen::dataTypeTraits(sim).name);
    // clang 14 cannot capture a structured binding: the lambda gets its own copy.
    auto bits = [type = model](float v) {
      return type == DpasModelType::BF16 ? testing::floatToBf16Bits(v) : testing::floatBits(v);
    };
    const int k = testing::dpasK(model);
    std::vector<uint32_t> a(k, bits(0.0f)), b(k * 16, bits(0.0f)), c(16, 0);
    a[0] = b[0] = bits(std::ldexp(1.0f, 64)); // column 0: A[0][0] B[0][0] = 2^128
    c[0] = testing::floatBits(-std::numeric_limits<float>::max());
    a[1] = b[16 + 1] = bits(std::ldexp(1.0f, -80)); // column 1: A[0][1] B[1][1] = 2^-160
    c[1] = testing::floatBits(std::ldexp(1.0f, -126));
    const auto lanes = testing::packDpasOperands(model, 1, a, b, c);
    const auto d = testing::unpackDpasResult(1, simulateDpas(sim, 1, lanes.a, lanes.b, lanes.c));
    EXPECT_EQ(d[0], testing::floatBits(std::ldexp(1.0f, 104)));
    EXPECT_EQ(d[1], testing::floatBits(std::ldexp(1.0f, -126)));
    EXPECT_EQ(d, testing::referenceDpas(model, 1, a, b, c));
  }
  std::mt19937 rng(99);
  auto extreme = [&] {
    const float v = std::uniform_real_distribution<float>(1.0f, 2.0f)(rng);
    const int e = rng() % 2 ? 55 + static_cast<int>(rng() % 5) : -75 + static_cast<int>(rng() % 6);
    return std::ldexp(rng() % 2 ? v : -v, e);
  };
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<uint32_t> a(16), b(16 * 16), c(16);
    for (auto& x : a) x = testing::floatToBf16Bits(extreme());
    for (auto& x : b) x = testing::floatToBf16Bits(extreme());
    for (auto& x : c) x = testing::floatBits(extreme());
    const auto lanes = testing::packDpasOperands(DpasModelType::BF16, 1, a, b, c);
    const auto d = simulateDpas(codegen::GemmDataType::BF16, 1, lanes.a, lanes.b, lanes.c);
    EXPECT_EQ(testing::unpackDpasResult(1, d),
              testing::referenceDpas(DpasModelType::BF16, 1, a, b, c))
        << "trial " << trial;
  }
}

// tf32 with M = 1: the A operand is one float per lane and lanes 8-15 are ignored.
TEST(DpasSimulation, Tf32SingleRowIgnoresUpperLanes) {
  std::mt19937 rng(7);
  std::vector<uint32_t> a(8), b(8 * 16), c(16, 0);
  for (auto& x : a) x = testing::floatBits(std::uniform_real_distribution<float>(-1, 1)(rng));
  for (auto& x : b) x = testing::floatBits(std::uniform_real_distribution<float>(-1, 1)(rng));
  auto lanes = testing::packDpasOperands(DpasModelType::TF32, 1, a, b, c);
  for (int l = 8; l < 16; ++l) lanes.a[l][0] = testing::floatBits(1e30f); // garbage, ignored
  const auto d = simulateDpas(codegen::GemmDataType::TF32, 1, lanes.a, lanes.b, lanes.c);
  EXPECT_EQ(testing::unpackDpasResult(1, d),
            testing::referenceDpas(DpasModelType::TF32, 1, a, b, c));
}

} // namespace
} // namespace layout::kernels
