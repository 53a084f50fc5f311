// Swizzle synthesis: the seed 004 kernel's producer / consumer pair, and, on small tiles, the
// synthesized layout against an exhaustive search over every segment subspace (so "meets the lower
// bound" and "optimal" are checked, not assumed).
#include "layout/smem/swizzle_synthesis.h"

#include "support/seed004_layouts.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <set>
#include <vector>

namespace {

using layout::DimName;
using layout::DimSize;
using layout::InDimBases;
using layout::LinearLayout;
using namespace layout::smem;

const DimName kReg("register"), kLane("lane"), kWarp("warp"), kD0("dim0"), kD1("dim1");

TEST(SwizzleSynthesis, Seed004GatherThenMfmaReads) {
  SwizzleRequest req{layout_test::seed004Gather(), layout_test::seed004Reads(), 16,
                     *bankInstruction("cdna4.ds_write_b32"),
                     *bankInstruction("cdna4.ds_read_b128")};
  auto res = synthesizeSwizzle(req);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_TRUE(res->lowerBound.met) << swizzleResultText(*res);
  EXPECT_EQ(res->load.maxWays(), 1);
  EXPECT_EQ(res->store.maxWays(), 1);
  EXPECT_EQ(res->load.vectorElements, 8);
  // The synthesized layout keeps each lane's 8 elements contiguous.
  for (uint64_t o = 1; o < 8; ++o) {
    uint64_t in[1] = {o}, out[2];
    res->shared.apply(in, out);
    EXPECT_EQ(out[0], 0u);
    EXPECT_EQ(out[1], o);
  }
  // Both families are reported (their best members), and the member seed 004's rule picks (unit
  // 8, max phase 8), conflict-free here too.
  ASSERT_EQ(res->families.size(), 3u);
  EXPECT_EQ(res->families[1].family, "xor.unit-phase");
  const FamilyCandidate& seed = res->families[2];
  EXPECT_EQ(seed.family, "xor.unit-phase.rule");
  EXPECT_EQ(seed.parameters, "swizzleUnit=8, maxPhase=8");
  EXPECT_EQ(seed.load.maxWays(), 1);
  EXPECT_EQ(res->families[0].load.wavefronts + res->families[0].store.wavefronts,
            res->load.wavefronts + res->store.wavefronts);
}

TEST(SwizzleSynthesis, ErrorsNameTheRule) {
  SwizzleRequest req{layout_test::seed004Gather(), layout_test::seed004Reads(), 16,
                     *bankInstruction("cdna4.ds_write_b128"),
                     *bankInstruction("cdna4.ds_read_b128")};
  auto res = synthesizeSwizzle(req);
  ASSERT_FALSE(res.ok());
  EXPECT_NE(res.error().message.find("storeInstruction: cdna4.ds_write_b128"), std::string::npos)
      << res.error().message;
  req.storeInstruction = *bankInstruction("nvidia.st.b32");
  res = synthesizeSwizzle(req);
  ASSERT_FALSE(res.ok());
  EXPECT_NE(res.error().message.find("lanes"), std::string::npos) << res.error().message;
}

// ---- Exhaustive comparison on 8x8 f32 tiles with small bank models ------------------------------

BankInstruction model(const char* name, int banks, int bytesPerLane,
                      std::vector<std::vector<int>> phases, AccessDirection dir) {
  BankInstruction i;
  i.name = name;
  i.direction = dir;
  i.laneCount = 4;
  i.banks = banks;
  i.bankBytes = 4;
  i.bytesPerLane = bytesPerLane;
  i.phases = std::move(phases);
  i.basis = "test model";
  return i;
}

// Every subspace of F2^6 as the 64-bit set of its members.
std::vector<uint64_t> allSubspaces() {
  std::set<uint64_t> seen{1};
  std::vector<uint64_t> todo{1}, out;
  while (!todo.empty()) {
    uint64_t s = todo.back();
    todo.pop_back();
    out.push_back(s);
    for (int v = 1; v < 64; ++v) {
      if (s >> v & 1) continue;
      uint64_t t = s;
      for (int m = 0; m < 64; ++m)
        if (s >> m & 1) t |= uint64_t{1} << (m ^ v);
      if (seen.insert(t).second) todo.push_back(t);
    }
  }
  return out;
}

std::vector<uint64_t> basisOf(uint64_t members) {
  std::vector<uint64_t> b;
  uint64_t spanned = 1;
  for (int v = 1; v < 64; ++v)
    if ((members >> v & 1) && !(spanned >> v & 1)) {
      b.push_back(uint64_t(v));
      uint64_t t = spanned;
      for (int m = 0; m < 64; ++m)
        if (spanned >> m & 1) t |= uint64_t{1} << (m ^ v);
      spanned = t;
    }
  return b;
}

uint64_t spanOf(const std::vector<uint64_t>& vs) {
  uint64_t s = 1;
  for (uint64_t v : vs) {
    uint64_t t = s;
    for (int m = 0; m < 64; ++m)
      if (s >> m & 1) t |= uint64_t{1} << (m ^ v);
    s = t;
  }
  return s;
}

LinearLayout sharedFrom(const std::vector<uint64_t>& basis) {
  InDimBases off{DimName("offset"), {}};
  for (uint64_t b : basis) off.bases.push_back({b & 7, b >> 3});
  auto l = LinearLayout::create({off}, {DimSize{kD0, 8}, DimSize{kD1, 8}});
  EXPECT_TRUE(l.ok());
  return *l;
}

TEST(SwizzleSynthesis, MatchesExhaustiveSearchOnSmallTiles) {
  const std::vector<uint64_t> subspaces = allSubspaces();
  ASSERT_EQ(subspaces.size(), 2825u); // the number of subspaces of F2^6
  std::mt19937_64 rng(99);
  using P = std::vector<std::vector<int>>;
  const BankInstruction stores[] = {
      model("t.st.b32.pairs", 4, 4, P{{0, 1}, {2, 3}}, AccessDirection::Write),
      model("t.st.b64.cosets", 4, 8, P{{0, 3}, {1, 2}}, AccessDirection::Write),
      model("t.st.b32.short", 2, 4, P{{0, 1, 2, 3}}, AccessDirection::Write)};
  const BankInstruction loads[] = {
      model("t.ld.b32.all", 4, 4, P{{0, 1, 2, 3}}, AccessDirection::Read),
      model("t.ld.b64.pairs", 4, 8, P{{0, 1}, {2, 3}}, AccessDirection::Read),
      model("t.ld.b32.short", 2, 4, P{{0, 2}, {1, 3}}, AccessDirection::Read)};
  int checked = 0, metCount = 0;
  for (int iter = 0; iter < 120; ++iter) {
    auto coord = [&] { return uint64_t(rng() % 64); };
    auto side = [&](bool vector2) {
      std::vector<uint64_t> regs{vector2 ? 1u : coord(), coord()};
      InDimBases reg{kReg, {}}, lane{kLane, {}}, warp{kWarp, {}};
      for (uint64_t r : regs) reg.bases.push_back({r & 7, r >> 3});
      for (int i = 0; i < 2; ++i) {
        uint64_t c = coord();
        lane.bases.push_back({c & 7, c >> 3});
      }
      uint64_t w = coord();
      warp.bases.push_back({w & 7, w >> 3});
      return layout_test::make2D({reg, lane, warp}, 8, 8);
    };
    const BankInstruction& st = stores[rng() % 3];
    const BankInstruction& ld = loads[rng() % 3];
    SwizzleRequest req{side(true), side(true), 32, st, ld};
    auto res = synthesizeSwizzle(req);
    if (!res.ok()) continue; // e.g. registers that cannot feed the vector
    // The synthesized vector (offsets below the wider access), fixed for the search.
    int kWide = std::max(st.bytesPerLane, ld.bytesPerLane) == 8 ? 1 : 0;
    std::vector<uint64_t> vec;
    for (int i = 0; i < kWide; ++i) {
      uint64_t in[1] = {uint64_t{1} << i}, out[2];
      res->shared.apply(in, out);
      vec.push_back(out[0] | out[1] << 3);
    }
    uint64_t vecSpan = spanOf(vec);
    int lineSt = std::countr_zero(unsigned(st.banks)),
        lineLd = std::countr_zero(unsigned(ld.banks));
    int lineLo = std::min(lineSt, lineLd), lineHi = std::max(lineSt, lineLd);
    int dimHigh = 6 - std::max(lineHi, kWide), dimAll = 6 - std::max(lineLo, kWide);
    // Every layout with this vector: Rest (the offsets above the vector, a complement of it) ⊇
    // all segments ⊇ the segments above both bank lines. Within each group the order of the
    // offsets changes neither the cost nor what is legal.
    int dimRest = 6 - kWide;
    uint64_t best = ~uint64_t{0};
    for (uint64_t rest : subspaces) {
      if (std::popcount(rest) != (1 << dimRest) || (rest & vecSpan) != 1) continue;
      for (uint64_t all : subspaces) {
        if (std::popcount(all) != (1 << dimAll) || (all & ~rest) != 0) continue;
        for (uint64_t high : subspaces) {
          if (std::popcount(high) != (1 << dimHigh) || (high & ~all) != 0) continue;
          // offsets: vector, bank bits (rest beyond the segments), segments of the short line,
          // then of both lines.
          std::vector<uint64_t> hb = basisOf(high), basis = vec, mid, bank;
          auto extend = [&](uint64_t span, std::vector<uint64_t> from,
                            std::vector<uint64_t>& into) {
            uint64_t cur = span;
            for (uint64_t v : basisOf(from.empty() ? 0 : spanOf(from)))
              if (!(cur >> v & 1)) {
                into.push_back(v);
                cur = spanOf([&] {
                  auto t = basisOf(cur);
                  t.push_back(v);
                  return t;
                }());
              }
          };
          extend(high, basisOf(all), mid);
          extend(all, basisOf(rest), bank);
          basis.insert(basis.end(), bank.begin(), bank.end());
          basis.insert(basis.end(), mid.begin(), mid.end());
          basis.insert(basis.end(), hb.begin(), hb.end());
          ASSERT_EQ(basis.size(), 6u);
          LinearLayout shared = sharedFrom(basis);
          auto a = analyzeBanks(SharedAccess{req.store, shared, 32, {}}, st, false);
          auto b = analyzeBanks(SharedAccess{req.load, shared, 32, {}}, ld, false);
          if (!a.ok() || !b.ok()) continue; // a lane would start inside a vector: not legal
          best = std::min<uint64_t>(best, a->wavefronts + b->wavefronts);
        }
      }
    }
    ASSERT_NE(best, ~uint64_t{0});
    EXPECT_EQ(res->store.wavefronts + res->load.wavefronts, best)
        << st.name << " / " << ld.name << "\n"
        << swizzleResultText(*res);
    // The bound is a true lower bound, and whenever the search reaches it, so does the synthesis.
    uint64_t bound = res->lowerBound.store.wavefronts + res->lowerBound.load.wavefronts;
    EXPECT_LE(bound, best);
    if (best == bound) {
      EXPECT_TRUE(res->lowerBound.met);
      ++metCount;
    }
    ++checked;
  }
  EXPECT_GE(checked, 30);
  EXPECT_GE(metCount, checked / 2);
}

} // namespace
