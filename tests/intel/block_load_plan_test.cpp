// Block-load planner (layout/intel/block_load_plan.h):
//
// 1. Seed 002's three worked cases (AxB operand A, AxB operand B, AxBT operand B): the tile
//    layouts after each stage and the "input : output" samples, compared byte for byte with the
//    transcriptions in tests/data/seed002/blockload_*.txt. Where the seed disagrees with the
//    hardware (operand B's load basis is printed with its out dims swapped; the AxBT load basis
//    mixes element and slot units; operand B's "after adding iterations" listing is operand A's),
//    the expected text is the seed's with the documented correction applied (INDEX.md).
// 2. Functional proof: the planned loads run on a random matrix through the reference executor
//    (intel::loadPerWorkItem), the shuffle vectors are applied, and every work-item's DPAS operand
//    registers are compared with the values the operand's linear layout assigns to them, for the
//    seed cases and a sweep of DPAS configurations (RC, repCluster, warps, f16/bf16/int8/tf32,
//    transposed or not, pvc and bmg).
// 3. Minimality: an independent count of the fewest loads the hardware limits force (the largest
//    legal block whose lanes match the DPAS operand, on the subgroup's contiguous footprint)
//    against the plan's load count.
#include "layout/intel/block_load_plan.h"
#include "layout/triton/encoding.h"
#include "layout/triton/intel_subgroup_2d_block.h"
#include "support/scoped_limits.h"

#include "support/test_data.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using layout::DimName;
using layout::LinearLayout;
namespace intel = layout::intel;
namespace dims = layout::dims;

std::string readData(const std::string& name) {
  return layout_test::readDataFile("seed002/" + name);
}

std::string dpasParent(int rc, int opc, std::vector<int> warps, std::vector<int> repCluster) {
  return "#ttig.dpas<{repeatCount = " + std::to_string(rc) +
         ", systolicDepth = 8, executionSize = 16, opsPerChan = " + std::to_string(opc) +
         ", threadsPerWarp = 16, warpsPerCTA = [" + std::to_string(warps[0]) + ", " +
         std::to_string(warps[1]) + "], repCluster = [" + std::to_string(repCluster[0]) + ", " +
         std::to_string(repCluster[1]) + "]}>";
}

const char* kSeedParent =
    "#triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan "
    "= 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2], A = [32, 16], B = [16, "
    "32], C = [32, 32]}>";

std::string seedOperand(int opIdx) {
  return std::string("#ttg.dot_op<{opIdx = ") + std::to_string(opIdx) +
         ", parent = " + kSeedParent + ", kWidth = " + (opIdx == 0 ? "1" : "2") + "}>";
}

intel::BlockIoTarget target(const char* name) {
  auto t = intel::blockIoTarget(name);
  EXPECT_TRUE(t.ok()) << name;
  return *t;
}

// The first `n` in-dims of the tile layout, with out sizes shrunk to what they reach (the seed's
// "tile layout" and "after adding iterations" stages).
LinearLayout stage(const LinearLayout& tile, int n) {
  std::vector<layout::InDimBases> ins = tile.inDims();
  ins.resize(static_cast<size_t>(n));
  auto s = LinearLayout::createSurjective(ins, tile.outDimNames());
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return *s;
}

std::string render(const std::string& title, const LinearLayout& l) {
  return title + l.toString() + "\n";
}

// "i, j, o : r, c" samples of the seed (first and last offset of each iteration / load).
std::string samples(const LinearLayout& l, int n, bool blankBetweenLoads) {
  std::string out;
  const uint64_t lastOffset = l.inDimSize(0) - 1;
  const uint64_t loads = n == 3 ? l.inDimSize(2) : 1;
  for (uint64_t ld = 0; ld < loads; ++ld) {
    if (ld && blankBetweenLoads) out += "\n";
    for (uint64_t it = 0; it < l.inDimSize(1); ++it)
      for (uint64_t off : {uint64_t{0}, lastOffset}) {
        std::vector<uint64_t> in = {off, it, ld}, o(2);
        l.apply(in, o);
        out += (n == 3 ? std::to_string(ld) + ", " : "") + std::to_string(it) + ", " +
               std::to_string(off) + " : " + std::to_string(o[0]) + ", " + std::to_string(o[1]) +
               "\n";
      }
  }
  return out;
}

std::string offsetSamples(const LinearLayout& l) {
  std::string out;
  for (uint64_t off = 0; off < l.inDimSize(0); off += 16) {
    std::vector<uint64_t> in = {off, 0, 0}, o(2);
    l.apply(in, o);
    out += std::to_string(off) + " : " + std::to_string(o[0]) + ", " + std::to_string(o[1]) + "\n";
  }
  return out;
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

// ---- Functional proof -----------------------------------------------------------------------

// Runs the plan's loads for subgroup `warp` on `memory` and checks every shuffled register.
// Returns a description of the first mismatch, or "".
std::string checkPlan(const intel::BlockLoadPlan& plan, const LinearLayout& ll, int elemBits,
                      bool transposed, const intel::BlockIoTarget& t,
                      const std::vector<uint8_t>& memory, int64_t memRows, int64_t pitchBytes,
                      uint64_t warp) {
  const int eb = elemBits / 8;
  auto element = [&](int64_t r, int64_t c) {
    uint64_t v = 0;
    for (int b = 0; b < eb; ++b)
      v |= uint64_t(memory[size_t(r * pitchBytes + c * eb + b)]) << 8 * b;
    return v;
  };
  std::vector<uint64_t> wIn = {warp}, origin(2);
  plan.subgroupOffset.apply(wIn, origin);
  // Per load, per lane: the result as a little-endian bit string (bytes).
  std::vector<std::vector<std::vector<uint8_t>>> bits;
  for (const intel::BlockLoad& ld : plan.loads) {
    intel::BlockShape s{ld.elemBits,  ld.tileWidth, ld.tileHeight,
                        ld.numBlocks, ld.transpose, ld.vnni};
    const int64_t col = int64_t(origin[1]) + ld.offset[1];
    intel::BlockIoRequest req{intel::BlockOp::Load, s,
                              intel::Surface{0, pitchBytes, memRows, pitchBytes},
                              col * elemBits / ld.elemBits, int64_t(origin[0]) + ld.offset[0]};
    auto res = intel::loadPerWorkItem(t, req, memory);
    if (!res) return "load failed: " + res.error().message;
    std::vector<std::vector<uint8_t>> lanes;
    for (const auto& lane : *res) {
      std::vector<uint8_t> b;
      for (uint64_t v : lane)
        for (int k = 0; k < ld.elemBits / 8; ++k) b.push_back(uint8_t(v >> 8 * k));
      lanes.push_back(std::move(b));
    }
    bits.push_back(std::move(lanes));
  }
  const int unitBytes = plan.operandRegisterBits / 8, k = plan.operandRegisterBits / elemBits;
  const int lanes = t.subgroupSize;
  std::vector<int> fed;
  const int regIn = ll.inDimIndex(dims::reg());
  for (const intel::Shuffle& sh : plan.shuffles) {
    const int64_t instrElems = int64_t(sh.registers.size()) * k;
    for (int l = 0; l < lanes; ++l) {
      if (sh.lane && *sh.lane != l) continue;
      for (size_t u = 0; u < sh.registers.size(); ++u) {
        const auto& src = bits[size_t(sh.load)][size_t(l)];
        const size_t at = size_t(sh.registers[u]) * unitBytes;
        if (at + unitBytes > src.size()) return "register index out of the load result";
        for (int q = 0; q < k; ++q) {
          uint64_t got = 0;
          for (int b = 0; b < eb; ++b) got |= uint64_t(src[at + q * eb + b]) << 8 * b;
          const uint64_t reg = uint64_t(sh.dpas * instrElems) + u * k + q;
          std::vector<uint64_t> in(size_t(ll.numInDims()), 0), o(2);
          in[size_t(regIn)] = reg;
          in[size_t(ll.inDimIndex(dims::lane()))] = uint64_t(l);
          in[size_t(ll.inDimIndex(dims::warp()))] = warp;
          ll.apply(in, o);
          const int64_t r = int64_t(transposed ? o[1] : o[0]),
                        c = int64_t(transposed ? o[0] : o[1]);
          if (got != element(r, c))
            return "dpas " + std::to_string(sh.dpas) + " lane " + std::to_string(l) + " register " +
                   std::to_string(u) + " part " + std::to_string(q) + ": got " +
                   std::to_string(got) + ", want element (" + std::to_string(r) + ", " +
                   std::to_string(c) + ") = " + std::to_string(element(r, c));
        }
      }
    }
    if (sh.dpas >= int64_t(fed.size())) fed.resize(size_t(sh.dpas + 1), 0);
    if (!sh.lane || *sh.lane == 0) ++fed[size_t(sh.dpas)];
  }
  const int64_t numDpas =
      int64_t(ll.inDimSize(regIn)) /
      (plan.shuffles.empty() ? 1 : int64_t(plan.shuffles[0].registers.size()) * k);
  if (int64_t(fed.size()) != numDpas) return "not every DPAS instruction is fed";
  for (int f : fed)
    if (f != 1) return "a DPAS instruction is fed twice or never";
  return "";
}

struct Case {
  std::string encoding;
  std::vector<int64_t> shape;
  int elemBits;
  bool transposed;
  const char* target;
};

// Plans `c` and proves it on a random matrix for the given warps. Returns "" or the failure.
std::string provePlan(const Case& c, const intel::BlockLoadPlan& plan, std::mt19937_64& rng,
                      const std::vector<uint64_t>& warps) {
  auto enc = layout::triton::parseEncoding(c.encoding);
  auto ll = layout::triton::toLinearLayout(*enc, c.shape);
  if (!ll) return ll.error().message;
  const intel::BlockIoTarget t = target(c.target);
  const int64_t memRows = c.transposed ? c.shape[1] : c.shape[0];
  const int64_t memCols = c.transposed ? c.shape[0] : c.shape[1];
  const int64_t pitch = std::max<int64_t>(64, (memCols * c.elemBits / 8 + 63) / 64 * 64);
  std::vector<uint8_t> memory(size_t(pitch * memRows));
  for (auto& b : memory) b = uint8_t(rng());
  for (uint64_t w : warps) {
    std::string e = checkPlan(plan, *ll, c.elemBits, c.transposed, t, memory, memRows, pitch, w);
    if (!e.empty()) return "warp " + std::to_string(w) + ": " + e;
  }
  return "";
}

std::vector<uint64_t> allWarps(const intel::BlockLoadPlan& p) {
  std::vector<uint64_t> w;
  for (uint64_t i = 0; i < p.subgroupOffset.inDimSize(0); ++i) w.push_back(i);
  return w;
}

// ---- 1. The seed's cases ------------------------------------------------------------------

TEST(BlockLoadPlanSeed, OperandA) {
  auto enc = layout::triton::parseEncoding(seedOperand(0));
  ASSERT_TRUE(enc.ok());
  int64_t shape[] = {256, 32};
  auto plan = intel::planBlockLoads(*enc, shape, 16, false, target("pvc"));
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  const LinearLayout& tile = plan->tileLayout;
  EXPECT_EQ(render("Block load tile layout:", stage(tile, 1)), readData("blockload_a_tile.txt"));
  EXPECT_EQ(offsetSamples(tile), readData("blockload_a_offsets.txt"));
  EXPECT_EQ(render("Block load tile layout after adding iterations:", stage(tile, 2)),
            readData("blockload_a_iterations.txt"));
  EXPECT_EQ(samples(tile, 2, false), readData("blockload_a_iteration_samples.txt"));
  EXPECT_EQ(render("Block load tile layout after adding loads:", tile),
            readData("blockload_a_loads.txt"));
  // One 16b_32r16x2c load (reference §6: "A fp16 is typically loaded as 16b_32r16x2c").
  ASSERT_EQ(plan->numLoads, 1);
  const intel::BlockLoad& ld = plan->loads[0];
  EXPECT_EQ(std::vector<int>({ld.elemBits, ld.tileWidth, ld.tileHeight, ld.numBlocks}),
            std::vector<int>({16, 16, 32, 2}));
  EXPECT_FALSE(ld.transpose || ld.vnni);
  EXPECT_EQ(ld.offset, std::vector<int64_t>({0, 0}));
  // Reference §2.4: the A operand of M-tile m, K-step b is elements b*32 + 8m + i, i = 0..7.
  ASSERT_EQ(plan->shuffles.size(), 8u);
  for (int it = 0; it < 8; ++it) {
    const intel::Shuffle& s = plan->shuffles[size_t(it)];
    EXPECT_EQ(s.iteration, it);
    EXPECT_EQ(s.dpas, it);
    EXPECT_FALSE(s.lane.has_value());
    std::vector<int64_t> want;
    for (int i = 0; i < 8; ++i) want.push_back((it >> 2) * 32 + 8 * (it & 3) + i);
    EXPECT_EQ(s.registers, want) << "iteration " << it;
  }
  EXPECT_EQ(plan->numShuffledRegisters, 64);
  // Subgroups: the 8 M-warps step 32 rows, the 4 K-warps (the low warp bits) broadcast.
  std::vector<uint64_t> w = {4 * 3 + 2}, o(2);
  plan->subgroupOffset.apply(w, o);
  EXPECT_EQ(o, std::vector<uint64_t>({96, 0}));
  std::mt19937_64 rng(2);
  EXPECT_EQ(provePlan({seedOperand(0), {256, 32}, 16, false, "pvc"}, *plan, rng, allWarps(*plan)),
            "");
}

TEST(BlockLoadPlanSeed, OperandB) {
  auto enc = layout::triton::parseEncoding(seedOperand(1));
  ASSERT_TRUE(enc.ok());
  int64_t shape[] = {32, 256};
  auto plan = intel::planBlockLoads(*enc, shape, 16, false, target("pvc"));
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  const LinearLayout& tile = plan->tileLayout;
  EXPECT_EQ(render("Block load tile layout:", stage(tile, 1)), readData("blockload_b_tile.txt"));
  EXPECT_EQ(offsetSamples(tile), readData("blockload_b_offsets.txt"));
  // Seed 381-392 repeats operand A's listing (iteration=1 -> (8, 0), 2 -> (16, 0), 4 -> (0, 16),
  // 32 x 32). Operand B has two iterations, in register order repCluster[N] then the K
  // repetition, as the seed's own "after adding loads" listing (405-406) says.
  const std::string seedIterations = readData("blockload_b_iterations.txt");
  EXPECT_NE(seedIterations.find("iteration=4 -> (0, 16)"), std::string::npos);
  EXPECT_EQ(render("Block load tile layout after adding iterations:", stage(tile, 2)),
            "Block load tile layout after adding iterations:\n"
            " - offset=1 -> (0, 1)\n   offset=2 -> (0, 2)\n   offset=4 -> (0, 4)\n"
            "   offset=8 -> (0, 8)\n   offset=16 -> (1, 0)\n   offset=32 -> (2, 0)\n"
            "   offset=64 -> (4, 0)\n - iteration=1 -> (0, 16)\n   iteration=2 -> (8, 0)\n"
            "where out dims are: [dim0 (size 16), dim1 (size 32)]\n");
  // Seed 407-408: `load=1 -> (128, 0)`, out dims [256, 32]. B is 32x256 (K x N), row-major in
  // memory: the second 128-column block is along dim1 (hardware view, seed 270: `( 0,128)`), and
  // the tile counts 16 dword rows (VNNI) by 256 columns.
  std::string want = readData("blockload_b_loads.txt");
  want = replaceAll(want, "load=1 -> (128, 0)", "load=1 -> (0, 128)");
  want = replaceAll(want, "[dim0 (size 256), dim1 (size 32)]", "[dim0 (size 16), dim1 (size 256)]");
  EXPECT_EQ(render("Block load tile layout after adding loads:", tile), want);
  // Samples (seed 409-425): the load-1 rows move from (128 + r, c) to (r, 128 + c).
  std::string seedSamples = readData("blockload_b_load_samples.txt"), fixed;
  std::istringstream lines(seedSamples);
  for (std::string line; std::getline(lines, line);) {
    int ld = 0, it = 0, off = 0, r = 0, c = 0;
    if (std::sscanf(line.c_str(), "%d, %d, %d : %d, %d", &ld, &it, &off, &r, &c) == 5 && ld == 1)
      line = "1, " + std::to_string(it) + ", " + std::to_string(off) + " : " +
             std::to_string(r - 128) + ", " + std::to_string(c + 128);
    fixed += line + "\n";
  }
  EXPECT_EQ(samples(tile, 3, true), fixed);
  // Two VNNI loads, transform_16b_32r16x2c, 128 columns apart.
  ASSERT_EQ(plan->numLoads, 2);
  for (const intel::BlockLoad& ld : plan->loads) {
    EXPECT_EQ(std::vector<int>({ld.elemBits, ld.tileWidth, ld.tileHeight, ld.numBlocks}),
              std::vector<int>({16, 16, 32, 2}));
    EXPECT_TRUE(ld.vnni);
    EXPECT_FALSE(ld.transpose);
  }
  EXPECT_EQ(plan->loads[0].offset, std::vector<int64_t>({0, 0}));
  EXPECT_EQ(plan->loads[1].offset, std::vector<int64_t>({0, 128}));
  // Reference §2.4: the B operand of N-tile b, K-step s is dwords b*16 + 8s + j, j = 0..7.
  ASSERT_EQ(plan->shuffles.size(), 8u);
  for (const intel::Shuffle& s : plan->shuffles) {
    std::vector<int64_t> want;
    for (int j = 0; j < 8; ++j) want.push_back((s.iteration & 1) * 16 + 8 * (s.iteration >> 1) + j);
    EXPECT_EQ(s.registers, want);
    EXPECT_FALSE(s.lane.has_value());
  }
  EXPECT_EQ(plan->operandRegisterBits, 32);
  std::mt19937_64 rng(3);
  EXPECT_EQ(provePlan({seedOperand(1), {32, 256}, 16, false, "pvc"}, *plan, rng, allWarps(*plan)),
            "");
}

TEST(BlockLoadPlanSeed, OperandBTransposed) {
  auto enc = layout::triton::parseEncoding(seedOperand(1));
  ASSERT_TRUE(enc.ok());
  int64_t shape[] = {32, 256};
  auto plan = intel::planBlockLoads(*enc, shape, 16, true, target("pvc"));
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  const LinearLayout& tile = plan->tileLayout;
  EXPECT_EQ(render("Block load tile layout:", stage(tile, 1)), readData("blockload_bt_tile.txt"));
  EXPECT_EQ(render("Block load tile layout after adding iterations:", stage(tile, 2)),
            readData("blockload_bt_iterations.txt"));
  // Seed 478-480: `load=1 -> (0, 16)` and dim1 (size 32) count K in elements, while the offsets
  // of the same listing count dwords (offset=4 -> (0, 4) is K elements 8-9). In the listing's own
  // unit the second K block is (0, 8) and dim1 has 16 dwords; BlockLoad::offset keeps the seed's
  // element values (0, 16) and (128, 0).
  std::string want = readData("blockload_bt_loads.txt");
  want = replaceAll(want, "load=1 -> (0, 16)", "load=1 -> (0, 8)");
  want = replaceAll(want, "dim1 (size 32)", "dim1 (size 16)");
  EXPECT_EQ(render("Block load tile layout after adding loads:", tile), want);
  ASSERT_EQ(plan->numLoads, 4);
  const std::vector<std::vector<int64_t>> offsets = {{0, 0}, {0, 16}, {128, 0}, {128, 16}};
  for (int i = 0; i < 4; ++i) {
    const intel::BlockLoad& ld = plan->loads[size_t(i)];
    EXPECT_EQ(std::vector<int>({ld.elemBits, ld.tileWidth, ld.tileHeight, ld.numBlocks}),
              std::vector<int>({32, 8, 32, 1}));
    EXPECT_TRUE(ld.transpose);
    EXPECT_FALSE(ld.vnni);
    EXPECT_EQ(ld.offset, offsets[size_t(i)]);
  }
  // transpose_32b_32r8x1c: lane l, element e = row (e % 2) * 16 + l, dword column e / 2
  // (reference §3.1), so N-tile 0 is the even elements and N-tile 1 the odd ones.
  ASSERT_EQ(plan->shuffles.size(), 8u);
  for (const intel::Shuffle& s : plan->shuffles) {
    std::vector<int64_t> want;
    for (int j = 0; j < 8; ++j) want.push_back(2 * j + s.iteration);
    EXPECT_EQ(s.registers, want);
  }
  std::mt19937_64 rng(4);
  EXPECT_EQ(provePlan({seedOperand(1), {32, 256}, 16, true, "pvc"}, *plan, rng, allWarps(*plan)),
            "");
}

TEST(BlockLoadPlanSeed, Errors) {
  const intel::BlockIoTarget pvc = target("pvc");
  int64_t shape[] = {256, 32};
  auto blocked = layout::triton::parseEncoding(
      "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], "
      "order = [1, 0]}>");
  auto p = intel::planBlockLoads(*blocked, shape, 16, false, pvc);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("parent is a #ttig.dpas"), std::string::npos);
  auto a = layout::triton::parseEncoding(seedOperand(0));
  p = intel::planBlockLoads(*a, shape, 8, false, pvc);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("opsPerChan = 2"), std::string::npos) << p.error().message;
  int64_t tiny[] = {4, 16};
  p = intel::planBlockLoads(*a, tiny, 16, false, pvc);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("smaller than one DPAS instruction"), std::string::npos)
      << p.error().message;
  int64_t huge[] = {int64_t{1} << 30, 32};
  p = intel::planBlockLoads(*a, huge, 16, false, pvc);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("has 34359738368 elements; the limit is 2^24 (16777216)"),
            std::string::npos)
      << p.error().message;
  {
    // Past the element limit, the cap on listed loads still refuses the plan.
    layout::test::ScopedResourceLimits limits;
    limits->maxPlanElements = uint64_t{1} << 40;
    p = intel::planBlockLoads(*a, huge, 16, false, pvc);
    ASSERT_FALSE(p.ok());
    EXPECT_NE(p.error().message.find("at most 4096"), std::string::npos) << p.error().message;
  }
  auto sg32 = layout::triton::parseEncoding(
      "#ttg.dot_op<{opIdx = 1, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, "
      "executionSize = 16, opsPerChan = 2, threadsPerWarp = 32, warpsPerCTA = [1, 1], "
      "repCluster = [1, 1]}>, kWidth = 2}>");
  ASSERT_TRUE(sg32.ok());
  int64_t s32[] = {16, 16};
  p = intel::planBlockLoads(*sg32, s32, 16, false, pvc);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("threadsPerWarp = 32"), std::string::npos);
  int64_t rank3[] = {2, 256, 32};
  EXPECT_FALSE(intel::planBlockLoads(*a, rank3, 16, false, pvc).ok());
  auto i8 = layout::triton::parseEncoding(
      "#ttg.dot_op<{opIdx = 0, parent = " + dpasParent(8, 4, {4, 1}, {2, 1}) + ", kWidth = 2}>");
  int64_t s8[] = {64, 64};
  p = intel::planBlockLoads(*i8, s8, 8, true, pvc);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("no legal 2D block load"), std::string::npos)
      << p.error().message;
}

// ---- 2 and 3. The sweep ---------------------------------------------------------------------

// The fewest loads the hardware limits force, counted without the planner: the subgroup's
// footprint (memory coordinates) is a product of per-dim bit sets; a load covers an R x C block
// inside the contiguous low run of each dim, starting from one DPAS instruction's R0 x C0, with a
// legal shape whose block width is the instruction's width (so lane l keeps DPAS column l). The
// answer is footprint / the largest such R x C; 0 when no shape fits (the planner must fail).
int64_t minimumLoads(const LinearLayout& ll, int opIdx, int rc, int elemBits, bool transposed,
                     const intel::BlockIoTarget& t) {
  const int opc = 32 / elemBits;
  int64_t tr = opIdx == 0 ? rc : 8 * opc, tc = opIdx == 0 ? 8 * opc : 16; // tensor tile
  const int64_t r0 = transposed ? tc : tr, c0 = transposed ? tr : tc;
  uint64_t mask[2] = {0, 0};
  for (DimName d : {dims::reg(), dims::lane()}) {
    const int i = ll.inDimIndex(d);
    for (int b = 0; b < ll.inDimSizeLog2(i); ++b) {
      const uint64_t v0 = ll.basis(i, b, 0), v1 = ll.basis(i, b, 1);
      mask[0] |= transposed ? v1 : v0;
      mask[1] |= transposed ? v0 : v1;
    }
  }
  const int64_t run0 = int64_t{1} << std::countr_one(mask[0]);
  const int64_t run1 = int64_t{1} << std::countr_one(mask[1]);
  const int64_t footprint = int64_t{1} << (std::popcount(mask[0]) + std::popcount(mask[1]));
  // Which transposed loads keep every DPAS register inside its lane (reference §3.1, §3.2): B
  // (lane n = column n = a transposed row), 16-bit A (lane l = column l); tf32 A only with 8 K
  // rows, whose 8-element transposed rows put the odd M rows on lanes 8-15 as DPAS wants; never
  // 8-bit A (its i16 register holds two K values, which a transposed row gives to two lanes).
  auto transposeOk = [&](int64_t r) {
    return opIdx == 1 || elemBits == 16 || (elemBits == 32 && r == r0);
  };
  int64_t best = 0;
  for (int64_t r = r0; r <= run0; r *= 2)
    for (int64_t c = c0; c <= run1; c *= 2) {
      std::vector<intel::BlockShape> shapes;
      if (transposed) {
        if (transposeOk(r)) shapes.push_back({32, int(c * elemBits / 32), int(r), 1, true, false});
      } else {
        const int nb = int(c / c0);
        shapes.push_back({elemBits, int(c0), int(r), nb, false, false});
        if (opIdx == 0 && elemBits == 8)
          shapes.push_back({16, int(c0 / 2), int(r), nb, false, false});
        if (opIdx == 1 && elemBits < 32)
          shapes.push_back({elemBits, int(c0), int(r), nb, false, true});
      }
      for (const auto& s : shapes)
        if (intel::validateBlockShape(t, intel::BlockOp::Load, s)) best = std::max(best, r * c);
    }
  return best ? footprint / best : 0;
}

TEST(BlockLoadPlanSweep, LoadsDeliverEveryDpasRegisterAndAreMinimal) {
  std::mt19937_64 rng(2026);
  int planned = 0, failedAsExpected = 0, configs = 0, perLane = 0;
  const std::vector<std::vector<int>> warpsList = {{1, 1}, {2, 2}, {4, 2}, {8, 4}, {1, 4}};
  for (const char* tname : {"pvc", "bmg"}) {
    const intel::BlockIoTarget t = target(tname);
    for (int elemBits : {16, 8, 32})
      for (int opIdx : {0, 1})
        for (int rc : {1, 2, 4, 8})
          for (int rcM : {1, 2, 4})
            for (int rcN : {1, 2, 4})
              for (const auto& warps : warpsList)
                for (int grow : {0, 1, 2})
                  for (bool transposed : {false, true}) {
                    const int opc = 32 / elemBits;
                    const int kWidth = opIdx == 1 ? opc : (opc == 1 ? 1 : opc / 2);
                    const std::string text =
                        "#ttg.dot_op<{opIdx = " + std::to_string(opIdx) +
                        ", parent = " + dpasParent(rc, opc, warps, {rcM, rcN}) +
                        ", kWidth = " + std::to_string(kWidth) + "}>";
                    auto enc = layout::triton::parseEncoding(text);
                    if (!enc) continue;
                    // grow 0: one DPAS instruction's tile, so repCluster registers and warps
                    // are broadcast (zero bases); 1: one K step per warp tile; 2: twice that.
                    const int64_t k = 8 * opc * std::max(1, 2 * grow);
                    const int64_t m = grow ? int64_t(rc) * rcM * warps[0] * grow : rc;
                    const int64_t n = grow ? int64_t(16) * rcN * warps[1] * grow : 16;
                    std::vector<int64_t> shape =
                        opIdx == 0 ? std::vector<int64_t>{m, k} : std::vector<int64_t>{k, n};
                    auto ll = layout::triton::toLinearLayout(*enc, shape);
                    if (!ll) continue; // e.g. tf32 A with repeatCount 1 (dot_op verifier)
                    ++configs;
                    auto plan = intel::planBlockLoads(*enc, shape, elemBits, transposed, t);
                    const int64_t want = minimumLoads(*ll, opIdx, rc, elemBits, transposed, t);
                    const std::string where = text + " shape " + std::to_string(shape[0]) + "x" +
                                              std::to_string(shape[1]) +
                                              (transposed ? " transposed" : "") + " on " + tname;
                    if (!plan) {
                      EXPECT_EQ(want, 0) << where << ": " << plan.error().message;
                      ++failedAsExpected;
                      continue;
                    }
                    ++planned;
                    for (const intel::Shuffle& sh : plan->shuffles)
                      if (sh.lane) {
                        ++perLane;
                        break;
                      }
                    EXPECT_EQ(plan->numLoads, want) << where;
                    const uint64_t nw = plan->subgroupOffset.inDimSize(0);
                    const std::string e = provePlan({text, shape, elemBits, transposed, tname},
                                                    *plan, rng, {0, nw - 1, rng() % nw});
                    ASSERT_EQ(e, "") << where;
                  }
  }
  EXPECT_GT(planned, 1000);
  std::cout << "[ sweep ] " << configs << " configurations, " << planned << " planned and proved, "
            << failedAsExpected << " rejected (no lane-preserving block load), " << perLane
            << " with lane-dependent shuffles\n";
}

} // namespace

// ---- The planner's loads and the backend's #ttig.subgroup_2d_block -------------------------

namespace {

// For each load of a plan: whether the per-lane element order of the message (the reference
// executor, intel::loadPerWorkItem) is the backend's #ttig.subgroup_2d_block layout with
// instrShape = (tileHeight, tileWidth) and the load's numBlocks, element for element.
std::vector<bool> loadsMatchSubgroup2DBlock(const intel::BlockLoadPlan& plan) {
  std::vector<bool> out;
  const auto pvc = target("pvc");
  for (const intel::BlockLoad& l : plan.loads) {
    const intel::BlockShape s{l.elemBits,  l.tileWidth, l.tileHeight,
                              l.numBlocks, l.transpose, l.vnni};
    // A surface whose element (r, c) holds r << 8 | c (16-bit elements, tiles up to 64 x 64).
    const int64_t cols = 64, rows = 64;
    intel::Surface surface{0, cols * 2, rows, cols * 2};
    std::vector<uint8_t> memory(size_t(rows * cols * 2));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        const uint16_t code = uint16_t(r << 8 | c);
        std::memcpy(memory.data() + (r * cols + c) * 2, &code, 2);
      }
    auto lanes = intel::loadPerWorkItem(pvc, {intel::BlockOp::Load, s, surface, 0, 0}, memory);
    EXPECT_TRUE(lanes) << (lanes ? "" : lanes.error().message);
    if (!lanes) return {};
    layout::triton::Subgroup2DBlockParams p;
    p.instrShape = {l.tileHeight, l.tileWidth};
    p.numBlocks = l.numBlocks;
    const int64_t shape[] = {l.tileHeight, int64_t{l.tileWidth} * l.numBlocks};
    auto ll = layout::triton::subgroup2DBlockLayout(p, shape);
    EXPECT_TRUE(ll) << (ll ? "" : ll.error().message);
    if (!ll) return {};
    bool same = int64_t((*lanes)[0].size()) == int64_t(ll->inDimSize(0));
    for (size_t lane = 0; same && lane < lanes->size(); ++lane)
      for (size_t i = 0; same && i < (*lanes)[lane].size(); ++i) {
        const std::pair<DimName, uint64_t> in[] = {
            {dims::reg(), i}, {dims::lane(), lane}, {dims::warp(), 0}, {dims::block(), 0}};
        auto o = ll->apply(in);
        same = (*lanes)[lane][i] == ((*o)[0].second << 8 | (*o)[1].second);
      }
    out.push_back(same);
  }
  return out;
}

// Seed 002's operands: the plain A load (16b_32r16x2c) and the VNNI B load
// (transform_16b_32r16x2c) deliver their elements exactly in the backend's subgroup_2d_block
// order (for VNNI, reading each dword as its two 16-bit halves, lower row first); the transposed
// B load (transpose_32b_32r8x1c) does not: the encoding describes a row-major message, and the
// transposed message gives lane l the rows l and l + 16 of a column (docs/reference/intel-xe.md
// §1.5 and §3.1).
TEST(BlockLoadPlanSeed, LoadsAgainstTheBackendsSubgroup2DBlockLayout) {
  struct Case {
    int opIdx;
    std::vector<int64_t> shape;
    bool transposed;
    const char* load;
    bool coincides;
  };
  for (const Case& c : {Case{0, {256, 32}, false, "16b_32r16x2c", true},
                        Case{1, {32, 256}, false, "transform_16b_32r16x2c", true},
                        Case{1, {32, 256}, true, "transpose_32b_32r8x1c", false}}) {
    SCOPED_TRACE(c.load);
    auto enc = layout::triton::parseEncoding(seedOperand(c.opIdx));
    ASSERT_TRUE(enc.ok());
    auto plan = intel::planBlockLoads(*enc, c.shape, 16, c.transposed, target("pvc"));
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_FALSE(plan->loads.empty());
    const auto& l = plan->loads[0];
    EXPECT_EQ(intel::blockShapeName(
                  {l.elemBits, l.tileWidth, l.tileHeight, l.numBlocks, l.transpose, l.vnni}),
              c.load);
    for (bool same : loadsMatchSubgroup2DBlock(*plan)) EXPECT_EQ(same, c.coincides);
  }
}

} // namespace
