// The emitted OpenCL C on an OpenCL device (PoCL here) behind the Intel built-in prelude: a
// corrupted kernel text must fail verification, and the prelude (written from the extension
// specs) and the simulator (liblayout's block-I/O executors, kernels::simulateDpas) must agree
// register for register on one block load of each kind and one DPAS of each type. Skipped
// without an OpenCL device unless LAYOUT_REQUIRE_OPENCL is set.
#include "layout/codegen/block_load_probe.h"
#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/codegen/opencl_emitter.h"
#include "layout/intel/block_io.h"
#include "layout/kernels/gemm_verification.h"
#include "layout/kernels/opencl_prelude.h"
#include "layout/kernels/xe_simulator.h"
#include "layout/opencl/gemm_opencl_run.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>

namespace {

using layout::opencl::OpenClStatus;

// GTEST_SKIP only where no device is expected.
bool noDevice(const layout::opencl::OpenClOutcome& o) {
  if (o.status != OpenClStatus::NoDevice) return false;
  if (std::getenv("LAYOUT_REQUIRE_OPENCL")) ADD_FAILURE() << "no OpenCL device: " << o.message;
  return true;
}

layout::codegen::GemmKernel bf16Kernel() {
  layout::codegen::GemmConfig c;
  c.m = 128;
  c.n = 128;
  c.k = 64;
  c.dtype = layout::codegen::GemmDataType::BF16;
  c.sgLayout = {2, 2};
  c.sgData = {32, 64};
  auto k = layout::codegen::buildGemmKernel(c);
  EXPECT_TRUE(k) << (k ? "" : k.error().message);
  return *k;
}

layout::opencl::GemmOpenClRun runText(const layout::codegen::GemmKernel& kernel,
                                      const std::string& text) {
  auto in =
      layout::kernels::makeGemmInputs(kernel.config, layout::kernels::InputKind::ExactSums, 3);
  return layout::opencl::runGemmOnOpenCl(kernel, text, in);
}

// One coordinate off by one in the emitted text: the kernel still builds and runs, and only
// running it shows the error.
TEST(GemmOnOpenCl, ACorruptedKernelTextFailsVerification) {
  const auto kernel = bf16Kernel();
  const std::string text = layout::codegen::emitOpenCl(kernel);
  const auto good = runText(kernel, text);
  if (noDevice(good.outcome)) GTEST_SKIP() << good.outcome.message;
  ASSERT_EQ(good.outcome.status, OpenClStatus::Ran)
      << good.outcome.message << good.outcome.buildLog;
  EXPECT_TRUE(good.verification.passed) << good.verification.summary();

  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"(int2)(k0 + a_col, ", "(int2)(k0 + a_col + 1, "},
        {"k0 + b_row)", "k0 + b_row + 1)"},
        {"c_row + 8)", "c_row + 9)"}}) {
    SCOPED_TRACE(from + " -> " + to);
    std::string bad = text;
    const size_t at = bad.find(from);
    ASSERT_NE(at, std::string::npos) << "the emitted text has no '" << from << "'";
    bad.replace(at, from.size(), to);
    const auto run = runText(kernel, bad);
    ASSERT_EQ(run.outcome.status, OpenClStatus::Ran) << run.outcome.message;
    EXPECT_FALSE(run.verification.passed);
    EXPECT_GT(run.verification.mismatches, 0);
  }
}

// The transposed-load probe runs on the device and agrees with the model; the same probe with
// its coordinate moved by one row must be reported, naming a lane and a register; and a
// transpose-B GEMM probes its load before it runs.
TEST(GemmOnOpenCl, TransposedLoadProbeRunsAndCatchesAMovedCoordinate) {
  auto pvc = layout::intel::blockIoTarget("pvc");
  ASSERT_TRUE(pvc);
  auto probe = layout::codegen::buildBlockLoadProbe({32, 8, 32, 1, true, false}, *pvc);
  ASSERT_TRUE(probe) << probe.error().message;
  const auto good = layout::opencl::runBlockLoadProbeOnOpenCl(*probe);
  if (noDevice(good.outcome)) GTEST_SKIP() << good.outcome.message;
  ASSERT_EQ(good.outcome.status, OpenClStatus::Ran)
      << good.outcome.message << good.outcome.buildLog;
  EXPECT_EQ(good.mismatch, "");

  auto moved = *probe;
  const std::string from = "(int2)(2, 3)";
  const size_t at = moved.source.find(from);
  ASSERT_NE(at, std::string::npos) << moved.source;
  moved.source.replace(at, from.size(), "(int2)(2, 4)");
  const auto bad = layout::opencl::runBlockLoadProbeOnOpenCl(moved);
  ASSERT_EQ(bad.outcome.status, OpenClStatus::Ran) << bad.outcome.message;
  EXPECT_EQ(bad.mismatch,
            "probe layout_probe_transpose_32b_32r8x1c: the device's transpose_32b_32r8x1c load "
            "disagrees with the lane order the kernels assume: lane 0, register 0: got element "
            "(row 4, column 2), expected element (row 3, column 2)");

  auto kernel = bf16Kernel();
  kernel.config.transposeB = true;
  auto transposed = layout::codegen::buildGemmKernel(kernel.config);
  ASSERT_TRUE(transposed) << transposed.error().message;
  const auto run = runText(*transposed, layout::codegen::emitOpenCl(*transposed));
  ASSERT_EQ(run.outcome.status, OpenClStatus::Ran) << run.outcome.message;
  EXPECT_EQ(run.probed, std::vector<std::string>{"transpose_32b_32r8x1c"});
  EXPECT_TRUE(run.verification.passed) << run.verification.summary();
}

// A launch bigger than the prelude's scratch is refused, not run wrong.
TEST(GemmOnOpenCl, RefusesLaunchesBeyondThePreludeScratch) {
  layout::codegen::GemmConfig c;
  c.m = c.n = 4096;
  c.k = 32;
  auto kernel = layout::codegen::buildGemmKernel(c);
  ASSERT_TRUE(kernel) << kernel.error().message;
  layout::kernels::GemmInputs in;
  const auto run = layout::opencl::runGemmOnOpenCl(*kernel, "", in);
  EXPECT_EQ(run.outcome.status, OpenClStatus::Failed);
  EXPECT_NE(run.outcome.message.find("more than the 65536"), std::string::npos)
      << run.outcome.message;
}

// One subgroup (16 work-items) of the kernel `name` in `source`, behind the prelude; the buffers
// in argument order.
layout::opencl::OpenClOutcome runOneSubgroup(const std::string& source, const std::string& name,
                                             std::vector<layout::opencl::OpenClBuffer> buffers) {
  auto prelude = layout::kernels::openClIntelPrelude(source);
  if (!prelude) {
    layout::opencl::OpenClOutcome failed;
    failed.message = "prelude: " + prelude.error().message;
    return failed;
  }
  layout::opencl::OpenClLaunch launch;
  launch.source = *prelude + source;
  launch.buildOptions = std::string(layout::kernels::kOpenClPreludeBuildOptions);
  launch.kernelName = name;
  launch.globalSize = {16, 1, 1};
  launch.localSize = {16, 1, 1};
  for (const auto& b : buffers) launch.arguments.push_back({b});
  return layout::opencl::runOnOpenCl(launch);
}

// Per-lane units of `unitBits`, little-endian packs of consecutive elements of
// loadPerWorkItem (the simulator's register order).
std::vector<std::vector<uint64_t>> packUnits(const std::vector<std::vector<uint64_t>>& lanes,
                                             int elemBits, int unitBits) {
  std::vector<std::vector<uint64_t>> out;
  const int per = unitBits / elemBits;
  for (const auto& lane : lanes) {
    std::vector<uint64_t> units((lane.size() + per - 1) / per, 0);
    for (size_t i = 0; i < lane.size(); ++i) units[i / per] |= lane[i] << (elemBits * (i % per));
    out.push_back(units);
  }
  return out;
}

TEST(PreludeAgreesWithTheSimulator, OneBlockLoadOfEachKind) {
  using namespace layout::intel;
  auto pvc = blockIoTarget("pvc");
  ASSERT_TRUE(pvc);
  struct Case {
    BlockShape shape;
    int unitBits; // the builtin's destination type
  };
  const Case cases[] = {
      {{16, 16, 32, 2, false, false}, 16}, // A, 16-bit
      {{16, 16, 32, 2, false, true}, 32},  // B, VNNI (transform)
      {{32, 8, 32, 1, true, false}, 32},   // B^T, transposed
      {{8, 32, 32, 2, false, false}, 16},  // A, 8-bit
      {{8, 16, 32, 4, false, true}, 32},   // B, 8-bit VNNI
      {{32, 16, 8, 1, false, false}, 32},  // C-sized 32-bit rows
  };
  std::mt19937 rng(11);
  std::vector<uint8_t> memory(128 * 64);
  for (auto& b : memory) b = uint8_t(rng());
  // 64 rows of 128 bytes; the block sits across the right and bottom edges of a 112 x 52 surface.
  const Surface surface{0, 112, 52, 128};
  for (const Case& c : cases) {
    const std::string name = blockShapeName(c.shape);
    SCOPED_TRACE(name);
    const int64_t x = (112 * 8 / c.shape.elemBits) - c.shape.tileWidth, y = 40;
    BlockIoRequest r{BlockOp::Load, c.shape, surface, x, y};
    ASSERT_TRUE(validateBlockIo(*pvc, r));
    auto lanes = loadPerWorkItem(*pvc, r, memory);
    ASSERT_TRUE(lanes) << lanes.error().message;
    const auto want = packUnits(*lanes, c.shape.elemBits, c.unitBits);
    const size_t units = want[0].size();
    const std::string unit = c.unitBits == 16 ? "ushort" : "uint";
    const std::string builtin = "intel_sub_group_2d_block_read_" + name;
    const std::string source =
        "void __attribute__((overloadable)) " + builtin +
        "(global void* base, int width, int height, int pitch, int2 coord, private " + unit +
        "* destination);\n"
        "__attribute__((intel_reqd_sub_group_size(16)))\n"
        "kernel void load_test(global uchar* surface, global uint* out) {\n"
        "  " +
        unit + " d[" + std::to_string(units) +
        "];\n"
        "  " +
        builtin + "(surface, 112, 52, 128, (int2)(" + std::to_string(x) + ", " + std::to_string(y) +
        "), d);\n"
        "  for (int i = 0; i < " +
        std::to_string(units) + "; ++i) out[get_local_id(0) * " + std::to_string(units) +
        " + i] = d[i];\n}\n";
    std::vector<uint8_t> surfaceBytes = memory, out(16 * units * 4, 0xee);
    const auto o = runOneSubgroup(source, "load_test", {{&surfaceBytes}, {&out, true}});
    if (noDevice(o)) GTEST_SKIP() << o.message;
    ASSERT_EQ(o.status, OpenClStatus::Ran) << o.message << o.buildLog;
    for (int lane = 0; lane < 16; ++lane)
      for (size_t i = 0; i < units; ++i) {
        uint32_t got = 0;
        std::memcpy(&got, &out[(lane * units + i) * 4], 4);
        ASSERT_EQ(got, want[lane][i]) << "lane " << lane << ", unit " << i;
      }
  }
}

TEST(PreludeAgreesWithTheSimulator, OneDpasOfEachType) {
  using layout::codegen::GemmDataType;
  struct Case {
    GemmDataType type;
    std::string builtin, aType, bType, cType;
    int aUnits, aUnitBits;
  };
  const Case cases[] = {
      {GemmDataType::F16, "intel_sub_group_f16_f16_matrix_mad_k16", "short8", "int8", "float8", 8,
       16},
      {GemmDataType::BF16, "intel_sub_group_bf16_bf16_matrix_mad_k16", "short8", "int8", "float8",
       8, 16},
      {GemmDataType::Int8, "intel_sub_group_i8_i8_matrix_mad_k32", "short8", "int8", "int8", 8, 16},
      {GemmDataType::TF32, "intel_sub_group_tf32_tf32_matrix_mad_k8", "float4", "float8", "float8",
       4, 32},
  };
  std::mt19937 rng(5);
  // Finite values of moderate size in each type's bits: f16 / bf16 with exponents near 1, tf32 and
  // the accumulator as floats in [-4, 4), int8 any bytes.
  auto value16 = [&](GemmDataType t) -> uint32_t {
    const uint32_t sign = rng() & 1, mantissa = rng();
    if (t == GemmDataType::F16) return sign << 15 | (13 + rng() % 4) << 10 | (mantissa & 0x3ff);
    if (t == GemmDataType::BF16) return sign << 15 | (125 + rng() % 4) << 7 | (mantissa & 0x7f);
    return rng() & 0xffff; // two int8
  };
  auto floatBits = [&]() {
    const float f = float(int(rng() % 8192) - 4096) / 1024.0f;
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.builtin);
    std::vector<std::vector<uint32_t>> a(16), b(16), acc(16);
    for (int l = 0; l < 16; ++l) {
      for (int i = 0; i < c.aUnits; ++i)
        a[l].push_back(c.aUnitBits == 32 ? floatBits() : value16(c.type));
      for (int j = 0; j < 8; ++j)
        b[l].push_back(c.type == GemmDataType::TF32 ? floatBits()
                                                    : value16(c.type) | value16(c.type) << 16);
      for (int r = 0; r < 8; ++r)
        acc[l].push_back(c.type == GemmDataType::Int8 ? uint32_t(rng()) : floatBits());
    }
    const auto want = layout::kernels::simulateDpas(c.type, 8, a, b, acc);
    std::vector<uint8_t> aBytes, bBytes, cBytes, dBytes(16 * 8 * 4, 0xee);
    auto put = [](std::vector<uint8_t>& to, uint32_t v, int bits) {
      for (int i = 0; i < bits / 8; ++i) to.push_back(uint8_t(v >> (8 * i)));
    };
    for (int l = 0; l < 16; ++l) {
      for (uint32_t v : a[l]) put(aBytes, v, c.aUnitBits);
      for (uint32_t v : b[l]) put(bBytes, v, 32);
      for (uint32_t v : acc[l]) put(cBytes, v, 32);
    }
    // Each lane reads its registers as one vector of the built-in's argument type.
    const std::string source =
        c.cType + " __attribute__((overloadable)) " + c.builtin + "(" + c.aType + " a, " + c.bType +
        " b, " + c.cType + " acc);\n" + "__attribute__((intel_reqd_sub_group_size(16)))\n" +
        "kernel void dpas_test(global " + c.aType + "* a, global " + c.bType + "* b, global " +
        c.cType + "* c, global uint8* d) {\n" + "  const int l = get_local_id(0);\n" +
        "  d[l] = as_uint8(" + c.builtin + "(a[l], b[l], c[l]));\n}\n";
    const auto o =
        runOneSubgroup(source, "dpas_test", {{&aBytes}, {&bBytes}, {&cBytes}, {&dBytes, true}});
    if (noDevice(o)) GTEST_SKIP() << o.message;
    ASSERT_EQ(o.status, OpenClStatus::Ran) << o.message << o.buildLog;
    for (int l = 0; l < 16; ++l)
      for (int r = 0; r < 8; ++r) {
        uint32_t got = 0;
        std::memcpy(&got, &dBytes[(l * 8 + r) * 4], 4);
        ASSERT_EQ(got, want[l][r]) << "lane " << l << ", row " << r;
      }
  }
}

} // namespace
