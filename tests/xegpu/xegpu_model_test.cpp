// The independent XeGPU model (tests/support/xegpu_model.h) on its own, against examples printed in
// docs/reference/xegpu.md ("ref") and the XeGPU RFCs docs/seeds.md (seed 000)
// ("seed 000") and 001_046d9a7c4907c201.txt ("seed 001"), transcribed by hand; then, once
// layout/xegpu/xegpu_layout.h exists, liblayout's XeGPU -> LinearLayout conversion against the
// model on thousands of random legal power-of-two attributes (see the second half of this file).
#include "support/xegpu_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace xm = xegpu_model;
using xm::Coord;
using xm::Shape;

std::string coordText(const Coord& c) {
  std::string s = "(";
  for (size_t i = 0; i < c.size(); ++i) s += (i ? "," : "") + std::to_string(c[i]);
  return s + ")";
}

// ---- Parsing and printing -----------------------------------------------------------------------
TEST(XegpuModel, ParsesTheBriefsAttributes) {
  xm::Params p = xm::parse("#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 128], lane_layout = "
                           "[1, 16], lane_data = [1, 1], order = [1, 0]>");
  EXPECT_EQ(p.sgLayout, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(p.sgData, (std::vector<int64_t>{32, 128}));
  EXPECT_TRUE(p.instData.empty());
  EXPECT_EQ(p.laneLayout, (std::vector<int64_t>{1, 16}));
  EXPECT_EQ(p.laneData, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(p.order, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(xm::toString(p), "#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 128], lane_layout = "
                             "[1, 16], lane_data = [1, 1], order = [1, 0]>");

  xm::Params s = xm::parse("#xegpu.slice<#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>, "
                           "dims = [0]>");
  EXPECT_EQ(s.sliceDims, (std::vector<std::vector<int64_t>>{{0}}));
  EXPECT_EQ(xm::rank(s), 1);
  // The RFC's spelling (seed 001: `#xegpu.slice<#layout_a, 1>`), inline parent.
  xm::Params rfc = xm::parse("#xegpu.slice<#xegpu.layout<sg_layout=[32, 1], sg_data=[8, 128], "
                             "inst_data=[1, 16], lane_layout=[1,16], lane_data=[1,1], "
                             "order=[1, 0]>, 1>");
  EXPECT_EQ(rfc.sliceDims, (std::vector<std::vector<int64_t>>{{1}}));
  EXPECT_EQ(rfc.instData, (std::vector<int64_t>{1, 16}));

  xm::Params m = xm::parse("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>");
  EXPECT_EQ(m.laneLayout, (std::vector<int64_t>{1, 16}));
  EXPECT_EQ(m.laneData, (std::vector<int64_t>{1, 1}));
  EXPECT_TRUE(m.sgLayout.empty());

  xm::Params nested = xm::parse(
      "#xegpu.slice<#xegpu.slice<#xegpu.layout<sg_layout = [4, 8, 12], sg_data = [1, 1, 1]>, "
      "dims = [0]>, dims = [0]>");
  EXPECT_EQ(nested.sliceDims, (std::vector<std::vector<int64_t>>{{0}, {0}}));
  EXPECT_EQ(xm::parse(xm::toString(nested)), nested);
  EXPECT_EQ(xm::toString(xm::parse("#xegpu.layout<>")), "#xegpu.layout<>");

  EXPECT_THROW(xm::parse("#xegpu.layout<sg_layout = [2]"), std::invalid_argument);
  EXPECT_THROW(xm::parse("#xegpu.layout<foo = [2]>"), std::invalid_argument);
  EXPECT_THROW(xm::parse("#xegpu.layout<order = [0], order = [0]>"), std::invalid_argument);
}

// ---- Ref §1.1 verifier --------------------------------------------------------------------------
TEST(XegpuModel, VerifierMessagesInOrder) {
  auto err = [](const char* text) { return xm::verifyError(xm::parse(text)).value_or("OK"); };
  EXPECT_EQ(err("#xegpu.layout<>"), "OK"); // rule 1: the empty layout is legal
  EXPECT_EQ(err("#xegpu.layout<sg_layout = [2, 2], sg_data = [2, 2], inst_data = [8]>"),
            "expected sg_layout and inst_data to have the same rank");
  EXPECT_EQ(err("#xegpu.layout<sg_layout = [2, 2], sg_data = [2, 2], lane_layout = [16], "
                "lane_data = [1]>"),
            "expected sg_layout and lane_layout to have the same rank");
  EXPECT_EQ(err("#xegpu.layout<inst_data = [8, 16], lane_layout = [16], lane_data = [1]>"),
            "expected inst_data and lane_layout to have the same rank, got inst_data 2, "
            "lane_layout 1");
  EXPECT_EQ(err("#xegpu.layout<sg_layout = [2, 2]>"),
            "sg_layout and sg_data must be used together");
  EXPECT_EQ(err("#xegpu.layout<sg_layout = [2, 2], sg_data = [4]>"),
            "expected sg_data and sg_layout to have the same rank");
  EXPECT_EQ(err("#xegpu.layout<lane_layout = [1, 16]>"),
            "lane_layout and lane_data must be used together");
  EXPECT_EQ(err("#xegpu.layout<lane_layout = [1, 16], lane_data = [1]>"),
            "expected lane_data and lane_layout to have the same rank");
  EXPECT_EQ(err("#xegpu.layout<inst_data = [8, 16], order = [1, 0]>"),
            "expected sg_layout/lane_layout being used with order");
  EXPECT_EQ(err("#xegpu.layout<sg_layout = [2, 2], sg_data = [2, 2], order = [0]>"),
            "expected order and sg_layout to have the same rank");
  EXPECT_EQ(err("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1], order = [0]>"),
            "expected order and lane_layout to have the same rank");
  // Rule 1 comes first: sg_data alone is accepted (no sg_layout, inst_data or lane_layout).
  EXPECT_EQ(err("#xegpu.layout<sg_data = [2, 2]>"), "OK");
  // Ref §5 slice checks.
  EXPECT_EQ(err("#xegpu.slice<#xegpu.layout<inst_data = [8, 16]>, dims = [-1]>"),
            "invalid dim (-1) in slice attribute.");
  EXPECT_EQ(err("#xegpu.slice<#xegpu.layout<inst_data = [8, 16, 2]>, dims = [1, 1]>"),
            "repeated dim (1) in slice attribute.");
}

// ---- Ref §1.3 distributability ------------------------------------------------------------------
TEST(XegpuModel, Distributability) {
  auto ok = [](const char* text, Shape shape) {
    return xm::isDistributable(xm::parse(text), shape);
  };
  const char* lanes16 = "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>";
  EXPECT_TRUE(ok(lanes16, {8, 16}));
  EXPECT_TRUE(ok(lanes16, {8, 32}));
  EXPECT_FALSE(ok(lanes16, {8, 8})); // 8 % 16 != 0, rr = false at lane level
  EXPECT_TRUE(ok(lanes16, {8, 1}));  // ref §1.3 2026 wrap-around: vector<8x1> -> every lane
  EXPECT_FALSE(ok(lanes16, {8, 2})); // "Other non-divisible lane cases still fail."
  // Round-robin / sharing at sg level (rr = true).
  EXPECT_TRUE(ok("#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 16]>", {64, 64}));
  EXPECT_TRUE(ok("#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16]>", {32, 32}));
  EXPECT_TRUE(ok("#xegpu.layout<sg_layout = [4, 8], sg_data = [16, 16]>", {64, 16}));
  // "If shape % layout == 0 in all dims ...; else if rr and layout % shape == 0": all dims at once.
  EXPECT_FALSE(ok("#xegpu.layout<sg_layout = [2, 64], sg_data = [8, 8]>", {64, 32}));
  // inst: sg_data % inst_data == 0, no round-robin.
  EXPECT_FALSE(
      ok("#xegpu.layout<sg_layout = [2, 2], sg_data = [8, 16], inst_data = [16, 16]>", {64, 64}));
  // lane inside inst tiles.
  EXPECT_TRUE(ok("#xegpu.layout<sg_layout = [4, 8], sg_data = [16, 16], inst_data = [8, 16], "
                 "lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>",
                 {64, 16}));
  EXPECT_FALSE(
      ok("#xegpu.layout<inst_data = [8, 8], lane_layout = [1, 16], lane_data = [1, 1]>", {8, 16}));
}

// ---- Ref §2 delinearizeId -----------------------------------------------------------------------
TEST(XegpuModel, DelinearizeDocExamples) {
  // "Doc example: s = 22, G = [2,4,4], O = [2,1,0] -> id = [1,1,2]."
  EXPECT_EQ(xm::delinearize(22, std::vector<int64_t>{2, 4, 4}, std::vector<int64_t>{2, 1, 0}),
            (std::vector<int64_t>{1, 1, 2}));
  // "lane_layout = [2,8] -> [[0..7],[8..15]]; with order = [0,1] -> [[0,2,...,14],[1,3,...,15]]."
  for (int64_t s = 0; s < 16; ++s) {
    EXPECT_EQ(xm::delinearize(s, std::vector<int64_t>{2, 8}, std::vector<int64_t>{1, 0}),
              (std::vector<int64_t>{s / 8, s % 8}));
    EXPECT_EQ(xm::delinearize(s, std::vector<int64_t>{2, 8}, std::vector<int64_t>{0, 1}),
              (std::vector<int64_t>{s % 2, s / 2}));
  }
  // "sg_layout = [2,4] -> [[0,1,2,3],[4,5,6,7]]; with order = [0,1] -> [[0,2,4,6],[1,3,5,7]]."
  const int64_t rowMajor24[2][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  const int64_t colMajor24[2][4] = {{0, 2, 4, 6}, {1, 3, 5, 7}};
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t c = 0; c < 4; ++c) {
      EXPECT_EQ(
          xm::delinearize(rowMajor24[r][c], std::vector<int64_t>{2, 4}, std::vector<int64_t>{1, 0}),
          (std::vector<int64_t>{r, c}));
      EXPECT_EQ(
          xm::delinearize(colMajor24[r][c], std::vector<int64_t>{2, 4}, std::vector<int64_t>{0, 1}),
          (std::vector<int64_t>{r, c}));
    }
  // Seed 001's table for sg_layout [4, 4]: order [1, 0] -> 4r + c, order [0, 1] -> r + 4c.
  const int64_t order10[4][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}};
  const int64_t order01[4][4] = {{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}};
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 4; ++c) {
      EXPECT_EQ(
          xm::delinearize(order10[r][c], std::vector<int64_t>{4, 4}, std::vector<int64_t>{1, 0}),
          (std::vector<int64_t>{r, c}));
      EXPECT_EQ(
          xm::delinearize(order01[r][c], std::vector<int64_t>{4, 4}, std::vector<int64_t>{0, 1}),
          (std::vector<int64_t>{r, c}));
    }
  // Seed 001, 3-D: "order[2, 1, 0] maps ... [x, y, z] to [z + dim_2 * y + dim_2 * dim_1 * x],
  // order[1, 2, 0] maps to [y + dim_2 * z + dim_2 * dim_1 * x]". (The second formula only holds
  // as printed when dim_1 == dim_2; it should read y + dim_1 * z. dims [2, 4, 4] satisfy both.)
  const std::vector<int64_t> G{2, 4, 4};
  for (int64_t x = 0; x < 2; ++x)
    for (int64_t y = 0; y < 4; ++y)
      for (int64_t z = 0; z < 4; ++z) {
        EXPECT_EQ(xm::delinearize(z + 4 * y + 16 * x, G, std::vector<int64_t>{2, 1, 0}),
                  (std::vector<int64_t>{x, y, z}));
        EXPECT_EQ(xm::delinearize(y + 4 * z + 16 * x, G, std::vector<int64_t>{1, 2, 0}),
                  (std::vector<int64_t>{x, y, z}));
      }
  // "ids >= prod(G) alias ids mod prod(G)".
  EXPECT_EQ(xm::delinearize(22 + 32, G, std::vector<int64_t>{2, 1, 0}),
            (std::vector<int64_t>{1, 1, 2}));
}

// ---- Ref §3 computeDistributedCoords ------------------------------------------------------------
TEST(XegpuModel, RoundRobinIllustration) {
  // "shape 64x64, sg_layout [2,2], sg_data [16,16] -> units 32x32, 4 blocks per subgroup; sg 3
  // (id [1,1]) -> [[16,16],[16,48],[48,16],[48,48]]."
  std::vector<Coord> starts =
      xm::blockStarts(Shape{64, 64}, std::vector<int64_t>{2, 2}, std::vector<int64_t>{16, 16},
                      std::vector<int64_t>{1, 1});
  EXPECT_EQ(starts, (std::vector<Coord>{{16, 16}, {16, 48}, {48, 16}, {48, 48}}));
  // The same through the whole model: 4 pieces of 16x16, pieces in that order, row-major inside.
  xm::Params p = xm::parse("#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 16]>");
  std::vector<Coord> e = xm::laneElements(p, Shape{64, 64}, 3, 0);
  ASSERT_EQ(e.size(), 4u * 256u);
  EXPECT_EQ(e[0], (Coord{16, 16}));
  EXPECT_EQ(e[1], (Coord{16, 17}));
  EXPECT_EQ(e[16], (Coord{17, 16}));
  EXPECT_EQ(e[256], (Coord{16, 48}));
  EXPECT_EQ(e[512], (Coord{48, 16}));
  EXPECT_EQ(e[1023], (Coord{63, 63}));
  EXPECT_EQ(xm::distributedShape(p, Shape{64, 64}), (Shape{32, 32})); // 4 blocks of 16x16
}

TEST(XegpuModel, BroadcastIllustration) {
  // "shape 32x32, sg_layout [4,4], sg_data [8,16] -> along dim 1, subgroups with id[1] in {0,2} own
  // columns 0..15 and id[1] in {1,3} own columns 16..31."
  xm::Params p = xm::parse("#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16]>");
  auto own = xm::owners(p, Shape{32, 32});
  for (int64_t r = 0; r < 32; ++r)
    for (int64_t c = 0; c < 32; ++c) {
      std::set<int64_t> sgs;
      for (const auto& o : own[size_t(r * 32 + c)]) sgs.insert(o.subgroup);
      int64_t row = r / 8; // id[0]
      std::set<int64_t> want = c < 16 ? std::set<int64_t>{4 * row + 0, 4 * row + 2}
                                      : std::set<int64_t>{4 * row + 1, 4 * row + 3};
      EXPECT_EQ(sgs, want) << coordText({r, c});
    }
}

TEST(XegpuModel, Seed001SubgroupTable128x128) {
  // Seed 001: 128x128, sg_layout [2,2], sg_data [32,128]: rows 0:31 -> subgroups 0,1;
  // 32:63 -> 2,3; 64:95 -> 0,1; 96:127 -> 2,3; columns 0:127 for each.
  xm::Params p = xm::parse("#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 128], lane_layout = "
                           "[1, 16], lane_data = [1, 1], order = [1, 0]>");
  // This 2025 RFC example is not distributable under ref §1.3 as written: shape / sg_layout =
  // [64, 64] and sg_data [32, 128] divide neither way in all dims at once (dim 0 is round-robin,
  // dim 1 is broadcast). The §3 formulas, applied per dim, still give the RFC's table.
  EXPECT_FALSE(xm::isDistributable(p, Shape{128, 128}));
  EXPECT_TRUE(xm::modelApplies(p, Shape{128, 128}));
  for (int64_t sg = 0; sg < 4; ++sg) {
    std::set<int64_t> rows;
    std::set<int64_t> cols;
    for (int64_t lane = 0; lane < 16; ++lane)
      for (const Coord& c : xm::laneElements(p, Shape{128, 128}, sg, lane)) {
        rows.insert(c[0]);
        cols.insert(c[1]);
      }
    std::set<int64_t> want;
    for (int64_t r = 0; r < 32; ++r) {
      want.insert(r + 32 * (sg / 2));
      want.insert(r + 32 * (sg / 2) + 64);
    }
    EXPECT_EQ(rows, want) << "subgroup " << sg;
    EXPECT_EQ(cols.size(), 128u) << "subgroup " << sg;
  }
}

TEST(XegpuModel, Seed001WorkgroupExample64x16) {
  // Seed 001: "tensor_desc [64, 16] ... 32 subgroups with sg_layout [4, 8], and each subgroup gets
  // sg_data [16, 16]. The first dimension is split and distributed to 4 subgroups, and the second
  // dimension is broadcast to 8 subgroups. Then it is further distributed to work item level as a
  // vector of 16 bf16 values" (two 8x16 inst tiles, vector<8xbf16> each).
  xm::Params p = xm::parse("#xegpu.layout<sg_layout = [4, 8], sg_data = [16, 16], inst_data = [8, "
                           "16], lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>");
  const Shape shape{64, 16};
  EXPECT_EQ(xm::numRegisters(p, shape), 16);
  for (int64_t sg = 0; sg < 32; ++sg)
    for (int64_t lane = 0; lane < 16; ++lane) {
      std::vector<Coord> e = xm::laneElements(p, shape, sg, lane);
      for (int64_t reg = 0; reg < 16; ++reg)
        EXPECT_EQ(e[size_t(reg)], (Coord{16 * (sg / 8) + reg, lane}))
            << "sg " << sg << " lane " << lane << " reg " << reg;
    }
}

// ---- Ref §3.1 / §3.2 per-lane registers ---------------------------------------------------------
TEST(XegpuModel, Ref32LaneRegisters) {
  // "32x64 with lane_layout [1,16], lane_data [1,2] -> per-lane 32x4" and "lane l, register (r, j),
  // j = 0..3 -> row r, column 2l + (j mod 2) + 32*(j div 2)".
  xm::Params p = xm::parse("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 2]>");
  const Shape shape{32, 64};
  EXPECT_EQ(xm::distributedShape(p, shape), (Shape{32, 4}));
  for (auto order : {xm::RegisterOrder::Blocks, xm::RegisterOrder::VectorRowMajor})
    for (int64_t l = 0; l < 16; ++l) {
      std::vector<Coord> e = xm::laneElements(p, shape, 0, l, order);
      ASSERT_EQ(e.size(), 128u);
      for (int64_t r = 0; r < 32; ++r)
        for (int64_t j = 0; j < 4; ++j)
          EXPECT_EQ(e[size_t(4 * r + j)], (Coord{r, 2 * l + j % 2 + 32 * (j / 2)}));
    }
}

TEST(XegpuModel, RegisterOrdersDifferWhenLaneDataIsNotInnermost) {
  // 16x32, lane_layout [1, 16], lane_data [2, 1]: blocks of 2x1, units 2x16 -> 8x2 units.
  // Blocks (seed 001 "The data within lane_data is packed first, followed by the packing of data
  // fragments in row-major order"): (0,l) (1,l) (0,l+16) (1,l+16) (2,l) ...
  // VectorRowMajor (ref §3.2, P = 16x2 row-major): (0,l) (0,l+16) (1,l) (1,l+16) (2,l) ...
  xm::Params p = xm::parse("#xegpu.layout<lane_layout = [1, 16], lane_data = [2, 1]>");
  const Shape shape{16, 32};
  EXPECT_EQ(xm::laneDistributedShape(p, shape), (Shape{16, 2}));
  for (int64_t l = 0; l < 16; ++l) {
    std::vector<Coord> blocks = xm::laneElements(p, shape, 0, l, xm::RegisterOrder::Blocks);
    std::vector<Coord> vec = xm::laneElements(p, shape, 0, l, xm::RegisterOrder::VectorRowMajor);
    ASSERT_EQ(blocks.size(), 32u);
    for (int64_t k = 0; k < 32; ++k) {
      int64_t b = k / 2, w = k % 2; // block index (u0 * 2 + u1), element within block
      EXPECT_EQ(blocks[size_t(k)], (Coord{2 * (b / 2) + w, l + 16 * (b % 2)}));
      EXPECT_EQ(vec[size_t(k)], (Coord{k / 2, l + 16 * (k % 2)}));
    }
  }
}

TEST(XegpuModel, WrapAroundReplicatesToAllLanes) {
  // Ref §1.3: "vector<8x1> with lane_layout [1,16], lane_data [1,1] -> every lane holds the whole
  // vector<8x1>."
  xm::Params p = xm::parse("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>");
  for (int64_t l = 0; l < 16; ++l)
    EXPECT_EQ(xm::laneElements(p, Shape{8, 1}, 0, l),
              (std::vector<Coord>{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}, {7, 0}}));
  EXPECT_EQ(xm::distributedShape(p, Shape{8, 1}), (Shape{8, 1}));
}

// ---- Seed 000 sg_map fragments ------------------------------------------------------------------
TEST(XegpuModel, Seed000SgMapFragments) {
  // Seed 000: each fragment is [n_distribution_units, wi_data_size]: elements per lane.
  struct Ex {
    const char* map;
    Shape shape;
    int64_t units, wiDataSize;
  };
  const Ex examples[] = {
      {"#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>", {8, 16}, 8, 1},   // vector<8x1>
      {"#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 2]>", {8, 32}, 8, 2},   // vector<8x2>
      {"#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>", {12, 32}, 24, 1}, // vector<24x1>
      {"#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 2]>", {12, 32}, 12, 2}, // vector<12x2>
      {"#xegpu.sg_map<wi_layout = [1, 16], wi_data = [2, 1]>", {16, 16}, 8, 2},  // vector<8x2>
      {"#xegpu.sg_map<wi_layout = [16, 1], wi_data = [1, 1]>", {16, 8}, 8, 1},   // vector<8x1>
      {"#xegpu.sg_map<wi_layout = [16, 1], wi_data = [1, 2]>", {16, 16}, 8, 2},  // vector<8x2>
      // PVC table: "[8, 8] to [4, 1]", "[32, 16] to [8, 4]", "[8, 32] to [8, 2]".
      {"#xegpu.sg_map<wi_layout = [2, 8], wi_data = [1, 1]>", {8, 8}, 4, 1},
      {"#xegpu.sg_map<wi_layout = [1, 16], wi_data = [4, 1]>", {32, 16}, 8, 4},
      // ARC table: "[8, 16] to [8, 2]" with wi_layout [1, 8], wi_data [1, 2].
      {"#xegpu.sg_map<wi_layout = [1, 8], wi_data = [1, 2]>", {8, 16}, 8, 2},
  };
  for (const Ex& ex : examples) {
    xm::Params p = xm::parse(ex.map);
    SCOPED_TRACE(ex.map);
    ASSERT_TRUE(xm::isDistributable(p, ex.shape));
    EXPECT_EQ(xm::numRegisters(p, ex.shape), ex.units * ex.wiDataSize);
    // Every element has exactly one holder (no replication in these examples).
    for (const auto& o : xm::owners(p, ex.shape)) EXPECT_EQ(o.size(), 1u);
  }
  // "the data fragement <16x1xbf16> is loaded and packed as <8x2xbf16>" (wi_data [2, 1]): unit k
  // holds rows 2k, 2k+1 of the lane's column; wi_data innermost.
  xm::Params vnni = xm::parse("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [2, 1]>");
  for (int64_t l = 0; l < 16; ++l) {
    std::vector<Coord> e = xm::laneElements(vnni, Shape{16, 16}, 0, l);
    for (int64_t k = 0; k < 8; ++k)
      for (int64_t j = 0; j < 2; ++j) EXPECT_EQ(e[size_t(2 * k + j)], (Coord{2 * k + j, l}));
  }
  // "xegpu.sg_map also applies to 3D vector, which represents the result of 2D block load with
  // array_length": tensor_desc<8x16xbf16, array_length=2> -> vector<16x1xbf16> per lane.
  xm::Params a = xm::parse("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>");
  EXPECT_EQ(xm::numRegisters(a, Shape{2, 8, 16}), 16);
  EXPECT_EQ(xm::perLaneShape(a, Shape{2, 8, 16}), (Shape{16, 1}));
  // Transposed 16x16 with wi_layout [16, 1], wi_data [1, 2]: lane l holds row l.
  xm::Params t = xm::parse("#xegpu.sg_map<wi_layout = [16, 1], wi_data = [1, 2]>");
  for (int64_t l = 0; l < 16; ++l) {
    std::vector<Coord> e = xm::laneElements(t, Shape{16, 16}, 0, l);
    for (int64_t k = 0; k < 16; ++k) EXPECT_EQ(e[size_t(k)], (Coord{l, k}));
  }
}

// ---- Ref §4 shapes ------------------------------------------------------------------------------
TEST(XegpuModel, Ref4DistributedShapes) {
  xm::Params l116 = xm::parse("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>");
  xm::Params l28 = xm::parse("#xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1]>");
  // "Doc table: 32x16 with [1,16] -> 32x1; 32x16 with [2,8] -> 16x2; 2x32x16 with [1,16] ->
  // 2x32x1."
  EXPECT_EQ(xm::laneDistributedShape(l116, Shape{32, 16}), (Shape{32, 1}));
  EXPECT_EQ(xm::laneDistributedShape(l28, Shape{32, 16}), (Shape{16, 2}));
  EXPECT_EQ(xm::laneDistributedShape(l116, Shape{2, 32, 16}), (Shape{2, 32, 1}));
  EXPECT_EQ(xm::distributedShape(l116, Shape{2, 32, 16}), (Shape{2, 32, 1}));
  // "16x32xf32 with lane_layout [1,16], lane_data [1,1] -> vector<32xf32>; 16x16xf16 with
  // array_length 2 and the same layout -> vector<32xf16>."
  EXPECT_EQ(xm::simtVectorLength(l116, Shape{16, 32}), 32);
  EXPECT_EQ(xm::simtVectorLength(l116, Shape{16, 16}, 2), 32);
  EXPECT_EQ(xm::numRegisters(l116, Shape{16, 32}), 32);
  // Ref §3.1 (computeDistributedShape) for a workgroup layout: the per-subgroup shape.
  xm::Params wg = xm::parse("#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16]>");
  EXPECT_EQ(xm::distributedShape(wg, Shape{32, 32}), (Shape{8, 16}));   // sharing
  EXPECT_EQ(xm::distributedShape(wg, Shape{64, 128}), (Shape{16, 32})); // round-robin
}

// ---- Ref §5 slices ------------------------------------------------------------------------------
TEST(XegpuModel, SliceFlattenAndBroadcast) {
  // "slice<slice<L(rank 5), [1]>, [0,2]> -> remaining [0,2,3,4] -> [2,4] -> dims [0,1,3]."
  xm::Params five =
      xm::parse("#xegpu.slice<#xegpu.slice<#xegpu.layout<lane_layout = [1, 1, 1, 1, 1], lane_data "
                "= [1, 1, 1, 1, 1]>, dims = [1]>, dims = [0, 2]>");
  EXPECT_EQ(xm::flattenedSliceDims(five), (std::vector<int64_t>{0, 1, 3}));
  EXPECT_EQ(xm::rank(five), 2);
  // "slice<slice<layout<sg_layout=[4,8,12]>, [0]>, [0]> -> dims [0,1]."
  xm::Params doc = xm::parse("#xegpu.slice<#xegpu.slice<#xegpu.layout<sg_layout = [4, 8, 12], "
                             "sg_data = [1, 1, 1]>, dims = [0]>, dims = [0]>");
  EXPECT_EQ(xm::flattenedSliceDims(doc), (std::vector<int64_t>{0, 1}));

  // "slice<layout<sg_layout=[2,4], sg_data=[16,16]>, dims=[0]> on vector<64>: offset =
  // (sgid mod 4)*16 mod 64; sgid 6 -> 32 (sgids 2 and 6 share it)."
  xm::Params s = xm::parse("#xegpu.slice<#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>, "
                           "dims = [0]>");
  EXPECT_EQ(xm::numSubgroups(s), 8);
  for (int64_t sg = 0; sg < 8; ++sg) {
    std::vector<Coord> e = xm::laneElements(s, Shape{64}, sg, 0);
    ASSERT_EQ(e.size(), 16u);
    EXPECT_EQ(e[0], (Coord{(sg % 4) * 16}));
  }
  EXPECT_EQ(xm::laneElements(s, Shape{64}, 6, 0)[0], (Coord{32}));
  EXPECT_EQ(xm::laneElements(s, Shape{64}, 6, 0), xm::laneElements(s, Shape{64}, 2, 0));

  // With order [0, 1] the kept dim 1 is the slow one: id[1] = sgid div 2.
  xm::Params col = xm::parse("#xegpu.slice<#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], "
                             "order = [0, 1]>, dims = [0]>");
  for (int64_t sg = 0; sg < 8; ++sg)
    EXPECT_EQ(xm::laneElements(col, Shape{64}, sg, 0)[0], (Coord{(sg / 2) * 16}));
}

TEST(XegpuModel, Seed001ReductionSlice) {
  // Seed 001: #layout_a = sg_layout [32, 1], sg_data [8, 128], inst_data [1, 16], lane_layout
  // [1, 16], lane_data [1, 1]; #xegpu.slice<#layout_a, 1> on vector<256>: "It conceptually
  // squeezes the threads along that dim, and all threads share the same mapping with their
  // representative thread". Subgroup s holds rows 8s..8s+7; the lanes lie along the sliced dim, so
  // every lane holds all 8 (one per 1-element inst tile).
  xm::Params p =
      xm::parse("#xegpu.slice<#xegpu.layout<sg_layout = [32, 1], sg_data = [8, 128], "
                "inst_data = [1, 16], lane_layout = [1, 16], lane_data = [1, 1], order = "
                "[1, 0]>, 1>");
  ASSERT_TRUE(xm::isDistributable(p, Shape{256}));
  for (int64_t sg = 0; sg < 32; ++sg)
    for (int64_t lane = 0; lane < 16; ++lane) {
      std::vector<Coord> e = xm::laneElements(p, Shape{256}, sg, lane);
      ASSERT_EQ(e.size(), 8u);
      for (int64_t k = 0; k < 8; ++k) EXPECT_EQ(e[size_t(k)], (Coord{8 * sg + k}));
    }
}

} // namespace

// =================================================================================================
// liblayout against the model.
//
// Random LEGAL attributes (power-of-two sizes): ranks 1-3 (root ranks up to 4 with slices), 0-2
// nested slices, workgroup layouts (round-robin, exact and broadcast/shared subgroup tiles),
// inst_data, lanes (round-robin, exact, 2026 wrap-around dims), explicit orders, sg_map; each one
// verified by the model (ref §1.1) and distributable by ref §1.3 as written (xm::isDistributable)
// and modelled (xm::modelApplies). Only parseXegpuAttr, toLinearLayout and distributedShape of
// layout/xegpu/xegpu_layout.h are used. For every case:
// - for every tensor element, the multiset of (subgroup, lane) holding it (one entry per register)
//   must agree, over subgroups and lanes up to the larger of the library's and the model's sizes
//   (ids past a grid alias, ref §2);
// - the per-lane register order must equal the order the spec prescribes for the spelling
//   (xm::registerOrderOf), which is also the one liblayout's header claims;
// - distributedShape must equal xm::perLaneShape (whose product is the register count).
// The first failing case stops the suite with the attribute, the shape, the element and both
// answers. LAYOUT_XEGPU_SEED=<n> replays from another base seed; LAYOUT_XEGPU_CASES=<n> sets the
// number of cases.
// =================================================================================================
#if __has_include("layout/xegpu/xegpu_layout.h")
#include "layout/core/linear_layout.h"
#include "layout/xegpu/xegpu_layout.h"

namespace {

struct Rng {
  std::mt19937_64 gen;
  explicit Rng(uint64_t seed) : gen(seed) {}
  int below(int n) { return int(gen() % uint64_t(n)); }
  int between(int lo, int hi) { return lo + below(hi - lo + 1); }
  bool chance(int percent) { return below(100) < percent; }
};

uint64_t envOr(const char* name, uint64_t fallback) {
  const char* env = std::getenv(name);
  return env ? std::strtoull(env, nullptr, 0) : fallback;
}

int log2Of(int64_t v) {
  int l = 0;
  while ((int64_t(1) << l) < v) ++l;
  return l;
}

int64_t prod(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

struct Case {
  xm::Params p;
  Shape shape;
};

std::string listOf(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string describe(const Case& c) {
  return xm::toString(c.p) + " on shape " + listOf(c.shape);
}

// One random candidate; std::nullopt when it breaks a size budget or is not legal. `mixed`: only
// cases that ref §1.3 as written rejects but a per-dim reading of it accepts (and the model
// covers): round-robin, exact and shared sg dims mixed in one layout.
std::optional<Case> tryRandomCase(Rng& rng, bool mixed = false) {
  Case c;
  if (!mixed && rng.chance(6)) { // sg_map: rank 2, lanes only
    c.p.isSgMap = true;
    c.shape = {int64_t(1) << rng.between(0, 6), int64_t(1) << rng.between(0, 6)};
    for (int i = 0; i < 2; ++i) {
      int lt = log2Of(c.shape[size_t(i)]);
      int lg = rng.between(0, std::min(lt, 4));
      c.p.laneLayout.push_back(int64_t(1) << lg);
      c.p.laneData.push_back(int64_t(1) << rng.between(0, lt - lg));
    }
    if (xm::isDistributable(c.p, c.shape) == mixed || !xm::modelApplies(c.p, c.shape))
      return std::nullopt;
    return c;
  }
  const int resultRank = rng.between(1, 3);
  const int levels = rng.chance(55) ? 0 : (rng.chance(75) ? 1 : 2);
  std::vector<int> perLevel;
  int sliced = 0;
  for (int k = 0; k < levels; ++k) {
    int m = rng.between(1, 2);
    if (resultRank + sliced + m > 4) m = 1;
    if (resultRank + sliced + m > 4) break;
    perLevel.push_back(m);
    sliced += m;
  }
  const int R = resultRank + sliced;
  int cur = R;
  for (int m : perLevel) { // innermost first; positions in the parent's dims
    std::vector<int64_t> pos(static_cast<size_t>(cur), 0);
    for (int i = 0; i < cur; ++i) pos[size_t(i)] = i;
    std::shuffle(pos.begin(), pos.end(), rng.gen);
    pos.resize(size_t(m));
    c.p.sliceDims.push_back(pos);
    cur -= m;
  }
  // Which root dims survive: ask the model with a placeholder field of the root rank.
  c.p.instData.assign(size_t(R), 1);
  std::vector<int64_t> slicedDims = xm::flattenedSliceDims(c.p);
  c.p.instData.clear();
  auto isSliced = [&](int d) {
    return std::find(slicedDims.begin(), slicedDims.end(), d) != slicedDims.end();
  };

  // Shape of the result (kept dims), at most 2^11 elements.
  int budget = 11;
  for (int i = 0; i < resultRank; ++i) {
    int l = std::min(rng.between(0, 7), budget);
    budget -= l;
    c.shape.push_back(int64_t(1) << l);
  }
  std::shuffle(c.shape.begin(), c.shape.end(), rng.gen);

  bool hasSg = rng.chance(55), hasInst = rng.chance(45), hasLane = rng.chance(70);
  if (!hasSg && !hasInst && !hasLane) {
    // The empty layout (ref §1.1 rule 1: legal) is left out: the spec gives it no distribution
    // and liblayout's toLinearLayout refuses it ("describes no distribution").
    hasLane = true;
  }
  const size_t r = size_t(R);
  // Per kept dim: the current tile (tensor, then sg_data, then inst_data).
  Shape tile = c.shape;
  auto keptIndex = [&](int d) { // root dim -> result dim
    int k = 0;
    for (int e = 0; e < d; ++e) k += isSliced(e) ? 0 : 1;
    return size_t(k);
  };
  if (hasSg) {
    c.p.sgLayout.assign(r, 1);
    c.p.sgData.assign(r, 1);
    const bool shareAll = rng.chance(30); // sg_layout >= shape in every kept dim
    for (int d = 0; d < R; ++d) {
      const bool share = mixed ? rng.chance(50) : shareAll;
      if (isSliced(d)) {
        c.p.sgLayout[size_t(d)] = int64_t(1) << rng.between(0, 2);
        c.p.sgData[size_t(d)] = int64_t(1) << rng.between(0, 3);
        continue;
      }
      int ls = log2Of(c.shape[keptIndex(d)]);
      c.p.sgLayout[size_t(d)] = int64_t(1)
                                << (share ? rng.between(ls, ls + 2) : rng.between(0, ls));
    }
    if (prod(c.p.sgLayout) > 32) return std::nullopt;
    std::vector<int64_t> G = xm::effective(c.p, c.p.sgLayout);
    bool allDivide = true;
    for (size_t i = 0; i < G.size(); ++i) allDivide = allDivide && c.shape[i] % G[i] == 0;
    const bool rrAll = rng.chance(35); // sg_data >= shape / sg_layout: sharing
    for (int d = 0; d < R; ++d) {
      if (isSliced(d)) continue;
      const bool rr = mixed ? rng.chance(50) : rrAll;
      size_t i = keptIndex(d);
      int64_t Q = mixed ? (c.shape[i] % G[i] == 0 ? c.shape[i] / G[i] : c.shape[i])
                        : (allDivide ? c.shape[i] / G[i] : c.shape[i]);
      int lq = log2Of(Q), ls = log2Of(c.shape[i]);
      c.p.sgData[size_t(d)] = int64_t(1) << (rr ? rng.between(lq, ls) : rng.between(0, lq));
      tile[i] = c.p.sgData[size_t(d)];
    }
  }
  if (hasInst) {
    c.p.instData.assign(r, 1);
    for (int d = 0; d < R; ++d) {
      if (isSliced(d)) {
        c.p.instData[size_t(d)] = int64_t(1) << rng.between(0, 3);
        continue;
      }
      size_t i = keptIndex(d);
      c.p.instData[size_t(d)] = int64_t(1) << rng.between(0, log2Of(tile[i]));
      tile[i] = c.p.instData[size_t(d)];
    }
  }
  if (hasLane) {
    c.p.laneLayout.assign(r, 1);
    c.p.laneData.assign(r, 1);
    for (int d = 0; d < R; ++d) {
      if (isSliced(d)) {
        c.p.laneLayout[size_t(d)] = int64_t(1) << rng.between(0, 2);
        c.p.laneData[size_t(d)] = int64_t(1) << rng.between(0, 1);
        continue;
      }
      size_t i = keptIndex(d);
      int lt = log2Of(tile[i]);
      if (rng.chance(12)) { // 2026 wrap-around: lane_data == the tile dim, any lane_layout
        c.p.laneData[size_t(d)] = tile[i];
        c.p.laneLayout[size_t(d)] = int64_t(1) << rng.between(0, 3);
      } else {
        int lg = rng.between(0, std::min(lt, 4));
        c.p.laneLayout[size_t(d)] = int64_t(1) << lg;
        c.p.laneData[size_t(d)] = int64_t(1) << rng.between(0, lt - lg);
      }
    }
    if (prod(c.p.laneLayout) > 32) return std::nullopt;
  }
  if ((hasSg || hasLane) && rng.chance(50)) {
    c.p.order.resize(r);
    for (size_t i = 0; i < r; ++i) c.p.order[i] = int64_t(i);
    std::shuffle(c.p.order.begin(), c.p.order.end(), rng.gen);
  }
  if (prod(c.p.sgLayout) * prod(c.p.laneLayout) > 256) return std::nullopt;
  if (xm::isDistributable(c.p, c.shape) == mixed || !xm::modelApplies(c.p, c.shape))
    return std::nullopt;
  // Leading dims beyond the layout's rank, for subgroup-level layouts only: ref §3.2 / §4 keep them
  // whole for per-lane vectors; workgroup layouts live on tensor_descs, where "layout rank !=
  // tensor rank -> expected layout rank to match tensor rank" (ref §1.2), as liblayout says too.
  if (!mixed && c.p.sgLayout.empty() && rng.chance(12)) {
    int lead = rng.between(1, 2);
    for (int k = 0; k < lead; ++k) c.shape.insert(c.shape.begin(), int64_t(1) << rng.between(0, 2));
  }
  return c;
}

Case randomCase(Rng& rng, bool mixed = false) {
  for (;;)
    if (auto c = tryRandomCase(rng, mixed)) return *c;
}

// Coverage of the generated classes (checked at the end so the generator really hits them).
struct Coverage {
  int cases = 0, workgroup = 0, roundRobinSg = 0, sharedSg = 0, inst = 0, lanes = 0,
      roundRobinLane = 0, wrapLane = 0, slices = 0, nestedSlices = 0, order = 0, sgMap = 0,
      empty = 0, ordersDiffer = 0, leading = 0;
};

void count(const Case& c, Coverage& cov) {
  ++cov.cases;
  const xm::Params& p = c.p;
  if (p.isSgMap) ++cov.sgMap;
  if (xm::rootRank(p) == 0) ++cov.empty;
  if (!p.sliceDims.empty()) ++cov.slices;
  if (p.sliceDims.size() > 1) ++cov.nestedSlices;
  if (!p.order.empty()) ++cov.order;
  if (!p.instData.empty()) ++cov.inst;
  if (int64_t(c.shape.size()) > xm::rank(p)) ++cov.leading;
  const Shape trail(c.shape.end() - xm::rank(p), c.shape.end());
  Shape tile = trail;
  if (!p.sgLayout.empty()) {
    ++cov.workgroup;
    auto G = xm::effective(p, p.sgLayout), B = xm::effective(p, p.sgData);
    bool rr = false, shared = false;
    for (size_t i = 0; i < G.size(); ++i) {
      rr = rr || trail[i] > G[i] * B[i];
      shared = shared || trail[i] < G[i] * B[i];
    }
    cov.roundRobinSg += rr;
    cov.sharedSg += shared;
    tile = B;
  }
  if (!p.instData.empty()) tile = xm::effective(p, p.instData);
  if (!p.laneLayout.empty()) {
    ++cov.lanes;
    auto G = xm::effective(p, p.laneLayout), B = xm::effective(p, p.laneData);
    bool rr = false, wrap = false;
    for (size_t i = 0; i < G.size(); ++i) {
      rr = rr || tile[i] > G[i] * B[i];
      wrap = wrap || (G[i] > 1 && tile[i] == B[i] && tile[i] < G[i] * B[i]);
    }
    cov.roundRobinLane += rr;
    cov.wrapLane += wrap;
  }
  if (!xm::rootRank(p)) return;
  for (int64_t l = 0; l < std::min<int64_t>(xm::numLanes(p), 4); ++l)
    if (xm::laneElements(p, c.shape, 0, l, xm::RegisterOrder::Blocks) !=
        xm::laneElements(p, c.shape, 0, l, xm::RegisterOrder::VectorRowMajor)) {
      ++cov.ordersDiffer;
      break;
    }
}

std::string ownersText(const std::vector<xm::Owner>& v) {
  if (v.empty()) return "{}";
  std::string s = "{";
  for (size_t k = 0; k < v.size(); ++k) {
    if (k == 12) {
      s += ", ... (" + std::to_string(v.size()) + " in all)";
      break;
    }
    s += (k ? ", " : "") + std::string("(sg ") + std::to_string(v[k].subgroup) + ", lane " +
         std::to_string(v[k].lane) + ", reg " + std::to_string(v[k].reg) + ")";
  }
  return s + "}";
}

std::string coordsText(const std::vector<Coord>& v) {
  std::string s;
  for (size_t k = 0; k < v.size() && k < 16; ++k) s += (k ? " " : "") + coordText(v[k]);
  if (v.size() > 16) s += " ... (" + std::to_string(v.size()) + ")";
  return s;
}

// Compares one case; returns a description of the first disagreement, or "" when all agree.
std::string compareCase(const Case& c) {
  const std::string text = xm::toString(c.p);
  auto xe = layout::xegpu::parseXegpuAttr(text);
  if (!xe) return "parseXegpuAttr rejected a legal attribute: " + xe.error().message;
  auto ll = layout::xegpu::toLinearLayout(*xe, c.shape);
  if (!ll) return "toLinearLayout rejected a distributable case: " + ll.error().message;
  const layout::LinearLayout& L = *ll;
  const size_t rk = c.shape.size();

  const int iReg = L.inDimIndex(layout::dims::reg()), iLane = L.inDimIndex(layout::dims::lane()),
            iWarp = L.inDimIndex(layout::dims::warp()),
            iBlock = L.inDimIndex(layout::dims::block());
  if (L.numInDims() != (iReg >= 0) + (iLane >= 0) + (iWarp >= 0) + (iBlock >= 0))
    return "unexpected in-dims in the library layout:" + L.toString();
  if (L.inDimSize(layout::dims::block()) != 1)
    return "block in-dim of size " + std::to_string(L.inDimSize(layout::dims::block())) +
           " (header says 1)";
  std::vector<int> outIdx(rk);
  for (size_t d = 0; d < rk; ++d) {
    outIdx[d] = L.outDimIndex(layout::dims::standardOut(int(d)));
    if (outIdx[d] < 0) return "no out-dim dim" + std::to_string(d) + L.toString();
  }
  if (size_t(L.numOutDims()) != rk) return "unexpected out-dims" + L.toString();

  const int64_t libRegs = int64_t(L.inDimSize(layout::dims::reg())),
                libLanes = int64_t(L.inDimSize(layout::dims::lane())),
                libWarps = int64_t(L.inDimSize(layout::dims::warp()));
  const int64_t modelRegs = xm::numRegisters(c.p, c.shape);
  const int64_t sgs = std::max(libWarps, xm::numSubgroups(c.p));
  const int64_t lanes = std::max(libLanes, xm::numLanes(c.p));
  const xm::RegisterOrder want = xm::registerOrderOf(c.p);
  const xm::RegisterOrder other = want == xm::RegisterOrder::Blocks
                                      ? xm::RegisterOrder::VectorRowMajor
                                      : xm::RegisterOrder::Blocks;
  const char* wantName = want == xm::RegisterOrder::Blocks ? "Blocks" : "VectorRowMajor";
  const char* otherName = want == xm::RegisterOrder::Blocks ? "VectorRowMajor" : "Blocks";

  size_t numElems = 1;
  for (int64_t s : c.shape) numElems *= size_t(s);
  std::vector<std::vector<xm::Owner>> libOwners(numElems), modelOwners(numElems);
  auto linear = [&](const Coord& e) {
    size_t lin = 0;
    for (size_t d = 0; d < rk; ++d) lin = lin * size_t(c.shape[d]) + size_t(e[d]);
    return lin;
  };
  std::string orderFailure;
  std::vector<uint64_t> ins(size_t(L.numInDims()), 0), outs(rk);
  for (int64_t sg = 0; sg < sgs; ++sg)
    for (int64_t ln = 0; ln < lanes; ++ln) {
      std::vector<Coord> lib;
      for (int64_t reg = 0; reg < libRegs; ++reg) {
        std::fill(ins.begin(), ins.end(), 0);
        if (iReg >= 0) ins[size_t(iReg)] = uint64_t(reg);
        if (iLane >= 0) ins[size_t(iLane)] = uint64_t(ln);
        if (iWarp >= 0) ins[size_t(iWarp)] = uint64_t(sg);
        L.apply(ins, outs);
        Coord e(rk);
        for (size_t d = 0; d < rk; ++d) {
          e[d] = int64_t(outs[size_t(outIdx[d])]);
          if (e[d] >= c.shape[d])
            return "library maps (sg " + std::to_string(sg) + ", lane " + std::to_string(ln) +
                   ", reg " + std::to_string(reg) + ") outside the tensor: " + coordText(e);
        }
        libOwners[linear(e)].push_back({sg, ln, reg});
        lib.push_back(e);
      }
      std::vector<Coord> model = xm::laneElements(c.p, c.shape, sg, ln, want);
      for (size_t reg = 0; reg < model.size(); ++reg)
        modelOwners[linear(model[reg])].push_back({sg, ln, int64_t(reg)});
      if (orderFailure.empty() && lib != model) {
        std::vector<Coord> a = lib, b = model;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a == b) {
          bool otherMatches = lib == xm::laneElements(c.p, c.shape, sg, ln, other);
          orderFailure = "register ORDER differs (same elements) at subgroup " +
                         std::to_string(sg) + ", lane " + std::to_string(ln) +
                         "\n  library: " + coordsText(lib) + "\n  model (" + wantName +
                         "): " + coordsText(model) + "\n  the library's order " +
                         (otherMatches ? "IS" : "is not") + " the model's " + otherName + " order";
        }
      }
    }
  // Owner sets per element: (subgroup, lane) with multiplicity; registers printed for reference.
  auto key = [](const std::vector<xm::Owner>& v) {
    std::vector<std::pair<int64_t, int64_t>> k;
    for (const auto& o : v) k.push_back({o.subgroup, o.lane});
    std::sort(k.begin(), k.end());
    return k;
  };
  for (size_t lin = 0; lin < numElems; ++lin)
    if (key(libOwners[lin]) != key(modelOwners[lin])) {
      Coord e(rk);
      size_t rest = lin;
      for (size_t d = rk; d-- > 0;) {
        e[d] = int64_t(rest % size_t(c.shape[d]));
        rest /= size_t(c.shape[d]);
      }
      std::sort(libOwners[lin].begin(), libOwners[lin].end());
      return "owners differ at element " + coordText(e) +
             "\n  library: " + ownersText(libOwners[lin]) +
             "\n  model:   " + ownersText(modelOwners[lin]) +
             "\n  sizes: library register/lane/warp = " + std::to_string(libRegs) + "/" +
             std::to_string(libLanes) + "/" + std::to_string(libWarps) +
             ", model = " + std::to_string(modelRegs) + "/" + std::to_string(xm::numLanes(c.p)) +
             "/" + std::to_string(xm::numSubgroups(c.p));
    }
  if (libRegs != modelRegs)
    return "register counts differ: library " + std::to_string(libRegs) + ", model " +
           std::to_string(modelRegs);
  if (!orderFailure.empty()) return orderFailure;

  auto ds = layout::xegpu::distributedShape(*xe, c.shape);
  if (!ds) return "distributedShape failed: " + ds.error().message;
  Shape want2 = xm::perLaneShape(c.p, c.shape);
  if (*ds != want2)
    return "distributedShape: library " + listOf(*ds) + ", model " + listOf(want2) +
           " (model register count " + std::to_string(modelRegs) + ")";
  return "";
}

TEST(XegpuModel, RandomLegalAttributesMatchLibrary) {
  const uint64_t seed = envOr("LAYOUT_XEGPU_SEED", 0x8e9d0001u);
  const int cases = int(envOr("LAYOUT_XEGPU_CASES", 3000));
  Rng rng(seed);
  Coverage cov;
  for (int k = 0; k < cases; ++k) {
    Case c = randomCase(rng);
    count(c, cov);
    std::string diff = compareCase(c);
    if (!diff.empty()) {
      FAIL() << "case " << k << " (LAYOUT_XEGPU_SEED=" << seed << "): " << describe(c) << "\n"
             << diff;
    }
  }
  std::ostringstream s;
  s << "cases " << cov.cases << ", workgroup " << cov.workgroup << " (round-robin "
    << cov.roundRobinSg << ", shared " << cov.sharedSg << "), inst " << cov.inst << ", lanes "
    << cov.lanes << " (round-robin " << cov.roundRobinLane << ", wrap-around " << cov.wrapLane
    << "), slices " << cov.slices << " (nested " << cov.nestedSlices << "), order " << cov.order
    << ", sg_map " << cov.sgMap << ", leading dims " << cov.leading << ", empty " << cov.empty
    << ", Blocks and VectorRowMajor orders differ " << cov.ordersDiffer;
  std::cout << "[ coverage ] " << s.str() << "\n";
  EXPECT_GT(cov.roundRobinSg, cases / 50) << s.str();
  EXPECT_GT(cov.sharedSg, cases / 50) << s.str();
  EXPECT_GT(cov.roundRobinLane, cases / 50) << s.str();
  EXPECT_GT(cov.wrapLane, cases / 100) << s.str();
  EXPECT_GT(cov.nestedSlices, cases / 100) << s.str();
  EXPECT_GT(cov.sgMap, cases / 100) << s.str();
  EXPECT_GT(cov.ordersDiffer, cases / 100) << s.str();
  EXPECT_EQ(cov.empty, 0) << s.str();
  EXPECT_GT(cov.leading, cases / 100) << s.str();
}

// Cases outside ref §1.3 as written (see DistributabilityAgreesWithLibrary) that a per-dim reading
// would accept: mixed round-robin / exact / shared subgroup dims. liblayout follows upstream:
// toLinearLayout says "cannot distribute", while subgroupTiles (upstream's
// computeDistributedCoords, which has no such check) still answers.
TEST(XegpuModel, MixedSubgroupDimsAreRejectedLikeUpstream) {
  const uint64_t seed = envOr("LAYOUT_XEGPU_SEED", 0x8e9d0004u);
  Rng rng(seed);
  for (int k = 0; k < 1500; ++k) {
    Case c = randomCase(rng, /*mixed=*/true);
    auto xe = layout::xegpu::parseXegpuAttr(xm::toString(c.p));
    ASSERT_TRUE(xe.ok()) << describe(c) << ": " << xe.error().message;
    if (int64_t(c.shape.size()) != xm::rank(c.p)) continue;
    auto ll = layout::xegpu::toLinearLayout(*xe, c.shape);
    ASSERT_FALSE(ll.ok()) << "case " << k << " (LAYOUT_XEGPU_SEED=" << seed << "): " << describe(c)
                          << ": accepted, but ref §1.3 fails it over all dims";
    EXPECT_NE(ll.error().message.find("cannot distribute"), std::string::npos)
        << describe(c) << ": " << ll.error().message;
    if (!c.p.sgLayout.empty() && c.p.sliceDims.empty()) {
      EXPECT_TRUE(layout::xegpu::subgroupTiles(*xe, c.shape, 0).ok()) << describe(c);
    }
  }
}

// Ref §1.1: random attributes, legal and not (fields present or absent at random, ranks 1-3 each,
// orders that are permutations of their own length, slices with in-range, negative or repeated
// dims). parseXegpuAttr must accept exactly what the model's verifier accepts and, on a rejection,
// its message must contain the model's (upstream's) message.
TEST(XegpuModel, VerifierAgreesWithLibrary) {
  Rng rng(envOr("LAYOUT_XEGPU_SEED", 0x8e9d0002u));
  int accepted = 0, rejected = 0;
  for (int k = 0; k < 4000; ++k) {
    xm::Params p;
    int base = rng.between(1, 3);
    auto field = [&](int percent) {
      std::vector<int64_t> v;
      if (!rng.chance(percent)) return v;
      int n = rng.chance(80) ? base : rng.between(1, 3);
      for (int i = 0; i < n; ++i) v.push_back(int64_t(1) << rng.between(0, 3));
      return v;
    };
    p.sgLayout = field(40);
    p.sgData = rng.chance(85) ? std::vector<int64_t>(p.sgLayout.size(), 2) : field(20);
    p.instData = field(35);
    p.laneLayout = field(50);
    p.laneData = rng.chance(85) ? std::vector<int64_t>(p.laneLayout.size(), 1) : field(20);
    if (rng.chance(40)) {
      int n = rng.chance(80) ? base : rng.between(1, 3);
      for (int i = 0; i < n; ++i) p.order.push_back(n - 1 - i);
      std::shuffle(p.order.begin(), p.order.end(), rng.gen);
    }
    if (xm::rootRank(p) > 1 && rng.chance(30)) {
      std::vector<int64_t> dims{int64_t(rng.below(int(xm::rootRank(p))))};
      if (rng.chance(10)) dims.push_back(dims[0]);
      if (rng.chance(10)) dims[0] = -1;
      p.sliceDims.push_back(dims);
    }
    const std::string text = xm::toString(p);
    std::optional<std::string> want = xm::verifyError(p);
    auto got = layout::xegpu::parseXegpuAttr(text);
    if (!want) {
      ++accepted;
      ASSERT_TRUE(got.ok()) << text << "\n  model: accepted\n  library: " << got.error().message;
    } else {
      ++rejected;
      ASSERT_FALSE(got.ok()) << text << "\n  model: " << *want << "\n  library: accepted";
      ASSERT_NE(got.error().message.find(*want), std::string::npos)
          << text << "\n  model: " << *want << "\n  library: " << got.error().message;
    }
  }
  EXPECT_GT(accepted, 400);
  EXPECT_GT(rejected, 400);
}

// Ref §1.3 (all-dims tryDistribute, 2026 lane wrap-around): random legal attributes from the
// generator above, most of them on a random power-of-two shape of the right rank instead of a
// constructed one. toLinearLayout must succeed exactly when xm::isDistributable says so, and a
// rejection must say "cannot distribute" (ref §1.2's message).
TEST(XegpuModel, DistributabilityAgreesWithLibrary) {
  Rng rng(envOr("LAYOUT_XEGPU_SEED", 0x8e9d0003u));
  int yes = 0, no = 0;
  for (int k = 0; k < 4000; ++k) {
    Case c = randomCase(rng);
    if (int64_t(c.shape.size()) != xm::rank(c.p)) continue; // no leading dims here
    if (rng.chance(75))
      for (int64_t& d : c.shape) d = int64_t(1) << rng.between(0, 7);
    std::string why;
    const bool want = xm::isDistributable(c.p, c.shape, &why);
    auto xe = layout::xegpu::parseXegpuAttr(xm::toString(c.p));
    ASSERT_TRUE(xe.ok()) << describe(c) << ": " << xe.error().message;
    auto ll = layout::xegpu::toLinearLayout(*xe, c.shape);
    if (want) {
      ++yes;
      ASSERT_TRUE(ll.ok()) << describe(c)
                           << "\n  model: distributable\n  library: " << ll.error().message;
    } else {
      ++no;
      ASSERT_FALSE(ll.ok()) << describe(c) << "\n  model: not distributable (" << why
                            << ")\n  library: accepted";
      EXPECT_NE(ll.error().message.find("cannot distribute"), std::string::npos)
          << describe(c) << "\n  library: " << ll.error().message;
    }
  }
  EXPECT_GT(yes, 400);
  EXPECT_GT(no, 400);
}

// The hand-transcribed seed examples, through the library.
TEST(XegpuModel, SeedExamplesThroughLibrary) {
  // Seed 001's 128x128 table example is not distributable under ref §1.3 as written (see
  // Seed001SubgroupTable128x128): upstream says "cannot distribute", and so does liblayout.
  {
    auto xe = layout::xegpu::parseXegpuAttr(
        "#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 128], lane_layout = [1, 16], lane_data "
        "= [1, 1], order = [1, 0]>");
    ASSERT_TRUE(xe.ok());
    int64_t shape[] = {128, 128};
    auto ll = layout::xegpu::toLinearLayout(*xe, shape);
    ASSERT_FALSE(ll.ok());
    EXPECT_NE(ll.error().message.find("cannot distribute [128, 128] using"), std::string::npos)
        << ll.error().message;
  }
  const std::vector<Case> examples = {
      {xm::parse("#xegpu.layout<sg_layout = [4, 8], sg_data = [16, 16], inst_data = [8, 16], "
                 "lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>"),
       {64, 16}},
      {xm::parse("#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 16]>"), {64, 64}},
      {xm::parse("#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16]>"), {32, 32}},
      {xm::parse("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 2]>"), {32, 64}},
      {xm::parse("#xegpu.layout<lane_layout = [1, 16], lane_data = [2, 1]>"), {16, 32}},
      {xm::parse("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>"), {8, 1}},
      {xm::parse("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>"), {2, 32, 16}},
      {xm::parse("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [2, 1]>"), {16, 16}},
      {xm::parse("#xegpu.sg_map<wi_layout = [16, 1], wi_data = [1, 2]>"), {16, 16}},
      {xm::parse("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [4, 1]>"), {32, 16}},
      {xm::parse("#xegpu.sg_map<wi_layout = [2, 8], wi_data = [1, 1]>"), {8, 8}},
      {xm::parse("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>"), {2, 8, 16}},
      {xm::parse("#xegpu.slice<#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>, dims = "
                 "[0]>"),
       {64}},
      {xm::parse("#xegpu.slice<#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16], order = [0, "
                 "1]>, dims = [0]>"),
       {64}},
      {xm::parse("#xegpu.slice<#xegpu.layout<sg_layout = [32, 1], sg_data = [8, 128], inst_data "
                 "= [1, 16], lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>, 1>"),
       {256}},
  };
  for (const Case& c : examples) EXPECT_EQ(compareCase(c), "") << describe(c);
}

} // namespace
#endif
