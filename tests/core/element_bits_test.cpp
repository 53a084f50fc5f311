// layout/core/element_bits.h: the element-width rule and the message every caller prints. The
// messages are the CLI / batch contract (tests/cli/layoutctl_test.sh, tests/protocol).
#include "layout/core/element_bits.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>

namespace {

using layout::checkElementBits;
using layout::elementBitsText;
using layout::isElementBits;

TEST(ElementBits, Rule) {
  for (int bits : {8, 16, 32, 64}) EXPECT_TRUE(isElementBits(bits)) << bits;
  for (int64_t bits : std::initializer_list<int64_t>{-8, 0, 1, 4, 12, 24, 128, int64_t{1} << 33})
    EXPECT_FALSE(isElementBits(bits)) << bits;
  EXPECT_TRUE(isElementBits(4, layout::kElementBitsWithNibbles));
  EXPECT_FALSE(isElementBits(2, layout::kElementBitsWithNibbles));
  EXPECT_TRUE(isElementBits(32, layout::kBlockLoadElementBits));
  EXPECT_FALSE(isElementBits(64, layout::kBlockLoadElementBits));
}

TEST(ElementBits, Text) {
  EXPECT_EQ(elementBitsText(), "8, 16, 32 or 64");
  EXPECT_EQ(elementBitsText(layout::kElementBitsWithNibbles), "4, 8, 16, 32 or 64");
  EXPECT_EQ(elementBitsText(layout::kBlockLoadElementBits), "8, 16 or 32");
  const int one[] = {16};
  EXPECT_EQ(elementBitsText(one), "16");
}

TEST(ElementBits, Check) {
  auto ok = checkElementBits(32, "elemBits");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 32);
  auto bad = checkElementBits(12, "elemBits");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "elemBits: 12 is not 8, 16, 32 or 64");
  auto cli = checkElementBits(12, "--elem-bits", layout::kBlockLoadElementBits);
  ASSERT_FALSE(cli.ok());
  EXPECT_EQ(cli.error().message, "--elem-bits: 12 is not 8, 16 or 32");
  auto nibble = checkElementBits(2, "elemBits", layout::kElementBitsWithNibbles);
  ASSERT_FALSE(nibble.ok());
  EXPECT_EQ(nibble.error().message, "elemBits: 2 is not 4, 8, 16, 32 or 64");
}

} // namespace
