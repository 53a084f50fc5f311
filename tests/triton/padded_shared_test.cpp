// #ttg.padded_shared: the padding rule reproduces the seed's slot tables (seed 003, lines 397-408,
// transcribed in tests/data/seed003/padded_shared_example{1,2}.txt).
#include "layout/triton/encoding.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

std::string readSeed(const std::string& name) {
  std::ifstream in(std::string(LAYOUT_TEST_DATA_DIR) + "/seed003/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The seed's format: memory slots in address order, eK for element K and pN for the N-th padding
// slot, a line break after each run of padding, and "..." after `elements` elements.
std::string slotTable(const layout::triton::Encoding& enc, uint64_t elements) {
  // Slot tokens in address order; a run of padding ends a line.
  std::vector<std::string> tokens;
  std::vector<bool> endsLine;
  uint64_t next = 0, pad = 0;
  for (uint64_t e = 0; e <= elements; ++e) {
    const uint64_t address = *layout::triton::paddedSharedAddress(enc, e);
    for (; next < address; ++next) {
      tokens.push_back("p" + std::to_string(pad++));
      endsLine.push_back(next + 1 == address);
    }
    if (e == elements) break; // only the padding before element `elements` is shown
    tokens.push_back("e" + std::to_string(e));
    endsLine.push_back(false);
    next = address + 1;
  }
  std::string out = "   [";
  for (size_t i = 0; i < tokens.size(); ++i) out += tokens[i] + (endsLine[i] ? ",\n    " : ", ");
  return out + "...]\n";
}

TEST(PaddedShared, SeedExamplesSlotBySlot) {
  auto one = layout::triton::parseEncoding("#ttg.padded_shared<[2:+2] {order = [0], shape = [8]}>");
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(slotTable(*one, 4), readSeed("padded_shared_example1.txt"));
  auto two =
      layout::triton::parseEncoding("#ttg.padded_shared<[2:+1, 4:+2] {order = [0], shape = [8]}>");
  ASSERT_TRUE(two) << two.error().message;
  EXPECT_EQ(slotTable(*two, 8), readSeed("padded_shared_example2.txt"));
}

TEST(PaddedShared, AddressRuleAndErrors) {
  auto enc =
      layout::triton::parseEncoding("#ttg.padded_shared<[2:+1, 4:+2] {order = [0], shape = [8]}>");
  ASSERT_TRUE(enc);
  // 5 + (5 >> 1) * 1 + (5 >> 2) * 2 = 5 + 2 + 2.
  EXPECT_EQ(*layout::triton::paddedSharedAddress(*enc, 5), 9u);
  auto bad = layout::triton::parseEncoding("#ttg.padded_shared<[3:+1] {order = [0], shape = [8]}>");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "line 1, column 21: interval 3: interval values must all be power of two");
  auto blocked = layout::triton::parseEncoding(
      "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>");
  ASSERT_TRUE(blocked);
  EXPECT_FALSE(layout::triton::paddedSharedAddress(*blocked, 1));
}

} // namespace
