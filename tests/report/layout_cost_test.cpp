// The report's layout-only ops and reductions (kernel_report.h): figures derived by hand from the
// layouts, and every op of the Triton 3.6 corpus checked against what the compiler emitted at
// its source line (tests/data/ir/triton, meta.json `by_site`).
#include "layout/report/kernel_report.h"

#include "support/test_data.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>

using namespace layout;
using nlohmann::json;

namespace {

report::KernelReport reportOk(const std::string& text) {
  auto r = report::reportFromText(text, {});
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : report::KernelReport();
}

// #rows: lane l of warp w holds row 8w + l/4, columns 4(l%4) .. 4(l%4)+3 of a 32x32 tile.
// #cols: the same tile transposed: lane l of warp w holds column 8w + l/4, rows 4(l%4) .. +3.
const char* kTrans =
    R"(#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%a: tensor<32x32xf32, #rows>) {
    %0 = tt.trans %a {order = array<i32: 1, 0>} : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #cols>
    %1 = tt.trans %a {order = array<i32: 1, 0>} : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #rows>
    tt.return
  }
}
)";

TEST(ReportLayoutOps, TransIsFreeOnlyForTheTransposedLayout) {
  const auto k = reportOk(kTrans);
  ASSERT_EQ(k.ops.size(), 2u);
  // Result (i, j) is source (j, i). Under #cols lane l of warp w holds result (4(l%4)+r, 8w+l/4)
  // = source (8w+l/4, 4(l%4)+r): exactly what #rows gives it. Free.
  ASSERT_TRUE(k.ops[0].change) << (k.ops[0].notes.empty() ? "" : k.ops[0].notes[0]);
  EXPECT_TRUE(k.ops[0].change->free);
  // Under #rows the result's (8w+l/4, 4(l%4)+r) is source (4(l%4)+r, 8w+l/4), which #rows puts
  // in warp (4(l%4)+r)/8: other warps. Not free, through shared memory.
  ASSERT_TRUE(k.ops[1].change);
  EXPECT_FALSE(k.ops[1].change->free);
  EXPECT_EQ(k.ops[1].change->movement, ConversionKind::SharedMemory);
  EXPECT_EQ(k.summary.layoutChanges, 2);
  EXPECT_EQ(k.summary.layoutChangesNotFree, 1);
  const json j = report::reportToJson(k);
  EXPECT_EQ(j["ops"][0]["change"]["free"], true);
  EXPECT_EQ(j["ops"][1]["change"]["movement"], "shared");
}

// A join whose pair index is held by another lane is not free; in registers it is.
TEST(ReportLayoutOps, JoinNeedsThePairInRegisters) {
  const std::string text =
      R"(#src = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#inreg = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
#inlane = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 1 : i32, ttg.target = "cuda:80"} {
  tt.func public @k(%a: tensor<32xf32, #src>, %b: tensor<32xf32, #src>) {
    %0 = tt.join %a, %b : tensor<32xf32, #src> -> tensor<32x2xf32, #inreg>
    %1 = tt.join %a, %b : tensor<32xf32, #src> -> tensor<32x2xf32, #inlane>
    tt.return
  }
}
)";
  const auto k = reportOk(text);
  ASSERT_EQ(k.ops.size(), 2u);
  // #inreg: lane l holds (l, 0) and (l, 1) = element l of each operand, which it holds.
  ASSERT_TRUE(k.ops[0].change);
  EXPECT_TRUE(k.ops[0].change->free);
  // #inlane: lane l holds (l/2, l%2) = element l/2 of one operand, which lane l/2 holds.
  ASSERT_TRUE(k.ops[1].change);
  EXPECT_FALSE(k.ops[1].change->free);
  EXPECT_EQ(k.ops[1].change->movement, ConversionKind::WarpShuffle);
}

// #b: sizePerThread [1, 4], threadsPerWarp [1, 32], warpsPerCTA [4, 1] over 64x128 f32: lane l
// of warp w holds columns 4l .. 4l+3 of rows w, w+4, ..., w+60 (16 rows, 64 registers).
const char* kReduce =
    R"(#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:80"} {
  tt.func public @k(%x: tensor<64x128xf32, #b>, %y: tensor<64x128xf64, #b>) {
    %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tt.reduce.return %s : f32
    }) : (tensor<64x128xf32, #b>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>
    %1 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %s = arith.maxnumf %p, %q : f32
      tt.reduce.return %s : f32
    }) : (tensor<64x128xf32, #b>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #b}>>
    %2 = "tt.reduce"(%y) <{axis = 1 : i32}> ({
    ^bb0(%p: f64, %q: f64):
      %s = arith.addf %p, %q : f64
      tt.reduce.return %s : f64
    }) : (tensor<64x128xf64, #b>) -> tensor<64xf64, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return
  }
}
)";

TEST(ReportLayoutOps, ReductionFiguresByHand) {
  const auto k = reportOk(kReduce);
  ASSERT_EQ(k.ops.size(), 3u);
  // Along the row: 4 columns in registers, then the 32 lanes (5 butterfly rounds) for each of
  // the 16 rows a thread holds: 80 shuffles; no warp lies along the row.
  ASSERT_TRUE(k.ops[0].reduction) << (k.ops[0].notes.empty() ? "" : k.ops[0].notes[0]);
  const auto& row = *k.ops[0].reduction;
  EXPECT_EQ(row.inThreadElements, 4u);
  EXPECT_EQ(row.accumulators, 16u);
  EXPECT_EQ(row.laneRounds, 5);
  EXPECT_EQ(row.shuffles, 80u);
  EXPECT_FALSE(row.crossWarp());
  // Down the columns: a thread's 16 rows fold in registers, no lane lies along the axis, and
  // the 4 warps do: shared memory.
  ASSERT_TRUE(k.ops[1].reduction);
  const auto& col = *k.ops[1].reduction;
  EXPECT_EQ(col.inThreadElements, 16u);
  EXPECT_EQ(col.accumulators, 4u);
  EXPECT_EQ(col.laneRounds, 0);
  EXPECT_EQ(col.shuffles, 0u);
  EXPECT_EQ(col.warpsAlongAxis, 4);
  // 64-bit elements cross the lanes as two 32-bit halves.
  ASSERT_TRUE(k.ops[2].reduction);
  EXPECT_EQ(k.ops[2].reduction->shuffles, 160u);
  EXPECT_EQ(k.summary.reductions, 3);
  EXPECT_EQ(k.summary.crossWarpReductions, 1);
  const json j = report::reportToJson(k);
  EXPECT_EQ(j["ops"][0]["reduction"]["shuffles"], 80);
  EXPECT_EQ(j["ops"][1]["reduction"]["crossWarp"], true);
}

// --- the corpus -------------------------------------------------------------------------------

const std::filesystem::path kCorpus = std::filesystem::path(LAYOUT_TEST_DATA_DIR) / "ir/triton";

std::vector<std::filesystem::path> corpusFiles(const std::string& marker) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(kCorpus))
    if (e.path().extension() == ".ttgir" &&
        e.path().filename().string().find(marker) != std::string::npos)
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Triton's verifier and layout inference give every layout-only op in its TTGIR a result layout
// that needs no data movement, and its lowering emits none for them: each one must be free.
TEST(ReportLayoutCorpus, EveryLayoutChangeTritonEmittedIsFree) {
  int checked = 0;
  for (const auto& f : corpusFiles(".")) {
    SCOPED_TRACE(f.filename().string());
    const auto k = reportOk(layout_test::readDataFile("ir/triton/" + f.filename().string()));
    for (const auto& op : k.ops) {
      if (op.category != "layout" || op.op == "tt.reduce" || op.op == "tt.scan" ||
          op.op == "ttg.memdesc_trans" || op.op == "amdg.in_thread_transpose")
        continue;
      SCOPED_TRACE(op.op + " at mlir line " + std::to_string(op.line));
      ASSERT_TRUE(op.change) << (op.notes.empty() ? "" : op.notes[0]);
      EXPECT_TRUE(op.change->free) << op.change->why;
      ++checked;
    }
  }
  EXPECT_GE(checked, 100);
}

struct Site {
  bool known = false;
  int shuffles = 0, sharedTraffic = 0;
};

// The PTX's counts at a source line (`by_line`: the line the PTX's debug locations name, the
// callee's for code Triton inlines from its library, e.g. the combine loop of tl.sum).
Site siteOf(const json& meta, const std::string& file, int line) {
  Site s;
  const json& bySite = meta["ptx"]["by_line"];
  const std::string key = file + ":" + std::to_string(line);
  if (!bySite.contains(key)) return s;
  s.known = true;
  s.shuffles = bySite[key].value("shfl.sync", 0);
  for (const char* c : {"ld.shared", "st.shared"}) s.sharedTraffic += bySite[key].value(c, 0);
  return s;
}

// At each source line whose reductions stay inside warps, Triton's PTX has exactly the shuffles
// the report counts; where a reduction crosses warps the PTX goes through shared memory there.
TEST(ReportLayoutCorpus, ReductionShufflesMatchThePtx) {
  int exact = 0, crossWarp = 0;
  for (const auto& f : corpusFiles(".sm")) {
    const std::string stem = f.stem().string();
    SCOPED_TRACE(stem);
    const json meta = json::parse(layout_test::readDataFile("ir/triton/" + stem + ".meta.json"));
    const auto k = reportOk(layout_test::readDataFile("ir/triton/" + f.filename().string()));
    struct Predicted {
      uint64_t shuffles = 0;
      bool crossWarp = false;
      bool otherOps = false;
    };
    std::map<std::pair<std::string, int>, Predicted> sites;
    for (const auto& op : k.ops) {
      const auto key = std::make_pair(op.loc.file, op.loc.line);
      if (op.reduction) {
        sites[key].shuffles += op.reduction->shuffles;
        sites[key].crossWarp |= op.reduction->crossWarp();
      }
    }
    // Sites where other ops may shuffle or use shared memory are left out.
    for (const auto& op : k.ops)
      if (!op.reduction && (op.conversion || op.banks || op.op == "tt.scan"))
        if (auto it = sites.find({op.loc.file, op.loc.line}); it != sites.end())
          it->second.otherOps = true;
    for (const auto& [key, p] : sites) {
      if (p.otherOps) continue;
      const Site s = siteOf(meta, key.first, key.second);
      if (!s.known) continue;
      SCOPED_TRACE(key.first + ":" + std::to_string(key.second));
      if (p.crossWarp) {
        EXPECT_GT(s.sharedTraffic, 0);
        ++crossWarp;
      } else {
        EXPECT_EQ(uint64_t(s.shuffles), p.shuffles);
        EXPECT_EQ(s.sharedTraffic, 0);
        ++exact;
      }
    }
  }
  EXPECT_GE(exact, 6);
  EXPECT_GE(crossWarp, 2);
}

} // namespace
