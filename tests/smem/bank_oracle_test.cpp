// Checks the brute-force bank-conflict oracle (support/bank_oracle.h) against numbers printed in
// the sources: docs/reference/banks-swizzles-visualizers.md section 3.5 and seed 004 (the
// MI350 LDS note). Byte addresses are computed here by hand from the documents' prose, so these
// tests pin the oracle itself, independently of liblayout.
#include "support/bank_oracle.h"
#include "support/naive_layout.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

namespace {

using bankoracle::Access;
using bankoracle::PhaseCount;

std::vector<int> waysOf(const std::vector<PhaseCount>& pcs) {
  std::vector<int> out;
  for (const PhaseCount& pc : pcs) out.push_back(pc.ways);
  return out;
}

std::vector<int> allLanes(int n) {
  return bankoracle::contiguousLaneGroups(n, n).front();
}

// CuTe Swizzle<B,M,S>(x) = x ^ ((x & yyy_msk) >> S), yyy_msk = ((1<<B)-1) << (M+S); S > 0 here.
uint64_t cuteSwizzle(int b, int m, int s, uint64_t x) {
  uint64_t yyy = ((uint64_t(1) << b) - 1) << (m + s);
  return x ^ ((x & yyy) >> s);
}

// ---- NVIDIA: 32 banks x 4 B, one phase of 32 lanes (reference 3.2, 3.5 examples 6-8) ---------

// Lane l reads the f32 at (row l, column 0) of a row-major tile with row stride s elements;
// `permute` maps the element (= 32-bit word) offset.
std::vector<Access> columnRead(uint64_t stride, uint64_t (*permute)(uint64_t) = nullptr) {
  std::vector<Access> acc;
  for (int l = 0; l < 32; ++l) {
    uint64_t word = uint64_t(l) * stride;
    if (permute) word = permute(word);
    acc.push_back({l, word * 4, 4});
  }
  return acc;
}

TEST(BankOracleNvidia, ColumnReadRowStride) { // reference 3.5 example 6
  EXPECT_EQ(bankoracle::countPhase(columnRead(32), 32, 4).ways, 32);
  EXPECT_EQ(bankoracle::countPhase(columnRead(64), 32, 4).ways, 32);
  EXPECT_EQ(bankoracle::countPhase(columnRead(16), 32, 4).ways, 16);
  EXPECT_EQ(bankoracle::countPhase(columnRead(33), 32, 4).ways, 1);
  // 32 distinct words over 32 banks: the ideal is one wavefront.
  EXPECT_EQ(bankoracle::countPhase(columnRead(32), 32, 4).idealWays, 1);
  // Same numbers through explicit-address mode with one 32-lane phase.
  EXPECT_EQ(waysOf(bankoracle::countIssue(columnRead(16), {allLanes(32)}, 32, 4)),
            std::vector<int>{16});
}

TEST(BankOracleNvidia, ColumnReadCuteSwizzles) { // reference 3.5 example 7
  auto sw505 = [](uint64_t x) { return cuteSwizzle(5, 0, 5, x); };
  auto sw305 = [](uint64_t x) { return cuteSwizzle(3, 0, 5, x); };
  auto sw205 = [](uint64_t x) { return cuteSwizzle(2, 0, 5, x); };
  EXPECT_EQ(bankoracle::countPhase(columnRead(32, +sw505), 32, 4).ways, 1);
  EXPECT_EQ(bankoracle::countPhase(columnRead(32, +sw305), 32, 4).ways, 4);
  EXPECT_EQ(bankoracle::countPhase(columnRead(32, +sw205), 32, 4).ways, 8);
}

TEST(BankOracleNvidia, Broadcast) { // reference 3.5 example 8
  std::vector<Access> sameWord, sameWordOtherBytes, twoWordsOneBank;
  for (int l = 0; l < 32; ++l) {
    sameWord.push_back({l, 100, 4});
    sameWordOtherBytes.push_back({l, 28 + uint64_t(l % 4), 1});
    twoWordsOneBank.push_back({l, l % 2 ? 0u : 128u, 4}); // words 0 and 32 are both bank 0
  }
  EXPECT_EQ(bankoracle::countPhase(sameWord, 32, 4).ways, 1);
  EXPECT_EQ(bankoracle::countPhase(sameWordOtherBytes, 32, 4).ways, 1);
  EXPECT_EQ(bankoracle::countPhase(twoWordsOneBank, 32, 4).ways, 2);
  EXPECT_EQ(bankoracle::countPhase({}, 32, 4).ways, 1);
  EXPECT_EQ(bankoracle::countPhase({}, 32, 4).idealWays, 1);
}

TEST(BankOracleNvidia, IdealCountsDistinctWords) {
  // 32 lanes x 16 B contiguous = 128 words over 32 banks: 4 wavefronts, and also ideal 4.
  std::vector<Access> acc;
  for (int l = 0; l < 32; ++l) acc.push_back({l, uint64_t(l) * 16, 16});
  PhaseCount pc = bankoracle::countPhase(acc, 32, 4);
  EXPECT_EQ(pc.ways, 4);
  EXPECT_EQ(pc.idealWays, 4);
  // Split into quarter warps (LDS.128), each is conflict-free.
  EXPECT_EQ(waysOf(bankoracle::countIssue(acc, bankoracle::contiguousLaneGroups(32, 8), 32, 4)),
            (std::vector<int>{1, 1, 1, 1}));
}

TEST(BankOracleNvidia, InactiveLanesAreIgnored) {
  std::vector<Access> acc = columnRead(32);
  // Only lanes 0..3 active in the single phase: 4 distinct words in bank 0.
  EXPECT_EQ(waysOf(bankoracle::countIssue(acc, {{0, 1, 2, 3}}, 32, 4)), std::vector<int>{4});
}

// ---- AMD: seed 004 and reference 3.5 examples 1-3 --------------------------------------------

std::vector<std::vector<int>> cdna4B128() { // seed 004 / HipKittens Table 5, as written there
  return bankoracle::lanesFromRanges({{{0, 3}, {12, 15}, {20, 27}},
                                      {{4, 11}, {16, 19}, {28, 31}},
                                      {{32, 35}, {44, 47}, {52, 59}},
                                      {{36, 43}, {48, 51}, {60, 63}}});
}

std::vector<std::vector<int>> cdna3B128() { // reference 3.3 (CK docs)
  return bankoracle::lanesFromRanges({{{0, 3}, {20, 23}},
                                      {{4, 7}, {16, 19}},
                                      {{8, 11}, {28, 31}},
                                      {{12, 15}, {24, 27}},
                                      {{32, 35}, {52, 55}},
                                      {{36, 39}, {48, 51}},
                                      {{40, 43}, {60, 63}},
                                      {{44, 47}, {56, 59}}});
}

TEST(BankOracleAmd, PhaseTablesPartitionTheWave) {
  EXPECT_EQ(bankoracle::cdna4DsReadB128Groups(), cdna4B128());
  EXPECT_EQ(bankoracle::cdna3DsReadB128Groups(), cdna3B128());
  for (const auto& groups : {cdna4B128(), cdna3B128()}) {
    std::multiset<int> lanes;
    for (const auto& g : groups) lanes.insert(g.begin(), g.end());
    EXPECT_EQ(lanes.size(), 64u);
    for (int l = 0; l < 64; ++l) EXPECT_EQ(lanes.count(l), 1u) << l;
  }
  EXPECT_EQ(cdna4B128()[0],
            (std::vector<int>{0, 1, 2, 3, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 27}));
}

// Seed 004: 32x64 f16 row-major tile; lane l reads row l % 16, 8 f16 (16 B) at column
// 8 * (l / 16). With the swizzle, column chunk' = chunk XOR (row % 8) (swizzle unit 8, max
// phase 8).
std::vector<Access> seed004Reads(bool swizzle) {
  std::vector<Access> acc;
  for (int l = 0; l < 64; ++l) {
    uint64_t row = uint64_t(l % 16), chunk = uint64_t(l / 16);
    if (swizzle) chunk ^= row % 8;
    uint64_t col = 8 * chunk;
    acc.push_back({l, (row * 64 + col) * 2, 16});
  }
  return acc;
}

TEST(BankOracleAmd, Seed004Cdna4Unswizzled) {
  std::vector<Access> acc = seed004Reads(false);
  EXPECT_EQ(waysOf(bankoracle::countIssue(acc, cdna4B128(), 64, 4)),
            (std::vector<int>{4, 4, 4, 4}));
  // "Threads 0, 2, 12 and 14 all access the same banks (0/1/2/3)" and no other phase-0 lane does.
  std::set<int> hitBank0;
  const std::vector<std::vector<int>> groups = cdna4B128(); // keep alive across the loop
  for (int l : groups[0]) {
    std::vector<int> banks = bankoracle::banksTouched(acc[size_t(l)], 64, 4);
    EXPECT_EQ(banks.size(), 4u);
    if (banks == std::vector<int>{0, 1, 2, 3}) hitBank0.insert(l);
  }
  EXPECT_EQ(hitBank0, (std::set<int>{0, 2, 12, 14}));
}

TEST(BankOracleAmd, Seed004Cdna4Swizzled) {
  std::vector<Access> acc = seed004Reads(true);
  EXPECT_EQ(waysOf(bankoracle::countIssue(acc, cdna4B128(), 64, 4)),
            (std::vector<int>{1, 1, 1, 1}));
  // Worked "Thread 1" example: row 1, col 8 -> banks 36..39.
  EXPECT_EQ(acc[1].byteAddress, (1u * 64 + 8) * 2);
  EXPECT_EQ(bankoracle::banksTouched(acc[1], 64, 4), (std::vector<int>{36, 37, 38, 39}));
}

TEST(BankOracleAmd, Seed004Cdna3) { // reference 3.5 example 3
  EXPECT_EQ(waysOf(bankoracle::countIssue(seed004Reads(false), cdna3B128(), 32, 4)),
            std::vector<int>(8, 4));
  EXPECT_EQ(waysOf(bankoracle::countIssue(seed004Reads(true), cdna3B128(), 32, 4)),
            std::vector<int>(8, 1));
}

// Reference 3.5 examples 4/5 (HipKittens Fig. 4): 16x32 bf16 tile, ds_read_b128. The reference
// names neither the architecture nor the lane mapping; this assumes CDNA4 (HipKittens targets
// MI355X) and the section's "MFMA-style row reads" convention (lane l -> row l % 16, 16-byte
// chunk l / 16). Swizzle: byte-offset bit 9 XORed into bit 5 = CuTe Swizzle<1,5,4> on bytes.
TEST(BankOracleAmd, HipKittensFig4Bf16) {
  std::vector<Access> plain, swizzled;
  for (int l = 0; l < 64; ++l) {
    uint64_t addr = uint64_t(l % 16) * 64 + uint64_t(l / 16) * 16;
    plain.push_back({l, addr, 16});
    swizzled.push_back({l, cuteSwizzle(1, 5, 4, addr), 16});
  }
  EXPECT_EQ(waysOf(bankoracle::countIssue(plain, cdna4B128(), 64, 4)),
            (std::vector<int>{2, 2, 2, 2}));
  EXPECT_EQ(waysOf(bankoracle::countIssue(swizzled, cdna4B128(), 64, 4)),
            (std::vector<int>{1, 1, 1, 1}));
}

// ---- Tile mode -----------------------------------------------------------------------------

naive::Layout makeLayout(std::vector<std::pair<std::string, naive::Bases>> ins,
                         naive::DimSizes outs) {
  naive::Layout l{std::move(ins), std::move(outs)};
  EXPECT_TRUE(naive::isValid(l));
  return l;
}

// 8x8 tile (dim0 = row, dim1 = col), shared row-major: offset = row * 8 + col.
naive::Layout rowMajor8x8() {
  return makeLayout({{"offset", {{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}}},
                    {{"dim0", 8}, {"dim1", 8}});
}

// Lane l holds row l; register r = r0 + 2 r1 and warp w hold column r0 + 2 w + 4 r1, so a
// 2-element vector is two adjacent columns but the 4 registers are not contiguous.
naive::Layout access8x8() {
  return makeLayout(
      {{"register", {{0, 1}, {0, 4}}}, {"lane", {{1, 0}, {2, 0}, {4, 0}}}, {"warp", {{0, 2}}}},
      {{"dim0", 8}, {"dim1", 8}});
}

TEST(BankOracleTile, SmallF32TileByHand) {
  // 8 banks x 4 B, f32: word = row * 8 + col, bank = col. One issue of one phase covers rows
  // 0..7 at two columns: each of those two banks serves 8 distinct words -> 8-way; 16 words ->
  // ideal 2. 2 warps x 2 issues.
  const auto all8 = std::vector<std::vector<int>>{allLanes(8)};
  bankoracle::TileCount tc = bankoracle::countTile(access8x8(), rowMajor8x8(), 32, 2, all8, 8, 4);
  EXPECT_EQ(tc.perPhaseMaxWays, std::vector<int>{8});
  EXPECT_EQ(tc.wavefronts, 2u * 2 * 8);
  EXPECT_EQ(tc.idealWavefronts, 2u * 2 * 2);

  // Two phases of 4 lanes: 4 words per bank (4-way), 8 words (ideal 1); 2 x 2 x 2 phases.
  bankoracle::TileCount halves = bankoracle::countTile(
      access8x8(), rowMajor8x8(), 32, 2, bankoracle::contiguousLaneGroups(8, 4), 8, 4);
  EXPECT_EQ(halves.perPhaseMaxWays, (std::vector<int>{4, 4}));
  EXPECT_EQ(halves.wavefronts, 8u * 4);
  EXPECT_EQ(halves.idealWavefronts, 8u);

  // One issue of 4 non-contiguous elements: 4 banks x 8 words (8-way), 32 words (ideal 4).
  bankoracle::TileCount wide = bankoracle::countTile(access8x8(), rowMajor8x8(), 32, 4, all8, 8, 4);
  EXPECT_EQ(wide.perPhaseMaxWays, std::vector<int>{8});
  EXPECT_EQ(wide.wavefronts, 2u * 8);
  EXPECT_EQ(wide.idealWavefronts, 2u * 4);
}

TEST(BankOracleTile, PaddingByHand) {
  // One element of padding per row: word = row * 9 + col, bank = (row + col) % 8. Each of the
  // two columns spreads over all 8 banks: 2-way, which is also the ideal (16 words / 8 banks).
  auto pad = [](uint64_t o) { return o + o / 8; };
  bankoracle::TileCount tc =
      bankoracle::countTile(access8x8(), rowMajor8x8(), 32, 2, {allLanes(8)}, 8, 4, pad);
  EXPECT_EQ(tc.perPhaseMaxWays, std::vector<int>{2});
  EXPECT_EQ(tc.wavefronts, 4u * 2);
  EXPECT_EQ(tc.idealWavefronts, 4u * 2);
}

TEST(BankOracleTile, F16SharesWords) {
  // f16: word = (row * 8 + col) / 2 = row * 4 + col / 2; the 2-element vector (even column c) is
  // one word. Bank (4 row + c / 2) % 8: 4 rows per bank -> 4-way; 8 words -> ideal 1.
  bankoracle::TileCount tc =
      bankoracle::countTile(access8x8(), rowMajor8x8(), 16, 2, {allLanes(8)}, 8, 4);
  EXPECT_EQ(tc.perPhaseMaxWays, std::vector<int>{4});
  EXPECT_EQ(tc.wavefronts, 4u * 4);
  EXPECT_EQ(tc.idealWavefronts, 4u);
}

// Seed 004 once more, but through layouts: 32x64 f16 tile (dim0 = row, dim1 = col).
naive::Layout seed004Access() {
  // register (3 bits) -> col 1,2,4; lane bits 0..3 -> row; lane bits 4,5 -> col 8,16.
  return makeLayout({{"register", {{0, 1}, {0, 2}, {0, 4}}},
                     {"lane", {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}, {0, 16}}}},
                    {{"dim0", 32}, {"dim1", 64}});
}

naive::Layout seed004Shared(bool swizzle) {
  // offset = row * 64 + col'; with the swizzle the logical chunk is chunk' ^ (row % 8), so row
  // bits 0..2 of the offset also flip logical column bits 3..5.
  naive::Bases b = {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}};
  for (uint64_t r : {1, 2, 4}) b.push_back({r, swizzle ? 8 * r : 0});
  b.push_back({8, 0});
  b.push_back({16, 0});
  return makeLayout({{"offset", b}, {"block", {}}}, {{"dim0", 32}, {"dim1", 64}});
}

TEST(BankOracleTile, Seed004ThroughLayouts) {
  bankoracle::TileCount plain =
      bankoracle::countTile(seed004Access(), seed004Shared(false), 16, 8, cdna4B128(), 64, 4);
  EXPECT_EQ(plain.perPhaseMaxWays, (std::vector<int>{4, 4, 4, 4}));
  EXPECT_EQ(plain.wavefronts, 16u);
  EXPECT_EQ(plain.idealWavefronts, 4u);
  bankoracle::TileCount swz =
      bankoracle::countTile(seed004Access(), seed004Shared(true), 16, 8, cdna4B128(), 64, 4);
  EXPECT_EQ(swz.perPhaseMaxWays, (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(swz.wavefronts, 4u);
  // vectorElements 4 = two issues of 8 bytes per lane: still 4-way unswizzled (same rows).
  bankoracle::TileCount halves =
      bankoracle::countTile(seed004Access(), seed004Shared(false), 16, 4, cdna4B128(), 64, 4);
  EXPECT_EQ(halves.perPhaseMaxWays, (std::vector<int>{4, 4, 4, 4}));
  EXPECT_EQ(halves.wavefronts, 2u * 16);
}

TEST(BankOracleTile, RejectsMalformedInput) {
  const auto all8 = std::vector<std::vector<int>>{allLanes(8)};
  // Not injective: offset bit 5 repeats bit 4.
  naive::Layout bad = makeLayout({{"offset", {{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}, {2, 0}}}},
                                 {{"dim0", 8}, {"dim1", 8}});
  EXPECT_THROW(bankoracle::countTile(access8x8(), bad, 32, 2, all8, 8, 4), std::invalid_argument);
  // vectorElements must divide the register count.
  EXPECT_THROW(bankoracle::countTile(access8x8(), rowMajor8x8(), 32, 3, all8, 8, 4),
               std::invalid_argument);
  // Lane 8 does not exist.
  EXPECT_THROW(bankoracle::countTile(access8x8(), rowMajor8x8(), 32, 2, {{8}}, 8, 4),
               std::invalid_argument);
}

} // namespace
