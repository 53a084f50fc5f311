#include "layout/views/views.h"

#include <algorithm>
#include <bit>
#include <map>

namespace layout::views {

using layout::Expected;
using layout::LinearLayout;
using layout::makeError;

namespace {

constexpr float kMargin = 16;
constexpr float kHeaderW = 44, kHeaderH = 18;
constexpr float kCharW = 8; // the explorer's 13 px monospaced font: 7.8 px per character
constexpr float kLineH = 15;

Rgba dim(Rgba c) {
  return {uint8_t(c.r / 4 + 191), uint8_t(c.g / 4 + 191), uint8_t(c.b / 4 + 191)};
}

float labelWidth(const std::vector<std::string>& labels) {
  size_t longest = 1;
  for (const auto& l : labels) {
    size_t line = 0;
    for (char c : l) {
      line = c == '\n' ? 0 : line + 1;
      longest = std::max(longest, line);
    }
  }
  return std::max(24.f, float(longest) * kCharW + 8);
}

int lines(const std::vector<std::string>& labels) {
  for (const auto& l : labels)
    if (l.find('\n') != std::string::npos) return 2;
  return 1;
}

// Swatches for the values of `colorBy`, above a grid; returns the height used.
float addLegend(Scene& s, float x, float y, const std::string& colorBy, int count) {
  s.legendTexts.push_back(
      {x, y, "colour: " + colorBy + " (" + std::to_string(count) + " values)", palette::kText, 13});
  y += kLineH + 4;
  const int perRow = 16;
  const float sw = 52;
  for (int i = 0; i < count && i < 64; ++i) {
    float sx = x + float(i % perRow) * sw, sy = y + float(i / perRow) * (kLineH + 4);
    s.legendRects.push_back(
        {sx, sy, 14, 14, palette::categorical(i, count), palette::kGridLine, 1});
    s.legendTexts.push_back({sx + 17, sy, std::to_string(i), palette::kText, 13});
  }
  int shown = std::min(count, 64);
  float h = kLineH + 4 + float((shown + perRow - 1) / perRow) * (kLineH + 4);
  if (count > 64) {
    s.legendTexts.push_back(
        {x, y + h - kLineH - 4, "... " + std::to_string(count - 64) + " more", palette::kText, 13});
    h += kLineH + 4;
  }
  return h + 8;
}

std::vector<std::string> rowHeaders(const TensorMap& m) {
  std::vector<std::string> h(m.rows());
  for (int r = 0; r < m.rows(); ++r) {
    auto c = m.coordinate(uint64_t(r) * m.cols());
    std::string t;
    for (size_t d = 0; d + 1 < c.size(); ++d) t += (d ? "," : "") + std::to_string(c[d]);
    h[r] = t.empty() ? "0" : t;
  }
  return h;
}

// A grid with one (empty) cell per tensor element; geometry is set by the caller.
CellGrid tensorShapedGrid(const char* id, const TensorMap& m) {
  CellGrid g;
  g.id = id;
  g.rows = m.rows();
  g.cols = m.cols();
  g.fill.resize(m.numElements());
  g.labels.resize(m.numElements());
  g.marks.assign(m.numElements(), kMarkNone);
  return g;
}

// Thick edges between cells whose (first) owners are in different warps or blocks, so warp tiles
// read at any zoom even though the labels carry only the thread id.
} // namespace

CtaTile ctaTile(const LinearLayout& ll, bool runsStayInThread) {
  // Triton orders a distributed layout's register bases within-thread first, then the tile
  // repetitions; a repetition basis has one non-zero component, larger than every lane, warp and
  // block component of its dim. The tile spans the other bases: per dim, twice the largest
  // component (or 1).
  CtaTile t;
  const int reg = ll.inDimIndex(layout::dims::reg());
  const int nOut = ll.numOutDims();
  const int lane = ll.inDimIndex(layout::dims::lane());
  std::vector<uint64_t> hardwareMax(size_t(nOut), 0), tileMax(size_t(nOut), 0),
      warpMax(size_t(nOut), 0);
  for (int d = 0; d < ll.numInDims(); ++d) {
    if (d == reg) continue;
    for (int b = 0; b < ll.inDimSizeLog2(d); ++b)
      for (int o = 0; o < nOut; ++o) {
        hardwareMax[size_t(o)] = std::max(hardwareMax[size_t(o)], ll.basis(d, b, o));
        if (d == lane) warpMax[size_t(o)] = std::max(warpMax[size_t(o)], ll.basis(d, b, o));
      }
  }
  tileMax = hardwareMax;
  // Per dim, the next value of its leading run of register bases (runsStayInThread).
  std::vector<uint64_t> run(size_t(nOut), 1);
  for (int b = 0; reg >= 0 && b < ll.inDimSizeLog2(reg); ++b) {
    int nonZero = 0, dim = -1;
    for (int o = 0; o < nOut; ++o)
      if (ll.basis(reg, b, o) != 0) ++nonZero, dim = o;
    const bool inRun = runsStayInThread && nonZero == 1 && hardwareMax[size_t(dim)] == 0 &&
                       ll.basis(reg, b, dim) == run[size_t(dim)];
    if (inRun) run[size_t(dim)] *= 2;
    if (nonZero == 1 && !inRun && ll.basis(reg, b, dim) > hardwareMax[size_t(dim)]) {
      t.repetitionMask |= uint64_t{1} << b;
    } else {
      for (int o = 0; o < nOut; ++o) {
        tileMax[size_t(o)] = std::max(tileMax[size_t(o)], ll.basis(reg, b, o));
        warpMax[size_t(o)] = std::max(warpMax[size_t(o)], ll.basis(reg, b, o));
      }
    }
  }
  auto extent = [](uint64_t largest) { return largest ? std::bit_floor(largest) * 2 : 1; };
  for (int o = 0; o < nOut; ++o) {
    t.extent.push_back(extent(tileMax[size_t(o)]));
    t.warpExtent.push_back(extent(warpMax[size_t(o)]));
  }
  return t;
}

namespace {

// Thick edges between cells whose (first) owners are in different warps, blocks or CTA tiles, so
// warp tiles and tile repetitions read at any zoom even though the labels carry only the thread.
void addGroupEdges(const TensorMap& m, CellGrid& g, bool intel) {
  if (!m.isDistributed()) return;
  const uint64_t tiles = ctaTile(m.layout(), intel).repetitionMask;
  const uint64_t last = m.numInputs() - 1;
  if (m.inValue(last, "warp") == 0 && m.inValue(last, "block") == 0 && tiles == 0)
    return; // one warp, one block, one tile: no group boundaries
  const uint64_t noOwner = ~uint64_t{0};
  std::vector<uint64_t> group(m.numElements(), noOwner);
  for (uint64_t c = 0; c < m.numElements(); ++c) {
    auto owners = m.owners(c);
    if (owners.empty()) continue;
    const uint64_t in = owners[0];
    group[c] = (m.inValue(in, "register") & tiles) << 40 | m.inValue(in, "block") << 24 |
               m.inValue(in, "warp");
  }
  g.edges.assign(m.numElements(), 0);
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.cols; ++c) {
      const size_t i = size_t(g.index(r, c));
      if (c + 1 < g.cols && group[i] != group[i + 1]) g.edges[i] |= kEdgeRight;
      if (r + 1 < g.rows && group[i] != group[i + size_t(g.cols)]) g.edges[i] |= kEdgeBottom;
    }
}

} // namespace

std::string defaultColorBy(const TensorMap& map) {
  if (map.inDimIndex("lane") >= 0) return "lane";
  if (map.layout().numInDims() > 0) return std::string(map.layout().inDimName(0).str());
  return "";
}

CellGrid tensorGrid(const TensorMap& map, const ViewOptions& opt, const std::string& id) {
  const int nColors = int(map.layout().inDimSize(DimName(opt.colorBy)));
  CellGrid g = tensorShapedGrid(id.c_str(), map);
  const uint64_t cells = map.numElements();
  for (uint64_t c = 0; c < cells; ++c) {
    auto owners = map.owners(c);
    if (owners.empty()) {
      g.fill[c] = palette::kUnowned;
      g.marks[c] = kMarkUnowned;
      continue;
    }
    g.fill[c] = palette::categorical(int(map.inValue(owners[0], opt.colorBy)), nColors);
    g.labels[c] = map.cellLabel(owners[0]);
    if (owners.size() > 1) {
      g.marks[c] |= kMarkBroadcast;
      g.labels[c] += " +" + std::to_string(owners.size() - 1);
    }
  }
  addGroupEdges(map, g, opt.intelTerms);
  if (map.isDistributed() && map.layout().numOutDims() <= 2) {
    const CtaTile tile = ctaTile(map.layout(), opt.intelTerms);
    const bool twoDims = map.layout().numOutDims() == 2;
    g.tileRows = twoDims ? int(tile.extent[0]) : 1;
    g.tileCols = int(tile.extent.back());
    g.warpTileRows = twoDims ? int(tile.warpExtent[0]) : 1;
    g.warpTileCols = int(tile.warpExtent.back());
  }
  g.cellW = opt.cellSize > 0 ? opt.cellSize : labelWidth(g.labels);
  g.cellH = opt.cellSize > 0 ? opt.cellSize : lines(g.labels) == 2 ? 34 : 20;
  g.rowHeaders = rowHeaders(map);
  g.colHeaders = indexHeaders(map.cols());
  return g;
}

Scene tensorScene(const TensorMap& map, const ViewOptions& opt) {
  Scene s;
  float y = kMargin;
  y += addLegend(s, kMargin, y, opt.colorBy, int(map.layout().inDimSize(DimName(opt.colorBy))));
  CellGrid g = tensorGrid(map, opt, "tensor");
  g.x = kMargin + kHeaderW;
  g.y = y + kHeaderH;
  s.grids.push_back(std::move(g));
  s.fitBounds(kMargin);
  markSelection(map, s, opt.selectedThread);
  return s;
}

Scene mmaOperandsScene(const MmaOperandMaps& maps, const ViewOptions& opt) {
  // The GEMM picture: A (M x K) on the left, B (K x N) above C (M x N), C below B and right of A,
  // so A's rows line up with C's rows and B's columns with C's columns. One cell size for all
  // three, so the rows and columns line up cell for cell.
  Scene s;
  const TensorMap& c = maps.c;
  float y = kMargin;
  y += addLegend(s, kMargin, y, opt.colorBy, int(c.layout().inDimSize(DimName(opt.colorBy))));
  std::vector<CellGrid> grids;
  grids.push_back(tensorGrid(maps.a, opt, "mma.A"));
  if (maps.b) grids.push_back(tensorGrid(*maps.b, opt, "mma.B"));
  grids.push_back(tensorGrid(c, opt, "mma.C"));
  float cellW = 0, cellH = 0;
  for (const CellGrid& g : grids)
    cellW = std::max(cellW, g.cellW), cellH = std::max(cellH, g.cellH);
  for (CellGrid& g : grids) g.cellW = cellW, g.cellH = cellH;
  CellGrid &a = grids.front(), &out = grids.back();
  const float titleH = kLineH + 4;
  // Without a B grid (wgmma reads B from shared memory) its note takes B's place: a line of its
  // own above C's title, not drawn over it.
  const float bHeight = maps.b               ? grids[1].height() + titleH + kHeaderH + 2 * kMargin
                        : maps.noteB.empty() ? 0
                                             : titleH + kMargin;
  a.x = kMargin + kHeaderW;
  a.y = y + bHeight + titleH + kHeaderH;
  const float right = a.x + a.width() + kHeaderW + 2 * kMargin;
  if (maps.b) {
    grids[1].x = right;
    grids[1].y = y + titleH + kHeaderH;
  }
  out.x = right;
  out.y = a.y;
  const std::string titles[] = {maps.titleA, maps.titleB, maps.titleC};
  for (size_t i = 0; i < grids.size(); ++i) {
    const std::string& title = grids[i].id == "mma.A"   ? titles[0]
                               : grids[i].id == "mma.B" ? titles[1]
                                                        : titles[2];
    s.texts.push_back(
        {grids[i].x - kHeaderW, grids[i].y - kHeaderH - titleH, title, palette::kText, 13});
  }
  if (!maps.b && !maps.noteB.empty())
    s.texts.push_back({right - kHeaderW, y, maps.noteB, palette::kText, 13});
  for (CellGrid& g : grids) s.grids.push_back(std::move(g));
  s.fitBounds(kMargin);
  return s;
}

Scene hardwareScene(const TensorMap& map, const ViewOptions& opt) {
  Scene s;
  const LinearLayout& ll = map.layout();
  int nColors = int(map.layout().inDimSize(DimName(opt.colorBy)));
  float y = kMargin;
  y += addLegend(s, kMargin, y, opt.colorBy, nColors);

  auto coordText = [&](uint64_t in) {
    auto c = map.coordinate(map.cellOf(in));
    std::string t = "(";
    for (size_t d = 0; d < c.size(); ++d) t += (d ? "," : "") + std::to_string(c[d]);
    return t + ")";
  };
  auto fillOf = [&](uint64_t in, CellGrid& g, uint64_t idx) {
    g.fill[idx] = palette::categorical(int(map.inValue(in, opt.colorBy)), nColors);
  };

  // Panels: one per (block, warp) for distributed layouts, else one over all inputs.
  struct Panel {
    std::string title;
    std::vector<uint64_t> base; // packed input of (row, col) = base + row * rowStep + col * colStep
  };
  int regs = 1, lanes = 1, warps = 1, blocks = 1;
  uint64_t regStep = 1, laneStep = 1, warpStep = 1, blockStep = 1;
  if (map.isDistributed()) {
    auto sizeAndStep = [&](const char* name, int* size, uint64_t* step) {
      int i = map.inDimIndex(name);
      if (i < 0) return;
      *size = int(ll.inDimSize(i));
      std::vector<uint64_t> v(ll.numInDims(), 0);
      v[i] = 1;
      *step = map.pack(v);
    };
    sizeAndStep("register", &regs, &regStep);
    sizeAndStep("lane", &lanes, &laneStep);
    sizeAndStep("warp", &warps, &warpStep);
    sizeAndStep("block", &blocks, &blockStep);
  } else {
    int bits = ll.totalInDimSizeLog2();
    lanes = 1 << std::min(bits, 5);
    regs = int(map.numInputs() / uint64_t(lanes));
    laneStep = 1;
    regStep = uint64_t(lanes);
  }
  float x = kMargin + kHeaderW;
  int panel = 0;
  for (int b = 0; b < blocks; ++b) {
    for (int w = 0; w < warps; ++w, ++panel) {
      CellGrid g;
      g.id = panel == 0 ? "hw" : "hw." + std::to_string(panel);
      g.rows = regs;
      g.cols = lanes;
      g.fill.resize(size_t(regs) * lanes);
      g.labels.resize(g.fill.size());
      g.marks.assign(g.fill.size(), kMarkNone);
      g.keys.resize(g.fill.size());
      uint64_t base = uint64_t(b) * blockStep + uint64_t(w) * warpStep;
      for (int r = 0; r < regs; ++r)
        for (int l = 0; l < lanes; ++l) {
          uint64_t in = base + uint64_t(r) * regStep + uint64_t(l) * laneStep;
          uint64_t idx = uint64_t(g.index(r, l));
          g.labels[idx] = coordText(in);
          g.keys[idx] = in;
          fillOf(in, g, idx);
        }
      g.cellW = labelWidth(g.labels);
      g.cellH = 20;
      std::string title =
          map.isDistributed()
              ? (blocks > 1 ? "block " + std::to_string(b) + ", " : "") +
                    (opt.intelTerms ? "subgroup " : "warp ") + std::to_string(w) +
                    ": rows = registers, columns = " + (opt.intelTerms ? "work-items" : "lanes")
              : "inputs (row-major, " + std::to_string(lanes) + " per row)";
      s.texts.push_back({kMargin, y, title, palette::kText, 13});
      g.x = x;
      g.y = y + kLineH + kHeaderH;
      g.rowHeaders = indexHeaders(regs);
      g.colHeaders = indexHeaders(lanes);
      if (!map.isDistributed())
        for (int r = 0; r < regs; ++r) g.rowHeaders[r] = std::to_string(uint64_t(r) * lanes);
      y = g.y + g.height() + 2 * kMargin;
      s.grids.push_back(std::move(g));
    }
  }
  s.fitBounds(kMargin);
  markSelection(map, s, opt.selectedThread);
  return s;
}

namespace {
// Back to the fills and marks before any selection (kept on the first call).
void clearSelection(CellGrid& g) {
  if (g.undimmedFill.empty()) g.undimmedFill = g.fill;
  g.fill = g.undimmedFill;
  for (uint8_t& m : g.marks) m &= uint8_t(~kMarkHighlight);
}
} // namespace

void markCells(CellGrid& g, std::span<const uint64_t> cells) {
  clearSelection(g);
  if (cells.empty()) return;
  std::vector<bool> chosen(g.fill.size(), false);
  for (uint64_t c : cells)
    if (c < chosen.size()) chosen[c] = true;
  for (size_t c = 0; c < g.fill.size(); ++c) {
    if (chosen[c])
      g.marks[c] |= kMarkHighlight;
    else
      g.fill[c] = dim(g.fill[c]);
  }
}

void markSelection(const TensorMap& map, Scene& scene, std::optional<uint64_t> thread) {
  for (CellGrid& g : scene.grids) {
    const bool tensor = g.id == "tensor", hw = g.id.rfind("hw", 0) == 0;
    if (!tensor && !hw) continue;
    clearSelection(g);
    if (!thread) continue;
    for (size_t c = 0; c < g.fill.size(); ++c) {
      bool mine = false;
      if (tensor) {
        for (uint64_t in : map.owners(c)) mine = mine || map.threadOf(in) == *thread;
      } else {
        mine = c < g.keys.size() && map.threadOf(g.keys[c]) == *thread;
      }
      if (mine)
        g.marks[c] |= kMarkHighlight;
      else
        g.fill[c] = dim(g.fill[c]);
    }
  }
}

Scene matrixScene(const LinearLayout& ll) {
  Scene s;
  CellGrid g;
  g.id = "matrix";
  g.rows = ll.totalOutDimSizeLog2();
  g.cols = ll.totalInDimSizeLog2();
  g.cellW = g.cellH = 20;
  g.fill.assign(size_t(g.rows) * g.cols, palette::kUnowned);
  g.labels.assign(g.fill.size(), "");
  g.marks.assign(g.fill.size(), kMarkNone);
  // Column c is input bit c (in-dim 0 first); row r is output bit r (out-dim 0 first).
  int col = 0;
  for (int i = 0; i < ll.numInDims(); ++i)
    for (int b = 0; b < ll.inDimSizeLog2(i); ++b, ++col) {
      std::string n(ll.inDimName(i).str());
      g.colHeaders.push_back(n.substr(0, 1) + std::to_string(b));
      int row = 0;
      for (int o = 0; o < ll.numOutDims(); ++o) {
        uint64_t v = ll.basis(i, b, o);
        for (int ob = 0; ob < ll.outDimSizeLog2(o); ++ob, ++row)
          if ((v >> ob) & 1) {
            g.fill[size_t(g.index(row, col))] = Rgba{40, 70, 140};
            g.labels[size_t(g.index(row, col))] = "1";
          }
      }
    }
  for (int o = 0; o < ll.numOutDims(); ++o)
    for (int ob = 0; ob < ll.outDimSizeLog2(o); ++ob)
      g.rowHeaders.push_back(std::string(ll.outDimName(o).str()) + "[" + std::to_string(ob) + "]");
  g.x = kMargin + 64;
  g.y = kMargin + 2 * kLineH + kHeaderH;
  s.texts.push_back({kMargin, kMargin,
                     "GF(2) matrix: rows = output bits, columns = input bits (filled = 1)",
                     palette::kText, 13});
  // Dim names over their column groups, and separators between groups.
  float x = g.x;
  for (int i = 0; i < ll.numInDims(); ++i) {
    if (ll.inDimSizeLog2(i) == 0) continue; // a size-1 dim has no bits, hence no columns
    float w = float(ll.inDimSizeLog2(i)) * g.cellW;
    s.texts.push_back(
        {x, kMargin + kLineH, std::string(ll.inDimName(i).str()), palette::kText, 13});
    x += w;
    if (x < g.x + g.width())
      s.lines.push_back({x, g.y - kHeaderH, x, g.y + g.height(), palette::kConflict, 2});
  }
  float y = g.y;
  for (int o = 0; o + 1 < ll.numOutDims(); ++o) {
    y += float(ll.outDimSizeLog2(o)) * g.cellH;
    if (ll.outDimSizeLog2(o) == 0 || y >= g.y + g.height()) continue;
    s.lines.push_back({g.x - 64, y, g.x + g.width(), y, palette::kConflict, 2});
  }
  s.grids.push_back(std::move(g));
  s.fitBounds(kMargin);
  return s;
}

Expected<Scene> diffScene(const TensorMap& a, const TensorMap& b, uint64_t* differing) {
  if (a.rows() != b.rows() || a.cols() != b.cols() ||
      a.layout().numOutDims() != b.layout().numOutDims())
    return makeError("diff: the two layouts cover different tensors (" + std::to_string(a.rows()) +
                     "x" + std::to_string(a.cols()) + " and " + std::to_string(b.rows()) + "x" +
                     std::to_string(b.cols()) + ")");
  Scene s;
  CellGrid g = tensorShapedGrid("diff", a);
  const uint64_t cells = a.numElements();
  auto ownerText = [](const TensorMap& m, uint64_t c) {
    std::vector<std::string> v;
    for (uint64_t in : m.owners(c)) v.push_back(m.label(in));
    std::sort(v.begin(), v.end());
    return v;
  };
  auto first = [](const std::vector<std::string>& v) {
    if (v.empty()) return std::string("-");
    return v[0] + (v.size() > 1 ? " +" + std::to_string(v.size() - 1) : "");
  };
  uint64_t n = 0;
  for (uint64_t c = 0; c < cells; ++c) {
    auto oa = ownerText(a, c), ob = ownerText(b, c);
    if (oa != ob) {
      ++n;
      g.marks[c] = kMarkConflict;
      g.fill[c] = Rgba{255, 200, 200};
      g.labels[c] = first(oa) + "\n" + first(ob);
    } else {
      g.fill[c] = palette::kDimmed;
      g.labels[c] = first(oa);
    }
  }
  if (differing) *differing = n;
  s.texts.push_back({kMargin, kMargin,
                     std::to_string(n) + " of " + std::to_string(cells) +
                         " elements differ (red: owners in A, then in B)",
                     palette::kText, 13});
  g.cellW = labelWidth(g.labels);
  g.cellH = lines(g.labels) == 2 ? 34 : 20;
  g.x = kMargin + kHeaderW;
  g.y = kMargin + kLineH + 8 + kHeaderH;
  g.rowHeaders = rowHeaders(a);
  g.colHeaders = indexHeaders(a.cols());
  s.grids.push_back(std::move(g));
  s.fitBounds(kMargin);
  return s;
}

int countMarked(const CellGrid& g, CellMark mark) {
  return int(std::count_if(g.marks.begin(), g.marks.end(), [&](uint8_t m) { return m & mark; }));
}

} // namespace layout::views
