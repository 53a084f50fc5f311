// Bank models: the built-in tables against the reference's (docs/reference/
// banks-swizzles-visualizers.md §3), user models from JSON and their diagnostics.
#include "layout/smem/bank_analysis.h"
#include "layout/smem/bank_model.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

namespace {

using namespace layout::smem;
using nlohmann::json;

std::vector<int> range(int a, int b) {
  std::vector<int> v;
  for (int i = a; i <= b; ++i) v.push_back(i);
  return v;
}

std::vector<int> cat(std::initializer_list<std::vector<int>> parts) {
  std::vector<int> v;
  for (const auto& p : parts) v.insert(v.end(), p.begin(), p.end());
  return v;
}

TEST(BankModel, BuiltinTablesAreValidAndMatchTheReference) {
  ASSERT_EQ(builtinBankTargets().size(), 4u);
  // Every entry of the embedded tables was read (a bad entry would cut its target short).
  EXPECT_EQ(builtinBankTargets()[0].instructions.size(), 22u); // nvidia
  // cdna3, cdna4: 32/64/128-bit (cdna4 also 96-bit) LDS reads and writes, and the sub-dword
  // ds_read_u8/u16, ds_write_b8/b16 of LLVM's gfx942 syntax.
  EXPECT_EQ(builtinBankTargets()[1].instructions.size(), 10u);
  EXPECT_EQ(builtinBankTargets()[2].instructions.size(), 11u);
  EXPECT_EQ(builtinBankTargets()[3].instructions.size(), 10u); // xe
  EXPECT_EQ(bankInstruction("nvidia.ld.b128")->pairMergedPhases.size(), 2u);
  for (const auto& t : builtinBankTargets())
    for (const auto& i : t.instructions) EXPECT_TRUE(verifyBankInstruction(i).ok()) << i.name;
  auto b128 = bankInstruction("cdna4.ds_read_b128");
  ASSERT_TRUE(b128.ok());
  EXPECT_EQ(b128->banks, 64);
  EXPECT_EQ(b128->laneCount, 64);
  ASSERT_EQ(b128->phases.size(), 4u);
  EXPECT_EQ(b128->phases[0], cat({range(0, 3), range(12, 15), range(20, 27)}));
  EXPECT_EQ(b128->phases[1], cat({range(4, 11), range(16, 19), range(28, 31)}));
  EXPECT_EQ(b128->phases[3], cat({range(36, 43), range(48, 51), range(60, 63)}));
  auto b96 = bankInstruction("cdna4.ds_read_b96");
  EXPECT_EQ(b96->banks, 32);
  EXPECT_EQ(b96->bytesPerLane, 12);
  EXPECT_EQ(b96->phases.size(), 8u);
  auto w64 = bankInstruction("cdna4.ds_write_b64");
  EXPECT_EQ(w64->banks, 32);
  EXPECT_EQ(w64->phases[1], range(16, 31));
  auto cdna3 = bankInstruction("cdna3.ds_read_b128");
  EXPECT_EQ(cdna3->banks, 32);
  EXPECT_EQ(cdna3->phases[4], cat({range(32, 35), range(52, 55)}));
  auto w128 = bankInstruction("cdna3.ds_write_b128");
  ASSERT_EQ(w128->phases.size(), 8u); // 8 phases of 8 contiguous lanes
  EXPECT_EQ(w128->phases[7], range(56, 63));
  auto q = bankInstruction("nvidia.ld.b128");
  EXPECT_EQ(q->phases.size(), 4u);
  EXPECT_EQ(q->phases[2], range(16, 23));
  EXPECT_EQ(bankInstruction("nvidia.ld.b64")->phases[1], range(16, 31));
  auto ldm = bankInstruction("nvidia.ldmatrix.x2.trans");
  EXPECT_TRUE(ldm->isMatrix());
  EXPECT_TRUE(ldm->transposed);
  EXPECT_EQ(ldm->matrices, 2);
  auto xe = bankInstruction("xe.slm.ld.b32");
  EXPECT_EQ(xe->banks, 16);
  EXPECT_EQ(xe->laneCount, 16);
  // Every grouping says where it comes from; the unmeasured ones say "assumed".
  EXPECT_EQ(b128->basis.rfind("measured", 0), 0u);
  EXPECT_EQ(bankInstruction("cdna4.ds_write_b128")->basis.rfind("assumed", 0), 0u);
}

TEST(BankModel, UnknownNamesListTheKnownOnes) {
  auto e = bankInstruction("cdna4.ds_read_b256");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("cdna4.ds_read_b128"), std::string::npos);
  EXPECT_NE(bankInstruction("gfx9.ds_read_b32").error().message.find("target"), std::string::npos);
}

TEST(BankModel, UserModelRoundTripsAndDefaultsToContiguousPhases) {
  auto m = bankInstructionFromJson(json::parse(R"({"name": "mygpu.ld.b64", "direction": "read",
      "laneCount": 32, "banks": 32, "bankBytes": 4, "bytesPerLane": 8})"));
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_EQ(m->phases.size(), 2u); // 32 banks x 4 B / 8 B = 16 lanes per phase
  EXPECT_EQ(m->phases[1], range(16, 31));
  auto back = bankInstructionFromJson(json::parse(bankInstructionToJson(*m).dump()));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->phases, m->phases);
  EXPECT_EQ(back->name, m->name);
}

TEST(BankModel, UserModelErrorsNameTheField) {
  struct Case {
    const char* json;
    const char* message;
  };
  const Case cases[] = {
      {R"({"name": "x", "direction": "read", "laneCount": 32, "banks": 24, "bankBytes": 4,
          "bytesPerLane": 4})",
       "banks 24 is not a power of two"},
      {R"({"name": "x", "direction": "sideways", "laneCount": 32, "banks": 32, "bankBytes": 4,
          "bytesPerLane": 4})",
       "direction"},
      {R"({"name": "x", "direction": "read", "laneCount": 32, "banks": 32, "bankBytes": 4,
          "bytesPerLane": 4, "phases": [["0-15"], ["8-31"]]})",
       "already in phases[0]"},
      {R"({"name": "x", "direction": "read", "laneCount": 32, "banks": 32, "bankBytes": 4,
          "bytesPerLane": 4, "phases": [["0-15"]]})",
       "cover 16 lanes"},
      {R"({"name": "x", "direction": "read", "laneCount": 32, "banks": 32, "bankBytes": 4,
          "bytesPerLane": 4, "phases": [["7-3"], ["8-31"]]})",
       "phases[0][0]"},
      {R"({"name": "x", "direction": "read", "laneCount": 32, "banks": 32, "bankBytes": 4,
          "bytesPerLane": 4, "phase": []})",
       "phase: unknown field"},
      {R"({"name": "x", "direction": "read", "banks": 32, "bankBytes": 4, "bytesPerLane": 4})",
       "laneCount: missing field"},
      {R"([1, 2])", "expected an object"},
      // Zero sizes are refused by range, never divided by (the fuzzer's bytesPerLane 0).
      {R"({"name": "x", "direction": "read", "laneCount": 32, "banks": 32, "bankBytes": 4,
          "bytesPerLane": 0})",
       "bytesPerLane: 0 is outside [1, 256]"},
      {R"({"name": "x", "direction": "read", "laneCount": 32, "banks": 32, "bankBytes": 0,
          "bytesPerLane": 4})",
       "bankBytes: 0 is outside [1, 64]"},
      {R"({"name": "x", "direction": "read", "laneCount": 0, "banks": 32, "bankBytes": 4,
          "bytesPerLane": 4})",
       "laneCount: 0 is outside [1, 4096]"},
      {R"({"name": "x", "direction": "read", "laneCount": 32, "banks": 32, "bankBytes": 4,
          "bytesPerLane": 4, "matrices": 0})",
       "matrices: 0 is outside [1, 4]"},
  };
  for (const Case& c : cases) {
    auto r = bankInstructionFromJson(json::parse(c.json));
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_NE(r.error().message.find(c.message), std::string::npos)
        << r.error().message << "\n  wanted: " << c.message;
  }
}

// ds_read_b96 (12 bytes per lane) can only be analysed from explicit addresses; at a 16-byte
// stride it is conflict-free (reference §3.5 example 11).
TEST(BankModel, DsReadB96FromAddresses) {
  auto ins = *bankInstruction("cdna4.ds_read_b96");
  std::vector<LaneAddress> a;
  for (int l = 0; l < 64; ++l) a.push_back({l, uint64_t(16 * l)});
  auto r = analyzeByteAddresses(a, 12, ins);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->maxWays(), 1);
  EXPECT_EQ(r->wavefronts, 8u);
  // A lane address outside the wave, and a lane given twice, are errors.
  a.push_back({64, 0});
  EXPECT_NE(analyzeByteAddresses(a, 12, ins).error().message.find("lane 64"), std::string::npos);
  a.back() = {3, 0};
  EXPECT_NE(analyzeByteAddresses(a, 12, ins).error().message.find("already has an address"),
            std::string::npos);
}

} // namespace

namespace {

// Reference §3.5 examples 6-8 through the library: a warp reads one column of a row-major f32
// tile with row stride s (word address 32-bit l * s), optionally through CuTe Swizzle<B,0,5> on
// the word offset, or every lane reads the same word.
int columnReadWays(uint64_t stride, int swizzleBits) {
  std::vector<LaneAddress> a;
  for (int l = 0; l < 32; ++l) {
    uint64_t word = uint64_t(l) * stride;
    if (swizzleBits) word ^= (word & (((uint64_t{1} << swizzleBits) - 1) << 5)) >> 5;
    a.push_back({l, 4 * word});
  }
  auto r = analyzeByteAddresses(a, 4, *bankInstruction("nvidia.ld.b32"));
  EXPECT_TRUE(r.ok());
  return r ? r->maxWays() : -1;
}

TEST(BankModel, ReferenceColumnReadExamples) {
  EXPECT_EQ(columnReadWays(32, 0), 32);
  EXPECT_EQ(columnReadWays(64, 0), 32);
  EXPECT_EQ(columnReadWays(16, 0), 16);
  EXPECT_EQ(columnReadWays(33, 0), 1);
  EXPECT_EQ(columnReadWays(32, 5), 1); // Swizzle<5,0,5>
  EXPECT_EQ(columnReadWays(32, 3), 4); // Swizzle<3,0,5>
  EXPECT_EQ(columnReadWays(32, 2), 8); // Swizzle<2,0,5>
  std::vector<LaneAddress> same;
  for (int l = 0; l < 32; ++l) same.push_back({l, 64});
  EXPECT_EQ(analyzeByteAddresses(same, 4, *bankInstruction("nvidia.ld.b32"))->maxWays(), 1);
}

} // namespace
