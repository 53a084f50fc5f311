// The block-load view of an XeGPU layout in the app: it opens with its grids on the canvas, colours
// every element by the one subgroup that loads it, hovers name the load, work-item, register and
// GRF byte, --block / --array-length errors exit 1 with the field named, and an xegpu.load_nd row
// of a kernel file opens the view with its descriptor's layout, shape and block. The expectations
// are worked out by hand from the XeGPU distribution rule (comments), not read from the app.
#include "explorer_gui_fixture.h"

namespace {

constexpr const char* kLayoutA = "#xegpu.layout<sg_layout = [4, 2], sg_data = [32, 16], "
                                 "inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>";

// (row, col) -> fill of every cell of `grid` in an SVG the app wrote.
std::map<std::pair<int, int>, std::string> cellFills(const std::string& svg,
                                                     const std::string& grid) {
  static const std::regex cellRe(
      R"re(<g class="cell" data-grid="([^"]*)" data-row="(\d+)" data-col="(\d+)"[^>]*><rect [^>]*fill="([^"]*)")re");
  std::map<std::pair<int, int>, std::string> cells;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), cellRe); it != std::sregex_iterator();
       ++it)
    if ((*it)[1] == grid) cells[{std::stoi((*it)[2]), std::stoi((*it)[3])}] = (*it)[4];
  return cells;
}

bool hasNote(const json& j, const std::string& text) {
  for (const auto& n : j["notes"])
    if (n.get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

class ExplorerGuiXegpuBlockLoad : public ExplorerGui {};

// 128x32 f16 over sg_layout [4, 2], sg_data [32, 16]: subgroup s = 2 * (grid row) + grid col
// (row-major ids) owns the 32x16 tile at (32 * (s / 2), 16 * (s % 2)); inst_data [8, 16] makes it
// 4 loads of 16b_8r16x1c. Work-item 3 (lane_layout [1, 16]) holds column 3 of each 8x16 block of
// subgroup 0: column 3, rows 0..31, 32 elements, 8 16-bit registers per load.
TEST_F(ExplorerGuiXegpuBlockLoad, OpensFramedWithEverySubgroupsLoads) {
  writeFile(path("hover.txt"), "wait 3\nhover-cell operand 77 19\nreport h.json\nsvg b.svg\n");
  RunResult r = run({"--layout", kLayoutA, "--shape", "128x32", "--view", "blockload",
                     "--work-item", "3", "--script", "hover.txt", "--report", "r.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const json j = readJson("r.json");
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(j["view"], "blockload");
  EXPECT_TRUE(hasNote(j, "XeGPU: 4 block load(s) of 16b_8r16x1c per subgroup; block 8x16 from "
                         "inst_data"))
      << j["notes"].dump();
  EXPECT_TRUE(hasNote(j, "8 subgroups; their loads cover every drawn element"))
      << j["notes"].dump();
  const auto canvas = j["canvas"].get<std::vector<double>>();
  ASSERT_TRUE(j["grids"].contains("operand")) << j["grids"].dump();
  ASSERT_TRUE(j["grids"].contains("workitem")) << j["grids"].dump();
  const json& operand = j["grids"]["operand"];
  const json& workitem = j["grids"]["workitem"];
  EXPECT_EQ(operand["rows"], 128);
  EXPECT_EQ(operand["cols"], 32);
  EXPECT_EQ(operand["highlighted"], 32);
  EXPECT_EQ(workitem["rows"], 4); // one row per load of subgroup 0
  EXPECT_EQ(workitem["cols"], 8); // 8 rows of an 8x16 block, one 16-bit register each
  // Both grids on the canvas: a non-empty visible rectangle inside it.
  for (const json* g : {&operand, &workitem}) {
    const auto v = (*g)["visible"].get<std::vector<double>>();
    EXPECT_GE(v[2] - v[0], 1) << g->dump();
    EXPECT_GE(v[3] - v[1], 1) << g->dump();
    EXPECT_GE(v[0], canvas[0] - 0.5) << g->dump();
    EXPECT_GE(v[1], canvas[1] - 0.5) << g->dump();
    EXPECT_LE(v[2], canvas[2] + 0.5) << g->dump();
    EXPECT_LE(v[3], canvas[3] + 0.5) << g->dump();
  }

  // One colour per subgroup, a different one for each: cell (r, c) is subgroup's
  // (r / 32) * 2 + c / 16.
  const auto fills = cellFills(readFile(path("b.svg")), "operand");
  ASSERT_EQ(fills.size(), size_t(128 * 32));
  std::map<int, std::string> fillOf;
  std::set<std::string> distinct;
  for (const auto& [cell, fill] : fills) {
    const int s = (cell.first / 32) * 2 + cell.second / 16;
    EXPECT_EQ(fillOf.emplace(s, fill).first->second, fill) << cell.first << "," << cell.second;
    distinct.insert(fill);
  }
  EXPECT_EQ(distinct.size(), 8u);

  // Element (77, 19): subgroup 5's tile starts at (64, 16); row 13 of it is row 5 of its second
  // load (L1, rows 72..79), column 3, which lane 3 receives (one 16-element row per 16 lanes) as
  // register 5; its GRF image byte is 5 * 32 + 3 * 2 = 166 (32-byte rows), GRF 2 byte 38.
  const json h = readJson("h.json");
  ASSERT_TRUE(h["hovered"].is_object()) << h.dump();
  const std::string details = h["hovered"]["details"];
  EXPECT_NE(details.find("element (77, 19): load L1 (16b_8r16x1c) of subgroup 5"),
            std::string::npos)
      << details;
  EXPECT_NE(details.find("work-item 3, register 5 of L1's result"), std::string::npos) << details;
  EXPECT_NE(details.find("GRF byte 166 of L1's destination (GRF 2, byte 38)"), std::string::npos)
      << details;
}

// --block and --array-length: a given block replaces inst_data, and the exports reopen it.
TEST_F(ExplorerGuiXegpuBlockLoad, BlockOptionSetsTheLoads) {
  // A 16x16 block: 32 / 16 = 2 loads of 16b_16r16x1c per 32x16 tile.
  RunResult r = run({"--layout", kLayoutA, "--shape", "128x32", "--view", "blockload", "--block",
                     "16x16", "--svg", "b.svg", "--report", "r.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  json j = readJson("r.json");
  EXPECT_EQ(j["error"], "");
  EXPECT_TRUE(hasNote(j, "2 block load(s) of 16b_16r16x1c per subgroup; block 16x16 from the "
                         "block field"))
      << j["notes"].dump();
  EXPECT_EQ(j["grids"]["workitem"]["rows"], 2);
  const std::string cmd = j["exports"]["commandLine"];
  EXPECT_NE(cmd.find("--block '16x16'"), std::string::npos) << cmd;
  // The state string carries the block too.
  r = run({"--state", j["exports"]["state"], "--svg", "c.svg", "--report", "s.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(readJson("s.json")["grids"]["workitem"]["rows"], 2);

  // array_length 2 on a subgroup layout's 32x16 descriptor: 32 x 32 of memory, one
  // 16b_32r16x2c load; lane 3 holds column 3 of both array blocks (cols 3 and 19): 64 elements.
  r = run({"--layout", "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>", "--shape",
           "32x16", "--view", "blockload", "--array-length", "2", "--work-item", "3", "--svg",
           "a.svg", "--report", "a.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  j = readJson("a.json");
  EXPECT_TRUE(hasNote(j, "1 block load(s) of 16b_32r16x2c per subgroup")) << j["notes"].dump();
  EXPECT_EQ(j["grids"]["operand"]["cols"], 32);
  EXPECT_EQ(j["grids"]["operand"]["highlighted"], 64);
}

TEST_F(ExplorerGuiXegpuBlockLoad, BadBlocksExitOneNamingTheField) {
  const std::string dpas =
      "#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, "
      "executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 2], "
      "repCluster = [4, 2]}>, kWidth = 1}>";
  struct Case {
    std::string layout, shape, block, message;
  };
  for (const Case& c : {
           Case{kLayoutA, "128x32", "0x16", "error: blockload: block: '0x16' has a size below 1"},
           Case{kLayoutA, "128x32", "8x", "error: blockload: block: expected ROWSxCOLS"},
           Case{kLayoutA, "128x32", "8x24",
                "error: blockload: block: [8, 24] (given) does not divide one subgroup's data "
                "[32, 16] (sg_data)"},
           // 16 rows x 32 columns of 16 bits = a 64-byte row: legal; 32 x 32 is 32 rows, also
           // legal; 8 x 64 is a 128-byte row, beyond the 64-byte load row.
           Case{"#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>", "8x64", "8x64",
                "error: blockload: block: 16b_8r64x1c (from shape [8, 64]) is not a legal load on "
                "pvc: "},
           // 1024 x 1024 = 2^20 elements, beyond the 2^18 cells the view draws.
           Case{kLayoutA, "1024x1024", "", "error: blockload: shape: [1024, 1024] has more"},
           Case{dpas, "128x32", "8x16", "error: blockload: block and array length apply to XeGPU"},
       }) {
    std::vector<std::string> args = {"--layout", c.layout,    "--shape", c.shape,
                                     "--view",   "blockload", "--svg",   "x.svg"};
    if (!c.block.empty()) args.insert(args.end(), {"--block", c.block});
    RunResult r = run(args);
    EXPECT_EQ(r.status, 1) << c.block << ": " << describe(r);
    EXPECT_EQ(r.err.rfind(c.message, 0), 0u) << r.err;
  }
  RunResult r = run({"--layout", kLayoutA, "--view", "blockload", "--array-length", "0"});
  EXPECT_EQ(r.status, 2) << describe(r);
  EXPECT_NE(r.err.find("--array-length must be an integer in [1, 64]"), std::string::npos) << r.err;
}

// gemm_wg.mlir's `%a = xegpu.load_nd %ta` reads a 256x32 f16 descriptor with #a (sg_layout
// [8, 4], sg_data [32, 32], inst_data [8, 16]): the row opens the block-load view on that layout,
// shape 256x32 and the report's 8x16 instruction tile. Each subgroup's 32x32 tile is 4 x 2 = 8
// loads; the 4 subgroups of one grid row own the same tile (4 x 32 = 128 > 32 columns: the data is
// broadcast), so the 32 subgroups form 8 tiles.
TEST_F(ExplorerGuiXegpuBlockLoad, KernelLoadNdRowOpensTheBlockLoadView) {
  const std::string file = std::string(LAYOUT_TEST_DATA_DIR) + "/ir/xegpu/gemm_wg.mlir";
  writeFile(path("list.txt"), "wait 3\nreport list.json\n");
  RunResult r = run({"--input", file, "--size", "1400x1400", "--script", "list.txt"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const json list = readJson("list.json");
  json row;
  for (const auto& o : list["kernelOps"])
    if (o["op"] == "xegpu.load_nd" && o["line"] == 34) row = o;
  ASSERT_TRUE(row.is_object()) << list["kernelOps"].dump(1);
  EXPECT_EQ(row["view"], "blockload") << row.dump();
  ASSERT_TRUE(row.contains("screen")) << row.dump();
  const auto rect = row["screen"].get<std::vector<float>>();
  writeFile(path("open.txt"), "wait 3\nclick " + std::to_string(int(rect[0] + rect[2] / 2)) + " " +
                                  std::to_string(int(rect[1] + rect[3] / 2)) +
                                  "\nwait 3\nreport open.json\n");
  r = run({"--input", file, "--size", "1400x1400", "--script", "open.txt"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const json j = readJson("open.json");
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(j["view"], "blockload");
  EXPECT_EQ(j["kernelOp"], 34);
  const std::string cmd = j["exports"]["commandLine"];
  EXPECT_NE(cmd.find("--layout '#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32]"),
            std::string::npos)
      << cmd;
  EXPECT_NE(cmd.find("--shape '256x32'"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find("--block '8x16'"), std::string::npos) << cmd;
  EXPECT_TRUE(hasNote(j, "XeGPU: 8 block load(s) of 16b_8r16x1c per subgroup; block 8x16 from "
                         "inst_data"))
      << j["notes"].dump();
  EXPECT_TRUE(hasNote(j, "32 subgroups in 8 tiles")) << j["notes"].dump();
  EXPECT_EQ(j["grids"]["operand"]["rows"], 256);
  EXPECT_EQ(j["grids"]["operand"]["cols"], 32);
  EXPECT_EQ(j["grids"]["workitem"]["rows"], 8);
}

} // namespace
