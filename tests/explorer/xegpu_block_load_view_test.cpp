// The XeGPU block-load view against the XeGPU distribution rule worked out by hand: which
// subgroup owns each element, where each of its loads lies, which elements a work-item holds and
// where each lands in the load's result and GRF image (2D block load semantics of block_io.h).
#include "layout/views/xegpu_block_load_view.h"

#include <gtest/gtest.h>

#include <set>

namespace {

using layout::views::CellGrid;
using layout::views::XegpuBlockLoadOptions;
using layout::views::xegpuBlockLoadView;
using Coord = std::pair<int64_t, int64_t>;
using Load = layout::views::XegpuBlockLoadResult::Load;

std::set<Coord> highlighted(const CellGrid& g) {
  std::set<Coord> out;
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.cols; ++c)
      if (g.marks[size_t(g.index(r, c))] & layout::views::kMarkHighlight) out.insert({r, c});
  return out;
}

const std::string& detailsAt(const CellGrid& g, int r, int c) {
  return g.details[size_t(g.index(r, c))];
}

const std::string& labelAt(const CellGrid& g, int r, int c) {
  return g.labels[size_t(g.index(r, c))];
}

const char* kWorkgroupA = "#xegpu.layout<sg_layout = [4, 2], sg_data = [32, 16], inst_data = "
                          "[8, 16], lane_layout = [1, 16], lane_data = [1, 1]>";

// 128x32 f16 over sg_layout [4, 2], sg_data [32, 16]. Subgroup ids are row-major (no order:
// dim 1 fastest), so subgroup s sits at grid (s / 2, s % 2). Along dim 0, 4 x 32 = 128 covers the
// shape once: grid row g owns rows 32g..32g+31; along dim 1, 2 x 16 = 32: grid col g owns cols
// 16g..16g+15. Each subgroup owns one 32x16 tile at (32 * (s / 2), 16 * (s % 2)); no two share
// one, so the 8 subgroups form 8 tiles. inst_data [8, 16] cuts the tile into 32/8 x 16/16 = 4
// blocks, one 16b_8r16x1c load each, at rows +0, +8, +16, +24.
TEST(XegpuBlockLoadView, WorkgroupTileEightSubgroupsFourLoadsEach) {
  const int64_t shape[] = {128, 32};
  XegpuBlockLoadOptions opt;
  opt.subgroup = 5;
  auto res = xegpuBlockLoadView(kWorkgroupA, shape, 16, /*workItem=*/3, opt);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res->numSubgroups, 8);
  EXPECT_EQ(res->numSubgroupTiles, 8);
  EXPECT_EQ(res->numLoads, 4);
  EXPECT_EQ(res->block, (std::vector<int64_t>{8, 16}));
  EXPECT_EQ(res->blockRule, "inst_data");
  EXPECT_EQ(res->instruction, "16b_8r16x1c");
  EXPECT_FALSE(res->packed);
  EXPECT_EQ(res->unloadedCells, 0);
  // Subgroup 5: grid (2, 1), its tile at (64, 16).
  const std::vector<Load> loads = {
      {64, 16, 8, 16}, {72, 16, 8, 16}, {80, 16, 8, 16}, {88, 16, 8, 16}};
  EXPECT_EQ(res->loads, loads);

  const CellGrid* g = res->scene.grid("operand");
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(g->rows, 128);
  ASSERT_EQ(g->cols, 32);
  // Every cell in the colour of its one subgroup (tiles are listed in subgroup order) and named
  // with it and its load: row r, col c belongs to subgroup (r / 32) * 2 + c / 16, load (r % 32)/8.
  for (int r = 0; r < 128; ++r)
    for (int c = 0; c < 32; ++c) {
      const int s = (r / 32) * 2 + c / 16, j = (r % 32) / 8;
      ASSERT_EQ(g->fill[size_t(g->index(r, c))], layout::views::palette::categorical(s, 8))
          << r << "," << c;
      const std::string want =
          "load L" + std::to_string(j) + " (16b_8r16x1c) of subgroup " + std::to_string(s) + "\n";
      ASSERT_NE(detailsAt(*g, r, c).find(want), std::string::npos) << detailsAt(*g, r, c);
    }

  // Work-item 3: lane_layout [1, 16] with lane_data [1, 1] gives lane 3 column 3 of every 8x16
  // inst tile, all 8 rows: column 16 + 3 = 19 of rows 64..95, 32 elements.
  std::set<Coord> want;
  for (int64_t r = 64; r < 96; ++r) want.insert({r, 19});
  EXPECT_EQ(highlighted(*g), want);
  EXPECT_EQ(res->workItemElements, 32);

  // An 8x16 16-bit load: a row is 16 elements, one per lane, so lane 3 gets column 3 of rows
  // 0..7, register k = row k (16-bit registers). Element (77, 19) is row 5, column 3 of L1 (rows
  // 72..79): register 5 of work-item 3; in the GRF image (32-byte rows) it is byte 5 * 32 + 3 * 2
  // = 166, GRF 166 / 64 = 2, byte 38.
  EXPECT_NE(detailsAt(*g, 77, 19).find("element (77, 19): load L1 (16b_8r16x1c) of subgroup 5"),
            std::string::npos)
      << detailsAt(*g, 77, 19);
  EXPECT_NE(detailsAt(*g, 77, 19).find("work-item 3, register 5 of L1's result (16-bit"),
            std::string::npos)
      << detailsAt(*g, 77, 19);
  EXPECT_NE(detailsAt(*g, 77, 19).find("GRF byte 166 of L1's destination (GRF 2, byte 38)"),
            std::string::npos)
      << detailsAt(*g, 77, 19);

  // Its grid: one row per load, one cell per register (8 rows of one element each): L<i> r<k>
  // holds (64 + 8i + k, 19).
  const CellGrid* w = res->scene.grid("workitem");
  ASSERT_NE(w, nullptr);
  ASSERT_EQ(w->rows, 4);
  ASSERT_EQ(w->cols, 8);
  EXPECT_EQ(w->rowHeaders.front(), "L0");
  EXPECT_EQ(w->colHeaders.back(), "r7");
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 8; ++k)
      EXPECT_EQ(labelAt(*w, i, k), "(" + std::to_string(64 + 8 * i + k) + ",19)");
  EXPECT_EQ(res->workItemRegisters, 32);
  // The legend strip explains the labels where the user looks.
  bool explained = false;
  for (const auto& t : res->scene.legendTexts)
    explained |= t.text.find("\"L0 r10\" is register 10 of load 0") != std::string::npos;
  EXPECT_TRUE(explained);
}

// A B operand: lane_data [2, 1] with 16-bit elements packs 32 / 16 = 2 rows per lane, the VNNI
// load. 32x64 over sg_layout [2, 2], sg_data [16, 32]: subgroup s at (16 * (s / 2), 32 * (s % 2));
// inst_data [16, 16] cuts its 16x32 tile into 2 loads, at cols +0 and +16.
TEST(XegpuBlockLoadView, PackedOperandGivesVnniLoads) {
  const char* b = "#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 32], inst_data = [16, 16], "
                  "lane_layout = [1, 16], lane_data = [2, 1]>";
  const int64_t shape[] = {32, 64};
  XegpuBlockLoadOptions opt;
  opt.subgroup = 3;
  auto res = xegpuBlockLoadView(b, shape, 16, 3, opt);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_TRUE(res->packed);
  EXPECT_EQ(res->instruction, "transform_16b_16r16x1c");
  EXPECT_EQ(res->registerBits, 32);
  EXPECT_EQ(res->numLoads, 2);
  EXPECT_EQ(res->numSubgroupTiles, 4);
  const std::vector<Load> loads = {{16, 32, 16, 16}, {16, 48, 16, 16}};
  EXPECT_EQ(res->loads, loads);
  // Lane 3 holds column 3 of both 16x16 inst tiles, all 16 rows: cols 35 and 51, rows 16..31.
  const CellGrid* g = res->scene.grid("operand");
  ASSERT_NE(g, nullptr);
  std::set<Coord> want;
  for (int64_t r = 16; r < 32; ++r) want.insert({r, 35}), want.insert({r, 51});
  EXPECT_EQ(highlighted(*g), want);
  // VNNI: dword (row pair p, column c) goes to lane c, p-th dword, so 32-bit register k of lane 3
  // holds rows 2k and 2k + 1 of column 3. Element (26, 51) is row 10, col 3 of L1: pair 5, the
  // lower row, register 5; the GRF image puts dword (p, c) at (16p + c) * 4 = 332: GRF 5, byte 12.
  const std::string& d = detailsAt(*g, 26, 51);
  EXPECT_NE(d.find("load L1 (transform_16b_16r16x1c) of subgroup 3"), std::string::npos) << d;
  EXPECT_NE(d.find("work-item 3, register 5 of L1's result (32-bit"), std::string::npos) << d;
  EXPECT_NE(d.find("GRF byte 332 of L1's destination (GRF 5, byte 12)"), std::string::npos) << d;
  const CellGrid* w = res->scene.grid("workitem");
  ASSERT_NE(w, nullptr);
  ASSERT_EQ(w->rows, 2);
  ASSERT_EQ(w->cols, 8); // 16 elements, two per 32-bit register
  EXPECT_EQ(labelAt(*w, 1, 5), "(26,51)");
  EXPECT_EQ(labelAt(*w, 0, 0), "(16,35)");
}

// array_length 2 on a subgroup layout: the 32x16 descriptor is one block of the array, so the
// memory is 32 x (2 * 16) and one 16b_32r16x2c load reads both blocks. Lane 3 holds column 3 of
// each array block: memory cols 3 and 16 + 3 = 19. The load lists a lane's elements block by
// block: registers 0..31 are rows 0..31 of col 3, registers 32..63 rows 0..31 of col 19.
TEST(XegpuBlockLoadView, ArrayLengthLoadsBlocksSideBySide) {
  const char* a = "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>";
  const int64_t shape[] = {32, 16};
  XegpuBlockLoadOptions opt;
  opt.arrayLength = 2;
  auto res = xegpuBlockLoadView(a, shape, 16, 3, opt);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res->blockRule, "shape");
  EXPECT_EQ(res->instruction, "16b_32r16x2c");
  EXPECT_EQ(res->numLoads, 1);
  EXPECT_EQ(res->loads, (std::vector<Load>{{0, 0, 32, 32}}));
  const CellGrid* g = res->scene.grid("operand");
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(g->cols, 32);
  std::set<Coord> want;
  for (int64_t r = 0; r < 32; ++r) want.insert({r, 3}), want.insert({r, 19});
  EXPECT_EQ(highlighted(*g), want);
  const std::string& d = detailsAt(*g, 1, 19);
  EXPECT_NE(d.find("(array block 1, descriptor element (1, 3))"), std::string::npos) << d;
  EXPECT_NE(d.find("work-item 3, register 33 of L0's result"), std::string::npos) << d;
  const CellGrid* w = res->scene.grid("workitem");
  ASSERT_NE(w, nullptr);
  ASSERT_EQ(w->cols, 64);
  EXPECT_EQ(labelAt(*w, 0, 33), "(1,19)");

  // A given 8x16 block with the same array: 32 / 8 = 4 loads of 8 rows, each 2 blocks wide.
  opt.block = {8, 16};
  res = xegpuBlockLoadView(a, shape, 16, 3, opt);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res->blockRule, "given");
  EXPECT_EQ(res->instruction, "16b_8r16x2c");
  EXPECT_EQ(res->loads,
            (std::vector<Load>{{0, 0, 8, 32}, {8, 0, 8, 32}, {16, 0, 8, 32}, {24, 0, 8, 32}}));
  // Blocks narrower than the descriptor cannot be the array's blocks.
  opt.block = {8, 8};
  res = xegpuBlockLoadView(a, shape, 16, 3, opt);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().message.rfind("arrayLength: ", 0), 0u) << res.error().message;
}

// Without inst_data the block is sg_data; a given block overrides both.
TEST(XegpuBlockLoadView, BlockRule) {
  const char* l = "#xegpu.layout<sg_layout = [2, 1], sg_data = [8, 16], lane_layout = [1, 16], "
                  "lane_data = [1, 1]>";
  const int64_t shape[] = {16, 16};
  auto res = xegpuBlockLoadView(l, shape, 16, 0);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res->blockRule, "sg_data");
  EXPECT_EQ(res->block, (std::vector<int64_t>{8, 16}));
  EXPECT_EQ(res->numLoads, 1);
  XegpuBlockLoadOptions opt;
  opt.block = {4, 16};
  opt.subgroup = 1;
  res = xegpuBlockLoadView(l, shape, 16, 0, opt);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res->blockRule, "given");
  // Subgroup 1 owns rows 8..15: two 4-row loads.
  EXPECT_EQ(res->loads, (std::vector<Load>{{8, 0, 4, 16}, {12, 0, 4, 16}}));
}

TEST(XegpuBlockLoadView, ErrorsNameTheFieldAndTheRule) {
  const int64_t shape[] = {128, 32};
  // inst_data [8, 64] of 16-bit elements: a 128-byte row, beyond PVC's 64-byte load rows.
  const char* wide = "#xegpu.layout<inst_data = [8, 64], lane_layout = [1, 16], lane_data = [1, "
                     "1]>";
  const int64_t wideShape[] = {8, 64};
  auto e = xegpuBlockLoadView(wide, wideShape, 16, 0);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message.rfind("block: 16b_8r64x1c (from inst_data [8, 64]) is not a legal "
                                    "load on pvc: ",
                                    0),
            0u)
      << e.error().message;
  EXPECT_NE(e.error().message.find("64-byte"), std::string::npos) << e.error().message;

  XegpuBlockLoadOptions opt;
  opt.block = {8, 24};
  e = xegpuBlockLoadView(kWorkgroupA, shape, 16, 0, opt);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message,
            "block: [8, 24] (given) does not divide one subgroup's data [32, 16] (sg_data)");

  // 4096 x 4096 = 2^24 elements, beyond the 2^18 cells drawn: refused before any allocation.
  const int64_t huge[] = {4096, 4096};
  e = xegpuBlockLoadView(kWorkgroupA, huge, 16, 0);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message.rfind("shape: ", 0), 0u) << e.error().message;
  const int64_t overflow[] = {int64_t{1} << 40, int64_t{1} << 40};
  e = xegpuBlockLoadView(kWorkgroupA, overflow, 16, 0);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message.rfind("shape: ", 0), 0u) << e.error().message;

  opt = {};
  opt.subgroup = 8;
  e = xegpuBlockLoadView(kWorkgroupA, shape, 16, 0, opt);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message.rfind("subgroup: 8 is outside the valid range [0, 7]", 0), 0u)
      << e.error().message;
  e = xegpuBlockLoadView(kWorkgroupA, shape, 16, 16);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message.rfind("workItem: ", 0), 0u) << e.error().message;
  e = xegpuBlockLoadView("#xegpu.layout<sg_layout = [4, 2]", shape, 16, 0);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message.rfind("layout: ", 0), 0u) << e.error().message;
  e = xegpuBlockLoadView(kWorkgroupA, shape, 12, 0);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message.rfind("elemBits: ", 0), 0u) << e.error().message;
  const int64_t rank3[] = {2, 128, 32};
  e = xegpuBlockLoadView(kWorkgroupA, rank3, 16, 0);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message.rfind("shape: ", 0), 0u) << e.error().message;
}

TEST(XegpuBlockLoadView, BlockText) {
  auto b = layout::views::parseBlockText("8x16");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, (std::vector<int64_t>{8, 16}));
  for (const char* bad : {"8x", "x16", "0x16", "8x16x2", "-8x16", "", "8y16", "99999999999x1"}) {
    auto e = layout::views::parseBlockText(bad);
    ASSERT_FALSE(e.ok()) << bad;
    EXPECT_EQ(e.error().message.rfind("block: ", 0), 0u) << e.error().message;
  }
  EXPECT_TRUE(layout::views::isXegpuLayoutText(kWorkgroupA));
  EXPECT_FALSE(layout::views::isXegpuLayoutText("#ttg.blocked<{sizePerThread = [1, 1], "
                                                "threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], "
                                                "order = [1, 0]}>"));
}

} // namespace
