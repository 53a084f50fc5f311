// Issue 34, the banks view: the shared layout coloured by bank (--color-by bank), the access
// picker's default (the access with the most wavefronts) and an unknown colouring refused. The
// banks come from liblayout's bank model and the shared layout as the library reads it
// (smem::sharedAccessFromText); each access's wavefronts from smem::analyzeByteAddresses over
// addresses computed here.
#include "layout/smem/bank_analysis.h"
#include "layout/smem/bank_model.h"
#include "layout/smem/shared_operands.h"

#include "explorer_gui_fixture.h"

namespace {

// This file's suite: the shared fixture (explorer_gui_fixture.h) under its own name.
class ExplorerGuiBanks : public ExplorerGui {};

// The app's default shared layout (ExplorerInputs): row-major.
constexpr const char* kRowMajor =
    "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>";

struct SvgCell {
  std::string fill, label;
};

// The cells of one grid of an SVG export, by (row, col).
std::map<std::pair<int, int>, SvgCell> svgCells(const std::string& svg, const std::string& grid) {
  std::map<std::pair<int, int>, SvgCell> cells;
  const std::regex cell(
      "<g class=\"cell\" data-grid=\"" + std::regex_replace(grid, std::regex(R"(\.)"), R"(\.)") +
      R"re(" data-row="(\d+)" data-col="(\d+)"[^>]*><rect [^>]*fill="(#[0-9a-f]{6})"[^>]*/>(?:<text [^>]*>([^<]*)</text>)?)re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), cell); it != std::sregex_iterator();
       ++it)
    cells[{std::stoi((*it)[1]), std::stoi((*it)[2])}] = {(*it)[3], (*it)[4]};
  return cells;
}

std::string hexOf(const std::array<uint8_t, 3>& c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
  return buf;
}

// The seed bank example coloured by bank: in the SVG every cell of the shared grid is labelled
// with the bank of its element (row-major offset -> byte address -> (address / 4) % 64, the
// library's cdna4.ds_read_b128 model) and each bank has one fill, a different one per bank; the
// window draws those fills.
TEST_F(ExplorerGuiBanks, ColourByBankGivesOneColourPerBank) {
  RunResult r = run({"--example", "mfma-bank-conflicts", "--color-by", "bank", "--svg", "s.svg",
                     "--screenshot", "s.png", "--report", "r.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  json report = readJson("r.json");
  ASSERT_EQ(report["view"], "banks");
  // The access layout as the app shows it (layout JSON), read back by the library with the
  // app's shared layout.
  const std::string accessJson = report["exports"]["json"];
  auto access = layout::smem::sharedAccessFromText(accessJson, {kRowMajor, 0, 1}, {}, 16);
  ASSERT_TRUE(access.ok()) << access.error().message;
  auto ins = layout::smem::bankInstruction("cdna4.ds_read_b128");
  ASSERT_TRUE(ins.ok());
  const layout::LinearLayout& shared = access->shared;
  std::map<std::pair<int, int>, int> bankOf;
  for (uint64_t o = 0; o < shared.inDimSize(layout::dims::offset()); ++o) {
    std::vector<uint64_t> in(size_t(shared.numInDims()), 0), out(2);
    in[size_t(shared.inDimIndex(layout::dims::offset()))] = o;
    shared.apply(in, out);
    const uint64_t byte = o * 2;
    bankOf[{int(out[0]), int(out[1])}] =
        int(byte / uint64_t(ins->bankBytes) % uint64_t(ins->banks));
  }
  ASSERT_EQ(bankOf.size(), 32u * 64u);

  const auto cells = svgCells(readFile(path("s.svg")), "banks.tensor");
  ASSERT_EQ(cells.size(), 32u * 64u);
  std::map<int, std::set<std::string>> fillsOfBank;
  for (const auto& [rc, cell] : cells) {
    EXPECT_EQ(cell.label, std::to_string(bankOf.at(rc))) << rc.first << ", " << rc.second;
    fillsOfBank[bankOf.at(rc)].insert(cell.fill);
  }
  ASSERT_EQ(fillsOfBank.size(), 64u);
  std::set<std::string> fills;
  for (const auto& [bank, f] : fillsOfBank) {
    EXPECT_EQ(f.size(), 1u) << "bank " << bank << " has " << f.size() << " fills";
    fills.insert(*f.begin());
  }
  EXPECT_EQ(fills.size(), 64u) << "two banks share a fill";

  // The window: each cell's centre pixel is its SVG fill (a label glyph may cover a few).
  const json g = report["grids"]["banks.tensor"];
  ASSERT_TRUE(g.contains("visible")) << g.dump();
  const auto screen = g["screen"].get<std::vector<double>>();
  const auto seen = g["visible"].get<std::vector<double>>();
  const double cw = (screen[2] - screen[0]) / 64, ch = (screen[3] - screen[1]) / 32;
  expectNotBlank(path("s.png"), 1400, 900);
  Image img = loadPng(path("s.png"));
  int checked = 0, same = 0;
  for (const auto& [rc, cell] : cells) {
    const double x = screen[0] + (rc.second + 0.5) * cw, y = screen[1] + (rc.first + 0.5) * ch;
    if (x < seen[0] || x >= seen[2] || y < seen[1] || y >= seen[3]) continue;
    ++checked;
    same += hexOf(img.rgb(int(x), int(y))) == cell.fill;
  }
  EXPECT_GT(checked, 500) << "the shared grid is on screen";
  EXPECT_GE(same, checked * 95 / 100) << same << " of " << checked << " cells drawn in their fill";
}

// The picker's default is the worst access. The seed tile's 16 accesses (8 warps x 2 issues) cost
// the same and add up to the analysis's total; in a padded tile read down columns with 2-byte
// loads, warp 1's accesses cost twice warp 0's, and the first of them is drawn. Each access's
// wavefronts are the library's analysis of the addresses its lanes read, computed here.
TEST_F(ExplorerGuiBanks, PickerDefaultsToTheWorstAccess) {
  RunResult r = run({"--example", "mfma-bank-conflicts", "--svg", "s.svg", "--report", "r.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  json seed = readJson("r.json")["bankAccess"];
  ASSERT_TRUE(seed.is_object()) << seed.dump();
  EXPECT_EQ(seed["count"], 16);
  EXPECT_EQ(seed["index"], 0);
  EXPECT_EQ(seed["worst"], 0);
  EXPECT_EQ(seed["picked"], false);
  uint64_t total = 0;
  for (const auto& w : seed["wavefrontsByAccess"]) total += w.get<uint64_t>();
  EXPECT_EQ(total, 256u) << "the notes' 'as given: 256 wavefronts'";
  EXPECT_EQ(seed["wavefronts"], 16);

  const std::string text = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], "
                           "warpsPerCTA = [1, 2], order = [1, 0]}>";
  const std::string shared = "#ttg.padded_shared<[32:+1] {order = [1, 0], shape = [32, 32]}>";
  writeFile(path("access.txt"), text);
  r = run({"--layout", "@access.txt", "--shape", "32x32", "--view", "banks", "--shared", shared,
           "--instruction", "nvidia.ld.b16", "--svg", "p.svg", "--report", "p.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  json report = readJson("p.json");
  json picked = report["bankAccess"];
  ASSERT_TRUE(picked.is_object()) << report.dump();

  Oracle oracle = Oracle::make(text, 32, 32);
  int64_t shape[] = {32, 32};
  auto access = layout::smem::sharedAccessFromText(text, {shared, 0, 1}, shape, 16);
  ASSERT_TRUE(access.ok()) << access.error().message;
  ASSERT_TRUE(bool(access->paddedAddress));
  auto ins = layout::smem::bankInstruction("nvidia.ld.b16");
  ASSERT_TRUE(ins.ok());
  // One element a lane per access: access (warp w, issue i) reads register i of every lane.
  const uint64_t regs = oracle.ll.inDimSize(layout::dims::reg()),
                 warps = oracle.ll.inDimSize(layout::dims::warp());
  std::vector<uint64_t> want;
  for (uint64_t w = 0; w < warps; ++w)
    for (uint64_t i = 0; i < regs; ++i) {
      std::vector<layout::smem::LaneAddress> addresses;
      for (int l = 0; l < 32; ++l) {
        const auto [row, col] = oracle.apply({i, uint64_t(l), w, 0});
        addresses.push_back({l, access->paddedAddress(row * 32 + col) * 2});
      }
      auto rep = layout::smem::analyzeByteAddresses(addresses, 2, *ins);
      ASSERT_TRUE(rep.ok()) << rep.error().message;
      want.push_back(rep->wavefronts);
    }
  ASSERT_EQ(picked["wavefrontsByAccess"].get<std::vector<uint64_t>>(), want);
  const auto worst = size_t(std::max_element(want.begin(), want.end()) - want.begin());
  ASSERT_NE(worst, 0u) << "the test needs a worst access that is not the first";
  EXPECT_EQ(picked["index"], worst);
  EXPECT_EQ(picked["worst"], worst);
  EXPECT_EQ(picked["count"], want.size());
  EXPECT_EQ(picked["wavefronts"], want[worst]);
  EXPECT_EQ(picked["warp"], worst / regs);
  EXPECT_EQ(picked["issue"], worst % regs);
  // The heat map draws that access: one phase, as many wavefront rows as it costs.
  EXPECT_EQ(report["grids"]["banks"]["rows"], want[worst]);
  EXPECT_NE(
      readFile(path("p.svg"))
          .find("drawn: access " + std::to_string(worst) + " of " + std::to_string(want.size())),
      std::string::npos);
}

// An unknown --color-by in the banks view is an error that names what it accepts, with or
// without a headless output; bank, phase and vector are accepted, and refused by the tensor view.
TEST_F(ExplorerGuiBanks, UnknownColouringIsAnError) {
  const std::string message = "error: --color-by: 'nonsense' does not colour the banks view; "
                              "colour by one of bank, phase, vector, register, lane, warp";
  for (bool headless : {true, false}) {
    std::vector<std::string> args = {"--example", "mfma-bank-conflicts", "--color-by", "nonsense"};
    if (headless) args.insert(args.end(), {"--svg", "x.svg"});
    RunResult r = run(args);
    EXPECT_EQ(r.status, 1) << describe(r);
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(path("x.svg")));
  }
  for (const char* c : {"phase", "vector", "lane"}) {
    RunResult r = run({"--example", "mfma-bank-conflicts", "--color-by", c, "--svg", "c.svg"});
    EXPECT_EQ(r.status, 0) << c << ": " << describe(r);
  }
  RunResult r = run({"--example", "blocked", "--color-by", "bank", "--svg", "t.svg"});
  EXPECT_EQ(r.status, 1) << describe(r);
  EXPECT_NE(r.err.find("'bank' is not an in-dim of layout A"), std::string::npos) << r.err;
}

} // namespace
