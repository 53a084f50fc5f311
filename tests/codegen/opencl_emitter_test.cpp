// The OpenCL C emitter and the offline SPIR-V step: the source names the Intel built-ins the IR
// uses, clang-14 + llvm-spirv-14 compile it, spirv-val (OpenCL 2.2) accepts the module, and the
// module imports every built-in under its Itanium-mangled OpenCL name.
//
// Without clang-14, llvm-spirv-14, spirv-val or spirv-dis the compiling tests are skipped, unless
// LAYOUT_REQUIRE_SPIRV is set (CI), where they fail.
#include "layout/codegen/block_load_probe.h"
#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/codegen/opencl_emitter.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace layout::codegen {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> missingTool() {
  if (auto m = missingSpirvTool()) return m;
  if (!spirvToolAvailable("spirv-dis")) return std::string("spirv-dis");
  return std::nullopt;
}

#define REQUIRE_SPIRV_TOOLS()                                                                      \
  do {                                                                                             \
    if (auto missing_ = missingTool()) {                                                           \
      if (std::getenv("LAYOUT_REQUIRE_SPIRV"))                                                     \
        FAIL() << *missing_ << " not found and LAYOUT_REQUIRE_SPIRV is set";                       \
      GTEST_SKIP() << *missing_ << " not found (set LAYOUT_REQUIRE_SPIRV to fail instead)";        \
    }                                                                                              \
  } while (0)

std::string disassemble(const std::string& spv) {
  std::string out;
  FILE* p = popen(("spirv-dis '" + spv + "' 2>&1").c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// The Itanium prefix of an OpenCL built-in: _Z<length><name> (the parameter types follow).
std::string mangledPrefix(const std::string& name) {
  return "_Z" + std::to_string(name.size()) + name;
}

// Whether the disassembly imports a function whose mangled name starts with `prefix`.
bool importsMangled(const std::string& dis, const std::string& prefix) {
  std::istringstream in(dis);
  for (std::string line; std::getline(in, line);)
    if (line.find("LinkageAttributes \"" + prefix) != std::string::npos &&
        line.find("Import") != std::string::npos)
      return true;
  return false;
}

size_t countOf(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}

// Every built-in the IR uses.
std::set<std::string> builtinsOf(const GemmKernel& k) {
  std::set<std::string> names;
  for (const auto* list : {&k.prologue, &k.mainLoop, &k.epilogue})
    for (const Op& op : *list) {
      if (const auto* b = std::get_if<BlockIoOp>(&op)) names.insert(openclBlockBuiltinName(*b));
      if (std::holds_alternative<DpasOp>(op))
        names.insert(std::string(dataTypeTraits(k.config.dtype).openclMad));
    }
  return names;
}

size_t dpasCount(const GemmKernel& k) {
  size_t n = 0;
  for (const Op& op : k.mainLoop) n += std::holds_alternative<DpasOp>(op);
  return n;
}

// Without spaces and newlines: the checks do not depend on where the emitter wraps lines.
std::string squash(const std::string& s) {
  std::string out;
  for (char ch : s)
    if (ch != ' ' && ch != '\n') out += ch;
  return out;
}

std::string configText(const GemmConfig& c) {
  return gemmConfigToJson(c).dump();
}

class OpenClEmitter : public ::testing::Test {
protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "opencl_emitter_test_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    if (HasFailure() && !fs::is_empty(dir_, ec))
      std::cerr << "modules kept in " << dir_ << "\n";
    else
      fs::remove_all(dir_, ec);
  }

  // Emits, compiles and validates; checks the source and the module's imports. Returns the
  // source.
  std::string compileAndCheck(const GemmKernel& k) {
    const std::string source = emitOpenCl(k);
    const std::string what = k.name + " " + configText(k.config);
    auto spirv = compileToSpirv(source, k.name, dir_);
    if (!spirv) {
      ADD_FAILURE() << what << ": " << spirv.error().message;
      return source;
    }
    EXPECT_GT(spirv->size(), 20u) << what;
    if (spirv->size() >= 4) { // SPIR-V magic, little-endian
      const auto& b = *spirv;
      EXPECT_EQ(uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24,
                0x07230203u)
          << what;
    }
    const std::string spv = dir_ + "/" + k.name + ".spv";
    if (auto e = validateSpirv(spv); !e) ADD_FAILURE() << what << ": " << e.error().message;
    const std::string dis = disassemble(spv);
    EXPECT_NE(dis.find("OpEntryPoint Kernel"), std::string::npos) << what;
    EXPECT_NE(dis.find("\"" + k.name + "\""), std::string::npos) << what;
    EXPECT_NE(dis.find("SubgroupSize 16"), std::string::npos) << what;
    EXPECT_NE(dis.find("LocalSize " + std::to_string(k.launch.localSize()) + " 1 1"),
              std::string::npos)
        << what;
    for (const auto* list : {&k.prologue, &k.mainLoop, &k.epilogue})
      for (const Op& op : *list)
        if (const auto* b = std::get_if<BlockIoOp>(&op)) {
          EXPECT_TRUE(openclBlockShape(*b))
              << what << ": OpenCL has no built-in for the " << intel::blockOpName(b->kind) << " "
              << intel::blockShapeName(b->shape);
        }
    for (const auto& name : builtinsOf(k)) {
      EXPECT_NE(source.find(name + "("), std::string::npos) << what << ": " << name;
      EXPECT_TRUE(importsMangled(dis, mangledPrefix(name)))
          << what << ": the module does not import " << mangledPrefix(name) << "...";
    }
    EXPECT_EQ(countOf(source, " = " + std::string(dataTypeTraits(k.config.dtype).openclMad) + "("),
              dpasCount(k))
        << what;
    return source;
  }

  std::string dir_;
};

// A hand-built kernel: bf16, two subgroups stacked along M, one 8 x 16 DPAS tile each, K step 16.
GemmKernel handBuiltBf16() {
  GemmKernel k;
  k.config.m = k.config.n = k.config.k = 64;
  k.config.sgLayout = {2, 1};
  k.config.sgData = {8, 16};
  k.config.kTile = 16;
  k.config.stages = 0;
  k.name = "hand_bf16";
  k.launch = {4, 4, 2, 16};
  k.values = {
      {"acc0", ValueRole::Accumulator, 32, 8, "lane n, element r = D[r][n]"},
      {"a_load0", ValueRole::LoadResult, 16, 8, "16b_8r16x1c: lane l, element r = A[r][l]"},
      {"b_load0", ValueRole::LoadResult, 32, 8, "transform_16b_16r16x1c: VNNI dwords"},
      {"a_op0", ValueRole::DpasA, 16, 8, "DPAS A"},
      {"b_op0", ValueRole::DpasB, 32, 8, "DPAS B (VNNI)"},
  };
  auto rows = LinearLayout::create({{dims::warp(), {{8, 0}}}},
                                   {{dims::standardOut(0), 16}, {dims::standardOut(1), 16}});
  auto none = LinearLayout::create({{dims::warp(), {{0, 0}}}},
                                   {{dims::standardOut(0), 16}, {dims::standardOut(1), 16}});
  k.origins = {{"a", *rows}, {"b", *none}, {"c", *rows}};
  k.prologue = {ZeroOp{0}};
  BlockIoOp a{intel::BlockOp::Load,
              MatrixOperand::A,
              {16, 16, 8, 1, false, false},
              {WorkgroupTerm::RowTile, false, 0, 0, 0},
              {WorkgroupTerm::None, true, 0, 1, 0},
              1,
              1,
              "A load 0"};
  BlockIoOp b{intel::BlockOp::Load,
              MatrixOperand::B,
              {16, 16, 16, 1, false, true},
              {WorkgroupTerm::None, true, 1, 0, 0},
              {WorkgroupTerm::ColumnTile, false, 1, 1, 0},
              1,
              2,
              "B load 0"};
  BlockIoOp pf{intel::BlockOp::Prefetch,
               MatrixOperand::A,
               {16, 16, 8, 1, false, false},
               {WorkgroupTerm::RowTile, false, 0, 0, 0},
               {WorkgroupTerm::None, true, 0, 1, 16},
               1,
               -1,
               "prefetch"};
  k.mainLoop = {pf,
                a,
                b,
                ShuffleOp{3, 1, 16, {0, 1, 2, 3, 4, 5, 6, 7}, "A operand"},
                ShuffleOp{4, 2, 32, {0, 1, 2, 3, 4, 5, 6, 7}, "B operand"},
                DpasOp{0, 3, 4, 0, 0, 0}};
  BlockIoOp st{intel::BlockOp::Store,
               MatrixOperand::C,
               {32, 16, 8, 1, false, false},
               {WorkgroupTerm::RowTile, false, 2, 0, 0},
               {WorkgroupTerm::ColumnTile, false, 2, 1, 0},
               1,
               0,
               "D tile"};
  k.epilogue = {st};
  return k;
}

TEST_F(OpenClEmitter, HandBuiltKernelSource) {
  const std::string s = emitOpenCl(handBuiltBf16());
  for (const char* expected : {
           "void __attribute__((overloadable))\nintel_sub_group_2d_block_read_16b_8r16x1c(global "
           "void* base_address, int width, int height, int pitch, int2 coord, private ushort* "
           "destination);",
           "intel_sub_group_2d_block_read_transform_16b_16r16x1c(global void* base_address, int "
           "width, int height, int pitch, int2 coord, private uint* destination);",
           "intel_sub_group_2d_block_write_32b_8r16x1c(global void* base_address, int width, int "
           "height, int pitch, int2 coord, private uint* data);",
           "intel_sub_group_2d_block_prefetch_16b_8r16x1c(global void* base_address, int width, "
           "int height, int pitch, int2 coord);",
           "float8 __attribute__((overloadable))\nintel_sub_group_bf16_bf16_matrix_mad_k16(short8 "
           "a, int8 b, float8 acc);",
           "__attribute__((intel_reqd_sub_group_size(16)))\n"
           "__attribute__((reqd_work_group_size(32, 1, 1)))\n"
           "kernel void hand_bf16(global ushort* A, global ushort* B, global float* C, int K,",
           "const int wg_row = (int)get_group_id(1) * 16;",
           "const int wg_col = (int)get_group_id(0) * 16;",
           "const int sg = (int)get_sub_group_id();",
           "const int a_row = ((sg & 1) ? 8 : 0);",
           "const int a_col = 0;",
           "const int b_row = 0;",
           "float8 acc0 = (float8)(0.0f);",
           "for (int k0 = 0; k0 < K; k0 += 16) {",
           "intel_sub_group_2d_block_prefetch_16b_8r16x1c(A, a_width, a_height, a_pitch, "
           "(int2)(k0 + a_col + 16, wg_row + a_row));",
           "ushort a_load0[8];",
           "intel_sub_group_2d_block_read_16b_8r16x1c(A, a_width, a_height, a_pitch, "
           "(int2)(k0 + a_col, wg_row + a_row), a_load0);",
           "uint b_load0[8];",
           "(int2)(wg_col + b_col, k0 + b_row), b_load0);",
           "short8 a_op0 = as_short8(\n",
           "a_load0[0], a_load0[1], a_load0[2]",
           "int8 b_op0 = as_int8((uint8)(",
           "acc0 = intel_sub_group_bf16_bf16_matrix_mad_k16(a_op0, b_op0, acc0);",
           "uint8 stored = as_uint8(acc0);",
           "intel_sub_group_2d_block_write_32b_8r16x1c(C, c_width, c_height, c_pitch, "
           "(int2)(wg_col + c_col, wg_row + c_row), (private uint*)&stored);",
           "// a_load0: 16b_8r16x1c: lane l, element r = A[r][l]",
       })
    EXPECT_NE(squash(s).find(squash(expected)), std::string::npos)
        << "missing: " << expected << "\n"
        << s;
  // The accumulator store is after the loop; the loads inside it.
  EXPECT_LT(s.find("for (int k0"), s.find("ushort a_load0[8];"));
  EXPECT_LT(s.find("\n  }\n"), s.find("intel_sub_group_2d_block_write_32b_8r16x1c(C"));
}

TEST_F(OpenClEmitter, ShufflesCombineAndSplitUnits) {
  GemmKernel k = handBuiltBf16();
  // 16-bit units from a uchar array (low byte first), and 16-bit units cut from a uint array.
  k.values.push_back({"bytes", ValueRole::LoadResult, 8, 32, ""});
  k.values.push_back({"a_op1", ValueRole::DpasA, 16, 8, ""});
  k.values.push_back({"a_op2", ValueRole::DpasA, 16, 8, ""});
  k.values.push_back({"b_op1", ValueRole::DpasB, 32, 8, ""});
  BlockIoOp bytes{intel::BlockOp::Load,
                  MatrixOperand::A,
                  {8, 16, 8, 4, false, false},
                  {WorkgroupTerm::RowTile, false, 0, 0, 0},
                  {WorkgroupTerm::None, true, 0, 1, 0},
                  1,
                  5,
                  "uchar load"};
  k.mainLoop.insert(k.mainLoop.begin() + 3, bytes);
  // A prefetch shape OpenCL lacks (16-bit, 32 wide): issued as two 16-wide blocks.
  BlockIoOp wide{intel::BlockOp::Prefetch,
                 MatrixOperand::B,
                 {16, 32, 8, 1, false, false},
                 {WorkgroupTerm::None, true, 1, 0, 16},
                 {WorkgroupTerm::ColumnTile, false, 1, 1, 0},
                 1,
                 -1,
                 "wide prefetch"};
  k.mainLoop.insert(k.mainLoop.begin(), wide);
  k.mainLoop.push_back(ShuffleOp{6, 5, 16, {0, 1, 2, 3, 4, 5, 6, 7}, ""});
  k.mainLoop.push_back(ShuffleOp{7, 2, 16, {1, 2, 3, 4, 5, 6, 7, 8}, ""});
  k.mainLoop.push_back(ShuffleOp{8, 2, 32, {7, 6, 5, 4, 3, 2, 1, 0}, ""});
  k.mainLoop.push_back(DpasOp{0, 6, 8, 0, 0, 1});
  k.mainLoop.push_back(DpasOp{0, 7, 8, 0, 0, 1});
  const std::string s = emitOpenCl(k);
  for (const char* expected : {
           "uchar bytes[32];",
           "// issued as 16b_8r16x2c, the same footprint: OpenCL has no 16b_8r32x1c prefetch",
           "intel_sub_group_2d_block_prefetch_16b_8r16x2c(B, b_width, b_height, b_pitch, "
           "(int2)(wg_col + b_col, k0 + b_row + 16));",
           "(ushort)((ushort)bytes[0] | ((ushort)bytes[1] << 8))",
           "(ushort)((ushort)bytes[14] | ((ushort)bytes[15] << 8))",
           "(ushort)(b_load0[0] >> 16)",
           "(ushort)b_load0[1]",
           "(ushort)(b_load0[3] >> 16)",
           "int8 b_op1 = as_int8((uint8)(b_load0[7], b_load0[6]",
       })
    EXPECT_NE(squash(s).find(squash(expected)), std::string::npos)
        << "missing: " << expected << "\n"
        << s;
  REQUIRE_SPIRV_TOOLS();
  k.name = "hand_shuffles";
  compileAndCheck(k);
}

TEST(OpenClEmitterShapes, PrefetchesWithoutABuiltinKeepTheirFootprint) {
  using intel::BlockOp;
  using S = intel::BlockShape;
  // A prefetch without a built-in is issued with the same footprint; loads are not rewritten.
  BlockIoOp op;
  op.kind = BlockOp::Prefetch;
  op.shape = S{16, 32, 32, 1, false, false};
  EXPECT_EQ(openclBlockBuiltinName(op), "intel_sub_group_2d_block_prefetch_16b_32r16x2c");
  op.shape = S{8, 64, 32, 1, false, false};
  EXPECT_EQ(openclBlockBuiltinName(op), "intel_sub_group_2d_block_prefetch_8b_32r32x2c");
  op.kind = BlockOp::Load;
  op.shape = S{16, 32, 32, 1, false, false};
  EXPECT_FALSE(openclBlockShape(op));
  op.shape = S{16, 16, 8, 2, false, false};
  EXPECT_EQ(openclBlockBuiltinName(op), "intel_sub_group_2d_block_read_16b_8r16x2c");
}

TEST_F(OpenClEmitter, HandBuiltKernelCompiles) {
  REQUIRE_SPIRV_TOOLS();
  compileAndCheck(handBuiltBf16());
}

TEST_F(OpenClEmitter, ToolchainErrorsNameTheToolAndQuoteIt) {
  SpirvToolchain missing;
  missing.clang = "clang-that-does-not-exist-14";
  auto r = compileToSpirv("kernel void k() {}", "k", dir_, missing);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("clang-that-does-not-exist-14 not found"), std::string::npos)
      << r.error().message;
  EXPECT_EQ(missingSpirvTool(missing), std::optional<std::string>("clang-that-does-not-exist-14"));
  missing = {};
  missing.spirvVal = "/nonexistent/spirv-val";
  auto e = validateSpirv(dir_ + "/k.spv", missing);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("/nonexistent/spirv-val not found"), std::string::npos)
      << e.error().message;
  EXPECT_FALSE(compileToSpirv("", "a/b", dir_));

  REQUIRE_SPIRV_TOOLS();
  auto bad = compileToSpirv("kernel void k() { undeclared_thing(); }", "bad", dir_);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("clang-14 failed"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("undeclared_thing"), std::string::npos) << bad.error().message;
  // A file that is not SPIR-V.
  { std::ofstream(dir_ + "/junk.spv") << "not a module, not a module"; }
  auto invalid = validateSpirv(dir_ + "/junk.spv");
  ASSERT_FALSE(invalid);
  EXPECT_NE(invalid.error().message.find("spirv-val failed"), std::string::npos)
      << invalid.error().message;
}

// The RFC's default configuration (bf16, 4096^3, sg_layout [8, 4], sg_data [32, 64], k 32).
TEST_F(OpenClEmitter, RfcDefaultBf16) {
  auto k = buildGemmKernel(GemmConfig{});
  ASSERT_TRUE(k) << k.error().message;
  const std::string s = emitOpenCl(*k);
  for (const char* name :
       {"intel_sub_group_2d_block_read_16b_32r16x2c",
        "intel_sub_group_2d_block_read_transform_16b_32r16x2c",
        "intel_sub_group_bf16_bf16_matrix_mad_k16", "intel_sub_group_2d_block_write_32b_8r16x1c"})
    EXPECT_NE(s.find(std::string(name) + "("), std::string::npos) << name << "\n" << s;
  EXPECT_NE(s.find("reqd_work_group_size(512, 1, 1)"), std::string::npos);
  // The build options travel with the artifacts (issue 17).
  EXPECT_NE(s.find("// Build options (grf_per_thread = 256): OpenCL -cl-intel-256-GRF-per-thread; "
                   "Level Zero -ze-opt-large-register-file."),
            std::string::npos);
  const auto plan = kernelPlanToJson(*k);
  EXPECT_EQ(plan["buildOptions"]["levelZero"], "-ze-opt-large-register-file");
  EXPECT_EQ(plan["buildOptions"]["opencl"], "-cl-intel-256-GRF-per-thread");
  GemmConfig small;
  small.grfPerThread = 128;
  small.sgData = {16, 32};
  EXPECT_EQ(kernelBuildOptions(small).openCl, "-cl-intel-128-GRF-per-thread");
  EXPECT_EQ(kernelBuildOptions(small).levelZero, "");
  EXPECT_NE(s.find("kernel void " + k->name +
                   "(global ushort* A, global ushort* B, global "
                   "float* C, int K,"),
            std::string::npos);
  EXPECT_NE(s.find("for (int k0 = 0; k0 < K; k0 += 32) {"), std::string::npos);
  EXPECT_EQ(countOf(s, " = intel_sub_group_bf16_bf16_matrix_mad_k16("), 32u);
  // The split barrier brackets the K step: arrive first in the loop body, wait last.
  const size_t loop = s.find("for (int k0 = 0; k0 < K; k0 += 32) {");
  const size_t arrive = s.find("intel_work_group_barrier_arrive(0);", loop);
  const size_t wait = s.find("intel_work_group_barrier_wait(0);", loop);
  ASSERT_NE(arrive, std::string::npos);
  ASSERT_NE(wait, std::string::npos);
  EXPECT_LT(arrive, s.find("intel_sub_group_2d_block_prefetch", loop));
  EXPECT_GT(wait, s.rfind(" = intel_sub_group_bf16_bf16_matrix_mad_k16("));
  EXPECT_EQ(countOf(s, "intel_work_group_barrier_arrive(0);"), 1u);
  EXPECT_EQ(countOf(s, "intel_work_group_barrier_wait(0);"), 1u);
  REQUIRE_SPIRV_TOOLS();
  compileAndCheck(*k);
  const std::string dis = disassemble(dir_ + "/" + k->name + ".spv");
  for (const char* mangled : {
           "_Z42intel_sub_group_2d_block_read_16b_32r16x2cPU3AS1viiiDv2_iPt",
           "_Z52intel_sub_group_2d_block_read_transform_16b_32r16x2cPU3AS1viiiDv2_iPj",
           "_Z40intel_sub_group_bf16_bf16_matrix_mad_k16Dv8_sDv8_iDv8_f",
           "_Z42intel_sub_group_2d_block_write_32b_8r16x1cPU3AS1viiiDv2_iPj",
           "_Z31intel_work_group_barrier_arrivej",
           "_Z29intel_work_group_barrier_waitj",
       })
    EXPECT_TRUE(importsMangled(dis, mangled)) << mangled;
}

// A sweep: every data type, B stored plain and transposed, with and without prefetch, repeat
// counts 8 and 4, several subgroup grids and tiles, sizes that are and are not tile multiples.
std::vector<GemmConfig> sweep() {
  std::vector<GemmConfig> out;
  const GemmDataType types[] = {GemmDataType::F16, GemmDataType::BF16, GemmDataType::Int8,
                                GemmDataType::TF32};
  int i = 0;
  for (GemmDataType t : types)
    for (bool transposeB : {false, true})
      for (int prefetch : {0, 1})
        for (int rc : {8, 4}) {
          GemmConfig c;
          c.dtype = t;
          c.transposeB = transposeB;
          c.stages = prefetch;
          c.repeatCount = rc;
          if (t == GemmDataType::TF32) c.kTile = 16; // 32 x 64 f32 operands of K 32 exceed 256 GRF
          if (i++ % 2) c.m = c.n = c.k = 1000;
          out.push_back(c);
        }
  const std::array<int64_t, 2> grids[][2] = {
      {{2, 2}, {16, 32}}, {{1, 1}, {8, 16}}, {{4, 8}, {32, 32}}, {{2, 4}, {64, 32}}};
  for (GemmDataType t : types)
    for (const auto& g : grids) {
      GemmConfig c;
      c.dtype = t;
      c.sgLayout = g[0];
      c.sgData = g[1];
      c.m = 1000;
      c.n = 512;
      c.k = 1000;
      c.transposeB = g[0][0] == 2;
      if (t == GemmDataType::TF32) c.kTile = 16;
      out.push_back(c);
    }
  return out;
}

// The accumulators stay in registers (issue 17): the epilogue stores copies, so no accumulator has
// its address taken and the module has no float8 / int8 function variable and no load of one. With
// the stores taking &acc, the default kernel had 16 such variables, loaded and stored around
// every DPAS of the K loop.
TEST_F(OpenClEmitter, AccumulatorsStayInRegisters) {
  REQUIRE_SPIRV_TOOLS();
  // (float accumulators only: int32 ones share SPIR-V's v8uint with the B operands and copies.)
  for (auto dtype : {GemmDataType::BF16, GemmDataType::F16}) {
    GemmConfig c;
    c.dtype = dtype;
    auto k = buildGemmKernel(c);
    ASSERT_TRUE(k) << k.error().message;
    compileAndCheck(*k);
    const std::string dis = disassemble(dir_ + "/" + k->name + ".spv");
    EXPECT_EQ(dis.find("OpLoad %v8float"), std::string::npos) << k->name;
    EXPECT_EQ(dis.find("%_ptr_Function_v8float Function"), std::string::npos) << k->name;
    EXPECT_NE(dis.find("%_ptr_Function_v8uint Function"), std::string::npos); // the copies
  }
}

// The lane-order probe kernel compiles to valid SPIR-V that imports the transposed load.
TEST_F(OpenClEmitter, BlockLoadProbeCompilesAndValidates) {
  REQUIRE_SPIRV_TOOLS();
  auto pvc = intel::blockIoTarget("pvc");
  ASSERT_TRUE(pvc);
  auto probe = buildBlockLoadProbe({32, 8, 32, 1, true, false}, *pvc);
  ASSERT_TRUE(probe) << probe.error().message;
  auto spirv = compileToSpirv(probe->source, probe->kernelName, dir_);
  ASSERT_TRUE(spirv) << spirv.error().message;
  const std::string spv = dir_ + "/" + probe->kernelName + ".spv";
  ASSERT_TRUE(validateSpirv(spv));
  EXPECT_TRUE(
      importsMangled(disassemble(spv),
                     "_Z51intel_sub_group_2d_block_read_transpose_32b_32r8x1cPU3AS1viiiDv2_iPj"));
}

TEST_F(OpenClEmitter, ConfigSweepCompilesAndValidates) {
  REQUIRE_SPIRV_TOOLS();
  int compiled = 0;
  for (const GemmConfig& c : sweep()) {
    auto k = buildGemmKernel(c);
    if (!k) {
      ADD_FAILURE() << configText(c) << ": " << k.error().message;
      continue;
    }
    const std::string s = compileAndCheck(*k);
    EXPECT_NE(s.find(std::string(dataTypeTraits(c.dtype).openclMad) + "("), std::string::npos);
    ++compiled;
  }
  EXPECT_GE(compiled, 40);
}

} // namespace
} // namespace layout::codegen
