// The bank heat map (bank_view.h): the report's per-phase tables drawn as wavefront x bank
// grids, the given shared layout above the synthesized swizzle.
#include "layout/views/bank_view.h"

#include "layout/smem/bank_model.h"
#include "layout/smem/shared_operands.h"
#include "layout/smem/swizzle_synthesis.h"
#include "layout/text/internal/json_text.h"
#include "layout/triton/linear_encoding_of.h"
#include "layout/views/views.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <unordered_map>
#include <utility>

namespace layout::views {

namespace {

namespace smem = layout::smem;

constexpr float kCellH = 22;
constexpr float kLeft = 64;       // room for the row headers
constexpr float kSideGap = 96;    // between the two heat maps
constexpr float kPhaseTitle = 42; // phase title plus column headers above a grid
constexpr float kPhaseGap = 20;
// Titles in scene units: the canvas draws cell labels at up to 1.25 x the zoom (13 px at most),
// so titles of 17 and more never read smaller than the labels of the grids they name.
constexpr float kTitleSize = 17, kHeaderSize = 18, kNoteSize = 14;
// Accesses listed per side at most (warps x issues); past it only the first issue is drawn.
constexpr uint64_t kMaxAccesses = 1 << 14;

layout::Expected<smem::BankInstruction> parseInstruction(std::string_view text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos)
    return layout::makeError("instruction: empty (give a name such as cdna4.ds_read_b128)");
  if (text[first] == '{') {
    // The library's reader: its nesting depth and value count are bounded (docs/limits.md).
    auto j = layout::detail::parseJsonText(text);
    if (!j) return layout::withContext(j.error(), "instruction");
    auto ins = smem::bankInstructionFromJson(*j);
    if (!ins) return layout::withContext(ins.error(), "instruction");
    return *ins;
  }
  size_t last = text.find_last_not_of(" \t\r\n");
  auto ins = smem::bankInstruction(text.substr(first, last - first + 1));
  if (!ins) return layout::withContext(ins.error(), "instruction");
  return *ins;
}

// "0-3,12-15,20-27".
std::string laneRanges(std::vector<int> lanes) {
  std::sort(lanes.begin(), lanes.end());
  std::string s;
  for (size_t i = 0; i < lanes.size();) {
    size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    s += (s.empty() ? "" : ",") + std::to_string(lanes[i]);
    if (j > i) s += "-" + std::to_string(lanes[j]);
    i = j + 1;
  }
  return s;
}

// A cell label: the lanes on one word, short enough for a narrow cell.
std::string lanesLabel(std::vector<int> lanes) {
  std::sort(lanes.begin(), lanes.end());
  lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
  if (lanes.empty()) return "";
  if (lanes.size() == 1) return std::to_string(lanes[0]);
  if (lanes.size() == 2) return std::to_string(lanes[0]) + "," + std::to_string(lanes[1]);
  return std::to_string(lanes[0]) + "+" + std::to_string(lanes.size() - 1);
}

// One phase as cells: ways[b] distinct words of bank b, labels row-major (rows x banks).
struct PhaseCells {
  int rows = 1;
  std::vector<int> ways;
  std::vector<std::string> labels;
  std::vector<std::string> details;            // the inspector's text per cell
  std::vector<std::vector<uint64_t>> elements; // per cell: the tensor cells on that word
};

// The tile as the shared layout stores it: per offset, its tensor cell (row-major over the
// access layout's out-dims, as TensorMap numbers them) and its element address (padding applied).
struct Tile {
  std::vector<uint64_t> cellOfOffset, offsetOfCell, address;
  std::unordered_map<uint64_t, uint64_t> offsetOfAddress; // padded buffers only
  int elemBytes = 2;

  uint64_t size() const { return cellOfOffset.size(); }
  // The offset stored at an element address; nullopt for padding.
  std::optional<uint64_t> offsetAt(uint64_t elementAddress) const {
    if (offsetOfAddress.empty())
      return elementAddress < size() ? std::optional<uint64_t>(elementAddress) : std::nullopt;
    auto it = offsetOfAddress.find(elementAddress);
    return it == offsetOfAddress.end() ? std::nullopt : std::optional<uint64_t>(it->second);
  }
};

// The cell of an access-layout output, row-major over its out-dims.
uint64_t cellOf(const layout::LinearLayout& access, std::span<const uint64_t> coord) {
  uint64_t cell = 0;
  for (int o = 0; o < access.numOutDims(); ++o)
    cell = cell * access.outDimSize(o) + coord[size_t(o)];
  return cell;
}

// nullopt for a tile too large to enumerate (the tensor grid's limit, 2^22 elements).
std::optional<Tile> tileOf(const smem::SharedAccess& a, int elemBytes) {
  const layout::LinearLayout& sh = a.shared;
  const int offsetDim = sh.inDimIndex(layout::dims::offset());
  if (offsetDim < 0 || sh.inDimSizeLog2(offsetDim) > 22) return std::nullopt;
  const uint64_t n = sh.inDimSize(offsetDim);
  std::vector<int> sharedOut; // access out-dim o is shared out-dim sharedOut[o]
  for (int o = 0; o < a.access.numOutDims(); ++o) {
    sharedOut.push_back(sh.outDimIndex(a.access.outDimName(o)));
    if (sharedOut.back() < 0) return std::nullopt;
  }
  Tile t;
  t.elemBytes = elemBytes;
  t.cellOfOffset.resize(n);
  t.offsetOfCell.assign(n, 0);
  t.address.resize(n);
  std::vector<uint64_t> in(size_t(sh.numInDims()), 0), out(size_t(sh.numOutDims())),
      coord(sharedOut.size());
  for (uint64_t off = 0; off < n; ++off) {
    in[size_t(offsetDim)] = off;
    sh.apply(in, out);
    for (size_t o = 0; o < sharedOut.size(); ++o) coord[o] = out[size_t(sharedOut[o])];
    const uint64_t cell = cellOf(a.access, coord);
    if (cell >= n) return std::nullopt;
    t.cellOfOffset[off] = cell;
    t.offsetOfCell[cell] = off;
    t.address[off] = a.paddedAddress ? a.paddedAddress(off) : off;
    if (a.paddedAddress) t.offsetOfAddress[t.address[off]] = off;
  }
  return t;
}

// The tensor cells of the elements lanes read on a word (none without a tile).
struct OffsetElements {
  const Tile* tile = nullptr;

  std::vector<uint64_t> cellsOfWord(uint64_t word, uint64_t bankBytes,
                                    const std::vector<std::pair<uint64_t, uint64_t>>& read) const {
    std::vector<uint64_t> cells;
    if (!tile) return cells;
    const uint64_t step = uint64_t(tile->elemBytes);
    for (uint64_t byte = word * bankBytes / step * step; byte < (word + 1) * bankBytes;
         byte += step) {
      bool touched = false;
      for (const auto& [first, last] : read) touched = touched || (byte >= first && byte <= last);
      if (!touched) continue;
      if (auto off = tile->offsetAt(byte / step)) cells.push_back(tile->cellOfOffset[*off]);
    }
    return cells;
  }
};

// A GF(2) basis of values, each kept with the combination (a mask over the inputs) that gives it.
class XorSolver {
public:
  bool add(uint64_t value, uint64_t mask) {
    reduce(value, mask);
    if (value == 0) return false;
    rows_.push_back({value, mask});
    // Descending values have distinct leading bits: reduce() clears them in order.
    std::sort(rows_.begin(), rows_.end(), [](const auto& a, const auto& b) { return a > b; });
    return true;
  }
  std::optional<uint64_t> solve(uint64_t value) const {
    uint64_t mask = 0;
    reduce(value, mask);
    return value == 0 ? std::optional<uint64_t>(mask) : std::nullopt;
  }
  bool contains(uint64_t value) const { return solve(value).has_value(); }

private:
  void reduce(uint64_t& value, uint64_t& mask) const {
    for (const auto& [v, m] : rows_)
      if ((value ^ v) < value) value ^= v, mask ^= m;
  }
  std::vector<std::pair<uint64_t, uint64_t>> rows_;
};

uint64_t combine(const std::vector<uint64_t>& images, uint64_t bits) {
  uint64_t v = 0;
  for (size_t i = 0; i < images.size(); ++i)
    if (bits >> i & 1) v ^= images[i];
  return v;
}

// The offsets that the bits of one in-dim of the access layout reach (the others at 0).
std::vector<uint64_t> offsetImages(const layout::LinearLayout& access, layout::DimName dim,
                                   const Tile& t) {
  std::vector<uint64_t> images;
  const int d = access.inDimIndex(dim);
  if (d < 0) return images;
  std::vector<uint64_t> in(size_t(access.numInDims()), 0), coord(size_t(access.numOutDims()));
  for (int b = 0; b < access.inDimSizeLog2(d); ++b) {
    in[size_t(d)] = uint64_t{1} << b;
    access.apply(in, coord);
    images.push_back(t.offsetOfCell[cellOf(access, coord)]);
  }
  return images;
}

// The offset each issue bit of a warp adds to its first issue, split as the library's planner
// splits the registers: the vector (ldmatrix: the pair and the matrix) registers first, then every
// other register bit in order, taken to the start of its run. nullopt when the split does not
// give the report's issue count (the caller then lists the first issue only).
std::optional<std::vector<uint64_t>> issueOffsets(const std::vector<uint64_t>& reg,
                                                  const smem::BankReport& r) {
  const smem::BankInstruction& ins = r.instruction;
  const uint64_t runMask = ins.isMatrix() ? 7 : uint64_t(std::max(1, r.vectorElements)) - 1;
  XorSolver regs, used;
  for (size_t j = 0; j < reg.size(); ++j) regs.add(reg[j], uint64_t{1} << j);
  auto take = [&](uint64_t mask) { used.add(mask, 0); };
  if (!ins.isMatrix()) {
    for (int k = 0; (1 << k) < r.vectorElements; ++k) {
      auto m = regs.solve(uint64_t{1} << k);
      if (!m) return std::nullopt;
      take(*m);
    }
  } else {
    auto pair = ins.transposed ? std::optional<uint64_t>(1) : regs.solve(1);
    if (!pair) return std::nullopt;
    take(*pair);
    const size_t matrixBits = size_t(std::countr_zero(unsigned(std::max(1, ins.matrices))));
    for (size_t j = 0, n = 0; j < reg.size() && n < matrixBits; ++j)
      if (!used.contains(uint64_t{1} << j)) take(uint64_t{1} << j), ++n;
  }
  std::vector<uint64_t> out;
  for (size_t j = 0; j < reg.size(); ++j)
    if (!used.contains(uint64_t{1} << j)) {
      take(uint64_t{1} << j);
      out.push_back(reg[j] & ~runMask);
    }
  if (out.size() >= 63 || (uint64_t{1} << out.size()) != uint64_t(r.accessesPerWarp))
    return std::nullopt;
  return out;
}

// One lane's run of the first issue of warp 0: a vector (ldmatrix: a 16-byte row) from `offset`.
struct LaneRun {
  int lane = 0, phase = 0;
  uint64_t offset = 0;
};

// Every access of the tile as the first issue of warp 0 moved by an offset: the layouts are
// linear, so access k's lanes read the first issue's runs XOR base[k].
struct AccessSet {
  std::vector<LaneRun> first;
  int runBytes = 0;
  std::vector<uint64_t> base; // per access
  std::vector<BankAccess> list;
  std::string note; // why only the first issue is listed
};

// Access k's phase tables, from its lanes' byte addresses.
layout::Expected<smem::BankReport> accessReport(const AccessSet& set, size_t k, const Tile& t,
                                                const smem::BankReport& whole) {
  std::vector<smem::LaneAddress> addresses;
  for (const LaneRun& run : set.first)
    addresses.push_back({run.lane, t.address[run.offset ^ set.base[k]] * uint64_t(t.elemBytes)});
  // The report's instruction already has the phases that serve this request.
  return smem::analyzeByteAddresses(addresses, set.runBytes, whole.instruction);
}

BankAccess summary(int warp, int issue, const std::vector<smem::PhaseReport>& phases) {
  BankAccess a{warp, issue, 0, 0, 1};
  for (const smem::PhaseReport& p : phases) {
    a.wavefronts += uint64_t(p.ways);
    a.idealWavefronts += uint64_t(p.idealWays);
    a.ways = std::max(a.ways, p.ways);
  }
  return a;
}

bool sameTables(const std::vector<smem::PhaseReport>& a, const std::vector<smem::PhaseReport>& b) {
  if (a.size() != b.size()) return false;
  for (size_t p = 0; p < a.size(); ++p) {
    if (a[p].ways != b[p].ways || a[p].lanes.size() != b[p].lanes.size()) return false;
    for (size_t l = 0; l < a[p].lanes.size(); ++l)
      if (a[p].lanes[l].lane != b[p].lanes[l].lane ||
          a[p].lanes[l].byteAddress != b[p].lanes[l].byteAddress)
        return false;
  }
  return true;
}

// Lists every warp's accesses with their costs. They must add up to the library's analysis of the
// whole tile, and the first must be its first issue; otherwise only that issue is listed.
AccessSet listAccesses(const smem::SharedAccess& a, const smem::BankReport& r, const Tile* t) {
  AccessSet set;
  set.base = {0};
  set.list = {summary(0, 0, r.phases)};
  if (!t) {
    set.note = "the tile is too large to list its accesses";
    return set;
  }
  for (const smem::PhaseReport& ph : r.phases)
    for (const smem::LaneTouch& touch : ph.lanes) {
      auto off = t->offsetAt(touch.byteAddress / uint64_t(t->elemBytes));
      if (!off) {
        set.first.clear();
        set.note = "a lane's address is not an element's";
        return set;
      }
      set.first.push_back({touch.lane, ph.phase, *off});
      set.runBytes = touch.bytes;
    }
  const auto issues = issueOffsets(offsetImages(a.access, layout::dims::reg(), *t), r);
  const std::vector<uint64_t> warps = offsetImages(a.access, layout::dims::warp(), *t);
  if (!issues || warps.size() >= 63 || (uint64_t{1} << warps.size()) != uint64_t(r.warps)) {
    set.note = "the registers do not split into the accesses the analysis counts";
    return set;
  }
  const uint64_t perWarp = uint64_t{1} << issues->size(), count = uint64_t(r.warps) * perWarp;
  if (count > kMaxAccesses) {
    set.note = std::to_string(count) + " accesses: too many to list";
    return set;
  }
  AccessSet all = set;
  all.base.clear();
  all.list.clear();
  uint64_t wavefronts = 0, ideal = 0;
  for (uint64_t w = 0; w < uint64_t(r.warps); ++w)
    for (uint64_t i = 0; i < perWarp; ++i) {
      all.base.push_back(combine(warps, w) ^ combine(*issues, i));
      auto rep = accessReport(all, all.base.size() - 1, *t, r);
      if (!rep) {
        set.note = rep.error().message;
        return set;
      }
      if (all.base.size() == 1 && !sameTables(rep->phases, r.phases)) {
        set.note = "the first access listed is not the analysis's first issue";
        return set;
      }
      all.list.push_back(summary(int(w), int(i), rep->phases));
      wavefronts += all.list.back().wavefronts;
      ideal += all.list.back().idealWavefronts;
    }
  if (wavefronts != r.wavefronts || ideal != r.idealWavefronts) {
    set.note = "the accesses listed add up to " + std::to_string(wavefronts) +
               " wavefronts, not the analysis's " + std::to_string(r.wavefronts);
    return set;
  }
  return all;
}

// Indices of `list` by wavefronts, most first; ties keep index order.
std::vector<int> worstFirst(const std::vector<BankAccess>& list) {
  std::vector<int> order(list.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    return list[size_t(x)].wavefronts > list[size_t(y)].wavefronts;
  });
  return order;
}

PhaseCells phaseCells(const smem::PhaseReport& ph, const smem::BankInstruction& ins,
                      const OffsetElements& elements) {
  const int banks = ins.banks;
  const uint64_t bankBytes = uint64_t(ins.bankBytes);
  // Which lanes touch each word: from the lanes' byte ranges (a word's bank is word % banks).
  std::map<uint64_t, std::vector<int>> lanesOfWord;
  std::map<uint64_t, std::string> touchesOfWord; // "lane 5: bytes 68-71"
  std::map<uint64_t, std::vector<std::pair<uint64_t, uint64_t>>> bytesOfWord; // read ranges
  for (const smem::LaneTouch& t : ph.lanes) {
    uint64_t w0 = t.byteAddress / bankBytes,
             w1 = (t.byteAddress + uint64_t(std::max(1, t.bytes)) - 1) / bankBytes;
    for (uint64_t w = w0; w <= w1; ++w) {
      lanesOfWord[w].push_back(t.lane);
      bytesOfWord[w].push_back({t.byteAddress, t.byteAddress + uint64_t(std::max(1, t.bytes)) - 1});
      touchesOfWord[w] += "\n  lane " + std::to_string(t.lane) + ": bytes " +
                          std::to_string(t.byteAddress) + "-" +
                          std::to_string(t.byteAddress + uint64_t(std::max(1, t.bytes)) - 1);
    }
  }
  PhaseCells pc;
  pc.ways.assign(size_t(banks), 0);
  std::vector<const smem::BankUse*> use(size_t(banks), nullptr);
  for (const smem::BankUse& u : ph.banks)
    if (u.bank >= 0 && u.bank < banks) {
      use[size_t(u.bank)] = &u;
      pc.ways[size_t(u.bank)] = int(u.words.size());
      pc.rows = std::max(pc.rows, int(u.words.size()));
    }
  pc.labels.assign(size_t(pc.rows) * size_t(banks), "");
  pc.details.assign(pc.labels.size(), "");
  pc.elements.assign(pc.labels.size(), {});
  for (int b = 0; b < banks; ++b) {
    if (!use[size_t(b)]) continue;
    const smem::BankUse& u = *use[size_t(b)];
    for (size_t w = 0; w < u.words.size(); ++w) {
      auto it = lanesOfWord.find(u.words[w]);
      // The bank's lane list stands in should the byte ranges not name the word.
      const size_t cell = w * size_t(banks) + size_t(b);
      pc.labels[cell] = lanesLabel(it != lanesOfWord.end() ? it->second : u.lanes);
      pc.details[cell] = "bank " + std::to_string(b) + ", word " + std::to_string(u.words[w]) +
                         " (bytes " + std::to_string(u.words[w] * bankBytes) + "-" +
                         std::to_string((u.words[w] + 1) * bankBytes - 1) + "), " +
                         std::to_string(u.words.size()) +
                         " word(s) on this bank:" + touchesOfWord[u.words[w]];
      pc.elements[cell] = elements.cellsOfWord(u.words[w], bankBytes, bytesOfWord[u.words[w]]);
      if (!pc.elements[cell].empty())
        pc.details[cell] += "\n  " + std::to_string(pc.elements[cell].size()) +
                            " element(s); click to highlight them in the tensor";
    }
  }
  return pc;
}

std::string sharedName(std::string_view text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "row-major";
  if (text[first] == '#') {
    size_t end = text.find('<', first);
    return std::string(text.substr(first, end == std::string_view::npos ? text.npos : end - first));
  }
  return "layout JSON";
}

std::string sideTitle(const std::string& name, const smem::BankReport& r) {
  return name + ": " + std::to_string(r.maxWays()) + "-way, " + std::to_string(r.wavefronts) +
         " wavefronts (ideal " + std::to_string(r.idealWavefronts) + ")";
}

// Draws the report's phases as grids "<prefix>banks", "<prefix>banks.<p>" from (x, y).
// Returns the y below the last grid.
float drawSide(Scene& s, const smem::BankReport& r, const std::vector<PhaseCells>& cells,
               const std::string& prefix, float x, float y, float cellW, int heatMax, int maxPhases,
               std::map<std::string, std::vector<std::vector<uint64_t>>>& elements) {
  const int banks = r.instruction.banks;
  const auto& phaseLanes = r.instruction.phases;
  std::vector<std::string> colHeaders;
  for (int b = 0; b < banks; ++b) colHeaders.push_back(std::to_string(b));
  for (size_t p = 0; p < cells.size(); ++p) {
    const smem::PhaseReport& ph = r.phases[p];
    const PhaseCells& pc = cells[p];
    std::vector<int> lanes;
    for (const smem::LaneTouch& t : ph.lanes) lanes.push_back(t.lane);
    if (lanes.empty() && size_t(ph.phase) < phaseLanes.size()) lanes = phaseLanes[size_t(ph.phase)];
    s.texts.push_back({x, y,
                       "phase " + std::to_string(ph.phase) + " (lanes " + laneRanges(lanes) +
                           "): " + std::to_string(ph.ways) + "-way, ideal " +
                           std::to_string(ph.idealWays),
                       palette::kText, kTitleSize});
    CellGrid g;
    g.id = prefix + "banks" + (p == 0 ? "" : "." + std::to_string(p));
    g.x = x, g.y = y + kPhaseTitle, g.cellW = cellW, g.cellH = kCellH;
    g.rows = pc.rows, g.cols = banks;
    g.labels = pc.labels;
    g.details = pc.details;
    elements[g.id] = pc.elements;
    g.fill.assign(size_t(g.rows) * size_t(banks), palette::kUnowned);
    g.marks.assign(g.fill.size(), kMarkNone);
    for (int b = 0; b < banks; ++b) {
      const int ways = pc.ways[size_t(b)];
      // Row 0 shows idle banks too, so the heat scale's zero is visible.
      for (int w = 0; w < std::max(1, ways); ++w) {
        g.fill[size_t(g.index(w, b))] = palette::heat(ways, heatMax);
        if (ways > 1) g.marks[size_t(g.index(w, b))] = kMarkConflict;
      }
    }
    for (int w = 0; w < g.rows; ++w) g.rowHeaders.push_back("wf " + std::to_string(w));
    g.colHeaders = colHeaders;
    y = g.y + g.height() + kPhaseGap;
    s.grids.push_back(std::move(g));
  }
  if (int(r.phases.size()) > maxPhases) {
    s.texts.push_back({x, y,
                       "... " + std::to_string(int(r.phases.size()) - maxPhases) + " more phases",
                       palette::kText, kNoteSize});
    y += 24;
  }
  return y;
}

std::vector<PhaseCells> sideCells(const smem::BankReport& r, int maxPhases,
                                  const OffsetElements& elements) {
  std::vector<PhaseCells> out;
  for (size_t p = 0; p < r.phases.size() && int(p) < maxPhases; ++p)
    out.push_back(phaseCells(r.phases[p], r.instruction, elements));
  return out;
}

void drawLegend(Scene& s, float x, float y, int heatMax) {
  // In the scene's legend (the canvas keeps it at its size in the corner), as large as the cell
  // labels; each entry advances by its text's width (13 px monospaced: 7.9 px a character) so
  // none overlaps the next.
  auto entry = [&](Rgba fill, Rgba stroke, float strokeWidth, const std::string& text) {
    s.legendRects.push_back({x, y, 18, 18, fill, stroke, strokeWidth});
    s.legendTexts.push_back({x + 22, y + 2, text, palette::kText, 13});
    x += 22 + 7.9f * float(text.size()) + 18;
  };
  std::vector<int> values;
  if (heatMax <= 8) {
    for (int v = 0; v <= heatMax; ++v) values.push_back(v);
  } else {
    values = {0};
    for (int v = 1; v < heatMax; v *= 2) values.push_back(v);
    values.push_back(heatMax);
  }
  for (int v : values)
    entry(palette::heat(v, heatMax), palette::kGridLine, 1,
          v == 0 ? "idle" : std::to_string(v) + "-way");
  entry(Rgba{0, 0, 0, 0}, palette::kConflict, 2, "conflict: several words");
}

// Per offset: the access that moves the element (the drawn one first, then in index order), the
// phase and lane, and where the lane's run starts.
struct ElementUse {
  int access = -1, phase = 0, lane = 0;
  uint64_t runStart = 0;
};

std::vector<ElementUse> elementUses(const AccessSet& set, int shown, const Tile& t) {
  std::vector<ElementUse> use(size_t(t.size()));
  const uint64_t runElements = uint64_t(std::max(1, set.runBytes / t.elemBytes));
  auto mark = [&](size_t k) {
    for (const LaneRun& run : set.first) {
      const uint64_t start = run.offset ^ set.base[k];
      for (uint64_t e = 0; e < runElements && start + e < t.size(); ++e) {
        ElementUse& u = use[size_t(start + e)];
        if (u.access < 0) u = {int(k), run.phase, run.lane, start};
      }
    }
  };
  if (shown >= 0 && size_t(shown) < set.base.size()) mark(size_t(shown));
  for (size_t k = 0; k < set.base.size(); ++k) mark(k);
  return use;
}

bool isBankColoring(std::string_view c) {
  return c == "bank" || c == "phase" || c == "vector";
}

// Recolours the tensor grid "banks.tensor" by bank, phase or vector group (labels say the value;
// any other colouring, an in-dim's, stays). Outlines the elements of the drawn access; details
// say each element's offset, bytes, bank and the lane and access that move it.
void colourShared(CellGrid& g, const std::string& colorBy, const Tile& t, const AccessSet& set,
                  int shown, const smem::BankReport& r) {
  const smem::BankInstruction& ins = r.instruction;
  const std::vector<ElementUse> use = elementUses(set, shown, t);
  const uint64_t eb = uint64_t(t.elemBytes), bankBytes = uint64_t(ins.bankBytes),
                 banks = uint64_t(ins.banks), runBytes = uint64_t(std::max(1, set.runBytes));
  // The slots of one bank line: the vectors of one access that fill the line side by side.
  const uint64_t slots = std::max<uint64_t>(1, banks * bankBytes / runBytes);
  const int phases =
      int(std::max<size_t>(1, r.phases.empty() ? ins.phases.size() : r.phases.size()));
  const bool recolour = isBankColoring(colorBy);
  const bool byBank = colorBy == "bank", byPhase = colorBy == "phase";
  const int count = byBank ? int(banks) : byPhase ? phases : int(slots);
  const char* prefix = byBank ? "" : byPhase ? "p" : "v";
  // Details for every cell cost a string each: only for grids the inspector can reach cheaply.
  const bool details = g.fill.size() <= (uint64_t{1} << 16);
  if (details) g.details.assign(g.fill.size(), "");
  size_t longest = 1;
  for (uint64_t cell = 0; cell < g.fill.size() && cell < t.size(); ++cell) {
    const uint64_t off = t.offsetOfCell[cell], byte = t.address[off] * eb;
    const ElementUse& u = use[size_t(off)];
    const uint64_t bank = byte / bankBytes % banks;
    const uint64_t slot = u.access < 0 ? 0 : t.address[u.runStart] * eb / runBytes % slots;
    const int value = byBank ? int(bank) : u.access < 0 ? -1 : byPhase ? u.phase : int(slot);
    if (recolour && value < 0) {
      g.fill[cell] = palette::kUnowned;
      g.marks[cell] |= kMarkUnowned;
      g.labels[cell].clear();
    } else if (recolour) {
      // Every element has a bank, even one no lane reads; copies held by several warps (the
      // tensor view's corner mark) do not change where the element is stored.
      g.marks[cell] &= uint8_t(~(kMarkUnowned | kMarkBroadcast));
      g.fill[cell] = palette::categorical(value, count);
      g.labels[cell] = prefix + std::to_string(value);
      longest = std::max(longest, g.labels[cell].size());
    }
    if (u.access >= 0 && u.access == shown) g.marks[cell] |= kMarkOutline;
    if (!details) continue;
    const uint64_t lastBank = (byte + eb - 1) / bankBytes % banks;
    std::string d = "element (" + std::to_string(cell / uint64_t(g.cols)) + ", " +
                    std::to_string(cell % uint64_t(g.cols)) + "): offset " + std::to_string(off) +
                    ", bytes " + std::to_string(byte) + "-" + std::to_string(byte + eb - 1) +
                    ", bank " + std::to_string(bank) +
                    (lastBank != bank ? "-" + std::to_string(lastBank) : "") + " (word " +
                    std::to_string(byte / bankBytes) + ")";
    if (u.access >= 0 && size_t(u.access) < set.list.size()) {
      const BankAccess& a = set.list[size_t(u.access)];
      d += "\n  moved by lane " + std::to_string(u.lane) + " of warp " + std::to_string(a.warp) +
           " in access " + std::to_string(u.access) + " (issue " + std::to_string(a.issue) +
           "), phase " + std::to_string(u.phase) + "\n  its " + std::to_string(runBytes) +
           "-byte vector fills slot " + std::to_string(slot) + " of the " +
           std::to_string(banks * bankBytes) + "-byte bank line";
    }
    g.details[cell] = std::move(d);
  }
  if (!recolour) return;
  g.cellW = std::max(24.f, 7.9f * float(longest) + 8);
  g.cellH = kCellH;
}

std::string accessLine(const BankViewResult& res) {
  if (res.accesses.empty()) return "";
  const BankAccess& a = res.accesses[size_t(res.shownAccess)];
  std::string s = "drawn: access " + std::to_string(res.shownAccess) + " of " +
                  std::to_string(res.accesses.size()) + " (warp " + std::to_string(a.warp) +
                  ", issue " + std::to_string(a.issue) + "), " + std::to_string(a.wavefronts) +
                  " wavefronts (ideal " + std::to_string(a.idealWavefronts) + ")";
  const bool allSame = std::all_of(res.accesses.begin(), res.accesses.end(),
                                   [&](const auto& x) { return x.wavefronts == a.wavefronts; });
  if (res.accesses.size() > 1)
    s += allSame                                     ? "; every access costs the same"
         : res.worstFirst.front() == res.shownAccess ? ", the worst"
                                                     : "";
  if (!res.accessNote.empty()) s += "; only the first issue is listed: " + res.accessNote;
  return s;
}

} // namespace

float appendBankPhases(Scene& s, const smem::BankReport& r, const std::string& prefix, float x,
                       float y, int heatMax, int maxPhases) {
  maxPhases = std::max(1, maxPhases);
  const std::vector<PhaseCells> cells = sideCells(r, maxPhases, OffsetElements{});
  size_t longest = 2; // the bank numbers of the column headers
  for (const PhaseCells& pc : cells)
    for (const std::string& l : pc.labels) longest = std::max(longest, l.size());
  std::map<std::string, std::vector<std::vector<uint64_t>>> unused; // no tensor to point into
  return drawSide(s, r, cells, prefix, x, y, std::max(24.f, 7.f * float(longest) + 8), heatMax,
                  maxPhases, unused);
}

void appendBankLegend(Scene& s, float x, float y, int heatMax) {
  drawLegend(s, x, y, std::max(1, heatMax));
}

std::vector<std::string> bankColorings(const layout::LinearLayout* access) {
  std::vector<std::string> out = {"bank", "phase", "vector"};
  if (access)
    for (int i = 0; i < access->numInDims(); ++i)
      out.push_back(std::string(access->inDimName(i).str()));
  return out;
}

std::string bankColorByError(std::string_view colorBy, const layout::LinearLayout* access) {
  const std::vector<std::string> all = bankColorings(access);
  if (colorBy.empty() || std::find(all.begin(), all.end(), colorBy) != all.end()) return "";
  std::string names;
  for (const std::string& n : all) names += (names.empty() ? "" : ", ") + n;
  return "'" + std::string(colorBy) + "' does not colour the banks view; colour by one of " + names;
}

layout::Expected<BankViewResult> bankView(std::string_view accessText, std::string_view sharedText,
                                          std::span<const int64_t> shape, int elemBits,
                                          std::string_view instruction,
                                          const BankViewOptions& opt) {
  smem::SharedSpec spec;
  spec.text = std::string(sharedText);
  LAYOUT_TRY_ASSIGN(access, smem::sharedAccessFromText(accessText, spec, shape, elemBits));
  if (std::string e = bankColorByError(opt.colorBy, &access.access); !e.empty())
    return layout::makeError("colorBy: " + e);
  LAYOUT_TRY_ASSIGN(ins, parseInstruction(instruction));
  LAYOUT_TRY_ASSIGN(current, smem::analyzeBanks(access, ins));

  BankViewResult res;
  res.current = std::move(current);
  smem::SharedAccess swizzledAccess;
  if (opt.synthesize) {
    // The access is both sides of the request: the swizzle serves it with this instruction.
    smem::SwizzleRequest req{access.access, access.access, elemBits, ins, ins, false};
    auto syn = smem::synthesizeSwizzle(req);
    if (!syn) {
      res.swizzleNote = "no synthesized swizzle: " + syn.error().message;
    } else {
      res.swizzledShared = syn->shared;
      res.swizzled = ins.direction == smem::AccessDirection::Write ? syn->store : syn->load;
      res.swizzleNote = syn->explanation.empty() ? "" : syn->explanation.front();
      swizzledAccess = {access.access, syn->shared, elemBits, {}};
    }
  }
  res.heatMax = std::max({1, res.current.maxWays(), res.swizzled ? res.swizzled->maxWays() : 1});

  const int maxPhases = std::max(1, opt.maxPhases);
  const int elemBytes = std::max(1, elemBits / 8);
  // Every access of the tile; the drawn one, the worst unless one is picked.
  const std::optional<Tile> tile = tileOf(access, elemBytes);
  const AccessSet accesses = listAccesses(access, res.current, tile ? &*tile : nullptr);
  res.accesses = accesses.list;
  res.accessNote = accesses.note;
  res.worstFirst = worstFirst(res.accesses);
  res.shownAccess = opt.access >= 0 && size_t(opt.access) < res.accesses.size()
                        ? opt.access
                        : res.worstFirst.front();
  smem::BankReport shown = res.current;
  if (res.shownAccess != 0) {
    auto rep = accessReport(accesses, size_t(res.shownAccess), *tile, res.current);
    if (!rep) return layout::withContext(rep.error(), "access " + std::to_string(res.shownAccess));
    shown.phases = std::move(rep->phases);
  }
  // The synthesized layout's tables for the same access.
  std::optional<Tile> swizzledTile;
  std::optional<smem::BankReport> swizzledShown = res.swizzled;
  if (res.swizzled && res.shownAccess != 0) {
    swizzledTile = tileOf(swizzledAccess, elemBytes);
    const AccessSet other =
        listAccesses(swizzledAccess, *res.swizzled, swizzledTile ? &*swizzledTile : nullptr);
    if (size_t(res.shownAccess) < other.base.size()) {
      auto rep = accessReport(other, size_t(res.shownAccess), *swizzledTile, *res.swizzled);
      if (!rep) return layout::withContext(rep.error(), "synthesized swizzle");
      swizzledShown->phases = std::move(rep->phases);
    } else {
      res.swizzleNote += (res.swizzleNote.empty() ? "" : "; ") +
                         std::string("its tables are of the first issue (") + other.note + ")";
    }
  } else if (res.swizzled) {
    swizzledTile = tileOf(swizzledAccess, elemBytes);
  }

  const OffsetElements given{tile ? &*tile : nullptr};
  const OffsetElements synthesized{swizzledTile ? &*swizzledTile : nullptr};
  std::vector<PhaseCells> left = sideCells(shown, maxPhases, given), right;
  if (swizzledShown) right = sideCells(*swizzledShown, maxPhases, synthesized);
  size_t longest = 2; // the bank numbers of the column headers
  for (const auto* side : {&left, &right})
    for (const PhaseCells& pc : *side)
      for (const std::string& l : pc.labels) longest = std::max(longest, l.size());
  const float cellW = opt.cellSize > 0 ? opt.cellSize : std::max(24.f, 7.f * longest + 8);

  Scene& s = res.scene;
  // The synthesized side is stacked under the given one: the same banks line up column for
  // column, and the page stays one heat map wide.
  const float leftX = kLeft, rightX = kLeft;
  const smem::BankReport& r = res.current;
  s.texts.push_back({leftX, 40,
                     ins.name + " (" + std::to_string(ins.banks) + " banks x " +
                         std::to_string(ins.bankBytes) + " B), " + std::to_string(elemBits) +
                         "-bit elements, " + std::to_string(r.vectorElements) + " per lane, " +
                         std::to_string(r.warps) + " warps x " + std::to_string(r.accessesPerWarp) +
                         " accesses",
                     palette::kText, kHeaderSize});
  s.texts.push_back({leftX, 64, sideTitle(sharedName(sharedText), r), palette::kText, kHeaderSize});
  s.texts.push_back({leftX, 88, accessLine(res), palette::kText, kNoteSize});
  s.texts.push_back({leftX, 108,
                     "rows: wavefronts; a cell: the lanes on that word (5+3: lane 5 and 3 more)",
                     palette::kText, kNoteSize});
  drawLegend(s, leftX, 12, res.heatMax); // the legend first: the canvas pins it above the scene
  float y = drawSide(s, shown, left, "", leftX, 132, cellW, res.heatMax, maxPhases, res.elements) +
            kSideGap / 2;
  if (res.swizzled) {
    s.texts.push_back(
        {rightX, y, sideTitle("synthesized swizzle", *res.swizzled), palette::kText, kHeaderSize});
    y += 26;
    if (res.swizzledShared) {
      auto text = layout::triton::linearEncodingOf(*res.swizzledShared);
      res.swizzledText = text ? text->text() : "";
      s.texts.push_back({rightX, y, text ? text->text() : "(" + text.error().message + ")",
                         palette::kText, kNoteSize});
      y += 22;
    }
  }
  if (!res.swizzleNote.empty()) {
    s.texts.push_back({rightX, y, res.swizzleNote, palette::kText, kNoteSize});
    y += 22;
  }
  if (swizzledShown)
    y = drawSide(s, *swizzledShown, right, "swizzled.", rightX, y + 8, cellW, res.heatMax,
                 maxPhases, res.elements);
  // The shared layout over the tensor under the heat maps, coloured as asked; a clicked bank cell
  // highlights its elements here.
  if (auto map = TensorMap::build(access.access)) {
    ViewOptions vopt;
    vopt.colorBy =
        opt.colorBy.empty() || isBankColoring(opt.colorBy) ? defaultColorBy(*map) : opt.colorBy;
    res.colorBy = opt.colorBy.empty() ? vopt.colorBy : opt.colorBy;
    CellGrid t = tensorGrid(*map, vopt, "banks.tensor");
    std::string title = "the shared layout over the tensor, coloured by " + res.colorBy;
    if (tile) colourShared(t, res.colorBy, *tile, accesses, res.shownAccess, res.current);
    if (isBankColoring(res.colorBy) && tile) {
      title += res.colorBy == "bank" ? " (of the element's first byte)"
               : res.colorBy == "phase"
                   ? " (of the access that moves the element)"
                   : " (the slot of the bank line its lane's " + std::to_string(accesses.runBytes) +
                         "-byte vector fills)";
    } else if (isBankColoring(res.colorBy)) {
      title += ": the tile is too large to colour";
    }
    s.texts.push_back({leftX, y + 16, title, palette::kText, kTitleSize});
    s.texts.push_back({leftX, y + 40,
                       "outlined: the elements the drawn access moves; click a bank cell to "
                       "highlight the elements on its word",
                       palette::kText, kNoteSize});
    t.x = leftX;
    t.y = y + 40 + 44;
    s.grids.push_back(std::move(t));
  }
  s.fitBounds();
  return res;
}

} // namespace layout::views
