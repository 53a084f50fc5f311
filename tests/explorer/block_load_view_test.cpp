// The block-load view against the plan's own fields and the operand's linear layout: the load
// rectangles are recomputed here from BlockLoad (tileHeight rows, tileWidth * numBlocks load
// elements per row), the work-item's elements from toLinearLayout over its registers.
#include "layout/views/block_load_view.h"

#include "layout/intel/block_io.h"
#include "layout/triton/encoding.h"

#include <gtest/gtest.h>

#include <set>

namespace {

using layout::views::CellGrid;
using Coord = std::pair<int64_t, int64_t>;

const char* kParent =
    "#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, "
    "threadsPerWarp = 16, warpsPerCTA = [8, 4], repCluster = [4, 2]}>";

std::string operand(int opIdx) {
  return std::string("#ttg.dot_op<{opIdx = ") + std::to_string(opIdx) + ", parent = " + kParent +
         ", kWidth = " + (opIdx == 0 ? "1" : "2") + "}>";
}

// Elements (memory coordinates) that `lane` of `warp` holds; every lane when lane < 0.
std::set<Coord> heldBy(const std::string& text, std::vector<int64_t> shape, int lane, int warp,
                       bool transposed) {
  auto enc = layout::triton::parseEncoding(text);
  EXPECT_TRUE(enc.ok());
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  EXPECT_TRUE(ll.ok());
  const int li = ll->inDimIndex(layout::dims::lane());
  std::set<Coord> out;
  for (uint64_t l = 0; l < ll->inDimSize(li); ++l) {
    if (lane >= 0 && l != uint64_t(lane)) continue;
    for (uint64_t r = 0; r < ll->inDimSize(layout::dims::reg()); ++r) {
      // In-dims by name; block (one CTA) stays 0.
      std::vector<uint64_t> in(size_t(ll->numInDims()), 0), xy(2);
      in[size_t(ll->inDimIndex(layout::dims::reg()))] = r;
      in[size_t(li)] = l;
      in[size_t(ll->inDimIndex(layout::dims::warp()))] = uint64_t(warp);
      ll->apply(in, xy);
      Coord x{int64_t(xy[0]), int64_t(xy[1])};
      out.insert(transposed ? Coord{x.second, x.first} : x);
    }
  }
  return out;
}

struct LoadRect {
  int64_t r0, c0, rows, cols;
};

// "L<j> r<k>" must name the register of load j's result (the reference executor's per-lane
// list, cut into operandRegisterBits units) that holds the labelled element: the loads run on a
// surface of 16-bit elements holding their own row + 1, then their own column + 1.
void checkRegistersWithTheExecutor(const layout::views::BlockLoadViewResult& res, bool transposed,
                                   std::vector<int64_t> shape, int workItem,
                                   const std::vector<LoadRect>& rects) {
  namespace intel = layout::intel;
  auto target = intel::blockIoTarget("pvc");
  ASSERT_TRUE(target.ok());
  const int64_t memRows = transposed ? shape[1] : shape[0];
  const int64_t memCols = transposed ? shape[0] : shape[1];
  const int64_t width = std::max<int64_t>(64, memCols * 2);
  std::vector<uint8_t> mem[2];
  for (int k = 0; k < 2; ++k) {
    mem[k].assign(size_t(width * memRows), 0);
    for (int64_t r = 0; r < memRows; ++r)
      for (int64_t c = 0; c < memCols; ++c) {
        const uint16_t v = uint16_t(k == 0 ? r + 1 : c + 1);
        mem[k][size_t(r * width + 2 * c)] = uint8_t(v),
                                      mem[k][size_t(r * width + 2 * c + 1)] = uint8_t(v >> 8);
      }
  }
  const auto& plan = res.plan;
  const CellGrid* wi = res.scene.grid("workitem");
  ASSERT_NE(wi, nullptr);
  for (const std::string& label : wi->labels) {
    if (label.empty()) continue;
    int load = -1, reg = -1;
    long long row = -1, col = -1;
    ASSERT_EQ(std::sscanf(label.c_str(), "L%d r%d\n(%lld,%lld)", &load, &reg, &row, &col), 4);
    const auto& l = plan.loads[size_t(load)];
    intel::BlockIoRequest req{
        intel::BlockOp::Load,
        {l.elemBits, l.tileWidth, l.tileHeight, l.numBlocks, l.transpose, l.vnni},
        intel::Surface{0, width, memRows, width},
        rects[size_t(load)].c0 * 16 / l.elemBits,
        rects[size_t(load)].r0};
    int64_t got[2];
    for (int k = 0; k < 2; ++k) {
      auto lanes = intel::loadPerWorkItem(*target, req, mem[k]);
      ASSERT_TRUE(lanes.ok()) << lanes.error().message;
      const int64_t bit = int64_t(reg) * plan.operandRegisterBits;
      const auto& mine = (*lanes)[size_t(workItem)];
      ASSERT_LT(size_t(bit / l.elemBits), mine.size()) << label;
      got[k] = int64_t((mine[size_t(bit / l.elemBits)] >> (bit % l.elemBits)) & 0xffff) - 1;
    }
    EXPECT_EQ(got[0], row) << label;
    EXPECT_EQ(got[1], col) << label;
  }
}

struct Case {
  int opIdx;
  std::vector<int64_t> shape;
  bool transposed;
  int workItem;
  int subgroup;
  int64_t maxCells;
};

void checkCase(const Case& c) {
  const std::string text = operand(c.opIdx);
  layout::views::BlockLoadViewOptions opt;
  opt.transposedInMemory = c.transposed;
  opt.subgroup = c.subgroup;
  opt.maxCells = c.maxCells;
  auto res = layout::views::blockLoadView(text, c.shape, 16, c.workItem, opt);
  ASSERT_TRUE(res.ok()) << res.error().message;
  const layout::intel::BlockLoadPlan& plan = res->plan;
  ASSERT_EQ(res->numLoads, plan.numLoads);
  ASSERT_EQ(int(plan.loads.size()), plan.numLoads);
  const CellGrid* g = res->scene.grid("operand");
  ASSERT_NE(g, nullptr);
  const int64_t memRows = c.transposed ? c.shape[1] : c.shape[0];
  const int64_t memCols = c.transposed ? c.shape[0] : c.shape[1];

  // The subgroup's origin from the plan's subgroupOffset (warp -> memory coordinates).
  std::vector<uint64_t> w = {uint64_t(c.subgroup)}, o(2);
  plan.subgroupOffset.apply(w, o);
  // Load rectangles from the plan's fields; which load covers each memory element.
  std::map<Coord, std::vector<int>> coveredBy;
  using R = LoadRect;
  std::vector<R> rects;
  for (int j = 0; j < plan.numLoads; ++j) {
    const auto& l = plan.loads[size_t(j)];
    R r{int64_t(o[0]) + l.offset[0], int64_t(o[1]) + l.offset[1], l.tileHeight,
        int64_t(l.tileWidth) * l.numBlocks * l.elemBits / 16};
    rects.push_back(r);
    for (int64_t y = r.r0; y < r.r0 + r.rows; ++y)
      for (int64_t x = r.c0; x < r.c0 + r.cols; ++x) coveredBy[{y, x}].push_back(j);
  }
  // The loads cover exactly the subgroup's elements, each once.
  const std::set<Coord> subgroup = heldBy(text, c.shape, -1, c.subgroup, c.transposed);
  EXPECT_EQ(coveredBy.size(), subgroup.size());
  for (const Coord& x : subgroup) {
    auto it = coveredBy.find(x);
    ASSERT_NE(it, coveredBy.end()) << x.first << "," << x.second;
    EXPECT_EQ(it->second.size(), 1u) << x.first << "," << x.second;
  }
  // The grid: the whole operand, or (cropped) the loads' bounding box.
  if (memRows * memCols <= c.maxCells) {
    EXPECT_EQ(g->rows, memRows);
    EXPECT_EQ(g->cols, memCols);
    EXPECT_EQ(res->gridRow0, 0);
    EXPECT_EQ(res->gridCol0, 0);
  } else {
    int64_t r0 = memRows, c0 = memCols;
    for (const R& r : rects) r0 = std::min(r0, r.r0), c0 = std::min(c0, r.c0);
    EXPECT_EQ(res->gridRow0, r0);
    EXPECT_EQ(res->gridCol0, c0);
    EXPECT_LE(int64_t(g->rows) * g->cols, c.maxCells);
  }
  // Every cell's fill is its load's colour (dimmed when no load of the subgroup covers it).
  for (int r = 0; r < g->rows; ++r)
    for (int col = 0; col < g->cols; ++col) {
      const Coord x{res->gridRow0 + r, res->gridCol0 + col};
      auto it = coveredBy.find(x);
      const layout::views::Rgba want =
          it == coveredBy.end() ? layout::views::palette::kDimmed
                                : layout::views::palette::categorical(it->second[0], plan.numLoads);
      ASSERT_EQ(g->fill[size_t(g->index(r, col))], want) << x.first << "," << x.second;
    }
  // One outlined, unfilled rectangle per load, on that load's cells.
  std::vector<const layout::views::SceneRect*> outlines;
  for (const auto& sr : res->scene.rects)
    if (sr.stroke == layout::views::palette::kOutline && sr.fill.a == 0) outlines.push_back(&sr);
  ASSERT_EQ(int(outlines.size()), plan.numLoads);
  for (int j = 0; j < plan.numLoads; ++j) {
    const R& r = rects[size_t(j)];
    EXPECT_FLOAT_EQ(outlines[size_t(j)]->x, g->x + float(r.c0 - res->gridCol0) * g->cellW);
    EXPECT_FLOAT_EQ(outlines[size_t(j)]->y, g->y + float(r.r0 - res->gridRow0) * g->cellH);
    EXPECT_FLOAT_EQ(outlines[size_t(j)]->w, float(r.cols) * g->cellW);
    EXPECT_FLOAT_EQ(outlines[size_t(j)]->h, float(r.rows) * g->cellH);
  }
  // The work-item's highlight is exactly the elements it holds.
  const std::set<Coord> mine = heldBy(text, c.shape, c.workItem, c.subgroup, c.transposed);
  EXPECT_EQ(res->workItemElements, int(mine.size()));
  int highlighted = 0;
  for (int r = 0; r < g->rows; ++r)
    for (int col = 0; col < g->cols; ++col)
      if (g->marks[size_t(g->index(r, col))] & layout::views::kMarkHighlight) {
        ++highlighted;
        EXPECT_TRUE(mine.count({res->gridRow0 + r, res->gridCol0 + col}));
      }
  EXPECT_EQ(highlighted, int(mine.size()));
  // Work-item grid: one cell per operand register; each names a load whose rectangle holds the
  // register's first element, and that element is the work-item's.
  const CellGrid* wi = res->scene.grid("workitem");
  ASSERT_NE(wi, nullptr);
  int filled = 0;
  for (const std::string& label : wi->labels) {
    if (label.empty()) continue;
    ++filled;
    int load = -1, reg = -1;
    long long row = -1, col = -1;
    ASSERT_EQ(std::sscanf(label.c_str(), "L%d r%d\n(%lld,%lld)", &load, &reg, &row, &col), 4)
        << label;
    ASSERT_GE(load, 0);
    ASSERT_LT(load, plan.numLoads);
    const R& r = rects[size_t(load)];
    EXPECT_TRUE(row >= r.r0 && row < r.r0 + r.rows && col >= r.c0 && col < r.c0 + r.cols) << label;
    EXPECT_TRUE(mine.count({row, col})) << label;
  }
  EXPECT_EQ(filled, plan.numShuffledRegisters);
  checkRegistersWithTheExecutor(*res, c.transposed, c.shape, c.workItem, rects);
  EXPECT_EQ(res->workItemRegisters, plan.numShuffledRegisters);
  EXPECT_GE(wi->cellW, 24);
  EXPECT_GT(res->scene.width, wi->x);
}

TEST(BlockLoadView, OperandAOneLoad) {
  checkCase({0, {256, 32}, false, 3, 0, 1 << 18});
}

TEST(BlockLoadView, OperandBTwoVnniLoads) {
  checkCase({1, {32, 256}, false, 5, 0, 1 << 18});
}

TEST(BlockLoadView, OperandBTransposedFourLoads) {
  checkCase({1, {32, 256}, true, 15, 0, 1 << 18});
}

// Subgroup 14 of operand A starts at row 96; a small cell limit crops the grid to its load.
TEST(BlockLoadView, CroppedToTheSelectedSubgroup) {
  checkCase({0, {256, 32}, false, 7, 14, 2048});
  auto res = layout::views::blockLoadView(operand(0), std::vector<int64_t>{256, 32}, 16, 0,
                                          {"pvc", false, 14, 2048, 0});
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(res->gridRow0, 96);
  EXPECT_EQ(res->scene.grid("operand")->rows, 32);
}

TEST(BlockLoadView, ErrorsNameTheField) {
  std::vector<int64_t> shape = {256, 32};
  auto w = layout::views::blockLoadView(operand(0), shape, 16, 16);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().message.rfind("workItem: ", 0), 0u) << w.error().message;
  auto e = layout::views::blockLoadView("#ttg.dot_op<{", shape, 16);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message.rfind("encoding: ", 0), 0u) << e.error().message;
  layout::views::BlockLoadViewOptions opt;
  opt.target = "xe9";
  auto t = layout::views::blockLoadView(operand(0), shape, 16, 0, opt);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message.rfind("target: ", 0), 0u) << t.error().message;
  opt = {};
  opt.subgroup = 32;
  auto s = layout::views::blockLoadView(operand(0), shape, 16, 0, opt);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message.rfind("subgroup: ", 0), 0u) << s.error().message;
  auto b = layout::views::blockLoadView(operand(0), shape, 8);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("opsPerChan"), std::string::npos) << b.error().message;
}

} // namespace
