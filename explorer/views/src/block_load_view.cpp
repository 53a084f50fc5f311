// The block-load tiling view (block_load_view.h): the plan's load rectangles over the operand
// and one work-item's shuffle mapping, with coordinates taken from the operand's linear layout.
#include "layout/views/block_load_view.h"

#include "block_load_common.h"

#include "layout/intel/block_io.h"
#include "layout/triton/encoding.h"

#include <algorithm>
#include <set>
#include <utility>

namespace layout::views {

namespace {

namespace intel = layout::intel;
namespace dims = layout::dims;
using detail::coordText;
using detail::loadName;
using detail::LoadSlot;
using detail::Rect;
using detail::subgroupList;

constexpr float kLeft = 56; // room for the row headers
constexpr float kTop = 100;
constexpr float kGap = 80;
constexpr int kLegendLoads = 16;

// Memory coordinates (row, col) of one register of the operand layout.
struct OperandCoords {
  const layout::LinearLayout& ll;
  int reg, lane, warp, d0, d1;
  bool transposed;

  std::pair<int64_t, int64_t> at(uint64_t r, uint64_t l, uint64_t w) const {
    std::vector<uint64_t> ins(size_t(ll.numInDims()), 0), outs(size_t(ll.numOutDims()), 0);
    ins[size_t(reg)] = r, ins[size_t(lane)] = l;
    if (warp >= 0) ins[size_t(warp)] = w;
    ll.apply(ins, outs);
    const int64_t a = int64_t(outs[size_t(d0)]), b = int64_t(outs[size_t(d1)]);
    return transposed ? std::pair{b, a} : std::pair{a, b};
  }
};

// What the drawing steps read: the plan, the operand's coordinates, the selection, and where
// the loads and the drawn part of the operand lie.
// Subgroups whose loads cover the same elements (the operand is broadcast across them, e.g. A
// across the warps along N) share one tile, drawn in one colour.
struct SubgroupTile {
  std::pair<int64_t, int64_t> origin;
  std::vector<int> subgroups;
  std::vector<Rect> rects; // each load's rectangle
};

struct ViewInputs {
  const intel::BlockLoadPlan& plan;
  const OperandCoords& coords;
  const BlockLoadViewOptions& opt;
  int elemBits, workItem;
  int64_t memRows, memCols;           // the operand in memory coordinates
  std::pair<int64_t, int64_t> origin; // the subgroup's origin (row, col)
  std::vector<Rect> rects;            // each load's rectangle
  Rect region;                        // the drawn part of the operand
  float cell;                         // the operand grid's cell size
  std::vector<SubgroupTile> tiles;    // every subgroup's (allSubgroups), else the selected one's
  size_t selectedTile = 0;            // the tile of opt.subgroup
};

// The work-item and subgroup must exist in the operand's layout.
layout::Expected<void> checkSelection(const OperandCoords& coords, int workItem, int subgroup) {
  const int lanes = int(coords.ll.inDimSize(coords.lane));
  const int warps = coords.warp >= 0 ? int(coords.ll.inDimSize(coords.warp)) : 1;
  if (workItem < 0 || workItem >= lanes)
    return layout::makeError("workItem: " + std::to_string(workItem) +
                             " is not a work-item of the subgroup (0.." +
                             std::to_string(lanes - 1) + ")");
  if (subgroup < 0 || subgroup >= warps)
    return layout::makeError("subgroup: " + std::to_string(subgroup) +
                             " is not a subgroup of the operand (0.." + std::to_string(warps - 1) +
                             ")");
  return {};
}

// The subgroup's origin: warp bits of the layout, XOR-combined like every linear layout input.
std::pair<int64_t, int64_t> subgroupOrigin(const layout::LinearLayout& sg, int subgroup) {
  int64_t sgR = 0, sgC = 0;
  for (int i = 0; sg.numInDims() > 0 && i < sg.inDimSizeLog2(0); ++i)
    if (subgroup >> i & 1) sgR ^= int64_t(sg.basis(0, i, 0)), sgC ^= int64_t(sg.basis(0, i, 1));
  return {sgR, sgC};
}

// Load rectangles: tileHeight rows by the load's row width counted in operand elements.
std::vector<Rect> loadRects(const intel::BlockLoadPlan& plan, std::pair<int64_t, int64_t> origin,
                            int elemBits) {
  std::vector<Rect> rects;
  for (const intel::BlockLoad& l : plan.loads)
    rects.push_back({origin.first ^ l.offset[0], origin.second ^ l.offset[1], l.tileHeight,
                     int64_t(l.tileWidth) * l.numBlocks * l.elemBits / elemBits});
  return rects;
}

// Every subgroup's tile (only the selected one's unless `all`), in subgroup order.
std::vector<SubgroupTile> subgroupTiles(const intel::BlockLoadPlan& plan, int selected, bool all,
                                        int elemBits, size_t* selectedTile) {
  const layout::LinearLayout& sg = plan.subgroupOffset;
  const int count = sg.numInDims() > 0 ? int(sg.inDimSize(0)) : 1;
  std::vector<SubgroupTile> tiles;
  for (int s = 0; s < count; ++s) {
    if (!all && s != selected) continue;
    const auto origin = subgroupOrigin(sg, s);
    auto it = std::find_if(tiles.begin(), tiles.end(),
                           [&](const SubgroupTile& t) { return t.origin == origin; });
    if (it == tiles.end()) {
      tiles.push_back({origin, {}, loadRects(plan, origin, elemBits)});
      it = tiles.end() - 1;
    }
    it->subgroups.push_back(s);
    if (s == selected) *selectedTile = size_t(it - tiles.begin());
  }
  return tiles;
}

// The drawn region: the whole operand, or the subgroup's loads when it is too large.
layout::Expected<Rect> drawnRegion(const std::vector<Rect>& rects, int64_t memRows, int64_t memCols,
                                   const BlockLoadViewOptions& opt) {
  int64_t gr0 = 0, gc0 = 0, gRows = memRows, gCols = memCols;
  if (memRows * memCols > opt.maxCells) {
    gr0 = memRows, gc0 = memCols;
    int64_t r1 = 0, c1 = 0;
    for (const Rect& r : rects) {
      gr0 = std::min(gr0, r.r0), gc0 = std::min(gc0, r.c0);
      r1 = std::max(r1, std::min(memRows, r.r0 + r.rows));
      c1 = std::max(c1, std::min(memCols, r.c0 + r.cols));
    }
    gRows = std::max<int64_t>(0, r1 - gr0), gCols = std::max<int64_t>(0, c1 - gc0);
    if (gRows * gCols > opt.maxCells)
      return layout::makeError("shape: subgroup " + std::to_string(opt.subgroup) +
                               "'s loads span " + std::to_string(gRows) + "x" +
                               std::to_string(gCols) + " elements; the view draws at most " +
                               std::to_string(opt.maxCells));
  }
  return Rect{gr0, gc0, gRows, gCols};
}

// The operand grid over the drawn region: every cell dimmed, headed by its memory coordinates.
CellGrid operandGrid(const ViewInputs& v) {
  const Rect& region = v.region;
  CellGrid g;
  g.id = "operand";
  g.x = kLeft, g.y = kTop, g.cellW = g.cellH = v.cell;
  g.rows = int(region.rows), g.cols = int(region.cols);
  g.fill.assign(size_t(region.rows * region.cols), palette::kDimmed);
  g.marks.assign(g.fill.size(), kMarkNone);
  for (int64_t r = 0; r < region.rows; ++r) g.rowHeaders.push_back(std::to_string(region.r0 + r));
  for (int64_t c = 0; c < region.cols; ++c) g.colHeaders.push_back(std::to_string(region.c0 + c));
  return g;
}

// Which tile and load brings each drawn cell: {tile, load}, {-1, -1} for none.
using Cover = std::vector<std::pair<int, int>>;

// Fills each load's cells in its colour (with allSubgroups: its subgroup tile's), outlines it and
// labels it with its block shape (the other tiles' loads with their subgroups). The selected
// tile goes last so that its outlines lie over its neighbours'.
Cover drawLoads(const ViewInputs& v, CellGrid& g, Scene& s) {
  const Rect& region = v.region;
  const bool all = v.opt.allSubgroups;
  const int numTiles = int(v.tiles.size());
  Cover cover(g.fill.size(), {-1, -1});
  for (size_t t = 0; t < v.tiles.size(); ++t) {
    const SubgroupTile& tile = v.tiles[t];
    for (size_t j = 0; j < tile.rects.size(); ++j) {
      const Rect& rc = tile.rects[j];
      const Rgba colour = all ? palette::categorical(int(t), numTiles)
                              : palette::categorical(int(j), v.plan.numLoads);
      for (int64_t r = std::max(rc.r0, region.r0);
           r < std::min(rc.r0 + rc.rows, region.r0 + region.rows); ++r)
        for (int64_t c = std::max(rc.c0, region.c0);
             c < std::min(rc.c0 + rc.cols, region.c0 + region.cols); ++c) {
          const size_t i = size_t(g.index(int(r - region.r0), int(c - region.c0)));
          if (cover[i].first >= 0) continue; // a partly overlapping tile drawn before
          g.fill[i] = colour;
          cover[i] = {int(t), int(j)};
        }
    }
  }
  auto outline = [&](size_t t, bool selected) {
    const SubgroupTile& tile = v.tiles[t];
    for (size_t j = 0; j < tile.rects.size(); ++j) {
      const Rect& rc = tile.rects[j];
      const bool seen = rc.r0 < region.r0 + region.rows && rc.r0 + rc.rows > region.r0 &&
                        rc.c0 < region.c0 + region.cols && rc.c0 + rc.cols > region.c0;
      if (!selected && !seen) continue;
      detail::outlineLoad(s, g.x + float(rc.c0 - region.c0) * v.cell,
                          g.y + float(rc.r0 - region.r0) * v.cell, rc, v.cell, selected, j,
                          loadName(v.plan.loads[j]), all && j == 0 ? &tile.subgroups : nullptr);
    }
  };
  for (size_t t = 0; t < v.tiles.size(); ++t)
    if (t != v.selectedTile) outline(t, false);
  outline(v.selectedTile, true);
  return cover;
}

// The inspector's text of every drawn cell: the load and subgroups that bring it, the work-item
// and register of the load's result that receive it, and its byte in the load's GRF image.
void addDetails(const ViewInputs& v, const intel::BlockIoTarget& target, const Cover& cover,
                CellGrid& g) {
  std::vector<std::vector<LoadSlot>> slots;
  for (size_t j = 0; j < v.plan.loads.size(); ++j)
    slots.push_back(detail::loadSlots(target, v.plan.loads[j], v.rects[j].rows, v.rects[j].cols,
                                      v.elemBits, v.plan.operandRegisterBits));
  const std::string unit = std::to_string(v.plan.operandRegisterBits) + "-bit registers";
  g.details.assign(g.fill.size(), "");
  for (int row = 0; row < g.rows; ++row)
    for (int col = 0; col < g.cols; ++col) {
      const size_t i = size_t(g.index(row, col));
      const int64_t r = v.region.r0 + row, c = v.region.c0 + col;
      std::string& d = g.details[i];
      d = "element " + coordText(r, c) + ": ";
      const auto [t, j] = cover[i];
      if (t < 0) {
        d += v.opt.allSubgroups ? "no subgroup loads it"
                                : "not loaded by subgroup " + std::to_string(v.opt.subgroup);
        continue;
      }
      const SubgroupTile& tile = v.tiles[size_t(t)];
      const Rect& rc = tile.rects[size_t(j)];
      const std::string load = "L" + std::to_string(j);
      d += "load " + load + " (" + loadName(v.plan.loads[size_t(j)]) + ") of " +
           subgroupList(tile.subgroups);
      const auto& mine = slots[size_t(j)];
      const size_t k = size_t((r - rc.r0) * rc.cols + (c - rc.c0));
      if (k < mine.size()) d += detail::slotText(mine[k], load, unit, target.grfBytes);
    }
}

// The work-item's elements: every register of its lane in the selected subgroup. Highlights the
// drawn ones and returns how many distinct elements it holds.
int markWorkItemElements(const ViewInputs& v, CellGrid& g) {
  std::set<std::pair<int64_t, int64_t>> held;
  for (uint64_t r = 0; r < v.coords.ll.inDimSize(v.coords.reg); ++r)
    held.insert(v.coords.at(r, uint64_t(v.workItem), uint64_t(v.opt.subgroup)));
  for (auto [r, c] : held)
    if (v.region.contains(r, c))
      g.marks[size_t(g.index(int(r - v.region.r0), int(c - v.region.c0)))] |= kMarkHighlight;
  return int(held.size());
}

// The work-item's shuffles (lane-independent ones and its own), in DPAS order.
std::vector<const intel::Shuffle*> workItemShuffles(const intel::BlockLoadPlan& plan,
                                                    int workItem) {
  std::vector<const intel::Shuffle*> mine;
  for (const intel::Shuffle& sh : plan.shuffles)
    if (!sh.lane || *sh.lane == workItem) mine.push_back(&sh);
  std::stable_sort(mine.begin(), mine.end(),
                   [](const auto* a, const auto* b) { return a->dpas < b->dpas; });
  return mine;
}

// Work-item grid at x: one row per DPAS, one cell per operand register, labelled with the load
// and register it comes from and the memory coordinate of its first element.
CellGrid workItemGrid(const ViewInputs& v, const std::vector<const intel::Shuffle*>& mine,
                      float x) {
  size_t units = 0;
  for (const auto* sh : mine) units = std::max(units, sh->registers.size());
  const int64_t perUnit = std::max(1, v.plan.operandRegisterBits / v.elemBits);
  CellGrid w;
  w.id = "workitem";
  w.rows = int(mine.size()), w.cols = int(units);
  w.fill.assign(size_t(w.rows) * units, palette::kUnowned);
  w.labels.assign(w.fill.size(), "");
  w.marks.assign(w.fill.size(), kMarkNone);
  size_t longest = 4;
  for (int i = 0; i < w.rows; ++i) {
    const intel::Shuffle& sh = *mine[size_t(i)];
    const int64_t instrElems = int64_t(sh.registers.size()) * perUnit;
    for (size_t u = 0; u < sh.registers.size(); ++u) {
      // Operand register u of instruction `dpas` starts at layout register dpas * instrElems +
      // u * perUnit (Triton's register order; see block_load_plan.h).
      auto [r, c] = v.coords.at(uint64_t(sh.dpas * instrElems + int64_t(u) * perUnit),
                                uint64_t(v.workItem), uint64_t(v.opt.subgroup));
      std::string top = "L" + std::to_string(sh.load) + " r" + std::to_string(sh.registers[u]);
      std::string bottom = "(" + std::to_string(r) + "," + std::to_string(c) + ")";
      longest = std::max({longest, top.size(), bottom.size()});
      const size_t k = size_t(w.index(i, int(u)));
      w.labels[k] = top + "\n" + bottom;
      w.fill[k] = v.opt.allSubgroups
                      ? palette::categorical(int(v.selectedTile), int(v.tiles.size()))
                      : palette::categorical(sh.load, v.plan.numLoads);
    }
    w.rowHeaders.push_back("dpas " + std::to_string(sh.dpas));
  }
  for (size_t u = 0; u < units; ++u) w.colHeaders.push_back("reg " + std::to_string(u));
  w.cellW = std::max(24.f, 7.f * float(longest) + 8), w.cellH = 34;
  w.x = x, w.y = kTop;
  return w;
}

// The view's title, the operand grid's caption and the work-item grid's caption (at x).
void addTitles(const ViewInputs& v, const BlockLoadViewResult& res, const std::string& targetName,
               float x, Scene& s) {
  const intel::BlockLoadPlan& plan = v.plan;
  s.texts.push_back(
      {kLeft, 12,
       std::to_string(plan.numLoads) + (plan.numLoads == 1 ? " block load" : " block loads") +
           " per subgroup on " + targetName + ", " + std::to_string(v.elemBits) +
           "-bit elements; " +
           (v.opt.allSubgroups
                ? std::to_string(res.numSubgroups) + " subgroups in " +
                      std::to_string(res.numSubgroupTiles) + " tiles; selected: subgroup "
                : std::string("subgroup ")) +
           std::to_string(v.opt.subgroup) + " at " + coordText(v.origin.first, v.origin.second),
       palette::kText, 15});
  s.texts.push_back(
      {kLeft, 36,
       std::string("operand in memory coordinates (row, col") +
           (v.opt.transposedInMemory ? ", transposed: tensor dims swapped" : "") +
           (v.opt.allSubgroups ? "); colour: subgroup tile; blue outlines: subgroup " +
                                     std::to_string(v.opt.subgroup) + "'s loads"
                               : std::string(")")) +
           "; black outline: work-item " + std::to_string(v.workItem) + "'s " +
           std::to_string(res.workItemElements) + " elements",
       palette::kText, 13});
  s.texts.push_back({x, 60,
                     "work-item " + std::to_string(v.workItem) + ": " +
                         std::to_string(res.workItemRegisters) + " " +
                         std::to_string(plan.operandRegisterBits) +
                         "-bit DPAS registers (L<load> r<register of its result>, first element)",
                     palette::kText, 13});
}

// The legend from (lx, ly) down: a swatch, shape and origin per load (the first kLegendLoads),
// then how many more there are. With allSubgroups the swatches are the subgroup tiles, and the
// loads are listed by the name the work-item grid uses (L<load>).
void addLegend(const ViewInputs& v, float lx, float ly, Scene& s) {
  const intel::BlockLoadPlan& plan = v.plan;
  if (v.opt.allSubgroups) {
    const int numTiles = int(v.tiles.size());
    for (int t = 0; t < numTiles && t < kLegendLoads; ++t, ly += 22) {
      const SubgroupTile& tile = v.tiles[size_t(t)];
      s.rects.push_back({lx, ly, 18, 18, palette::categorical(t, numTiles), palette::kBoundary, 1});
      s.texts.push_back({lx + 24, ly + 2,
                         subgroupList(tile.subgroups) + ": tile at " +
                             coordText(tile.origin.first, tile.origin.second) +
                             (tile.subgroups.size() > 1 ? " (the same elements: broadcast)" : ""),
                         palette::kText, 12});
    }
    if (numTiles > kLegendLoads) {
      s.texts.push_back({lx, ly, "... " + std::to_string(numTiles - kLegendLoads) + " more tiles",
                         palette::kText, 12});
      ly += 22;
    }
    ly += 8;
    for (int j = 0; j < plan.numLoads && j < kLegendLoads; ++j, ly += 20)
      s.texts.push_back(
          {lx, ly,
           "L" + std::to_string(j) + " = load " + std::to_string(j) + ": " +
               loadName(plan.loads[size_t(j)]) + " at " +
               coordText(plan.loads[size_t(j)].offset[0], plan.loads[size_t(j)].offset[1]) +
               " of each subgroup's tile",
           palette::kText, 12});
    if (plan.numLoads > kLegendLoads)
      s.texts.push_back({lx, ly,
                         "... " + std::to_string(plan.numLoads - kLegendLoads) + " more loads",
                         palette::kText, 12});
    return;
  }
  for (int j = 0; j < plan.numLoads && j < kLegendLoads; ++j, ly += 22) {
    const intel::BlockLoad& l = plan.loads[size_t(j)];
    s.rects.push_back(
        {lx, ly, 18, 18, palette::categorical(j, plan.numLoads), palette::kOutline, 1});
    s.texts.push_back({lx + 24, ly + 2,
                       "load " + std::to_string(j) + ": " +
                           intel::blockShapeName({l.elemBits, l.tileWidth, l.tileHeight,
                                                  l.numBlocks, l.transpose, l.vnni}) +
                           " at " + coordText(v.rects[size_t(j)].r0, v.rects[size_t(j)].c0),
                       palette::kText, 12});
  }
  if (plan.numLoads > kLegendLoads)
    s.texts.push_back({lx, ly,
                       "... " + std::to_string(plan.numLoads - kLegendLoads) + " more loads",
                       palette::kText, 12});
}

// Says below the operand grid (at y) when it shows only the subgroup's loads.
void noteCropping(const ViewInputs& v, float y, Scene& s) {
  if (v.region.rows != v.memRows || v.region.cols != v.memCols)
    s.texts.push_back({kLeft, y,
                       "cropped to subgroup " + std::to_string(v.opt.subgroup) + "'s loads (the " +
                           std::to_string(v.memRows) + "x" + std::to_string(v.memCols) +
                           " operand exceeds the view's cell limit)",
                       palette::kText, 12});
}

} // namespace

layout::Expected<BlockLoadViewResult> blockLoadView(std::string_view operandText,
                                                    std::span<const int64_t> shape, int elemBits,
                                                    int workItem, const BlockLoadViewOptions& opt) {
  auto target = intel::blockIoTarget(opt.target);
  if (!target) return layout::withContext(target.error(), "target");
  auto enc = layout::triton::parseEncoding(operandText);
  if (!enc) return layout::withContext(enc.error(), "encoding");
  LAYOUT_TRY_ASSIGN(plan,
                    intel::planBlockLoads(*enc, shape, elemBits, opt.transposedInMemory, *target));
  // The planner accepted a rank-2 dot_op, so the layout has register / lane -> dim0, dim1.
  LAYOUT_TRY_ASSIGN(ll, layout::triton::toLinearLayout(*enc, shape));
  const OperandCoords coords{ll,
                             ll.inDimIndex(dims::reg()),
                             ll.inDimIndex(dims::lane()),
                             ll.inDimIndex(dims::warp()),
                             ll.outDimIndex(dims::standardOut(0)),
                             ll.outDimIndex(dims::standardOut(1)),
                             opt.transposedInMemory};
  LAYOUT_TRY(checkSelection(coords, workItem, opt.subgroup));
  const int64_t memRows = opt.transposedInMemory ? shape[1] : shape[0];
  const int64_t memCols = opt.transposedInMemory ? shape[0] : shape[1];
  const std::pair<int64_t, int64_t> origin = subgroupOrigin(plan.subgroupOffset, opt.subgroup);
  std::vector<Rect> rects = loadRects(plan, origin, elemBits);
  LAYOUT_TRY_ASSIGN(region, drawnRegion(rects, memRows, memCols, opt));
  size_t selectedTile = 0;
  std::vector<SubgroupTile> tiles =
      subgroupTiles(plan, opt.subgroup, opt.allSubgroups, elemBits, &selectedTile);
  const ViewInputs v{.plan = plan,
                     .coords = coords,
                     .opt = opt,
                     .elemBits = elemBits,
                     .workItem = workItem,
                     .memRows = memRows,
                     .memCols = memCols,
                     .origin = origin,
                     .rects = std::move(rects),
                     .region = region,
                     .cell = opt.cellSize > 0 ? opt.cellSize : 16,
                     .tiles = std::move(tiles),
                     .selectedTile = selectedTile};

  BlockLoadViewResult res;
  res.numLoads = plan.numLoads;
  res.gridRow0 = region.r0, res.gridCol0 = region.c0;
  res.numSubgroups =
      plan.subgroupOffset.numInDims() > 0 ? int(plan.subgroupOffset.inDimSize(0)) : 1;
  res.numSubgroupTiles = int(v.tiles.size());
  Scene& s = res.scene;
  CellGrid g = operandGrid(v);
  const Cover cover = drawLoads(v, g, s);
  res.unloadedCells = std::count_if(cover.begin(), cover.end(),
                                    [](const std::pair<int, int>& c) { return c.first < 0; });
  addDetails(v, *target, cover, g);
  res.workItemElements = markWorkItemElements(v, g);
  const float operandRight = g.x + g.width(), operandBottom = g.y + g.height();
  s.grids.push_back(std::move(g));

  // Work-item grid: its shuffles (lane-independent ones and its own), one row per DPAS.
  const std::vector<const intel::Shuffle*> mine = workItemShuffles(plan, workItem);
  res.workItemRegisters = 0;
  for (const auto* sh : mine) res.workItemRegisters += int(sh->registers.size());
  const float rightColumn = operandRight + kGap + 24;
  CellGrid w = workItemGrid(v, mine, rightColumn);
  const float wiBottom = w.y + w.height();
  s.grids.push_back(std::move(w));

  addTitles(v, res, target->name, rightColumn, s);
  addLegend(v, rightColumn, std::max(wiBottom, 0.f) + 24, s);
  noteCropping(v, operandBottom + 8, s);
  s.fitBounds();
  res.plan = std::move(plan);
  return res;
}

} // namespace layout::views
