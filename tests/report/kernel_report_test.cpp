// layoutctl report's analysis (layout/report/kernel_report.h): figures derived by hand, and every
// file of the Triton 3.6 corpus (tests/data/ir/triton) checked against what the compiler did
// there (the PTX instruction counts per source line in its meta.json).
#include "layout/report/kernel_report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

using namespace layout;
using nlohmann::json;

namespace {

std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

report::KernelReport reportOk(const std::string& text, const std::string& target = "") {
  auto r = report::reportFromText(text, {target});
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : report::KernelReport();
}

const report::OpReport& opNamed(const report::KernelReport& k, const std::string& name) {
  for (const auto& op : k.ops)
    if (op.op == name) return op;
  ADD_FAILURE() << "no " << name;
  static report::OpReport none;
  return none;
}

// A 32x32 f16 tile written row by row and read column by column through an unswizzled row-major
// buffer (row r, column c at element 32r + c, byte 64r + 2c), on NVIDIA (32 banks of 4 bytes).
const char* kHandTile =
    R"(#row = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%arg0: tensor<32x32xf16, #row>) {
    %0 = ttg.local_alloc %arg0 : (tensor<32x32xf16, #row>) -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable> loc(#loc1)
    %1 = ttg.local_load %0 : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #col> loc(#loc2)
    %2 = ttg.convert_layout %1 : tensor<32x32xf16, #col> -> tensor<32x32xf16, #row> loc(#loc2)
    tt.return
  }
}
#loc1 = loc("k.py":3:5)
#loc2 = loc("k.py":4:7)
)";

TEST(Report, HandDerivedBankFigures) {
  const auto k = reportOk(kHandTile);
  EXPECT_EQ(k.bankModel, "nvidia");
  // Store (#row): lane l holds 8 consecutive halves of row l / 4 at column 8 (l % 4), so its
  // 16 bytes start at 64 (l / 4) + 16 (l % 4) = 16 l: one 128-bit store per warp, whose 4
  // phases of 8 lanes each cover 128 contiguous bytes = every bank once. 4 wavefronts per warp,
  // 4 warps: 16, the ideal.
  const auto& store = opNamed(k, "ttg.local_alloc");
  ASSERT_TRUE(store.banks) << (store.notes.empty() ? "" : store.notes[0]);
  EXPECT_EQ(store.banks->instruction, "nvidia.st.b128");
  EXPECT_EQ(store.banks->wavefronts, 16u);
  EXPECT_EQ(store.banks->ideal, 16u);
  // Load (#col): lane l reads row l of one column c (registers step c by 4: never adjacent, so
  // 16-bit loads). Word = (64 l + 2c) / 4 = 16 l + c / 2, bank = 16 (l % 2) + c / 2: the 32 lanes
  // hit 2 banks with 16 distinct words each -> 16 wavefronts per load, ideal ceil(32 words / 32
  // banks) = 1. 8 loads per warp, 4 warps: 512 wavefronts against 32.
  const auto& load = opNamed(k, "ttg.local_load");
  ASSERT_TRUE(load.banks) << (load.notes.empty() ? "" : load.notes[0]);
  EXPECT_EQ(load.banks->instruction, "nvidia.ld.b16");
  EXPECT_EQ(load.banks->vectorElements, 1);
  EXPECT_EQ(load.banks->wavefronts, 512u);
  EXPECT_EQ(load.banks->ideal, 32u);
  // A swizzle for this pair exists that removes the conflicts of the load.
  ASSERT_TRUE(load.banks->swizzledWavefronts);
  EXPECT_LT(*load.banks->swizzledWavefronts, load.banks->wavefronts);
  // The conversion moves rows between warps: shared memory.
  const auto& cvt = opNamed(k, "ttg.convert_layout");
  ASSERT_TRUE(cvt.conversion);
  EXPECT_EQ(cvt.conversion->kind, ConversionKind::SharedMemory);
  EXPECT_EQ(cvt.conversion->sharedBytes, 32u * 32u * 2u);
  EXPECT_EQ(cvt.loc.file, "k.py");
  EXPECT_EQ(cvt.loc.line, 4);
  EXPECT_EQ(k.summary.extraWavefronts,
            480u + (cvt.conversion->storeWavefronts - cvt.conversion->storeIdeal) +
                (cvt.conversion->loadWavefronts - cvt.conversion->loadIdeal));

  const json j = report::reportToJson(k);
  EXPECT_EQ(j["ops"][1]["banks"]["wavefronts"], 512);
  EXPECT_EQ(j["ops"][2]["plan"]["kind"], "shared");
  const json sarif = report::reportToSarif(k);
  EXPECT_EQ(sarif["version"], "2.1.0");
  bool conflict = false;
  for (const json& res : sarif["runs"][0]["results"])
    if (res["ruleId"] == "bank-conflicts" &&
        res["locations"][0]["physicalLocation"]["region"]["startLine"] == 4)
      conflict = true;
  EXPECT_TRUE(conflict);
}

TEST(Report, Targets) {
  EXPECT_EQ(*report::bankModelForTarget("sm80"), "nvidia");
  EXPECT_EQ(*report::bankModelForTarget("cuda:90"), "nvidia");
  EXPECT_EQ(*report::bankModelForTarget("hip:gfx942"), "cdna3");
  EXPECT_EQ(*report::bankModelForTarget("gfx950"), "cdna4");
  EXPECT_EQ(*report::bankModelForTarget("pvc"), "xe");
  EXPECT_FALSE(report::bankModelForTarget("sm"));
  EXPECT_FALSE(report::bankModelForTarget("tpu"));
  auto r = report::reportFromText(kHandTile, {"quantum"});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("unknown target 'quantum'"), std::string::npos);
  // --target wins over the module's.
  EXPECT_EQ(reportOk(kHandTile, "gfx942").bankModel, "cdna3");
}

// What cannot be analysed is a note on the op, never an error of the report.
TEST(Report, NotesNotErrors) {
  const std::string text =
      R"(#row = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {ttg.target = "cuda:90"} {
  tt.func public @k(%a: tensor<1048576x1048576xf16, #row>, %b: tensor<32x32xf16, #ttg.mystery<{x = 1}>>) {
    %0 = ttg.convert_layout %a : tensor<1048576x1048576xf16, #row> -> tensor<1048576x1048576xf16, #row>
    %1 = ttg.convert_layout %b : tensor<32x32xf16, #ttg.mystery<{x = 1}>> -> tensor<32x32xf16, #row>
    tt.return
  }
}
)";
  const auto k = reportOk(text);
  ASSERT_EQ(k.ops.size(), 2u);
  for (const auto& op : k.ops) {
    EXPECT_FALSE(op.conversion);
    ASSERT_FALSE(op.notes.empty());
  }
  EXPECT_NE(k.ops[0].notes[0].find("limit"), std::string::npos) << k.ops[0].notes[0];
  EXPECT_EQ(k.summary.notAnalysed, 2);
  const json j = report::reportToJson(k);
  EXPECT_TRUE(j["ops"][1]["note"].is_string());
}

// Bytes that are not UTF-8 (a file name, an encoding) reach the JSON and SARIF as U+FFFD: both
// documents can be written out (a strict dump threw on them).
TEST(Report, InvalidUtf8BecomesReplacementCharacters) {
  const std::string text = "module attributes {ttg.target = \"cuda:80\"} {\n"
                           "  tt.func @k(%a: tensor<32x32xf16, #\xff\xfe>) {\n"
                           "    %0 = ttg.convert_layout %a : tensor<32x32xf16, #\xff> -> "
                           "tensor<32x32xf16, #\xfe> loc(\"\xff.py\":3:4)\n"
                           "    tt.return\n  }\n}\n";
  const auto k = reportOk(text);
  ASSERT_EQ(k.ops.size(), 1u);
  std::string json, sarif;
  EXPECT_NO_THROW(json = report::reportToJson(k).dump());
  EXPECT_NO_THROW(sarif = report::reportToSarif(k).dump());
  EXPECT_NE(json.find("\xef\xbf\xbd.py"), std::string::npos) << json;
  EXPECT_EQ(json.find('\xff'), std::string::npos);
}

TEST(Report, ReaderErrorsAreLocated) {
  std::string text = kHandTile;
  text.resize(text.find("tt.return"));
  text += "%3 = ttg.convert_layout %1 : tensor<32x32xf16, #col";
  auto r = report::reportFromText(text, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.rfind("line ", 0), 0u) << r.error().message;
}

// --- the corpus -------------------------------------------------------------------------------

const std::filesystem::path kCorpus = std::filesystem::path(LAYOUT_TEST_DATA_DIR) / "ir/triton";

std::vector<std::filesystem::path> corpusFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(kCorpus))
    if (e.path().extension() == ".ttgir") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Ops named by the first word after "= " or at the start of an op line, counted by a regex here
// (independent of the reader).
int countOps(const std::string& text, const std::string& name) {
  const std::regex re("^\\s*(%[^=]+=\\s*)?" + std::regex_replace(name, std::regex("\\."), "\\.") +
                      "\\s");
  int n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, re)) ++n;
  return n;
}

TEST(ReportCorpus, EveryFileListsEveryLayoutOp) {
  const auto files = corpusFiles();
  ASSERT_GE(files.size(), 36u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    const std::string text = readText(f);
    const auto k = reportOk(text);
    const json j = report::reportToJson(k);
    std::map<std::string, int> listed;
    for (const json& op : j["ops"]) {
      listed[op["op"]]++;
      ASSERT_TRUE(op["loc"]["file"].is_string());
      ASSERT_TRUE(op["loc"]["line"].is_number_integer());
      ASSERT_GT(op["line"].get<int>(), 0);
      const std::string name = op["op"];
      if (name == "ttg.convert_layout") {
        ASSERT_TRUE(op.contains("plan") || op.contains("note")) << op.dump();
        if (op.contains("plan")) {
          const std::string kind = op["plan"]["kind"];
          EXPECT_TRUE(kind == "none" || kind == "registers" || kind == "shuffles" ||
                      kind == "shared")
              << kind;
        }
      }
      if (name == "ttg.local_load" || name == "ttg.local_store") {
        ASSERT_TRUE(op.contains("banks") || op.contains("note")) << op.dump();
        if (op.contains("banks")) {
          ASSERT_TRUE(op["banks"]["wavefronts"].is_number_integer());
          ASSERT_TRUE(op["banks"]["ideal"].is_number_integer());
          EXPECT_GE(op["banks"]["wavefronts"].get<uint64_t>(),
                    op["banks"]["ideal"].get<uint64_t>());
          EXPECT_GT(op["banks"]["ideal"].get<uint64_t>(), 0u);
        }
      }
    }
    for (const char* name : {"ttg.convert_layout", "ttg.local_load", "ttg.local_store"})
      EXPECT_EQ(listed[name], countOps(text, name)) << name;
    EXPECT_EQ(j["target"], k.target);
    EXPECT_FALSE(report::reportText(k).empty());
  }
}

struct PtxSite {
  bool known = false; // the line has its own by_site entry (not only a library key's candidate)
  int sharedTraffic = 0, shuffles = 0;
  std::set<std::string> opcodes;
};

PtxSite siteOf(const json& meta, int line) {
  PtxSite s;
  const json& bySite = meta["ptx"]["by_site"];
  const std::string key = "tests/data/ir/triton/corpus_kernels.py:" + std::to_string(line);
  if (!bySite.contains(key)) return s;
  const json& e = bySite[key];
  s.known = true;
  for (const char* c : {"ld.shared", "st.shared", "ldmatrix", "stmatrix"})
    s.sharedTraffic += e.value(c, 0);
  s.shuffles = e.value("shfl.sync", 0);
  for (const auto& [op, n] : e["opcodes"].items()) s.opcodes.insert(op);
  return s;
}

// Conversions Triton 3.6 sends through shared memory that the planner does without (pinned:
// file, source line). In each the source is a slice broadcast over the lanes that need it, and
// the report says so.
const std::set<std::pair<std::string, int>> kTritonUsesSharedWePlanRegisters = {
    {"layernorm_f16_4x1024.sm80", 185},
    {"layernorm_f16_4x1024.sm80", 186},
    {"layernorm_f16_4x1024.sm90", 185},
    {"layernorm_f16_4x1024.sm90", 186},
};

TEST(ReportCorpus, ConversionClassesAgreeWithThePtx) {
  std::set<std::pair<std::string, int>> disagreements;
  int compared = 0;
  for (const auto& f : corpusFiles()) {
    const std::string stem = f.stem().string();
    if (stem.find(".sm") == std::string::npos) continue;
    SCOPED_TRACE(stem);
    const json meta = json::parse(readText(kCorpus / (stem + ".meta.json")));
    const auto k = reportOk(readText(f));
    for (const auto& op : k.ops) {
      if (op.op != "ttg.convert_layout" || !op.conversion) continue;
      const PtxSite site = siteOf(meta, op.loc.line);
      if (!site.known) continue;
      ++compared;
      const ConversionKind kind = op.conversion->kind;
      SCOPED_TRACE("line " + std::to_string(op.loc.line));
      if (site.sharedTraffic == 0) {
        EXPECT_NE(kind, ConversionKind::SharedMemory);
      }
      if (site.shuffles > 0 && site.sharedTraffic == 0) {
        EXPECT_TRUE(kind == ConversionKind::WarpShuffle ||
                    kind == ConversionKind::RegisterPermutation);
      }
      // Ours through shared memory: so was Triton's (data crosses warps).
      if (kind == ConversionKind::SharedMemory) {
        EXPECT_GT(site.sharedTraffic, 0);
      }
      if (site.sharedTraffic > 0 &&
          (kind == ConversionKind::WarpShuffle || kind == ConversionKind::RegisterPermutation)) {
        disagreements.insert({stem, op.loc.line});
        bool says = false;
        for (const auto& n : op.notes)
          says |= n.find("Triton 3.6 sends such a conversion through shared memory") !=
                  std::string::npos;
        EXPECT_TRUE(says) << "a conversion Triton sends through shared memory needs a note";
      }
    }
  }
  EXPECT_GE(compared, 30);
  EXPECT_EQ(disagreements, kTritonUsesSharedWePlanRegisters);
}

// The PTX opcode a report instruction is lowered to.
std::string ptxOpcode(const std::string& ins) {
  static const std::map<std::string, std::string> plain = {
      {"nvidia.ld.b128", "ld.shared.v4.b32"}, {"nvidia.ld.b64", "ld.shared.v2.b32"},
      {"nvidia.ld.b32", "ld.shared.b32"},     {"nvidia.ld.b16", "ld.shared.b16"},
      {"nvidia.ld.b8", "ld.shared.b8"},       {"nvidia.st.b128", "st.shared.v4.b32"},
      {"nvidia.st.b64", "st.shared.v2.b32"},  {"nvidia.st.b32", "st.shared.b32"},
      {"nvidia.st.b16", "st.shared.b16"},     {"nvidia.st.b8", "st.shared.b8"}};
  if (auto it = plain.find(ins); it != plain.end()) return it->second;
  // nvidia.ldmatrix.x4.trans -> ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
  const std::string rest = ins.substr(std::string("nvidia.").size());
  const std::string kind = rest.substr(0, rest.find('.'));
  return kind + ".sync.aligned.m8n8" + rest.substr(kind.size()) + ".shared.b16";
}

// The instruction picked for local_load / local_alloc / local_store is the one Triton emitted at
// that line (cp.async copies are not compared: they never go through registers).
TEST(ReportCorpus, SharedInstructionsAgreeWithThePtx) {
  int compared = 0;
  for (const auto& f : corpusFiles()) {
    const std::string stem = f.stem().string();
    if (stem.find(".sm") == std::string::npos) continue;
    SCOPED_TRACE(stem);
    const json meta = json::parse(readText(kCorpus / (stem + ".meta.json")));
    const auto k = reportOk(readText(f));
    for (const auto& op : k.ops) {
      if (op.op != "ttg.local_load" && op.op != "ttg.local_alloc" && op.op != "ttg.local_store")
        continue;
      ASSERT_TRUE(op.banks) << op.op << " line " << op.line << ": "
                            << (op.notes.empty() ? "" : op.notes[0]);
      const PtxSite site = siteOf(meta, op.loc.line);
      if (!site.known) continue;
      ++compared;
      EXPECT_TRUE(site.opcodes.count(ptxOpcode(op.banks->instruction)))
          << op.op << " at line " << op.loc.line << ": " << op.banks->instruction << " ("
          << ptxOpcode(op.banks->instruction) << ") not in the PTX there";
    }
  }
  EXPECT_GE(compared, 20);
}

// gfx942: the LDS instruction picked for each local_alloc / local_store / local_load is one the
// AMDGCN has at that line. LLVM merges pairs of accesses (ds_read2st64_b64 is two ds_read_b64 at
// offsets 64 words apart) and writes a 16-bit store of a register's high half as _d16_hi: both
// are read as their base instruction.
TEST(ReportCorpus, AmdLdsInstructionsAgreeWithTheAmdgcn) {
  int compared = 0;
  std::set<std::pair<std::string, int>> notPlanned, storeDiffers;
  for (const auto& f : corpusFiles()) {
    const std::string stem = f.stem().string();
    if (stem.find(".gfx942") == std::string::npos) continue;
    SCOPED_TRACE(stem);
    const json meta = json::parse(readText(kCorpus / (stem + ".meta.json")));
    const json& bySite = meta["amdgcn"]["by_site"];
    const auto k = reportOk(readText(f));
    EXPECT_EQ(k.bankModel, "cdna3");
    EXPECT_EQ(k.lanes, 64);
    for (const auto& op : k.ops) {
      const std::string key =
          "tests/data/ir/triton/corpus_kernels.py:" + std::to_string(op.loc.line);
      std::set<std::string> opcodes;
      if (bySite.contains(key))
        for (const auto& [name, n] : bySite[key]["opcodes"].items()) {
          std::string base = std::regex_replace(name, std::regex("2(st64)?_"), "_");
          opcodes.insert(std::regex_replace(base, std::regex("_d16_hi$"), ""));
        }
      if (op.op == "ttg.convert_layout" && !op.conversion) notPlanned.insert({stem, op.loc.line});
      if (op.conversion && op.conversion->kind == ConversionKind::SharedMemory &&
          !opcodes.empty()) {
        // The reading side is Triton's; the writing side may be wider (see below).
        const std::string load = op.conversion->loadInstruction.substr(6);
        const std::string store = op.conversion->storeInstruction.substr(6);
        EXPECT_TRUE(opcodes.count(load)) << "convert at line " << op.loc.line << ": " << load;
        if (!opcodes.count(store)) storeDiffers.insert({stem, op.loc.line});
        ++compared;
      }
      if (!op.banks || opcodes.empty()) continue;
      ++compared;
      const std::string ins = op.banks->instruction.substr(std::string("cdna3.").size());
      EXPECT_TRUE(opcodes.count(ins)) << op.op << " at line " << op.loc.line << ": " << ins;
    }
  }
  EXPECT_GE(compared, 8);
  EXPECT_TRUE(notPlanned.empty());
  // The 16-bit transpose: the two layouts share no register run, and Triton 3.6 then writes and
  // reads single halves (ds_write_b16, ds_read_u16); the planner writes whole 128-bit rows of
  // the source and reads single halves: fewer instructions, the same reads.
  EXPECT_EQ(storeDiffers,
            (std::set<std::pair<std::string, int>>{{"transpose_f16_64x64.gfx942", 198}}));
}

} // namespace
