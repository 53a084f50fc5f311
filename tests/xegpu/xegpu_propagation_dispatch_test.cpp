// The typed propagation API (layout/xegpu/propagation.h): every request type built directly,
// held in a PropagationRequest and dispatched by propagate(), must give the result type of its op
// with the values of the worked examples the other suites check rule by rule (the XeGPU RFC,
// docs/seeds.md seed 000, line numbers given; upstream's doc-comment examples), and the same
// error as calling its rule directly. Also the JSON form of each result type
// (layout/xegpu/propagation_json.h), whose keys and value types clients read.
#include "layout/xegpu/propagation.h"
#include "layout/xegpu/propagation_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace layout::xegpu {

// Failure messages print a result as its JSON.
void PrintTo(const PropagationResult& result, std::ostream* os) {
  *os << propagationResultToJson(result).dump();
}

} // namespace layout::xegpu

namespace {

using namespace layout::xegpu;
using Dims = std::vector<int64_t>;

XeLayout layout(const std::string& text) {
  auto l = parseXegpuAttr(text);
  EXPECT_TRUE(l) << text << ": " << l.error().message;
  return l ? *l : XeLayout{};
}

std::string canon(const std::string& text) {
  return printXegpu(layout(text));
}

struct Example {
  const char* what;
  PropagationRequest request;
  PropagationResult expected;
};

// One worked example per request type.
std::vector<Example> examples() {
  std::vector<Example> out;
  // Seed 819-834: dpas (C keeps D's inst_data [8, 16]; xegpu_propagation_test says why).
  const std::string d = "#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data=[8,16], "
                        "lane_layout=[1,16], lane_data = [1, 1], order=[1, 0]>";
  out.push_back({"seed 819-834", DpasRequest{layout(d), {256, 32}, {32, 256}, "bf16", "pvc"},
                 DpasLayouts{canon("#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], "
                                   "inst_data=[8,16], lane_layout=[1,16], lane_data = [1, 1], "
                                   "order=[1, 0]>"),
                             canon("#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], "
                                   "inst_data=[16,16], lane_layout=[1,16], lane_data = [2, 1], "
                                   "order=[1, 0]>"),
                             canon(d)}});
  // The subgroup setup with the RFC's D grid preferred reproduces the RFC's A, B and D
  // subgroup fields.
  DpasSubgroupRequest pick{
      32,     {256, 32}, {32, 256},
      "bf16", "pvc",     layout("#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64]>")};
  out.push_back({"dpas subgroup setup", pick,
                 DpasLayouts{canon("#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32]>"),
                             canon("#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64]>"),
                             canon("#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64]>")}});
  // Seed 836-852: the reduction's source is the slice's parent.
  const std::string a2 = "#xegpu.layout<sg_layout = [32, 1], sg_data = [8, 128], inst_data=[1, "
                         "16], lane_layout=[1,16], lane_data = [1, 1], order=[1, 0]>";
  out.push_back({"seed 836-852", MultiReductionRequest{layout("#xegpu.slice<" + a2 + ", 1>"), {1}},
                 SourceLayout{canon(a2)}});
  // setupMultiReductionResultLayout, doc-comment example 1.
  MultiReductionSetupRequest reduce;
  reduce.level = LayoutKind::Subgroup;
  reduce.sourceShape = {32, 128};
  reduce.reductionDims = {1};
  reduce.consumer =
      layout("#xegpu.slice<#xegpu.layout<sg_layout = [4, 8], sg_data = [8, 8]>, dims = [1]>");
  const std::string reduced = canon("#xegpu.slice<#xegpu.layout<sg_layout = [4, 8], sg_data = [8, "
                                    "16]>, dims = [1]>");
  out.push_back(
      {"reduction setup", reduce,
       ReductionLayouts{reduced, canon("#xegpu.layout<sg_layout = [4, 8], sg_data = [8, 16]>"),
                        reduced}});
  // Seed 872-880: broadcast along dim 1, which the source slices away.
  const std::string b = "#xegpu.layout<sg_layout = [16, 1], sg_data = [16, 256], inst_data=[1, "
                        "16], lane_layout=[1,16], lane_data = [1, 1], order=[1, 0]>";
  out.push_back({"seed 872-880", BroadcastRequest{layout(b), {256}, {256, 256}, {1}},
                 SourceLayout{canon("#xegpu.slice<" + b + ", dims = [1]>")}});
  // Seed 855-870: shape_cast splitting a dim.
  out.push_back(
      {"seed 855-870",
       ShapeCastRequest{layout("#xegpu.layout<sg_layout = [8, 1, 4], sg_data = [1, 32, 32], "
                               "inst_data=[1, 1, 16], lane_layout=[1, 1, 16], lane_data = [1, 1, "
                               "1], order=[2, 1, 0] >"),
                        {256, 128},
                        {8, 32, 128}},
       SourceLayout{canon("#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data=[1, "
                          "16], lane_layout=[1, 16], lane_data = [1, 1], order=[1, 0]>")}});
  // Seed 883-889: transpose.
  out.push_back(
      {"seed 883-889",
       TransposeRequest{layout("#xegpu.layout<sg_layout = [4, 8], sg_data = [32, 64], "
                               "inst_data=[16, 16], lane_layout=[1,16], lane_data = [1, 1], "
                               "order=[1, 0]>"),
                        {1, 0}},
       SourceLayout{canon("#xegpu.layout<sg_layout = [8, 4], sg_data = [64, 32], inst_data=[16, "
                          "16], lane_layout=[16, 1], lane_data = [1, 1], order=[0, 1]>")}});
  // Seed 565-568: bitcast i16 -> i8.
  out.push_back(
      {"seed 565-568",
       BitcastRequest{layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 2]>"), 16, 8},
       SourceLayout{canon("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>")}});
  // inferExtractSourceLayout's comment: order [1, 2, 0] with two leading dims.
  out.push_back(
      {"extract",
       ExtractRequest{layout("#xegpu.layout<sg_layout = [2, 2, 2], sg_data = [4, 8, 16], order = "
                             "[1, 2, 0]>"),
                      {2, 3, 8, 16, 32},
                      {8, 16, 32}},
       SourceLayout{canon("#xegpu.layout<sg_layout = [1, 1, 2, 2, 2], sg_data = [1, 1, 4, 8, "
                          "16], order = [3, 4, 2, 1, 0]>")}});
  // setupInterleaveResultLayout's example: half for interleave, twice for deinterleave.
  const XeLayout il =
      layout("#xegpu.layout<inst_data = [1, 64], lane_layout = [1, 16], lane_data = [1, 4]>");
  out.push_back({"interleave", InterleaveRequest{il},
                 SourceLayout{canon("#xegpu.layout<inst_data = [1, 32], lane_layout = [1, 16], "
                                    "lane_data = [1, 2]>")}});
  out.push_back({"deinterleave", DeinterleaveRequest{il},
                 SourceLayout{canon("#xegpu.layout<inst_data = [1, 128], lane_layout = [1, 16], "
                                    "lane_data = [1, 8]>")}});
  // inferInsertStridedSliceSourceLayout: the leading dim dropped, no result set up.
  const std::string dest =
      "#xegpu.layout<lane_layout = [1, 1, 16], lane_data = [1, 1, 1], order = [2, 1, 0]>";
  out.push_back(
      {"insert_strided_slice",
       InsertStridedSliceRequest{layout(dest), {8, 16}, {2, 8, 16}, std::nullopt},
       InsertStridedSliceLayouts{
           canon(dest),
           canon("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>"),
           std::nullopt}});
  // Seed 400-421: load_nd with transpose.
  out.push_back({"seed 400-421",
                 LoadNdRequest{layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>"), 32,
                               Dims{1, 0}, 0, false},
                 TensorDescLayout{canon("#xegpu.sg_map<wi_layout = [16, 1], wi_data = [1, 1]>")}});
  // lane_data [1, 1] vs [1, 2]: lane 1 holds columns 1 and 17 vs 2 and 3: shuffles.
  const XeLayout lanes = layout("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>");
  out.push_back(
      {"convert_layout",
       ConvertLayoutRequest{
           layout("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 2]>"), lanes, {8, 32}},
       ConvertLayoutCost{DataMovement::Lanes}});
  // Half the lanes do not hold what all of them hold.
  out.push_back({"compatible",
                 CompatibleRequest{lanes,
                                   layout("#xegpu.layout<lane_layout = [1, 8], lane_data = [1, "
                                          "1]>"),
                                   {8, 16},
                                   LayoutKind::Lane,
                                   false},
                 Compatibility{false}});
  // getSgLayoutCandidates' doc example.
  out.push_back({"sg_layout_candidates",
                 SgLayoutCandidatesRequest{32, {128, 64}, {8, 16}, std::nullopt},
                 SgLayoutCandidates{{{8, 4}, {16, 2}}}});
  return out;
}

TEST(XegpuPropagationDispatch, EveryRequestTypeGivesItsResult) {
  const std::vector<Example> all = examples();
  // One example per alternative, so a request type added later needs one here.
  ASSERT_EQ(all.size(), std::variant_size_v<PropagationRequest>);
  std::vector<bool> seen(std::variant_size_v<PropagationRequest>);
  for (const Example& e : all) {
    SCOPED_TRACE(e.what);
    seen[e.request.index()] = true;
    auto got = propagate(e.request);
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(got->index(), e.expected.index());
    EXPECT_EQ(*got, e.expected);
    // The overload of the request's own type gives the same, typed.
    std::visit(
        [&](const auto& request) {
          auto direct = propagate(request);
          ASSERT_TRUE(direct) << direct.error().message;
          using Result = typename std::decay_t<decltype(request)>::Result;
          static_assert(std::is_same_v<std::decay_t<decltype(*direct)>, Result>);
          EXPECT_EQ(PropagationResult(*direct), e.expected);
        },
        e.request);
  }
  for (size_t i = 0; i < seen.size(); ++i)
    EXPECT_TRUE(seen[i]) << "no example of alternative " << i;
}

TEST(XegpuPropagationDispatch, OpNames) {
  // Both forms of dpas and multi_reduction are one op; every name is one of propagationOps().
  EXPECT_EQ(opName(DpasRequest{}), "dpas");
  EXPECT_EQ(opName(DpasSubgroupRequest{}), "dpas");
  EXPECT_EQ(opName(MultiReductionSetupRequest{}), "multi_reduction");
  EXPECT_EQ(opName(SgLayoutCandidatesRequest{}), "sg_layout_candidates");
  const auto& ops = propagationOps();
  for (const Example& e : examples())
    EXPECT_NE(std::find(ops.begin(), ops.end(), std::string(opName(e.request))), ops.end())
        << opName(e.request);
  EXPECT_EQ(ops.size(), 14u);
}

// A rule's error comes through the dispatcher unchanged (the CLI prints it as it is).
TEST(XegpuPropagationDispatch, ErrorsPassThrough) {
  TransposeRequest r{layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>"), {0, 0}};
  auto direct = propagate(r);
  auto dispatched = propagate(PropagationRequest(r));
  ASSERT_FALSE(direct);
  ASSERT_FALSE(dispatched);
  EXPECT_EQ(direct.error().message, "transpose: the permutation [0, 0] is not a permutation");
  EXPECT_EQ(dispatched.error().message, direct.error().message);
  DpasRequest d{layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>"),
                {8, 16},
                {16, 16},
                "bf16",
                "cdna3"};
  auto noDpas = propagate(PropagationRequest(d));
  ASSERT_FALSE(noDpas);
  EXPECT_EQ(noDpas.error().message,
            "dpas: target 'cdna3' has no DPAS unit (targets with one: pvc, bmg, arc)");
}

TEST(XegpuPropagationDispatch, DataMovement) {
  EXPECT_EQ(dataMovementName(DataMovement::None), "none");
  EXPECT_EQ(dataMovementName(DataMovement::Registers), "registers");
  EXPECT_EQ(dataMovementName(DataMovement::Lanes), "lanes");
  EXPECT_EQ(dataMovementName(DataMovement::Subgroups), "subgroups");
  EXPECT_FALSE(ConvertLayoutCost{DataMovement::None}.needsDataMovement());
  EXPECT_FALSE(ConvertLayoutCost{DataMovement::Registers}.needsDataMovement());
  EXPECT_TRUE(ConvertLayoutCost{DataMovement::Lanes}.needsDataMovement());
  EXPECT_TRUE(ConvertLayoutCost{DataMovement::Subgroups}.needsDataMovement());
}

// The JSON of each result type: keys in alphabetical order, flags as booleans, candidates as
// lists (docs/interchange.md, xegpu.propagate).
TEST(XegpuPropagationDispatch, ResultJson) {
  auto json = [](const PropagationResult& r) { return layout::propagationResultToJson(r).dump(); };
  EXPECT_EQ(json(DpasLayouts{"A", "B", "C"}), R"({"a":"A","b":"B","c":"C"})");
  EXPECT_EQ(json(SourceLayout{"S"}), R"({"source":"S"})");
  EXPECT_EQ(json(ReductionLayouts{"R", "S", "R"}), R"({"acc":"R","result":"R","source":"S"})");
  EXPECT_EQ(json(InsertStridedSliceLayouts{"D", "S", std::nullopt}),
            R"({"dest":"D","source":"S"})");
  EXPECT_EQ(json(InsertStridedSliceLayouts{"D", "S", "R"}),
            R"({"dest":"D","result":"R","source":"S"})");
  EXPECT_EQ(json(TensorDescLayout{"T"}), R"({"tensor_desc":"T"})");
  EXPECT_EQ(json(ConvertLayoutCost{DataMovement::Lanes}),
            R"({"movement":"lanes","needsDataMovement":true})");
  EXPECT_EQ(json(ConvertLayoutCost{DataMovement::Registers}),
            R"({"movement":"registers","needsDataMovement":false})");
  EXPECT_EQ(json(Compatibility{true}), R"({"compatible":true})");
  EXPECT_EQ(json(SgLayoutCandidates{{{8, 4}, {16, 2}}}), R"({"candidates":[[8,4],[16,2]]})");
  EXPECT_EQ(json(SgLayoutCandidates{}), R"({"candidates":[]})");
}

} // namespace
