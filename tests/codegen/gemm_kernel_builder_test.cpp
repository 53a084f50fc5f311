// The GEMM configuration rules and the kernel IR built from liblayout's derivations, checked
// against figures worked out by hand from the XeGPU RFC's GEMM appendix (4096^2, sg_layout
// [8, 4], sg_data [32, 64], K step 32) and the Xe block-I/O rules of the reference.
#include "layout/codegen/cuda_gemm_plan.h"
#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/codegen/opencl_block_builtins.h"
#include "layout/codegen/performance_model.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <random>
#include <set>

namespace layout::codegen {
namespace {

std::string errorOf(const GemmConfig& c) {
  auto e = validateGemmConfig(c);
  return e ? "" : e.error().message;
}

TEST(GemmConfig, DefaultsAreTheRfcTiling) {
  GemmConfig c;
  EXPECT_EQ(c.m, 4096);
  EXPECT_EQ(workgroupTileM(c), 256);
  EXPECT_EQ(workgroupTileN(c), 256);
  EXPECT_EQ(subgroupsPerWorkgroup(c), 32);
  EXPECT_EQ(errorOf(c), "");
}

TEST(GemmConfig, RulesNameTheFieldAndTheRule) {
  GemmConfig c;
  c.sgData = {32, 40};
  EXPECT_EQ(errorOf(c),
            "sg_data[1] = 40: must be a power-of-two multiple of the DPAS execution size 16");
  c = {};
  c.sgData = {12, 64};
  EXPECT_EQ(errorOf(c),
            "sg_data[0] = 12: must be a power-of-two multiple of the DPAS repeat count 8");
  c = {};
  c.sgLayout = {3, 4};
  EXPECT_EQ(errorOf(c),
            "sg_layout[0] = 3: must be a power of two (subgroup ids are linear-layout bits)");
  c = {};
  c.sgLayout = {16, 8};
  EXPECT_EQ(errorOf(c), "sg_layout = [16, 8]: 128 subgroups exceed the workgroup limit of 64 (1024 "
                        "work-items)");
  c = {};
  c.kTile = 24;
  EXPECT_EQ(errorOf(c), "k_tile = 24: must be a power-of-two multiple of bf16 DPAS K 16");
  c = {};
  c.dtype = GemmDataType::Int8;
  c.kTile = 16;
  EXPECT_EQ(errorOf(c), "k_tile = 16: must be a power-of-two multiple of int8 DPAS K 32");
  c = {};
  c.repeatCount = 3;
  EXPECT_EQ(errorOf(c), "repeat_count = 3: the OpenCL DPAS built-ins take M in {1, 2, 4, 8}");
  c = {};
  c.arch = "dg2";
  EXPECT_EQ(
      errorOf(c),
      "arch: unknown target 'dg2' (known: pvc, bmg, arc, nvidia, cdna3, cdna4, or @file.json)");
  // Known targets without what the Xe kernels need: DG2's DPAS is 8 wide and it has no 2D block
  // I/O; NVIDIA has neither.
  for (const char* arch : {"arc", "nvidia"}) {
    c.arch = arch;
    EXPECT_EQ(errorOf(c), "arch '" + std::string(arch) +
                              "': the GEMM kernels need DPAS over 16 lanes and 2D block I/O "
                              "(targets: pvc, bmg)");
  }
  c = {};
  c.k = 0;
  EXPECT_EQ(errorOf(c), "k = 0: must be >= 1");
  c = {};
  c.n = int64_t{1} << 23; // 2^23 f32 columns = 32 MiB rows of C
  EXPECT_NE(errorOf(c).find("2^24"), std::string::npos);
  c = {};
  c.grfPerThread = 192;
  EXPECT_EQ(errorOf(c), "grf_per_thread = 192: target 'pvc' threads have 128 or 256 registers");
}

TEST(GemmConfig, JsonRoundTripAndErrors) {
  GemmConfig c;
  c.m = 1000;
  c.dtype = GemmDataType::Int8;
  c.kTile = 64;
  c.transposeB = true;
  auto back = gemmConfigFromJson(nlohmann::json::parse(gemmConfigToJson(c).dump()));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(gemmConfigToJson(*back), gemmConfigToJson(c));

  auto typo = gemmConfigFromJson(nlohmann::json::parse(R"({"sg_dat": [8, 4]})"));
  ASSERT_FALSE(typo);
  EXPECT_EQ(typo.error().message.rfind("sg_dat: unknown field", 0), 0u);
  auto badType = gemmConfigFromJson(nlohmann::json::parse(R"({"dtype": "fp8"})"));
  ASSERT_FALSE(badType);
  EXPECT_EQ(badType.error().message, "dtype 'fp8': expected one of f16, bf16, int8, tf32");
  auto badPair = gemmConfigFromJson(nlohmann::json::parse(R"({"sg_layout": [8]})"));
  ASSERT_FALSE(badPair);
  EXPECT_EQ(badPair.error().message, "sg_layout: expected an array of 2 integers, got [8]");
  auto notInt = gemmConfigFromJson(nlohmann::json::parse(R"({"m": 1.5})"));
  ASSERT_FALSE(notInt);
  EXPECT_EQ(notInt.error().message, "m: expected an integer, got 1.5");
  // Issue 31: 2^63 was read as -2^63 and reported as such.
  auto huge = gemmConfigFromJson(nlohmann::json::parse(R"({"m": 9223372036854775808})"));
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().message, "m = 9223372036854775808: out of range (at most 2^63 - 1)");
  auto hugePair =
      gemmConfigFromJson(nlohmann::json::parse(R"({"sg_data": [8, 18446744073709551615]})"));
  ASSERT_FALSE(hugePair);
  EXPECT_EQ(hugePair.error().message,
            "sg_data[1] = 18446744073709551615: out of range (at most 2^63 - 1)");
  auto cuda = layout::codegen::cudaGemmConfigFromJson(
      nlohmann::json::parse(R"({"m": 9223372036854775808})"));
  ASSERT_FALSE(cuda);
  EXPECT_EQ(cuda.error().message, "m = 9223372036854775808: out of range (at most 2^63 - 1)");
}

// The RFC's tiling, by hand: a subgroup owns 32 x 64 of D (4 x 4 DPAS tiles of 8 x 16), and per
// K step of 32 reads A 32 x 32 bf16 (2 KiB) and B 32 x 64 bf16 (4 KiB) and issues 4 * 4 * 2 = 32
// DPAS: 192 bytes per DPAS. Accumulators: 32 * 64 * 4 B = 8 KiB = 128 GRF of 64 B; one K step
// of operands: 6 KiB = 96 GRF. Besides the data the check assumes one payload register per block
// message of a K step (1 A load, 2 B loads, 2 prefetches: 5), one for the scalars and 16 for the
// compiler: 224 + 22 = 246 of 256.
TEST(GemmKernelBuilder, RfcTilingReport) {
  GemmConfig c;
  auto k = buildGemmKernel(c);
  ASSERT_TRUE(k) << k.error().message;
  EXPECT_EQ(k->report.dpasPerKStep, 32);
  EXPECT_EQ(k->report.bytesLoadedPerKStep, 6144);
  EXPECT_DOUBLE_EQ(k->report.bytesPerDpas, 192);
  EXPECT_EQ(k->report.accumulatorGrf, 128);
  EXPECT_EQ(k->report.operandGrf, 96);
  EXPECT_EQ(k->report.messageGrf, 5);
  EXPECT_EQ(k->report.scalarGrf, 1);
  EXPECT_EQ(k->report.reservedGrf, 16);
  EXPECT_EQ(k->report.totalGrf, 246);
  EXPECT_EQ(k->report.storesPerSubgroup, 16);
  EXPECT_EQ(k->report.kSteps, 128);
  EXPECT_EQ(k->report.flops, 2.0 * 4096 * 4096 * 4096);
  EXPECT_EQ(k->launch.workgroupsM, 16);
  EXPECT_EQ(k->launch.workgroupsN, 16);
  EXPECT_EQ(k->launch.localSize(), 512);

  // Loads as the reference's quick reference (§6) says Triton picks them: A as 16b_32r16x2c
  // (32 rows, K = 32 as two 16-wide blocks), B as VNNI transform 16b_32r16x2c (two of them
  // for 64 columns); C as one 8 x 16 f32 tile per store.
  std::multiset<std::string> io;
  for (const auto* list : {&k->mainLoop, &k->epilogue})
    for (const Op& op : *list)
      if (const auto* b = std::get_if<BlockIoOp>(&op))
        io.insert(std::string(intel::blockOpName(b->kind)) + " " +
                  std::string(matrixName(b->matrix)) + " " + intel::blockShapeName(b->shape));
  EXPECT_EQ(io.count("load A 16b_32r16x2c"), 1u);
  EXPECT_EQ(io.count("load B transform_16b_32r16x2c"), 2u);
  EXPECT_EQ(io.count("store C 32b_8r16x1c"), 16u);
  EXPECT_EQ(k->report.loadsPerKStep, 3);

  // 16 DPAS tiles x 2 K steps, each used once; 16 accumulators, each zeroed once.
  int dpas = 0;
  std::set<std::tuple<int, int, int>> uses;
  for (const Op& op : k->mainLoop)
    if (const auto* d = std::get_if<DpasOp>(&op)) {
      ++dpas;
      uses.insert({d->accumulator, d->a, d->b});
    }
  EXPECT_EQ(dpas, 32);
  EXPECT_EQ(uses.size(), 32u);
  int zeroed = 0;
  for (const Op& op : k->prologue) zeroed += std::holds_alternative<ZeroOp>(op);
  EXPECT_EQ(zeroed, 16);
  // and the prefetches of K steps 0 and 1 (stages 2): one round of A and one of B each
  EXPECT_EQ(k->prologue.size(), 16u + 2u * 2u);
}

// Subgroup origins: sg_layout [8, 4] is row-major (subgroup id = row * 4 + column), so subgroup
// 5 = (1, 1) owns D rows 32.. and columns 64..; 22 = (5, 2): rows 160.., columns 128...
TEST(GemmKernelBuilder, SubgroupOriginsFollowTheWorkgroupLayout) {
  auto k = buildGemmKernel(GemmConfig{});
  ASSERT_TRUE(k) << k.error().message;
  auto origin = [&](const std::string& name, uint64_t sg) {
    for (const auto& o : k->origins)
      if (o.name == name) {
        std::array<uint64_t, 2> out{};
        o.layout.apply(std::span<const uint64_t>(&sg, 1), out);
        return out;
      }
    ADD_FAILURE() << "no origin " << name;
    return std::array<uint64_t, 2>{};
  };
  EXPECT_EQ(origin("c", 5), (std::array<uint64_t, 2>{32, 64}));
  EXPECT_EQ(origin("c", 22), (std::array<uint64_t, 2>{160, 128}));
  // A is shared along N (the K dim is not split): subgroup 22 reads A rows 160.. from column 0.
  EXPECT_EQ(origin("a", 22), (std::array<uint64_t, 2>{160, 0}));
  // B (K x N) is shared along M: subgroup 22 reads columns 128.. from row 0.
  EXPECT_EQ(origin("b", 22), (std::array<uint64_t, 2>{0, 128}));
}

TEST(GemmKernelBuilder, RegisterFileLimit) {
  GemmConfig c;
  c.grfPerThread = 128;
  auto k = buildGemmKernel(c);
  ASSERT_FALSE(k);
  EXPECT_EQ(k.error().message,
            "registers: the subgroup tile needs 246 GRF (128 accumulators + 96 operands of one K "
            "step + 5 block-I/O payloads + 1 scalars + 16 reserved for the compiler), more than "
            "the 128 of grf_per_thread: shrink sg_data, or use grf_per_thread = 256");
  // At 256 registers the hint does not suggest 256 (issue 17: it did).
  c.grfPerThread = 256;
  c.sgData = {32, 128};
  auto big = buildGemmKernel(c);
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().message.find("or use 256"), std::string::npos) << big.error().message;
}

// tf32 with the RFC tiling and a K step of 32 needs 128 + 192 + 8 + 17 = 345 GRF; the hint names
// the K step that fits: 16 (128 accumulators + 96 operands + 7 messages: one A load, four B loads
// of 16 x 16 dwords, two prefetches; + 17 = 248).
TEST(GemmKernelBuilder, RegisterHintNamesAFittingKStep) {
  GemmConfig c;
  c.dtype = GemmDataType::TF32;
  c.kTile = 32;
  auto k = buildGemmKernel(c);
  ASSERT_FALSE(k);
  EXPECT_NE(k.error().message.find("needs 345 GRF"), std::string::npos) << k.error().message;
  EXPECT_NE(k.error().message.find("k_tile = 16 fits (248 GRF)"), std::string::npos)
      << k.error().message;
  EXPECT_EQ(defaultKTile(GemmDataType::TF32), 16);
  c.kTile = defaultKTile(GemmDataType::TF32);
  EXPECT_TRUE(buildGemmKernel(c));
}

// With 256 registers per thread a workgroup holds at most 32 subgroups of 16 (issue 17: 1024
// work-items hang PVC); with 128 the limit stays 64.
TEST(GemmKernelBuilder, LargeRegisterFileHalvesTheWorkgroup) {
  GemmConfig c;
  c.sgLayout = {8, 8};
  c.sgData = {32, 32};
  auto e = validateGemmConfig(c);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message,
            "sg_layout = [8, 8]: 64 subgroups exceed the 32 (512 work-items) a workgroup may hold "
            "with grf_per_thread = 256 (1024 work-items hang PVC in large-register mode): use at "
            "most 32 subgroups, or grf_per_thread = 128");
  c.grfPerThread = 128;
  EXPECT_TRUE(validateGemmConfig(c));
  c.grfPerThread = 256;
  c.sgLayout = {8, 4};
  EXPECT_TRUE(validateGemmConfig(c));
}

TEST(GemmKernelBuilder, EveryTypeBuilds) {
  for (auto t : {GemmDataType::F16, GemmDataType::BF16, GemmDataType::Int8, GemmDataType::TF32})
    for (bool tb : {false, true}) {
      GemmConfig c;
      c.dtype = t;
      c.transposeB = tb;
      c.kTile = dataTypeTraits(t).dpasK * 2;
      auto k = buildGemmKernel(c);
      EXPECT_TRUE(k) << dataTypeTraits(t).name << " transpose_b " << tb << ": "
                     << (k ? "" : k.error().message);
    }
}

// The surfaces the host lays out: width at least 64 bytes and a multiple of 4, pitch 64-aligned.
TEST(GemmKernelBuilder, MatrixSurfaces) {
  GemmConfig c;
  c.m = 1000;
  c.n = 10;
  c.k = 1001;
  c.dtype = GemmDataType::Int8;
  auto a = matrixSurface(c, MatrixOperand::A);
  EXPECT_EQ(a.widthBytes, 1004);
  EXPECT_EQ(a.pitchBytes, 1024);
  EXPECT_EQ(a.height, 1000);
  auto cs = matrixSurface(c, MatrixOperand::C);
  EXPECT_EQ(cs.widthBytes, 64); // 10 x 4 bytes, widened to the 64-byte minimum
  EXPECT_EQ(cs.pitchBytes, 64);
  c.transposeB = true;
  auto b = matrixSurface(c, MatrixOperand::B);
  EXPECT_EQ(b.height, 10);
  EXPECT_EQ(b.widthBytes, 1004);
}

} // namespace
} // namespace layout::codegen

namespace layout::codegen {
namespace {

// Rows of the OpenCL SPIR-V environment table (reference §3.1), and shapes the hardware takes
// but the extension does not declare.
TEST(OpenClBlockBuiltins, TableOfTheExtension) {
  using intel::BlockOp;
  auto has = [](BlockOp op, int bits, int w, int h, int nb, bool vnni = false, bool tr = false) {
    return hasOpenClBlockBuiltin(op, intel::BlockShape{bits, w, h, nb, tr, vnni});
  };
  EXPECT_TRUE(has(BlockOp::Load, 16, 16, 32, 2));
  EXPECT_TRUE(has(BlockOp::Load, 8, 32, 32, 2));
  EXPECT_TRUE(has(BlockOp::Load, 8, 16, 32, 4, true));
  EXPECT_TRUE(has(BlockOp::Load, 32, 8, 32, 1, false, true));
  EXPECT_TRUE(has(BlockOp::Store, 32, 16, 8, 1));
  EXPECT_TRUE(has(BlockOp::Prefetch, 16, 16, 32, 2));
  EXPECT_FALSE(has(BlockOp::Prefetch, 16, 32, 32, 1));  // 64 B rows, but not an OpenCL built-in
  EXPECT_FALSE(has(BlockOp::Store, 32, 16, 16, 1));     // stores: at most 8 rows
  EXPECT_FALSE(has(BlockOp::Load, 16, 16, 8, 1, true)); // transform: 16 or 32 rows
  EXPECT_FALSE(has(BlockOp::Load, 32, 8, 8, 1, false, true)); // transpose: 16 or 32 rows
  EXPECT_FALSE(has(BlockOp::Load, 16, 16, 24, 1));            // heights are powers of two
}

// Every block op of every kernel the sweep builds must be callable from OpenCL C.
TEST(OpenClBlockBuiltins, EveryKernelUsesDeclaredBuiltins) {
  for (auto t : {GemmDataType::F16, GemmDataType::BF16, GemmDataType::Int8, GemmDataType::TF32})
    for (bool tb : {false, true})
      for (auto [layout, data] :
           {std::pair<std::array<int64_t, 2>, std::array<int64_t, 2>>{{8, 4}, {32, 64}},
            {{2, 2}, {16, 32}},
            {{4, 1}, {8, 16}},
            {{1, 4}, {32, 32}}}) {
        GemmConfig c;
        c.dtype = t;
        c.transposeB = tb;
        c.sgLayout = layout;
        c.sgData = data;
        c.kTile = dataTypeTraits(t).dpasK * 2;
        auto k = buildGemmKernel(c);
        ASSERT_TRUE(k) << gemmConfigToJson(c).dump() << ": " << k.error().message;
        for (const auto* list : {&k->mainLoop, &k->epilogue})
          for (const Op& op : *list) {
            const auto* b = std::get_if<BlockIoOp>(&op);
            if (!b) continue;
            EXPECT_TRUE(hasOpenClBlockBuiltin(b->kind, b->shape))
                << k->name << ": " << intel::blockOpName(b->kind) << " "
                << intel::blockShapeName(b->shape);
          }
      }
}

} // namespace
} // namespace layout::codegen

namespace layout::codegen {
namespace {

// Random configuration JSON (fields from sets of legal, edge and illegal values, sometimes of the
// wrong type): reading and building never crash, and every rejection says why.
TEST(GemmConfigRobustness, RandomConfigurations) {
  std::mt19937 rng(77);
  const int64_t ints[] = {-1,
                          0,
                          1,
                          2,
                          3,
                          4,
                          8,
                          12,
                          16,
                          24,
                          32,
                          40,
                          64,
                          128,
                          256,
                          1000,
                          (int64_t{1} << 24) + 1,
                          int64_t{1} << 31,
                          int64_t{1} << 40};
  const char* keys[] = {
      "m",         "n",       "k",     "k_tile", "repeat_count", "stages", "grf_per_thread",
      "sg_layout", "sg_data", "dtype", "arch",   "transpose_b"};
  auto pick = [&](auto& array) { return array[rng() % std::size(array)]; };
  int built = 0, rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    nlohmann::json j = nlohmann::json::object();
    for (int f = 0, fields = 1 + static_cast<int>(rng() % 6); f < fields; ++f) {
      const std::string key = pick(keys);
      const int kind = static_cast<int>(rng() % 10);
      if (kind == 0)
        j[key] = "x";
      else if (kind == 1)
        j[key] = 2.5;
      else if (key == "sg_layout" || key == "sg_data")
        j[key] = {pick(ints) % 64, pick(ints) % 128};
      else if (key == "dtype")
        j[key] = std::array{"f16", "bf16", "int8", "tf32", "fp8"}[rng() % 5];
      else if (key == "arch")
        j[key] = std::array{"pvc", "bmg", "dg2"}[rng() % 3];
      else if (key == "transpose_b")
        j[key] = rng() % 2 == 0;
      else
        j[key] = pick(ints);
    }
    GemmConfig small;
    small.m = small.n = small.k = 64;
    small.sgLayout = {2, 2};
    small.sgData = {16, 32};
    auto c = gemmConfigFromJson(j, small);
    if (!c) {
      EXPECT_FALSE(c.error().message.empty()) << j.dump();
      ++rejected;
      continue;
    }
    auto k = buildGemmKernel(*c);
    if (k)
      ++built;
    else
      EXPECT_FALSE(k.error().message.empty()) << j.dump();
  }
  EXPECT_GT(built, 100);
  EXPECT_GT(rejected, 100);
}

} // namespace
} // namespace layout::codegen

namespace layout::codegen {
namespace {

// A block op's footprint in its matrix (rows and columns of memory), for subgroup `sg` of
// workgroup (0, 0) at K offset k0: the IR's coordinate rule (constant + k0 where addK + the
// subgroup origin), and the shape's rows x (width x blocks) elements (xDivisor: units of the op).
struct Footprint {
  MatrixOperand matrix;
  int64_t row, col, rows, cols;
};

Footprint footprint(const GemmKernel& k, const BlockIoOp& op, int64_t sg, int64_t k0) {
  auto axis = [&](const AxisIndex& a) {
    int64_t v = a.constant + (a.addK ? k0 : 0);
    if (a.origin >= 0) {
      const uint64_t in = static_cast<uint64_t>(sg);
      std::array<uint64_t, 2> out{};
      k.origins[static_cast<size_t>(a.origin)].layout.apply(std::span<const uint64_t>(&in, 1), out);
      v += static_cast<int64_t>(out[static_cast<size_t>(a.originAxis)]);
    }
    return v;
  };
  return {op.matrix, axis(op.row), axis(op.column), op.shape.tileHeight,
          int64_t{op.shape.tileWidth} * op.shape.numBlocks * op.xDivisor};
}

// Element (matrix, row, column) -> how many footprints cover it.
using Coverage = std::map<std::tuple<int, int64_t, int64_t>, int>;
void cover(Coverage& c, const Footprint& f) {
  for (int64_t r = f.row; r < f.row + f.rows; ++r)
    for (int64_t col = f.col; col < f.col + f.cols; ++col)
      ++c[{static_cast<int>(f.matrix), r, col}];
}

// Issue 17: the cooperative prefetch gives each subgroup its own blocks (no element is prefetched
// twice in one K step), and every element a K step loads was prefetched `stages` steps
// earlier (in the loop), or by the prologue for the first steps.
TEST(GemmKernelBuilder, PrefetchIsDistinctAndAhead) {
  struct Case {
    const char* name;
    GemmConfig c;
  };
  std::vector<Case> cases;
  for (int distance : {1, 2, 3}) {
    GemmConfig rfc;
    rfc.stages = distance;
    cases.push_back({"rfc", rfc});
  }
  GemmConfig small;
  small.sgLayout = {2, 2};
  small.sgData = {32, 64};
  small.stages = 2;
  cases.push_back({"2x2", small});
  GemmConfig bt = small;
  bt.transposeB = true;
  cases.push_back({"2x2 transpose_b", bt});
  GemmConfig i8 = small;
  i8.dtype = GemmDataType::Int8;
  i8.kTile = 64;
  cases.push_back({"2x2 int8", i8});
  for (const Case& t : cases) {
    SCOPED_TRACE(std::string(t.name) + " distance " + std::to_string(t.c.stages));
    auto k = buildGemmKernel(t.c);
    ASSERT_TRUE(k) << k.error().message;
    const int64_t sgs = k->launch.subgroupsPerWorkgroup, d = t.c.stages;
    const int64_t step = t.c.kTile;
    auto footprints = [&](const std::vector<Op>& list, intel::BlockOp kind, int64_t k0) {
      Coverage c;
      for (const Op& op : list)
        if (const auto* b = std::get_if<BlockIoOp>(&op); b && b->kind == kind)
          for (int64_t sg = 0; sg < sgs; ++sg) cover(c, footprint(*k, *b, sg, k0));
      return c;
    };
    // Distinct: in one K step, no element is prefetched twice.
    const Coverage loopPrefetch = footprints(k->mainLoop, intel::BlockOp::Prefetch, 0);
    ASSERT_FALSE(loopPrefetch.empty());
    for (const auto& [element, times] : loopPrefetch) ASSERT_EQ(times, 1);
    // Ahead: what step d loads (at k0 = d * step) is what step 0 prefetched.
    const Coverage loads = footprints(k->mainLoop, intel::BlockOp::Load, d * step);
    for (const auto& [element, times] : loads)
      ASSERT_TRUE(loopPrefetch.count(element))
          << "matrix " << std::get<0>(element) << " (" << std::get<1>(element) << ", "
          << std::get<2>(element) << ") is loaded but not prefetched " << d << " steps earlier";
    // The prologue prefetches what steps 0 .. d - 1 load, each element once.
    const Coverage prologue = footprints(k->prologue, intel::BlockOp::Prefetch, 0);
    for (const auto& [element, times] : prologue) ASSERT_EQ(times, 1);
    for (int64_t s = 0; s < d; ++s)
      for (const auto& [element, times] : footprints(k->mainLoop, intel::BlockOp::Load, s * step))
        ASSERT_TRUE(prologue.count(element)) << "step " << s << " not prefetched by the prologue";
  }
}

// Issue 17: a split work-group barrier brackets each K step when subgroups share a cooperative
// prefetch (arrive first, wait last, once each), and only then.
TEST(GemmKernelBuilder, SplitBarrierAroundTheKStep) {
  auto barriers = [](const GemmKernel& k) {
    std::vector<std::pair<size_t, bool>> at;
    for (size_t i = 0; i < k.mainLoop.size(); ++i)
      if (const auto* b = std::get_if<SplitBarrierOp>(&k.mainLoop[i])) at.push_back({i, b->arrive});
    for (const auto* list : {&k.prologue, &k.epilogue})
      for (const Op& op : *list) EXPECT_FALSE(std::holds_alternative<SplitBarrierOp>(op));
    return at;
  };
  auto k = buildGemmKernel(GemmConfig{});
  ASSERT_TRUE(k) << k.error().message;
  const std::vector<std::pair<size_t, bool>> expected{{0, true}, {k->mainLoop.size() - 1, false}};
  EXPECT_EQ(barriers(*k), expected);
  GemmConfig none;
  none.stages = 0;
  k = buildGemmKernel(none);
  ASSERT_TRUE(k) << k.error().message;
  EXPECT_TRUE(barriers(*k).empty());
  GemmConfig one;
  one.sgLayout = {1, 1};
  k = buildGemmKernel(one);
  ASSERT_TRUE(k) << k.error().message;
  EXPECT_TRUE(barriers(*k).empty());
}

} // namespace
} // namespace layout::codegen

namespace layout::codegen {
namespace {

// The model by hand (docs/reference/intel-xe.md §4.4), RFC tiling, 4096^3 bf16. PVC (Max 1100:
// 56 Xe cores x 4096 FLOP/clk x 1.55 GHz, 1228.8 GB/s): a workgroup's K step is 32 subgroups x 32
// DPAS x 4096 FLOP = 4 MFLOP = 1024 cycles of one core; its tiles (256 + 256) x 32 x 2 B = 32768 B
// at 1228.8 / 56 / 1.55 = 14.157 B/clk take 2314.6 cycles: 1024 / 2314.6 = 44.24 %; 256
// workgroups on 56 cores take 5 waves, 256 / 280 = 91.43 % of the cores busy: 40.45 % without L2
// reuse. With each operand read once, 134 MB take 0.109 ms against 0.387 / 0.9143 ms of DPAS:
// 91.43 %. BMG (B580: 20 x 2048 x 2.85 GHz, 456 GB/s): 2048 cycles against 4096 = 50 %, 256
// workgroups in 13 waves of 20: 98.46 %, so 49.23 %.
TEST(PerformanceModel, HandDerivedBrackets) {
  GemmConfig c;
  auto pvc = buildGemmKernel(c);
  ASSERT_TRUE(pvc) << pvc.error().message;
  auto m = predictPerformance(*pvc);
  ASSERT_TRUE(m);
  EXPECT_NEAR(m->device.peakTflops(), 355.53, 0.01);
  EXPECT_DOUBLE_EQ(m->dpasCyclesPerKStep, 1024);
  EXPECT_DOUBLE_EQ(m->tileBytesPerKStep, 32768);
  EXPECT_NEAR(m->memoryCyclesPerKStep, 2314.6, 0.1);
  EXPECT_NEAR(m->coreUtilization, 256.0 / 280, 1e-12);
  EXPECT_NEAR(m->lowerFraction, 0.4045, 0.0005);
  EXPECT_NEAR(m->upperFraction, 256.0 / 280, 1e-9);
  c.arch = "bmg";
  auto bmg = buildGemmKernel(c);
  ASSERT_TRUE(bmg) << bmg.error().message;
  m = predictPerformance(*bmg);
  ASSERT_TRUE(m);
  EXPECT_DOUBLE_EQ(m->dpasCyclesPerKStep, 2048);
  EXPECT_NEAR(m->memoryCyclesPerKStep, 4096, 0.01);
  EXPECT_NEAR(m->lowerFraction, 0.5 * 256 / 260, 1e-9);
  // No published rates for int8 in the reference: no model rather than a guess.
  c.dtype = GemmDataType::Int8;
  c.kTile = 64;
  auto i8 = buildGemmKernel(c);
  ASSERT_TRUE(i8) << i8.error().message;
  EXPECT_FALSE(predictPerformance(*i8));
}

} // namespace
} // namespace layout::codegen
