// Layout-conversion planner (layout/conversion/conversion_plan.h):
//
// 1. Every kind from real TritonGPU encodings: the same blocked layout (none), a blocked layout
//    and a #ttg.linear with its registers reordered (register permutation), two blocked layouts
//    with different threadsPerWarp and the same warp split (shuffles, with vectors), warps split
//    along different dims (shared memory), nvidia_mma <-> blocked, a CTA split (per-CTA shared
//    memory; moving data between CTAs is refused), src broadcast across lanes (local rounds).
// 2. Execution: each plan runs on an element model (every lane's registers hold the tensor
//    coordinates src assigns them): the permutation, the shuffle rounds (each lane puts one
//    vector on the wire, each lane reads one lane's wire into one dst vector, then the broadcast
//    copies), or every warp's store into the synthesized shared layout and the loads back. The
//    result must be what dst assigns, in every warp and block. 1000 random layout pairs over
//    register/lane/warp, bijective and broadcasting, with the rounds against the lower bound.
// 3. Errors (precise messages), text and JSON, and the batch op convert.plan.
#include "layout/conversion/conversion_plan.h"
#include "layout/protocol/batch.h"
#include "layout/text/layout_json.h"
#include "layout/triton/encoding.h"

#include "support/encoding_layout.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using layout::DimName;
using layout::InDimBases;
using layout::LinearLayout;
namespace conv = layout::conversion;

using layout_test::encodingLayout;

// The tensor coordinates (packed) at a hardware location, by named dims.
uint64_t at(const LinearLayout& l, uint64_t reg, uint64_t lane, uint64_t warp, uint64_t block = 0) {
  std::vector<uint64_t> ins(l.numInDims(), 0), outs(l.numOutDims());
  for (int i = 0; i < l.numInDims(); ++i) {
    std::string_view n = l.inDimName(i).str();
    ins[i] = n == "register" ? reg : n == "lane" ? lane : n == "warp" ? warp : block;
  }
  l.apply(ins, outs);
  uint64_t packed = 0;
  int shift = 0;
  for (int i = 0; i < l.numOutDims(); ++i) {
    packed |= outs[i] << shift;
    shift += l.outDimSizeLog2(i);
  }
  return packed;
}

constexpr uint64_t kUnset = ~uint64_t{0};

// Runs the plan on the element model; returns "" when every dst location ends up holding what dst
// assigns it, else a description of the first mismatch.
std::string execute(const conv::ConversionPlan& p, const LinearLayout& src,
                    const LinearLayout& dst) {
  const uint64_t lanes = src.inDimSize(DimName("lane")), warps = src.inDimSize(DimName("warp"));
  const uint64_t sregs = src.inDimSize(DimName("register")),
                 dregs = dst.inDimSize(DimName("register"));
  if (uint64_t(p.numLanes) != lanes || uint64_t(p.srcRegisters) != sregs ||
      uint64_t(p.dstRegisters) != dregs)
    return "plan geometry differs from the layouts";
  const uint64_t blocks = src.inDimSize(DimName("block"));
  // One CTA's shared memory holds its tile: coordinates without the bits src's blocks select.
  uint64_t blockBits = 0;
  for (uint64_t b = 1; b < blocks; b <<= 1) blockBits |= at(src, 0, 0, 0, b);
  auto tileCoord = [&](uint64_t packed) {
    uint64_t out = 0;
    for (int bit = 0, o = 0; bit < 64; ++bit)
      if (!((blockBits >> bit) & 1)) out |= ((packed >> bit) & 1) << o++;
    return out;
  };
  for (uint64_t cta = 0; cta < blocks; ++cta)
    for (uint64_t w = 0; w < warps; ++w) {
      auto at = [&](const LinearLayout& l, uint64_t reg, uint64_t lane, uint64_t warp) {
        return ::at(l, reg, lane, warp, cta);
      };
      std::vector<std::vector<uint64_t>> have(lanes, std::vector<uint64_t>(sregs));
      for (uint64_t l = 0; l < lanes; ++l)
        for (uint64_t r = 0; r < sregs; ++r) have[l][r] = at(src, r, l, w);
      std::vector<std::vector<uint64_t>> out(lanes, std::vector<uint64_t>(dregs, kUnset));
      switch (p.kind) {
      case conv::ConversionKind::None:
        if (!(src == dst)) return "kind none for different layouts";
        out = have;
        break;
      case conv::ConversionKind::RegisterPermutation:
        if (p.registerPermutation.size() != dregs) return "permutation size";
        for (uint64_t l = 0; l < lanes; ++l)
          for (uint64_t r = 0; r < dregs; ++r) {
            int s = p.registerPermutation[r];
            if (s < 0 || uint64_t(s) >= sregs) return "permutation out of range";
            out[l][r] = have[l][s];
          }
        break;
      case conv::ConversionKind::WarpShuffle: {
        const int v = p.vectorElements;
        for (const auto& round : p.rounds) {
          if (round.sendRegister.size() != lanes || round.readLane.size() != lanes ||
              round.dstRegister.size() != lanes)
            return "round sizes";
          // Every lane puts one vector on the wire, then every lane reads one lane's wire.
          std::vector<std::vector<uint64_t>> wire(lanes, std::vector<uint64_t>(v));
          for (uint64_t l = 0; l < lanes; ++l) {
            int s = round.sendRegister[l];
            if (s < 0 || s % v || uint64_t(s + v) > sregs) return "send register out of range";
            for (int e = 0; e < v; ++e) wire[l][e] = have[l][s + e];
          }
          for (uint64_t l = 0; l < lanes; ++l) {
            int from = round.readLane[l], d = round.dstRegister[l];
            if (d < 0) continue;
            if (from < 0 || uint64_t(from) >= lanes || d % v || uint64_t(d + v) > dregs)
              return "read lane / dst register out of range";
            if (round.local && from != int(l)) return "local round reads another lane";
            for (int e = 0; e < v; ++e) out[l][d + e] = wire[from][e];
          }
        }
        for (uint64_t l = 0; l < lanes; ++l)
          for (uint64_t r = 0; r < dregs; ++r)
            if (p.registerCopies[r] >= 0) out[l][r] = out[l][p.registerCopies[r]];
        break;
      }
      case conv::ConversionKind::SharedMemory: {
        if (!p.shared) return "no shared layout";
        const LinearLayout& sh = p.shared->shared;
        // Shared layout: offset -> coordinates, a bijection; address of an element = its preimage.
        std::map<uint64_t, uint64_t> offsetOf;
        const uint64_t offsets = sh.inDimSize(DimName("offset"));
        for (uint64_t o = 0; o < offsets; ++o) {
          std::vector<uint64_t> ins(sh.numInDims(), 0), outs(sh.numOutDims());
          ins[sh.inDimIndex(DimName("offset"))] = o;
          sh.apply(ins, outs);
          uint64_t packed = 0;
          int shift = 0;
          for (int i = 0; i < sh.numOutDims(); ++i) {
            packed |= outs[i] << shift;
            shift += sh.outDimSizeLog2(i);
          }
          if (!offsetOf.emplace(packed, o).second) return "shared layout is not injective";
        }
        // Every warp stores (the value a register holds is its coordinates), then warp w loads.
        std::vector<uint64_t> buffer(offsets, kUnset);
        for (uint64_t sw = 0; sw < warps; ++sw)
          for (uint64_t l = 0; l < lanes; ++l)
            for (uint64_t r = 0; r < sregs; ++r) {
              auto it = offsetOf.find(tileCoord(at(src, r, l, sw)));
              if (it == offsetOf.end()) return "stored element has no offset";
              buffer[it->second] = at(src, r, l, sw);
            }
        for (uint64_t l = 0; l < lanes; ++l)
          for (uint64_t r = 0; r < dregs; ++r) {
            auto it = offsetOf.find(tileCoord(at(dst, r, l, w)));
            if (it == offsetOf.end()) return "loaded element has no offset";
            out[l][r] = buffer[it->second];
          }
        break;
      }
      }
      for (uint64_t l = 0; l < lanes; ++l)
        for (uint64_t r = 0; r < dregs; ++r)
          if (out[l][r] != at(dst, r, l, w))
            return "block " + std::to_string(cta) + " warp " + std::to_string(w) + " lane " +
                   std::to_string(l) + " register " + std::to_string(r) + ": got " +
                   (out[l][r] == kUnset ? std::string("nothing") : std::to_string(out[l][r])) +
                   ", dst holds " + std::to_string(at(dst, r, l, w));
    }
  return "";
}

conv::ConversionPlan planOk(const LinearLayout& src, const LinearLayout& dst, int elemBits = 16) {
  auto p = conv::planConversion(src, dst, elemBits, "nvidia");
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message) << "\nsrc:" << src.toString()
                      << "\ndst:" << dst.toString();
  return p.ok() ? *p : conv::ConversionPlan{};
}

const std::string kBlocked84 = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                               "warpsPerCTA = [4, 1], order = [1, 0]}>";

// A #ttg.linear text with the given bases.
std::string linearText(const LinearLayout& l) {
  auto list = [&](const char* name) {
    std::string s = std::string(name) + " = [";
    int d = l.inDimIndex(DimName(name));
    for (int i = 0; d >= 0 && i < l.inDimSizeLog2(d); ++i) {
      auto b = l.basis(d, i);
      s += (i ? ", [" : "[");
      for (size_t k = 0; k < b.size(); ++k) s += (k ? ", " : "") + std::to_string(b[k]);
      s += "]";
    }
    return s + "]";
  };
  return "#ttg.linear<{" + list("register") + ", " + list("lane") + ", " + list("warp") + ", " +
         list("block") + "}>";
}

TEST(ConversionPlanKinds, SameBlockedIsNone) {
  LinearLayout a = encodingLayout(kBlocked84, {64, 32});
  auto p = planOk(a, a);
  EXPECT_EQ(p.kind, conv::ConversionKind::None);
  EXPECT_EQ(conv::conversionKindName(p.kind), "none");
  EXPECT_EQ(execute(p, a, a), "");
}

TEST(ConversionPlanKinds, RegisterReorderedLinearIsRegisterPermutation) {
  LinearLayout a = encodingLayout(kBlocked84, {64, 32});
  // Same lanes and warps, registers in another order: reverse the register bases.
  std::vector<InDimBases> ins = a.inDims();
  std::reverse(ins[0].bases.begin(), ins[0].bases.end());
  auto reordered = LinearLayout::create(ins, a.outDims());
  ASSERT_TRUE(reordered.ok());
  LinearLayout b = encodingLayout(linearText(*reordered), {64, 32});
  EXPECT_EQ(b, *reordered);
  auto p = planOk(a, b);
  EXPECT_EQ(p.kind, conv::ConversionKind::RegisterPermutation);
  ASSERT_EQ(p.registerPermutation.size(), 16u);
  // Register bits reversed: dst register 1 is src register 8, dst register 2 is src register 4.
  EXPECT_EQ(p.registerPermutation[1], 8);
  EXPECT_EQ(p.registerPermutation[2], 4);
  EXPECT_EQ(p.registerPermutation[8], 1);
  EXPECT_EQ(execute(p, a, b), "");
}

TEST(ConversionPlanKinds, OtherThreadsPerWarpSameWarpsIsShuffle) {
  // Both warps' tiles are 8 x 16; the lanes inside them differ.
  LinearLayout a = encodingLayout(kBlocked84, {32, 32});
  LinearLayout b = encodingLayout("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, "
                                  "8], warpsPerCTA = [4, 1], order = [1, 0]}>",
                                  {32, 32});
  auto p = planOk(a, b);
  ASSERT_EQ(p.kind, conv::ConversionKind::WarpShuffle);
  // Register 0 is column + 1 on both sides: pairs travel as one 32-bit value.
  EXPECT_EQ(p.vectorElements, 2);
  EXPECT_EQ(int(p.rounds.size()), p.roundsLowerBound);
  EXPECT_EQ(p.roundsLowerBound, 4);
  EXPECT_EQ(execute(p, a, b), "");
  // And back.
  auto q = planOk(b, a);
  ASSERT_EQ(q.kind, conv::ConversionKind::WarpShuffle);
  EXPECT_EQ(execute(q, b, a), "");
}

TEST(ConversionPlanKinds, VectorsTravelTogether) {
  // sizePerThread [1, 2] on both sides: pairs of columns move as one 32-bit value for f16.
  LinearLayout a = encodingLayout("#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, "
                                  "4], warpsPerCTA = [2, 1], order = [1, 0]}>",
                                  {32, 32});
  LinearLayout b = encodingLayout("#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, "
                                  "4], warpsPerCTA = [2, 1], order = [0, 1]}>",
                                  {32, 32});
  for (int bits : {8, 16, 32, 64}) {
    auto p = planOk(a, b, bits);
    ASSERT_EQ(p.kind, conv::ConversionKind::WarpShuffle);
    EXPECT_EQ(p.vectorElements, bits <= 16 ? 2 : 1) << bits;
    EXPECT_EQ(int(p.rounds.size()), p.dstRegisters / p.vectorElements) << bits;
    EXPECT_EQ(execute(p, a, b), "") << bits;
  }
}

TEST(ConversionPlanKinds, WarpsAlongOtherDimIsSharedMemory) {
  LinearLayout a = encodingLayout(kBlocked84, {64, 64});
  LinearLayout b = encodingLayout("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, "
                                  "4], warpsPerCTA = [1, 4], order = [0, 1]}>",
                                  {64, 64});
  auto p = planOk(a, b);
  ASSERT_EQ(p.kind, conv::ConversionKind::SharedMemory);
  ASSERT_TRUE(p.shared.has_value());
  EXPECT_EQ(execute(p, a, b), "");
  auto j = conv::conversionPlanToJson(p);
  EXPECT_EQ(j["kind"], "sharedMemory");
  EXPECT_TRUE(j.contains("shared"));
}

TEST(ConversionPlanKinds, CtaSplitConvertsPerCta) {
  // Two CTAs split dim0; each converts its own 64 x 64 tile through its own shared memory.
  const std::string cga = ", CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>";
  LinearLayout a = encodingLayout("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                                  "warpsPerCTA = [4, 1], order = [1, 0]" +
                                      cga,
                                  {128, 64});
  LinearLayout b = encodingLayout("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                                  "warpsPerCTA = [1, 4], order = [0, 1]" +
                                      cga,
                                  {128, 64});
  auto p = planOk(a, b);
  ASSERT_EQ(p.kind, conv::ConversionKind::SharedMemory);
  EXPECT_EQ(p.numBlocks, 2);
  ASSERT_TRUE(p.shared.has_value());
  EXPECT_EQ(p.shared->shared.outDimSize(0), 64u);
  EXPECT_EQ(execute(p, a, b), "");
  // Between CTAs: refused.
  LinearLayout c = encodingLayout("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                                  "warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [1, 2], "
                                  "CTASplitNum = [1, 2], CTAOrder = [1, 0]}>",
                                  {128, 64});
  auto e = conv::planConversion(a, c, 16, "nvidia");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("distributed shared memory is not modelled"), std::string::npos)
      << e.error().message;
}

TEST(ConversionPlanKinds, MmaToBlockedRoundTrips) {
  LinearLayout mma = encodingLayout("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                                    "warpsPerCTA = [2, 2], instrShape = [16, 8]}>",
                                    {64, 64});
  LinearLayout blocked = encodingLayout("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = "
                                        "[4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
                                        {64, 64});
  for (auto [s, d] : {std::pair{mma, blocked}, std::pair{blocked, mma}}) {
    auto p = planOk(s, d);
    EXPECT_EQ(execute(p, s, d), "") << conv::conversionKindName(p.kind);
  }
}

TEST(ConversionPlanKinds, SrcBroadcastAcrossLanesNeedsNoShuffle) {
  // Every lane of src holds the whole 4 x 4 tile; dst spreads it over 4 lanes. comp reads lane 0
  // (the smallest preimage), but the planner takes each lane's own copy: every round is local.
  auto src = LinearLayout::create({{DimName("register"), {{0, 1}, {0, 2}, {1, 0}, {2, 0}}},
                                   {DimName("lane"), {{0, 0}, {0, 0}}}},
                                  {{DimName("dim0"), 4}, {DimName("dim1"), 4}});
  auto dst = LinearLayout::create(
      {{DimName("register"), {{0, 1}, {0, 2}}}, {DimName("lane"), {{1, 0}, {2, 0}}}},
      {{DimName("dim0"), 4}, {DimName("dim1"), 4}});
  ASSERT_TRUE(src.ok() && dst.ok());
  auto p = planOk(*src, *dst, 32);
  ASSERT_EQ(p.kind, conv::ConversionKind::WarpShuffle);
  EXPECT_EQ(p.shuffleRounds, 0);
  EXPECT_EQ(int(p.rounds.size()), p.roundsLowerBound);
  EXPECT_EQ(execute(p, *src, *dst), "");
  // The other way: every lane gathers the whole tile, one 32-bit element per round; the 4 rounds
  // that read the lane's own registers are local.
  auto q = planOk(*dst, *src, 32);
  ASSERT_EQ(q.kind, conv::ConversionKind::WarpShuffle);
  EXPECT_EQ(q.roundsLowerBound, 16);
  EXPECT_EQ(int(q.rounds.size()), 16);
  EXPECT_EQ(q.shuffleRounds, 12);
  EXPECT_EQ(execute(q, *dst, *src), "");
}

// ---- Random layouts --------------------------------------------------------------------------

struct RandomLayouts {
  std::mt19937_64 rng;
  explicit RandomLayouts(uint64_t seed) : rng(seed) {}

  uint64_t bits(int n) { return n == 0 ? 0 : rng() & ((uint64_t{1} << n) - 1); }

  // n random vectors spanning F2^n (columns of an invertible matrix).
  std::vector<uint64_t> invertible(int n) {
    for (;;) {
      std::vector<uint64_t> cols(n), rows;
      for (auto& c : cols) c = bits(n);
      // Rank check by elimination.
      std::vector<uint64_t> basis;
      for (uint64_t c : cols) {
        for (uint64_t b : basis)
          if ((c ^ b) < c) c ^= b;
        if (c) {
          basis.push_back(c);
          std::sort(basis.rbegin(), basis.rend());
        }
      }
      if (int(basis.size()) == n) return cols;
    }
  }

  // A random invertible m x m matrix (columns) that is the identity on the first `fixed`
  // coordinates.
  std::vector<uint64_t> mixing(int m, int fixed) {
    std::vector<uint64_t> q = invertible(m - fixed), cols(m);
    for (int i = 0; i < fixed; ++i) cols[i] = uint64_t{1} << i;
    for (int j = fixed; j < m; ++j) cols[j] = bits(fixed) | (q[j - fixed] << fixed);
    return cols;
  }

  // `count` vectors spanning span(gens) (in random positions); the rest random combinations, some
  // zero: a broadcasting map when count > gens.size().
  std::vector<uint64_t> spanning(const std::vector<uint64_t>& gens, int count) {
    std::vector<uint64_t> out(count, 0);
    std::vector<int> pos(count);
    for (int i = 0; i < count; ++i) pos[i] = i;
    std::shuffle(pos.begin(), pos.end(), rng);
    for (size_t i = 0; i < gens.size(); ++i) out[pos[i]] = gens[i];
    for (size_t i = gens.size(); i < size_t(count); ++i) {
      uint64_t v = 0;
      if (rng() % 3)
        for (uint64_t g : gens)
          if (rng() & 1) v ^= g;
      out[pos[i]] = v;
    }
    return out;
  }
};

// A layout register, lane, warp -> (dim0, dim1) with the given columns (packed tensor bits).
LinearLayout fromColumns(const std::vector<uint64_t>& reg, const std::vector<uint64_t>& lane,
                         const std::vector<uint64_t>& warp, int n, int rowBits) {
  auto basesOf = [&](const std::vector<uint64_t>& cols) {
    std::vector<std::vector<uint64_t>> b;
    for (uint64_t c : cols) b.push_back({c & ((uint64_t{1} << rowBits) - 1), c >> rowBits});
    return b;
  };
  auto l = LinearLayout::create(
      {{DimName("register"), basesOf(reg)},
       {DimName("lane"), basesOf(lane)},
       {DimName("warp"), basesOf(warp)}},
      {{DimName("dim0"), uint64_t{1} << rowBits}, {DimName("dim1"), uint64_t{1} << (n - rowBits)}});
  EXPECT_TRUE(l.ok());
  return *l;
}

struct Tally {
  std::map<conv::ConversionKind, int> kinds;
  int atLowerBound = 0, shuffles = 0, greedy = 0, narrowed = 0;
  void print(const char* what) {
    std::printf("%s: %d none, %d register permutations, %d shuffle plans (%d at the lower bound, "
                "%d greedy), %d shared memory (%d with narrower vectors than each side's own)\n",
                what, kinds[conv::ConversionKind::None],
                kinds[conv::ConversionKind::RegisterPermutation], shuffles, atLowerBound, greedy,
                kinds[conv::ConversionKind::SharedMemory], narrowed);
  }
};

void runRandom(const LinearLayout& src, const LinearLayout& dst, int bits, Tally& t) {
  auto p = conv::planConversion(src, dst, bits, "nvidia");
  ASSERT_TRUE(p.ok()) << p.error().message << "\nsrc:" << src.toString()
                      << "\ndst:" << dst.toString();
  ++t.kinds[p->kind];
  for (const std::string& n : p->notes)
    if (n.find("wider vectors do not fit") != std::string::npos) ++t.narrowed;
  std::string why = execute(*p, src, dst);
  ASSERT_EQ(why, "") << conv::conversionKindName(p->kind) << "\nsrc:" << src.toString()
                     << "\ndst:" << dst.toString() << "\n"
                     << conv::conversionPlanText(*p);
  if (p->kind == conv::ConversionKind::WarpShuffle) {
    ++t.shuffles;
    if (int(p->rounds.size()) == p->roundsLowerBound) ++t.atLowerBound;
    for (const std::string& n : p->notes)
      if (n.find("greedy") != std::string::npos) ++t.greedy;
  }
}

TEST(ConversionPlanRandom, BijectiveSameWarpsShuffleAtLowerBound) {
  RandomLayouts gen(1);
  Tally t;
  for (int iter = 0; iter < 300; ++iter) {
    const int nl = 2 + int(gen.rng() % 4), nw = int(gen.rng() % 3), nr = int(gen.rng() % 5);
    const int n = nr + nl + nw, rowBits = int(gen.rng() % (n + 1));
    std::vector<uint64_t> basis = gen.invertible(n);
    std::vector<uint64_t> warp(basis.begin(), basis.begin() + nw);
    std::vector<uint64_t> rest(basis.begin() + nw, basis.end());
    std::vector<uint64_t> s = gen.spanning(rest, nr + nl), mix;
    if (gen.rng() % 5 == 0) {
      // Registers reordered only: a register permutation.
      for (int i = 0; i < nr + nl; ++i) mix.push_back(uint64_t{1} << i);
      std::shuffle(mix.begin(), mix.begin() + nr, gen.rng);
    } else {
      // dst = src after an invertible change of (register, lane) coordinates that keeps the
      // low `common` register bits (vectors).
      mix = gen.mixing(nr + nl, nr ? int(gen.rng() % (nr + 1)) : 0);
    }
    std::vector<uint64_t> d(nr + nl, 0);
    for (int j = 0; j < nr + nl; ++j)
      for (int i = 0; i < nr + nl; ++i)
        if ((mix[j] >> i) & 1) d[j] ^= s[i];
    LinearLayout src =
        fromColumns({s.begin(), s.begin() + nr}, {s.begin() + nr, s.end()}, warp, n, rowBits);
    LinearLayout dst =
        fromColumns({d.begin(), d.begin() + nr}, {d.begin() + nr, d.end()}, warp, n, rowBits);
    if (!src.isInvertible() || !dst.isInvertible()) continue;
    runRandom(src, dst, 8 << (gen.rng() % 4), t);
    if (HasFatalFailure()) return;
  }
  t.print("bijective pairs, same warps");
  EXPECT_GT(t.shuffles, 150);
  // Bijective pairs: every shuffle plan reaches one dst vector per lane per round.
  EXPECT_EQ(t.atLowerBound, t.shuffles);
  EXPECT_GT(t.kinds[conv::ConversionKind::RegisterPermutation], 0);
}

TEST(ConversionPlanRandom, BroadcastingPairsExecute) {
  RandomLayouts gen(2);
  Tally t;
  for (int iter = 0; iter < 300; ++iter) {
    const int nl = 2 + int(gen.rng() % 4), nw = int(gen.rng() % 3);
    const int nrs = int(gen.rng() % 5), nrd = int(gen.rng() % 5);
    // The tensor is at most as large as the smaller side; extra bits broadcast.
    const int nmax = std::min(nrs, nrd) + nl;
    const int inner = std::max(1, nmax - int(gen.rng() % 3));
    const int n = inner + nw, rowBits = int(gen.rng() % (n + 1));
    std::vector<uint64_t> basis = gen.invertible(n);
    std::vector<uint64_t> warp(basis.begin(), basis.begin() + nw);
    std::vector<uint64_t> rest(basis.begin() + nw, basis.end());
    if (int(rest.size()) > std::min(nrs, nrd) + nl) continue;
    std::vector<uint64_t> s = gen.spanning(rest, nrs + nl), d = gen.spanning(rest, nrd + nl);
    LinearLayout src =
        fromColumns({s.begin(), s.begin() + nrs}, {s.begin() + nrs, s.end()}, warp, n, rowBits);
    LinearLayout dst =
        fromColumns({d.begin(), d.begin() + nrd}, {d.begin() + nrd, d.end()}, warp, n, rowBits);
    runRandom(src, dst, 8 << (gen.rng() % 4), t);
    if (HasFatalFailure()) return;
  }
  t.print("broadcasting pairs, same warps");
  EXPECT_GT(t.shuffles, 100);
  EXPECT_GT(t.kinds[conv::ConversionKind::RegisterPermutation], 0);
}

TEST(ConversionPlanRandom, IndependentPairsExecute) {
  // Warps differ: mostly shared memory, through the synthesized swizzle. 32 lanes (the targets'
  // warp width), 16-bit elements.
  RandomLayouts gen(3);
  Tally t;
  for (int iter = 0; iter < 200; ++iter) {
    const int nl = 5, nw = int(gen.rng() % 3), nr = 1 + int(gen.rng() % 4);
    const int n = nr + nl + nw, rowBits = int(gen.rng() % (n + 1));
    std::vector<uint64_t> s = gen.invertible(n), d = gen.invertible(n);
    if (gen.rng() % 4 == 0)
      for (int i = 0; i < nr; ++i) d[i] = s[i]; // common registers: vectorized accesses
    LinearLayout src =
        fromColumns({s.begin(), s.begin() + nr}, {s.begin() + nr, s.begin() + nr + nl},
                    {s.begin() + nr + nl, s.end()}, n, rowBits);
    LinearLayout dst =
        fromColumns({d.begin(), d.begin() + nr}, {d.begin() + nr, d.begin() + nr + nl},
                    {d.begin() + nr + nl, d.end()}, n, rowBits);
    if (!dst.isInvertible()) continue;
    runRandom(src, dst, 16, t);
    if (HasFatalFailure()) return;
  }
  t.print("independent pairs");
  EXPECT_GT(t.kinds[conv::ConversionKind::SharedMemory], 100);
}

TEST(ConversionPlanRandom, BroadcastingIndependentPairsExecute) {
  // Warps differ and either side may hold elements twice (registers, lanes or warps).
  RandomLayouts gen(4);
  Tally t;
  for (int iter = 0; iter < 200; ++iter) {
    const int nl = 5, nw = int(gen.rng() % 3);
    const int nrs = 1 + int(gen.rng() % 4), nrd = 1 + int(gen.rng() % 4);
    const int n = std::min(nrs, nrd) + nl + nw - int(gen.rng() % 3);
    const int rowBits = int(gen.rng() % (n + 1));
    std::vector<uint64_t> s = gen.spanning(gen.invertible(n), nrs + nl + nw);
    std::vector<uint64_t> d = gen.spanning(gen.invertible(n), nrd + nl + nw);
    LinearLayout src =
        fromColumns({s.begin(), s.begin() + nrs}, {s.begin() + nrs, s.begin() + nrs + nl},
                    {s.begin() + nrs + nl, s.end()}, n, rowBits);
    LinearLayout dst =
        fromColumns({d.begin(), d.begin() + nrd}, {d.begin() + nrd, d.begin() + nrd + nl},
                    {d.begin() + nrd + nl, d.end()}, n, rowBits);
    runRandom(src, dst, 8 << (gen.rng() % 3), t);
    if (HasFatalFailure()) return;
  }
  t.print("broadcasting independent pairs");
  EXPECT_GT(t.kinds[conv::ConversionKind::SharedMemory], 100);
}

// ---- Errors, text, JSON, batch ---------------------------------------------------------------

TEST(ConversionPlanErrors, PreciseMessages) {
  LinearLayout a = encodingLayout(kBlocked84, {64, 32});
  LinearLayout wave64 = encodingLayout("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = "
                                       "[8, 8], warpsPerCTA = [2, 1], order = [1, 0]}>",
                                       {64, 32});
  auto e = conv::planConversion(a, wave64, 16, "nvidia");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "dst: lane has 64 lanes but src has 32");
  LinearLayout warps8 = encodingLayout("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = "
                                       "[8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>",
                                       {64, 32});
  e = conv::planConversion(a, warps8, 16, "nvidia");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "dst: warp has 8 warps but src has 4");
  LinearLayout other = encodingLayout(kBlocked84, {64, 64});
  e = conv::planConversion(a, other, 16, "nvidia");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message,
            "dst: dim1 has size 64 but src has 32 (both must cover the same tensor)");
  e = conv::planConversion(a, a, 12, "nvidia");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "elemBits: 12 is not 8, 16, 32 or 64");
  auto shared = LinearLayout::identity1D(16, DimName("offset"), DimName("dim0"));
  e = conv::planConversion(*shared, *shared, 16, "nvidia");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("src: in-dim 'offset' is not register, lane, warp or block"),
            std::string::npos);
}

TEST(ConversionPlanOutput, TextAndJson) {
  LinearLayout a = encodingLayout(kBlocked84, {32, 32});
  LinearLayout b = encodingLayout("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, "
                                  "8], warpsPerCTA = [4, 1], order = [1, 0]}>",
                                  {32, 32});
  auto p = planOk(a, b);
  std::string text = conv::conversionPlanText(p);
  EXPECT_NE(text.find("conversion: intra-warp shuffles"), std::string::npos) << text;
  EXPECT_NE(text.find("round 0"), std::string::npos) << text;
  auto j = conv::conversionPlanToJson(p);
  EXPECT_EQ(j["kind"], "warpShuffle");
  EXPECT_EQ(j["lanes"], 32);
  EXPECT_EQ(j["rounds"].size(), p.rounds.size());
  EXPECT_EQ(j["rounds"][0]["readLane"].size(), 32u);
  EXPECT_TRUE(layout::layoutFromJson(j["comp"]).ok());
}

TEST(ConversionPlanBatch, ConvertPlanOp) {
  layout::BatchProcessor batch;
  auto run = [&](const nlohmann::json& req) {
    return nlohmann::json::parse(batch.processLine(req.dump()));
  };
  nlohmann::json req = {{"id", 1},
                        {"op", "convert.plan"},
                        {"args",
                         {{"src", kBlocked84},
                          {"dst", "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], "
                                  "warpsPerCTA = [4, 1], order = [1, 0]}>"},
                          {"shape", {32, 32}},
                          {"elemBits", 16}}}};
  auto out = run(req);
  ASSERT_TRUE(out.contains("result")) << out.dump();
  EXPECT_EQ(out["result"]["kind"], "warpShuffle");
  // Layout JSON operands.
  LinearLayout a = encodingLayout(kBlocked84, {32, 32});
  req["args"]["src"] = layout::layoutToJson(a);
  req["args"]["dst"] = layout::layoutToJson(a);
  req["args"].erase("shape");
  out = run(req);
  ASSERT_TRUE(out.contains("result")) << out.dump();
  EXPECT_EQ(out["result"]["kind"], "none");
  req["args"]["colour"] = "blue";
  out = run(req);
  EXPECT_EQ(
      out["error"],
      "convert.plan: args.colour: unknown argument (convert.plan takes src, dst, shape, elemBits, "
      "target)");
  req["args"].erase("colour");
  req["args"]["src"] = kBlocked84;
  out = run(req);
  EXPECT_EQ(out["error"], "convert.plan: args.src: an encoding needs the tensor shape");
  req["args"]["shape"] = {32, 32};
  req["args"]["elemBits"] = 7;
  out = run(req);
  EXPECT_EQ(out["error"], "convert.plan: args.elemBits: 7 is not 8, 16, 32 or 64");
}

} // namespace
