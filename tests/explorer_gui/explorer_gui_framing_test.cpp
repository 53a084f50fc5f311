// First sight (issue 34): a view opens with every grid on the canvas, and each grid's visible
// cells are labelled all or none. The visible cells are counted here from the report's grid
// rectangles, rows and columns and its canvas rectangle, and which cells carry a label from the
// SVG the same run writes (the view's own labels, whatever the zoom).
#include "explorer_gui_fixture.h"

namespace {

constexpr const char* kMmaV2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                               "warpsPerCTA = [2, 2], instrShape = [16, 8]}>";
constexpr const char* kBlocked4Warps = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = "
                                       "[8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>";

// Per grid of an SVG, the (row, col) of every cell drawn with a <text> label; grids written as
// one image (past 16,384 cells) have no entry.
std::map<std::string, std::set<std::pair<int, int>>> labelledCells(const std::string& svg) {
  std::map<std::string, std::set<std::pair<int, int>>> cells;
  auto attr = [&](size_t from, size_t to, const std::string& name) -> std::string {
    const std::string key = name + "=\"";
    const size_t at = svg.find(key, from);
    if (at == std::string::npos || at > to) return "";
    const size_t begin = at + key.size();
    return svg.substr(begin, svg.find('"', begin) - begin);
  };
  const std::string open = "<g class=\"cell\"";
  for (size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1)) {
    const size_t tagEnd = svg.find('>', at), close = svg.find("</g>", at);
    if (tagEnd == std::string::npos || close == std::string::npos) break;
    const std::string grid = attr(at, tagEnd, "data-grid");
    auto& set = cells[grid]; // present even when no cell of the grid has a label
    const size_t text = svg.find("<text", tagEnd);
    if (text != std::string::npos && text < close)
      set.insert(
          {std::stoi(attr(at, tagEnd, "data-row")), std::stoi(attr(at, tagEnd, "data-col"))});
  }
  return cells;
}

struct VisibleCells {
  int whole = 0;   // labelled cells more than a pixel inside the canvas each way
  int touched = 0; // labelled cells with any part inside it
};

// The labelled cells of a grid (its screen rectangle, rows x cols) that the canvas shows.
VisibleCells visibleLabelledCells(const json& grid, const std::vector<double>& canvas,
                                  const std::set<std::pair<int, int>>* labelled) {
  const auto screen = grid["screen"].get<std::vector<double>>();
  const int rows = grid["rows"].get<int>(), cols = grid["cols"].get<int>();
  const double cw = (screen[2] - screen[0]) / cols, ch = (screen[3] - screen[1]) / rows;
  VisibleCells v;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      if (labelled && !labelled->count({r, c})) continue;
      const double x0 = screen[0] + c * cw, y0 = screen[1] + r * ch;
      const double ox = std::min(x0 + cw, canvas[2]) - std::max(x0, canvas[0]);
      const double oy = std::min(y0 + ch, canvas[3]) - std::max(y0, canvas[1]);
      v.whole += ox > 1 && oy > 1;
      v.touched += ox > 0 && oy > 0;
    }
  return v;
}

class ExplorerGuiFraming : public ExplorerGui {
protected:
  // Opens a view at the default window size and checks its first frame; returns the report.
  json expectFramed(const std::string& what, std::vector<std::string> args) {
    for (const char* a :
         {"--frames", "3", "--screenshot", "s.png", "--svg", "s.svg", "--report", "r.json"})
      args.push_back(a);
    RunResult r = run(args);
    EXPECT_EQ(r.status, 0) << what << ": " << describe(r);
    if (r.status != 0) return json();
    json j = readJson("r.json");
    EXPECT_EQ(j["error"], "") << what;
    const auto canvas = j["canvas"].get<std::vector<double>>();
    const auto labelled = labelledCells(readFile(path("s.svg")));
    EXPECT_FALSE(j["grids"].empty()) << what;
    for (auto& [id, grid] : j["grids"].items()) {
      const std::string where = what + ", grid " + id + ": " + grid.dump();
      const auto v = grid["visible"].get<std::vector<double>>();
      // On the canvas: a non-empty rectangle inside it.
      EXPECT_GE(v[2] - v[0], 1) << where;
      EXPECT_GE(v[3] - v[1], 1) << where;
      EXPECT_GE(v[0], canvas[0] - 0.5) << where;
      EXPECT_GE(v[1], canvas[1] - 0.5) << where;
      EXPECT_LE(v[2], canvas[2] + 0.5) << where;
      EXPECT_LE(v[3], canvas[3] + 0.5) << where;
      // Labelled whole or not at all.
      auto it = labelled.find(id);
      const VisibleCells cells =
          visibleLabelledCells(grid, canvas, it == labelled.end() ? nullptr : &it->second);
      const int labels = grid["labels"].get<int>();
      if (labels != 0) {
        EXPECT_GE(labels, cells.whole) << where << " labels stop short of the visible cells";
        EXPECT_LE(labels, cells.touched) << where;
      } else if (cells.whole > 0) {
        // None drawn where some would show: the canvas says to zoom in.
        EXPECT_TRUE(grid["labelsHidden"].get<bool>()) << where;
        EXPECT_NE(j["labelHint"], "") << where;
      }
    }
    return j;
  }
};

// The three cases: the operands of an MMA v2 128x128 with K = 64 (it opened on an empty
// quadrant), the conversion of that #mma to a #blocked at 64x64 (its destination opened off
// screen) and the seed bank example (labels stopped at bank lane 27).
TEST_F(ExplorerGuiFraming, MultiGridViewsOpenOnEveryGrid) {
  json ops = expectFramed(
      "operands", {"--layout", kMmaV2, "--shape", "128x128", "--k", "64", "--view", "operands"});
  EXPECT_EQ(ops["grids"].size(), 3u) << ops["grids"].dump();
  json convert = expectFramed("convert", {"--layout", kMmaV2, "--layout-b", kBlocked4Warps,
                                          "--shape", "64x64", "--view", "convert"});
  EXPECT_TRUE(convert["grids"].contains("convert.dst")) << convert["grids"].dump();
  json banks = expectFramed("banks", {"--example", "mfma-bank-conflicts"});
  EXPECT_TRUE(banks["grids"].contains("banks.tensor")) << banks["grids"].dump();
  // Framed on all of them: each grid lies inside the canvas whole.
  for (const json* j : {&ops, &convert, &banks}) {
    if (j->is_null()) continue;
    const auto canvas = (*j)["canvas"].get<std::vector<double>>();
    for (auto& [id, grid] : (*j)["grids"].items()) {
      const auto s = grid["screen"].get<std::vector<double>>();
      EXPECT_TRUE(s[0] >= canvas[0] - 1 && s[1] >= canvas[1] - 1 && s[2] <= canvas[2] + 1 &&
                  s[3] <= canvas[3] + 1)
          << id << " " << grid.dump();
    }
  }
}

// Every built-in example at the default window size. The small ones open labelled: a tensor at
// the smallest zoom where its labels read, and views whose grids all fit there.
TEST_F(ExplorerGuiFraming, EveryExampleOpensFramedAndLabelledWhole) {
  const std::pair<const char*, bool> examples[] = {
      {"blocked", true},           {"mma-v2-operands", false},     {"wgmma-accumulator", true},
      {"dpas-operands", true},     {"mfma-bank-conflicts", false}, {"xegpu-subgroups", true},
      {"convert-shuffles", false}, {"swizzled-shared", true}};
  for (auto [name, labelled] : examples) {
    json j = expectFramed(name, {"--example", name});
    if (j.is_null()) continue;
    int labels = 0;
    for (auto& [id, grid] : j["grids"].items()) labels += grid["labels"].get<int>();
    if (labelled) {
      EXPECT_GT(labels, 0) << name << ": " << j["grids"].dump();
      EXPECT_GE(j["labelPx"].get<double>(), 11) << name;
      EXPECT_EQ(j["labelHint"], "") << name;
    }
  }
}

// Labels stay whole while zooming out: a budget that once ran out at row 20 of a tensor now
// labels every visible cell or none, the hint saying which; F frames every grid of the hardware
// view.
TEST_F(ExplorerGuiFraming, ZoomingOutKeepsLabelsWhole) {
  // Five steps out from the start zoom, a report after each.
  std::string script = "move 900 450\nwait 2\n";
  for (int i = 1; i <= 5; ++i)
    script += "scroll 900 450 -1\nwait 2\nreport out" + std::to_string(i) + ".json\n";
  writeFile(path("zoom.txt"), script);
  RunResult r = run({"--layout", kBlocked4Warps, "--shape", "64x64", "--script", "zoom.txt"});
  ASSERT_EQ(r.status, 0) << describe(r);
  bool sawLabels = false, sawHint = false;
  for (int i = 1; i <= 5; ++i) {
    const std::string name = "out" + std::to_string(i) + ".json";
    json j = readJson(name);
    const auto canvas = j["canvas"].get<std::vector<double>>();
    const json& g = j["grids"]["tensor"];
    const VisibleCells cells = visibleLabelledCells(g, canvas, nullptr);
    const int labels = g["labels"].get<int>();
    if (labels > 0) {
      sawLabels = true;
      EXPECT_GE(labels, cells.whole) << name << ": " << g.dump();
      EXPECT_LE(labels, cells.touched) << name << ": " << g.dump();
    } else {
      sawHint = true;
      EXPECT_TRUE(g["labelsHidden"].get<bool>()) << name;
      EXPECT_NE(j["labelHint"], "") << name;
    }
  }
  EXPECT_TRUE(sawLabels);
  EXPECT_TRUE(sawHint) << "five steps out, a 64x64 tensor's labels should not fit the budget";

  writeFile(path("fit.txt"), "move 900 450\nwait 2\nkey F\nwait 2\nreport fit.json\n");
  r = run({"--layout", kBlocked4Warps, "--shape", "64x64", "--view", "hw", "--zoom", "1",
           "--script", "fit.txt"});
  ASSERT_EQ(r.status, 0) << describe(r);
  json j = readJson("fit.json");
  const auto canvas = j["canvas"].get<std::vector<double>>();
  EXPECT_EQ(j["grids"].size(), 4u);
  for (auto& [id, grid] : j["grids"].items()) {
    const auto s = grid["screen"].get<std::vector<double>>();
    EXPECT_TRUE(s[0] >= canvas[0] - 1 && s[1] >= canvas[1] - 1 && s[2] <= canvas[2] + 1 &&
                s[3] <= canvas[3] + 1)
        << id << " " << grid.dump();
  }
}

// The wgmma operand view has no B grid: its note takes B's place instead of C's title's, and
// both are drawn (the SVG's texts, at the scene's own positions).
TEST_F(ExplorerGuiFraming, WgmmaNoteDoesNotCoverTheCTitle) {
  RunResult r = run({"--layout",
                     "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                     "instrShape = [16, 64, 16]}>",
                     "--shape", "64x64", "--view", "operands", "--svg", "w.svg"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const std::string svg = readFile(path("w.svg"));
  // x, y (baseline) and size of the text whose content starts with `prefix`.
  auto textBox = [&](const std::string& prefix) -> std::array<double, 3> {
    const size_t content = svg.find(">" + prefix);
    const size_t tag = content == std::string::npos ? content : svg.rfind("<text ", content);
    if (tag == std::string::npos) return {-1, -1, -1};
    auto number = [&](const std::string& name) {
      const size_t at = svg.find(name + "=\"", tag);
      return at < content ? std::stod(svg.substr(at + name.size() + 2)) : -1.0;
    };
    return {number("x"), number("y"), number("font-size")};
  };
  const auto note = textBox("B: wgmma"), title = textBox("C 64x64");
  ASSERT_GE(note[0], 0) << "no wgmma note in the SVG";
  ASSERT_GE(title[0], 0) << "no C title in the SVG";
  // One line apart at least: the note's baseline is above the title's text.
  EXPECT_LE(note[1], title[1] - title[2]) << "note at y " << note[1] << ", title at y " << title[1];
}

} // namespace
