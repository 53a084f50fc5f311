// Selection in the operands view: a scripted click on an accumulator cell selects the threads
// that hold C(row, col) and highlights the cells of A's row and B's column that those same
// threads hold. Checked against the library's own layouts of the dot operands, applied here.
#include "explorer_gui_fixture.h"

namespace {

// This file's suite: the shared fixture (explorer_gui_fixture.h) under its own name.
class ExplorerGuiOperands : public ExplorerGui {};

constexpr const char* kMmaV2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                               "warpsPerCTA = [2, 2], instrShape = [16, 8]}>";

using Thread = std::array<uint64_t, 3>; // lane, warp, block
using Cell = std::pair<uint64_t, uint64_t>;

std::string dotOperand(int opIdx) {
  return "#ttg.dot_op<{opIdx = " + std::to_string(opIdx) + ", parent = " + kMmaV2 +
         ", kWidth = 2}>";
}

// The cells of `o` that any of `threads` holds and that `wanted` keeps.
template <typename Keep>
std::set<Cell> cellsHeld(const Oracle& o, const std::set<Thread>& threads, Keep wanted) {
  std::set<Cell> cells;
  for (const auto& in : o.allInputs())
    if (threads.count({in.lane, in.warp, in.block})) {
      const Cell c = o.apply(in);
      if (wanted(c)) cells.insert(c);
    }
  return cells;
}

std::set<Cell> cellsOf(const json& list) {
  std::set<Cell> cells;
  for (const json& e : list) cells.insert({e[0].get<uint64_t>(), e[1].get<uint64_t>()});
  return cells;
}

// MMA v2 (2 x 2 warps) at 64x64 with K = 32 (f16 operands, kWidth 2): each clicked C element's
// owner threads, and their cells of A's row and B's column, are what the dot operand layouts
// say (the owner's warp only: A is copied across the N warps, B across the M warps); the grids
// highlight exactly those; a second click on the same cell clears it all.
TEST_F(ExplorerGuiOperands, ClickOnCSelectsItsThreadsOperandCells) {
  const std::vector<std::pair<int, int>> clicks = {{0, 0},   {5, 9},  {13, 21},
                                                   {17, 42}, {40, 7}, {63, 63}};
  const Oracle c = Oracle::make(kMmaV2, 64, 64), a = Oracle::make(dotOperand(0), 64, 32),
               b = Oracle::make(dotOperand(1), 32, 64);
  std::string script = "wait 2\n";
  for (const auto& [r, col] : clicks) {
    const std::string at = std::to_string(r) + " " + std::to_string(col);
    script += "click-cell mma.C " + at + "\nwait 1\nreport pick_" + std::to_string(r) + "_" +
              std::to_string(col) + ".json\n";
  }
  script += "click-cell mma.C 63 63\nwait 1\nreport cleared.json\n";
  writeFile(path("script.txt"), script);
  RunResult result = run({"--layout", kMmaV2, "--shape", "64x64", "--view", "operands", "--k", "32",
                          "--script", "script.txt"});
  ASSERT_EQ(result.status, 0) << describe(result);

  const auto cOwners = c.owners();
  for (const auto& click : clicks) {
    const int r = click.first, col = click.second; // clang 14: lambdas cannot capture bindings
    SCOPED_TRACE("C(" + std::to_string(r) + ", " + std::to_string(col) + ")");
    const json j = readJson("pick_" + std::to_string(r) + "_" + std::to_string(col) + ".json");
    const json& p = j["operandsPick"];
    ASSERT_TRUE(p.is_object()) << j.dump();
    EXPECT_EQ(p["row"], r);
    EXPECT_EQ(p["col"], col);
    std::set<Thread> want;
    for (const auto& in : cOwners.at({uint64_t(r), uint64_t(col)}))
      want.insert({in.lane, in.warp, in.block});
    std::set<Thread> got;
    for (const json& t : p["threads"])
      got.insert(
          {t["lane"].get<uint64_t>(), t["warp"].get<uint64_t>(), t["block"].get<uint64_t>()});
    EXPECT_EQ(got, want);
    ASSERT_TRUE(j["selected"].is_object());
    EXPECT_EQ(j["selected"]["grid"], "mma.C");
    EXPECT_TRUE(
        want.count({j["selected"]["lane"].get<uint64_t>(), j["selected"]["warp"].get<uint64_t>(),
                    j["selected"]["block"].get<uint64_t>()}));

    const auto aWant = cellsHeld(a, want, [&](const Cell& e) { return e.first == uint64_t(r); });
    const auto bWant = cellsHeld(b, want, [&](const Cell& e) { return e.second == uint64_t(col); });
    const auto cWant = cellsHeld(c, want, [](const Cell&) { return true; });
    // mma.sync's fragments: the owner of C(r, c) is lane 4 * (r % 8) + (c % 8) / 2, which holds
    // 8 of A's row r (2 of each 8 k) but B's column lane / 4 only: its own column c just when
    // r % 8 == c % 8. The rest of the dot product comes from the other lanes of its quad.
    EXPECT_EQ(aWant.size(), 8u);
    EXPECT_EQ(bWant.size(), r % 8 == col % 8 ? 8u : 0u);
    EXPECT_EQ(cellsOf(p["aElements"]), aWant);
    EXPECT_EQ(cellsOf(p["bElements"]), bWant);
    EXPECT_EQ(p["aCells"], aWant.size());
    EXPECT_EQ(p["bCells"], bWant.size());
    EXPECT_EQ(p["cCells"], cWant.size());
    // The grids highlight just those cells (the others dimmed).
    EXPECT_EQ(j["grids"]["mma.A"]["highlighted"], aWant.size());
    EXPECT_EQ(j["grids"]["mma.B"]["highlighted"], bWant.size());
    EXPECT_EQ(j["grids"]["mma.C"]["highlighted"], cWant.size());
  }

  const json cleared = readJson("cleared.json");
  EXPECT_TRUE(cleared["operandsPick"].is_null()) << cleared["operandsPick"];
  EXPECT_TRUE(cleared["selected"].is_null()) << cleared["selected"];
  for (const char* g : {"mma.A", "mma.B", "mma.C"})
    EXPECT_EQ(cleared["grids"][g]["highlighted"], 0);
}

} // namespace
