// The explorer's models and views against brute force over the library's `apply` (every input
// of the layout enumerated independently of TensorMap's incremental walk), and the SVG export
// read back cell by cell.
#include "layout/views/base64_text.h"
#include "layout/views/layout_input.h"
#include "layout/views/layout_maps.h"
#include "layout/views/mma_operands.h"
#include "layout/views/svg_export.h"
#include "layout/views/ui_script.h"
#include "layout/views/views.h"

#include "layout/triton/encoding.h"

#include "support/encoding_layout.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <random>
#include <regex>
#include <set>

using namespace layout::views;
using layout::LinearLayout;
using layout_test::encodingLayout;

namespace {

// in-dim values of input number `n` (in-dim 0 fastest) and the row-major cell apply gives.
struct Brute {
  std::vector<std::vector<uint64_t>> inputs;
  std::vector<uint64_t> cell;
};

Brute bruteForce(const LinearLayout& ll) {
  Brute b;
  uint64_t total = uint64_t{1} << ll.totalInDimSizeLog2();
  for (uint64_t n = 0; n < total; ++n) {
    std::vector<uint64_t> in(ll.numInDims()), out(ll.numOutDims());
    uint64_t rest = n;
    for (int i = 0; i < ll.numInDims(); ++i) {
      in[i] = rest % ll.inDimSize(i);
      rest /= ll.inDimSize(i);
    }
    ll.apply(in, out);
    uint64_t cell = 0;
    for (int d = 0; d < ll.numOutDims(); ++d) cell = cell * ll.outDimSize(d) + out[d];
    b.inputs.push_back(in);
    b.cell.push_back(cell);
  }
  return b;
}

const char* kBlocked2Warps = "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], "
                             "warpsPerCTA = [2, 1], order = [1, 0]}>";

} // namespace

TEST(ExplorerTensorMap, OwnersMatchApplyWithBroadcast) {
  // 16x64 tile of a 2-warp blocked layout on an 8x8 tensor: every element has several owners.
  for (auto shape :
       {std::vector<int64_t>{32, 32}, std::vector<int64_t>{8, 8}, std::vector<int64_t>{4, 64}}) {
    LinearLayout ll = encodingLayout(kBlocked2Warps, shape);
    auto map = TensorMap::build(ll);
    ASSERT_TRUE(map) << map.error().message;
    Brute b = bruteForce(ll);
    std::map<uint64_t, std::multiset<uint64_t>> expected;
    for (size_t n = 0; n < b.inputs.size(); ++n) expected[b.cell[n]].insert(n);
    EXPECT_EQ(map->rows(), shape[0]);
    EXPECT_EQ(map->cols(), shape[1]);
    for (uint64_t c = 0; c < map->numElements(); ++c) {
      auto owners = map->owners(c);
      std::multiset<uint64_t> got(owners.begin(), owners.end());
      EXPECT_EQ(got, expected[c]) << "cell " << c;
      for (uint64_t in : owners) EXPECT_EQ(map->cellOf(in), c);
    }
  }
}

TEST(ExplorerTensorMap, LabelsAndThreads) {
  LinearLayout ll = encodingLayout(kBlocked2Warps, {32, 32});
  auto map = TensorMap::build(ll);
  ASSERT_TRUE(map);
  Brute b = bruteForce(ll);
  // In-dims are register, lane (32), warp (2), block (1).
  const uint64_t regs = ll.inDimSize(0);
  ASSERT_EQ(regs, 16u); // 2x2 per thread, the 16x32 tile twice over 32x32
  for (size_t n = 0; n < b.inputs.size(); ++n) {
    const auto& in = b.inputs[n];
    // The thread id over the CTA: lane + 32 * warp (triton-tensor-layout's T<thread>:<reg>).
    std::string want = "T" + std::to_string(in[1] + 32 * in[2]) + ":" + std::to_string(in[0]);
    EXPECT_EQ(map->label(n), want);
    EXPECT_EQ(map->threadOf(n), map->threadOf(n - n % regs)); // registers share the thread
    EXPECT_EQ(map->inValue(n, "lane"), in[1]);
    EXPECT_EQ(map->pack(map->unpack(n)), n);
  }
  auto shared = encodingLayout(
      "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>", {8, 8});
  auto smap = TensorMap::build(shared);
  ASSERT_TRUE(smap);
  EXPECT_FALSE(smap->isDistributed());
  EXPECT_EQ(smap->label(17), "o17");
}

TEST(ExplorerTensorMap, RejectsWhatCannotBeEnumerated) {
  auto big = LinearLayout::identity1D(uint64_t{1} << 23, layout::DimName("register"),
                                      layout::DimName("dim0"));
  ASSERT_TRUE(big);
  auto map = TensorMap::build(*big);
  ASSERT_FALSE(map);
  EXPECT_NE(map.error().message.find("2^23"), std::string::npos) << map.error().message;
}

TEST(ExplorerViews, TensorSceneLabelsColoursAndSelection) {
  LinearLayout ll = encodingLayout(kBlocked2Warps, {32, 32});
  auto map = TensorMap::build(ll);
  ASSERT_TRUE(map);
  Brute b = bruteForce(ll);
  ViewOptions opt;
  Scene s = tensorScene(*map, opt);
  const CellGrid* g = s.grid("tensor");
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(g->rows * g->cols, 1024);
  // Each label names an input that apply maps to that cell; colours follow the lane.
  const uint64_t regs = ll.inDimSize(0);
  // T<thread> over V<register>, the thread counted over the CTA (lane + 32 * warp).
  std::regex re("T(\\d+)\nV(\\d+)");
  for (int c = 0; c < 1024; ++c) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(g->labels[c], m, re)) << g->labels[c];
    uint64_t t = std::stoull(m[1]), reg = std::stoull(m[2]);
    uint64_t w = t / 32, lane = t % 32;
    uint64_t n = reg + regs * (lane + 32 * w);
    EXPECT_EQ(b.cell[n], uint64_t(c));
    EXPECT_EQ(g->fill[c], palette::categorical(int(lane), 32));
    EXPECT_EQ(g->marks[c], kMarkNone);
  }
  // Selecting thread (warp 1, lane 5): its cells are exactly the ones apply gives.
  uint64_t thread = regs * (5 + 32 * 1);
  opt.selectedThread = thread;
  Scene sel = tensorScene(*map, opt);
  std::set<uint64_t> owned;
  for (uint64_t r = 0; r < regs; ++r) owned.insert(b.cell[thread + r]);
  const CellGrid* sg = sel.grid("tensor");
  EXPECT_EQ(countMarked(*sg, kMarkHighlight), int(owned.size()));
  for (uint64_t c : owned) EXPECT_TRUE(sg->marks[c] & kMarkHighlight);
  Scene hw = hardwareScene(*map, opt);
  int hwMarked = 0;
  for (const auto& grid : hw.grids) hwMarked += countMarked(grid, kMarkHighlight);
  EXPECT_EQ(hwMarked, int(regs)); // the thread's registers
}

// Warp and tile boundaries: a cell's right (bottom) edge is thick exactly where the cell to its
// right (below) has its first owner in another warp (by the brute-force map) or lies in another
// CTA tile (sizePerThread x threadsPerWarp x warpsPerCTA = 16x16 cells for this encoding).
TEST(ExplorerViews, TensorSceneMarksWarpBoundaries) {
  LinearLayout ll = encodingLayout(kBlocked2Warps, {32, 32});
  auto map = TensorMap::build(ll);
  ASSERT_TRUE(map);
  Brute b = bruteForce(ll);
  std::vector<uint64_t> warpOf(1024, ~uint64_t{0});
  for (size_t n = b.inputs.size(); n-- > 0;) warpOf[b.cell[n]] = b.inputs[n][2]; // lowest input
  Scene s = tensorScene(*map, {});
  const CellGrid* g = s.grid("tensor");
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(g->edges.size(), 1024u);
  int thick = 0;
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) {
      const uint8_t e = g->edges[size_t(r * 32 + c)];
      const bool right =
          c + 1 < 32 && (warpOf[r * 32 + c] != warpOf[r * 32 + c + 1] || c % 16 == 15);
      const bool bottom =
          r + 1 < 32 && (warpOf[r * 32 + c] != warpOf[(r + 1) * 32 + c] || r % 16 == 15);
      EXPECT_EQ(bool(e & kEdgeRight), right) << r << "," << c;
      EXPECT_EQ(bool(e & kEdgeBottom), bottom) << r << "," << c;
      thick += right + bottom;
    }
  EXPECT_GT(thick, 0); // two warps do meet
  // One warp, one tile (4x16): no boundaries.
  auto one = TensorMap::build(encodingLayout(
      "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], "
      "order = [1, 0]}>",
      {4, 16}));
  ASSERT_TRUE(one);
  EXPECT_TRUE(tensorScene(*one, {}).grid("tensor")->edges.empty());
}

// CTA-tile boundaries: one warp of 4x8 lanes with sizePerThread [1, 2] covers a 4x16 tile
// (sizePerThread x threadsPerWarp x warpsPerCTA, the encoding's own definition), repeated over
// 32x32: thick edges exactly every 4 rows and every 16 columns.
TEST(ExplorerViews, TensorSceneMarksCtaTileBoundaries) {
  const char* oneWarp = "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], "
                        "warpsPerCTA = [1, 1], order = [1, 0]}>";
  LinearLayout ll = encodingLayout(oneWarp, {32, 32});
  const CtaTile tile = ctaTile(ll);
  EXPECT_EQ(tile.extent, (std::vector<uint64_t>{4, 16}));
  auto map = TensorMap::build(ll);
  ASSERT_TRUE(map);
  const Scene scene = tensorScene(*map, {});
  const CellGrid* g = scene.grid("tensor");
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(g->edges.size(), 1024u);
  EXPECT_EQ(g->tileRows, 4);
  EXPECT_EQ(g->tileCols, 16);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) {
      const uint8_t e = g->edges[size_t(r * 32 + c)];
      EXPECT_EQ(bool(e & kEdgeRight), c % 16 == 15 && c != 31) << r << "," << c;
      EXPECT_EQ(bool(e & kEdgeBottom), r % 4 == 3 && r != 31) << r << "," << c;
    }
  // NVIDIA mma v2 with 2x2 warps over 64x64: the tile is warpsPerCTA x instrShape = 32x16.
  LinearLayout mma = encodingLayout("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                                    "warpsPerCTA = [2, 2], instrShape = [16, 8]}>",
                                    {64, 64});
  EXPECT_EQ(ctaTile(mma).extent, (std::vector<uint64_t>{32, 16}));
  // One warp's part: sizePerThread x threadsPerWarp for blocked, instrShape for mma v2; a
  // blocked layout of 2x2 warps of [2, 16] lanes holding [1, 4] each: 2x64 of a 4x128 tile.
  EXPECT_EQ(tile.warpExtent, (std::vector<uint64_t>{4, 16}));
  EXPECT_EQ(ctaTile(mma).warpExtent, (std::vector<uint64_t>{16, 8}));
  const CtaTile blocked = ctaTile(encodingLayout(
      "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 2], "
      "order = [1, 0]}>",
      {64, 256}));
  EXPECT_EQ(blocked.extent, (std::vector<uint64_t>{4, 128}));
  EXPECT_EQ(blocked.warpExtent, (std::vector<uint64_t>{2, 64}));
  EXPECT_EQ(g->warpTileRows, 4);
  EXPECT_EQ(g->warpTileCols, 16);
}

// XeGPU's VNNI layout for B (lane_data = [2, 1]): lane l holds rows 2i and 2i + 1 of column l,
// the pair packed in one 32-bit register. The lanes span no row, so Triton's rule alone calls
// every row register a tile repetition and draws a thick line under every row, splitting the
// pairs; with Intel's register order (lane_data first, then the instruction tile) the 16 rows of
// the 16x16 instruction tile are one tile: no line inside it.
TEST(ExplorerViews, XegpuVnniPairsStayInOneTile) {
  int64_t shape[] = {16, 16};
  auto x = parseLayoutInput(
      "#xegpu.layout<inst_data = [16, 16], lane_layout = [1, 16], lane_data = [2, 1]>", shape);
  ASSERT_TRUE(x) << x.error().message;
  EXPECT_NE(ctaTile(x->layout).repetitionMask, 0u); // the generic rule's split
  const CtaTile intel = ctaTile(x->layout, true);
  EXPECT_EQ(intel.repetitionMask, 0u);
  EXPECT_EQ(intel.extent, (std::vector<uint64_t>{16, 16}));
  auto map = TensorMap::build(x->layout);
  ASSERT_TRUE(map);
  ViewOptions opt;
  opt.intelTerms = true;
  const Scene scene = tensorScene(*map, opt);
  const CellGrid* g = scene.grid("tensor");
  ASSERT_NE(g, nullptr);
  for (uint8_t e : g->edges) EXPECT_EQ(e & kEdgeBottom, 0);
}

// CIELAB distance written here from the CIE formulas (not the palette's code).
double deltaE(Rgba a, Rgba b) {
  auto lab = [](Rgba c) {
    auto lin = [](double v) {
      v /= 255;
      return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    double r = lin(c.r), g = lin(c.g), bl = lin(c.b);
    double x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * bl) / 0.95047;
    double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * bl;
    double z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * bl) / 1.08883;
    auto f = [](double t) {
      return t > 216.0 / 24389 ? std::cbrt(t) : (24389.0 / 27 * t + 16) / 116;
    };
    return std::array<double, 3>{116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
  };
  auto p = lab(a), q = lab(b);
  return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                   (p[2] - q[2]) * (p[2] - q[2]));
}

// Lane colours are told apart: no two of 32 lanes closer than 14 CIELAB units, of 64 values than
// 9 (the hue-stepped palette put lanes n and n + 21 about 4 units apart); each colour keeps its
// index's place whatever the count, and dark text reads on all of them.
TEST(ExplorerPalette, CategoricalColoursAreDistinct) {
  for (auto [count, minimum] : {std::pair{32, 14.0}, std::pair{64, 9.0}}) {
    double closest = 1e9;
    for (int i = 0; i < count; ++i)
      for (int j = i + 1; j < count; ++j)
        closest = std::min(closest,
                           deltaE(palette::categorical(i, count), palette::categorical(j, count)));
    EXPECT_GE(closest, minimum) << count << " colours";
  }
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(palette::categorical(i, 32), palette::categorical(i, 64));
    EXPECT_EQ(palette::textOn(palette::categorical(i, 32)), (Rgba{20, 20, 20})) << i;
  }
}

// The owners of a broadcast element summarised by the free bits: checked against the brute-force
// owner sets, and refused when the owners are not a product of free bits.
TEST(ExplorerTensorMap, BroadcastSummaryNamesTheFreeBits) {
  LinearLayout ll = encodingLayout(kBlocked2Warps, {8, 8});
  auto map = TensorMap::build(ll);
  ASSERT_TRUE(map);
  Brute b = bruteForce(ll);
  std::map<uint64_t, int> owners;
  for (uint64_t c : b.cell) ++owners[c];
  for (const auto& [cell, count] : owners) {
    auto summary = broadcastSummary(*map, cell);
    ASSERT_TRUE(summary) << cell;
    // lane bits 0b11000 hold the elements of lanes beyond the 8x8 tile, warp bit 0b1 both warps.
    EXPECT_NE(summary->find("held by every value of"), std::string::npos) << *summary;
    uint64_t product = 1;
    std::smatch m;
    std::string rest = *summary;
    while (std::regex_search(rest, m, std::regex(R"(\((\d+) [a-z]+s\))"))) {
      product *= std::stoull(m[1]);
      rest = m.suffix();
    }
    EXPECT_EQ(product, uint64_t(count)) << *summary;
  }
  // lane 1 and lane 2 both map to 1: lane 3 (0b11) is in the kernel but no single bit is free.
  auto skew =
      LinearLayout::create({{layout::DimName("lane"), {{1}, {1}}}}, {{layout::DimName("dim0"), 2}});
  ASSERT_TRUE(skew);
  auto skewMap = TensorMap::build(*skew);
  ASSERT_TRUE(skewMap);
  EXPECT_EQ(skewMap->owners(0).size(), 2u);
  EXPECT_FALSE(broadcastSummary(*skewMap, 0));
  auto single = TensorMap::build(encodingLayout(kBlocked2Warps, {32, 32}));
  ASSERT_TRUE(single);
  EXPECT_FALSE(broadcastSummary(*single, 5)); // one owner
}

// The kWidth rules of the operands view, and what it refuses.
TEST(ExplorerOperands, KWidthByEncodingAndElementSize) {
  auto parse = [](const std::string& text) {
    auto e = layout::triton::parseEncoding(text);
    EXPECT_TRUE(e) << text;
    return *e;
  };
  const std::string v3 = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = "
                         "[4, 1], instrShape = [16, 64, 16]}>";
  auto wgmma = mmaOperands(parse(v3), 16);
  ASSERT_TRUE(wgmma) << wgmma.error().message;
  EXPECT_FALSE(wgmma->b);
  EXPECT_NE(wgmma->noteB.find("shared memory"), std::string::npos);
  EXPECT_EQ(wgmma->kWidthA, 2);
  const std::string dpas = "#ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, "
                           "opsPerChan = 4, threadsPerWarp = 16, warpsPerCTA = [1, 1], "
                           "repCluster = [1, 1]}>";
  auto int8 = mmaOperands(parse(dpas), 8);
  ASSERT_TRUE(int8) << int8.error().message;
  EXPECT_EQ(int8->kWidthA, 2);
  EXPECT_EQ(int8->kWidthB, 4);
  // A dot operand stands for its parent.
  auto viaDot =
      mmaOperands(parse("#ttg.dot_op<{opIdx = 1, parent = " + dpas + ", kWidth = 4}>"), 8);
  ASSERT_TRUE(viaDot);
  EXPECT_EQ(viaDot->c.text(), int8->c.text());
  const std::string mfma = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, "
                           "32, 8], isTransposed = false}>";
  auto amd = mmaOperands(parse(mfma), 16);
  ASSERT_TRUE(amd) << amd.error().message;
  EXPECT_EQ(amd->kWidthA, 4);
  auto blocked = mmaOperands(parse(kBlocked2Warps), 16);
  ASSERT_FALSE(blocked);
  EXPECT_NE(blocked.error().message.find("is not an MMA encoding"), std::string::npos);
  auto odd = mmaOperands(parse(dpas), 12);
  ASSERT_FALSE(odd);
  EXPECT_NE(odd.error().message.find("elemBits: 12"), std::string::npos);
}

TEST(ExplorerViews, BroadcastAndUnownedCells) {
  // 2 warps on an 8x8 tensor: each element has several owners.
  LinearLayout ll = encodingLayout(kBlocked2Warps, {8, 8});
  auto map = TensorMap::build(ll);
  ASSERT_TRUE(map);
  Scene s = tensorScene(*map, {});
  const CellGrid* g = s.grid("tensor");
  EXPECT_EQ(countMarked(*g, kMarkBroadcast), 64);
  std::regex plus("T\\d+\nV\\d+ \\+(\\d+)");
  for (int c = 0; c < 64; ++c) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(g->labels[c], m, plus)) << g->labels[c];
    EXPECT_EQ(std::stoul(m[1]) + 1, map->owners(uint64_t(c)).size());
  }
  // A layout JSON that leaves dim1 = 1 unowned: lane bases reach only even columns.
  auto json = parseLayoutInput(R"({"inDims": [{"name": "lane", "bases": [[0, 2], [1, 0]]}],
      "outDims": [{"name": "dim0", "size": 2}, {"name": "dim1", "size": 4}]})",
                               {});
  ASSERT_TRUE(json) << json.error().message;
  auto jm = TensorMap::build(json->layout);
  ASSERT_TRUE(jm);
  Scene js = tensorScene(*jm, {});
  EXPECT_EQ(countMarked(*js.grid("tensor"), kMarkUnowned), 4);
}

TEST(ExplorerViews, HardwareSceneShowsAppliedCoordinates) {
  LinearLayout ll = encodingLayout(kBlocked2Warps, {32, 32});
  auto map = TensorMap::build(ll);
  ASSERT_TRUE(map);
  Scene s = hardwareScene(*map, {});
  ASSERT_EQ(s.grids.size(), 2u); // one panel per warp
  for (int w = 0; w < 2; ++w) {
    const CellGrid& g = s.grids[size_t(w)];
    ASSERT_EQ(g.rows, int(ll.inDimSize(0)));
    ASSERT_EQ(g.cols, 32);
    for (int r = 0; r < g.rows; ++r)
      for (int l = 0; l < 32; ++l) {
        uint64_t in[4] = {uint64_t(r), uint64_t(l), uint64_t(w), 0}, out[2];
        ll.apply(in, out);
        EXPECT_EQ(g.labels[size_t(g.index(r, l))],
                  "(" + std::to_string(out[0]) + "," + std::to_string(out[1]) + ")");
      }
  }
}

TEST(ExplorerViews, MatrixSceneIsTheBasisBits) {
  LinearLayout ll = encodingLayout(kBlocked2Warps, {32, 32});
  Scene s = matrixScene(ll);
  const CellGrid* g = s.grid("matrix");
  ASSERT_NE(g, nullptr);
  ASSERT_EQ(g->rows, 10);
  ASSERT_EQ(g->cols, ll.totalInDimSizeLog2());
  // Column j = input bit j: apply to the unit input and read the output bits.
  Brute b = bruteForce(ll);
  for (int j = 0; j < g->cols; ++j) {
    uint64_t cell = b.cell[uint64_t{1} << j]; // row-major: dim0 high, dim1 low (5 bits each)
    uint64_t d0 = cell >> 5, d1 = cell & 31;
    for (int r = 0; r < 10; ++r) {
      bool one = r < 5 ? (d0 >> r) & 1 : (d1 >> (r - 5)) & 1;
      EXPECT_EQ(g->labels[size_t(g->index(r, j))] == "1", one) << r << "," << j;
    }
  }
}

TEST(ExplorerViews, DiffCountsDisagreeingCells) {
  LinearLayout a = encodingLayout(kBlocked2Warps, {32, 32});
  LinearLayout b = encodingLayout("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = "
                                  "[8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>",
                                  {32, 32});
  auto ma = TensorMap::build(a), mb = TensorMap::build(b);
  ASSERT_TRUE(ma && mb);
  Brute ba = bruteForce(a), bb = bruteForce(b);
  std::vector<std::set<uint64_t>> oa(1024), ob(1024);
  for (size_t n = 0; n < ba.cell.size(); ++n) oa[ba.cell[n]].insert(n);
  for (size_t n = 0; n < bb.cell.size(); ++n) ob[bb.cell[n]].insert(n);
  uint64_t expected = 0;
  for (int c = 0; c < 1024; ++c) expected += oa[c] != ob[c];
  ASSERT_GT(expected, 0u);
  uint64_t n = 0;
  auto s = diffScene(*ma, *mb, &n);
  ASSERT_TRUE(s);
  EXPECT_EQ(n, expected);
  EXPECT_EQ(uint64_t(countMarked(*s->grid("diff"), kMarkConflict)), expected);
  auto same = diffScene(*ma, *ma, &n);
  ASSERT_TRUE(same);
  EXPECT_EQ(n, 0u);
  auto other = TensorMap::build(encodingLayout(kBlocked2Warps, {16, 32}));
  ASSERT_TRUE(other);
  auto bad = diffScene(*ma, *other, &n);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("different tensors"), std::string::npos);
}

TEST(ExplorerSvg, CellsReadBackWithTheirLabels) {
  LinearLayout ll = encodingLayout("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = "
                                   "[4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>",
                                   {16, 16});
  auto map = TensorMap::build(ll);
  ASSERT_TRUE(map);
  std::string svg = sceneToSvg(tensorScene(*map, {}));
  std::regex cell(
      R"re(<g class="cell" data-grid="tensor" data-row="(\d+)" data-col="(\d+)"><rect [^>]*/><text [^>]*><tspan>T(\d+)</tspan><tspan [^>]*>V(\d+)</tspan></text></g>)re");
  std::set<std::pair<int, int>> seen;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), cell); it != std::sregex_iterator();
       ++it) {
    int row = std::stoi((*it)[1]), col = std::stoi((*it)[2]);
    uint64_t in[4] = {std::stoull((*it)[4]), std::stoull((*it)[3]), 0, 0}, out[2];
    ll.apply(in, out);
    EXPECT_EQ(out[0], uint64_t(row));
    EXPECT_EQ(out[1], uint64_t(col));
    seen.insert({row, col});
  }
  EXPECT_EQ(seen.size(), 256u);
  EXPECT_EQ(xmlEscape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
}

// True when `text` is UTF-8 whose every character XML 1.0 allows (tab, newline, CR, U+0020 up,
// no surrogates, no U+FFFE / U+FFFF): what a parser checks before anything else.
bool onlyXmlCharacters(const std::string& text, std::string* bad) {
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1fu : len == 3 ? c & 0x0fu : c & 0x07u;
    bool ok = len > 0 && i + len <= text.size();
    for (size_t k = 1; ok && k < len; ++k) {
      ok = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
      cp = cp << 6 | (static_cast<unsigned char>(text[i + k]) & 0x3fu);
    }
    ok = ok && (cp == 0x9 || cp == 0xa || cp == 0xd || (cp >= 0x20 && cp <= 0xd7ff) ||
                (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff));
    if (!ok) {
      *bad = "byte " + std::to_string(i) + " (" + binaryText(c, 8) + ") in '" +
             text.substr(i >= 40 ? i - 40 : 0, 80) + "'";
      return false;
    }
    i += len;
  }
  return true;
}

// Issue 31: dim names with control characters (ESC, NUL) were written raw, and the SVG was not
// well-formed XML. What XML 1.0 cannot hold is written as visible text ("\x1b").
TEST(ExplorerSvg, ControlCharactersAreEscapedVisibly) {
  EXPECT_EQ(xmlEscape("a\x1b[31mb"), "a\\x1b[31mb");
  EXPECT_EQ(xmlEscape(std::string("n\0ul", 4)), "n\\x00ul");
  EXPECT_EQ(xmlEscape("\x01\x08\x0b\x0c\x1f\x7f"), "\\x01\\x08\\x0b\\x0c\\x1f\\x7f");
  EXPECT_EQ(xmlEscape("tab\there\nnext\rcr"), "tab\there\nnext&#13;cr");
  // UTF-8 stays; bytes that are not UTF-8, C1 controls and U+FFFE / U+FFFF do not.
  EXPECT_EQ(xmlEscape("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82"),
            "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82");
  EXPECT_EQ(xmlEscape("\xff\xfe x \xc3"), "\\xff\\xfe x \\xc3");
  EXPECT_EQ(xmlEscape("\xc0\xaf"), "\\xc0\\xaf");          // overlong '/'
  EXPECT_EQ(xmlEscape("\xed\xa0\x80"), "\\xed\\xa0\\x80"); // a surrogate
  EXPECT_EQ(xmlEscape("\xc2\x85 \xef\xbf\xbe\xef\xbf\xbf"), "\\u0085 \\ufffe\\uffff");

  // A layout whose dim names hold ESC, NUL, BEL, U+FFFE and '<': every view's SVG has only
  // characters XML allows, and shows the names escaped.
  const std::string json = R"({"inDims": [{"name": "la\u001bne", "bases": [[1], [2]]},)"
                           R"( {"name": "w\u0000arp<", "bases": [[4]]}],)"
                           R"( "outDims": [{"name": "d\u0007im\ufffe", "size": 8}]})";
  auto in = parseLayoutInput(json, {});
  ASSERT_TRUE(in) << in.error().message;
  auto map = TensorMap::build(in->layout);
  ASSERT_TRUE(map) << map.error().message;
  ViewOptions opt;
  opt.colorBy = defaultColorBy(*map);
  Scene tensor = tensorScene(*map, opt);
  tensor.title = "tensor view of " + std::string("\x1b[1m\0", 5);
  for (const Scene& scene : {tensor, hardwareScene(*map, opt), matrixScene(in->layout)}) {
    const std::string svg = sceneToSvg(scene);
    std::string bad;
    EXPECT_TRUE(onlyXmlCharacters(svg, &bad)) << bad;
    EXPECT_NE(svg.find("la\\x1bne"), std::string::npos) << svg.substr(0, 2000);
  }
  const std::string svg = sceneToSvg(tensor);
  EXPECT_NE(svg.find("<title>tensor view of \\x1b[1m\\x00</title>"), std::string::npos);
}

TEST(ExplorerPalette, LaneColoursAreDistinct) {
  for (int n : {2, 8, 16, 32, 64}) {
    std::set<std::tuple<int, int, int>> colours;
    for (int i = 0; i < n; ++i) {
      Rgba c = palette::categorical(i, n);
      colours.insert({c.r, c.g, c.b});
      EXPECT_FALSE(c.r == c.g && c.g == c.b) << "gray colour " << i; // grays are UI colours
    }
    EXPECT_EQ(int(colours.size()), n);
  }
}

TEST(ExplorerInput, EncodingsXegpuJsonAndAliases) {
  int64_t shape[] = {32, 32};
  auto t = parseLayoutInput(kBlocked2Warps, shape);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->kind, "#ttg.blocked");
  auto x = parseLayoutInput("#xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1]>", shape);
  ASSERT_TRUE(x) << x.error().message;
  EXPECT_EQ(x->kind, "#xegpu.layout");
  EXPECT_EQ(x->layout.inDimSize(layout::DimName("lane")), 16u);
  auto defs = layout::parseAliasFile(std::string("#blk = ") + kBlocked2Warps + "\n");
  ASSERT_TRUE(defs);
  layout::AttrAliases aliases;
  for (const auto& d : *defs) aliases[d.name] = d.value;
  auto a = parseLayoutInput("#blk", shape, aliases);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->layout, t->layout);
}

// tensor<SHAPE x TYPE, ENCODING>: the encoding over the type's shape, whatever shape is given.
TEST(ExplorerInput, TensorTypeCarriesItsShape) {
  const LinearLayout want = encodingLayout(kBlocked2Warps, {64, 32});
  int64_t other[] = {16, 16};
  auto t = parseLayoutInput(std::string("tensor<64x32xf16, ") + kBlocked2Warps + ">", other);
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->layout, want);
  EXPECT_EQ(t->shape, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(t->kind, "#ttg.blocked");
  auto defs = layout::parseAliasFile(std::string("#blocked = ") + kBlocked2Warps + "\n");
  ASSERT_TRUE(defs);
  layout::AttrAliases aliases;
  for (const auto& d : *defs) aliases[d.name] = d.value;
  auto a = parseLayoutInput("  tensor<64x32xbf16, #blocked>\n", {}, aliases);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->layout, want);
  for (auto [text, message] :
       {std::pair{"tensor<64x32xf16>", "has no encoding"},
        std::pair{"tensor<64x32xf16, >", "has no encoding"},
        std::pair{"tensor<64x32xf16, #blocked", "expected tensor<SHAPE x TYPE, ENCODING>"},
        std::pair{"tensor<0x32xf16, #blocked>", "positive sizes"}}) {
    auto e = parseLayoutInput(text, other, aliases);
    ASSERT_FALSE(e) << text;
    EXPECT_NE(e.error().message.find(message), std::string::npos)
        << text << ": " << e.error().message;
  }
}

// RFC 4648's test vectors, both alphabets, and what is refused.
TEST(ExplorerBase64, RoundTripsAndRefusesGarbage) {
  const std::pair<const char*, const char*> rfc[] = {{"", ""},
                                                     {"f", "Zg=="},
                                                     {"fo", "Zm8="},
                                                     {"foo", "Zm9v"},
                                                     {"foob", "Zm9vYg=="},
                                                     {"fooba", "Zm9vYmE="},
                                                     {"foobar", "Zm9vYmFy"}};
  for (auto [plain, encoded] : rfc) {
    EXPECT_EQ(base64Encode(plain), encoded);
    auto back = base64Decode(encoded);
    ASSERT_TRUE(back) << encoded;
    EXPECT_EQ(*back, plain);
  }
  std::mt19937 rng(7);
  for (int n = 0; n < 64; ++n) {
    std::string bytes(size_t(n), '\0');
    for (char& c : bytes) c = char(rng() & 0xff);
    const std::string url = base64Encode(bytes, /*urlSafe=*/true);
    EXPECT_EQ(url.find_first_of("+/"), std::string::npos);
    auto back = base64Decode(url);
    ASSERT_TRUE(back) << url;
    EXPECT_EQ(*back, bytes);
    auto plain = base64Decode(base64Encode(bytes));
    ASSERT_TRUE(plain);
    EXPECT_EQ(*plain, bytes);
  }
  for (auto [bad, message] :
       {std::pair{"Zm9v!", "'!' is not a base64 character"},
        std::pair{"Zg=v", "'=' may only end the text"}, std::pair{"Zm9vY", "cut short"}}) {
    auto e = base64Decode(bad);
    ASSERT_FALSE(e) << bad;
    EXPECT_NE(e.error().message.find(message), std::string::npos) << e.error().message;
  }
}

// The tensor types of a TTGIR file, as a TTGIR writer spells them.
TEST(ExplorerInput, TensorTypesOfATtgirFile) {
  const char* ttgir =
      R"(#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k(%p: !tt.ptr<f16>) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %1 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %2 = tt.load %q : tensor<64x64x!tt.ptr<f16>, #blocked>
    %3 = ttg.convert_layout %2 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %4 = tt.dot %3, %b, %1 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %5 = "x.op"() : () -> !xtensor<3>
  }
})";
  const std::vector<std::string> want = {
      "tensor<64x64xf32, #mma>", "tensor<64x64x!tt.ptr<f16>, #blocked>",
      "tensor<64x64xf16, #blocked>",
      "tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>",
      "tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>"};
  EXPECT_EQ(tensorTypesIn(ttgir), want);
  // Each reads as a layout with the file's aliases.
  auto defs = layout::parseAliasFile(ttgir);
  ASSERT_TRUE(defs) << defs.error().message;
  layout::AttrAliases aliases;
  for (const auto& d : *defs) aliases[d.name] = d.value;
  for (const auto& t : want) {
    auto in = parseLayoutInput(t, {}, aliases);
    ASSERT_TRUE(in) << t << ": " << in.error().message;
    EXPECT_EQ(in->shape, (std::vector<int64_t>{64, 64})) << t;
  }
}

TEST(ExplorerInput, ErrorsPointAtTheColumn) {
  int64_t shape[] = {32, 32};
  // sizePerThread = [1, 3]: 3 is not a power of two; the parser names the value's column.
  std::string text = "#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], "
                     "warpsPerCTA = [1, 1], order = [1, 0]}>";
  auto r = parseLayoutInput(text, shape);
  ASSERT_FALSE(r);
  // The location travels in the error (no parsing of the message), and agrees with its text.
  const auto& loc = r.error().location;
  ASSERT_TRUE(loc) << r.error().message;
  EXPECT_EQ(loc->line, 1);
  EXPECT_EQ(text.substr(size_t(loc->column - 1), 6), "[1, 3]") << r.error().message;
  EXPECT_NE(r.error().message.find("line 1, column " + std::to_string(loc->column) + ": "),
            std::string::npos)
      << r.error().message;
  // A syntax error (the lexer's location): "[1, 2}" closes the list with '}' at column 36.
  auto bad = parseLayoutInput("#ttg.blocked<{sizePerThread = [1, 2}>", shape);
  ASSERT_FALSE(bad);
  ASSERT_TRUE(bad.error().location) << bad.error().message;
  EXPECT_EQ(bad.error().location->column, 36) << bad.error().message;
  // No text, no location.
  auto noShape = parseShapeText("0x4");
  ASSERT_FALSE(noShape);
  EXPECT_FALSE(noShape.error().location);
  EXPECT_FALSE(parseLayoutInput("   ", shape));
  EXPECT_FALSE(parseLayoutInput(kBlocked2Warps, {}));
  EXPECT_EQ(*parseShapeText("32x64"), (std::vector<int64_t>{32, 64}));
  EXPECT_EQ(*parseShapeText("tensor<16x8xf16>"), (std::vector<int64_t>{16, 8}));
  for (const char* s : {"", "x", "32x", "0x4", "-2x4", "4xq", "99999999999999999999"}) {
    auto e = parseShapeText(s);
    ASSERT_FALSE(e) << s;
    EXPECT_EQ(e.error().message.rfind("shape:", 0), 0u) << e.error().message;
  }
}

TEST(ExplorerScript, ParsesCommandsAndNamesBadLines) {
  auto ok = parseScript("# comment\nwait 2\nclick-cell tensor 3 5\n\nkey Escape\nreport r.json\n");
  ASSERT_TRUE(ok) << ok.error().message;
  ASSERT_EQ(ok->size(), 4u);
  EXPECT_EQ((*ok)[1].op, "click-cell");
  EXPECT_EQ((*ok)[1].args[0], "tensor");
  EXPECT_EQ((*ok)[1].numbers, (std::vector<float>{3, 5}));
  EXPECT_EQ((*ok)[1].line, 3);
  struct Bad {
    const char* text;
    const char* message;
  } bad[] = {{"wait 1\njump 3", "script line 2: unknown command 'jump'"},
             {"click 1", "script line 1: 'click' takes 2 argument(s), got 1"},
             {"click 1 x", "script line 1: 'click': argument 2 'x' is not a number"},
             {"wait -3", "script line 1: 'wait': argument 1 (frames) '-3' must be a whole number "
                         "in [0, 1000]"}};
  for (const auto& b : bad) {
    auto r = parseScript(b.text);
    ASSERT_FALSE(r) << b.text;
    EXPECT_EQ(r.error().message.rfind(b.message, 0), 0u) << r.error().message;
  }
}

// Issue 31: one `wait 10000` ran for about 150 s and a script's length was bounded only by the
// 64 MiB file cap. Waits, commands and frames are refused up front, naming the line and the limit.
TEST(ExplorerScript, WaitsCommandsAndFramesAreBounded) {
  struct Bad {
    std::string text;
    std::string message;
  } bad[] = {
      {"wait 1\nwait 10000\n", "script line 2: 'wait': argument 1 (frames) '10000' must be a whole "
                               "number in [0, 1000] (the limit of one wait; the frames of the "
                               "whole script are bounded by LAYOUT_MAX_SCRIPT_FRAMES)"},
      {"wait 1001", "script line 1: 'wait': argument 1 (frames) '1001' must be a whole number in "
                    "[0, 1000]"},
      {"wait 2.5", "script line 1: 'wait': argument 1 (frames) '2.5' must be a whole number"},
      {"wait nan", "script line 1: 'wait': argument 1 (frames) 'nan' must be a whole number"},
      // 5 x 1000 frames: the fifth wait passes the 4096 frames of a script.
      {"wait 1000\nwait 1000\n# four\nwait 1000\nwait 1000\nwait 1000\n",
       "script line 6: the script spans more than 2^12 (4096) frames (its waits plus 1 to 8 frames "
       "per command), the limit of one script (raise it with LAYOUT_MAX_SCRIPT_FRAMES)"},
  };
  for (const auto& b : bad) {
    auto r = parseScript(b.text);
    ASSERT_FALSE(r) << b.text;
    EXPECT_EQ(r.error().message.rfind(b.message, 0), 0u) << r.error().message;
  }
  // Commands of no frames still count: 4097 of them are one too many.
  std::string many;
  for (int i = 0; i < 4097; ++i) many += "wait 0\n";
  auto r = parseScript(many);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "script line 4097: the script has more than 4096 commands, the "
                               "limit of one script (fixed; split it into several runs)");
  // At the limits, and blank lines and comments are free.
  std::string atLimit(100000, '\n');
  for (int i = 0; i < 4; ++i) atLimit += "# a comment\nwait 1000\n";
  for (int i = 0; i < 24; ++i) atLimit += "key F\n"; // 3 frames each: 4072 frames so far
  atLimit += "click-cell tensor 3 5\ndrag 10 10 20 20\nhover-cell tensor 0 0\nwait 10\n";
  auto ok = parseScript(atLimit);
  ASSERT_TRUE(ok) << ok.error().message;
  uint64_t frames = 0;
  for (const auto& c : *ok) frames += uint64_t(scriptCommandFrames(c));
  EXPECT_EQ(frames, 4096u);
  EXPECT_EQ(ok->back().line, 100000 + 8 + 24 + 4);
  auto past = parseScript(atLimit + "view hw\n");
  ASSERT_FALSE(past);
  EXPECT_EQ(past.error().message.rfind("script line 100037: the script spans more than", 0), 0u)
      << past.error().message;
  // LAYOUT_MAX_SCRIPT_FRAMES sets the frames of a script.
  ScriptLimits raised;
  raised.maxFrames = 5000;
  EXPECT_TRUE(parseScript("wait 1000\nwait 1000\nwait 1000\nwait 1000\nwait 1000\n", raised));
  ScriptLimits lowered;
  lowered.maxFrames = 10;
  auto low = parseScript("wait 5\nclick 3 4\nclick 5 6\n", lowered);
  ASSERT_FALSE(low);
  EXPECT_EQ(low.error().message.rfind("script line 3: the script spans more than 10 frames", 0), 0u)
      << low.error().message;
}

// Issue 31: `click nan nan` was accepted (and reached the canvas's arithmetic as the mouse
// position). Window coordinates are finite and inside the window; cells are whole numbers.
TEST(ExplorerScript, CoordinatesAreFiniteAndInsideTheWindow) {
  struct Bad {
    const char* text;
    const char* message;
  } bad[] = {
      {"wait 1\nclick nan nan", "script line 2: 'click': argument 1 (x) 'nan' must be a number in "
                                "[0, 1400): window pixels inside the 1400x900 window (--size)"},
      {"wait 1\nclick 10 inf", "script line 2: 'click': argument 2 (y) 'inf' must be a number in "
                               "[0, 900): window pixels inside the 1400x900 window (--size)"},
      {"click -nan 3",
       "script line 1: 'click': argument 1 (x) '-nan' must be a number in [0, 1400)"},
      {"click 1400 10",
       "script line 1: 'click': argument 1 (x) '1400' must be a number in [0, 1400)"},
      {"click 10 -1", "script line 1: 'click': argument 2 (y) '-1' must be a number in [0, 900)"},
      {"move 1e30 5", "script line 1: 'move': argument 1 (x) '1e30' must be a number in [0, 1400)"},
      {"drag 0 0 10 nan",
       "script line 1: 'drag': argument 4 (y) 'nan' must be a number in [0, 900)"},
      {"scroll nan 3 1", "script line 1: 'scroll': argument 1 (x) 'nan' must be a number"},
      {"scroll 3 3 nan", "script line 1: 'scroll': argument 3 (wheel steps) 'nan' must be a number "
                         "in [-100, 100]"},
      {"scroll 3 3 1e9", "script line 1: 'scroll': argument 3 (wheel steps) '1e9' must be a number "
                         "in [-100, 100]"},
      {"click-cell tensor nan 2", "script line 1: 'click-cell': argument 2 (row) 'nan' must be a "
                                  "whole number in [0, 4194303]"},
      {"hover-cell hw 1 -1", "script line 1: 'hover-cell': argument 3 (column) '-1' must be a "
                             "whole number in [0, 4194303]"},
      {"click-cell tensor 1.5 2", "script line 1: 'click-cell': argument 2 (row) '1.5' must be a "
                                  "whole number"},
      {"click-cell tensor 5000000 2", "script line 1: 'click-cell': argument 2 (row) '5000000' "
                                      "must be a whole number"},
  };
  for (const auto& b : bad) {
    auto r = parseScript(b.text);
    ASSERT_FALSE(r) << b.text;
    EXPECT_EQ(r.error().message.rfind(b.message, 0), 0u) << r.error().message;
  }
  EXPECT_TRUE(parseScript("click 0 0\nclick 1399.5 899.5\nmove 700 450\nscroll 5 5 -100\n"
                          "drag 1 1 1399 899\nclick-cell tensor 4194303 0\n"));
  // The window is --size's.
  ScriptLimits small;
  small.windowWidth = 320;
  small.windowHeight = 240;
  auto r = parseScript("click 300 200\nclick 400 200\n", small);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "script line 2: 'click': argument 1 (x) '400' must be a number in "
                               "[0, 320): window pixels inside the 320x240 window (--size)");
}

TEST(ExplorerRobustness, RandomInputsNeverThrow) {
  // Mutations of valid inputs: every result is a value or an error, never an exception.
  std::mt19937 rng(7);
  const std::string seeds[] = {
      kBlocked2Warps, "#xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1]>",
      R"({"inDims": [{"name": "lane", "bases": [[1]]}], "outDims": [{"name": "dim0", "size": 2}]})",
      "wait 2\nclick-cell tensor 3 5\nkey F\n"};
  const std::string alphabet = "[]{}<>=,:#0123456789xabc \n\"-";
  int64_t shape[] = {16, 16};
  for (int i = 0; i < 3000; ++i) {
    std::string s = seeds[size_t(i) % 4];
    int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      size_t pos = rng() % s.size();
      switch (rng() % 3) {
      case 0:
        s[pos] = alphabet[rng() % alphabet.size()];
        break;
      case 1:
        s.erase(pos, 1 + rng() % 3);
        break;
      default:
        s.insert(pos, 1, alphabet[rng() % alphabet.size()]);
      }
    }
    EXPECT_NO_THROW({
      auto in = parseLayoutInput(s, shape);
      if (in) {
        auto m = TensorMap::build(in->layout);
        if (m) (void)tensorScene(*m, {});
      }
      (void)parseScript(s);
      (void)parseShapeText(s);
    }) << s;
  }
}
