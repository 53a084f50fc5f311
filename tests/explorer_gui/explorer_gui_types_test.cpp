// Issue 34: what the types of a TTGIR file say reaches the views (element bits of a conversion, K
// and M x N of a dot), the "tensor smaller than the tile" note is kept for tensors that are
// smaller than the tile and not raised for the copies a dot operand or slice makes at any size,
// and the block-load view draws every subgroup's loads. Expected values come from the library
// (planConversion, toLinearLayout, planBlockLoads and the 2D block executors), not from the app.
#include "layout/intel/block_io.h"
#include "layout/intel/block_load_plan.h"

#include "explorer_gui_fixture.h"

namespace {

// This file's suite: the shared fixture (explorer_gui_fixture.h) under its own name.
class ExplorerGuiTypes : public ExplorerGui {};

constexpr const char* kMma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
                             "[2, 2], instrShape = [16, 8]}>";
constexpr const char* kBlocked64 = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, "
                                   "8], warpsPerCTA = [4, 1], order = [1, 0]}>";
constexpr const char* kDotA = "tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = "
                              "2}>>";
constexpr const char* kDotB = "tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = "
                              "2}>>";

// A small kernel: an f32 #mma -> #blocked conversion and an f16 dot of 128x64 by 64x128.
std::string kernelText() {
  return std::string("#blocked = ") + kBlocked64 + "\n#mma = " + kMma +
         "\nmodule attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, "
         "ttg.target = \"cuda:80\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
         "  tt.func public @k(%a: " +
         kDotA + ", %b: " + kDotB +
         ", %x: tensor<64x64xf32, #mma>) {\n"
         "    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>\n"
         "    %d = tt.dot %a, %b, %c : " +
         kDotA + " * " + kDotB +
         " -> tensor<128x128xf32, #mma>\n"
         "    %y = ttg.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, "
         "#blocked>\n"
         "    tt.return\n  }\n}\n";
}

std::vector<std::string> planLines(const std::string& src, const std::string& dst, int64_t rows,
                                   int64_t cols, int elemBits) {
  auto plan = layout::conversion::planConversion(
      Oracle::make(src, rows, cols).ll, Oracle::make(dst, rows, cols).ll, elemBits, "nvidia");
  EXPECT_TRUE(plan) << plan.error().message;
  std::vector<std::string> lines;
  if (!plan) return lines;
  std::istringstream text(layout::conversion::conversionPlanText(*plan));
  for (std::string line; std::getline(text, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// The 32-bit plan is in the notes, and the 16-bit one's lines that differ from it are not.
void expectPlannedWith32Bits(const json& report, const std::string& src, const std::string& dst) {
  const auto notes = report["notes"].get<std::vector<std::string>>();
  const std::set<std::string> shown(notes.begin(), notes.end());
  const auto bits32 = planLines(src, dst, 64, 64, 32), bits16 = planLines(src, dst, 64, 64, 16);
  for (const std::string& line : bits32) EXPECT_TRUE(shown.count(line)) << line;
  const std::set<std::string> want(bits32.begin(), bits32.end());
  int differing = 0;
  for (const std::string& line : bits16)
    if (!want.count(line)) {
      ++differing;
      EXPECT_FALSE(shown.count(line)) << "planned as 16-bit: " << line;
    }
  EXPECT_GT(differing, 0) << "the 16- and 32-bit plans should differ";
}

// The centre of a kernel ops row, as a script's click.
std::string clickRow(const json& list, const std::string& op) {
  for (const auto& row : list["kernelOps"])
    if (row["op"] == op && row.contains("screen")) {
      const auto r = row["screen"].get<std::vector<float>>();
      return "click " + std::to_string(int(r[0] + r[2] / 2)) + " " +
             std::to_string(int(r[1] + r[3] / 2)) + "\n";
    }
  ADD_FAILURE() << "no visible " << op << " row: " << list["kernelOps"].dump();
  return "";
}

bool hasTileNote(const json& report) {
  for (const auto& n : report["notes"])
    if (n.get<std::string>().find("smaller than the layout's tile") != std::string::npos)
      return true;
  return false;
}

// ---- element bits and K from the file's types -------------------------------------------------

// The operands view of a 128x128 dot with K = 64: A is 128 x 64, B 64 x 128, C 128 x 128.
void expectOperandsOf128x128WithK64(const json& j) {
  const std::tuple<const char*, int, int> grids[] = {
      {"mma.A", 128, 64}, {"mma.B", 64, 128}, {"mma.C", 128, 128}};
  for (const auto& [grid, rows, cols] : grids) {
    EXPECT_EQ(j["grids"][grid]["rows"], rows) << grid;
    EXPECT_EQ(j["grids"][grid]["cols"], cols) << grid;
  }
}

TEST_F(ExplorerGuiTypes, KernelOpRowsTakeElementBitsAndKFromTheirTypes) {
  writeFile(path("k.ttgir"), kernelText());
  writeFile(path("list.txt"), "wait 3\nreport list.json\n");
  RunResult r = run({"--input", "k.ttgir", "--script", "list.txt"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const json list = readJson("list.json");
  ASSERT_EQ(list["error"], "");

  // The f32 conversion: planned with 32-bit elements, and the command line says so.
  writeFile(path("conv.txt"),
            "wait 3\n" + clickRow(list, "ttg.convert_layout") + "wait 3\nreport conv.json\n");
  r = run({"--input", "k.ttgir", "--script", "conv.txt"});
  ASSERT_EQ(r.status, 0) << describe(r);
  json j = readJson("conv.json");
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(j["view"], "convert");
  std::string cmd = j["exports"]["commandLine"];
  EXPECT_NE(cmd.find("--element-bits '32'"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find("--shape '64x64'"), std::string::npos) << cmd;
  expectPlannedWith32Bits(j, kMma, kBlocked64);

  // The dot: K from its operand type (A is 128x64), M x N from its result.
  writeFile(path("dot.txt"), "wait 3\n" + clickRow(list, "tt.dot") + "wait 3\nreport dot.json\n");
  r = run({"--input", "k.ttgir", "--script", "dot.txt"});
  ASSERT_EQ(r.status, 0) << describe(r);
  j = readJson("dot.json");
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(j["view"], "operands");
  cmd = j["exports"]["commandLine"];
  EXPECT_NE(cmd.find("--k '64'"), std::string::npos) << cmd;
  expectOperandsOf128x128WithK64(j);
}

// The file's tensor types as layout A (what the "tensor type" list picks): the shape field follows
// the type, the conversion is planned with the type's element bits, and a dot operand's type gives
// the operands view its K (and M x N from the file's dot), also when the view is switched to.
TEST_F(ExplorerGuiTypes, PickedTensorTypesGiveShapeElementBitsAndK) {
  writeFile(path("k.ttgir"), kernelText());
  RunResult r = run({"--input", "k.ttgir", "--layout", "tensor<64x64xf32, #mma>", "--layout-b",
                     "tensor<64x64xf32, #blocked>", "--shape", "16x16", "--view", "convert",
                     "--frames", "3", "--report", "conv.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  json j = readJson("conv.json");
  EXPECT_EQ(j["error"], "");
  std::string cmd = j["exports"]["commandLine"];
  EXPECT_NE(cmd.find("--shape '64x64'"), std::string::npos) << "stale shape field: " << cmd;
  EXPECT_NE(cmd.find("--element-bits '32'"), std::string::npos) << cmd;
  expectPlannedWith32Bits(j, kMma, kBlocked64);

  // Operand A's type, opened in the tensor view and then switched to the operands view.
  writeFile(path("ops.txt"), "wait 3\nview operands\nwait 3\nreport ops.json\n");
  r = run({"--input", "k.ttgir", "--layout", kDotA, "--script", "ops.txt"});
  ASSERT_EQ(r.status, 0) << describe(r);
  j = readJson("ops.json");
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(j["view"], "operands");
  cmd = j["exports"]["commandLine"];
  EXPECT_NE(cmd.find("--k '64'"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find("--shape '128x64'"), std::string::npos) << cmd;
  expectOperandsOf128x128WithK64(j);
  // B's type is K x N: K is its first dim.
  r = run({"--input", "k.ttgir", "--layout", kDotB, "--view", "operands", "--frames", "3",
           "--report", "b.json"});
  ASSERT_EQ(r.status, 0) << describe(r);
  j = readJson("b.json");
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(j["grids"]["mma.B"]["rows"], 64);
  EXPECT_EQ(j["grids"]["mma.B"]["cols"], 128);
  EXPECT_EQ(j["grids"]["mma.A"]["cols"], 64);
}

// ---- the tile note ----------------------------------------------------------------------------

// A dot operand is copied across the warps along the other dim of the dot whatever its size: at
// 256x256 there is no "smaller than the tile" note. At 16x16 the warps along M do not fit: the
// note names exactly the warp bits whose bases the library puts inside a 256x256 operand but
// outside a 16x16 one. A slice's copies across its sliced dim get no note either; a blocked
// layout over a tensor smaller than its tile keeps it.
TEST_F(ExplorerGuiTypes, TileNoteOnlyForTensorsSmallerThanTheTile) {
  const std::string dotA =
      std::string("#ttg.dot_op<{opIdx = 0, parent = ") + kMma + ", kWidth = 2}>";
  const std::string dotB =
      std::string("#ttg.dot_op<{opIdx = 1, parent = ") + kMma + ", kWidth = 2}>";
  const std::string slice = std::string("#ttg.slice<{dim = 1, parent = ") + kBlocked64 + "}>";
  auto report = [&](const std::string& layout, const std::string& shape) {
    RunResult r =
        run({"--layout", layout, "--shape", shape, "--frames", "3", "--report", "r.json"});
    EXPECT_EQ(r.status, 0) << describe(r);
    return readJson("r.json");
  };
  for (const std::string& dot : {dotA, dotB}) {
    SCOPED_TRACE(dot);
    // At 256x256 the library's layout does broadcast across warps (that is what the old note
    // misread), and the note is gone.
    const Oracle big = Oracle::make(dot, 256, 256);
    bool broadcast = false;
    for (uint64_t w = 1; w < big.ll.inDimSize(layout::dims::warp()); w <<= 1)
      broadcast |= big.apply({0, 0, w, 0}) == std::pair<uint64_t, uint64_t>{0, 0};
    EXPECT_TRUE(broadcast);
    EXPECT_FALSE(hasTileNote(report(dot, "256x256")));
  }
  // 16x16: the warp bits that a 256x256 operand A uses and a 16x16 one leaves at the origin.
  const Oracle big = Oracle::make(dotA, 256, 256), small = Oracle::make(dotA, 16, 16);
  uint64_t sizeBits = 0;
  for (int b = 0; (uint64_t{1} << b) < big.ll.inDimSize(layout::dims::warp()); ++b) {
    const uint64_t w = uint64_t{1} << b;
    if (big.apply({0, 0, w, 0}) != std::pair<uint64_t, uint64_t>{0, 0} &&
        small.apply({0, 0, w, 0}) == std::pair<uint64_t, uint64_t>{0, 0})
      sizeBits |= w;
  }
  ASSERT_NE(sizeBits, 0u);
  std::string bits;
  for (int b = big.ll.inDimSizeLog2(big.warp) - 1; b >= 0; --b)
    bits += (sizeBits >> b & 1) ? '1' : '0';
  json j = report(dotA, "16x16");
  ASSERT_TRUE(hasTileNote(j)) << j["notes"].dump();
  std::string note;
  for (const auto& n : j["notes"])
    if (n.get<std::string>().find("smaller than the layout's tile") != std::string::npos) note = n;
  EXPECT_NE(note.find("warp bits 0b" + bits + " "), std::string::npos) << note;
  EXPECT_EQ(note.find("lane bits"), std::string::npos) << note;

  EXPECT_FALSE(hasTileNote(report(slice, "256")));
  j = report(kBlocked64, "8x8");
  EXPECT_TRUE(hasTileNote(j)) << j["notes"].dump();
  EXPECT_FALSE(hasTileNote(report(kBlocked64, "64x64")));
}

// ---- the block-load view over every subgroup ---------------------------------------------------

struct FillCell {
  int row, col;
  std::string fill;
};

std::vector<FillCell> svgFills(const std::string& svg, const std::string& grid) {
  static const std::regex cellRe(
      R"re(<g class="cell" data-grid="([^"]*)" data-row="(\d+)" data-col="(\d+)"[^>]*><rect [^>]*fill="([^"]*)")re");
  std::vector<FillCell> cells;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), cellRe); it != std::sregex_iterator();
       ++it)
    if ((*it)[1] == grid) cells.push_back({std::stoi((*it)[2]), std::stoi((*it)[3]), (*it)[4]});
  return cells;
}

// The 128x32 A operand over 4x2 subgroups: the planner's loads placed at every subgroup's offset
// cover every element; the view fills each element in one colour per set of subgroups that load
// it (A is broadcast across the two subgroups along N), so no element is left grey; hovering an
// element names its load and subgroups, and the work-item, register of the load's result and GRF
// byte the reference executors give it.
TEST_F(ExplorerGuiTypes, BlockLoadViewCoversEverySubgroup) {
  namespace intel = layout::intel;
  const std::string operand =
      "#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, "
      "executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 2], "
      "repCluster = [4, 2]}>, kWidth = 1}>";
  const int64_t rows = 128, cols = 32;
  auto enc = layout::triton::parseEncoding(operand);
  ASSERT_TRUE(enc.ok());
  auto target = intel::blockIoTarget("pvc");
  ASSERT_TRUE(target.ok());
  const int64_t shape[] = {rows, cols};
  auto plan = intel::planBlockLoads(*enc, shape, 16, false, *target);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  const int subgroups = int(plan->subgroupOffset.inDimSize(layout::dims::warp()));
  ASSERT_EQ(subgroups, 8);
  // Which subgroups load each element, and by which load and at which place in it.
  struct Place {
    int load;
    int64_t r, c; // in the load's rectangle
  };
  std::map<std::pair<int64_t, int64_t>, std::set<int>> loadedBy;
  std::map<std::pair<int64_t, int64_t>, Place> place;
  for (int s = 0; s < subgroups; ++s) {
    std::vector<uint64_t> in = {uint64_t(s)}, origin(2);
    plan->subgroupOffset.apply(in, origin);
    for (size_t j = 0; j < plan->loads.size(); ++j) {
      const auto& l = plan->loads[j];
      const int64_t r0 = int64_t(origin[0]) + l.offset[0], c0 = int64_t(origin[1]) + l.offset[1];
      const int64_t w = int64_t(l.tileWidth) * l.numBlocks * l.elemBits / 16;
      for (int64_t r = r0; r < r0 + l.tileHeight; ++r)
        for (int64_t c = c0; c < c0 + w; ++c) {
          loadedBy[{r, c}].insert(s);
          place.emplace(std::pair{r, c}, Place{int(j), r - r0, c - c0});
        }
    }
  }
  ASSERT_EQ(loadedBy.size(), size_t(rows * cols)) << "the plan itself leaves elements unloaded";

  writeFile(path("hover.txt"), "wait 3\nhover-cell operand 5 3\nreport h0.json\n"
                               "hover-cell operand 77 20\nreport h1.json\nsvg b.svg\n"
                               "screenshot b.png\n");
  RunResult r = run({"--layout", operand, "--shape", "128x32", "--view", "blockload", "--zoom",
                     "fit", "--script", "hover.txt"});
  ASSERT_EQ(r.status, 0) << describe(r);
  expectNotBlank(path("b.png"), 1400, 900);
  const auto cells = svgFills(readFile(path("b.svg")), "operand");
  ASSERT_EQ(cells.size(), size_t(rows * cols));
  // One fill per set of subgroups, a different one for each set.
  std::map<std::set<int>, std::string> fillOf;
  std::map<std::string, std::set<int>> setOf;
  for (const FillCell& cell : cells) {
    const auto& set = loadedBy[{cell.row, cell.col}];
    EXPECT_EQ(fillOf.emplace(set, cell.fill).first->second, cell.fill)
        << "element " << cell.row << "," << cell.col;
    EXPECT_EQ(setOf.emplace(cell.fill, set).first->second, set)
        << "one colour for two sets of subgroups at " << cell.row << "," << cell.col;
  }
  EXPECT_EQ(fillOf.size(), 4u); // 4 tiles of 2 subgroups each (A is broadcast along N)
  const json h0 = readJson("h0.json");
  bool covered = false;
  for (const auto& n : h0["notes"])
    covered |= n.get<std::string>().find("cover every drawn element") != std::string::npos;
  EXPECT_TRUE(covered) << h0["notes"].dump();

  // The hover: load, subgroups, work-item, register and GRF byte, from the reference executors
  // on a surface whose 16-bit elements hold their row + 1, then their column + 1.
  const std::pair<int64_t, int64_t> hovered[] = {{5, 3}, {77, 20}};
  for (int k = 0; k < 2; ++k) {
    const json h = readJson("h" + std::to_string(k) + ".json");
    ASSERT_TRUE(h["hovered"].is_object()) << h.dump();
    ASSERT_TRUE(h["hovered"].contains("details")) << h["hovered"].dump();
    const std::string details = h["hovered"]["details"];
    const auto [row, col] = hovered[k];
    const Place p = place.at({row, col});
    const auto& l = plan->loads[size_t(p.load)];
    std::string subs;
    for (int s : loadedBy[{row, col}]) subs += (subs.empty() ? "" : ", ") + std::to_string(s);
    EXPECT_NE(details.find("load L" + std::to_string(p.load) + " (" +
                           intel::blockShapeName({l.elemBits, l.tileWidth, l.tileHeight,
                                                  l.numBlocks, l.transpose, l.vnni}) +
                           ") of subgroups " + subs),
              std::string::npos)
        << details;
    const int64_t w = int64_t(l.tileWidth) * l.numBlocks * l.elemBits / 16;
    const int64_t pitch = std::max<int64_t>(64, w * 2);
    std::vector<uint8_t> mem[2];
    int lane = -1, reg = -1;
    int64_t grfByte = -1;
    for (int m = 0; m < 2; ++m) {
      mem[m].assign(size_t(pitch * l.tileHeight), 0);
      for (int64_t y = 0; y < l.tileHeight; ++y)
        for (int64_t x = 0; x < w; ++x) {
          const uint16_t v = uint16_t(m == 0 ? y + 1 : x + 1);
          mem[m][size_t(y * pitch + 2 * x)] = uint8_t(v);
          mem[m][size_t(y * pitch + 2 * x + 1)] = uint8_t(v >> 8);
        }
    }
    const intel::BlockIoRequest req{
        intel::BlockOp::Load,
        {l.elemBits, l.tileWidth, l.tileHeight, l.numBlocks, l.transpose, l.vnni},
        intel::Surface{0, pitch, l.tileHeight, pitch},
        0,
        0};
    auto byRow = intel::loadPerWorkItem(*target, req, mem[0]);
    auto byCol = intel::loadPerWorkItem(*target, req, mem[1]);
    ASSERT_TRUE(byRow.ok() && byCol.ok());
    for (size_t ln = 0; ln < byRow->size() && lane < 0; ++ln)
      for (size_t i = 0; i < (*byRow)[ln].size(); ++i)
        for (int piece = 0; piece * 16 < l.elemBits; ++piece)
          if ((((*byRow)[ln][i] >> (16 * piece)) & 0xffff) == uint64_t(p.r + 1) &&
              (((*byCol)[ln][i] >> (16 * piece)) & 0xffff) == uint64_t(p.c + 1) && lane < 0) {
            lane = int(ln);
            reg = int((int64_t(i) * l.elemBits + 16 * piece) / plan->operandRegisterBits);
          }
    auto imgRow = intel::loadGrfImage(*target, req, mem[0]);
    auto imgCol = intel::loadGrfImage(*target, req, mem[1]);
    ASSERT_TRUE(imgRow.ok() && imgCol.ok());
    for (size_t o = 0; o + 1 < imgRow->size() && grfByte < 0; o += 2)
      if (((*imgRow)[o] | ((*imgRow)[o + 1] << 8)) == p.r + 1 &&
          ((*imgCol)[o] | ((*imgCol)[o + 1] << 8)) == p.c + 1)
        grfByte = int64_t(o);
    ASSERT_GE(lane, 0);
    ASSERT_GE(grfByte, 0);
    EXPECT_NE(details.find("work-item " + std::to_string(lane) + ", register " +
                           std::to_string(reg) + " of L" + std::to_string(p.load) + "'s result"),
              std::string::npos)
        << details;
    EXPECT_NE(details.find("GRF byte " + std::to_string(grfByte) + " "), std::string::npos)
        << details;
  }
}

} // namespace
