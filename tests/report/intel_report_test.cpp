// The report on Intel Xe IR (kernel_report.h): upstream XeGPU (tests/data/ir/xegpu, every file
// checked by mlir-opt-22; propagate_output*.mlir is mlir-opt-22's own output) and the Intel
// backend's TTGIR (tests/data/ir/intel), against figures worked out by hand from the PVC 2D
// block I/O and DPAS rules and from seed 002's printed example (each directory's
// expected.json, written without running this project, with the derivation of every figure).
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

const std::filesystem::path kData = std::filesystem::path(LAYOUT_TEST_DATA_DIR) / "ir";

const report::OpReport* opAt(const report::KernelReport& k, const std::string& name, int line) {
  for (const auto& op : k.ops)
    if (op.op == name && op.line == line) return &op;
  return nullptr;
}

std::string notesOf(const report::OpReport& op) {
  std::string s;
  for (const auto& n : op.notes) s += n + "; ";
  return s;
}

std::string instrShape(const json& v) {
  return "[" + std::to_string(v[0].get<int>()) + ", " + std::to_string(v[1].get<int>()) + ", " +
         std::to_string(v[2].get<int>()) + "]";
}

// "moves" in the hand-written files: none | registers | lanes | subgroups (warps).
ConversionKind kindOf(const std::string& moves) {
  if (moves == "none") return ConversionKind::None;
  if (moves == "registers") return ConversionKind::RegisterPermutation;
  if (moves == "lanes") return ConversionKind::WarpShuffle;
  return ConversionKind::SharedMemory;
}

int checkDirectory(const std::string& dir) {
  const json expected = json::parse(layout_test::readDataFile("ir/" + dir + "/expected.json"));
  int checked = 0;
  std::map<std::string, report::KernelReport> reports;
  for (const json& e : expected["ops"]) {
    const std::string file = e["file"];
    if (!reports.count(file)) {
      auto r = report::reportFromText(layout_test::readDataFile("ir/" + dir + "/" + file), {});
      EXPECT_TRUE(r) << file << ": " << (r ? "" : r.error().message);
      if (!r) continue;
      reports[file] = *r;
    }
    const report::KernelReport& k = reports[file];
    const std::string name = e["op"];
    const int line = e["line"];
    SCOPED_TRACE(file + ":" + std::to_string(line) + " " + name);
    const report::OpReport* op = opAt(k, name, line);
    if (!op) {
      ADD_FAILURE() << "not in the report";
      continue;
    }
    ++checked;
    const bool block = name == "xegpu.load_nd" || name == "xegpu.store_nd" ||
                       name == "xegpu.prefetch_nd" ||
                       ((name == "tt.load" || name == "tt.store") && e.contains("tileHeight"));
    if (block) {
      if (!op->blockIo) {
        ADD_FAILURE() << "no blockIo: " << notesOf(*op);
        continue;
      }
      const report::BlockIoFigures& b = *op->blockIo;
      if (e.contains("tile")) {
        EXPECT_EQ(b.tile, e["tile"].get<std::vector<int64_t>>());
      }
      if (e.contains("tileHeight")) {
        EXPECT_EQ(b.tile, (std::vector<int64_t>{e["tileHeight"], e["tileWidth"]}));
        EXPECT_EQ(b.arrayLength, e["vBlocks"].get<int>());
      }
      if (e.contains("subgroupData")) {
        EXPECT_EQ(b.subgroupData, e["subgroupData"].get<std::vector<int64_t>>());
      }
      for (const char* count : {"instructions", "loadsPerWarp", "storesPerWarp"})
        if (e.contains(count)) {
          EXPECT_EQ(b.instructions, e[count].get<int64_t>()) << count;
        }
      if (e.contains("arrayLength")) {
        EXPECT_EQ(b.arrayLength, e["arrayLength"].get<int>());
      }
      if (e.contains("packed")) {
        EXPECT_EQ(b.packed, e["packed"].get<bool>());
      }
      if (e.contains("vnni")) {
        EXPECT_EQ(b.packed, e["vnni"].get<bool>());
      }
      if (e.contains("transpose")) {
        EXPECT_EQ(b.transpose, e["transpose"].get<bool>());
      }
      EXPECT_EQ(b.legal, e["legalOnPvc"].get<bool>()) << b.why;
      if (e.contains("elementsPerLane")) {
        // XeGPU: per instruction; the Intel TTGIR entries: the warp's whole data for the op.
        const int64_t perLane =
            dir == "intel" ? b.elementsPerLane * b.instructions : b.elementsPerLane;
        if (e.contains("elementsPerLaneAllBlocks")) {
          EXPECT_EQ(b.elementsPerLane, e["elementsPerLaneAllBlocks"].get<int64_t>());
        } else {
          EXPECT_EQ(perLane, e["elementsPerLane"].get<int64_t>());
        }
      }
    } else if (name == "xegpu.dpas" || name == "tt.dot") {
      if (!op->dot) {
        ADD_FAILURE() << "no dot: " << notesOf(*op);
        continue;
      }
      EXPECT_EQ(op->dot->instrShape, instrShape(e["instrShape"]));
      const char* count = name == "tt.dot" ? "dpasPerWarp" : "instructions";
      EXPECT_EQ(op->dot->instructions, e[count].get<int64_t>());
      const char* acc = name == "tt.dot" ? "accRegistersPerLane" : "accElementsPerLane";
      EXPECT_EQ(op->dot->accumulatorRegisters, e[acc].get<int>());
    } else if (name == "xegpu.convert_layout" || name == "ttg.convert_layout") {
      if (!op->conversion) {
        ADD_FAILURE() << "no plan: " << notesOf(*op);
        continue;
      }
      const ConversionKind want = kindOf(e["moves"]);
      // A conversion whose layouts are the same map but were written differently is "none" by
      // ownership; the planner may still rename registers.
      if (want == ConversionKind::None) {
        EXPECT_TRUE(op->conversion->kind == ConversionKind::None ||
                    op->conversion->kind == ConversionKind::RegisterPermutation);
      } else {
        EXPECT_EQ(op->conversion->kind, want);
      }
    } else if (e.contains("contiguousElementsPerThread")) {
      if (!op->vectorWidth) {
        ADD_FAILURE() << "no vector width: " << notesOf(*op);
        continue;
      }
      EXPECT_EQ(*op->vectorWidth, e["contiguousElementsPerThread"].get<int>());
    } else {
      ADD_FAILURE() << "an entry this test does not compare";
    }
  }
  return checked;
}

TEST(ReportIntel, XegpuFilesMatchTheHandFigures) {
  EXPECT_GE(checkDirectory("xegpu"), 40);
}

TEST(ReportIntel, IntelBackendFilesMatchTheHandFigures) {
  EXPECT_GE(checkDirectory("intel"), 13);
}

// Every XeGPU file reads as a PVC module (no ttg.target) and lists every block access, dpas and
// convert_layout it holds.
TEST(ReportIntel, XegpuModulesAreAnalysedForPvc) {
  for (const auto& e : std::filesystem::directory_iterator(kData / "xegpu")) {
    if (e.path().extension() != ".mlir") continue;
    SCOPED_TRACE(e.path().filename().string());
    auto k = report::reportFromText(
        layout_test::readDataFile("ir/xegpu/" + e.path().filename().string()), {});
    ASSERT_TRUE(k) << k.error().message;
    EXPECT_EQ(k->target, "pvc");
    EXPECT_EQ(k->bankModel, "xe");
    EXPECT_EQ(k->lanes, 16);
    const json j = report::reportToJson(*k);
    EXPECT_FALSE(j["ops"].empty());
    for (const json& op : j["ops"]) {
      const std::string name = op["op"];
      if (name == "xegpu.convert_layout") {
        EXPECT_TRUE(op.contains("plan")) << op.dump();
      }
      if (name.find("_nd") != std::string::npos) {
        EXPECT_TRUE(op.contains("blockIo")) << op.dump();
      }
    }
    // Only the bmg spelling changes the hardware: its block I/O is PVC's.
    auto bmg = report::reportFromText(
        layout_test::readDataFile("ir/xegpu/" + e.path().filename().string()), {"bmg"});
    ASSERT_TRUE(bmg);
    EXPECT_EQ(bmg->bankModel, "xe");
  }
}

// A block shape past the rules is reported with the rule, not refused.
TEST(ReportIntel, IllegalBlockShapesNameTheRule) {
  auto k = report::reportFromText(layout_test::readDataFile("ir/xegpu/gemm_sg.mlir"), {});
  ASSERT_TRUE(k);
  int illegal = 0;
  for (const auto& op : k->ops)
    if (op.blockIo && !op.blockIo->legal) {
      ++illegal;
      EXPECT_NE(op.blockIo->why.find("not a legal store"), std::string::npos) << op.blockIo->why;
      ASSERT_FALSE(op.notes.empty());
    }
  EXPECT_EQ(illegal, 1);
}

} // namespace

// Shapes past every limit, and layout fields that do not fit them, are notes on their ops.
TEST(ReportIntel, HostileShapesAreNotes) {
  const std::string text = R"(gpu.module @m {
  gpu.func @k(%a: vector<9223372036854775807x2xf16>, %b: vector<2x4611686018427387904xf16>, %c: vector<8x16xf32>) kernel {
    %d = xegpu.dpas %a, %b {layout_cd = #xegpu.layout<sg_layout = [1, 1], sg_data = [4611686018427387904, 16]>} : vector<9223372036854775807x2xf16>, vector<2x4611686018427387904xf16> -> vector<8x16xf32>
    %t = xegpu.create_nd_tdesc %c : memref<64x64xf16> -> !xegpu.tensor_desc<4611686018427387904x16xf16>
    %v = xegpu.load_nd %t : !xegpu.tensor_desc<4611686018427387904x16xf16> -> vector<4611686018427387904x16xf16>
    %s = xegpu.create_nd_tdesc %c : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>
    %w = xegpu.load_nd %s <{layout = #xegpu.layout<sg_layout = [1, 1], sg_data = [1099511627776, 1]>}> : !xegpu.tensor_desc<8x16xf16> -> vector<8x16xf16>
    %x = xegpu.convert_layout %c <{input_layout = #xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>, target_layout = #xegpu.layout<lane_layout = [2, 8], lane_data = [1, 1]>}> : vector<8x16xf32>
    gpu.return
  }
}
)";
  auto k = report::reportFromText(text, {});
  ASSERT_TRUE(k) << k.error().message;
  int notes = 0;
  for (const auto& op : k->ops) {
    if (op.op == "xegpu.convert_layout") {
      EXPECT_TRUE(op.conversion) << notesOf(op);
      continue;
    }
    EXPECT_FALSE(op.dot);
    EXPECT_FALSE(op.blockIo) << op.op;
    notes += op.notes.empty() ? 0 : 1;
  }
  EXPECT_EQ(notes, 3);
}
