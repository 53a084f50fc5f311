// Generated GEMM kernels run in the Xe simulator on fresh random inputs and compared with the
// float64 / exact-integer reference (kernels/gemm_verification.h): int8 bit for bit, f16 / bf16
// / tf32 bit for bit on inputs whose partial sums are exact, and within the stated fp32 bound on
// general random inputs. Plus: corrupted kernels must fail, illegal block I/O must be caught.
#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/kernels/exact_sum.h"
#include "layout/kernels/gemm_verification.h"
#include "layout/kernels/xe_simulator.h"

#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>

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

// Issue 31: the simulation, the inputs and the verification run on several threads; any count
// gives the result of one thread, bit for bit: C, the statistics, every field of the verdict
// (also of a failing one: the first mismatch is the first in row order).
TEST(GemmThreads, ResultsDoNotDependOnTheThreadCount) {
  std::vector<GemmConfig> configs;
  GemmConfig rfc; // 2 x 2 workgroups of 32 subgroups, ragged edges
  rfc.m = 300;
  rfc.n = 260;
  rfc.k = 200;
  configs.push_back(rfc);
  const std::array<int64_t, 2> l22{2, 2}, l41{4, 1};
  for (auto t : {GemmDataType::F16, GemmDataType::Int8, GemmDataType::TF32})
    for (bool tb : {false, true}) {
      configs.push_back(configOf({t, 100, 72, 50, l22, {16, 32}, 2, 8, tb, 1}));
      configs.push_back(configOf({t, 33, 17, 129, l41, {8, 16}, 1, 4, tb, 0}));
    }
  configs.push_back(configOf({GemmDataType::BF16, 24, 40, 300, l22, {8, 16}, 4, 2, false, 1}));
  configs.push_back(configOf({GemmDataType::BF16, 40, 36, 64, l22, {8, 16}, 2, 1, true, 2}));
  uint64_t seed = 300;
  for (const auto& c : configs)
    for (InputKind kind : {InputKind::Random, InputKind::ExactSums}) {
      SCOPED_TRACE(describe(c));
      auto kernel = codegen::buildGemmKernel(c);
      ASSERT_TRUE(kernel) << kernel.error().message;
      GemmInputs one = makeGemmInputs(c, kind, seed, 1), many = makeGemmInputs(c, kind, seed, 3);
      ++seed;
      ASSERT_EQ(one.memory.a, many.memory.a);
      ASSERT_EQ(one.memory.b, many.memory.b);
      ASSERT_EQ(one.memory.c, many.memory.c);
      ASSERT_EQ(one.a, many.a);
      ASSERT_EQ(one.b, many.b);
      WorkProgress progress;
      auto s1 = simulateGemmKernel(*kernel, one.memory, {1, nullptr});
      auto s4 = simulateGemmKernel(*kernel, many.memory, {4, &progress});
      ASSERT_TRUE(s1 && s4);
      EXPECT_EQ(one.memory.c, many.memory.c);
      EXPECT_EQ(s1->threads, 1);
      EXPECT_EQ(s4->threads, std::min<int64_t>(4, s4->subgroups));
      EXPECT_EQ(progress.total.load(), s4->subgroups);
      EXPECT_EQ(progress.done.load(), s4->subgroups);
      for (auto field : {&SimulationStats::workgroups, &SimulationStats::subgroups,
                         &SimulationStats::dpas, &SimulationStats::loads, &SimulationStats::stores,
                         &SimulationStats::prefetches, &SimulationStats::barriers})
        EXPECT_EQ((*s1).*field, (*s4).*field);
      // Some elements wrong, so that the first mismatch and the counts are compared too.
      for (int corrupt : {0, 7}) {
        for (int i = 0; i < corrupt; ++i) {
          const size_t at = (static_cast<size_t>(i) * 7919 * 4) % one.memory.c.size() / 4 * 4;
          one.memory.c[at] ^= static_cast<uint8_t>(1 << i);
          many.memory.c[at] ^= static_cast<uint8_t>(1 << i);
        }
        const auto v1 = verifyGemm(c, one, kRoundToNearestUnit, {}, {1, nullptr});
        const auto v4 = verifyGemm(c, many, kRoundToNearestUnit, {}, {4, &progress});
        EXPECT_EQ(gemmVerificationToJson(v1).dump(), gemmVerificationToJson(v4).dump());
        EXPECT_EQ(v1.summary(), v4.summary());
        EXPECT_EQ(v1.firstRow, v4.firstRow);
        EXPECT_EQ(v1.firstColumn, v4.firstColumn);
        EXPECT_EQ(progress.done.load(), c.m);
        if (corrupt == 0) {
          EXPECT_TRUE(v1.passed) << v1.summary();
        }
      }
    }
}

// The inputs of a seed are those of the single-threaded generator before issue 31 (a hash of
// A, B, C and the reference copies, recorded from it).
TEST(GemmThreads, InputsOfASeedAreUnchanged) {
  auto fnv = [](const void* p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; ++i) {
      h ^= static_cast<const uint8_t*>(p)[i];
      h *= 1099511628211ull;
    }
    return h;
  };
  struct Case {
    GemmDataType type;
    bool transposeB;
    uint64_t hash;
  };
  for (const Case& t : {Case{GemmDataType::BF16, false, 0x1f6308f507902f59ull},
                        Case{GemmDataType::BF16, true, 0x3dc37a7e322b32f1ull},
                        Case{GemmDataType::Int8, false, 0xb19f8737aac4af48ull},
                        Case{GemmDataType::Int8, true, 0x6d5c843793361cdcull}})
    for (int threads : {1, 2, 5}) {
      GemmConfig c;
      c.m = 70;
      c.n = 90;
      c.k = 40;
      c.dtype = t.type;
      c.transposeB = t.transposeB;
      const auto in = makeGemmInputs(c, InputKind::Random, 42, threads);
      const uint64_t h = fnv(in.memory.a.data(), in.memory.a.size()) ^
                         fnv(in.memory.b.data(), in.memory.b.size()) * 3 ^
                         fnv(in.memory.c.data(), in.memory.c.size()) * 5 ^
                         fnv(in.a.data(), in.a.size() * 8) * 7 ^
                         fnv(in.b.data(), in.b.size() * 8) * 11;
      EXPECT_EQ(h, t.hash) << describe(c) << ", " << threads << " threads";
    }
}

// Subgroups whose stores meet (the C origin's row and column exchanged) run one after another,
// in launch order, whatever the thread count: the same C as one thread.
TEST(GemmThreads, OverlappingStoresRunInLaunchOrder) {
  GemmConfig c;
  c.m = c.n = 64;
  c.k = 64;
  c.sgLayout = {2, 2};
  c.sgData = {16, 32};
  auto kernel = codegen::buildGemmKernel(c);
  ASSERT_TRUE(kernel) << kernel.error().message;
  for (auto& op : kernel->epilogue) std::get<codegen::BlockIoOp>(op).row.originAxis = 1;
  auto one = makeGemmInputs(c, InputKind::Random, 5),
       many = makeGemmInputs(c, InputKind::Random, 5);
  auto s1 = simulateGemmKernel(*kernel, one.memory, {1, nullptr});
  auto s4 = simulateGemmKernel(*kernel, many.memory, {4, nullptr});
  ASSERT_TRUE(s1 && s4);
  EXPECT_EQ(s4->threads, 1);
  EXPECT_EQ(one.memory.c, many.memory.c);
}

// An illegal request is reported for the first subgroup in launch order that makes it, with any
// thread count: here A's loads of rows past 2^31 - 1 - 100 break the 32-bit coordinate rule, from
// workgroup row 3 (rows 96..127) on, so later subgroups fail too (and may fail first).
TEST(GemmThreads, TheFirstErrorInLaunchOrderIsReported) {
  GemmConfig c;
  c.m = 256;
  c.n = 128;
  c.k = 64;
  c.sgLayout = {2, 2};
  c.sgData = {16, 32};
  auto k = codegen::buildGemmKernel(c);
  ASSERT_TRUE(k) << k.error().message;
  for (auto& op : k->mainLoop)
    if (auto* b = std::get_if<codegen::BlockIoOp>(&op);
        b && b->kind == intel::BlockOp::Load && b->matrix == codegen::MatrixOperand::A) {
      b->row.constant += std::numeric_limits<int32_t>::max() - 100;
      break;
    }
  std::string first;
  for (int threads : {1, 2, 4}) {
    auto in = makeGemmInputs(c, InputKind::Random, 1);
    auto s = simulateGemmKernel(*k, in.memory, {threads, nullptr});
    ASSERT_FALSE(s);
    if (first.empty()) first = s.error().message;
    EXPECT_EQ(s.error().message, first) << threads << " threads";
  }
  EXPECT_NE(first.find("workgroup (3, 0), subgroup "), std::string::npos) << first;
  EXPECT_NE(first.find("is outside the signed 32-bit coordinate range"), std::string::npos)
      << first;
}

// The verification before issue 31, element by element with the multiprecision accumulator: the
// reference the vector path must reproduce bit for bit.
GemmVerification referenceVerify(const GemmConfig& c, const GemmInputs& in, double unitRoundoff,
                                 std::span<const int64_t> rows = {}) {
  GemmVerification v;
  const bool isInt = c.dtype == GemmDataType::Int8;
  const bool exact = isInt || in.kind == InputKind::ExactSums;
  const int64_t kAccumulated = (c.k + c.kTile - 1) / c.kTile * c.kTile;
  auto gamma = [](double n, double u) { return n * u / (1 - n * u); };
  const double g = gamma(static_cast<double>(kAccumulated), unitRoundoff) *
                   (1 + gamma(static_cast<double>(c.k), 0x1p-53));
  const int64_t pitchC = codegen::matrixSurface(c, codegen::MatrixOperand::C).pitchBytes;
  int lo = 0, hi = 0; // the products' exponent range, as verifyGemm has always computed it
  for (const auto* values : {&in.a, &in.b}) {
    int vlo = 0, vhi = -1100;
    bool vany = false;
    for (double x : *values) {
      if (x == 0) continue;
      int e = 0;
      std::frexp(x, &e);
      vhi = std::max(vhi, e);
      const int low = ExactSum::lowestBitExponent(x);
      vlo = vany ? std::min(vlo, low) : low;
      vany = true;
    }
    lo += vany ? vlo : 0;
    hi += vany ? vhi : 0;
  }
  const int64_t rowCount = rows.empty() ? c.m : static_cast<int64_t>(rows.size());
  for (int64_t r = 0; r < rowCount; ++r) {
    const int64_t i = rows.empty() ? r : rows[static_cast<size_t>(r)];
    if (i < 0 || i >= c.m) continue;
    for (int64_t j = 0; j < c.n; ++j) {
      ExactSum sum(lo, hi + 1);
      double absSum = 0;
      int64_t isum = 0;
      for (int64_t k = 0; k < c.k; ++k) {
        const double a = in.a[i * c.k + k], b = in.b[k * c.n + j];
        if (isInt) {
          isum += static_cast<int64_t>(a) * static_cast<int64_t>(b);
        } else if (a != 0) {
          sum.add(a * b);
          absSum += std::fabs(a * b);
        }
      }
      uint32_t bits;
      std::memcpy(&bits, &in.memory.c[i * pitchC + j * 4], 4);
      double got, expected;
      bool ok;
      if (isInt) {
        const int32_t want = static_cast<int32_t>(static_cast<uint32_t>(isum));
        got = static_cast<int32_t>(bits);
        expected = want;
        ok = static_cast<int32_t>(bits) == want;
      } else {
        got = std::bit_cast<float>(bits);
        expected = sum.rounded();
        const double err = std::fabs(got - expected);
        if (exact) {
          ok = got == expected;
        } else {
          const double allowed = g * absSum + 0x1p-53 * std::fabs(expected);
          ok = err <= allowed;
          if (allowed > 0) v.maxAllowedRatio = std::max(v.maxAllowedRatio, err / allowed);
        }
        if (!std::isnan(err)) v.maxError = std::max(v.maxError, err);
      }
      ++v.checked;
      if (!ok && v.mismatches++ == 0) {
        v.firstRow = i;
        v.firstColumn = j;
        v.firstGot = got;
        v.firstExpected = expected;
      }
    }
  }
  v.passed = v.mismatches == 0;
  return v;
}

void expectSameVerdict(const GemmVerification& want, const GemmVerification& got) {
  EXPECT_EQ(got.passed, want.passed);
  EXPECT_EQ(got.checked, want.checked);
  EXPECT_EQ(got.mismatches, want.mismatches);
  EXPECT_EQ(std::bit_cast<uint64_t>(got.maxError), std::bit_cast<uint64_t>(want.maxError))
      << got.maxError << " vs " << want.maxError;
  EXPECT_EQ(std::bit_cast<uint64_t>(got.maxAllowedRatio),
            std::bit_cast<uint64_t>(want.maxAllowedRatio))
      << got.maxAllowedRatio << " vs " << want.maxAllowedRatio;
  EXPECT_EQ(got.firstRow, want.firstRow);
  EXPECT_EQ(got.firstColumn, want.firstColumn);
  EXPECT_EQ(std::bit_cast<uint64_t>(got.firstGot), std::bit_cast<uint64_t>(want.firstGot));
  EXPECT_EQ(std::bit_cast<uint64_t>(got.firstExpected),
            std::bit_cast<uint64_t>(want.firstExpected));
}

// The vector reference (one, two or three binary64 levels) and the multiprecision fallback agree
// with the element-by-element reference on every field, for inputs whose products span 22 to
// 135 bits (a tiny value in A widens the span), results near and far from the exact sums, every
// type, sampled rows, and 1 to 4 threads.
TEST(GemmThreads, VectorReferenceMatchesTheExactSum) {
  struct Case {
    GemmDataType type;
    double tiny; // put into A[1][3] (0: none); 1 + 2^-40 is no fp32 value (the fallback)
    int64_t k;
  };
  const std::vector<Case> cases = {
      {GemmDataType::BF16, 0, 64},           {GemmDataType::BF16, 0x1p-50, 64},
      {GemmDataType::BF16, 0x1p-96, 64},     {GemmDataType::BF16, 0x1p-120, 64},
      {GemmDataType::F16, 0, 300},           {GemmDataType::TF32, 0x1.8p-90, 33},
      {GemmDataType::BF16, 1 + 0x1p-40, 20}, {GemmDataType::Int8, 0, 77},
      {GemmDataType::Int8, 0.5, 12}};
  uint64_t seed = 900;
  for (const Case& t : cases)
    for (InputKind kind : {InputKind::Random, InputKind::ExactSums}) {
      GemmConfig c;
      c.dtype = t.type;
      c.m = 37;
      c.n = 45;
      c.k = t.k;
      c.kTile = codegen::dataTypeTraits(t.type).dpasK;
      SCOPED_TRACE(describe(c) + " tiny " + std::to_string(t.tiny));
      auto in = makeGemmInputs(c, kind, seed++);
      if (t.tiny != 0) in.a[1 * c.k + 3] = t.tiny;
      // C: the fp32 rounding of a float64 sum, with a few elements far off and one NaN.
      const int64_t pitchC = codegen::matrixSurface(c, codegen::MatrixOperand::C).pitchBytes;
      for (int64_t i = 0; i < c.m; ++i)
        for (int64_t j = 0; j < c.n; ++j) {
          double s = 0;
          for (int64_t k = 0; k < c.k; ++k) s += in.a[i * c.k + k] * in.b[k * c.n + j];
          uint32_t bits = t.type == GemmDataType::Int8
                              ? static_cast<uint32_t>(static_cast<int32_t>(s))
                              : std::bit_cast<uint32_t>(static_cast<float>(s));
          if ((i * 31 + j) % 97 == 5) bits ^= 0x00400000u;
          if (i == 20 && j == 7 && t.type != GemmDataType::Int8) bits = 0x7fc00000u;
          std::memcpy(&in.memory.c[i * pitchC + j * 4], &bits, 4);
        }
      const std::vector<int64_t> sample{30, 2, 30, -1, 36, 1000};
      for (double u : {kRoundToNearestUnit, kFaithfulRoundingUnit}) {
        const auto want = referenceVerify(c, in, u);
        EXPECT_FALSE(want.passed);
        for (int threads : {1, 4}) {
          SCOPED_TRACE(std::to_string(threads) + " threads, u " + std::to_string(u));
          expectSameVerdict(want, verifyGemm(c, in, u, {}, {threads, nullptr}));
          expectSameVerdict(referenceVerify(c, in, u, sample),
                            verifyGemm(c, in, u, sample, {threads, nullptr}));
        }
      }
    }
}

} // namespace
} // namespace layout::kernels
