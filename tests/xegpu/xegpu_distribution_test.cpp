// XeGPU distribution against the illustrations of docs/reference/xegpu.md (§2, §3, §4, §5),
// and the linear layout against the integer queries: for every register, lane and subgroup,
// toLinearLayout and laneCoords must name the same tensor element.
#include "layout/xegpu/xegpu_layout.h"

#include <gtest/gtest.h>

using namespace layout;
using namespace layout::xegpu;

namespace {

using Shape = std::vector<int64_t>;

XeLayout parsed(const std::string& text) {
  auto l = parseXegpuAttr(text);
  EXPECT_TRUE(l.ok()) << text << ": " << (l.ok() ? "" : l.error().message);
  return l.ok() ? *l : XeLayout{};
}

TEST(XegpuDistribution, DelinearizeDocExamples) {
  // §2: s = 22, G = [2, 4, 4], O = [2, 1, 0] -> [1, 1, 2].
  XeLayout g = parsed("#xegpu.layout<sg_layout = [2, 4, 4], sg_data = [1, 1, 1], order = [2, 1, "
                      "0]>");
  EXPECT_EQ(*delinearize(g, 22, Level::Subgroup), (Shape{1, 1, 2}));
  // lane_layout [2, 8]: [[0..7], [8..15]]; with order [0, 1]: [[0, 2, .., 14], [1, 3, .., 15]].
  XeLayout rowMajor = parsed("#xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1]>");
  XeLayout colMajor = parsed("#xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1], order = "
                             "[0, 1]>");
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t c = 0; c < 8; ++c) {
      EXPECT_EQ(*delinearize(rowMajor, 8 * r + c, Level::Lane), (Shape{r, c}));
      EXPECT_EQ(*delinearize(colMajor, 2 * c + r, Level::Lane), (Shape{r, c}));
    }
  // Upstream's IR wraps ids past the grid (every digit mod its size); asked for one, the query
  // refuses it rather than answer for another id (issue 31).
  EXPECT_EQ(delinearize(rowMajor, 16 + 9, Level::Lane).error().message,
            "lane id: 25 is outside the valid range [0, 15] (lane_layout [2, 8] has 16 lanes)");
}

TEST(XegpuDistribution, RoundRobinAndSharing) {
  // §3: 64x64, sg_layout [2, 2], sg_data [16, 16]: subgroup 3 owns four blocks.
  XeLayout rr = parsed("#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 16]>");
  auto t = subgroupTiles(rr, Shape{64, 64}, 3);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->tileOffsets, (std::vector<Shape>{{16, 16}, {16, 48}, {48, 16}, {48, 48}}));
  // 32x32, sg_layout [4, 4], sg_data [8, 16]: columns 0..15 for id[1] in {0, 2}, 16..31 else.
  XeLayout share = parsed("#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16]>");
  for (int64_t sg = 0; sg < 16; ++sg) {
    auto s = subgroupTiles(share, Shape{32, 32}, sg);
    ASSERT_TRUE(s.ok());
    ASSERT_EQ(s->tileOffsets.size(), 1u);
    EXPECT_EQ(s->tileOffsets[0], (Shape{8 * (sg / 4), (sg % 4) % 2 == 0 ? 0 : 16}));
  }
}

TEST(XegpuDistribution, WholeShapeDistributabilityRule) {
  // §1.3: shape / sg_layout must divide (or be divided by) sg_data in all dims the same way.
  XeLayout l = parsed("#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 16]>");
  EXPECT_TRUE(toLinearLayout(l, Shape{8, 8}).ok());   // [4, 4] divides [16, 16]
  EXPECT_TRUE(toLinearLayout(l, Shape{64, 64}).ok()); // [32, 32] divided by [16, 16]
  // [4, 32] vs [16, 16]: dim 0 one way, dim 1 the other: not distributable upstream ...
  EXPECT_EQ(
      toLinearLayout(l, Shape{8, 64}).error().message,
      "cannot distribute [8, 64] using #xegpu.layout<sg_layout = [2, 2], sg_data = [16, 16]>");
  // ... while each dim alone is well defined for computeDistributedCoords.
  auto t = subgroupTiles(l, Shape{8, 64}, 3);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->tileOffsets, (std::vector<Shape>{{0, 16}, {0, 48}}));
}

TEST(XegpuDistribution, PerLaneRegisters) {
  // §3.1/§3.2: 32x64, lane_layout [1, 16], lane_data [1, 2]: per lane 32x4; register (r, j) of
  // lane l holds row r, column 2l + (j mod 2) + 32 (j div 2).
  XeLayout l = parsed("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 2]>");
  EXPECT_EQ(*distributedShape(l, Shape{32, 64}), (Shape{32, 4}));
  for (int64_t lane = 0; lane < 16; ++lane) {
    auto coords = laneCoords(l, Shape{32, 64}, lane, std::nullopt);
    ASSERT_TRUE(coords.ok());
    ASSERT_EQ(coords->size(), 128u);
    for (int64_t r = 0; r < 32; ++r)
      for (int64_t j = 0; j < 4; ++j)
        EXPECT_EQ((*coords)[size_t(4 * r + j)], (Shape{r, 2 * lane + j % 2 + 32 * (j / 2)}));
  }
}

TEST(XegpuDistribution, DistributedVectorTypes) {
  // §4 doc table: 32x16 with [1, 16] -> 32x1; with [2, 8] -> 16x2; 2x32x16 with [1, 16] ->
  // 2x32x1. getDistributedVectorType: 16x32 with [1, 16] -> 32 elements per lane.
  XeLayout row = parsed("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>");
  XeLayout grid = parsed("#xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1]>");
  EXPECT_EQ(*distributedShape(row, Shape{32, 16}), (Shape{32, 1}));
  EXPECT_EQ(*distributedShape(grid, Shape{32, 16}), (Shape{16, 2}));
  EXPECT_EQ(*distributedShape(row, Shape{2, 32, 16}), (Shape{2, 32, 1}));
  auto s = *distributedShape(row, Shape{16, 32});
  EXPECT_EQ(s[0] * s[1], 32);
  // §1.3 (2026 wrap-around): vector<8x1> with lane_layout [1, 16] -> every lane holds it all.
  for (int64_t lane : {0, 7, 15}) {
    auto c = laneCoords(row, Shape{8, 1}, lane, std::nullopt);
    ASSERT_TRUE(c.ok());
    for (int64_t r = 0; r < 8; ++r) EXPECT_EQ((*c)[size_t(r)], (Shape{r, 0}));
  }
}

TEST(XegpuDistribution, SliceUsesRootGridAndOrder) {
  // §5: slice<layout<sg_layout = [2, 4], sg_data = [16, 16]>, dims = [0]> on vector<64>:
  // offset = (sgid mod 4) * 16 mod 64; subgroups 2 and 6 share offset 32.
  XeLayout s = parsed("#xegpu.slice<#xegpu.layout<sg_layout = [2, 4], sg_data = [16, 16]>, dims "
                      "= [0]>");
  for (int64_t sg = 0; sg < 8; ++sg)
    EXPECT_EQ(subgroupTiles(s, Shape{64}, sg)->tileOffsets, (std::vector<Shape>{{(sg % 4) * 16}}));
  EXPECT_EQ(*delinearize(s, 6, Level::Subgroup), (Shape{1, 2}));
  auto ll = toLinearLayout(s, Shape{64});
  ASSERT_TRUE(ll.ok()) << ll.error().message;
  int warp = ll->inDimIndex(dims::warp());
  EXPECT_EQ(ll->inDimSize(warp), 8u);
  EXPECT_EQ(ll->basis(warp, 2), (std::vector<uint64_t>{0})); // the sliced dim's id bit
}

// Every (register, lane, subgroup) of the linear layout against laneCoords.
void expectLinearLayoutMatchesQueries(const std::string& attr, const Shape& shape) {
  SCOPED_TRACE(attr);
  XeLayout l = parsed(attr);
  auto ll = toLinearLayout(l, shape);
  ASSERT_TRUE(ll.ok()) << ll.error().message;
  ASSERT_EQ(ll->numOutDims(), int(shape.size()));
  uint64_t regs = ll->inDimSize(0), lanes = ll->inDimSize(1), sgs = ll->inDimSize(2);
  auto dist = distributedShape(l, shape);
  ASSERT_TRUE(dist.ok());
  uint64_t perLane = 1;
  for (int64_t d : *dist) perLane *= uint64_t(d);
  EXPECT_EQ(regs, perLane);
  for (uint64_t sg = 0; sg < sgs; ++sg)
    for (uint64_t lane = 0; lane < lanes; ++lane) {
      auto coords = laneCoords(l, shape, int64_t(lane), int64_t(sg));
      ASSERT_TRUE(coords.ok()) << coords.error().message;
      ASSERT_EQ(coords->size(), regs);
      for (uint64_t r = 0; r < regs; ++r) {
        uint64_t in[4] = {r, lane, sg, 0};
        std::vector<uint64_t> out(shape.size());
        ll->apply(in, out);
        for (size_t d = 0; d < shape.size(); ++d)
          ASSERT_EQ(int64_t(out[d]), (*coords)[r][d])
              << "register " << r << " lane " << lane << " subgroup " << sg << " dim " << d;
      }
    }
}

TEST(XegpuDistribution, LinearLayoutMatchesIntegerQueries) {
  expectLinearLayoutMatchesQueries(
      "#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 128], lane_layout = [1, 16], lane_data "
      "= [1, 1], order = [1, 0]>",
      {128, 256});
  expectLinearLayoutMatchesQueries("#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 16]>",
                                   {64, 64}); // round-robin in both dims
  expectLinearLayoutMatchesQueries(
      "#xegpu.layout<sg_layout = [4, 8], sg_data = [16, 16], inst_data = [8, 16], lane_layout = "
      "[1, 16], lane_data = [1, 1], order = [1, 0]>",
      {64, 16});
  expectLinearLayoutMatchesQueries(
      "#xegpu.layout<sg_layout = [2, 4], sg_data = [8, 16], inst_data = [4, 16], lane_layout = "
      "[2, 8], lane_data = [1, 2], order = [0, 1]>",
      {64, 128});
  expectLinearLayoutMatchesQueries("#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 16]>",
                                   {32, 32});
  expectLinearLayoutMatchesQueries("#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 16]>",
                                   {8, 8}); // sg_data larger than the tensor
  expectLinearLayoutMatchesQueries("#xegpu.layout<lane_layout = [1, 16], lane_data = [2, 1]>",
                                   {32, 64});
  expectLinearLayoutMatchesQueries("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>",
                                   {8, 1});
  expectLinearLayoutMatchesQueries("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>",
                                   {2, 8, 16});
  expectLinearLayoutMatchesQueries("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [2, 1]>",
                                   {32, 32});
  expectLinearLayoutMatchesQueries("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 2]>", {16});
  expectLinearLayoutMatchesQueries("#xegpu.sg_map<wi_layout = [16, 1], wi_data = [1, 2]>", {16, 8});
  expectLinearLayoutMatchesQueries(
      "#xegpu.slice<#xegpu.layout<sg_layout = [8, 1, 4], sg_data = [1, 32, 32], inst_data = [1, "
      "1, 16], lane_layout = [1, 1, 16], lane_data = [1, 1, 1], order = [2, 1, 0]>, dims = [1]>",
      {8, 128});
  expectLinearLayoutMatchesQueries(
      "#xegpu.slice<#xegpu.slice<#xegpu.layout<sg_layout = [2, 2, 2], sg_data = [4, 4, 4], "
      "lane_layout = [2, 2, 4], lane_data = [1, 2, 1], order = [0, 2, 1]>, dims = [2]>, dims = "
      "[0]>",
      {16});
}

TEST(XegpuDistribution, RegisterOrderOfSgMapPacksLaneDataFirst) {
  // The RFC: "The data within lane_data is packed first, followed by the packing of data
  // fragments in row-major order". 32x32, wi_layout [1, 16], wi_data [2, 1]: units are 2x16
  // blocks, 16 rows of units by 2 columns (32 units of 2); lane 0's registers: (0,0), (1,0),
  // (0,16), (1,16), (2,0), ...
  XeLayout l = parsed("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [2, 1]>");
  auto c = laneCoords(l, Shape{32, 32}, 0, std::nullopt);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ((*c)[0], (Shape{0, 0}));
  EXPECT_EQ((*c)[1], (Shape{1, 0}));
  EXPECT_EQ((*c)[2], (Shape{0, 16}));
  EXPECT_EQ((*c)[3], (Shape{1, 16}));
  EXPECT_EQ((*c)[4], (Shape{2, 0}));
  EXPECT_EQ(*distributedShape(l, Shape{32, 32}), (Shape{32, 2}));
}

} // namespace
