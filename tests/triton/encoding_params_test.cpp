// Typed encodings (layout/triton/encoding_params.h). Independent sources: the encodings real
// Triton 3.6.0 converted (tests/data/triton_encoding_vectors.jsonl, with upstream's layouts), and
// seed 002's #ttig.dpas. For every vector: read the parameters, rebuild the encoding from them
// (no text), and the rebuilt encoding must convert to upstream's layout; printing the parameters
// must give the text's canonical form.
#include "layout/text/layout_json.h"
#include "layout/triton/encoding.h"
#include "layout/triton/encoding_params.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

namespace layout::triton {
namespace {

using nlohmann::json;

// The typed round trip of one encoding: {rebuilt encoding, printed text} or an error.
struct RoundTrip {
  Expected<Encoding> rebuilt = makeError("unhandled kind");
  std::string printed;
};

template <typename Params> RoundTrip through(const Expected<Params>& params) {
  if (!params) return {params.error(), ""};
  return {toEncoding(*params), printEncoding(*params)};
}

RoundTrip roundTrip(const Encoding& e) {
  switch (e.kind) {
  case EncodingKind::Blocked:
    return through(blockedEncoding(e));
  case EncodingKind::Slice:
    return through(sliceEncoding(e));
  case EncodingKind::DotOperand:
    return through(dotOperandEncoding(e));
  case EncodingKind::NvidiaMma:
    return through(nvidiaMmaEncoding(e));
  case EncodingKind::AmdMfma:
    return through(amdMfmaEncoding(e));
  case EncodingKind::AmdWmma:
    return through(amdWmmaEncoding(e));
  case EncodingKind::Linear:
    return through(linearEncoding(e));
  case EncodingKind::SwizzledShared:
    return through(swizzledSharedEncoding(e));
  case EncodingKind::AmdRotatingShared:
    return through(amdRotatingSharedEncoding(e));
  case EncodingKind::NvmmaShared:
    return through(nvmmaSharedEncoding(e));
  case EncodingKind::PaddedShared:
    return through(paddedSharedEncoding(e));
  case EncodingKind::SharedLinear:
    return through(sharedLinearEncoding(e));
  case EncodingKind::IntelDpas:
    return through(intelDpasEncoding(e));
  case EncodingKind::IntelSubgroup2DBlock:
    return through(subgroup2DBlockEncoding(e));
  case EncodingKind::PartitionedShared:
    return through(partitionedSharedEncoding(e));
  }
  return {};
}

TEST(TypedEncodings, RebuiltFromParametersAgreeWithTriton) {
  std::ifstream in(std::string(LAYOUT_TEST_DATA_DIR) + "/triton_encoding_vectors.jsonl");
  std::string line;
  std::map<std::string, int> checked;
  int total = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const json r = json::parse(line);
    const std::string text = r["encoding"];
    auto parsed = parseEncoding(text);
    if (!parsed)
      continue; // encodings Triton converts that the project does not (listed in
                // encoding_vectors_test.cpp)
    const std::vector<int64_t> shape = r["shape"];
    auto want = layoutFromJson(r["layout"]);
    ASSERT_TRUE(want) << text;
    auto ll = toLinearLayout(*parsed, shape);
    if (!ll || !(*ll == *want)) continue; // not a conversion the project matches (elsewhere)
    RoundTrip t = roundTrip(*parsed);
    ASSERT_TRUE(t.rebuilt) << text << ": " << t.rebuilt.error().message;
    auto rebuiltLayout = toLinearLayout(*t.rebuilt, shape);
    ASSERT_TRUE(rebuiltLayout) << text;
    EXPECT_EQ(*rebuiltLayout, *want) << text << "\nrebuilt as " << t.printed;
    EXPECT_EQ(t.rebuilt->canonical, t.printed) << text;
    // The printed text reads back to the same parameters.
    auto reparsed = parseEncoding(t.printed);
    ASSERT_TRUE(reparsed) << t.printed << ": " << reparsed.error().message;
    EXPECT_EQ(roundTrip(*reparsed).printed, t.printed);
    ++total;
    ++checked[text.substr(0, text.find('<'))];
  }
  EXPECT_GE(total, 500);
  for (const char* kind :
       {"#ttg.blocked", "#ttg.slice", "#ttg.dot_op", "#ttg.nvidia_mma", "#ttg.amd_mfma",
        "#ttg.amd_wmma", "#ttg.linear", "#ttg.swizzled_shared", "#ttg.amd_rotating_shared",
        "#ttg.nvmma_shared", "#ttg.padded_shared", "#ttg.shared_linear"})
    EXPECT_GT(checked[kind], 0) << kind;
}

// The printer writes parameters in the order Triton prints them: texts as they appear in Triton's
// own lit tests (test/TritonGPU/*.mlir, Triton main) print back unchanged.
TEST(TypedEncodings, PrintedInTritonsOrder) {
  const char* upstream[] = {
      "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
      "order = [1, 0], CGALayout = [[1, 0], [2, 0], [4, 0]]}>",
      "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = "
      "[[1, 0]]}>",
      "#ttg.swizzled_shared<{vec = 16, perPhase = 2, maxPhase = 8, order = [1, 0]}>",
      "#ttg.amd_mfma<{version = 4, warpsPerCTA = [1, 4], tilesPerWarp = [2, 2], instrShape = "
      "[16, 16, 32], isTransposed = true}>",
      "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = "
      "[16, 256, 16]}>",
      "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
      "#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>",
  };
  for (const char* text : upstream) {
    auto e = parseEncoding(text);
    ASSERT_TRUE(e) << text << ": " << e.error().message;
    EXPECT_EQ(roundTrip(*e).printed, text);
  }
}

// Seed 002's operand A (docs/seeds.md#seed-002), built from values.
TEST(TypedEncodings, IntelDpasOperandFromValues) {
  IntelDpasEncoding dpas;
  dpas.repeatCount = 8;
  dpas.systolicDepth = 8;
  dpas.executionSize = 16;
  dpas.opsPerChan = 2;
  dpas.threadsPerWarp = 16;
  dpas.warpsPerCTA = {8, 4};
  dpas.repCluster = {4, 2};
  auto parent = toEncoding(dpas);
  ASSERT_TRUE(parent) << parent.error().message;
  DotOperandEncoding a{0, *parent, 1};
  const std::string seedText =
      "#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, "
      "executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], "
      "repCluster = [4, 2]}>, kWidth = 1}>";
  EXPECT_EQ(printEncoding(a), seedText);
  auto built = toEncoding(a);
  ASSERT_TRUE(built) << built.error().message;
  const int64_t shape[] = {256, 32};
  EXPECT_EQ(*toLinearLayout(*built, shape), *toLinearLayout(*parseEncoding(seedText), shape));
  auto back = intelDpasEncoding(*parent);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->repCluster, (std::vector<int64_t>{4, 2}));
}

// A builder checks Triton's rules like the parser, with the same message (and no location: there
// is no text).
TEST(TypedEncodings, BuildersVerify) {
  BlockedEncoding bad{{1, 3}, {4, 8}, {1, 1}, {1, 0}, {}};
  auto e = toEncoding(bad);
  ASSERT_FALSE(e);
  auto parsed = parseEncoding(printEncoding(bad));
  ASSERT_FALSE(parsed);
  const std::string parsedMessage = parsed.error().message;
  // The parser's message is "line 1, column C: <rule>"; the builder's is the rule.
  EXPECT_EQ(parsedMessage.substr(parsedMessage.find(": ") + 2),
            e.error().message.substr(e.error().message.find(": ") + 2));
  EXPECT_FALSE(blockedEncoding(*parseEncoding(
      "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>")));
}

} // namespace
} // namespace layout::triton
