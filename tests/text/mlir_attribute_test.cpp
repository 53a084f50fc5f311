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

// MLIR dense arrays (`order = array<i32: 1, 0>` on tt.trans) read as the lists `[1, 0]` reads
// as, keeping their element type for printing.
TEST(MlirAttribute, DenseArraysReadAsIntegerLists) {
  AttrValue a = parsed("#d.x<{order = array<i32: 1, 0>, t = array<i64:-3,4>, e = array<i32>, "
                       "b = array<i1: true, false>, u = array<ui8: 255>, l = [1, 0]}>");
  const AttrValue* order = a.find("order");
  ASSERT_NE(order, nullptr);
  EXPECT_EQ(order->kind, AttrValue::Kind::List);
  EXPECT_EQ(order->text, "i32");
  EXPECT_EQ(ints(order), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(order->items.at(1).kind, AttrValue::Kind::Integer);
  EXPECT_EQ(order->items.at(1).location.column, 29);
  EXPECT_EQ(ints(a.find("t")), (std::vector<int64_t>{-3, 4}));
  EXPECT_EQ(a.find("e")->kind, AttrValue::Kind::List);
  EXPECT_TRUE(a.find("e")->items.empty());
  const AttrValue* bools = a.find("b");
  ASSERT_EQ(bools->items.size(), 2u);
  EXPECT_EQ(bools->items[0].kind, AttrValue::Kind::Boolean);
  EXPECT_TRUE(bools->items[0].boolean);
  EXPECT_FALSE(bools->items[1].boolean);
  EXPECT_EQ(ints(a.find("u")), (std::vector<int64_t>{255}));
  // The same items as the bracketed list; printed back in each one's own form.
  EXPECT_EQ(ints(a.find("l")), ints(order));
  EXPECT_EQ(printAttrValue(a), "#d.x<{order = array<i32: 1, 0>, t = array<i64: -3, 4>, "
                               "e = array<i32>, b = array<i1: true, false>, u = array<ui8: 255>, "
                               "l = [1, 0]}>");
  // As a positional parameter, and `array` alone is still a keyword.
  EXPECT_EQ(ints(&parsed("#d.x<array<i64: 7>>").items.at(0)), (std::vector<int64_t>{7}));
  EXPECT_EQ(parsed("#d.x<{k = array}>").find("k")->kind, AttrValue::Kind::Keyword);
}

// A malformed dense array is a located error saying what was expected, never a crash.
TEST(MlirAttribute, MalformedDenseArraysAreLocatedErrors) {
  EXPECT_EQ(errorOf("#d.x<{a = array<i32: 1,"),
            "line 1, column 24: expected an integer in the dense array 'array<i32: ...>', got "
            "the end of the text");
  EXPECT_EQ(errorOf("#d.x<{a = array<i32: x>}>"),
            "line 1, column 22: expected an integer in the dense array 'array<i32: ...>', got 'x'");
  EXPECT_EQ(errorOf("#d.x<{a = array<"),
            "line 1, column 17: expected the element type of a dense array (i32, i64, ...), got "
            "the end of the text");
  EXPECT_EQ(errorOf("#d.x<{a = array<i32: 1 0>}>"),
            "line 1, column 24: expected ',' or '>' in the dense array 'array<i32: ...>', got '0'");
  EXPECT_EQ(errorOf("#d.x<{a = array<i32 1>}>"),
            "line 1, column 21: expected ':' or '>' after the element type of the dense array "
            "'array<i32: ...>', got '1'");
  EXPECT_EQ(errorOf("#d.x<{a = array<f32: 1.5>}>"),
            "line 1, column 17: dense array element type 'f32' is not read (only integer types "
            "up to 64 bits: i1 to i64)");
  EXPECT_EQ(errorOf("#d.x<{a = array<i128: 1>}>"),
            "line 1, column 17: dense array element type 'i128' is not read (only integer types "
            "up to 64 bits: i1 to i64)");
  EXPECT_EQ(errorOf("#d.x<{a = array<i8: 1, 256>}>"),
            "line 1, column 24: 256 does not fit in i8 in the dense array 'array<i8: ...>'");
  EXPECT_EQ(errorOf("#d.x<{a = array<si8: -129>}>"),
            "line 1, column 22: -129 does not fit in si8 in the dense array 'array<si8: ...>'");
  EXPECT_EQ(errorOf("#d.x<{a = array<ui8: -1>}>"),
            "line 1, column 22: -1 does not fit in ui8 in the dense array 'array<ui8: ...>'");
  EXPECT_EQ(errorOf("#d.x<{a = array<i1: yes>}>"),
            "line 1, column 21: expected true or false in the dense array 'array<i1: ...>', got "
            "'yes'");
  EXPECT_EQ(errorOf("#d.x<{a = array<i64: 99999999999999999999>}>"),
            "line 1, column 40: integer does not fit in 64 bits");
  // Every cut of a well-formed one inside its parameters is an error too.
  const std::string whole = "#d.x<{a = array<i32: 1, -2>}>";
  for (size_t n = 5; n < whole.size(); ++n) {
    auto v = parseAttribute(whole.substr(0, n));
    EXPECT_FALSE(v) << whole.substr(0, n);
    if (!v) {
      EXPECT_EQ(v.error().message.rfind("line 1, column ", 0), 0u) << v.error().message;
    }
  }
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
