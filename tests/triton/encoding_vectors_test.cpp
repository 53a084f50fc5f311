// Replays TritonGPU encodings converted by real Triton 3.6.0
// (tests/data/triton_encoding_vectors.jsonl, made by tests/triton_oracle/gen_encoding_vectors.py)
// through our parser, toLinearLayout and the triton-tensor-layout views.
#include "layout/text/layout_json.h"
#include "layout/triton/encoding.h"
#include "layout/triton/layout_views.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <map>

using nlohmann::json;

namespace {

std::vector<json> loadRecords() {
  std::ifstream in(std::string(LAYOUT_TEST_DATA_DIR) + "/triton_encoding_vectors.jsonl");
  std::vector<json> records;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) records.push_back(json::parse(line));
  return records;
}

std::string family(const std::string& encoding) {
  return encoding.substr(0, encoding.find('<'));
}

TEST(TritonEncodingVectors, LayoutsAndViewsMatchTriton) {
  std::vector<json> records = loadRecords();
  ASSERT_GE(records.size(), 600u) << "test data missing";
  std::map<std::string, int> checked;
  for (const json& r : records) {
    // Every record is checked: each encoding Triton converted is implemented here.
    const std::string encoding = r["encoding"];
    SCOPED_TRACE("record " + std::to_string(r["id"].get<int>()) + ": " + encoding);
    std::vector<int64_t> shape = r["shape"].get<std::vector<int64_t>>();
    auto enc = layout::triton::parseEncoding(encoding);
    ASSERT_TRUE(enc) << enc.error().message;
    auto ll = layout::triton::toLinearLayout(*enc, shape);
    ASSERT_TRUE(ll) << ll.error().message;
    json got = json::parse(layout::printLayoutJson(*ll));
    EXPECT_EQ(got, r["layout"]);
    if (!r["tensorView"].is_null()) {
      auto tensorView = layout::triton::layoutStr(*enc, *ll, shape, false);
      auto hwView = layout::triton::layoutStr(*enc, *ll, shape, true);
      ASSERT_TRUE(tensorView && hwView) << encoding;
      EXPECT_EQ(*tensorView, r["tensorView"].get<std::string>());
      EXPECT_EQ(*hwView, r["hwView"].get<std::string>());
    }
    ++checked[family(encoding)];
    if (::testing::Test::HasFailure()) break;
  }
  size_t total = 0;
  for (const auto& [f, n] : checked) total += size_t(n);
  EXPECT_EQ(total, records.size());
  for (const char* f : {"#ttg.blocked", "#ttg.slice", "#ttg.linear", "#ttg.swizzled_shared",
                        "#ttg.amd_rotating_shared", "#ttg.nvidia_mma", "#ttg.dot_op",
                        "#ttg.amd_mfma", "#ttg.nvmma_shared", "#ttg.amd_wmma"})
    EXPECT_GE(checked[f], 10) << f;
}

} // namespace

namespace {

// Every attribute Triton printed parses, and prints back exactly as MLIR printed it.
TEST(TritonEncodingVectors, AttributeTextRoundTripsForEveryEncoding) {
  int n = 0;
  for (const json& r : loadRecords()) {
    const std::string text = r["encoding"];
    auto attr = layout::parseAttribute(text);
    ASSERT_TRUE(attr) << text << ": " << attr.error().message;
    EXPECT_EQ(layout::printAttrValue(*attr), text);
    ++n;
  }
  EXPECT_GE(n, 600);
}

} // namespace
