// The layout JSON reader and writer (interchange §1).
#include "layout/text/layout_json.h"

#include <gtest/gtest.h>

using namespace layout;

namespace {

TEST(LayoutJson, ReadsTheSpecExampleAndAppliesIt) {
  auto l = parseLayoutJson(R"({
    "inDims":  [ {"name": "register", "bases": [[0, 1], [8, 0]]},
                 {"name": "lane",     "bases": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]},
                 {"name": "warp",     "bases": []} ],
    "outDims": [ {"name": "dim0", "size": 16}, {"name": "dim1", "size": 16} ],
    "comment": "unknown keys are ignored"
  })");
  ASSERT_TRUE(l) << l.error().message;
  EXPECT_EQ(l->numInDims(), 3);
  EXPECT_EQ(l->inDimSizeLog2(2), 0); // an empty list is a size-1 dim and still counts
  // Spec §1: output = XOR of bases over set input bits. register=2 -> (8,0); lane=31 ->
  // (0,2)^(0,4)^(1,0)^(2,0)^(4,0) = (7,6); together (15, 6).
  uint64_t in[3] = {2, 31, 0}, out[2];
  l->apply(in, out);
  EXPECT_EQ(out[0], 15u);
  EXPECT_EQ(out[1], 6u);
}

TEST(LayoutJson, WritesContractOrderWithSurjective) {
  auto l = LinearLayout::identity1D(4, DimName("lane"), DimName("dim0"));
  ASSERT_TRUE(l);
  EXPECT_EQ(
      printLayoutJson(*l),
      R"({"inDims":[{"name":"lane","bases":[[1],[2]]}],"outDims":[{"name":"dim0","size":4}],"surjective":true})");
  auto z = LinearLayout::zeros1D(2, DimName("lane"), DimName("dim0"), 4);
  ASSERT_TRUE(z);
  EXPECT_EQ(
      printLayoutJson(*z),
      R"({"inDims":[{"name":"lane","bases":[[0]]}],"outDims":[{"name":"dim0","size":4}],"surjective":false})");
}

TEST(LayoutJson, RejectsBadInputNamingTheField) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"[1, 2]", "expected a layout JSON object, got an array"},
      {R"({"inDims": {}, "outDims": []})", "inDims: expected an array, got an object"},
      {R"({"inDims": [], "outDims": [{"name": "", "size": 2}]})",
       "outDims[0].name: a dim name must not be empty"},
      {R"({"inDims": [], "outDims": [{"name": "d", "size": -4}]})",
       "outDims[0].size: expected a non-negative integer, got a negative number"},
      {R"({"inDims": [], "outDims": [{"name": "d", "size": 18446744073709551616}]})",
       "outDims[0].size: expected a non-negative integer, got a non-integer number"},
      {R"({"inDims": [{"name": "x"}], "outDims": []})", "inDims[0]: missing field \"bases\""},
      {R"({"inDims": [{"name": "x", "bases": [7]}], "outDims": []})",
       "inDims[0].bases[0]: expected an array of components, got a number"},
  };
  for (const Case& c : cases) {
    auto l = parseLayoutJson(c.text);
    ASSERT_FALSE(l) << c.text;
    EXPECT_EQ(l.error().message, c.message);
  }
  auto malformed = parseLayoutJson("{\"inDims\": [");
  ASSERT_FALSE(malformed);
  EXPECT_EQ(malformed.error().message.rfind("malformed JSON: ", 0), 0u);
}

TEST(LayoutJson, SixtyFourBasesExceedTheDimLimit) {
  std::string bases;
  for (int i = 0; i < 64; ++i) bases += std::string(i ? "," : "") + "[0]";
  auto l = parseLayoutJson(R"({"inDims": [{"name": "x", "bases": [)" + bases +
                           R"(]}], "outDims": [{"name": "d", "size": 1}]})");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().message,
            "inDims[0].bases: 64 bases exceed the limit of 63 (a dim holds at most 2^63 elements)");
}

} // namespace
