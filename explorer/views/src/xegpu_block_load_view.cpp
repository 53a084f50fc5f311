// The block loads of an XeGPU load_nd (xegpu_block_load_view.h): the subgroups' tiles from the
// layout's distribution, cut into blocks; where each element lands from the reference executors.
#include "layout/views/xegpu_block_load_view.h"

#include "block_load_common.h"

#include "layout/intel/block_io.h"
#include "layout/xegpu/xegpu_layout.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace layout::views {

namespace {

namespace intel = layout::intel;
namespace xegpu = layout::xegpu;
using detail::coordText;
using detail::LoadSlot;
using detail::Rect;
using detail::subgroupList;

constexpr float kLeft = 56; // room for the row headers
constexpr float kTop = 120;
constexpr float kGap = 80;
constexpr int kLegendEntries = 16;
// Subgroups drawn (sg_layout [64, 64]), and subgroup tiles listed over all of them.
constexpr int64_t kMaxSubgroups = 4096;
constexpr int64_t kMaxTiles = int64_t{1} << 20;

std::string listText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// A rank-1 size list as one row of a 2D one.
std::vector<int64_t> shapeAsRows(std::vector<int64_t> v) {
  if (v.size() == 1) v.insert(v.begin(), 1);
  return v;
}

// One set of subgroups that own the same tiles (the data is broadcast across them).
struct Tile {
  std::vector<std::vector<int64_t>> offsets; // [row, col] of each sg_data tile
  std::vector<int> subgroups;
  std::vector<Rect> rects; // each load's rectangle, in load order
};

// What the drawing steps read.
struct Inputs {
  Inputs(const XegpuBlockLoadOptions& o, const intel::BlockIoTarget& t) : opt(o), target(t) {}
  const XegpuBlockLoadOptions& opt;
  const intel::BlockIoTarget& target;
  int elemBits = 0, workItem = 0, regBits = 0;
  int64_t memRows = 0, memCols = 0, descCols = 0; // descCols: one array block's width
  intel::BlockLoad load;                          // the load's shape (offset unused)
  std::string loadName;
  std::vector<Tile> tiles;
  size_t selectedTile = 0;
  std::vector<LoadSlot> slots; // of one load's rectangle, row-major (the same for every load)
  float cell = 16;
};

// The load rectangles of a subgroup owning `offsets`: each sg_data tile cut into blocks,
// row-major, N blocks side by side per load.
std::vector<Rect> loadRects(const std::vector<std::vector<int64_t>>& offsets,
                            const std::vector<int64_t>& data, const std::vector<int64_t>& block,
                            int arrayLength) {
  std::vector<Rect> rects;
  for (const auto& o : offsets)
    for (int64_t i = 0; i < data[0] / block[0]; ++i)
      for (int64_t j = 0; j < data[1] / block[1]; ++j)
        rects.push_back(
            {o[0] + i * block[0], o[1] + j * block[1], block[0], block[1] * arrayLength});
  return rects;
}

// Fills each load's cells in its tile's colour, outlines every load (the selected subgroup's in
// kOutline with "<load>: <shape>", the others in kBoundary, each tile's first load naming its
// subgroups), and returns which {tile, load} covers each cell ({-1, -1}: none).
std::vector<std::pair<int, int>> drawLoads(const Inputs& v, CellGrid& g, Scene& s) {
  std::vector<std::pair<int, int>> cover(g.fill.size(), {-1, -1});
  const int numTiles = int(v.tiles.size());
  for (int t = 0; t < numTiles; ++t) {
    const Rgba fill = palette::categorical(t, numTiles);
    const auto& rects = v.tiles[size_t(t)].rects;
    for (size_t j = 0; j < rects.size(); ++j)
      for (int64_t r = rects[j].r0; r < rects[j].r0 + rects[j].rows && r < v.memRows; ++r)
        for (int64_t c = rects[j].c0; c < rects[j].c0 + rects[j].cols && c < v.memCols; ++c) {
          const size_t i = size_t(g.index(int(r), int(c)));
          g.fill[i] = fill;
          cover[i] = {t, int(j)};
        }
  }
  auto outline = [&](size_t t, bool selected) {
    const Tile& tile = v.tiles[t];
    for (size_t j = 0; j < tile.rects.size(); ++j) {
      const Rect& rc = tile.rects[j];
      detail::outlineLoad(s, g.x + float(rc.c0) * v.cell, g.y + float(rc.r0) * v.cell, rc, v.cell,
                          selected, j, v.loadName, j == 0 ? &tile.subgroups : nullptr);
    }
  };
  for (size_t t = 0; t < v.tiles.size(); ++t)
    if (t != v.selectedTile) outline(t, false);
  outline(v.selectedTile, true);
  return cover;
}

// The inspector's text of every cell: the element, the load and subgroups that bring it, the
// work-item and register of the load's result that receive it, and its GRF byte.
void addDetails(const Inputs& v, const std::vector<std::pair<int, int>>& cover, CellGrid& g) {
  const std::string unit = std::to_string(v.regBits) + "-bit registers";
  g.details.assign(g.fill.size(), "");
  for (int64_t r = 0; r < v.memRows; ++r)
    for (int64_t c = 0; c < v.memCols; ++c) {
      const size_t i = size_t(g.index(int(r), int(c)));
      std::string& d = g.details[i];
      d = "element " + coordText(r, c);
      if (v.load.numBlocks > 1)
        d += " (array block " + std::to_string(c / v.descCols) + ", descriptor element " +
             coordText(r, c % v.descCols) + ")";
      const auto [t, j] = cover[i];
      if (t < 0) {
        d += ": no subgroup loads it";
        continue;
      }
      const Tile& tile = v.tiles[size_t(t)];
      const Rect& rc = tile.rects[size_t(j)];
      const std::string load = "L" + std::to_string(j);
      d += ": load " + load + " (" + v.loadName + ") of " + subgroupList(tile.subgroups);
      const size_t k = size_t((r - rc.r0) * rc.cols + (c - rc.c0));
      if (k < v.slots.size()) d += detail::slotText(v.slots[k], load, unit, v.target.grfBytes);
    }
}

// The work-item's elements, in memory coordinates: the layout's lane distribution when it has a
// lane_layout (and the distribution answers), else what the selected subgroup's loads give it.
// `why` says which one was used when it is the loads'.
std::set<std::pair<int64_t, int64_t>> workItemElements(const Inputs& v, const xegpu::XeLayout& l,
                                                       std::span<const int64_t> shape,
                                                       std::string* why) {
  std::set<std::pair<int64_t, int64_t>> held;
  if (!l.laneLayout.empty()) {
    std::vector<int64_t> full(shape.begin(), shape.end());
    const int n = v.load.numBlocks;
    // The array blocks are a leading dim the layout keeps whole (laneCoords' rule 4).
    if (n > 1) full.insert(full.begin(), n);
    auto coords = xegpu::laneCoords(l, full, v.workItem,
                                    l.isForWorkgroup() ? std::optional<int64_t>(v.opt.subgroup)
                                                       : std::nullopt);
    if (coords) {
      for (const auto& x : *coords) {
        const int64_t a = n > 1 ? x.front() : 0;
        const int64_t r = shape.size() == 2 ? x[x.size() - 2] : 0;
        held.insert({r, a * v.descCols + x.back()});
      }
      return held;
    }
    *why = "the layout's lanes do not distribute this shape (" + coords.error().message +
           "): highlighted are the elements the loads give work-item " + std::to_string(v.workItem);
  } else {
    *why = "the layout has no lane_layout: highlighted are the elements the loads give "
           "work-item " +
           std::to_string(v.workItem);
  }
  for (const Rect& rc : v.tiles[v.selectedTile].rects)
    for (size_t k = 0; k < v.slots.size(); ++k)
      if (v.slots[k].workItem == v.workItem)
        held.insert({rc.r0 + int64_t(k) / rc.cols, rc.c0 + int64_t(k) % rc.cols});
  return held;
}

// Work-item grid at x: one row per load of the selected subgroup, one cell per register of the
// work-item's result, labelled with the memory element it holds (the lowest bits' element when
// a register packs several). Returns the registers that hold an element, all loads.
int workItemGrid(const Inputs& v, float x, CellGrid& w) {
  // Register k's element inside one load's rectangle: the slot at bit k * regBits.
  std::map<int, int64_t> firstSlot;
  for (size_t k = 0; k < v.slots.size(); ++k) {
    const LoadSlot& s = v.slots[k];
    if (s.workItem == v.workItem && s.bit >= 0 && s.bit % v.regBits == 0)
      firstSlot.emplace(int(s.bit / v.regBits), int64_t(k));
  }
  const int regs = firstSlot.empty() ? 0 : firstSlot.rbegin()->first + 1;
  const Tile& tile = v.tiles[v.selectedTile];
  w.id = "workitem";
  w.rows = int(tile.rects.size()), w.cols = regs;
  w.fill.assign(size_t(w.rows) * size_t(regs), palette::kUnowned);
  w.labels.assign(w.fill.size(), "");
  w.marks.assign(w.fill.size(), kMarkNone);
  const Rgba fill = palette::categorical(int(v.selectedTile), int(v.tiles.size()));
  size_t longest = 4;
  for (int i = 0; i < w.rows; ++i) {
    const Rect& rc = tile.rects[size_t(i)];
    for (const auto& [reg, k] : firstSlot) {
      const std::string label = "(" + std::to_string(rc.r0 + k / rc.cols) + "," +
                                std::to_string(rc.c0 + k % rc.cols) + ")";
      longest = std::max(longest, label.size());
      const size_t at = size_t(w.index(i, reg));
      w.labels[at] = label;
      w.fill[at] = fill;
    }
    w.rowHeaders.push_back("L" + std::to_string(i));
  }
  for (int k = 0; k < regs; ++k) w.colHeaders.push_back("r" + std::to_string(k));
  w.cellW = std::max(24.f, 7.f * float(longest) + 8), w.cellH = 22;
  w.x = x, w.y = kTop;
  return w.rows * int(firstSlot.size());
}

// The titles above the grids, the work-item grid's caption (at x) and the legend strip that
// explains the labels.
void addTitles(const Inputs& v, const XegpuBlockLoadResult& res, float x, Scene& s) {
  const int sg = v.opt.subgroup;
  s.texts.push_back({kLeft, 12,
                     "XeGPU load_nd: " + std::to_string(res.numLoads) +
                         (res.numLoads == 1 ? " block load (" : " block loads (") + v.loadName +
                         ") per subgroup on " + v.target.name + ", " + std::to_string(v.elemBits) +
                         "-bit elements; " + std::to_string(res.numSubgroups) + " subgroups in " +
                         std::to_string(res.numSubgroupTiles) + " tiles; selected: subgroup " +
                         std::to_string(sg),
                     palette::kText, 15});
  std::string rule = res.blockRule == "given" ? "the given block" : "the layout's " + res.blockRule;
  if (res.blockRule == "shape") rule = "the whole shape (a subgroup layout without inst_data)";
  s.texts.push_back(
      {kLeft, 36,
       "block " + std::to_string(res.block[0]) + "x" + std::to_string(res.block[1]) + " from " +
           rule + " (rule: the given block, else inst_data, else sg_data, else the shape)" +
           (res.arrayLength > 1
                ? "; array_length " + std::to_string(res.arrayLength) + ": one load reads " +
                      std::to_string(res.arrayLength) + " blocks side by side"
                : "") +
           (res.packed ? "; packed (VNNI)" : ""),
       palette::kText, 13});
  // The legend strip stays in the canvas's corner: it explains the work-item grid's labels.
  s.legendTexts.push_back({kLeft, 58,
                           "colour: subgroup tile; blue outlines: subgroup " + std::to_string(sg) +
                               "'s loads; black outline: work-item " + std::to_string(v.workItem) +
                               "'s " + std::to_string(res.workItemElements) + " elements",
                           palette::kText, 13});
  s.legendTexts.push_back({kLeft, 76,
                           "work-item grid: row L<j> = load j, column r<k> = register k of its "
                           "result (" +
                               std::to_string(v.regBits) +
                               "-bit); a cell names the element (row,col) it holds: \"L0 r10\" "
                               "is register 10 of load 0",
                           palette::kText, 13});
  s.texts.push_back({x, 98,
                     "work-item " + std::to_string(v.workItem) + " of subgroup " +
                         std::to_string(sg) + ": " + std::to_string(res.workItemRegisters) + " " +
                         std::to_string(v.regBits) +
                         "-bit registers (rows L<load>, columns r<register>: the element held)",
                     palette::kText, 13});
}

// The legend below the work-item grid (from lx, ly down): the tiles' swatches, then the
// selected subgroup's loads by the names the work-item grid uses.
void addLegend(const Inputs& v, float lx, float ly, Scene& s) {
  const int numTiles = int(v.tiles.size());
  for (int t = 0; t < numTiles && t < kLegendEntries; ++t, ly += 22) {
    const Tile& tile = v.tiles[size_t(t)];
    s.rects.push_back({lx, ly, 18, 18, palette::categorical(t, numTiles), palette::kBoundary, 1});
    s.texts.push_back({lx + 24, ly + 2,
                       subgroupList(tile.subgroups) + ": " + std::to_string(tile.offsets.size()) +
                           (tile.offsets.size() == 1 ? " tile at " : " tiles, the first at ") +
                           coordText(tile.offsets[0][0], tile.offsets[0][1]) +
                           (tile.subgroups.size() > 1 ? " (the same elements: broadcast)" : ""),
                       palette::kText, 12});
  }
  if (numTiles > kLegendEntries) {
    s.texts.push_back({lx, ly, "... " + std::to_string(numTiles - kLegendEntries) + " more tiles",
                       palette::kText, 12});
    ly += 22;
  }
  ly += 8;
  const auto& rects = v.tiles[v.selectedTile].rects;
  for (size_t j = 0; j < rects.size() && j < size_t(kLegendEntries); ++j, ly += 20)
    s.texts.push_back({lx, ly,
                       "L" + std::to_string(j) + " = load " + std::to_string(j) + " of subgroup " +
                           std::to_string(v.opt.subgroup) + ": " + v.loadName + " at " +
                           coordText(rects[j].r0, rects[j].c0),
                       palette::kText, 12});
  if (rects.size() > size_t(kLegendEntries))
    s.texts.push_back({lx, ly,
                       "... " + std::to_string(rects.size() - kLegendEntries) + " more loads",
                       palette::kText, 12});
}

// The checks of the inputs that come before any allocation: the memory tile's size and the
// ids.
Expected<void> checkSizes(const xegpu::XeLayout& l, std::span<const int64_t> shape, int elemBits,
                          const intel::BlockIoTarget& target, const XegpuBlockLoadOptions& opt) {
  if (!target.element(elemBits))
    return makeError("elemBits: " + std::to_string(elemBits) +
                     "-bit elements have no 2D block loads on " + target.name);
  const std::vector<int64_t> s(shape.begin(), shape.end());
  if (s.empty() || s.size() > 2)
    return makeError("shape: a 2D block load reads a rank-1 or rank-2 descriptor, not " +
                     listText(s));
  if (int(s.size()) != l.rank())
    return makeError("shape: " + listText(s) + " has rank " + std::to_string(s.size()) +
                     " but the layout describes rank-" + std::to_string(l.rank()) + " tensors");
  if (opt.arrayLength < 1 || opt.arrayLength > 64)
    return makeError("arrayLength: " + std::to_string(opt.arrayLength) + " is not in [1, 64]");
  const int64_t limit = std::max<int64_t>(1, opt.maxCells);
  int64_t cells = opt.arrayLength;
  for (int64_t d : s) {
    if (d <= 0) return makeError("shape: " + listText(s) + " has a size below 1");
    if (d > limit / cells)
      return makeError("shape: " + listText(s) +
                       (opt.arrayLength > 1 ? " x array_length " + std::to_string(opt.arrayLength)
                                            : std::string()) +
                       " has more elements than the view draws (at most " + std::to_string(limit) +
                       ")");
    cells *= d;
  }
  if (!opt.block.empty()) {
    if (opt.block.size() != 2)
      return makeError("block: expected [rows, cols], not " + listText(opt.block));
    for (int64_t b : opt.block)
      if (b < 1 || b > limit)
        return makeError("block: " + listText(opt.block) + " has a size outside [1, " +
                         std::to_string(limit) + "]");
  }
  if (l.isForWorkgroup()) {
    const int64_t n = xegpu::idCount(l, xegpu::Level::Subgroup);
    if (n > kMaxSubgroups)
      return makeError("sg_layout: " + listText(l.sgLayout) + " has " + std::to_string(n) +
                       " subgroups; the view draws at most " + std::to_string(kMaxSubgroups));
  }
  return {};
}

} // namespace

bool isXegpuLayoutText(std::string_view text, const AttrAliases& aliases) {
  auto attr = layout::parseAttribute(text, aliases);
  return attr && attr->kind == AttrValue::Kind::Attribute && attr->text.rfind("xegpu.", 0) == 0;
}

Expected<std::vector<int64_t>> parseBlockText(std::string_view text) {
  const std::string t(text);
  const size_t sep = t.find_first_of("x,");
  auto number = [](const std::string& s) -> std::optional<int64_t> {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return std::stoll(s);
  };
  std::optional<int64_t> r, c;
  if (sep != std::string::npos) r = number(t.substr(0, sep)), c = number(t.substr(sep + 1));
  if (!r || !c)
    return makeError("block: expected ROWSxCOLS (one block's rows and columns, like 8x16), not '" +
                     t.substr(0, 40) + "'");
  if (*r < 1 || *c < 1)
    return makeError("block: '" + t + "' has a size below 1 (rows and columns are at least 1)");
  return std::vector<int64_t>{*r, *c};
}

Expected<XegpuBlockLoadResult> xegpuBlockLoadView(std::string_view layoutText,
                                                  std::span<const int64_t> shape, int elemBits,
                                                  int workItem, const XegpuBlockLoadOptions& opt) {
  auto target = intel::blockIoTarget(opt.target);
  if (!target) return withContext(target.error(), "target");
  static const AttrAliases kNoAliases;
  auto parsed = xegpu::parseXegpuAttr(layoutText, opt.aliases ? *opt.aliases : kNoAliases);
  if (!parsed) return withContext(parsed.error(), "layout");
  const xegpu::XeLayout& l = *parsed;
  LAYOUT_TRY(checkSizes(l, shape, elemBits, *target, opt));
  const bool workgroup = l.isForWorkgroup();
  const int64_t numSubgroups = workgroup ? xegpu::idCount(l, xegpu::Level::Subgroup) : 1;
  if (workgroup)
    LAYOUT_TRY(xegpu::checkIdInRange(l, opt.subgroup, xegpu::Level::Subgroup, "subgroup"));
  else if (opt.subgroup != 0)
    return makeError("subgroup: " + std::to_string(opt.subgroup) +
                     " is not a subgroup of a subgroup layout (no sg_layout): its one subgroup "
                     "is 0");
  if (!l.laneLayout.empty())
    LAYOUT_TRY(xegpu::checkIdInRange(l, workItem, xegpu::Level::Lane, "workItem"));
  if (workItem < 0 || workItem >= target->subgroupSize)
    return makeError("workItem: " + std::to_string(workItem) +
                     " is not a work-item of the subgroup (0.." +
                     std::to_string(target->subgroupSize - 1) + ")");

  // Each subgroup's sg_data tiles (a subgroup layout: the whole shape, one tile).
  std::vector<int64_t> data = shapeAsRows({shape.begin(), shape.end()});
  std::vector<std::vector<std::vector<int64_t>>> offsetsOf(static_cast<size_t>(numSubgroups));
  int64_t listed = 0;
  for (int64_t s = 0; s < numSubgroups; ++s) {
    if (!workgroup) {
      offsetsOf[0] = {{0, 0}};
      break;
    }
    LAYOUT_TRY_ASSIGN(t, xegpu::subgroupTiles(l, shape, s));
    listed += int64_t(t.tileOffsets.size());
    if (listed > kMaxTiles)
      return makeError("sg_layout: the " + std::to_string(numSubgroups) +
                       " subgroups own more than 2^20 tiles in all; the view draws fewer");
    data = shapeAsRows(t.tileShape);
    for (auto& o : t.tileOffsets) {
      if (o.size() == 1) o.insert(o.begin(), 0);
      offsetsOf[size_t(s)].push_back(std::move(o));
    }
  }
  const std::string dataName = workgroup ? (l.sgData.empty() ? "share of the shape" : "sg_data")
                                         : "shape (a subgroup layout's data)";

  // The block: given, else inst_data, else one subgroup's data.
  XegpuBlockLoadResult res;
  if (auto inst = l.effective(l.instData); !inst.empty())
    res.block = shapeAsRows(inst), res.blockRule = "inst_data";
  else
    res.block = data, res.blockRule = workgroup ? "sg_data" : "shape";
  // A given block that the rule would pick anyway (a kernel file's load_nd) keeps the rule's name.
  if (!opt.block.empty() && opt.block != res.block) res.block = opt.block, res.blockRule = "given";
  const std::vector<int64_t>& block = res.block;
  const std::string source =
      res.blockRule == "given" ? "given" : "from " + res.blockRule + " " + listText(block);
  const int n = opt.arrayLength;
  const int64_t descCols = shape.back();
  if (n > 1 && block[1] != descCols)
    return makeError("arrayLength: a load of " + std::to_string(n) +
                     " blocks side by side reads the descriptor's array blocks only when the "
                     "block is as wide as the descriptor (block " +
                     listText(block) + ", shape " + listText({shape.begin(), shape.end()}) + ")");
  if (block.size() != 2 || data.size() != 2 || data[0] % block[0] != 0 || data[1] % block[1] != 0)
    return makeError("block: " + listText(block) + " (" + source +
                     ") does not divide one subgroup's data " + listText(data) + " (" + dataName +
                     ")");
  const auto laneData = l.effective(l.laneData);
  res.packed = opt.packed || (laneData.size() == 2 && laneData[1] == 1 && laneData[0] > 1 &&
                              laneData[0] * elemBits == 32);
  res.arrayLength = n;
  const intel::BlockShape bs{elemBits, int(block[1]), int(block[0]), n, false, res.packed};
  if (auto ok = intel::validateBlockShape(*target, intel::BlockOp::Load, bs); !ok)
    return makeError("block: " + intel::blockShapeName(bs) + " (" + source +
                     ") is not a legal load on " + target->name + ": " + ok.error().message);
  res.instruction = intel::blockShapeName(bs);
  res.registerBits = res.packed ? std::max(32, elemBits) : elemBits;

  // Subgroups with the same tiles form one Tile, in subgroup order.
  Inputs v(opt, *target);
  v.elemBits = elemBits, v.workItem = workItem, v.regBits = res.registerBits;
  v.memRows = shape.size() == 2 ? shape[0] : 1, v.memCols = descCols * n, v.descCols = descCols;
  v.loadName = res.instruction;
  v.cell = opt.cellSize > 0 ? opt.cellSize : 16;
  v.load.elemBits = elemBits, v.load.tileWidth = int(block[1]), v.load.tileHeight = int(block[0]);
  v.load.numBlocks = n, v.load.vnni = res.packed;
  std::map<std::vector<std::vector<int64_t>>, size_t> tileOf;
  for (int s = 0; s < int(numSubgroups); ++s) {
    auto [it, fresh] = tileOf.emplace(offsetsOf[size_t(s)], v.tiles.size());
    if (fresh)
      v.tiles.push_back(
          {offsetsOf[size_t(s)], {}, loadRects(offsetsOf[size_t(s)], data, block, n)});
    v.tiles[it->second].subgroups.push_back(s);
    if (s == opt.subgroup) v.selectedTile = it->second;
  }
  v.slots = detail::loadSlots(*target, v.load, block[0], block[1] * n, elemBits, v.regBits);

  res.numLoads = int(v.tiles[v.selectedTile].rects.size());
  res.numSubgroups = int(numSubgroups);
  res.numSubgroupTiles = int(v.tiles.size());
  for (const Rect& rc : v.tiles[v.selectedTile].rects)
    res.loads.push_back({rc.r0, rc.c0, rc.rows, rc.cols});

  Scene& s = res.scene;
  CellGrid g;
  g.id = "operand";
  g.x = kLeft, g.y = kTop, g.cellW = g.cellH = v.cell;
  g.rows = int(v.memRows), g.cols = int(v.memCols);
  g.fill.assign(size_t(v.memRows * v.memCols), palette::kDimmed);
  g.marks.assign(g.fill.size(), kMarkNone);
  for (int64_t r = 0; r < v.memRows; ++r) g.rowHeaders.push_back(std::to_string(r));
  for (int64_t c = 0; c < v.memCols; ++c) g.colHeaders.push_back(std::to_string(c));
  const auto cover = drawLoads(v, g, s);
  res.unloadedCells = std::count_if(cover.begin(), cover.end(),
                                    [](const std::pair<int, int>& c) { return c.first < 0; });
  addDetails(v, cover, g);
  std::string why;
  const auto held = workItemElements(v, l, shape, &why);
  for (auto [r, c] : held)
    if (r >= 0 && r < v.memRows && c >= 0 && c < v.memCols)
      g.marks[size_t(g.index(int(r), int(c)))] |= kMarkHighlight;
  res.workItemElements = int(held.size());
  const float operandRight = g.x + g.width(), operandBottom = g.y + g.height();
  s.grids.push_back(std::move(g));

  const float rightColumn = operandRight + kGap + 24;
  CellGrid w;
  res.workItemRegisters = workItemGrid(v, rightColumn, w);
  const float wiBottom = w.y + w.height();
  s.grids.push_back(std::move(w));
  addTitles(v, res, rightColumn, s);
  addLegend(v, rightColumn, wiBottom + 24, s);
  if (!why.empty()) s.texts.push_back({kLeft, operandBottom + 8, why, palette::kText, 12});
  s.fitBounds();
  return res;
}

} // namespace layout::views
