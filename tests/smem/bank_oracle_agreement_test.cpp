// The library's bank analysis (closed form over GF(2), or enumeration for padded layouts) against
// the independent brute-force model in tests/support/bank_oracle.h, on thousands of random tiles:
// random XOR-swizzled shared layouts, random access layouts that carry the instruction's vector,
// every built-in plain instruction, every element width, with and without padding.
#include "layout/smem/bank_analysis.h"

#include "support/bank_oracle.h"
#include "support/naive_bridge.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

namespace {

using layout::DimName;
using layout::DimSize;
using layout::InDimBases;
using layout::LinearLayout;
using namespace layout::smem;

struct Dims {
  int rowBits, colBits;
  std::vector<uint64_t> split(uint64_t packed) const {
    return {packed & ((uint64_t{1} << rowBits) - 1), packed >> rowBits};
  }
  std::vector<DimSize> outs() const {
    return {DimSize{DimName("dim0"), uint64_t{1} << rowBits},
            DimSize{DimName("dim1"), uint64_t{1} << colBits}};
  }
};

std::vector<BankInstruction> plainInstructions() {
  std::vector<BankInstruction> out;
  for (const auto& t : builtinBankTargets())
    for (const auto& i : t.instructions)
      if (!i.isMatrix() && std::has_single_bit(unsigned(i.bytesPerLane))) out.push_back(i);
  return out;
}

TEST(BankOracleAgreement, RandomTilesMatchTheBruteForceModel) {
  std::mt19937_64 rng(20261122);
  const std::vector<BankInstruction> instructions = plainInstructions();
  int compared = 0, padded = 0, conflicted = 0, merged = 0;
  for (int iter = 0; iter < 2500; ++iter) {
    const BankInstruction& ins = instructions[rng() % instructions.size()];
    int elemBits = 8 << (rng() % 4);
    if (elemBits / 8 > ins.bytesPerLane) elemBits = ins.bytesPerLane * 8;
    int v = ins.bytesPerLane * 8 / elemBits, k = std::countr_zero(unsigned(v));
    int laneBits = std::countr_zero(unsigned(ins.laneCount));
    Dims d{int(2 + rng() % 5), int(2 + rng() % 6)};
    int n = d.rowBits + d.colBits;
    if (n < k) continue;
    // Shared layout: the identity, then random column operations (an XOR swizzle) and a shuffle.
    std::vector<uint64_t> basis(n);
    for (int i = 0; i < n; ++i) basis[i] = uint64_t{1} << i;
    int ops = int(rng() % (2 * n + 1));
    for (int o = 0; o < ops; ++o) {
      int i = int(rng() % n), j = int(rng() % n);
      if (i != j) basis[i] ^= basis[j];
    }
    if (rng() % 2) std::shuffle(basis.begin(), basis.end(), rng);
    InDimBases off{DimName("offset"), {}};
    for (uint64_t b : basis) off.bases.push_back(d.split(b));
    auto shared = LinearLayout::create({off}, d.outs());
    ASSERT_TRUE(shared.ok()) << shared.error().message;
    // Access layout: the vector (offsets 1 .. v-1 in registers 0 .. k-1), then random registers,
    // lanes and warps (zero now and then: broadcast). Lanes and warps start vectors (offsets
    // above the vector), as a vector instruction needs.
    auto randomCoord = [&]() -> uint64_t {
      return rng() % 8 == 0 ? 0 : rng() & ((uint64_t{1} << n) - 1);
    };
    auto aboveVector = [&]() -> uint64_t {
      uint64_t c = 0;
      for (int i = k; i < n; ++i)
        if (rng() % 2) c ^= basis[i];
      return rng() % 8 == 0 ? 0 : c;
    };
    InDimBases reg{DimName("register"), {}}, lane{DimName("lane"), {}}, warp{DimName("warp"), {}};
    for (int i = 0; i < k; ++i) reg.bases.push_back(d.split(basis[i]));
    for (int i = int(rng() % 3); i > 0; --i) reg.bases.push_back(d.split(randomCoord()));
    for (int i = 0; i < laneBits; ++i) lane.bases.push_back(d.split(aboveVector()));
    for (int i = int(rng() % 3); i > 0; --i) warp.bases.push_back(d.split(aboveVector()));
    auto access = LinearLayout::create({reg, lane, warp}, d.outs());
    ASSERT_TRUE(access.ok()) << access.error().message;
    std::function<uint64_t(uint64_t)> pad;
    if (rng() % 5 == 0) {
      // Padding every `interval` elements (at least one vector) by `extra` elements.
      int intervalLog = k + int(rng() % 4), extraLog = int(rng() % 3);
      pad = [=](uint64_t o) { return o + ((o >> intervalLog) << extraLog); };
      ++padded;
    }
    auto mine = analyzeBanks(SharedAccess{*access, *shared, elemBits, pad}, ins);
    ASSERT_TRUE(mine.ok()) << ins.name << ": " << mine.error().message;
    // NVIDIA serves 64- and 128-bit loads in fewer phases when lanes n and n^1 (or n^2) read
    // the same address (measured on H100): the model's pairMergedPhases.
    auto zero = [](const std::vector<uint64_t>& b) { return b[0] == 0 && b[1] == 0; };
    bool partners = (lane.bases.size() > 0 && zero(lane.bases[0])) ||
                    (lane.bases.size() > 1 && zero(lane.bases[1]));
    const auto& phases =
        partners && !ins.pairMergedPhases.empty() ? ins.pairMergedPhases : ins.phases;
    merged += partners && !ins.pairMergedPhases.empty();
    bankoracle::TileCount theirs =
        bankoracle::countTile(layout_test::toNaive(*access), layout_test::toNaive(*shared),
                              elemBits, v, phases, ins.banks, ins.bankBytes, pad);
    SCOPED_TRACE(ins.name + " elemBits " + std::to_string(elemBits) + " iter " +
                 std::to_string(iter) + "\naccess:\n" + access->toString() + "\nshared:\n" +
                 shared->toString());
    EXPECT_EQ(mine->perPhaseMaxWays, theirs.perPhaseMaxWays);
    EXPECT_EQ(mine->wavefronts, theirs.wavefronts);
    EXPECT_EQ(mine->idealWavefronts, theirs.idealWavefronts);
    EXPECT_EQ(mine->method, pad ? "enumerated" : "linear");
    // The enumerated detail of the first access agrees with its own phase counts.
    for (const PhaseReport& p : mine->phases) EXPECT_LE(p.ways, mine->perPhaseMaxWays[p.phase]);
    conflicted += mine->wavefronts > mine->idealWavefronts;
    ++compared;
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GE(compared, 2000);
  EXPECT_GE(padded, 300);
  EXPECT_GE(conflicted, 500); // the cases are not all trivially conflict-free
  EXPECT_GE(merged, 20);      // and some take NVIDIA's merged phases
}

// A lane that starts inside another lane's vector would need a per-lane register order.
TEST(BankOracleAgreement, LanesInsideAVectorAreRejected) {
  InDimBases off{DimName("offset"), {{0, 1}, {0, 2}, {0, 4}, {1, 0}}};
  auto shared = LinearLayout::create({off}, Dims{1, 3}.outs());
  InDimBases reg{DimName("register"), {{0, 1}, {0, 2}}};
  InDimBases lane{DimName("lane"), {{0, 4}, {1, 0}, {1, 1}, {0, 0}, {0, 0}}};
  auto access = LinearLayout::create({reg, lane}, Dims{1, 3}.outs());
  ASSERT_TRUE(shared.ok() && access.ok());
  auto r = analyzeBanks(SharedAccess{*access, *shared, 32, {}}, *bankInstruction("nvidia.ld.b128"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("lane bit 2 lands at element offset 9, inside a run"),
            std::string::npos)
      << r.error().message;
}

TEST(BankOracleAgreement, RandomByteAddressesMatchTheBruteForceModel) {
  std::mt19937_64 rng(7);
  std::vector<BankInstruction> instructions;
  for (const auto& t : builtinBankTargets())
    for (const auto& i : t.instructions) instructions.push_back(i);
  for (int iter = 0; iter < 2000; ++iter) {
    const BankInstruction& ins = instructions[rng() % instructions.size()];
    int lanes = ins.isMatrix() ? 8 * ins.matrices : ins.laneCount;
    int bytes = ins.bytesPerLane;
    std::vector<LaneAddress> mine;
    std::vector<bankoracle::Access> theirs;
    uint64_t span = uint64_t{64} << (rng() % 8);
    for (int l = 0; l < lanes; ++l) {
      if (rng() % 10 == 0) continue; // inactive lane
      uint64_t a = rng() % span;
      if (rng() % 2) a &= ~uint64_t(3); // word-aligned half of the time
      mine.push_back({l, a});
      theirs.push_back({l, a, bytes});
    }
    auto r = analyzeByteAddresses(mine, bytes, ins);
    ASSERT_TRUE(r.ok()) << r.error().message;
    auto counts = bankoracle::countIssue(theirs, ins.phases, ins.banks, ins.bankBytes);
    ASSERT_EQ(r->phases.size(), counts.size());
    uint64_t wave = 0, ideal = 0;
    for (size_t p = 0; p < counts.size(); ++p) {
      EXPECT_EQ(r->phases[p].ways, counts[p].ways) << ins.name << " phase " << p;
      EXPECT_EQ(r->phases[p].idealWays, counts[p].idealWays) << ins.name << " phase " << p;
      wave += counts[p].ways;
      ideal += counts[p].idealWays;
    }
    EXPECT_EQ(r->wavefronts, wave);
    EXPECT_EQ(r->idealWavefronts, ideal);
    if (::testing::Test::HasFailure()) break;
  }
}

} // namespace
