// Backward layout propagation (layout::xegpu::propagate) against the propagation examples and
// sg_map tables of the XeGPU RFC, docs/seeds.md (seed 000). Each expected layout is
// copied from the seed (line numbers given); comparisons parse both sides, so the RFC's spacing
// (`inst_data=[8,16]`) does not matter but every field value does. Where the RFC's printed
// answer is inconsistent with its own rule, the test says so and checks the rule.
#include "layout/xegpu/propagation.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace layout::xegpu;

// The canonical text of a layout written in the seed's spelling.
std::string canon(const std::string& seedText) {
  auto l = parseXegpuAttr(seedText);
  EXPECT_TRUE(l) << seedText << ": " << l.error().message;
  return l ? printXegpu(*l) : "";
}

// A layout in the seed's spelling, parsed (requests take parsed layouts).
XeLayout layout(const std::string& seedText) {
  auto l = parseXegpuAttr(seedText);
  EXPECT_TRUE(l) << seedText << ": " << l.error().message;
  return l ? *l : XeLayout{};
}

template <typename Request> typename Request::Result run(const Request& r) {
  auto out = propagate(r);
  EXPECT_TRUE(out) << Request::op << ": " << out.error().message;
  return out ? *out : typename Request::Result{};
}

// Seed 819-834: dpas. The RFC prints #layout_c with inst_data = [16, 16]; by its own rule
// ("input operands must have the same sg_layout, and sg_data for m and n dimension as output")
// and upstream's (CD inst_data [maxM, maxN], as D), C keeps D's [8, 16]: the 16 is a typo.
TEST(XegpuPropagation, DpasRfcExample) {
  const std::string d = "#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], inst_data=[8,16], "
                        "lane_layout=[1,16], lane_data = [1, 1], order=[1, 0]>";
  DpasRequest r;
  r.result = layout(d);
  r.shapeA = {256, 32};
  r.shapeB = {32, 256};
  r.elementType = "bf16";
  r.target = "pvc";
  DpasLayouts got = run(r);
  EXPECT_EQ(got.a, canon("#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], "
                         "inst_data=[8,16], lane_layout=[1,16], lane_data = [1, 1], "
                         "order=[1, 0]>"));
  EXPECT_EQ(got.b, canon("#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 64], "
                         "inst_data=[16,16], lane_layout=[1,16], lane_data = [2, 1], "
                         "order=[1, 0]>"));
  EXPECT_EQ(got.c, canon(d));
}

// Seed 483-529: the sg_map each DPAS operand needs, per target and type; seed 533-547: the PVC
// bf16 and ARC int8 examples. Given the C map, propagation yields the A and B maps of the table.
TEST(XegpuPropagation, DpasSgMapTables) {
  struct Row {
    const char *target, *type, *a, *b, *c;
  };
  const Row rows[] = {
      // PVC (subgroup size 16), seed 487-498.
      {"pvc", "bf16", "wi_layout = [1, 16], wi_data = [1, 1]",
       "wi_layout = [1, 16], wi_data = [2, 1]", "wi_layout = [1, 16], wi_data = [1, 1]"},
      {"pvc", "f16", "wi_layout = [1, 16], wi_data = [1, 1]",
       "wi_layout = [1, 16], wi_data = [2, 1]", "wi_layout = [1, 16], wi_data = [1, 1]"},
      {"pvc", "tf32", "wi_layout = [2, 8], wi_data = [1, 1]",
       "wi_layout = [1, 16], wi_data = [1, 1]", "wi_layout = [1, 16], wi_data = [1, 1]"},
      {"pvc", "ui8", "wi_layout = [1, 16], wi_data = [1, 2]",
       "wi_layout = [1, 16], wi_data = [4, 1]", "wi_layout = [1, 16], wi_data = [1, 1]"},
      {"pvc", "si8", "wi_layout = [1, 16], wi_data = [1, 2]",
       "wi_layout = [1, 16], wi_data = [4, 1]", "wi_layout = [1, 16], wi_data = [1, 1]"},
      // ARC (subgroup size 8), seed 510-521.
      {"arc", "bf16", "wi_layout = [1, 8], wi_data = [1, 2]",
       "wi_layout = [1, 8], wi_data = [2, 1]", "wi_layout = [1, 8], wi_data = [1, 1]"},
      {"arc", "f16", "wi_layout = [1, 8], wi_data = [1, 2]", "wi_layout = [1, 8], wi_data = [2, 1]",
       "wi_layout = [1, 8], wi_data = [1, 1]"},
      {"arc", "tf32", "wi_layout = [1, 8], wi_data = [1, 1]",
       "wi_layout = [1, 8], wi_data = [1, 1]", "wi_layout = [1, 8], wi_data = [1, 1]"},
      {"arc", "ui8", "wi_layout = [1, 8], wi_data = [1, 4]", "wi_layout = [1, 8], wi_data = [4, 1]",
       "wi_layout = [1, 8], wi_data = [1, 1]"},
      {"arc", "si8", "wi_layout = [1, 8], wi_data = [1, 4]", "wi_layout = [1, 8], wi_data = [4, 1]",
       "wi_layout = [1, 8], wi_data = [1, 1]"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(std::string(row.target) + " " + row.type);
    auto sgMap = [](const char* body) { return "#xegpu.sg_map<" + std::string(body) + ">"; };
    DpasRequest r;
    r.result = layout(sgMap(row.c));
    r.shapeA = {8, 32};
    r.shapeB = {32, 16};
    r.elementType = row.type;
    r.target = row.target;
    DpasLayouts got = run(r);
    EXPECT_EQ(got.a, canon(sgMap(row.a)));
    EXPECT_EQ(got.b, canon(sgMap(row.b)));
    EXPECT_EQ(got.c, canon(sgMap(row.c)));
  }
  // A C map that is not the target's accumulator map is an error naming both.
  DpasRequest bad;
  bad.result = layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>");
  bad.shapeA = {8, 16};
  bad.shapeB = {16, 8};
  bad.elementType = "f16";
  bad.target = "arc";
  auto err = propagate(bad);
  ASSERT_FALSE(err);
  EXPECT_NE(err.error().message.find("is not the arc DPAS accumulator layout [1, 8] / [1, 1]"),
            std::string::npos)
      << err.error().message;
}

// Seed 836-852: a reduction's result is a slice; the source is its parent (2-D and 3-D).
TEST(XegpuPropagation, MultiReductionRfcExamples) {
  const std::string a2 = "#xegpu.layout<sg_layout = [32, 1], sg_data = [8, 128], inst_data=[1, "
                         "16], lane_layout=[1,16], lane_data = [1, 1], order=[1, 0]>";
  MultiReductionRequest r;
  r.result = layout("#xegpu.slice<" + a2 + ", 1>"); // the RFC's #xegpu.slice<#layout_a, 1>
  r.reductionDims = {1};
  EXPECT_EQ(run(r).source, canon(a2));
  const std::string a3 = "#xegpu.layout<sg_layout = [8, 1, 4], sg_data = [1, 32, 32], "
                         "inst_data=[1, 1, 16], lane_layout=[1, 1, 16], lane_data = [1, 1, 1], "
                         "order=[2, 1, 0]>";
  r.result = layout("#xegpu.slice<" + a3 + ", 1>");
  EXPECT_EQ(run(r).source, canon(a3));
  // Reducing other dims than the slice's is an error.
  r.reductionDims = {0};
  EXPECT_FALSE(propagate(r));
}

// Seed 855-870: shape_cast, splitting a dim (collapse the result's groups) and inserting a unit
// dim (slice it away).
TEST(XegpuPropagation, ShapeCastRfcExamples) {
  ShapeCastRequest r;
  r.result = layout("#xegpu.layout<sg_layout = [8, 1, 4], sg_data = [1, 32, 32], "
                    "inst_data=[1, 1, 16], lane_layout=[1, 1, 16], lane_data = [1, 1, 1], "
                    "order=[2, 1, 0] >");
  r.sourceShape = {256, 128};
  r.resultShape = {8, 32, 128};
  EXPECT_EQ(run(r).source,
            canon("#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data=[1, 16], "
                  "lane_layout=[1, 16], lane_data = [1, 1], order=[1, 0]>"));
  const std::string a = "#xegpu.layout<sg_layout = [8, 1, 4], sg_data = [32, 1, 32], "
                        "inst_data=[1, 1, 16], lane_layout=[1, 1, 16], lane_data = [1, 1, 1], "
                        "order=[2, 1, 0] >";
  r.result = layout(a);
  r.resultShape = {256, 1, 128};
  EXPECT_EQ(run(r).source, canon("#xegpu.slice<" + a + ", 1>"));
  // The merge direction (upstream's expandDim): 8x32x128 from 256x128 with the first example's
  // source layout gives back that example's result layout.
  r.result = layout("#xegpu.layout<sg_layout = [8, 4], sg_data = [32, 32], inst_data=[1, 16], "
                    "lane_layout=[1, 16], lane_data = [1, 1], order=[1, 0]>");
  r.sourceShape = {8, 32, 128};
  r.resultShape = {256, 128};
  EXPECT_EQ(run(r).source,
            canon("#xegpu.layout<sg_layout = [8, 1, 4], sg_data = [1, 32, 32], "
                  "inst_data=[1, 1, 16], lane_layout=[1, 1, 16], lane_data = [1, 1, 1], "
                  "order=[2, 1, 0]>"));
  // Shapes with different element counts are an error.
  r.sourceShape = {8, 32, 64};
  EXPECT_FALSE(propagate(r));
}

// Seed 872-880: broadcast along dim 1 ("sg_layout for that dimension must be 1 in the output
// layout and must be removed for the input operand"). The RFC prints the input's layout as a
// rank-2 #layout_b equal to #layout_a, which cannot describe the rank-1 input; the rule gives
// #layout_a with dim 1 sliced away, which is what is checked.
TEST(XegpuPropagation, BroadcastRfcExample) {
  const std::string a = "#xegpu.layout<sg_layout = [16, 1], sg_data = [16, 256], inst_data=[1, "
                        "16], lane_layout=[1,16], lane_data = [1, 1], order=[1, 0]>";
  BroadcastRequest r;
  r.result = layout(a);
  r.sourceShape = {256};
  r.resultShape = {256, 256};
  r.broadcastDims = {1};
  EXPECT_EQ(run(r).source, canon("#xegpu.slice<" + a + ", dims = [1]>"));
  // Upstream's rule for a unit dim stretched in place: its data fields become 1.
  BroadcastRequest u;
  u.result = layout("#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 32], lane_layout = [1, 16], "
                    "lane_data = [1, 2]>");
  u.sourceShape = {32, 1};
  u.resultShape = {32, 64};
  EXPECT_EQ(run(u).source, canon("#xegpu.layout<sg_layout = [2, 2], sg_data = [16, 1], "
                                 "lane_layout = [1, 16], lane_data = [1, 1]>"));
}

// Seed 883-889: transpose; and seed 558-563, the sg_map form ("the transpose operation swaps the
// wi_layout and wi_data").
TEST(XegpuPropagation, TransposeRfcExamples) {
  TransposeRequest r;
  r.result = layout("#xegpu.layout<sg_layout = [4, 8], sg_data = [32, 64], inst_data=[16, 16], "
                    "lane_layout=[1,16], lane_data = [1, 1], order=[1, 0]>");
  r.permutation = {1, 0};
  EXPECT_EQ(run(r).source,
            canon("#xegpu.layout<sg_layout = [8, 4], sg_data = [64, 32], inst_data=[16, 16], "
                  "lane_layout=[16, 1], lane_data = [1, 1], order=[0, 1]>"));
  r.result = layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [2, 1]>");
  EXPECT_EQ(run(r).source, canon("#xegpu.sg_map<wi_layout = [16, 1], wi_data = [1, 2]>"));
  r.permutation = {0, 0};
  EXPECT_FALSE(propagate(r));
}

// Seed 565-568: bitcast i16 -> i8 ("the bitcast operation adjusts the wi_data").
TEST(XegpuPropagation, BitcastRfcExample) {
  BitcastRequest r;
  r.result = layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 2]>");
  r.sourceBits = 16;
  r.resultBits = 8;
  EXPECT_EQ(run(r).source, canon("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>"));
  // The other way, i8 -> i16, halves nothing it cannot: wi_data [1, 1] of i8 is half an i16.
  r.sourceBits = 8;
  r.resultBits = 16;
  EXPECT_EQ(run(r).source, canon("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 4]>"));
  r.result = layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>");
  r.sourceBits = 32;
  r.resultBits = 16;
  EXPECT_FALSE(propagate(r));
}

// Seed 400-421: load_nd with transpose, with and without transpose_bit_width; seed 393-397 (VNNI,
// packed) keeps the layout.
TEST(XegpuPropagation, LoadNdRfcExamples) {
  LoadNdRequest r;
  r.result = layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>");
  r.elementBits = 32;
  r.transpose = std::vector<int64_t>{1, 0};
  EXPECT_EQ(run(r).tensorDesc, canon("#xegpu.sg_map<wi_layout = [16, 1], wi_data = [1, 1]>"));
  r.elementBits = 16; // seed 413-416: fp16, no transpose_bit_width
  EXPECT_EQ(run(r).tensorDesc, canon("#xegpu.sg_map<wi_layout = [16, 1], wi_data = [1, 1]>"));
  r.result = layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [2, 1]>");
  r.transposeBitWidth = 32; // seed 418-421: bf16 as 32-bit pairs
  EXPECT_EQ(run(r).tensorDesc, canon("#xegpu.sg_map<wi_layout = [16, 1], wi_data = [1, 2]>"));
  // transpose_bit_width 32 on 16-bit data needs the pairs in lane_data[0].
  r.result = layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>");
  EXPECT_FALSE(propagate(r));
  // VNNI: the descriptor keeps the result's map; packed with transpose is an error.
  LoadNdRequest v;
  v.result = layout("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [2, 1]>");
  v.elementBits = 16;
  v.packed = true;
  EXPECT_EQ(run(v).tensorDesc, canon("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [2, 1]>"));
  v.transpose = std::vector<int64_t>{1, 0};
  auto err = propagate(v);
  ASSERT_FALSE(err);
  EXPECT_NE(err.error().message.find("can not be combined"), std::string::npos);
}

// convert_layout: the four kinds of cost, each on a pair whose ownership is worked out by hand.
TEST(XegpuPropagation, ConvertLayoutDataMovement) {
  auto need = [](const std::string& in, const std::string& target, std::vector<int64_t> shape) {
    ConvertLayoutRequest r;
    r.input = layout(in);
    r.result = layout(target);
    r.shape = shape;
    return run(r).movement;
  };
  const std::string lanes = "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>";
  // Same attribute: nothing to do.
  EXPECT_EQ(need(lanes, lanes, {8, 32}), DataMovement::None);
  // inst_data 4x16 vs 8x16 on 8x32: lane l holds columns l and l + 16 of every row either way,
  // only the register order differs (tiles 4 rows tall vs 8).
  auto r = need("#xegpu.layout<inst_data = [4, 16], lane_layout = [1, 16], lane_data = [1, 1]>",
                "#xegpu.layout<inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>",
                {8, 32});
  EXPECT_EQ(r, DataMovement::Registers);
  EXPECT_FALSE(ConvertLayoutCost{r}.needsDataMovement());
  // lane_data [1, 1] vs [1, 2]: lane 1 holds columns 1 and 17 vs 2 and 3: shuffles.
  r = need(lanes, "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 2]>", {8, 32});
  EXPECT_EQ(r, DataMovement::Lanes);
  EXPECT_TRUE(ConvertLayoutCost{r}.needsDataMovement());
  // Subgroups split rows vs columns: subgroup 1 holds rows 8-15 vs columns 16-31.
  r = need("#xegpu.layout<sg_layout = [2, 1], sg_data = [8, 32], lane_layout = [1, 16], "
           "lane_data = [1, 1]>",
           "#xegpu.layout<sg_layout = [1, 2], sg_data = [16, 16], lane_layout = [1, 16], "
           "lane_data = [1, 1]>",
           {16, 32});
  EXPECT_EQ(r, DataMovement::Subgroups);
  // Exact at any size (the brute-force comparison stopped at 2^22 register x lane combinations):
  // on 4096x4096 each lane holds 2^20 elements; inst_data only reorders a lane's registers, and
  // lane_data [1, 2] moves columns between lanes, as on the small tile above.
  r = need("#xegpu.layout<inst_data = [4, 16], lane_layout = [1, 16], lane_data = [1, 1]>",
           "#xegpu.layout<inst_data = [8, 16], lane_layout = [1, 16], lane_data = [1, 1]>",
           {4096, 4096});
  EXPECT_EQ(r, DataMovement::Registers);
  EXPECT_EQ(need(lanes, "#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 2]>", {4096, 4096}),
            DataMovement::Lanes);
}

} // namespace
