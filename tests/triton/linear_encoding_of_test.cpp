// linearEncodingOf (layout/triton/linear_encoding_of.h). Independent source: the layouts real
// Triton 3.6.0 computed for its encodings (tests/data/triton_encoding_vectors.jsonl). Each
// upstream layout, written back as #ttg.linear / #ttg.shared_linear text and converted again
// (the parser and converter checked against upstream elsewhere), must be that layout.
#include "layout/text/layout_json.h"
#include "layout/triton/encoding.h"
#include "layout/triton/linear_encoding_of.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace layout::triton {
namespace {

TEST(LinearEncodingOf, UpstreamLayoutsRoundTrip) {
  std::ifstream in(std::string(LAYOUT_TEST_DATA_DIR) + "/triton_encoding_vectors.jsonl");
  std::string line;
  int distributed = 0, shared = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const nlohmann::json r = nlohmann::json::parse(line);
    const std::vector<int64_t> shape = r["shape"];
    auto want = layoutFromJson(r["layout"]);
    ASSERT_TRUE(want) << r["encoding"];
    auto enc = linearEncodingOf(*want);
    ASSERT_TRUE(enc) << r["encoding"] << ": " << enc.error().message;
    // Printed and read back, as a user pastes it.
    auto reparsed = parseEncoding(enc->text());
    ASSERT_TRUE(reparsed) << enc->text() << ": " << reparsed.error().message;
    auto back = toLinearLayout(*reparsed, shape);
    ASSERT_TRUE(back) << enc->text() << ": " << back.error().message;
    EXPECT_EQ(*back, *want) << r["encoding"] << "\nas " << enc->text();
    (enc->isShared() ? shared : distributed) += 1;
  }
  EXPECT_GE(distributed, 400);
  EXPECT_GE(shared, 50);
}

TEST(LinearEncodingOf, RefusesWhatTheEncodingsCannotSay) {
  const LinearLayout rows = *LinearLayout::identity1D(8, dims::lane(), DimName("rows"));
  auto e = linearEncodingOf(rows);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("out-dim 0 is 'rows'"), std::string::npos) << e.error().message;
  const LinearLayout other = *LinearLayout::identity1D(8, DimName("thread"), dims::standardOut(0));
  e = linearEncodingOf(other);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("in-dim 'thread' is not register, lane, warp or block"),
            std::string::npos)
      << e.error().message;
  const LinearLayout sharedOdd =
      *product(*LinearLayout::identity1D(8, dims::offset(), dims::standardOut(0)),
               *LinearLayout::identity1D(2, dims::lane(), dims::standardOut(1)));
  e = linearEncodingOf(sharedOdd);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("in-dim 'lane' is not offset or block"), std::string::npos)
      << e.error().message;
}

} // namespace
} // namespace layout::triton
