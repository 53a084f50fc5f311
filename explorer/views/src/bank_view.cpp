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
#include <map>
#include <utility>

namespace layout::views {

namespace {

namespace smem = layout::smem;

constexpr float kCellH = 22;
constexpr float kLeft = 64;       // room for the row headers
constexpr float kSideGap = 96;    // between the two heat maps
constexpr float kPhaseTitle = 36; // phase title plus column headers above a grid
constexpr float kPhaseGap = 20;

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

// The tensor cell (row-major over the out-dims) of the element offsets lanes read on a word,
// through a shared layout (offset[, block] -> dims); none for a padded buffer, whose offsets are
// not plain addresses.
struct OffsetElements {
  const layout::LinearLayout* shared = nullptr;
  int elemBytes = 2;

  std::vector<uint64_t> cellsOfWord(uint64_t word, uint64_t bankBytes,
                                    const std::vector<std::pair<uint64_t, uint64_t>>& read) const {
    std::vector<uint64_t> cells;
    const int offsetDim = shared ? shared->inDimIndex(layout::dims::offset()) : -1;
    if (offsetDim < 0) return cells;
    const uint64_t step = uint64_t(elemBytes);
    for (uint64_t byte = word * bankBytes; byte < (word + 1) * bankBytes; byte += step) {
      bool touched = false;
      for (const auto& [first, last] : read) touched = touched || (byte >= first && byte <= last);
      if (!touched || byte / step >= shared->inDimSize(offsetDim)) continue;
      std::vector<uint64_t> in(size_t(shared->numInDims()), 0), out(size_t(shared->numOutDims()));
      in[size_t(offsetDim)] = byte / step;
      shared->apply(in, out);
      uint64_t cell = 0;
      for (int o = 0; o < shared->numOutDims(); ++o)
        cell = cell * shared->outDimSize(o) + out[size_t(o)];
      cells.push_back(cell);
    }
    return cells;
  }
};

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
                       palette::kText, 13});
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
                       palette::kText, 13});
    y += 20;
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
  // In the scene's legend (the canvas keeps it at its size in the corner); each entry advances by
  // its text's width (12 px monospaced: 7.2 px a character) so none overlaps the next.
  auto entry = [&](Rgba fill, Rgba stroke, float strokeWidth, const std::string& text) {
    s.legendRects.push_back({x, y, 18, 18, fill, stroke, strokeWidth});
    s.legendTexts.push_back({x + 22, y + 2, text, palette::kText, 12});
    x += 22 + 7.2f * float(text.size()) + 18;
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
  entry(Rgba{0, 0, 0, 0}, palette::kConflict, 2, "bank serves several words (conflict)");
  s.legendTexts.push_back({x, y + 2,
                           "rows: wavefronts; cell: lanes on that word (5+3: lane 5 and 3 more)",
                           palette::kText, 12});
}

} // namespace

layout::Expected<BankViewResult> bankView(std::string_view accessText, std::string_view sharedText,
                                          std::span<const int64_t> shape, int elemBits,
                                          std::string_view instruction,
                                          const BankViewOptions& opt) {
  smem::SharedSpec spec;
  spec.text = std::string(sharedText);
  LAYOUT_TRY_ASSIGN(access, smem::sharedAccessFromText(accessText, spec, shape, elemBits));
  LAYOUT_TRY_ASSIGN(ins, parseInstruction(instruction));
  LAYOUT_TRY_ASSIGN(current, smem::analyzeBanks(access, ins));

  BankViewResult res;
  res.current = std::move(current);
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
    }
  }
  res.heatMax = std::max({1, res.current.maxWays(), res.swizzled ? res.swizzled->maxWays() : 1});

  const int maxPhases = std::max(1, opt.maxPhases);
  const int elemBytes = std::max(1, elemBits / 8);
  const OffsetElements given{access.paddedAddress ? nullptr : &access.shared, elemBytes};
  const OffsetElements synthesized{res.swizzledShared ? &*res.swizzledShared : nullptr, elemBytes};
  std::vector<PhaseCells> left = sideCells(res.current, maxPhases, given), right;
  if (res.swizzled) right = sideCells(*res.swizzled, maxPhases, synthesized);
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
  s.texts.push_back({leftX, 44,
                     ins.name + " (" + std::to_string(ins.banks) + " banks x " +
                         std::to_string(ins.bankBytes) + " B), " + std::to_string(elemBits) +
                         "-bit elements, " + std::to_string(r.vectorElements) + " per lane, " +
                         std::to_string(r.warps) + " warps x " + std::to_string(r.accessesPerWarp) +
                         " accesses",
                     palette::kText, 14});
  s.texts.push_back({leftX, 68, sideTitle(sharedName(sharedText), r), palette::kText, 15});
  drawLegend(s, leftX, 12, res.heatMax); // the legend first: the canvas pins it above the scene
  float y = drawSide(s, r, left, "", leftX, 100, cellW, res.heatMax, maxPhases, res.elements) +
            kSideGap / 2;
  if (res.swizzled) {
    s.texts.push_back(
        {rightX, y, sideTitle("synthesized swizzle", *res.swizzled), palette::kText, 15});
    y += 24;
    if (res.swizzledShared) {
      auto text = layout::triton::linearEncodingOf(*res.swizzledShared);
      res.swizzledText = text ? text->text() : "";
      s.texts.push_back(
          {rightX, y, text ? text->text() : "(" + text.error().message + ")", palette::kText, 12});
      y += 20;
    }
  }
  if (!res.swizzleNote.empty()) {
    s.texts.push_back({rightX, y, res.swizzleNote, palette::kText, 12});
    y += 20;
  }
  if (res.swizzled)
    y = drawSide(s, *res.swizzled, right, "swizzled.", rightX, y + 8, cellW, res.heatMax, maxPhases,
                 res.elements);
  // The accessed tensor under the heat maps: a clicked bank cell highlights its elements here.
  if (auto map = TensorMap::build(access.access)) {
    ViewOptions opt;
    opt.colorBy = defaultColorBy(*map);
    CellGrid t = tensorGrid(*map, opt, "banks.tensor");
    s.texts.push_back({leftX, y + 16,
                       "the tensor: click a bank cell to highlight the elements on its word",
                       palette::kText, 13});
    t.x = leftX;
    t.y = y + 16 + 40;
    s.grids.push_back(std::move(t));
  }
  s.fitBounds();
  return res;
}

} // namespace layout::views
