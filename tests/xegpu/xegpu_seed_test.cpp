// XeGPU layouts against the XeGPU RFC (docs/seeds.md (seed 000)): every expected
// value below is transcribed from the seed text (line numbers given), not from this code.
#include "layout/xegpu/xegpu_layout.h"

#include <gtest/gtest.h>

#include <set>

using namespace layout;
using namespace layout::xegpu;

namespace {

using Shape = std::vector<int64_t>;

XeLayout parsed(const std::string& text) {
  auto l = parseXegpuAttr(text);
  EXPECT_TRUE(l.ok()) << text << ": " << (l.ok() ? "" : l.error().message);
  return l.ok() ? *l : XeLayout{};
}

std::string sgMap(const std::string& wiLayout, const std::string& wiData) {
  return "#xegpu.sg_map<wi_layout = " + wiLayout + ", wi_data = " + wiData + ">";
}

Shape distShape(const std::string& attr, const Shape& shape) {
  auto s = distributedShape(parsed(attr), shape);
  EXPECT_TRUE(s.ok()) << attr << ": " << (s.ok() ? "" : s.error().message);
  return s.ok() ? *s : Shape{};
}

// Seed lines 711-716: the subgroup id linearization table of sg_layout [4, 4].
TEST(XegpuSeed, SubgroupIdLinearizationTable) {
  const int64_t rowMajor[4][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}};
  const int64_t colMajor[4][4] = {{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}};
  XeLayout order10 = parsed("#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 8], order = [1, 0]>");
  XeLayout order01 = parsed("#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 8], order = [0, 1]>");
  XeLayout noOrder = parsed("#xegpu.layout<sg_layout = [4, 4], sg_data = [8, 8]>");
  for (int64_t r = 0; r < 4; ++r) {
    for (int64_t c = 0; c < 4; ++c) {
      EXPECT_EQ(*delinearize(order10, rowMajor[r][c], Level::Subgroup), (Shape{r, c}));
      EXPECT_EQ(*delinearize(order01, colMajor[r][c], Level::Subgroup), (Shape{r, c}));
      EXPECT_EQ(*delinearize(noOrder, rowMajor[r][c], Level::Subgroup), (Shape{r, c}));
    }
  }
}

// Seed line 718: order [2, 1, 0] maps [x, y, z] to z + dim_2*y + dim_2*dim_1*x. For order
// [1, 2, 0] the seed writes y + dim_2*z + dim_2*dim_1*x, which is only the fastest-dim-1 rule
// when dim_1 == dim_2; the grid below has dim_1 == dim_2 == 4. The same order applies to lanes.
TEST(XegpuSeed, ThreeDimensionalOrderFormula) {
  const int64_t d0 = 2, d1 = 4, d2 = 4;
  XeLayout o210 = parsed("#xegpu.layout<lane_layout = [2, 4, 4], lane_data = [1, 1, 1], "
                         "order = [2, 1, 0]>");
  XeLayout o120 = parsed("#xegpu.layout<sg_layout = [2, 4, 4], sg_data = [1, 1, 1], "
                         "order = [1, 2, 0]>");
  for (int64_t x = 0; x < d0; ++x)
    for (int64_t y = 0; y < d1; ++y)
      for (int64_t z = 0; z < d2; ++z) {
        EXPECT_EQ(*delinearize(o210, z + d2 * y + d2 * d1 * x, Level::Lane), (Shape{x, y, z}));
        EXPECT_EQ(*delinearize(o120, y + d2 * z + d2 * d1 * x, Level::Subgroup), (Shape{x, y, z}));
      }
}

// Seed lines 371-399: sg_map distribution, [n_distribution_units, wi_data].
TEST(XegpuSeed, SgMapExamples) {
  // 8x16 bf16 distributed 8 times -> <8x1>; 8x32 int8 with wi_data [1, 2] -> <8x2>.
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[1, 1]"), {8, 16}), (Shape{8, 1}));
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[1, 2]"), {8, 32}), (Shape{8, 2}));
  // The larger 12x32 tensor: <24x1> and <12x2>.
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[1, 1]"), {12, 32}), (Shape{24, 1}));
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[1, 2]"), {12, 32}), (Shape{12, 2}));
  // VNNI: 16x16 with wi_data [2, 1] -> <8x2>.
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[2, 1]"), {16, 16}), (Shape{8, 2}));
}

// Seed lines 401-421: loads with transpose (the tdesc's sg_map is wi_layout [16, 1]).
TEST(XegpuSeed, TransposedLoads) {
  EXPECT_EQ(distShape(sgMap("[16, 1]", "[1, 1]"), {16, 8}), (Shape{8, 1}));
  EXPECT_EQ(distShape(sgMap("[16, 1]", "[1, 1]"), {16, 16}), (Shape{16, 1}));
  EXPECT_EQ(distShape(sgMap("[16, 1]", "[1, 2]"), {16, 16}), (Shape{8, 2}));
}

// Seed lines 423-433 (1-D block load: wi_layout[0], wi_data[0] ignored -> <1x2>), 435-443
// (array_length 2 as a 3-D vector -> <16x1>), 446-454 (regular load of 16 fp32 -> <1xfp32>).
TEST(XegpuSeed, OneDimensionalAndArrayLength) {
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[1, 2]"), {16}), (Shape{1, 2}));
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[1, 1]"), {2, 8, 16}), (Shape{16, 1}));
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[1, 1]"), {16}), (Shape{1, 1}));
  // The 1-D rule: wi_layout[0] and wi_data[0] must be 1.
  auto bad = distributedShape(parsed(sgMap("[2, 8]", "[1, 1]")), Shape{16});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("needs wi_layout[0] = 1 and wi_data[0] = 1"),
            std::string::npos);
}

// Seed lines 457-478: loads with chunk_size (16 lanes, transposed wi_layout [16, 1]).
TEST(XegpuSeed, ChunkSizeLoads) {
  EXPECT_EQ(distShape(sgMap("[16, 1]", "[1, 1]"), {16, 4}), (Shape{4, 1}));
  EXPECT_EQ(distShape(sgMap("[16, 1]", "[1, 2]"), {16, 8}), (Shape{4, 2}));
}

// Seed lines 485-506 (PVC) and 509-528 (ARC): the required sg_maps and their distributions.
TEST(XegpuSeed, PvcAndArcSgMapTables) {
  struct Row {
    const char* wiLayout;
    const char* wiData;
    Shape from, to;
  };
  const Row rows[] = {
      // PVC, matrix A
      {"[1, 16]", "[1, 1]", {8, 16}, {8, 1}},
      {"[2, 8]", "[1, 1]", {8, 8}, {4, 1}},
      {"[1, 16]", "[1, 2]", {8, 32}, {8, 2}},
      // PVC, matrix B
      {"[1, 16]", "[2, 1]", {16, 16}, {8, 2}},
      {"[1, 16]", "[1, 1]", {8, 16}, {8, 1}},
      {"[1, 16]", "[4, 1]", {32, 16}, {8, 4}},
      // PVC, transposed A or B
      {"[16, 1]", "[1, 1]", {16, 8}, {8, 1}},
      // ARC, matrix A
      {"[1, 8]", "[1, 2]", {8, 16}, {8, 2}},
      {"[1, 8]", "[1, 1]", {8, 8}, {8, 1}},
      {"[1, 8]", "[1, 4]", {8, 32}, {8, 4}},
      // ARC, matrix B
      {"[1, 8]", "[2, 1]", {16, 8}, {8, 2}},
      {"[1, 8]", "[4, 1]", {32, 8}, {8, 4}},
      // ARC, transposed
      {"[8, 1]", "[1, 1]", {8, 8}, {8, 1}},
  };
  for (const Row& r : rows)
    EXPECT_EQ(distShape(sgMap(r.wiLayout, r.wiData), r.from), r.to)
        << r.wiLayout << " " << r.wiData;
}

// Seed lines 538-554 (DPAS operands), 559-568 (transpose and bitcast), 573-587 (reduction and
// broadcast), 591-609 (extract, extract_strided_slice, elementwise).
TEST(XegpuSeed, SgMapPropagationExamples) {
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[1, 1]"), {8, 16}), (Shape{8, 1}));
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[2, 1]"), {16, 16}), (Shape{8, 2}));
  EXPECT_EQ(distShape(sgMap("[1, 8]", "[1, 4]"), {8, 32}), (Shape{8, 4}));
  EXPECT_EQ(distShape(sgMap("[16, 1]", "[1, 2]"), {16, 16}), (Shape{8, 2}));
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[1, 2]"), {8, 32}), (Shape{8, 2}));
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[1, 1]"), {16, 16}), (Shape{16, 1}));
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[2, 1]"), {32, 16}), (Shape{16, 2}));
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[2, 1]"), {64, 16}), (Shape{32, 2}));
  EXPECT_EQ(distShape(sgMap("[1, 16]", "[1, 2]"), {24, 32}), (Shape{24, 2}));
}

// Seed lines 790-802: a [64, 16] tensor over sg_layout [4, 8], sg_data [16, 16]: dim 0 is split
// over 4 subgroups, dim 1 broadcast to 8; inst_data [8, 16] gives two 8x16 loads per subgroup,
// each <8xbf16> per lane, 16 values in all.
TEST(XegpuSeed, BroadcastExample64x16) {
  const std::string attr = "#xegpu.layout<sg_layout = [4, 8], sg_data = [16, 16], inst_data= "
                           "[8, 16], lane_layout=[1,16], lane_data = [1, 1], order = [1, 0]>";
  XeLayout l = parsed(attr);
  const Shape shape{64, 16};
  for (int64_t sg = 0; sg < 32; ++sg) {
    auto tiles = subgroupTiles(l, shape, sg);
    ASSERT_TRUE(tiles.ok()) << tiles.error().message;
    EXPECT_EQ(tiles->tileShape, (Shape{16, 16}));
    ASSERT_EQ(tiles->tileOffsets.size(), 1u);
    EXPECT_EQ(tiles->tileOffsets[0], (Shape{16 * (sg / 8), 0})) << "subgroup " << sg;
  }
  auto dist = distributedShape(l, shape);
  ASSERT_TRUE(dist.ok());
  EXPECT_EQ((*dist)[0] * (*dist)[1], 16);
  // Lane 5 of subgroup 9 ([1, 1]): column 5 of rows 16..31, the first load's 8 rows first.
  auto coords = laneCoords(l, shape, 5, 9);
  ASSERT_TRUE(coords.ok());
  ASSERT_EQ(coords->size(), 16u);
  for (int64_t r = 0; r < 16; ++r) EXPECT_EQ((*coords)[size_t(r)], (Shape{16 + r, 5}));
  // The linear layout: the 8 subgroups along dim 1 are broadcast (zero bases).
  auto ll = toLinearLayout(l, shape);
  ASSERT_TRUE(ll.ok()) << ll.error().message;
  int warp = ll->inDimIndex(dims::warp());
  EXPECT_EQ(ll->inDimSize(warp), 32u);
  for (int b = 0; b < 3; ++b) EXPECT_EQ(ll->basis(warp, b), (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(ll->basis(warp, 3), (std::vector<uint64_t>{16, 0}));
  EXPECT_EQ(ll->basis(warp, 4), (std::vector<uint64_t>{32, 0}));
}

// Seed lines 804-817: [128, 128] over sg_layout [2, 2], sg_data [32, 128]; the table of
// subgroup tensors (round-robin along dim 0, dim 1 shared). subgroupTiles reproduces it
// (computeDistributedCoords); upstream's verifier rejects the shape.
TEST(XegpuSeed, SubgroupTensorTable128x128) {
  XeLayout l = parsed("#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 128], "
                      "lane_layout=[1,16], lane_data = [1, 1], order = [1, 0]>");
  const Shape shape{128, 128};
  // Row of the table -> the linearized subgroup ids that own it.
  struct Row {
    int64_t firstRow, lastRow;
    std::set<int64_t> ids;
  };
  const Row table[] = {{0, 31, {0, 1}}, {32, 63, {2, 3}}, {64, 95, {0, 1}}, {96, 127, {2, 3}}};
  for (int64_t sg = 0; sg < 4; ++sg) {
    auto tiles = subgroupTiles(l, shape, sg);
    ASSERT_TRUE(tiles.ok()) << tiles.error().message;
    EXPECT_EQ(tiles->tileShape, (Shape{32, 128}));
    std::vector<Shape> want;
    for (const Row& row : table)
      if (row.ids.count(sg)) want.push_back({row.firstRow, 0});
    EXPECT_EQ(tiles->tileOffsets, want) << "subgroup " << sg;
    EXPECT_EQ(table[0].lastRow - table[0].firstRow + 1, tiles->tileShape[0]);
  }
  // Upstream's isDistributable tests whole shapes (xegpu.md §1.3): [128, 128] / sg_layout =
  // [64, 64] is divisible by sg_data [32, 128] in dim 0 only and divides it in dim 1 only, so the
  // RFC's example does not verify upstream, and the conversions say so.
  const std::string msg = "cannot distribute [128, 128] using #xegpu.layout<sg_layout = [2, 2], "
                          "sg_data = [32, 128], lane_layout = [1, 16], lane_data = [1, 1], "
                          "order = [1, 0]>";
  EXPECT_EQ(toLinearLayout(l, shape).error().message, msg);
  EXPECT_EQ(distributedShape(l, shape).error().message, msg);
  // With 256 columns it verifies, and the linear layout gives every subgroup exactly the rows
  // of its table entries, all columns.
  const Shape wide{128, 256};
  auto ll = toLinearLayout(l, wide);
  ASSERT_TRUE(ll.ok()) << ll.error().message;
  for (uint64_t sg = 0; sg < 4; ++sg) {
    std::set<std::pair<uint64_t, uint64_t>> seen;
    for (uint64_t lane = 0; lane < 16; ++lane)
      for (uint64_t reg = 0; reg < ll->inDimSize(0); ++reg) {
        uint64_t in[4] = {reg, lane, sg, 0}, out[2];
        ll->apply(in, out);
        seen.insert({out[0], out[1]});
        bool inTable = false;
        for (const Row& row : table)
          inTable |= row.ids.count(int64_t(sg)) && int64_t(out[0]) >= row.firstRow &&
                     int64_t(out[0]) <= row.lastRow;
        EXPECT_TRUE(inTable) << "subgroup " << sg << " row " << out[0];
      }
    // Columns: subgroups [*, 0] own 0..127, [*, 1] own 128..255.
    for (const auto& [row, col] : seen) EXPECT_EQ(col / 128, sg % 2) << "subgroup " << sg;
    EXPECT_EQ(seen.size(), 64u * 128u) << "subgroup " << sg;
  }
}

// Seed lines 835-843: the slice of a reduction keeps the parent's distribution of the remaining
// dim, broadcast across the sliced one (vector<256x128> reduced along dim 1 to vector<256>).
TEST(XegpuSeed, ReductionSlice) {
  XeLayout slice = parsed("#xegpu.slice<#xegpu.layout<sg_layout = [32, 1], sg_data = [8, 128], "
                          "inst_data=[1, 16], lane_layout=[1,16], lane_data = [1, 1], "
                          "order=[1, 0]>, 1>");
  EXPECT_EQ(slice.rank(), 1);
  // vector<256xfloat>: subgroup s owns rows 8s..8s+7.
  for (int64_t sg = 0; sg < 32; ++sg) {
    auto tiles = subgroupTiles(slice, Shape{256}, sg);
    ASSERT_TRUE(tiles.ok()) << tiles.error().message;
    EXPECT_EQ(tiles->tileShape, (Shape{8}));
    EXPECT_EQ(tiles->tileOffsets, (std::vector<Shape>{{8 * sg}}));
  }
}

} // namespace
