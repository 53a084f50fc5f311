// The xegpu.* batch ops (interchange §2): arguments, results and per-line errors.
#include "layout/protocol/batch.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

using nlohmann::json;

namespace {

const char* kLayout = "#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 128], lane_layout = [1, "
                      "16], lane_data = [1, 1], order = [1, 0]>";

json run(const std::string& op, const json& args) {
  layout::BatchProcessor batch;
  json request = {{"id", 3}, {"op", op}, {"args", args}};
  std::string out = batch.processLine(request.dump());
  EXPECT_EQ(out.find('\n'), std::string::npos);
  return json::parse(out);
}

json result(const json& response) {
  EXPECT_FALSE(response.contains("error")) << response.dump();
  EXPECT_EQ(response["id"], 3);
  return response.value("result", json());
}

std::string errorOf(const json& response) {
  EXPECT_TRUE(response.contains("error")) << response.dump();
  return response.value("error", "");
}

TEST(BatchXegpu, ToLinearLayout) {
  json l = result(run("xegpu.toLinearLayout", {{"layout", kLayout}, {"shape", {128, 256}}}));
  ASSERT_EQ(l["inDims"].size(), 4u);
  EXPECT_EQ(l["inDims"][0]["name"], "register");
  EXPECT_EQ(l["inDims"][1]["name"], "lane");
  EXPECT_EQ(l["inDims"][2]["name"], "warp");
  EXPECT_EQ(l["inDims"][3]["name"], "block");
  // Seed 000 lines 804-817 on 256 columns: subgroups [1, *] start at row 32, [*, 1] at column
  // 128.
  EXPECT_EQ(l["inDims"][2]["bases"], json::parse("[[0, 128], [32, 0]]"));
  EXPECT_EQ(l["outDims"],
            json::parse(R"([{"name":"dim0","size":128},{"name":"dim1","size":256}])"));
  // On [128, 128] upstream's isDistributable fails (whole-shape rule).
  EXPECT_EQ(errorOf(run("xegpu.toLinearLayout", {{"layout", kLayout}, {"shape", {128, 128}}})),
            std::string("xegpu.toLinearLayout: cannot distribute [128, 128] using ") +
                "#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 128], lane_layout = [1, 16], "
                "lane_data = [1, 1], order = [1, 0]>");
}

TEST(BatchXegpu, SubgroupTiles) {
  json t = result(
      run("xegpu.subgroupTiles", {{"layout", kLayout}, {"shape", {128, 128}}, {"subgroupId", 3}}));
  EXPECT_EQ(t, json::parse(R"({"tileShape":[32,128],"tileOffsets":[[32,0],[96,0]]})"));
  // Issue 31: an id past the grid was wrapped (99 answered as subgroup 3).
  EXPECT_EQ(errorOf(run("xegpu.subgroupTiles",
                        {{"layout", kLayout}, {"shape", {128, 128}}, {"subgroupId", 99}})),
            "xegpu.subgroupTiles: args.subgroupId: 99 is outside the valid range [0, 3] (sg_layout "
            "[2, 2] has 4 subgroups)");
  EXPECT_EQ(errorOf(run("xegpu.delinearize", {{"layout", kLayout}, {"id", 16}, {"level", "lane"}})),
            "xegpu.delinearize: args.id: 16 is outside the valid range [0, 15] (lane_layout [1, "
            "16] has 16 lanes)");
}

// Issue 31: a shape with a 0 was accepted by xegpu.propagate.
TEST(BatchXegpu, PropagateRefusesZeroDims) {
  EXPECT_EQ(errorOf(run("xegpu.propagate", {{"op", "sg_layout_candidates"},
                                            {"numSubgroups", 32},
                                            {"shape", {128, 0}},
                                            {"instData", {8, 16}}})),
            "xegpu.propagate: args.shape: dimension 1 is 0: every dimension is at least 1");
  EXPECT_EQ(errorOf(run("xegpu.propagate",
                        {{"op", "shape_cast"},
                         {"result", "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>"},
                         {"sourceShape", {0, 16}},
                         {"resultShape", {1, 16}}})),
            "xegpu.propagate: args.sourceShape: dimension 0 is 0: every dimension is at least 1");
}

// The request is read in protocol/: an op xegpu does not know is named with the list of ops, and
// a result attribute that does not parse is reported with its line and column (the '>' that
// should have been ',' or ']' is character 52 of the text).
TEST(BatchXegpu, PropagateNamesAnUnknownOpAndWhereTheResultFailsToParse) {
  const std::string unknown = errorOf(run(
      "xegpu.propagate", {{"op", "frobnicate"},
                          {"result", "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>"}}));
  EXPECT_NE(unknown.find("unknown op 'frobnicate' (expected one of dpas,"), std::string::npos)
      << unknown;
  const std::string bad = errorOf(
      run("xegpu.propagate", {{"op", "transpose"},
                              {"result", "#xegpu.layout<lane_layout = [1, 16], lane_data = [1>"},
                              {"permutation", {1, 0}}}));
  EXPECT_NE(bad.find("transpose: result: line 1, column 52"), std::string::npos) << bad;
}

TEST(BatchXegpu, Delinearize) {
  EXPECT_EQ(
      result(run("xegpu.delinearize", {{"layout", kLayout}, {"id", 2}, {"level", "subgroup"}})),
      json::parse("[1, 0]"));
  EXPECT_EQ(result(run("xegpu.delinearize", {{"layout", kLayout}, {"id", 5}, {"level", "lane"}})),
            json::parse("[0, 5]"));
  EXPECT_EQ(errorOf(run("xegpu.delinearize", {{"layout", kLayout}, {"id", 5}, {"level", "wg"}})),
            "xegpu.delinearize: args.level: expected \"subgroup\" or \"lane\", not \"wg\"");
}

TEST(BatchXegpu, LaneCoordsAndDistributedShape) {
  const char* sgMap = "#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 2]>";
  // Seed 000 line 387 (wi_data [1, 2] on 12x32 -> 12x2); lane 1 holds columns 2 and 3.
  EXPECT_EQ(result(run("xegpu.distributedShape", {{"layout", sgMap}, {"shape", {12, 32}}})),
            json::parse("[12, 2]"));
  json c = result(run("xegpu.laneCoords", {{"layout", sgMap}, {"shape", {2, 32}}, {"laneId", 1}}));
  EXPECT_EQ(c, json::parse("[[0, 2], [0, 3], [1, 2], [1, 3]]"));
  json w =
      result(run("xegpu.laneCoords",
                 {{"layout", kLayout}, {"shape", {128, 256}}, {"laneId", 0}, {"subgroupId", 2}}));
  // Subgroup 2 = [1, 0]: blocks at rows 32 and 96, columns 0..127; lane 0 takes every 16th
  // column, 8 per row.
  ASSERT_EQ(w.size(), 2u * 32u * 8u);
  EXPECT_EQ(w[0], json::parse("[32, 0]"));
  EXPECT_EQ(w[1], json::parse("[32, 16]"));
  EXPECT_EQ(w[8], json::parse("[33, 0]"));
  EXPECT_EQ(w[256], json::parse("[96, 0]"));
}

TEST(BatchXegpu, ErrorsAreLines) {
  EXPECT_EQ(errorOf(run("xegpu.toLinearLayout", {{"shape", {8}}})),
            "xegpu.toLinearLayout: missing argument \"layout\"");
  EXPECT_NE(errorOf(run("xegpu.toLinearLayout",
                        {{"layout", "#xegpu.layout<lane_layout = [16]>"}, {"shape", {16}}}))
                .find("args.layout: line 1, column 1: lane_layout and lane_data must be used "
                      "together"),
            std::string::npos);
  EXPECT_EQ(errorOf(run("xegpu.toLinearLayout", {{"layout", kLayout}, {"shape", {0, 8}}})),
            "xegpu.toLinearLayout: args.shape[0]: expected a positive integer");
  EXPECT_EQ(errorOf(run("xegpu.distributedShape",
                        {{"layout", "#xegpu.layout<sg_layout = [2, 2], sg_data = [48, 128]>"},
                         {"shape", {128, 128}}})),
            "xegpu.distributedShape: cannot distribute [128, 128] using #xegpu.layout<sg_layout = "
            "[2, 2], sg_data = [48, "
            "128]>");
  EXPECT_EQ(errorOf(run("xegpu.subgroupTiles", {{"layout", kLayout}, {"shape", {128, 128}}})),
            "xegpu.subgroupTiles: missing argument \"subgroupId\"");
  EXPECT_EQ(errorOf(run("xegpu.laneCoords",
                        {{"layout", kLayout}, {"shape", {128, 128}}, {"laneId", -1}})),
            "xegpu.laneCoords: args.laneId: expected a non-negative integer");
}

} // namespace

namespace {

// Issue 18: the generic ops take every dialect. The XeGPU answer must be exactly what the xegpu.*
// ops (tested against upstream's rules above and in tests/xegpu) give for the same attribute;
// errors are the XeGPU verifier's words.
TEST(BatchAnyDialect, VerifyToLinearLayoutAndLayoutStrTakeXegpu) {
  const json shape = {128, 256};
  EXPECT_EQ(result(run("toLinearLayout", {{"encoding", kLayout}, {"shape", shape}})),
            result(run("xegpu.toLinearLayout", {{"layout", kLayout}, {"shape", shape}})));
  EXPECT_EQ(result(run("verify", {{"encoding", kLayout}, {"shape", shape}})), json({{"ok", true}}));
  const std::string slice = std::string("#xegpu.slice<") + kLayout + ", dims = [1]>";
  const std::string text =
      result(run("layoutStr", {{"encoding", slice}, {"shape", {128}}, {"view", "tensor"}}));
  EXPECT_NE(text.find("T0:0"), std::string::npos) << text;
  // The XeGPU verifier's message, as the xegpu.* op gives it.
  const std::string bad = "#xegpu.layout<sg_layout = [2, 2], sg_data = [32]>";
  const std::string viaGeneric = errorOf(run("verify", {{"encoding", bad}, {"shape", shape}}));
  const std::string viaXegpu =
      errorOf(run("xegpu.toLinearLayout", {{"layout", bad}, {"shape", shape}}));
  const std::string rule = viaXegpu.substr(viaXegpu.find(": ") + 2);
  EXPECT_NE(viaGeneric.find(rule.substr(rule.find(": ") + 2)), std::string::npos)
      << viaGeneric << "\n"
      << viaXegpu;
  // Both TritonGPU dialect spellings, and a dialect that is neither.
  for (const char* e : {"#triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], "
                        "warpsPerCTA = [1, 1], order = [1, 0]}>",
                        "#triton_intel_gpu.subgroup_2d_block<{warpsPerCTA = [1, 1], instrShape = "
                        "[8, 16], numBlocks=1, order=[1, 0], kWidth=1, threadsPerWarp=16}>"})
    EXPECT_EQ(result(run("verify", {{"encoding", e}, {"shape", {8, 16}}})), json({{"ok", true}}));
  EXPECT_NE(errorOf(run("verify", {{"encoding", "#gpu.thing<{a = 1}>"}, {"shape", {8, 8}}}))
                .find("unknown layout attribute '#gpu.thing' (the dialects are TritonGPU: #ttg., "
                      "#ttig., #triton_gpu., #triton_intel_gpu.; and XeGPU: #xegpu.)"),
            std::string::npos);
}

} // namespace

namespace {

// The setup rules through xegpu.propagate (tests/xegpu/xegpu_setup_rules_test.cpp checks them
// against upstream's examples): the new arguments reach the library, `result` may be left out
// where no consumer is needed, and `compatible` comes back as a JSON boolean.
TEST(BatchXegpuSetupRules, NewArgumentsReachPropagate) {
  const json reduction = result(run("xegpu.propagate", {{"op", "multi_reduction"},
                                                        {"level", "lane"},
                                                        {"sourceShape", {32, 128}},
                                                        {"reductionDims", {1}},
                                                        {"maxReduceVectorSize", 2}}));
  EXPECT_EQ(reduction["source"], "#xegpu.layout<lane_layout = [16, 1], lane_data = [1, 2]>");
  const json pick = result(run("xegpu.propagate", {{"op", "dpas"},
                                                   {"shapeA", {256, 32}},
                                                   {"shapeB", {32, 256}},
                                                   {"elementType", "bf16"},
                                                   {"numSubgroups", 32}}));
  EXPECT_EQ(pick["a"], "#xegpu.layout<sg_layout = [4, 8], sg_data = [64, 32]>");
  const json candidates = result(run("xegpu.propagate", {{"op", "sg_layout_candidates"},
                                                         {"numSubgroups", 32},
                                                         {"shape", {128, 64}},
                                                         {"instData", {8, 16}}}));
  // A JSON list of sg_layout lists (issue 31: it was the list's text).
  EXPECT_EQ(candidates["candidates"], json::parse("[[8, 4], [16, 2]]"));
  const json same = result(run(
      "xegpu.propagate", {{"op", "compatible"},
                          {"result", "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>"},
                          {"input", "#xegpu.layout<lane_layout = [1, 8], lane_data = [1, 1]>"},
                          {"shape", {8, 16}},
                          {"level", "lane"},
                          {"partialSubgroup", true}}));
  EXPECT_EQ(same["compatible"], true);
  EXPECT_NE(errorOf(run("xegpu.propagate", {{"op", "transpose"}, {"permutation", {1, 0}}}))
                .find("args.result: missing"),
            std::string::npos);
  EXPECT_NE(errorOf(run("xegpu.propagate", {{"op", "multi_reduction"},
                                            {"level", "lane"},
                                            {"sourceShape", {32, 128}},
                                            {"reductionDims", {1}},
                                            {"maxReduceVectorSize", "2"}}))
                .find("args.maxReduceVectorSize"),
            std::string::npos);
}

} // namespace
