// The shared JSON field reader (layout/text/internal/json_fields.h): an integer field is read only inside
// [lo, hi], whichever way nlohmann/json stores it (non-negative literals are stored unsigned).
#include "layout/text/internal/json_fields.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

using namespace layout;

namespace {

Expected<void> readInt(const char* text, int64_t lo, int64_t hi, int64_t& out) {
  return detail::readIntField(nlohmann::json::parse(text), "model", "n", lo, hi, out);
}

TEST(JsonFields, IntFieldInsideItsRangeIsRead) {
  int64_t v = -7;
  ASSERT_TRUE(readInt(R"({"n": 1})", 1, 256, v));
  EXPECT_EQ(v, 1);
  ASSERT_TRUE(readInt(R"({"n": 256})", 1, 256, v));
  EXPECT_EQ(v, 256);
  ASSERT_TRUE(readInt(R"({"n": -3})", -4, 4, v));
  EXPECT_EQ(v, -3);
  ASSERT_TRUE(readInt(R"({"n": 0})", 0, 0, v));
  EXPECT_EQ(v, 0);
  ASSERT_TRUE(readInt(R"({"n": -2})", -5, -1, v));
  EXPECT_EQ(v, -2);
  int small = 0; // the int overload reads the same way
  ASSERT_TRUE(detail::readIntField(nlohmann::json::parse(R"({"n": 12})"), "", "n", 1, 64, small));
  EXPECT_EQ(small, 12);
}

// Below the lower bound is refused for literals stored unsigned (0, 3) as for negative ones: a
// zero "bytesPerLane" once reached a division in the bank model.
TEST(JsonFields, IntFieldOutsideItsRangeNamesFieldAndRange) {
  struct Case {
    const char* json;
    int64_t lo, hi;
    const char* message;
  };
  const Case cases[] = {
      {R"({"n": 0})", 1, 256, "model.n: 0 is outside [1, 256]"},
      {R"({"n": 3})", 4, 8, "model.n: 3 is outside [4, 8]"},
      {R"({"n": -1})", 1, 256, "model.n: -1 is outside [1, 256]"},
      {R"({"n": 257})", 1, 256, "model.n: 257 is outside [1, 256]"},
      {R"({"n": 18446744073709551615})", 1, 256,
       "model.n: 18446744073709551615 is outside [1, 256]"},
      {R"({"n": 0})", -5, -1, "model.n: 0 is outside [-5, -1]"},
      {R"({"n": 2})", -5, -1, "model.n: 2 is outside [-5, -1]"},
      {R"({"n": 1.5})", 1, 256, "model.n: expected an integer"},
      {R"({"m": 1})", 1, 256, "model.n: missing field"},
  };
  for (const Case& c : cases) {
    int64_t v = 42;
    auto r = readInt(c.json, c.lo, c.hi, v);
    ASSERT_FALSE(r) << c.json;
    EXPECT_NE(r.error().message.find(c.message), std::string::npos)
        << r.error().message << "\n  wanted: " << c.message;
    EXPECT_EQ(v, 42) << "a refused value is not stored: " << c.json;
  }
}

} // namespace
