// The error model (layout/core/expected.h): Expected<void> for checks, and Error's location and
// context surviving the layers that add "field: " prefixes.
#include "layout/core/expected.h"

#include <gtest/gtest.h>

namespace layout {
namespace {

Expected<void> positive(int v) {
  if (v <= 0) return makeError(std::to_string(v) + " is not positive");
  return {};
}

Expected<int> twice(int v) {
  LAYOUT_TRY(positive(v));
  return 2 * v;
}

TEST(ErrorModel, ExpectedVoidIsACheck) {
  EXPECT_TRUE(positive(3));
  EXPECT_TRUE(positive(3).ok());
  auto bad = positive(-1);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "-1 is not positive");
  EXPECT_EQ(*twice(4), 8);
  auto propagated = twice(0);
  ASSERT_FALSE(propagated);
  EXPECT_EQ(propagated.error().message, "0 is not positive");
}

TEST(ErrorModel, LocationAndContextSurvivePrefixes) {
  Error e = makeErrorAt({3, 14}, "'order' must be a permutation");
  EXPECT_EQ(e.message, "line 3, column 14: 'order' must be a permutation");
  e = withContext(withContext(e, "src"), "args");
  EXPECT_EQ(e.message, "args: src: line 3, column 14: 'order' must be a permutation");
  ASSERT_TRUE(e.location);
  EXPECT_EQ(e.location->line, 3);
  EXPECT_EQ(e.location->column, 14);
  EXPECT_EQ(e.context, (std::vector<std::string>{"args", "src"}));
  Error plain = makeError("no place");
  EXPECT_FALSE(plain.location);
  EXPECT_TRUE(plain.context.empty());
}

} // namespace
} // namespace layout
