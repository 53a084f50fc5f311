// Issue 31: inputs inside every documented limit that crashed the tools or grew without bound.
// Each test failed on the code before the fix: a stack overflow (deep JSON), a division by a
// product that wrapped to 0 (#ttg.partitioned_shared), gigabytes for one wide invertAndCompose,
// interned names that never stopped growing, and an id echoed as another number (-0). The
// expected messages are the ones docs/limits.md lists.
#include "layout/core/dim_name.h"
#include "layout/core/linear_layout.h"
#include "layout/core/resource_limits.h"
#include "layout/protocol/batch.h"
#include "layout/text/internal/json_text.h"
#include "layout/text/layout_json.h"
#include "layout/triton/encoding.h"

#include "support/scoped_limits.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <sstream>
#include <string>

using layout::test::ScopedResourceLimits;
using nlohmann::json;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string nested(size_t depth) {
  return std::string(depth, '[') + "1" + std::string(depth, ']');
}

// The response lines of `requests` (one per line) through the batch loop.
std::vector<json> runBatch(const std::string& requests) {
  static const layout::BatchProcessor batch;
  std::istringstream in(requests);
  std::ostringstream out;
  EXPECT_TRUE(batch.run(in, out));
  std::vector<json> lines;
  std::istringstream responses(out.str());
  for (std::string line; std::getline(responses, line);) lines.push_back(json::parse(line));
  return lines;
}

const std::string kPlain =
    R"({"id":"next","op":"identity1D","args":{"size":4,"inDim":"lane","outDim":"dim0"}})";

// ---- JSON nesting and size ----------------------------------------------------------------------

TEST(HostileInput, JsonShapeCountsDepthAndValuesOutsideStrings) {
  const auto shape = layout::detail::measureJsonText(R"({"a":[1,[2,"[[[,,,"]],"b":{}})");
  EXPECT_EQ(shape.depth, 3u);
  // The object, its two members' values, 1, [2, "..."], 2 and the string, and {}: 7.
  EXPECT_EQ(shape.values, 7u);
  EXPECT_EQ(shape.deepestAt, 8u); // the second '['
  // A scan with a depth limit stops at the first bracket past it.
  const auto limited = layout::detail::measureJsonText("[[[[1]]]]", 2);
  EXPECT_EQ(limited.depth, 3u);
  EXPECT_EQ(limited.deepestAt, 2u);
  // An escaped quote does not end a string; an escaped backslash before a quote does.
  EXPECT_EQ(layout::detail::measureJsonText(R"(["\"[[", "\\", [[1]]])").depth, 3u);
}

TEST(HostileInput, DeepJsonIsRefusedBeforeParsing) {
  // 70,000 levels overflowed the stack when the id or an argument was copied or dumped.
  auto deep = layout::detail::parseJsonText(nested(70000));
  ASSERT_FALSE(deep);
  EXPECT_EQ(deep.error().message, "JSON nested more than 256 levels deep (at byte 256); the limit "
                                  "is 256 (raise it with LAYOUT_MAX_JSON_DEPTH)");
  EXPECT_TRUE(layout::detail::parseJsonText(nested(256)));
  ScopedResourceLimits limits;
  limits->maxJsonDepth = 100000;
  EXPECT_TRUE(layout::detail::parseJsonText(nested(70000)));
}

TEST(HostileInput, DeepJsonInEveryBatchArgumentGetsOneErrorLineWithItsId) {
  const std::string deep = nested(70000);
  const std::string requests[] = {
      R"({"id":)" + deep + R"(,"op":"identity1D"})",
      R"({"id":1,"op":"banks.analyze","args":{"access":)" + deep + "}}",
      R"({"id":2,"op":"blockLoad.plan","args":{"encoding":)" + deep + "}}",
      R"({"id":3,"op":"convert.plan","args":{"src":)" + deep + "}}",
      R"({"id":4,"op":"xegpu.propagate","args":{"op":"dpas","result":)" + deep + "}}",
      R"({"op":"invertAndCompose","inputs":[)" + deep + R"(],"id":5})"};
  std::string text;
  for (const std::string& r : requests) text += r + "\n" + kPlain + "\n";
  const auto lines = runBatch(text);
  ASSERT_EQ(lines.size(), 12u);
  const json ids[] = {nullptr, 1, 2, 3, 4, 5};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(lines[2 * i]["id"], ids[i]) << i;
    EXPECT_TRUE(contains(lines[2 * i].value("error", ""), "nested more than 256 levels")) << i;
    EXPECT_EQ(lines[2 * i + 1]["id"], "next");
    EXPECT_TRUE(lines[2 * i + 1].contains("result"));
  }
}

TEST(HostileInput, JsonWithTooManyValuesIsRefusedBeforeParsing) {
  ScopedResourceLimits limits;
  limits->maxJsonValues = 1000;
  std::string big = "[0";
  for (int i = 0; i < 1000; ++i) big += ",0";
  big += "]";
  auto refused = layout::detail::parseJsonText(big);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "JSON has 1002 values; the limit is 1000 (raise it with LAYOUT_MAX_JSON_VALUES)");
  auto layoutJson = layout::parseLayoutJson(big);
  ASSERT_FALSE(layoutJson);
  EXPECT_TRUE(contains(layoutJson.error().message, "LAYOUT_MAX_JSON_VALUES"));
}

TEST(HostileInput, ParserMessagesDoNotQuoteTheWholeInput) {
  // A malformed megabyte-long token was quoted whole ("last read: '...'").
  const std::string bad = "[\"" + std::string(1 << 20, 'x') + "\x01\"]";
  auto j = layout::detail::parseJsonText(bad);
  ASSERT_FALSE(j);
  EXPECT_LT(j.error().message.size(), 400u);
  EXPECT_TRUE(contains(j.error().message, "bytes in all)"));
}

// ---- Ids ----------------------------------------------------------------------------------------

TEST(HostileInput, IdsComeBackAsWritten) {
  const auto lines =
      runBatch(R"({"id":-0,"op":"identity1D","args":{"size":4,"inDim":"lane","outDim":"dim0"}})"
               "\n"
               R"({"id":0,"op":"identity1D","args":{"size":4,"inDim":"lane","outDim":"dim0"}})"
               "\n"
               R"({"id":-7,"op":"nosuchop"})"
               "\n");
  ASSERT_EQ(lines.size(), 3u);
  // json::parse turns -0 into 0 either way: compare the raw text.
  std::istringstream in(
      R"({"id":-0,"op":"identity1D","args":{"size":4,"inDim":"lane","outDim":"dim0"}})");
  static const layout::BatchProcessor batch;
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(batch.processLine(line).rfind(R"({"id":-0,)", 0), 0u);
  EXPECT_EQ(batch.processLine(R"({"id":0,"op":"x"})").rfind(R"({"id":0,)", 0), 0u);
  EXPECT_EQ(lines[2]["id"], -7);
}

// ---- #ttg.partitioned_shared ---------------------------------------------------------------------

std::string partitioned(const std::string& partitions, const std::string& groups) {
  return "#ttg.partitioned_shared<{numPartitions = " + partitions + ", numGroups = " + groups +
         ", partitionDim = 0, partitionLayout = #ttg.swizzled_shared<{vec = 1, perPhase = 1, "
         "maxPhase = 1, order = [1, 0]}>}>";
}

TEST(HostileInput, PartitionedSharedPiecesPast64BitsAreAnErrorNotADivisionByZero) {
  // 2^32 * 2^32 wrapped to 0 and divided by it (SIGFPE); 2 * 2^62 printed as -2^63.
  const struct {
    std::string partitions, groups, pieces;
  } cases[] = {{"4294967296", "4294967296", "2^64 or more"},
               {"2", "4611686018427387904", "9223372036854775808"},
               {"2", "2", "4"}};
  for (const auto& c : cases) {
    auto enc = layout::triton::parseEncoding(partitioned(c.partitions, c.groups));
    ASSERT_TRUE(enc) << enc.error().message;
    const int64_t shape[] = {2, 8};
    auto ll = layout::triton::toLinearLayout(*enc, shape);
    ASSERT_FALSE(ll) << c.partitions;
    EXPECT_EQ(ll.error().message, "shape: dim 0 = 2 does not split into numPartitions * "
                                  "numGroups = " +
                                      c.pieces + " pieces");
  }
}

TEST(HostileInput, DotOperandKWidthPast2To62IsAnErrorNotADivisionByZero) {
  // 4 * kWidth wrapped to 0 for kWidth = 2^62, and the tile's width was divided by it (SIGFPE);
  // 8 * kWidth overflowed before that (UBSan).
  auto enc = layout::triton::parseEncoding(
      "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
      "warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 4611686018427387904}>");
  ASSERT_TRUE(enc) << enc.error().message;
  const int64_t shape[] = {64, 64};
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  ASSERT_FALSE(ll);
  EXPECT_TRUE(contains(ll.error().message, "kWidth 4611686018427387904 is too large: the operand's "
                                           "tile of 8 * kWidth elements along K passes 2^62"))
      << ll.error().message;
}

// ---- Wide algebra -------------------------------------------------------------------------------

// A layout of `dims` in-dims of 63 bases each (basis i of dim d is 2^(i % 8) ^ d) over one out-dim
// of 2^63.
std::string wideLayout(int dims) {
  json ins = json::array();
  for (int d = 0; d < dims; ++d) {
    json bases = json::array();
    for (int i = 0; i < 63; ++i) bases.push_back({(uint64_t{1} << (i % 63)) ^ uint64_t(d)});
    ins.push_back({{"name", "d" + std::to_string(d)}, {"bases", bases}});
  }
  return json{{"inDims", ins}, {"outDims", {{{"name", "dim0"}, {"size", uint64_t{1} << 63}}}}}
      .dump();
}

TEST(HostileInput, WideInvertAndComposeIsRefusedBeforeAllocating) {
  // 2,000 in-dims x 63 bits on both sides: the result has 126,000 x 126,000 bits (about 2 GB);
  // it grew to 4.1 GB and aborted the batch.
  const std::string a = wideLayout(2000);
  const auto lines = runBatch(R"({"id":"wide","op":"invertAndCompose","inputs":[)" + a + "," + a +
                              "]}\n" + kPlain + "\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["id"], "wide");
  EXPECT_EQ(lines[0].value("error", ""),
            "invertAndCompose: the layout would have 126000 in bits x 126000 out bits "
            "(15878016000 matrix bits); the limit is 2^28 (268435456) (raise it with "
            "LAYOUT_MAX_LAYOUT_BITS)");
  EXPECT_TRUE(lines[1].contains("result"));
}

TEST(HostileInput, ResultsPastTheJsonValueLimitAreRefusedBeforeTheyAreBuilt) {
  // With the matrix limit raised, a 1,000-dim invertAndCompose (63,000 x 63,000 bits) built its
  // result as JSON, and nlohmann's destructor threw bad_alloc while unwinding: an abort.
  ScopedResourceLimits limits;
  limits->maxLayoutBits = uint64_t{1} << 30;
  const std::string a = wideLayout(300); // 18,900 x 18,900 bits: past 2^28, under 2^30
  const auto lines = runBatch(R"({"id":"wide","op":"invertAndCompose","inputs":[)" + a + "," + a +
                              "]}\n" + kPlain + "\n");
  ASSERT_EQ(lines.size(), 2u);
  // 4 + 3 * 300 (the out-dims) + 300 * (3 + 63 * (1 + 300)) (the in-dims and their bases).
  EXPECT_EQ(lines[0].value("error", ""),
            "invertAndCompose: the resulting layout (18900 in bits, 300 out-dims) takes 5690704 "
            "JSON values; the limit is 2^20 (1048576), as for any JSON input (raise it with "
            "LAYOUT_MAX_JSON_VALUES)");
  EXPECT_TRUE(lines[1].contains("result"));
  // The count is that of the JSON the batch writes.
  auto small = layout::parseLayoutJson(wideLayout(3));
  ASSERT_TRUE(small) << small.error().message;
  EXPECT_EQ(layout::layoutJsonValueCount(*small),
            layout::detail::measureJsonText(layout::printLayoutJson(*small)).values);
}

TEST(HostileInput, LayoutMatrixLimitHoldsForEveryConstruction) {
  ScopedResourceLimits limits;
  limits->maxLayoutBits = 64 * 64;
  EXPECT_TRUE(layout::LinearLayout::identity1D(uint64_t{1} << 63, layout::dims::reg(),
                                               layout::DimName("dim0")));
  auto a = layout::LinearLayout::identity1D(uint64_t{1} << 40, layout::dims::reg(),
                                            layout::DimName("dim0"));
  auto b = layout::LinearLayout::identity1D(uint64_t{1} << 40, layout::dims::lane(),
                                            layout::DimName("dim1"));
  ASSERT_TRUE(a && b);
  auto tile = layout::product(*a, *b); // 80 in bits x 80 out bits: 80 x 2 words
  ASSERT_FALSE(tile);
  EXPECT_TRUE(contains(tile.error().message, "80 in bits x 80 out bits (10240 matrix bits); "
                                             "the limit is 2^12 (4096)"));
}

// ---- Interned names -----------------------------------------------------------------------------

TEST(HostileInput, NewDimNamesPastTheLimitAreRefusedAndKnownNamesStillWork) {
  ScopedResourceLimits limits;
  const layout::InternedDimNames before = layout::internedDimNames();
  limits->maxDimNames = before.names + 2;
  const std::string request =
      R"({"id":"N","op":"identity1D","args":{"size":4,"inDim":"NAME","outDim":"dim0"}})";
  std::string text;
  for (int i = 0; i < 4; ++i) {
    std::string r = request;
    r.replace(r.find("N\""), 1, std::to_string(i));
    r.replace(r.find("NAME"), 4, "hostile_input_name_" + std::to_string(i));
    text += r + "\n";
  }
  const auto lines = runBatch(text + kPlain + "\n");
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_TRUE(lines[0].contains("result"));
  EXPECT_TRUE(lines[1].contains("result"));
  EXPECT_EQ(lines[2]["id"], "2");
  EXPECT_EQ(lines[2].value("error", ""),
            "dim name 'hostile_input_name_2': this process has interned " +
                std::to_string(before.names + 2) + " distinct dim names; the limit is " +
                std::to_string(before.names + 2) +
                " (raise it with LAYOUT_MAX_DIM_NAMES, or start a new session)");
  EXPECT_TRUE(lines[3].contains("error"));
  EXPECT_TRUE(lines[4].contains("result")); // known names keep working
  EXPECT_EQ(layout::internedDimNames().names, before.names + 2);
  // Bytes: a long name is refused whole, and its text is not repeated in the message.
  limits->maxDimNames = uint64_t{1} << 20;
  limits->maxDimNameBytes = layout::internedDimNames().bytes + 100;
  EXPECT_THROW(layout::DimName(std::string(4 << 20, 'n')), layout::LimitExceeded);
  try {
    layout::DimName(std::string(4 << 20, 'n'));
  } catch (const layout::LimitExceeded& e) {
    EXPECT_LT(std::string(e.what()).size(), 400u);
    EXPECT_TRUE(contains(e.what(), "LAYOUT_MAX_DIM_NAME_BYTES"));
  }
}

} // namespace
