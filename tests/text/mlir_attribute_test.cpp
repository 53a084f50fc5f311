// MLIR attribute text: the grammar subset the layout dialects print, with located errors.
#include "layout/text/internal/quoted_input.h"
#include "layout/text/mlir_attribute.h"

#include <gtest/gtest.h>

using namespace layout;

namespace {

AttrValue parsed(const std::string& text, const AttrAliases& aliases = {}) {
  auto v = parseAttribute(text, aliases);
  EXPECT_TRUE(v) << text << ": " << (v ? "" : v.error().message);
  return v ? *v : AttrValue();
}

std::string errorOf(const std::string& text) {
  auto v = parseAttribute(text);
  EXPECT_FALSE(v) << text;
  return v ? "" : v.error().message;
}

std::vector<int64_t> ints(const AttrValue* list) {
  std::vector<int64_t> out;
  if (!list) return out;
  for (const AttrValue& v : list->items) out.push_back(v.integer);
  return out;
}

TEST(MlirAttribute, TritonBlocked) {
  AttrValue a = parsed("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                       "warpsPerCTA = [4, 1], order = [1, 0]}>");
  EXPECT_EQ(a.kind, AttrValue::Kind::Attribute);
  EXPECT_EQ(a.text, "ttg.blocked");
  EXPECT_EQ(a.bracedEntries, 4u);
  EXPECT_EQ(ints(a.find("sizePerThread")), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(ints(a.find("order")), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(printAttrValue(a), "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                               "warpsPerCTA = [4, 1], order = [1, 0]}>");
}

TEST(MlirAttribute, NestedDotOperandOfIntelDpasFromSeed002) {
  // Seed 002, line 18.
  AttrValue a = parsed(
      "#ttg.dot_op<{opIdx = 0, parent = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = "
      "8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], "
      "repCluster = [4, 2], A = [32, 16], B = [16, 32], C = [32, 32]}>, kWidth = 1}>");
  const AttrValue* parent = a.find("parent");
  ASSERT_NE(parent, nullptr);
  EXPECT_EQ(parent->text, "triton_intel_gpu.dpas");
  EXPECT_EQ(parent->find("repeatCount")->integer, 8);
  EXPECT_EQ(ints(parent->find("repCluster")), (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(a.find("kWidth")->integer, 1);
}

TEST(MlirAttribute, XeGpuKeywordParamsAndSliceOfAlias) {
  // Seed 000, lines 837-838 (spacing as printed there).
  AttrValue layoutA =
      parsed("#xegpu.layout<sg_layout = [32, 1], sg_data = [8, 128], inst_data=[1, 16], "
             "lane_layout=[1,16], lane_data = [1, 1], order=[1, 0]>");
  EXPECT_EQ(layoutA.bracedEntries, 0u);
  EXPECT_EQ(ints(layoutA.find("inst_data")), (std::vector<int64_t>{1, 16}));
  AttrAliases aliases{{"layout_a", layoutA}};
  AttrValue slice = parsed("#xegpu.slice<#layout_a, 1>", aliases);
  ASSERT_EQ(slice.items.size(), 2u);
  EXPECT_EQ(slice.items[0].text, "xegpu.layout");
  EXPECT_EQ(slice.items[1].integer, 1);
  AttrValue slice2 = parsed("#xegpu.slice<#layout_a, dims = [1]>", aliases);
  EXPECT_EQ(ints(slice2.find("dims")), (std::vector<int64_t>{1}));
  EXPECT_EQ(printAttrValue(slice2),
            "#xegpu.slice<#xegpu.layout<sg_layout = [32, 1], sg_data = [8, 128], inst_data = [1, "
            "16], lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>, dims = [1]>");
}

TEST(MlirAttribute, PaddedSharedFromSeed003) {
  // Seed 003, lines 403 and 414 (intervals, then a dictionary without a comma).
  AttrValue p = parsed("#ttg.padded_shared<[2:+1, 4:+2]>");
  ASSERT_EQ(p.items.size(), 1u);
  ASSERT_EQ(p.items[0].items.size(), 2u);
  EXPECT_EQ(p.items[0].items[1].kind, AttrValue::Kind::Padding);
  EXPECT_EQ(p.items[0].items[1].integer, 4);
  EXPECT_EQ(p.items[0].items[1].padding, 2);
  AttrValue q = parsed("#ttg.padded_shared<[2:+1, 4:+2] {\n  offset = [[1, 0], [0, 1]],\n"
                       "  block = []\n}>");
  EXPECT_EQ(q.find("offset")->items.size(), 2u);
  EXPECT_EQ(printAttrValue(q),
            "#ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [0, 1]], block = []}>");
}

TEST(MlirAttribute, ValuesOfEveryKind) {
  AttrValue a = parsed("#d.x<{a = -3, b = true, c = \"s\", d = slm, e = 2 : i32, f = {g = []}}>");
  EXPECT_EQ(a.find("a")->integer, -3);
  EXPECT_TRUE(a.find("b")->boolean);
  EXPECT_EQ(a.find("c")->text, "s");
  EXPECT_EQ(a.find("d")->kind, AttrValue::Kind::Keyword);
  EXPECT_EQ(a.find("e")->integer, 2);
  EXPECT_EQ(a.find("f")->kind, AttrValue::Kind::Dict);
  EXPECT_EQ(parsed("#xegpu.scatter_tdesc_attr<>").items.size(), 0u);
}

TEST(MlirAttribute, ErrorsCarryLineAndColumn) {
  EXPECT_EQ(errorOf("#ttg.blocked<{order = [1, 0}>"),
            "line 1, column 28: expected ',' or ']' in a list, got '}'");
  EXPECT_EQ(errorOf("#ttg.blocked<{order = [1, 0],\n  warpsPerCTA [4]}>"),
            "line 2, column 15: expected '=' after 'warpsPerCTA', got '['");
  EXPECT_EQ(errorOf("ttg.blocked<{}>"),
            "line 1, column 1: expected an attribute starting with '#', got 't'");
  EXPECT_EQ(errorOf("#blocked"),
            "line 1, column 1: unknown attribute alias '#blocked' (define it earlier with "
            "'#blocked = ...')");
  EXPECT_EQ(errorOf("#ttg.blocked<{order = [1]}> trailing"),
            "line 1, column 29: unexpected 't' after the attribute");
  EXPECT_EQ(errorOf("#ttg.blocked<{order = [1], order = [0]}>"),
            "line 1, column 33: parameter 'order' is given twice");
  EXPECT_EQ(errorOf("#d.x<{a = 99999999999999999999}>"),
            "line 1, column 29: integer does not fit in 64 bits");
  EXPECT_EQ(errorOf("#d.x<{a = 1.5}>"),
            "line 1, column 12: expected an integer, got '.' inside a number");
  EXPECT_EQ(errorOf("#d.x<{a = 1}"),
            "line 1, column 13: expected ',' or '>' in the parameters of '#d.x', got the end of "
            "the text");
  std::string deep = "#d.x<{a = " + std::string(300, '[') + std::string(300, ']') + "}>";
  EXPECT_NE(errorOf(deep).find("nested more than 200 levels"), std::string::npos);
}

TEST(MlirAttribute, AliasFiles) {
  auto defs = parseAliasFile(
      "// layouts of a kernel\n"
      "#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4],\n"
      "                         warpsPerCTA = [4, 1], order = [1, 0]}>\n"
      "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
      "instrShape = [16, 8]}>\n"
      "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
      "#dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>\n"
      "}\n");
  ASSERT_TRUE(defs) << defs.error().message;
  ASSERT_EQ(defs->size(), 3u);
  EXPECT_EQ((*defs)[0].name, "blocked");
  EXPECT_EQ(ints((*defs)[0].value.find("warpsPerCTA")), (std::vector<int64_t>{4, 1}));
  EXPECT_EQ((*defs)[2].name, "dot");
  EXPECT_EQ((*defs)[2].definition, "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>");
  EXPECT_EQ((*defs)[2].value.find("parent")->text, "ttg.nvidia_mma");

  auto bad = parseAliasFile("#a = #ttg.blocked<{}>\n\n#b = #ttg.slice<{dim = 0, parent = #c}>\n");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "line 3, column 36: unknown attribute alias '#c' (define it earlier with '#c = ...')");
}

// Issue 31: MLIR refuses a second definition of an alias; so does the alias file reader, at the
// second definition, naming where the first one is.
TEST(MlirAttribute, AliasRedefinitionIsRefused) {
  auto twice = parseAliasFile("#a = #ttg.blocked<{}>\n"
                              "// a comment\n"
                              "  #a = #ttg.slice<{dim = 0, parent = #a}>\n");
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().message, "line 3, column 3: redefinition of alias '#a' (first defined "
                                   "at line 1, column 1)");
  // Different names, and a name that only shares a prefix, are fine.
  EXPECT_TRUE(parseAliasFile("#a = #ttg.blocked<{}>\n#ab = #ttg.blocked<{}>\n"));
}

// Issue 31: messages quote at most about 200 bytes of an input, with its length.
TEST(MlirAttribute, MessagesQuoteLongInputShort) {
  const std::string name(100000, 'k');
  auto r = parseAttribute("#d.x<{" + name + " = 1, " + name + " = 2}>");
  ASSERT_FALSE(r);
  EXPECT_LT(r.error().message.size(), 400u) << r.error().message.substr(0, 400);
  EXPECT_NE(r.error().message.find("...' (100000 bytes) is given twice"), std::string::npos)
      << r.error().message;
}

TEST(QuotedInput, ShortWholeLongCutAroundTheFault) {
  using layout::detail::quoteInput;
  EXPECT_EQ(quoteInput("16x32"), "'16x32'");
  EXPECT_EQ(quoteInput(std::string(200, 'a')), "'" + std::string(200, 'a') + "'");
  const std::string big = std::string(1000, 'a') + "X" + std::string(1000, 'b');
  EXPECT_EQ(quoteInput(big), "'" + std::string(200, 'a') + "...' (2001 bytes)");
  EXPECT_EQ(quoteInput(big, 1000), "'..." + std::string(100, 'a') + "X" + std::string(99, 'b') +
                                       "...' (byte 1000 of 2001 bytes)");
  EXPECT_EQ(quoteInput(big, 2000), "'..." + std::string(200, 'b') + "' (byte 2000 of 2001 bytes)");
  // A cut never splits a UTF-8 sequence.
  const std::string utf8 = std::string(199, 'a') + "\xc3\xa9" + std::string(100, 'b');
  EXPECT_EQ(quoteInput(utf8).substr(0, 205), "'" + std::string(199, 'a') + "\xc3\xa9...");
}

} // namespace
