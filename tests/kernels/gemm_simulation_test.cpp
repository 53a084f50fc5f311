// Generated GEMM kernels run in the Xe simulator on fresh random inputs and compared with the
// float64 / exact-integer reference (kernels/gemm_verification.h): int8 bit for bit, f16 / bf16
// / tf32 bit for bit on inputs whose partial sums are exact, and within the stated fp32 bound on
// general random inputs. Plus: corrupted kernels must fail, illegal block I/O must be caught.
#include "codegen/gemm_kernel_builder.h"
#include "kernels/gemm_verification.h"
#include "kernels/xe_simulator.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

namespace layout::kernels {
namespace {

using codegen::GemmConfig;
using codegen::GemmDataType;

struct SweepCase {
  GemmDataType dtype;
  int64_t m, n, k;
  std::array<int64_t, 2> sgLayout, sgData;
  int64_t kTileSteps; // k_tile in DPAS K steps
  int repeatCount;
  bool transposeB;
  int prefetch;
};

GemmConfig configOf(const SweepCase& s) {
  GemmConfig c;
  c.dtype = s.dtype;
  c.m = s.m;
  c.n = s.n;
  c.k = s.k;
  c.sgLayout = s.sgLayout;
  c.sgData = s.sgData;
  c.kTile = s.kTileSteps * codegen::dataTypeTraits(s.dtype).dpasK;
  c.repeatCount = s.repeatCount;
  c.transposeB = s.transposeB;
  c.stages = s.prefetch;
  return c;
}

std::string describe(const GemmConfig& c) {
  return codegen::gemmConfigToJson(c).dump();
}

// Builds, simulates on both input kinds (seeded differently per case), verifies.
void expectVerifies(const GemmConfig& c, uint64_t seed,
                    std::initializer_list<InputKind> kinds = {InputKind::ExactSums,
                                                              InputKind::Random}) {
  auto kernel = codegen::buildGemmKernel(c);
  ASSERT_TRUE(kernel) << describe(c) << ": " << kernel.error().message;
  for (InputKind kind : kinds) {
    auto in = makeGemmInputs(c, kind, seed + static_cast<uint64_t>(kind));
    auto stats = simulateGemmKernel(*kernel, in.memory);
    ASSERT_TRUE(stats) << describe(c) << ": " << stats.error().message;
    const auto v = verifyGemm(c, in);
    EXPECT_TRUE(v.passed) << describe(c) << ": " << v.summary();
    EXPECT_EQ(v.checked, c.m * c.n);
    EXPECT_EQ(stats->workgroups, kernel->launch.workgroupsM * kernel->launch.workgroupsN);
  }
}

TEST(GemmSimulation, SweepOfTypesTilingsAndEdges) {
  const std::array<int64_t, 2> l22{2, 2}, l41{4, 1}, l14{1, 4}, l11{1, 1};
  std::vector<SweepCase> cases;
  uint64_t seed = 1;
  for (auto t : {GemmDataType::F16, GemmDataType::BF16, GemmDataType::Int8, GemmDataType::TF32})
    for (bool tb : {false, true}) {
      // Exact multiples of the tiles, ragged edges in every dim, tiny problems, K < k_tile.
      cases.push_back({t, 64, 64, 64, l22, {16, 32}, 1, 8, tb, 1});
      cases.push_back({t, 100, 72, 50, l22, {16, 32}, 2, 8, tb, 1});
      cases.push_back({t, 33, 17, 129, l41, {8, 16}, 1, 8, tb, 0});
      cases.push_back({t, 1, 1, 1, l11, {8, 16}, 1, 8, tb, 1});
      cases.push_back({t, 70, 90, 40, l14, {32, 32}, 2, 4, tb, 2});
      cases.push_back({t, 24, 40, 300, l22, {8, 16}, 4, 2, tb, 1});
    }
  for (const auto& s : cases) expectVerifies(configOf(s), seed++);
}

// Sizes that are not multiples of anything, on the RFC's workgroup tiling (256 x 256, 32
// subgroups): every workgroup on the right and bottom edge is partial.
TEST(GemmSimulation, Rfc1000Cubed) {
  GemmConfig c;
  c.m = c.n = c.k = 1000;
  expectVerifies(c, 11, {InputKind::Random});
}

// The RFC's own example, 4096 x 4096 with its tiling, on a reduced K (one K step of 32).
TEST(GemmSimulation, Rfc4096ReducedK) {
  GemmConfig c;
  c.m = c.n = 4096;
  c.k = 32;
  expectVerifies(c, 12, {InputKind::ExactSums});
}

TEST(GemmSimulation, Int8ExactAtTheAccumulatorLimit) {
  // All -128: every product is 16384, so K = 4096 sums to 2^26, well inside int32 and exact;
  // the random sweep covers mixed signs.
  GemmConfig c;
  c.dtype = GemmDataType::Int8;
  c.m = 64;
  c.n = 64;
  c.k = 4096;
  c.sgLayout = {2, 2};
  c.sgData = {32, 32};
  c.kTile = 64;
  auto kernel = codegen::buildGemmKernel(c);
  ASSERT_TRUE(kernel) << kernel.error().message;
  auto in = makeGemmInputs(c, InputKind::Random, 5);
  std::fill(in.a.begin(), in.a.end(), -128.0);
  std::fill(in.b.begin(), in.b.end(), -128.0);
  for (auto* buf : {&in.memory.a, &in.memory.b})
    for (auto& byte : *buf) byte = 0x80; // padding too: it lies outside the surface width or K
  ASSERT_TRUE(simulateGemmKernel(*kernel, in.memory));
  const auto v = verifyGemm(c, in);
  EXPECT_TRUE(v.passed) << v.summary();
  int32_t d00;
  std::memcpy(&d00, in.memory.c.data(), 4);
  EXPECT_EQ(d00, 4096 * 16384);
}

// The device bound (u = 2^-23, any faithful rounding) admits an error the round-to-nearest bound
// (u = 2^-24) refuses: D[0][0] moved to 1.5 x gamma_24(K') x sum|a b| from the exact sum.
TEST(GemmSimulation, DeviceBoundIsTheFaithfulRoundingBound) {
  GemmConfig c;
  c.m = c.n = 64;
  c.k = 64;
  c.sgLayout = {2, 2};
  c.sgData = {32, 32};
  auto kernel = codegen::buildGemmKernel(c);
  ASSERT_TRUE(kernel) << kernel.error().message;
  auto in = makeGemmInputs(c, InputKind::Random, 8);
  ASSERT_TRUE(simulateGemmKernel(*kernel, in.memory));
  ASSERT_TRUE(verifyGemm(c, in).passed);
  double exact = 0, magnitude = 0;
  for (int64_t k = 0; k < c.k; ++k) {
    exact += in.a[k] * in.b[k * c.n]; // A[0][k] B[k][0]; small K: the double sum is close enough
    magnitude += std::abs(in.a[k] * in.b[k * c.n]);
  }
  const double u = 0x1p-24, gamma24 = 64 * u / (1 - 64 * u);
  const float moved = static_cast<float>(exact + 1.5 * gamma24 * magnitude);
  std::memcpy(in.memory.c.data(), &moved, 4);
  EXPECT_FALSE(verifyGemm(c, in).passed);
  const auto device = verifyGemm(c, in, kFaithfulRoundingUnit);
  EXPECT_TRUE(device.passed) << device.summary();
  EXPECT_NE(device.rule.find("u = 2^-23"), std::string::npos) << device.rule;
}

// Issue 17, tails: the loads read the row padding of A and B (between K x 2 bytes and the 64-byte
// surface width) as data, as the kernel header and plan state, so the host writes zeros there.
// K = 20 bf16 fills 40 of 64 bytes. Finite junk in A's padding alone is harmless (it meets B's
// rows past K, which read as zero), Inf there gives Inf x 0 = NaN, and with B stored N x K both
// paddings meet: junk in them breaks D. Zeros keep D exact.
TEST(GemmSimulation, RowPaddingMustBeZero) {
  GemmConfig c;
  c.m = c.n = 64;
  c.k = 20;
  c.sgLayout = {2, 2};
  c.sgData = {32, 32};
  auto plan = codegen::buildGemmKernel(c);
  ASSERT_TRUE(plan) << plan.error().message;
  const auto json = codegen::kernelPlanToJson(*plan);
  EXPECT_EQ(json["surfaces"]["A"]["rowBytes"], 40);
  EXPECT_EQ(json["surfaces"]["A"]["widthBytes"], 64);
  EXPECT_EQ(json["surfaces"]["paddingMustBeZero"], true);
  struct Case {
    bool transposeB;
    uint8_t junk; // both bytes of each padding bf16: 0x3c3c is 0.0115, 0x7f80 is +Inf
    bool intoB;
    bool passes;
  };
  for (const Case& t : {Case{false, 0x00, false, true}, Case{false, 0x3c, false, true},
                        Case{true, 0x00, true, true}, Case{true, 0x3c, true, false}}) {
    SCOPED_TRACE(std::string(t.transposeB ? "B^T" : "B") + " junk " + std::to_string(t.junk));
    GemmConfig tc = c;
    tc.transposeB = t.transposeB;
    auto kernel = codegen::buildGemmKernel(tc);
    ASSERT_TRUE(kernel) << kernel.error().message;
    auto in = makeGemmInputs(tc, InputKind::ExactSums, 4);
    for (auto m : {codegen::MatrixOperand::A, codegen::MatrixOperand::B}) {
      if (m == codegen::MatrixOperand::B && !t.intoB) continue;
      auto& bytes = m == codegen::MatrixOperand::A ? in.memory.a : in.memory.b;
      const auto s = codegen::matrixSurface(tc, m);
      for (int64_t r = 0; r < s.height; ++r)
        for (int64_t b = 40; b < s.widthBytes; ++b) bytes[r * s.pitchBytes + b] = t.junk;
    }
    ASSERT_TRUE(simulateGemmKernel(*kernel, in.memory));
    EXPECT_EQ(verifyGemm(tc, in).passed, t.passes);
  }
  // Inf in A's padding: Inf x 0 is NaN.
  auto in = makeGemmInputs(c, InputKind::ExactSums, 4);
  const auto s = codegen::matrixSurface(c, codegen::MatrixOperand::A);
  for (int64_t r = 0; r < s.height; ++r)
    for (int64_t b = 40; b < s.widthBytes; b += 2) {
      in.memory.a[r * s.pitchBytes + b] = 0x80;
      in.memory.a[r * s.pitchBytes + b + 1] = 0x7f;
    }
  ASSERT_TRUE(simulateGemmKernel(*plan, in.memory));
  EXPECT_FALSE(verifyGemm(c, in).passed);
}

// The verification is not vacuous: kernels with one wrong derivation must fail it.
TEST(GemmSimulation, CorruptedKernelsFailVerification) {
  GemmConfig c;
  c.m = c.n = 64;
  c.k = 64;
  c.sgLayout = {2, 2};
  c.sgData = {16, 32};
  auto good = codegen::buildGemmKernel(c);
  ASSERT_TRUE(good) << good.error().message;
  auto runs = [&](const codegen::GemmKernel& k) {
    auto in = makeGemmInputs(c, InputKind::Random, 99);
    auto s = simulateGemmKernel(k, in.memory);
    return s && verifyGemm(c, in).passed;
  };
  EXPECT_TRUE(runs(*good));

  auto swapped = *good; // two registers of one DPAS operand exchanged
  for (auto& op : swapped.mainLoop)
    if (auto* s = std::get_if<codegen::ShuffleOp>(&op)) {
      std::swap(s->registers[0], s->registers[1]);
      break;
    }
  EXPECT_FALSE(runs(swapped));

  auto shifted = *good; // a load one K step off
  for (auto& op : shifted.mainLoop)
    if (auto* b = std::get_if<codegen::BlockIoOp>(&op); b && b->kind == intel::BlockOp::Load) {
      b->column.constant += 16;
      break;
    }
  EXPECT_FALSE(runs(shifted));

  auto dropped = *good; // one accumulator tile never stored
  dropped.epilogue.pop_back();
  EXPECT_FALSE(runs(dropped));

  auto rowSwap = *good; // the C origin's row and column exchanged
  for (auto& op : rowSwap.epilogue) std::get<codegen::BlockIoOp>(op).row.originAxis = 1;
  EXPECT_FALSE(runs(rowSwap));
}

TEST(GemmSimulation, IllegalBlockIoIsReported) {
  GemmConfig c;
  c.m = c.n = c.k = 64;
  c.sgLayout = {2, 2};
  c.sgData = {16, 32};
  auto k = codegen::buildGemmKernel(c);
  ASSERT_TRUE(k) << k.error().message;
  for (auto& op : k->mainLoop)
    if (auto* b = std::get_if<codegen::BlockIoOp>(&op);
        b && b->kind == intel::BlockOp::Load && b->matrix == codegen::MatrixOperand::A) {
      b->column.constant += 1; // x = 1: a 16-bit block must start at an even column
      break;
    }
  auto in = makeGemmInputs(c, InputKind::Random, 1);
  auto s = simulateGemmKernel(*k, in.memory);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("workgroup (0, 0), subgroup 0: A load 0: 16b_16r16x2c at (x 1"),
            std::string::npos)
      << s.error().message;

  // A split barrier out of pairs (the wait dropped) is an error of the IR, not a silent no-op.
  auto unpaired = codegen::buildGemmKernel(c);
  ASSERT_TRUE(unpaired) << unpaired.error().message;
  ASSERT_TRUE(std::holds_alternative<codegen::SplitBarrierOp>(unpaired->mainLoop.back()));
  unpaired->mainLoop.pop_back();
  auto u = simulateGemmKernel(*unpaired, in.memory);
  ASSERT_FALSE(u);
  EXPECT_NE(u.error().message.find("split barrier: a second arrive before the wait"),
            std::string::npos)
      << u.error().message;

  GemmMemory small; // buffers smaller than the surfaces
  auto e = simulateGemmKernel(*k, small);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "A buffer: 0 bytes, the surface needs 8192");
}

} // namespace
} // namespace layout::kernels
