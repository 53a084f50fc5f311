// Hardware targets (layout/target/hardware_target.h): the built-in facts against the public
// sources the project cites (docs/reference/intel-xe.md §1.1, §4.4; docs/reference/banks-swizzles-
// visualizers.md §3), the one vocabulary the modules share, and the user-description reader.
#include "layout/intel/block_io.h"
#include "layout/smem/bank_model.h"
#include "layout/target/hardware_target.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>

namespace layout::target {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

HardwareTarget get(const char* name) {
  auto t = hardwareTarget(name);
  EXPECT_TRUE(t) << name << ": " << (t ? "" : t.error().message);
  return t ? *t : HardwareTarget{};
}

std::string errorOf(const json& j) {
  auto t = hardwareTargetFromJson(j);
  return t ? "" : t.error().message;
}

TEST(HardwareTarget, BuiltinNamesInOrder) {
  EXPECT_EQ(builtinTargetNames(), "pvc, bmg, arc, nvidia, cdna3, cdna4");
  for (const HardwareTarget& t : builtinTargets()) EXPECT_EQ(get(t.name.c_str()).name, t.name);
}

// intel-xe.md §1.1: executionSize (N of one DPAS) is 16 on PVC and BMG, 8 on DG2; systolicDepth
// must be 8; repeatCount 1..8. §4.4: subgroup 16 on PVC/BMG, 8 on DG2 (DPAS exec 8); 64-byte GRF
// on PVC/BMG, 32 B on DG2; 128 GRF per thread, 256 in large-GRF mode.
TEST(HardwareTarget, IntelFactsFromTheReference) {
  for (const char* name : {"pvc", "bmg"}) {
    HardwareTarget t = get(name);
    EXPECT_EQ(t.vendor, Vendor::Intel);
    EXPECT_EQ(t.subgroupSize, 16) << name;
    ASSERT_TRUE(t.dpas) << name;
    EXPECT_EQ(t.dpas->executionSize, 16) << name;
    EXPECT_EQ(t.dpas->systolicDepth, 8) << name;
    EXPECT_EQ(t.dpas->maxRepeatCount, 8) << name;
    EXPECT_EQ(t.registers.registerBytes, 64) << name;
    EXPECT_EQ(t.registers.registersPerThread, (std::vector<int>{128, 256})) << name;
    EXPECT_TRUE(t.blockIo) << name;
  }
  HardwareTarget arc = get("arc");
  EXPECT_EQ(arc.subgroupSize, 8);
  ASSERT_TRUE(arc.dpas);
  EXPECT_EQ(arc.dpas->executionSize, 8);
  EXPECT_EQ(arc.registers.registerBytes, 32);
  EXPECT_FALSE(arc.blockIo); // DG2 has no 2D block I/O
}

// Warp / wave sizes: 32 lanes on NVIDIA, 64 on CDNA3 and CDNA4 (banks reference §3.2, §3.3).
TEST(HardwareTarget, WarpAndWaveSizes) {
  EXPECT_EQ(get("nvidia").subgroupSize, 32);
  EXPECT_EQ(get("cdna3").subgroupSize, 64);
  EXPECT_EQ(get("cdna4").subgroupSize, 64);
  for (const char* name : {"nvidia", "cdna3", "cdna4"}) {
    EXPECT_FALSE(get(name).dpas) << name;
    EXPECT_FALSE(get(name).blockIo) << name;
  }
}

// One vocabulary: the bank model of a target is the model smem reads under its own name, and
// bmg's block-I/O rules are pvc's (the sources give no difference, intel-xe.md §4.4).
TEST(HardwareTarget, ModulesReadTheTargetsSections) {
  const std::pair<const char*, const char*> models[] = {{"pvc", "xe"},      {"bmg", "xe"},
                                                        {"arc", "xe"},      {"nvidia", "nvidia"},
                                                        {"cdna3", "cdna3"}, {"cdna4", "cdna4"}};
  for (auto [targetName, model] : models) {
    EXPECT_EQ(get(targetName).bankModelName(), model);
    auto viaTarget = smem::bankTarget(targetName);
    auto viaModel = smem::bankTarget(model);
    ASSERT_TRUE(viaTarget && viaModel) << targetName;
    EXPECT_EQ(viaTarget->name, model);
    ASSERT_EQ(viaTarget->instructions.size(), viaModel->instructions.size());
    for (size_t i = 0; i < viaModel->instructions.size(); ++i)
      EXPECT_EQ(viaTarget->instructions[i].name, viaModel->instructions[i].name);
  }
  auto pvc = intel::blockIoTarget("pvc"), bmg = intel::blockIoTarget("bmg");
  ASSERT_TRUE(pvc && bmg);
  intel::BlockIoTarget renamed = *bmg;
  renamed.name = "pvc";
  EXPECT_EQ(renamed, *pvc);
  EXPECT_EQ(pvc->subgroupSize, 16);
  EXPECT_EQ(pvc->grfBytes, 64);
  // "xe", the SLM model's name, is an alias of pvc.
  EXPECT_EQ(get("xe").name, "pvc");
}

TEST(HardwareTarget, UnknownNamesListTheVocabulary) {
  auto t = hardwareTarget("h100");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().message,
            "unknown target 'h100' (known: pvc, bmg, arc, nvidia, cdna3, cdna4, or @file.json)");
  auto f = hardwareTarget("@/no/such/target.json");
  ASSERT_FALSE(f);
  EXPECT_NE(f.error().message.find("/no/such/target.json"), std::string::npos) << f.error().message;
}

json userTarget() {
  return json::parse(R"({"name": "mygpu", "vendor": "intel", "subgroupSize": 16,
    "registerFile": {"registerBytes": 64, "registersPerThread": [128]},
    "dpas": {"executionSize": 16, "systolicDepth": 8, "maxRepeatCount": 4, "types": ["bf16"]},
    "blockIo": "pvc", "bankModel": "xe"})");
}

TEST(HardwareTarget, UserDescriptions) {
  auto t = hardwareTargetFromJson(userTarget());
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->dpas->maxRepeatCount, 4);
  EXPECT_TRUE(t->dpas->supports("bf16"));
  EXPECT_FALSE(t->dpas->supports("f16"));
  EXPECT_EQ(t->bankModelName(), "xe");
  // The rules it names are pvc's, under its own name.
  auto rules = intel::blockIoTarget(*t);
  ASSERT_TRUE(rules) << rules.error().message;
  EXPECT_EQ(rules->name, "mygpu");
  EXPECT_EQ(rules->maxTileHeight, intel::blockIoTarget("pvc")->maxTileHeight);
  // Written out in full and read back: the same description.
  auto back = hardwareTargetFromJson(json::parse(hardwareTargetToJson(*t).dump()));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(hardwareTargetToJson(*back), hardwareTargetToJson(*t));
  EXPECT_EQ(*back->blockIo, *t->blockIo);
  // From a file.
  const std::string path = testing::TempDir() + "/mygpu_target.json";
  std::ofstream(path) << userTarget().dump();
  auto fromFile = hardwareTarget("@" + path);
  ASSERT_TRUE(fromFile) << fromFile.error().message;
  EXPECT_EQ(fromFile->name, "mygpu");
}

TEST(HardwareTarget, UserDescriptionErrorsNameTheField) {
  auto with = [](const char* key, json value) {
    json j = userTarget();
    j[key] = std::move(value);
    return errorOf(j);
  };
  EXPECT_EQ(with("subgroupSize", 12), "subgroupSize: 12 is not a power of two");
  EXPECT_EQ(with("vendor", "acme"), "vendor: expected intel, nvidia, amd or other, got 'acme'");
  EXPECT_EQ(with("warpSize", 32), "warpSize: unknown field");
  EXPECT_EQ(with("blockIo", "arc"),
            "blockIo: 'arc' is not a target with 2D block I/O (known: pvc, bmg)");
  EXPECT_EQ(with("bankModel", "lds"),
            "bankModel: 'lds' is not a bank model (known: nvidia, cdna3, cdna4, xe, or a target's "
            "name)");
  EXPECT_EQ(with("dpas", json::parse(R"({"executionSize": 16, "systolicDepth": 8,
                                          "maxRepeatCount": 8, "types": ["fp8"]})")),
            "dpas.types[0]: expected f16, bf16, tf32 or int8, got 'fp8'");
  EXPECT_EQ(with("registerFile", json::parse(R"({"registerBytes": 64,
                                                  "registersPerThread": [256, 128]})")),
            "registerFile.registersPerThread[1]: 128 must be greater than the previous entry "
            "(ascending, no repeats)");
  EXPECT_EQ(with("name", "@x"), "name: must be 1 to 64 characters and not start with '@'");
  // A block-I/O section of its own is read by layout/intel's rules, with the path named, when
  // the description is read (issue 31: it read, and only blockload refused it).
  json j = userTarget();
  j["blockIo"] = json::parse(R"({"maxTileHeight": {"load": 32}})");
  EXPECT_EQ(errorOf(j).rfind("blockIo: maxTileHeight", 0), 0u) << errorOf(j);
}

// Issue 31: `layoutctl targets @FILE` printed descriptions whose sections the tools refuse. Every
// section is checked by its module's rules when the description is read, from JSON or a file.
TEST(HardwareTarget, InvalidSectionsAreRefusedWhenRead) {
  const ordered_json pvc = hardwareTargetToJson(get("pvc"));
  auto withSection = [&](const char* key, const std::function<void(json&)>& edit) {
    json j = userTarget();
    j[key] = json::parse(pvc[key].dump());
    edit(j[key]);
    return j;
  };
  const json badHeight = withSection("blockIo", [](json& b) { b["surface"]["maxHeight"] = -1; });
  EXPECT_EQ(errorOf(badHeight), "blockIo: surface.maxHeight: -1 is outside [1, 2147483648]");
  const json badWidth =
      withSection("blockIo", [](json& b) { b["elements"][0]["maxTileWidth"] = 0; });
  EXPECT_EQ(errorOf(badWidth), "blockIo: elements[0].maxTileWidth: 0 is outside [1, 256]");
  const json badBanks = withSection("bankModel", [](json& m) { m["bankBytes"] = 0; });
  EXPECT_EQ(errorOf(badBanks), "bankModel.bankBytes: 0 is outside [1, 64]");
  // The same rule from a file, as --target @FILE and `layoutctl targets @FILE` read it.
  const std::string path = testing::TempDir() + "/bad_banks_target.json";
  std::ofstream(path) << badBanks.dump();
  auto fromFile = hardwareTarget("@" + path);
  ASSERT_FALSE(fromFile);
  EXPECT_EQ(fromFile.error().message,
            "target '" + path + "': bankModel.bankBytes: 0 is outside [1, 64]");
  // Valid sections of one's own still read.
  EXPECT_EQ(errorOf(withSection("blockIo", [](json&) {})), "");
  EXPECT_EQ(errorOf(withSection("bankModel", [](json&) {})), "");
}

} // namespace
} // namespace layout::target
