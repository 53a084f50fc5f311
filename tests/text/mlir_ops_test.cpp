// The op-level MLIR reader: TritonGPU (NVIDIA, AMD, Intel) and XeGPU dumps, written here in the
// forms the compilers print, and malformed or hostile text.
#include "layout/core/resource_limits.h"
#include "layout/text/mlir_ops.h"

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <string>
#include <utility>

using namespace layout;

namespace {

MlirModule readOk(const std::string& text) {
  auto m = readMlirOps(text);
  EXPECT_TRUE(m) << (m ? "" : m.error().message);
  return m ? *m : MlirModule();
}

std::string errorOf(const std::string& text) {
  auto m = readMlirOps(text);
  EXPECT_FALSE(m) << "read without error";
  return m ? "" : m.error().message;
}

const MlirOp& opNamed(const MlirModule& m, const std::string& name, int nth = 0) {
  for (const MlirOp& op : m.ops)
    if (op.name == name && nth-- == 0) return op;
  ADD_FAILURE() << "no op " << name;
  static const MlirOp none;
  return none;
}

int indexOf(const MlirModule& m, const std::string& name) {
  for (size_t i = 0; i < m.ops.size(); ++i)
    if (m.ops[i].name == name) return int(i);
  return -2;
}

// Restores the process-wide limits when a test changed them.
struct LimitsGuard {
  ResourceLimits saved = resourceLimits();
  ~LimitsGuard() { setResourceLimits(saved); }
};

const char* kMatmul =
    R"(#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
#loc = loc("/work/mm.py":20:0)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mm(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("/work/mm.py":20:0), %arg1: i32 loc("/work/mm.py":20:0)) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32 loc(#loc1)
    %c1_i32 = arith.constant 1 : i32 loc(#loc1)
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma> loc(#loc1)
    %0 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked> loc(#loc2)
    %1:2 = scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg3 = %cst, %arg4 = %0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>)  : i32 {
      %2 = tt.load %arg4 : tensor<64x32x!tt.ptr<f16>, #blocked> loc(#loc3)
      %3 = ttg.local_alloc %2 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem> loc(#loc3)
      %4 = ttg.local_load %3 : !ttg.memdesc<64x32xf16, #shared, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> loc(#loc4)
      %5 = tt.trans %2 {order = array<i32: 1, 0>} : tensor<64x32xf16, #blocked> -> tensor<32x64xf16, #blocked1> loc(#loc5)
      %6 = ttg.convert_layout %5 : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> loc(#loc5)
      %7 = tt.dot %4, %6, %arg3 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma> loc(#loc6)
      scf.yield %7, %arg4 : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked> loc(#loc7)
    } loc(#loc8)
    tt.return loc(#loc9)
  } loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)
#loc2 = loc("/work/mm.py":24:18)
#loc3 = loc("/work/mm.py":27:20)
#loc4 = loc(callsite(#loc10 at #loc11))
#loc5 = loc("b_t"(#loc12))
#loc6 = loc(fused[#loc1, #loc13])
#loc7 = loc("/work/mm.py":30:4)
#loc8 = loc("/work/mm.py":26:22)
#loc9 = loc("/work/mm.py":33:4)
#loc10 = loc("/work/helpers.py":7:11)
#loc11 = loc("/work/mm.py":28:16)
#loc12 = loc("/work/mm.py":29:15)
#loc13 = loc("/work/mm.py":29:30 to :42)
)";

TEST(MlirOps, MatmulLoopNamesResultsOperandsAndNesting) {
  MlirModule m = readOk(kMatmul);
  ASSERT_EQ(m.ops.size(), 15u);
  const std::vector<std::string> names = {"module",         "tt.func",        "arith.constant",
                                          "arith.constant", "arith.constant", "tt.splat",
                                          "scf.for",        "tt.load",        "ttg.local_alloc",
                                          "ttg.local_load", "tt.trans",       "ttg.convert_layout",
                                          "tt.dot",         "scf.yield",      "tt.return"};
  const std::vector<int> depths = {0, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 2};
  const std::vector<int> parents = {-1, 0, 1, 1, 1, 1, 1, 6, 6, 6, 6, 6, 6, 6, 1};
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(m.ops[i].name, names[i]) << i;
    EXPECT_EQ(m.ops[i].depth, depths[i]) << i;
    EXPECT_EQ(m.ops[i].parent, parents[i]) << i;
  }
  EXPECT_EQ(m.ops[0].regions, 1);
  EXPECT_EQ(m.ops[6].regions, 1);
  EXPECT_EQ(m.ops[7].regions, 0);
  EXPECT_EQ(m.ops[8].line, 15);
  EXPECT_EQ(m.ops[8].column, 7);

  const MlirOp& loop = m.ops[6];
  EXPECT_EQ(loop.results, (std::vector<std::string>{"%1#0", "%1#1"}));
  // The induction variable and the iter_args are defined here, not used.
  EXPECT_EQ(loop.operands, (std::vector<std::string>{"%c0_i32", "%arg1", "%c1_i32", "%cst", "%0"}));
  ASSERT_EQ(loop.resultTypes.size(), 2u);
  EXPECT_EQ(loop.resultTypes[0].text, "tensor<64x64xf32, #mma>");
  EXPECT_EQ(loop.resultTypes[1].elementType, "!tt.ptr<f16>");
  ASSERT_EQ(loop.operandTypes.size(), 1u);
  EXPECT_EQ(loop.operandTypes[0].kind, MlirType::Kind::Scalar);

  // Function arguments are defined, not used; argument attributes are not the op's.
  const MlirOp& func = m.ops[1];
  EXPECT_TRUE(func.operands.empty());
  ASSERT_EQ(func.attributes.size(), 1u);
  EXPECT_EQ(func.attributes[0].name, "noinline");
  ASSERT_TRUE(func.attributes[0].value);
  EXPECT_EQ(func.attributes[0].value->kind, AttrValue::Kind::Boolean);

  EXPECT_EQ(m.ops[13].operands, (std::vector<std::string>{"%7", "%arg4"}));
  EXPECT_EQ(m.ops[13].operandTypes.size(), 2u);
  EXPECT_TRUE(m.ops[14].operands.empty());
}

TEST(MlirOps, MatmulTypesAndEncodings) {
  MlirModule m = readOk(kMatmul);
  ASSERT_EQ(m.aliases.size(), 5u);
  EXPECT_EQ(m.aliases[0].name, "blocked");
  EXPECT_EQ(m.aliases[4].name, "smem");
  EXPECT_TRUE(m.notes.empty()) << m.notes[0];

  const MlirOp& cst = m.ops[4];
  EXPECT_TRUE(cst.operandTypes.empty());
  ASSERT_EQ(cst.resultTypes.size(), 1u);
  EXPECT_EQ(cst.resultTypes[0].elementBits, 32);

  const MlirType& ptrs = opNamed(m, "tt.load").operandTypes.at(0);
  EXPECT_EQ(ptrs.kind, MlirType::Kind::Tensor);
  EXPECT_EQ(ptrs.shape, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(ptrs.elementType, "!tt.ptr<f16>");
  EXPECT_EQ(ptrs.elementBits, 0);
  EXPECT_EQ(ptrs.encodingText, "#blocked");
  ASSERT_TRUE(ptrs.encoding);
  EXPECT_EQ(ptrs.encoding->text, "ttg.blocked");
  EXPECT_EQ(ptrs.printedEncoding(), "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = "
                                    "[4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>");

  const MlirOp& alloc = opNamed(m, "ttg.local_alloc");
  ASSERT_EQ(alloc.operandTypes.size(), 1u);
  ASSERT_EQ(alloc.resultTypes.size(), 1u);
  const MlirType& desc = alloc.resultTypes[0];
  EXPECT_EQ(desc.kind, MlirType::Kind::MemDesc);
  EXPECT_EQ(desc.shape, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(desc.elementType, "f16");
  EXPECT_EQ(desc.elementBits, 16);
  ASSERT_TRUE(desc.encoding);
  EXPECT_EQ(desc.encoding->text, "ttg.swizzled_shared");
  EXPECT_EQ(desc.extras, (std::vector<std::string>{"#smem"}));
  EXPECT_TRUE(desc.extraValues.empty()); // only a descriptor's extras are read

  // An inline dot operand encoding whose parent is an alias: the alias is resolved.
  const MlirType& dotA = opNamed(m, "ttg.local_load").resultTypes.at(0);
  EXPECT_EQ(dotA.encodingText, "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>");
  ASSERT_TRUE(dotA.encoding);
  ASSERT_NE(dotA.encoding->find("parent"), nullptr);
  EXPECT_EQ(dotA.encoding->find("parent")->text, "ttg.nvidia_mma");
  EXPECT_NE(dotA.printedEncoding().find("parent = #ttg.nvidia_mma<{versionMajor = 2"),
            std::string::npos);

  const MlirOp& cvt = opNamed(m, "ttg.convert_layout");
  EXPECT_EQ(cvt.operands, (std::vector<std::string>{"%5"}));
  ASSERT_EQ(cvt.operandTypes.size(), 1u);
  ASSERT_EQ(cvt.resultTypes.size(), 1u);
  EXPECT_EQ(cvt.operandTypes[0].encoding->find("order")->items.at(0).integer, 0);
  EXPECT_EQ(cvt.resultTypes[0].encoding->find("opIdx")->integer, 1);

  // tt.dot writes `A * B -> C`: two operand types, one result type.
  const MlirOp& dot = opNamed(m, "tt.dot");
  EXPECT_EQ(dot.operands, (std::vector<std::string>{"%4", "%6", "%arg3"}));
  ASSERT_EQ(dot.operandTypes.size(), 2u);
  ASSERT_EQ(dot.resultTypes.size(), 1u);
  EXPECT_EQ(dot.resultTypes[0].encoding->text, "ttg.nvidia_mma");

  // A dense array reads as a list of integers; its text is kept as written.
  const MlirNamedAttr* order = opNamed(m, "tt.trans").attribute("order");
  ASSERT_NE(order, nullptr);
  EXPECT_EQ(order->text, "array<i32: 1, 0>");
  ASSERT_TRUE(order->value);
  EXPECT_EQ(order->value->kind, AttrValue::Kind::List);
  ASSERT_EQ(order->value->items.size(), 2u);
  EXPECT_EQ(order->value->items[0].integer, 1);
  EXPECT_EQ(order->value->items[1].integer, 0);
}

// Storage widths of scalar type names, written out by hand from the types' definitions (TF32
// keeps 19 bits of precision in a 32-bit word: 32).
TEST(MlirOps, ElementBitsOfScalarTypeNames) {
  const std::pair<const char*, int> cases[] = {
      {"f16", 16},         {"bf16", 16},         {"f32", 32},     {"tf32", 32},    {"f64", 64},
      {"f8E4M3FN", 8},     {"f8E5M2", 8},        {"f6E2M3FN", 6}, {"f4E2M1FN", 4}, {"i1", 1},
      {"i8", 8},           {"i32", 32},          {"si16", 16},    {"ui64", 64},    {"index", 0},
      {"!tt.ptr<f16>", 0}, {"tensor<4xf16>", 0}, {"i", 0},        {"ix32", 0},     {"", 0},
  };
  for (const auto& [type, bits] : cases) EXPECT_EQ(mlirElementBits(type), bits) << type;
  // The reader fills MlirType::elementBits with the same widths.
  MlirModule m = readOk("module {\n  %0 = arith.constant 1 : tf32\n"
                        "  %1 = arith.constant dense<1> : tensor<4xi1>\n}\n");
  EXPECT_EQ(opNamed(m, "arith.constant").resultTypes.at(0).elementBits, 32);
  EXPECT_EQ(opNamed(m, "arith.constant", 1).resultTypes.at(0).elementBits, 1);
}

TEST(MlirOps, LocationsResolveThroughAliasesCallsitesNamesAndFused) {
  MlirModule m = readOk(kMatmul);
  auto at = [&](const std::string& name) {
    const MlirLocation& l = opNamed(m, name).loc;
    return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
  };
  EXPECT_EQ(at("tt.splat"), "/work/mm.py:24:18");
  EXPECT_EQ(at("tt.load"), "/work/mm.py:27:20");
  EXPECT_EQ(at("ttg.local_load"), "/work/helpers.py:7:11"); // the callee's site
  // ... called from mm.py:28:16 (#loc11), the caller's site.
  const MlirLocation& inlined = opNamed(m, "ttg.local_load").loc;
  EXPECT_EQ(inlined.callerFile, "/work/mm.py");
  EXPECT_EQ(inlined.callerLine, 28);
  EXPECT_EQ(inlined.callerColumn, 16);
  EXPECT_EQ(opNamed(m, "tt.load").loc.callerFile, "");      // not a callsite
  EXPECT_EQ(at("ttg.convert_layout"), "/work/mm.py:29:15"); // through the name loc
  EXPECT_EQ(at("tt.dot"), "/work/mm.py:29:30");             // the first file site of fused
  EXPECT_EQ(at("scf.for"), "/work/mm.py:26:22");            // after its region
  EXPECT_EQ(at("tt.func"), "/work/mm.py:20:0");
  EXPECT_EQ(opNamed(m, "ttg.convert_layout").loc.text, "loc(#loc5)");
  const MlirLocation& unknown = opNamed(m, "arith.constant").loc;
  EXPECT_EQ(unknown.file, "");
  EXPECT_EQ(unknown.line, 0);
  EXPECT_EQ(unknown.text, "loc(#loc1)");
}

// Library code inlined through two calls names the user's line as its outermost caller.
TEST(MlirOps, NestedCallsitesNameTheOutermostCaller) {
  MlirModule m = readOk(R"(module {
  tt.func @k() {
    tt.return loc(#loc3)
  }
}
#loc1 = loc("lib/standard.py":293:36)
#loc2 = loc("lib/core.py":40:8)
#loc3 = loc(callsite(#loc1 at callsite(#loc2 at "k.py":12:5)))
)");
  const MlirLocation& l = opNamed(m, "tt.return").loc;
  EXPECT_EQ(l.file, "lib/standard.py");
  EXPECT_EQ(l.line, 293);
  EXPECT_EQ(l.callerFile, "k.py");
  EXPECT_EQ(l.callerLine, 12);
  EXPECT_EQ(l.callerColumn, 5);
}

TEST(MlirOps, ModuleAttributes) {
  MlirModule m = readOk(kMatmul);
  ASSERT_EQ(m.moduleAttributes.count("ttg.target"), 1u);
  EXPECT_EQ(m.moduleAttributes.at("ttg.target").kind, AttrValue::Kind::String);
  EXPECT_EQ(m.moduleAttributes.at("ttg.target").text, "cuda:80");
  EXPECT_EQ(m.moduleAttributes.at("ttg.num-warps").integer, 4);
  EXPECT_EQ(m.moduleAttributes.at("ttg.threads-per-warp").integer, 32);
  EXPECT_EQ(m.ops[0].attributes.size(), 4u);
}

TEST(MlirOps, GenericReduceWithBlockArguments) {
  MlirModule m = readOk(
      R"(#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @rowmax(%x: tensor<32x64xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32 loc("r.py":3:1), %b: f32 loc("r.py":3:1)):
      %m = arith.maxnumf %a, %b : f32 loc("r.py":4:9)
      tt.reduce.return %m : f32 loc("r.py":4:2)
    }) : (tensor<32x64xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>> loc("r.py":5:7)
    tt.return %r : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}
)");
  ASSERT_EQ(m.ops.size(), 6u);
  const MlirOp& reduce = m.ops[2];
  EXPECT_EQ(reduce.name, "tt.reduce");
  EXPECT_EQ(reduce.results, (std::vector<std::string>{"%r"}));
  EXPECT_EQ(reduce.operands, (std::vector<std::string>{"%x"}));
  EXPECT_EQ(reduce.regions, 1);
  ASSERT_NE(reduce.attribute("axis"), nullptr);
  EXPECT_EQ(reduce.attribute("axis")->text, "1 : i32");
  EXPECT_EQ(reduce.attribute("axis")->value->integer, 1);
  ASSERT_EQ(reduce.operandTypes.size(), 1u);
  ASSERT_EQ(reduce.resultTypes.size(), 1u);
  EXPECT_EQ(reduce.resultTypes[0].shape, (std::vector<int64_t>{32}));
  EXPECT_EQ(reduce.resultTypes[0].encoding->text, "ttg.slice");
  EXPECT_EQ(reduce.resultTypes[0].encoding->find("parent")->text, "ttg.blocked");
  EXPECT_EQ(reduce.loc.file, "r.py");
  EXPECT_EQ(reduce.loc.line, 5);
  EXPECT_EQ(reduce.loc.column, 7);

  const MlirOp& max = m.ops[3];
  EXPECT_EQ(max.name, "arith.maxnumf");
  EXPECT_EQ(max.depth, 3);
  EXPECT_EQ(max.parent, 2);
  EXPECT_EQ(max.operands, (std::vector<std::string>{"%a", "%b"}));
  EXPECT_EQ(max.loc.line, 4);
  EXPECT_EQ(m.ops[4].name, "tt.reduce.return");
  EXPECT_EQ(m.ops[4].parent, 2);
  EXPECT_EQ(m.ops[5].name, "tt.return");
  EXPECT_EQ(m.ops[5].depth, 2);
  EXPECT_EQ(m.moduleAttributes.at("ttg.target").text, "hip:gfx942");
}

TEST(MlirOps, SharedMemoryAndAsyncCopies) {
  MlirModule m = readOk(
      R"(#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @copies(%p: tensor<128x64x!tt.ptr<f16>, #blocked>, %d: !tt.tensordesc<tensor<128x64xf16, #nvmma>>, %i: i32, %t: i1) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %s = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 2x128x64>
    %tok = ttg.async_copy_global_to_local %p, %s : tensor<128x64x!tt.ptr<f16>, #blocked> -> <128x64xf16, #nvmma, #smem, mutable, 2x128x64>
    ttng.async_tma_copy_global_to_local %d[%i, %i] %s, %bar, %t : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 2x128x64>
    %v = ttg.local_load %s : !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 2x128x64> -> tensor<128x64xf16, #blocked>
    ttg.local_store %v, %s : tensor<128x64xf16, #blocked> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 2x128x64>
    tt.return
  }
}
)");
  const MlirOp& alloc = opNamed(m, "ttg.local_alloc");
  EXPECT_TRUE(alloc.operandTypes.empty());
  ASSERT_EQ(alloc.resultTypes.size(), 1u);
  EXPECT_EQ(alloc.resultTypes[0].shape, (std::vector<int64_t>{2, 128, 64}));
  EXPECT_EQ(alloc.resultTypes[0].extras, (std::vector<std::string>{"#smem", "mutable"}));

  const MlirOp& index = opNamed(m, "ttg.memdesc_index");
  EXPECT_EQ(index.operands, (std::vector<std::string>{"%buf", "%i"}));
  EXPECT_EQ(index.resultTypes.at(0).extras,
            (std::vector<std::string>{"#smem", "mutable", "2x128x64"}));

  // Triton prints this result without "!ttg.memdesc".
  const MlirOp& copy = opNamed(m, "ttg.async_copy_global_to_local");
  ASSERT_EQ(copy.resultTypes.size(), 1u);
  EXPECT_EQ(copy.resultTypes[0].kind, MlirType::Kind::MemDesc);
  EXPECT_EQ(copy.resultTypes[0].shape, (std::vector<int64_t>{128, 64}));
  EXPECT_EQ(copy.resultTypes[0].encoding->text, "ttg.nvmma_shared");

  const MlirOp& tma = opNamed(m, "ttng.async_tma_copy_global_to_local");
  EXPECT_TRUE(tma.results.empty());
  EXPECT_EQ(tma.operands, (std::vector<std::string>{"%d", "%i", "%i", "%s", "%bar", "%t"}));
  ASSERT_EQ(tma.operandTypes.size(), 2u);
  EXPECT_EQ(tma.operandTypes[0].kind, MlirType::Kind::TensorDesc);
  EXPECT_EQ(tma.operandTypes[0].shape, (std::vector<int64_t>{128, 64}));
  EXPECT_EQ(tma.operandTypes[0].encoding->text, "ttg.nvmma_shared");
  EXPECT_EQ(tma.operandTypes[1].elementBits, 64);
  EXPECT_EQ(tma.resultTypes.at(0).encoding->find("swizzlingByteWidth")->integer, 128);

  const MlirOp& store = opNamed(m, "ttg.local_store");
  EXPECT_EQ(store.operands, (std::vector<std::string>{"%v", "%s"}));
  EXPECT_EQ(store.operandTypes.at(0).kind, MlirType::Kind::Tensor);
  EXPECT_EQ(store.resultTypes.at(0).kind, MlirType::Kind::MemDesc);
}

TEST(MlirOps, IntelBackendEncodingsAndUnitModuleAttribute) {
  MlirModule m = readOk(
      R"(#dpas = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 2], repCluster = [1, 1]}>
#load = #ttig.subgroup_2d_block<{warpsPerCTA = [8, 1], instrShape = [8, 16], numBlocks = 2, order = [1, 0], kWidth = 1, threadsPerWarp = 16}>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 16 : i32, ttig.support_sg_2d_block, ttg.target = "xpu"} {
  tt.func @k(%p: tensor<32x32x!tt.ptr<f16>, #load>) {
    %a = tt.load %p {ttig.block_io = "row_major"} : tensor<32x32x!tt.ptr<f16>, #load>
    %b = ttg.convert_layout %a : tensor<32x32xf16, #load> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #dpas, kWidth = 1}>>
    tt.return
  }
}
)");
  const AttrValue& unit = m.moduleAttributes.at("ttig.support_sg_2d_block");
  EXPECT_EQ(unit.kind, AttrValue::Kind::Keyword);
  EXPECT_EQ(unit.text, "unit");
  const MlirOp& load = opNamed(m, "tt.load");
  EXPECT_EQ(load.attribute("ttig.block_io")->value->text, "row_major");
  EXPECT_EQ(load.operandTypes.at(0).encoding->text, "ttig.subgroup_2d_block");
  EXPECT_TRUE(load.resultTypes.empty()); // tt.load writes only its pointer type
  const MlirType& dot = opNamed(m, "ttg.convert_layout").resultTypes.at(0);
  EXPECT_EQ(dot.encoding->find("parent")->text, "ttig.dpas");
  EXPECT_EQ(dot.encoding->find("parent")->find("repeatCount")->integer, 8);
}

// Block pointers (tt.make_tensor_ptr) describe the tensor they point to, with or without the
// "!tt.ptr" Triton leaves out of some op results, and with an address space.
TEST(MlirOps, BlockPointersDescribeTheirTensor) {
  MlirModule m = readOk(
      R"(#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {ttg.target = "xpu"} {
  tt.func @k(%p: !tt.ptr<f16>, %i: i32, %j: i64) {
    %0 = tt.make_tensor_ptr %p, [%j, %j], [%j, %j], [%i, %i] {order = array<i32: 1, 0>} : <tensor<64x32xf16, #b>>
    %1 = tt.load %0 {ttig.block_io = "row_major"} : !tt.ptr<tensor<64x32xf16, #b>, 1>
    tt.return
  }
}
)");
  for (const MlirType* t : {&opNamed(m, "tt.make_tensor_ptr").resultTypes.at(0),
                            &opNamed(m, "tt.load").operandTypes.at(0)}) {
    EXPECT_EQ(t->kind, MlirType::Kind::TensorDesc) << t->text;
    EXPECT_EQ(t->shape, (std::vector<int64_t>{64, 32}));
    EXPECT_EQ(t->elementType, "f16");
    EXPECT_EQ(t->elementBits, 16);
    ASSERT_TRUE(t->encoding);
    EXPECT_EQ(t->encoding->text, "ttg.blocked");
  }
}

TEST(MlirOps, XeGpuFunctionWithTypeAliasAndContinuationLines) {
  MlirModule m = readOk(
      R"(#a = #xegpu.layout<sg_layout = [4, 2], sg_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>
!tdesc_a = !xegpu.tensor_desc<32x32xf16, #a>
gpu.module @kernels {
  gpu.func @gemm(%A: memref<256x256xf16>, %B: memref<256x256xf16>) kernel attributes {intel_reqd_sub_group_size = 16 : i32} {
    %c0 = arith.constant 0 : index
    %ta = xegpu.create_nd_tdesc %A[%c0, %c0] : memref<256x256xf16>
        -> !tdesc_a
    %tb = xegpu.create_nd_tdesc %B[%c0, %c0] : memref<256x256xf16> -> !xegpu.tensor_desc<32x32xf16, #xegpu.block_tdesc_attr<boundary_check = true>, #xegpu.layout<sg_layout = [2, 4], sg_data = [16, 8], lane_layout = [1, 16], lane_data = [2, 1]>>
    %va = xegpu.load_nd %ta {layout_result_0 = #a}
        : !tdesc_a -> vector<32x32xf16>
    %acc = arith.constant {layout_result_0 = #xegpu.layout<sg_layout = [4, 2], sg_data = [8, 16]>}
        dense<0.0> : vector<32x32xf32>
    %d = xegpu.dpas %va, %va, %acc {layout_result_0 = #xegpu.layout<sg_layout = [4, 2], sg_data = [8, 16]>} : vector<32x32xf16>, vector<32x32xf16>, vector<32x32xf32> -> vector<32x32xf32>
    gpu.return
  }
}
)");
  ASSERT_EQ(m.ops.size(), 9u);
  EXPECT_EQ(m.ops[0].name, "gpu.module");
  EXPECT_EQ(m.ops[1].name, "gpu.func");
  EXPECT_EQ(m.ops[1].attribute("intel_reqd_sub_group_size")->value->integer, 16);
  EXPECT_EQ(m.ops[8].name, "gpu.return");
  EXPECT_EQ(m.ops[8].depth, 2);

  const MlirOp& ta = m.ops[3];
  EXPECT_EQ(ta.operands, (std::vector<std::string>{"%A", "%c0", "%c0"}));
  EXPECT_EQ(ta.operandTypes.at(0).kind, MlirType::Kind::MemRef);
  EXPECT_EQ(ta.operandTypes.at(0).shape, (std::vector<int64_t>{256, 256}));
  const MlirType& da = ta.resultTypes.at(0);
  EXPECT_EQ(da.text, "!tdesc_a");
  EXPECT_EQ(da.kind, MlirType::Kind::TensorDesc);
  EXPECT_EQ(da.shape, (std::vector<int64_t>{32, 32}));
  EXPECT_EQ(da.encoding->text, "xegpu.layout");

  // The layout among the descriptor's attributes; the others are extras.
  const MlirType& db = m.ops[4].resultTypes.at(0);
  EXPECT_EQ(db.encoding->text, "xegpu.layout");
  EXPECT_EQ(db.encoding->find("lane_data")->items.at(0).integer, 2);
  EXPECT_EQ(db.extras,
            (std::vector<std::string>{"#xegpu.block_tdesc_attr<boundary_check = true>"}));
  ASSERT_EQ(db.extraValues.size(), 1u);
  ASSERT_TRUE(db.extraValues[0]);
  EXPECT_EQ(db.extraValues[0]->text, "xegpu.block_tdesc_attr");
  EXPECT_TRUE(db.extraValues[0]->find("boundary_check")->boolean);
  EXPECT_TRUE(da.extraValues.empty());

  const MlirOp& load = m.ops[5];
  EXPECT_EQ(load.name, "xegpu.load_nd");
  EXPECT_EQ(load.attribute("layout_result_0")->value->text, "xegpu.layout");
  EXPECT_EQ(load.resultTypes.at(0).kind, MlirType::Kind::Vector);
  EXPECT_EQ(load.resultTypes.at(0).shape, (std::vector<int64_t>{32, 32}));

  const MlirOp& acc = m.ops[6];
  EXPECT_EQ(acc.resultTypes.at(0).elementType, "f32");
  EXPECT_NE(acc.attribute("layout_result_0"), nullptr);

  const MlirOp& dpas = m.ops[7];
  EXPECT_EQ(dpas.operands, (std::vector<std::string>{"%va", "%va", "%acc"}));
  EXPECT_EQ(dpas.operandTypes.size(), 3u);
  EXPECT_EQ(dpas.resultTypes.size(), 1u);
  EXPECT_EQ(dpas.attribute("layout_result_0")->value->find("sg_data")->items.at(1).integer, 16);
}

// A descriptor's block attributes are read wherever they stand (before or after the layout,
// through an alias), so array_length is a parameter lookup; a malformed dense array in an op's
// attributes leaves that attribute as text.
TEST(MlirOps, XeGpuDescriptorAttributesAndDenseArrays) {
  MlirModule m = readOk(
      R"(#blk = #xegpu.block_tdesc_attr<array_length = 2 : i64, boundary_check = true>
#l = #xegpu.layout<inst_data = [8, 16]>
gpu.module @k {
  gpu.func @f(%A: memref<64x64xf16>) kernel {
    %t = xegpu.create_nd_tdesc %A : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16, #l, #blk>
    %u = xegpu.create_nd_tdesc %A : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16, #xegpu.block_tdesc_attr<array_length = 4>, #l>
    %v = xegpu.load_nd %t <{transpose = array<i64: 1, 0>, bad = array<i32: 1,>}> : !xegpu.tensor_desc<8x16xf16, #l, #blk> -> vector<8x16xf16>
    gpu.return
  }
}
)");
  const MlirType& t = opNamed(m, "xegpu.create_nd_tdesc").resultTypes.at(0);
  EXPECT_EQ(t.encodingText, "#l");
  EXPECT_EQ(t.extras, (std::vector<std::string>{"#blk"}));
  ASSERT_EQ(t.extraValues.size(), 1u);
  ASSERT_TRUE(t.extraValues[0]);
  EXPECT_EQ(t.extraValues[0]->text, "xegpu.block_tdesc_attr");
  EXPECT_EQ(t.extraValues[0]->find("array_length")->integer, 2);
  const MlirType& u = opNamed(m, "xegpu.create_nd_tdesc", 1).resultTypes.at(0);
  EXPECT_EQ(u.encodingText, "#l");
  ASSERT_EQ(u.extraValues.size(), 1u);
  EXPECT_EQ(u.extraValues[0]->find("array_length")->integer, 4);

  const MlirOp& load = opNamed(m, "xegpu.load_nd");
  const MlirNamedAttr* transpose = load.attribute("transpose");
  ASSERT_TRUE(transpose && transpose->value);
  EXPECT_EQ(transpose->value->text, "i64");
  ASSERT_EQ(transpose->value->items.size(), 2u);
  EXPECT_EQ(transpose->value->items[0].integer, 1);
  const MlirNamedAttr* bad = load.attribute("bad");
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ(bad->text, "array<i32: 1,>");
  EXPECT_FALSE(bad->value);
}

TEST(MlirOps, ScfIfResultsStringsCommentsAndUnknownOps) {
  MlirModule m = readOk(R"(// a "comment" with { and < in it
func.func @f(%c: i1, %x: f32) -> f32 {
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    %n = "my.negate"(%x) {note = "a } b \" c"} : (f32) -> f32 loc("dir/we\"ird.py":3:4)
    scf.yield %n : f32
  }
  mydialect.strange %x [[1, 2], [3]] weird {flag} : f32
^bb1:
  return %r : f32
}
)");
  const MlirOp& ifOp = opNamed(m, "scf.if");
  EXPECT_EQ(ifOp.regions, 2);
  EXPECT_EQ(ifOp.operands, (std::vector<std::string>{"%c"}));
  ASSERT_EQ(ifOp.resultTypes.size(), 1u);
  EXPECT_EQ(ifOp.resultTypes[0].elementBits, 32);

  const MlirOp& neg = opNamed(m, "my.negate");
  EXPECT_EQ(neg.parent, indexOf(m, "scf.if"));
  EXPECT_EQ(neg.attribute("note")->value->text, "a } b \" c");
  EXPECT_EQ(neg.loc.file, "dir/we\"ird.py");
  EXPECT_EQ(neg.loc.column, 4);
  EXPECT_EQ(opNamed(m, "scf.yield", 1).parent, indexOf(m, "scf.if"));

  const MlirOp& strange = opNamed(m, "mydialect.strange");
  EXPECT_EQ(strange.operands, (std::vector<std::string>{"%x"}));
  EXPECT_EQ(strange.attribute("flag")->value->text, "unit");
  EXPECT_EQ(strange.operandTypes.size(), 1u);
  EXPECT_EQ(opNamed(m, "return").depth, 1);
}

TEST(MlirOps, UnreadableSignatureIsKeptWithANote) {
  MlirModule m = readOk("%0 = foo.op %a : -> i32\n%1 = foo.other %0 : i32\n");
  ASSERT_EQ(m.ops.size(), 2u);
  EXPECT_TRUE(m.ops[0].operandTypes.empty());
  EXPECT_TRUE(m.ops[0].resultTypes.empty());
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_EQ(m.notes[0], "line 1: the signature of 'foo.op' is not read");
  EXPECT_EQ(m.ops[1].operandTypes.size(), 1u);
}

TEST(MlirOps, UnknownAliasInAnEncodingIsANote) {
  MlirModule m = readOk("%0 = foo.op : () -> tensor<4xf16, #nowhere>\n");
  ASSERT_EQ(m.ops[0].resultTypes.size(), 1u);
  EXPECT_EQ(m.ops[0].resultTypes[0].encodingText, "#nowhere");
  EXPECT_FALSE(m.ops[0].resultTypes[0].encoding);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("line 1: encoding '#nowhere' is not read: "), std::string::npos)
      << m.notes[0];
}

TEST(MlirOps, SplitFileSectionsMayRedefineAliases) {
  MlirModule m = readOk(
      R"(#e = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
%0 = foo.op : () -> tensor<128xf16, #e> loc(#loc1)
#loc1 = loc("a.py":1:1)
// -----
#e = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
%1 = foo.op : () -> tensor<256xf16, #e> loc(#loc1)
#loc1 = loc("b.py":2:2)
)");
  ASSERT_EQ(m.ops.size(), 2u);
  EXPECT_EQ(m.ops[0].resultTypes[0].encoding->find("sizePerThread")->items[0].integer, 1);
  EXPECT_EQ(m.ops[1].resultTypes[0].encoding->find("sizePerThread")->items[0].integer, 2);
  EXPECT_EQ(m.ops[0].loc.file, "a.py");
  EXPECT_EQ(m.ops[1].loc.file, "b.py");
  EXPECT_EQ(errorOf("#e = #ttg.shared_memory\n#e = #ttg.shared_memory\n"),
            "line 2, column 1: redefinition of alias '#e' (first defined at line 1, column 1)");
}

TEST(MlirOps, LocationCyclesAndDeepChainsStayUnknown) {
  std::string text = "foo.op loc(#l0)\n#l0 = loc(#l1)\n#l1 = loc(#l0)\nfoo.op loc(#c2000)\n";
  text += "#c0 = loc(\"deep.py\":1:1)\n";
  for (int i = 1; i <= 2000; ++i)
    text += "#c" + std::to_string(i) + " = loc(#c" + std::to_string(i - 1) + ")\n";
  MlirModule m = readOk(text);
  ASSERT_EQ(m.ops.size(), 2u);
  EXPECT_EQ(m.ops[0].loc.file, "");
  EXPECT_EQ(m.ops[1].loc.file, ""); // over the resolution depth
  EXPECT_FALSE(m.notes.empty());
}

TEST(MlirOps, TruncatedFileIsALocatedError) {
  const std::string text(kMatmul);
  // Cut inside a type: the '<' of the tensor type is never closed.
  const size_t cut = text.find("tensor<64x32x!tt.ptr<f16>, #blocked> loc(#loc3)");
  ASSERT_NE(cut, std::string::npos);
  std::string message = errorOf(text.substr(0, cut + 10));
  EXPECT_NE(message.find(
                "unexpected end of the text: expected '>' to close the '<' at line 14, column 34"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.rfind("line 14, column 38: ", 0), 0u) << message;
  // Cut after a whole op inside the loop: the regions are never closed.
  const size_t line = text.find("      %3 = ttg.local_alloc");
  message = errorOf(text.substr(0, line));
  EXPECT_EQ(message, "line 15, column 1: unexpected end of the text: expected '}' to close the "
                     "region of 'scf.for' opened at line 13, column 168");
}

TEST(MlirOps, UnbalancedBracketsAreLocatedErrors) {
  EXPECT_EQ(
      errorOf("module {\n  %0 = tt.splat %a : !tt.ptr<f16 -> tensor<64xf16>\n  tt.return\n}\n"),
      "line 4, column 1: expected '>' to close the '<' at line 2, column 29, got '}'");
  EXPECT_EQ(errorOf("%0 = foo.op(%a, %b]\n"),
            "line 1, column 19: expected ')' to close the '(' at line 1, column 12, got ']'");
  EXPECT_EQ(errorOf("%0 = foo.op %a)\n"),
            "line 1, column 15: unexpected ')' in 'foo.op': no bracket is open");
  EXPECT_EQ(errorOf("}\n"), "line 1, column 1: unexpected '}': no region is open");
  EXPECT_EQ(errorOf("%0 = \"foo.op\n"),
            "line 1, column 6: unterminated string: expected '\"' before the end of the line");
  EXPECT_EQ(errorOf("%0 foo.op\n"),
            "line 1, column 4: expected ',' or '=' after the result '%0', got 'foo.op'");
  EXPECT_EQ(errorOf("module {\n  ^bb0(%a: f32)\n}\n"),
            "line 3, column 1: expected ':' after the block label '^bb0', got '}'");
}

TEST(MlirOps, HundredThousandNestedRegionsGiveALocatedErrorQuickly) {
  std::string text = "module {\n";
  for (int i = 0; i < 100000; ++i) text += "scf.if %c {\n";
  const auto start = std::chrono::steady_clock::now();
  std::string message = errorOf(text);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(message, "line 257, column 11: regions nested more than 256 deep (raise it with "
                     "LAYOUT_MAX_MLIR_NESTING)");
  EXPECT_LT(seconds, 1.0);

  // Raised, the reader goes as deep as the text (no recursion) and closes every region.
  LimitsGuard guard;
  ResourceLimits raised = resourceLimits();
  raised.maxMlirNesting = 200000;
  setResourceLimits(raised);
  for (int i = 0; i < 100000; ++i) text += "}\n";
  text += "}\n";
  MlirModule m = readOk(text);
  ASSERT_EQ(m.ops.size(), 100001u);
  EXPECT_EQ(m.ops.back().depth, 100000);
  EXPECT_EQ(m.ops.back().parent, 99999);
}

TEST(MlirOps, DeepBracketsAndGenericRegionsAreBounded) {
  std::string parens = "%0 = foo.op ";
  for (int i = 0; i < 100000; ++i) parens += "(";
  EXPECT_EQ(errorOf(parens).rfind("line 1, column 269: brackets nested more than 256 deep", 0), 0u);
  std::string types = "%0 = foo.op : ";
  for (int i = 0; i < 100000; ++i) types += "tensor<";
  EXPECT_NE(errorOf(types).find("brackets nested more than 256 deep"), std::string::npos);
  std::string generic;
  for (int i = 0; i < 100000; ++i) generic += "\"a.b\"() ({\n";
  EXPECT_NE(errorOf(generic).find("regions nested more than 256 deep"), std::string::npos);
}

TEST(MlirOps, HugeShapesAreKeptWithoutOverflowOrRefused) {
  MlirModule m = readOk("%0 = foo.op : () -> tensor<4611686018427387904x4611686018427387904xf16>\n"
                        "%1 = foo.op : () -> tensor<18446744073709551616x2xf16>\n");
  // 2^62 fits a dim; the element count is the consumer's to bound, and it does not overflow.
  const MlirType& big = m.ops[0].resultTypes.at(0);
  EXPECT_EQ(big.shape, (std::vector<int64_t>{int64_t{1} << 62, int64_t{1} << 62}));
  auto count = boundedElementCount(big.shape, resourceLimits().maxViewCells, "the tensor", "-");
  ASSERT_FALSE(count);
  EXPECT_NE(count.error().message.find("2^64 or more elements"), std::string::npos);
  // 2^64 does not fit: the shape is refused, the type kept.
  const MlirType& over = m.ops[1].resultTypes.at(0);
  EXPECT_TRUE(over.shape.empty());
  EXPECT_EQ(over.elementType, "f16");
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("has a dim over 2^63 - 1"), std::string::npos);
}

TEST(MlirOps, OpsResultsAndBytesAreBounded) {
  LimitsGuard guard;
  ResourceLimits small = resourceLimits();
  small.maxMlirOps = 10;
  setResourceLimits(small);
  std::string text;
  for (int i = 0; i < 20; ++i) text += "foo.op\n";
  EXPECT_EQ(errorOf(text), "line 11, column 1: the file has more than 10 operations (raise it "
                           "with LAYOUT_MAX_MLIR_OPS)");
  EXPECT_EQ(errorOf("%0:99999999999 = foo.op\n"),
            "line 1, column 1: the file names more than 10 results (raise it with "
            "LAYOUT_MAX_MLIR_OPS)");
  small.maxInputBytes = 16;
  setResourceLimits(small);
  EXPECT_EQ(errorOf(std::string(17, ' ')), "the MLIR text has 17 bytes, more than the limit of 16 "
                                           "bytes (raise it with LAYOUT_MAX_INPUT_BYTES)");
}

TEST(MlirOps, AttributeValueBudgetKeepsTextWithANote) {
  LimitsGuard guard;
  ResourceLimits small = resourceLimits();
  small.maxAttrValues = 64;
  setResourceLimits(small);
  std::string text;
  for (int i = 0; i < 40; ++i) text += "foo.op {a = [" + std::to_string(i) + ", 1, 2]}\n";
  MlirModule m = readOk(text);
  ASSERT_EQ(m.ops.size(), 40u);
  EXPECT_TRUE(m.ops[0].attributes.at(0).value);
  EXPECT_FALSE(m.ops[39].attributes.at(0).value);
  EXPECT_EQ(m.ops[39].attributes.at(0).text, "[39, 1, 2]");
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("LAYOUT_MAX_ATTR_VALUES"), std::string::npos);
}

TEST(MlirOps, TwoThousandOpsReadInLinearTime) {
  std::string text = std::string(kMatmul).substr(0, std::string(kMatmul).find("module"));
  text += "module attributes {ttg.target = \"cuda:90\"} {\n  tt.func @k() {\n";
  for (int i = 0; i < 1000; ++i) {
    const std::string n = std::to_string(i);
    text += "    %a" + n + " = ttg.convert_layout %x : tensor<64x32xf16, #blocked> -> " +
            "tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> loc(#loc" + n +
            ")\n";
    text += "    %b" + n + " = ttg.local_alloc %a" + n +
            " : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem> loc(#loc" +
            n + ")\n";
  }
  text += "    tt.return\n  }\n}\n";
  for (int i = 0; i < 1000; ++i)
    text += "#loc" + std::to_string(i) + " = loc(\"k.py\":" + std::to_string(i + 1) + ":3)\n";
  const auto start = std::chrono::steady_clock::now();
  MlirModule m = readOk(text);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(m.ops.size(), 2003u);
  EXPECT_EQ(m.ops[2001].loc.line, 1000);
  EXPECT_EQ(m.ops[2001].resultTypes.at(0).kind, MlirType::Kind::MemDesc);
  // Release reads this in a few milliseconds; the bound leaves room for debug and sanitizer builds.
  EXPECT_LT(ms, 1000.0);
  std::cout << "[ info ] 2003 ops read in " << ms << " ms\n";
}

} // namespace
