// Seed 004 (MI350 LDS bank conflicts and swizzling) through the library: the 32x64 f16 tile read
// with ds_read_b128 in MFMA row order, unswizzled and with the seed's XOR swizzle, on CDNA4 and
// CDNA3; the swizzle formula itself element by element; reference §3.5 example 9 (ldmatrix on a
// 128-byte pitch); Triton seed 003's swizzled_shared tables from the seed-004 parameters.
#include "layout/smem/bank_analysis.h"
#include "layout/smem/swizzle_synthesis.h"

#include "support/seed004_layouts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace {

using layout::DimName;
using layout::DimSize;
using layout::InDimBases;
using layout::LinearLayout;
using namespace layout::smem;

const DimName kReg("register"), kLane("lane");

const int64_t kTile[] = {32, 64};

BankReport analyze(const LinearLayout& shared, const char* ins) {
  auto i = bankInstruction(ins);
  EXPECT_TRUE(i.ok());
  auto r = analyzeBanks(SharedAccess{layout_test::seed004Reads(), shared, 16, {}}, *i);
  EXPECT_TRUE(r.ok()) << (r ? "" : r.error().message);
  return r ? *r : BankReport{};
}

const BankUse* bank(const PhaseReport& p, int b) {
  for (const auto& u : p.banks)
    if (u.bank == b) return &u;
  return nullptr;
}

const LaneTouch* lane(const BankReport& r, int l) {
  for (const auto& p : r.phases)
    for (const auto& t : p.lanes)
      if (t.lane == l) return &t;
  return nullptr;
}

TEST(Seed004Banks, UnswizzledIsFourWayInEveryPhase) {
  BankReport r = analyze(*rowMajorShared(kTile), "cdna4.ds_read_b128");
  EXPECT_EQ(r.perPhaseMaxWays, (std::vector<int>{4, 4, 4, 4}));
  // 8 waves x 2 reads x 4 phases, each 4 wavefronts instead of 1.
  EXPECT_EQ(r.wavefronts, 256u);
  EXPECT_EQ(r.idealWavefronts, 64u);
  // Phase 0 is threads 0-3, 12-15, 20-27; threads 0, 2, 12, 14 all hit banks 0-3.
  ASSERT_EQ(r.phases.size(), 4u);
  const PhaseReport& p0 = r.phases[0];
  EXPECT_EQ(p0.ways, 4);
  for (int b = 0; b < 4; ++b) {
    const BankUse* u = bank(p0, b);
    ASSERT_NE(u, nullptr);
    EXPECT_EQ(u->lanes, (std::vector<int>{0, 2, 12, 14})) << "bank " << b;
    EXPECT_EQ(u->words.size(), 4u);
  }
}

TEST(Seed004Banks, SeedSwizzleIsConflictFreeAndMovesThreadOne) {
  // swizzle_unit = max(2, 8) = 8, max_phase = min(8, 64 / 8) = 8.
  auto shared = xorSwizzleShared(kTile, 8, 8);
  ASSERT_TRUE(shared.ok()) << shared.error().message;
  BankReport r = analyze(*shared, "cdna4.ds_read_b128");
  EXPECT_EQ(r.perPhaseMaxWays, (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(r.wavefronts, r.idealWavefronts);
  const LaneTouch* t1 = lane(r, 1);
  ASSERT_NE(t1, nullptr);
  // Row 1, column chunk 0 XOR 1 = 1: physical column 8, bank (1 * 32 + 8 / 2) % 64 = 36.
  EXPECT_EQ(t1->banks, (std::vector<int>{36, 37, 38, 39}));
  EXPECT_EQ(t1->byteAddress, (1u * 64 + 8) * 2);
}

TEST(Seed004Banks, SameSwizzleOnCdna3) {
  EXPECT_EQ(analyze(*rowMajorShared(kTile), "cdna3.ds_read_b128").maxWays(), 4);
  BankReport r = analyze(*xorSwizzleShared(kTile, 8, 8), "cdna3.ds_read_b128");
  EXPECT_EQ(r.maxWays(), 1);
  EXPECT_EQ(r.perPhaseMaxWays.size(), 8u);
}

// The seed's formula, element by element: (row, col) is stored at
// row * 64 + ((col / 8) XOR (row % 8)) * 8 + col % 8.
TEST(Seed004Banks, SwizzleIsTheSeedFormula) {
  auto shared = xorSwizzleShared(kTile, 8, 8);
  ASSERT_TRUE(shared.ok());
  ASSERT_EQ(shared->numInDims(), 2); // offset, block
  for (uint64_t off = 0; off < 32 * 64; ++off) {
    uint64_t in[2] = {off, 0}, out[2]; // offset, block
    shared->apply(in, out);
    uint64_t row = out[0], col = out[1];
    EXPECT_EQ(off, row * 64 + (((col / 8) ^ (row % 8)) * 8) + col % 8) << off;
  }
}

// The seed's 8x8 picture: swizzle unit 1, max phase 8: element (r, c) lands in column c ^ r.
TEST(Seed004Banks, EightByEightBeforeAfter) {
  const int64_t shape[] = {8, 8};
  auto before = xorSwizzleShared(shape, 1, 1);
  auto after = xorSwizzleShared(shape, 1, 8);
  ASSERT_TRUE(before.ok() && after.ok());
  for (uint64_t r = 0; r < 8; ++r)
    for (uint64_t p = 0; p < 8; ++p) {
      uint64_t in[2] = {r * 8 + p, 0}, b[2], a[2];
      before->apply(in, b);
      after->apply(in, a);
      EXPECT_EQ(b[1], p);
      EXPECT_EQ(a[0], r);
      EXPECT_EQ(a[1], p ^ r) << "physical (" << r << ", " << p << ")";
    }
}

TEST(Seed004Banks, SwizzleParametersAreChecked) {
  EXPECT_NE(xorSwizzleShared(kTile, 8, 16).error().message.find("maxPhase"), std::string::npos);
  EXPECT_NE(xorSwizzleShared(kTile, 3, 1).error().message.find("swizzleUnit"), std::string::npos);
  const int64_t bad[] = {32, 48};
  EXPECT_NE(xorSwizzleShared(bad, 8, 1).error().message.find("shape[1]"), std::string::npos);
}

// Triton seed 003's swizzled_shared examples 1, 3 and 5 (perPhase 1) are seed-004 swizzles: the
// printed tables give the linear index stored at each (row, column).
TEST(Seed004Banks, TritonSeedTablesFromSwizzleUnitAndMaxPhase) {
  struct Case {
    int64_t rows, cols;
    int unit, maxPhase;
    std::vector<int> table;
  };
  const Case cases[] = {
      {4, 4, 1, 4, {0, 1, 2, 3, 5, 4, 7, 6, 10, 11, 8, 9, 15, 14, 13, 12}},
      {8, 4, 1, 2, {0,  1,  2,  3,  5,  4,  7,  6,  8,  9,  10, 11, 13, 12, 15, 14,
                    16, 17, 18, 19, 21, 20, 23, 22, 24, 25, 26, 27, 29, 28, 31, 30}},
      {4, 8, 2, 4, {0,  1,  2,  3,  4,  5,  6,  7,  10, 11, 8,  9,  14, 15, 12, 13,
                    20, 21, 22, 23, 16, 17, 18, 19, 30, 31, 28, 29, 26, 27, 24, 25}},
  };
  for (const Case& c : cases) {
    const int64_t shape[] = {c.rows, c.cols};
    auto shared = xorSwizzleShared(shape, c.unit, c.maxPhase);
    ASSERT_TRUE(shared.ok());
    // The printed value at position (r, p) is the logical element r * cols + col stored there.
    for (int64_t r = 0; r < c.rows; ++r)
      for (int64_t p = 0; p < c.cols; ++p) {
        uint64_t in[2] = {uint64_t(r * c.cols + p), 0}, out[2];
        shared->apply(in, out);
        EXPECT_EQ(int64_t(out[0] * c.cols + out[1]), c.table[r * c.cols + p])
            << c.rows << "x" << c.cols << " at (" << r << ", " << p << ")";
      }
  }
}

// Reference §3.5 example 9: ldmatrix.x4 on a 16x64 f16 tile with a 128-byte pitch is 8-way;
// Swizzle<3,4,3> on bytes (= swizzle unit 8, max phase 8 on f16) makes it 1-way.
TEST(Seed004Banks, LdmatrixOn128BytePitch) {
  // The A fragment of mma.m16n8k16: register 0 = the b16 pair, lanes 0-1 the rest of a 16-byte row,
  // lanes 2-4 the 8 rows; registers 1-2 choose the four 8x8 matrices.
  LinearLayout frag = layout_test::make2D(
      {{kReg, {{0, 1}, {8, 0}, {0, 8}}}, {kLane, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}}}, 16,
      64);
  const int64_t shape[] = {16, 64};
  auto ins = bankInstruction("nvidia.ldmatrix.x4");
  ASSERT_TRUE(ins.ok());
  auto plain = analyzeBanks(SharedAccess{frag, *rowMajorShared(shape), 16, {}}, *ins);
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_EQ(plain->perPhaseMaxWays, (std::vector<int>{8, 8, 8, 8}));
  auto swz = analyzeBanks(SharedAccess{frag, *xorSwizzleShared(shape, 8, 8), 16, {}}, *ins);
  ASSERT_TRUE(swz.ok()) << swz.error().message;
  EXPECT_EQ(swz->perPhaseMaxWays, (std::vector<int>{1, 1, 1, 1}));
  // The transposed form needs lanes 2-4 along the 16-byte rows.
  auto trans = analyzeBanks(SharedAccess{frag, *rowMajorShared(shape), 16, {}},
                            *bankInstruction("nvidia.ldmatrix.x4.trans"));
  ASSERT_FALSE(trans.ok());
  EXPECT_NE(trans.error().message.find("lane bit 2"), std::string::npos);
}

} // namespace
