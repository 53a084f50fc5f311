// Following a conversion in the convert view: a scripted click on a source or destination cell
// sets the report's `selected` and `trace`, and the trace must agree with the conversion plan as
// `layoutctl convert --format json` prints it (the library's planConversion and
// conversionPlanToJson; the binary is run too when it is built next to the explorer) and with
// the layouts applied here (Oracle): every owner on both sides, and the step that fills each
// destination location.
#include "layout/text/layout_json.h"

#include "explorer_gui_fixture.h"

namespace {

// ---- Following a conversion ---------------------------------------------------------------------

// This file's suite: the shared fixture (explorer_gui_fixture.h) under its own name.
class ExplorerGuiConvert : public ExplorerGui {};

constexpr const char* kMmaV2Warps2x2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                                       "warpsPerCTA = [2, 2], instrShape = [16, 8]}>";
// Warps over rows: the data crosses warps, through shared memory.
constexpr const char* kBlockedWarpRows = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = "
                                         "[4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>";
// The MMA's warp tiles (warp bit 0 -> column 8, bit 1 -> row 16): the data stays in its warp.
constexpr const char* kBlockedMmaWarps = "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = "
                                         "[8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>";

using Loc = std::array<uint64_t, 4>; // register, lane, warp, block

Loc locOf(const json& j) {
  return {j["register"].get<uint64_t>(), j["lane"].get<uint64_t>(), j["warp"].get<uint64_t>(),
          j["block"].get<uint64_t>()};
}

std::set<Loc> locsOf(const std::vector<Oracle::Input>& ins) {
  std::set<Loc> s;
  for (const auto& in : ins) s.insert({in.reg, in.lane, in.warp, in.block});
  return s;
}

std::string labelOf(const Oracle& o, const Loc& l) {
  return "T" + std::to_string(l[1] + l[2] * o.ll.inDimSize(layout::dims::lane())) + ":" +
         std::to_string(l[0]);
}

// The plan as `layoutctl convert --format json` prints it: from the binary when it is built in
// the same tree as the explorer (it must then equal the library's), else from the library.
json planJson(const std::string& src, const std::string& dst, const Oracle& a, const Oracle& b,
              const fs::path& dir) {
  auto plan = layout::conversion::planConversion(a.ll, b.ll, 16, "nvidia");
  EXPECT_TRUE(plan) << plan.error().message;
  if (!plan) return json();
  const json library = json::parse(layout::conversion::conversionPlanToJson(*plan).dump());
  const fs::path layoutctl =
      fs::path(LAYOUT_EXPLORER_BIN).parent_path().parent_path() / "cli" / "layoutctl";
  if (fs::exists(layoutctl)) {
    const fs::path out = dir / "plan.json";
    const std::string cmd = shellQuote(layoutctl.string()) + " convert --src " + shellQuote(src) +
                            " --dst " + shellQuote(dst) +
                            " --shape 64x64 --element-bits 16 --format json >" +
                            shellQuote(out.string());
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    const json cli = json::parse(readFile(out), nullptr, false);
    EXPECT_EQ(cli, library) << "layoutctl convert and the library disagree";
  }
  return library;
}

// The round of the plan JSON that fills dst register `first` (a vector's first) of `lane`.
int roundFilling(const json& plan, uint64_t lane, uint64_t first) {
  for (size_t k = 0; k < plan["rounds"].size(); ++k)
    if (plan["rounds"][k]["dstRegister"][lane].get<int>() == int(first)) return int(k);
  return -1;
}

// One destination of a trace against the plan JSON: the step that fills it and its source.
void expectStep(const json& plan, const json& dest, std::pair<uint64_t, uint64_t> elem) {
  const Loc to = locOf(dest), from = locOf(dest["from"]);
  const json& step = dest["step"];
  const std::string kind = plan["kind"];
  if (kind == "warpShuffle") {
    const int copy = plan["registerCopies"][to[0]].get<int>();
    const uint64_t filled = copy >= 0 ? uint64_t(copy) : to[0];
    const uint64_t v = plan["vectorElements"].get<uint64_t>(), first = filled / v * v;
    const int k = roundFilling(plan, to[1], first);
    ASSERT_GE(k, 0) << "no round fills register " << first << " of lane " << to[1];
    const json& round = plan["rounds"][size_t(k)];
    const uint64_t sender = round["readLane"][to[1]].get<uint64_t>();
    const uint64_t sendReg = round["sendRegister"][sender].get<uint64_t>();
    EXPECT_EQ(step["kind"], sender == to[1] ? "registerMove" : "shuffle") << step;
    EXPECT_EQ(step["round"], k);
    EXPECT_EQ(step["sendLane"], sender);
    EXPECT_EQ(step["sendRegister"], sendReg);
    EXPECT_EQ(step["dstRegister"], first);
    EXPECT_EQ(from, (Loc{sendReg + filled - first, sender, to[2], to[3]})) << step;
  } else {
    ASSERT_EQ(kind, "sharedMemory");
    EXPECT_EQ(step["kind"], "sharedMemory");
    EXPECT_EQ(step["store"], plan["shared"]["store"]["instruction"]);
    EXPECT_EQ(step["load"], plan["shared"]["load"]["instruction"]);
    // The storing location is comp's: the src location of the same element.
    auto comp = layout::layoutFromJson(plan["comp"]);
    ASSERT_TRUE(comp) << comp.error().message;
    std::vector<uint64_t> in(to.begin(), to.end()), out(4);
    comp->apply(in, out);
    EXPECT_EQ(from, (Loc{out[0], out[1], out[2], out[3]})) << step;
    // The element sits at the step's offset of the plan's shared tile.
    auto shared = layout::layoutFromJson(plan["shared"]["shared"]);
    ASSERT_TRUE(shared) << shared.error().message;
    std::vector<uint64_t> off = {step["offset"].get<uint64_t>()}, at(2);
    shared->apply(off, at);
    EXPECT_EQ(std::make_pair(at[0], at[1]), elem) << step;
  }
}

// For MMA v2 -> blocked at 64x64 (f16), once through shared memory and once inside warps: clicks
// on source and destination cells trace the element as the plan and the layouts say; the hover
// tooltip's text is the trace's; the clicked cell and its round are highlighted; a second click
// on the same cell clears it all.
TEST_F(ExplorerGuiConvert, ClickTracesTheElementAsLayoutctlPlansIt) {
  const std::vector<std::pair<int, int>> cells = {{0, 0}, {5, 9}, {17, 42}, {40, 7}, {63, 63}};
  std::set<std::string> kinds;
  int bankWordsHighlighted = 0; // shared memory: cells marked in the store and load bank maps
  for (const char* dst : {kBlockedWarpRows, kBlockedMmaWarps}) {
    SCOPED_TRACE(dst);
    const Oracle a = Oracle::make(kMmaV2Warps2x2, 64, 64), b = Oracle::make(dst, 64, 64);
    const json plan = planJson(kMmaV2Warps2x2, dst, a, b, dir_);
    ASSERT_TRUE(plan.is_object());
    kinds.insert(plan["kind"].get<std::string>());
    std::string script = "wait 2\n";
    for (const auto& [r, c] : cells)
      for (const char* side : {"src", "dst"}) {
        const std::string at = std::to_string(r) + " " + std::to_string(c);
        script += std::string("click-cell convert.") + side + " " + at + "\nwait 1\nhover-cell " +
                  "convert." + side + " " + at + "\nreport " + side + "_" + std::to_string(r) +
                  "_" + std::to_string(c) + ".json\n";
      }
    // The last cell clicked again: the selection and its marks are gone.
    script += "click-cell convert.dst 63 63\nwait 1\nreport cleared.json\n";
    writeFile(path("script.txt"), script);
    RunResult r = run({"--layout", kMmaV2Warps2x2, "--layout-b", dst, "--shape", "64x64", "--view",
                       "convert", "--script", "script.txt"});
    ASSERT_EQ(r.status, 0) << describe(r);

    const auto srcOwners = a.owners(), dstOwners = b.owners();
    for (const auto& [r, c] : cells)
      for (const std::string side : {"src", "dst"}) {
        SCOPED_TRACE(side + " (" + std::to_string(r) + ", " + std::to_string(c) + ")");
        const std::pair<uint64_t, uint64_t> elem{r, c};
        const json j = readJson(side + "_" + std::to_string(r) + "_" + std::to_string(c) + ".json");
        const Oracle& clicked = side == "src" ? a : b;
        const auto& clickedOwners = side == "src" ? srcOwners.at(elem) : dstOwners.at(elem);
        // `selected`: the clicked cell and one of its owners on that side.
        ASSERT_TRUE(j["selected"].is_object()) << j["selected"];
        EXPECT_EQ(j["selected"]["grid"], "convert." + side);
        EXPECT_EQ(j["selected"]["row"], r);
        EXPECT_EQ(j["selected"]["col"], c);
        std::set<std::string> labels;
        for (const Loc& l : locsOf(clickedOwners)) labels.insert(labelOf(clicked, l));
        EXPECT_TRUE(labels.count(j["selected"]["label"].get<std::string>())) << j["selected"];

        const json& t = j["trace"];
        ASSERT_TRUE(t.is_object()) << "no trace";
        EXPECT_EQ(t["side"], side);
        EXPECT_EQ(t["kind"], plan["kind"]);
        EXPECT_EQ(t["element"], json::array({r, c}));
        std::set<Loc> sources, dests;
        for (const json& s : t["sources"]) {
          sources.insert(locOf(s));
          EXPECT_EQ(s["label"], labelOf(a, locOf(s)));
        }
        EXPECT_EQ(sources, locsOf(srcOwners.at(elem)));
        for (const json& d : t["destinations"]) {
          const Loc to = locOf(d), from = locOf(d["from"]);
          dests.insert(to);
          EXPECT_EQ(d["label"], labelOf(b, to));
          EXPECT_EQ(d["from"]["label"], labelOf(a, from));
          // The source the step reads holds the element.
          EXPECT_EQ(a.apply({from[0], from[1], from[2], from[3]}), elem);
          expectStep(plan, d, elem);
        }
        EXPECT_EQ(dests, locsOf(dstOwners.at(elem)));
        ASSERT_FALSE(t["destinations"].empty());
        // The tooltip (the hovered cell's details) reads "src T7:2 -> dst T17:6, ...".
        const json& d0 = t["destinations"][0];
        const std::string want = "src " + d0["from"]["label"].get<std::string>() + " -> dst " +
                                 d0["label"].get<std::string>() + ", ";
        const std::string tip = j["hovered"]["details"];
        EXPECT_EQ(tip.rfind(want, 0), 0u) << tip;
        EXPECT_EQ(tip, t["text"]);
        // Highlighted: the element on both sides, and the round's sender and receiver.
        EXPECT_EQ(j["grids"]["convert.src"]["highlighted"], 1);
        EXPECT_EQ(j["grids"]["convert.dst"]["highlighted"], 1);
        // Shared memory: the element's word is highlighted in each drawn phase of the store and
        // load bank maps whose lanes (the plan's phase tables) touch it, nowhere else.
        if (d0["step"].contains("offset")) {
          const uint64_t word = d0["step"]["offset"].get<uint64_t>() * 2 / 4;
          for (const char* which : {"store", "load"}) {
            const json& phases = plan["shared"][which]["phases"];
            for (size_t p = 0; p < phases.size(); ++p) {
              const std::string id = std::string("convert.") + which + ".banks" +
                                     (p == 0 ? "" : "." + std::to_string(p));
              if (!j["grids"].contains(id)) continue; // not drawn (past the view's phases)
              int touched = 0;
              for (const json& l : phases[p]["lanes"]) {
                const uint64_t first = l["byte"].get<uint64_t>() / 4,
                               last =
                                   (l["byte"].get<uint64_t>() + l["bytes"].get<uint64_t>() - 1) / 4;
                touched |= first <= word && word <= last;
              }
              EXPECT_EQ(j["grids"][id]["highlighted"], touched) << id;
              bankWordsHighlighted += touched;
            }
          }
        }
        if (d0["step"].contains("round") && t["destinations"].size() == 1) {
          const std::string round =
              "convert.round." + std::to_string(d0["step"]["round"].get<int>());
          EXPECT_EQ(j["grids"][round]["highlighted"], 2) << round;
        }
      }
    const json cleared = readJson("cleared.json");
    EXPECT_TRUE(cleared["selected"].is_null());
    EXPECT_TRUE(cleared["trace"].is_null());
    for (const auto& [id, g] : cleared["grids"].items()) EXPECT_EQ(g["highlighted"], 0) << id;
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"sharedMemory", "warpShuffle"}));
  EXPECT_GT(bankWordsHighlighted, 0); // element (0, 0) is in warp 0's first store
}

} // namespace
