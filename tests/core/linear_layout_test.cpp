// Hand-written cases for every operation of layout/core/linear_layout.h. Each expected value is
// derived by hand from docs/reference/triton-linear-layout.md (sections 1, 2 and 4); the
// derivation is the comment above the check.
#include "layout/core/linear_layout.h"

#include <gtest/gtest.h>

#include "support/layout_expectations.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using layout::DimName;
using layout::DimSize;
using layout::InDimBases;
using layout::LinearLayout;

DimName D(const char* name) {
  return DimName(name);
}

const DimName kReg = D("register"), kLane = D("lane"), kWarp = D("warp"), kBlock = D("block");
const DimName kDim0 = D("dim0"), kDim1 = D("dim1"), kO = D("o"), kO2 = D("o2"), kI = D("i");

using layout_test::describe;
using layout_test::expectLayout;
using layout_test::make;

LinearLayout id1(uint64_t size, DimName in, DimName out) {
  auto l = LinearLayout::identity1D(size, in, out);
  if (!l) {
    ADD_FAILURE() << l.error().message;
    return LinearLayout();
  }
  return *l;
}

LinearLayout mul(const LinearLayout& a, const LinearLayout& b) {
  auto l = product(a, b);
  if (!l) {
    ADD_FAILURE() << l.error().message;
    return LinearLayout();
  }
  return *l;
}

using Named = std::vector<std::pair<DimName, uint64_t>>;

Named applyNamed(const LinearLayout& l, const Named& ins) {
  auto r = l.apply(std::span<const std::pair<DimName, uint64_t>>(ins));
  if (!r) {
    ADD_FAILURE() << r.error().message;
    return {};
  }
  return *r;
}

#define ASSERT_OK(e) ASSERT_TRUE((e).ok()) << (e).error().message

// =================================================================================================
// Factories
// =================================================================================================

TEST(LinearLayout, Identity1D) {
  // identity1D(8): bases[i] = 2^i, out size 8; rank 3 = in bits = out bits.
  LinearLayout l = id1(8, kReg, kDim0);
  expectLayout(l, {{kReg, {{1}, {2}, {4}}}}, {{kDim0, 8}});
  EXPECT_TRUE(l.isSurjective());
  EXPECT_TRUE(l.isInjective());
  EXPECT_TRUE(l.isInvertible());
  EXPECT_EQ(l.rank(), 3);
  // "n = 0 gives empty()".
  LinearLayout e = id1(0, kReg, kDim0);
  EXPECT_EQ(e.numInDims(), 0);
  EXPECT_EQ(e.numOutDims(), 0);
  EXPECT_TRUE(e == LinearLayout::empty());
  // Size 1: an in-dim with no bases is still a dim; out size 1.
  expectLayout(id1(1, kReg, kDim0), {{kReg, {}}}, {{kDim0, 1}});
  // Sizes must be powers of two.
  EXPECT_FALSE(LinearLayout::identity1D(3, kReg, kDim0).ok());
  EXPECT_FALSE(LinearLayout::identity1D(12, kReg, kDim0).ok());
}

TEST(LinearLayout, Strided1D) {
  // strided1D(4, 2): x -> 2x, bases [2], [4]; "out size is size * stride" = 8, so only 4 of the
  // 8 outputs are reached: not surjective, but injective.
  auto l = LinearLayout::strided1D(4, 2, kReg, kDim0);
  ASSERT_OK(l);
  expectLayout(*l, {{kReg, {{2}, {4}}}}, {{kDim0, 8}});
  EXPECT_FALSE(l->isSurjective());
  EXPECT_TRUE(l->isInjective());
  // Stride 1 is identity1D.
  auto s1 = LinearLayout::strided1D(4, 1, kReg, kDim0);
  ASSERT_OK(s1);
  EXPECT_TRUE(*s1 == id1(4, kReg, kDim0));
  EXPECT_TRUE(s1->isSurjective());
  // Size 0 is empty.
  auto s0 = LinearLayout::strided1D(0, 4, kReg, kDim0);
  ASSERT_OK(s0);
  EXPECT_TRUE(*s0 == LinearLayout::empty());
  // A stride of 3 gives the out size 12: not a power of two.
  EXPECT_FALSE(LinearLayout::strided1D(4, 3, kReg, kDim0).ok());
}

TEST(LinearLayout, Zeros1D) {
  // zeros1D(8): three zero bases. With out size 1 there are no out bits: rank 0 == 0, surjective.
  auto z = LinearLayout::zeros1D(8, kReg, kDim0);
  ASSERT_OK(z);
  expectLayout(*z, {{kReg, {{0}, {0}, {0}}}}, {{kDim0, 1}});
  EXPECT_TRUE(z->isSurjective());
  EXPECT_FALSE(z->isInjective());
  // With out size 4: rank 0 < 2, not surjective.
  auto z4 = LinearLayout::zeros1D(8, kReg, kDim0, 4);
  ASSERT_OK(z4);
  expectLayout(*z4, {{kReg, {{0}, {0}, {0}}}}, {{kDim0, 4}});
  EXPECT_FALSE(z4->isSurjective());
  EXPECT_FALSE(LinearLayout::zeros1D(8, kReg, kDim0, 3).ok());
}

TEST(LinearLayout, CreateValidates) {
  // A valid non-surjective layout is accepted by create.
  auto ok = LinearLayout::create({{kReg, {{2}}}}, {{kDim0, 4}});
  ASSERT_OK(ok);
  EXPECT_FALSE(ok->isSurjective());
  // Out size not a power of two.
  EXPECT_FALSE(LinearLayout::create({{kReg, {{1}}}}, {{kDim0, 6}}).ok());
  EXPECT_FALSE(LinearLayout::create({{kReg, {{0}}}}, {{kDim0, 0}}).ok());
  // A component >= its out size.
  EXPECT_FALSE(LinearLayout::create({{kReg, {{4}}}}, {{kDim0, 4}}).ok());
  // Wrong number of components.
  EXPECT_FALSE(LinearLayout::create({{kReg, {{1, 0}}}}, {{kDim0, 4}}).ok());
  EXPECT_FALSE(LinearLayout::create({{kReg, {{}}}}, {{kDim0, 4}}).ok());
  // Duplicate names.
  EXPECT_FALSE(LinearLayout::create({{kReg, {{1}}}, {kReg, {{2}}}}, {{kDim0, 4}}).ok());
  EXPECT_FALSE(LinearLayout::create({{kReg, {{1, 1}}}}, {{kDim0, 4}, {kDim0, 4}}).ok());
  // The same name as an in-dim and an out-dim is fine.
  EXPECT_TRUE(LinearLayout::create({{kDim0, {{1}}}}, {{kDim0, 2}}).ok());
}

TEST(LinearLayout, CreateSurjectiveInfersSizes) {
  // Each out size is the largest NextPowerOf2(v): the component 16 gives 32; rank 5 = 5 out
  // bits, surjective.
  auto l = LinearLayout::createSurjective({{kReg, {{1}, {2}, {4}, {8}, {16}}}}, {kDim0});
  ASSERT_OK(l);
  expectLayout(*l, {{kReg, {{1}, {2}, {4}, {8}, {16}}}}, {{kDim0, 32}});
  // All components 0: size 1.
  auto z = LinearLayout::createSurjective({{kReg, {{0, 1}}}}, {kDim0, kDim1});
  ASSERT_OK(z);
  expectLayout(*z, {{kReg, {{0, 1}}}}, {{kDim0, 1}, {kDim1, 2}});
  // The component 2 gives size 4 but rank 1 < 2: not surjective, an error.
  EXPECT_FALSE(LinearLayout::createSurjective({{kReg, {{2}}}}, {kDim0}).ok());
}

// Construction from bases against a model written from Triton's definition (docs/reference/
// triton-linear-layout.md section 1): basis i of an in-dim is the image of input 2^i, one
// component per out-dim; createSurjective's out size is the smallest power of two above every
// component of that out-dim, and the layout must reach every output (GF(2) rank = out bits).
// Random shapes cover zero to six out-dims, 0 to 96 bases and up to 120 out bits (one word per
// basis and more), and every error names the first offending basis and component.
struct BasesCase {
  std::vector<InDimBases> ins;
  std::vector<DimName> outNames;
  std::vector<uint64_t> sizes; // the model's inferred sizes
};

BasesCase randomBases(std::mt19937_64& rng) {
  BasesCase c;
  const int numOut = int(rng() % 7);
  std::vector<int> log2Bound(static_cast<size_t>(numOut));
  for (int o = 0; o < numOut; ++o) {
    c.outNames.push_back(D(("o" + std::to_string(o)).c_str()));
    log2Bound[size_t(o)] = int(rng() % 21);
  }
  const int numIn = 1 + int(rng() % 4);
  for (int d = 0; d < numIn; ++d) {
    InDimBases dim{D(("i" + std::to_string(d)).c_str()), {}};
    const int numBases = int(rng() % 25);
    for (int b = 0; b < numBases; ++b) {
      std::vector<uint64_t> v(size_t(numOut), 0);
      const int kind = int(rng() % 3);
      for (int o = 0; o < numOut; ++o) {
        const uint64_t bound = uint64_t{1} << log2Bound[size_t(o)];
        // A unit vector (one out bit), a random vector, or zero.
        if (kind == 1) v[size_t(o)] = rng() % bound;
      }
      if (kind == 0 && numOut > 0) {
        const int o = int(rng() % uint64_t(numOut));
        v[size_t(o)] = (uint64_t{1} << (rng() % 64)) % (uint64_t{1} << log2Bound[size_t(o)]);
      }
      dim.bases.push_back(std::move(v));
    }
    c.ins.push_back(std::move(dim));
  }
  for (int o = 0; o < numOut; ++o) {
    uint64_t size = 1;
    for (const auto& d : c.ins)
      for (const auto& v : d.bases)
        while (size <= v[size_t(o)]) size *= 2;
    c.sizes.push_back(size);
  }
  return c;
}

// The vector of each basis with the out-dims side by side (out-dim 0 in the low bits), and the
// GF(2) rank of those vectors; out bits fit 128.
int modelRank(const BasesCase& c) {
  std::vector<unsigned __int128> rows;
  for (const auto& d : c.ins)
    for (const auto& v : d.bases) {
      unsigned __int128 x = 0;
      int offset = 0;
      for (size_t o = 0; o < v.size(); ++o) {
        x |= static_cast<unsigned __int128>(v[o]) << offset;
        offset += std::countr_zero(c.sizes[o]);
      }
      rows.push_back(x);
    }
  int rank = 0;
  for (int bit = 0; bit < 128; ++bit) {
    const unsigned __int128 m = static_cast<unsigned __int128>(1) << bit;
    auto pivot =
        std::find_if(rows.begin() + rank, rows.end(), [&](auto r) { return (r & m) != 0; });
    if (pivot == rows.end()) continue;
    std::swap(*pivot, rows[size_t(rank)]);
    for (size_t r = 0; r < rows.size(); ++r)
      if (r != size_t(rank) && (rows[r] & m)) rows[r] ^= rows[size_t(rank)];
    ++rank;
  }
  return rank;
}

// The layout holds exactly the case's bases and out sizes, and applies as their XOR.
void expectHoldsCase(const LinearLayout& l, const BasesCase& c, const std::vector<uint64_t>& sizes,
                     std::mt19937_64& rng) {
  ASSERT_EQ(l.numOutDims(), int(c.outNames.size()));
  for (size_t o = 0; o < sizes.size(); ++o) EXPECT_EQ(l.outDimSize(int(o)), sizes[o]) << o;
  ASSERT_EQ(l.numInDims(), int(c.ins.size()));
  for (size_t d = 0; d < c.ins.size(); ++d) {
    ASSERT_EQ(l.inDimSizeLog2(int(d)), int(c.ins[d].bases.size()));
    for (size_t b = 0; b < c.ins[d].bases.size(); ++b)
      for (size_t o = 0; o < sizes.size(); ++o)
        ASSERT_EQ(l.basis(int(d), int(b), int(o)), c.ins[d].bases[b][o])
            << d << " " << b << " " << o;
  }
  for (int trial = 0; trial < 4; ++trial) {
    std::vector<uint64_t> in(c.ins.size()), out(sizes.size()), want(sizes.size(), 0);
    for (size_t d = 0; d < c.ins.size(); ++d) {
      in[d] = rng();
      for (size_t b = 0; b < c.ins[d].bases.size(); ++b)
        if ((in[d] >> b) & 1)
          for (size_t o = 0; o < sizes.size(); ++o) want[o] ^= c.ins[d].bases[b][o];
    }
    l.apply(in, out);
    EXPECT_EQ(out, want);
  }
}

TEST(LinearLayout, ConstructionFromBasesAgreesWithModel) {
  std::mt19937_64 rng(20261126);
  int surjective = 0, wide = 0, manyBases = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const BasesCase c = randomBases(rng);
    SCOPED_TRACE(iter);
    int outBits = 0, numBases = 0;
    for (uint64_t s : c.sizes) outBits += std::countr_zero(s);
    for (const auto& d : c.ins) numBases += int(d.bases.size());
    wide += outBits > 64;
    manyBases += numBases > 64;
    const bool onto = modelRank(c) == outBits;
    surjective += onto;
    auto s = LinearLayout::createSurjective(c.ins, c.outNames);
    ASSERT_EQ(s.ok(), onto) << (s.ok() ? "" : s.error().message);
    if (onto) {
      expectHoldsCase(*s, c, c.sizes, rng);
      EXPECT_TRUE(s->isSurjective());
    } else {
      EXPECT_NE(s.error().message.find("layout is not surjective"), std::string::npos);
    }
    // create with the inferred sizes, some doubled: surjective exactly when the model says so.
    std::vector<DimSize> outs;
    std::vector<uint64_t> sizes = c.sizes;
    for (size_t o = 0; o < sizes.size(); ++o) {
      if (rng() % 4 == 0 && sizes[o] < (uint64_t{1} << 20)) sizes[o] *= 2;
      outs.push_back({c.outNames[o], sizes[o]});
    }
    auto l = LinearLayout::create(c.ins, outs);
    ASSERT_OK(l);
    expectHoldsCase(*l, c, sizes, rng);
    EXPECT_EQ(l->isSurjective(), onto && sizes == c.sizes);
    if (c.outNames.empty()) continue;
    // One basis with a component too many or too few, at a random place: both name it.
    std::vector<std::pair<size_t, size_t>> places;
    for (size_t d = 0; d < c.ins.size(); ++d)
      for (size_t b = 0; b < c.ins[d].bases.size(); ++b) places.push_back({d, b});
    if (places.empty()) continue;
    const auto [d, b] = places[rng() % places.size()];
    std::vector<InDimBases> bad = c.ins;
    auto& v = bad[d].bases[b];
    if (rng() % 2 || v.size() == 1)
      v.push_back(0);
    else
      v.pop_back();
    const std::string count = "in-dim 'i" + std::to_string(d) + "' basis " + std::to_string(b) +
                              " has " + std::to_string(v.size()) +
                              " components; expected one per out-dim (" +
                              std::to_string(c.outNames.size()) + ")";
    auto badS = LinearLayout::createSurjective(bad, c.outNames);
    ASSERT_FALSE(badS.ok());
    EXPECT_EQ(badS.error().message, count);
    auto badC = LinearLayout::create(bad, outs);
    ASSERT_FALSE(badC.ok());
    EXPECT_EQ(badC.error().message, count);
    // One component at or above its out-dim's size.
    std::vector<InDimBases> large = c.ins;
    const size_t o = rng() % c.outNames.size();
    large[d].bases[b][o] = sizes[o] + rng() % 3;
    auto badR = LinearLayout::create(large, outs);
    ASSERT_FALSE(badR.ok());
    EXPECT_EQ(badR.error().message,
              "in-dim 'i" + std::to_string(d) + "' basis " + std::to_string(b) + ": component " +
                  std::to_string(large[d].bases[b][o]) + " for out-dim 'o" + std::to_string(o) +
                  "' must be less than its size " + std::to_string(sizes[o]));
  }
  // The generator reached every regime it is meant to.
  EXPECT_GT(surjective, 300);
  EXPECT_GT(3000 - surjective, 300);
  EXPECT_GT(wide, 100);
  EXPECT_GT(manyBases, 30);
}

TEST(LinearLayout, Accessors) {
  LinearLayout l =
      make({{kReg, {{1, 0}, {0, 2}}}, {kLane, {}}, {kWarp, {{3, 1}}}}, {{kDim0, 4}, {kDim1, 4}});
  EXPECT_EQ(l.numInDims(), 3);
  EXPECT_EQ(l.numOutDims(), 2);
  EXPECT_EQ(l.inDimNames(), (std::vector<DimName>{kReg, kLane, kWarp}));
  EXPECT_EQ(l.outDimNames(), (std::vector<DimName>{kDim0, kDim1}));
  EXPECT_EQ(l.inDimIndex(kWarp), 2);
  EXPECT_EQ(l.inDimIndex(kBlock), -1);
  EXPECT_EQ(l.outDimIndex(kDim1), 1);
  EXPECT_TRUE(l.hasOutDim(kDim0));
  EXPECT_FALSE(l.hasOutDim(kReg));
  EXPECT_EQ(l.inDimSize(0), 4u);
  EXPECT_EQ(l.inDimSize(1), 1u);
  EXPECT_EQ(l.inDimSizeLog2(2), 1);
  EXPECT_EQ(l.outDimSizeLog2(1), 2);
  EXPECT_EQ(l.totalInDimSizeLog2(), 3);
  EXPECT_EQ(l.totalOutDimSizeLog2(), 4);
  EXPECT_EQ(l.basis(2, 0), (std::vector<uint64_t>{3, 1}));
  EXPECT_EQ(l.basis(0, 1, 1), 2u);
  EXPECT_EQ(l.inDimSizes(), (std::vector<DimSize>{{kReg, 4}, {kLane, 1}, {kWarp, 2}}));
  EXPECT_EQ(l.outDims(), (std::vector<DimSize>{{kDim0, 4}, {kDim1, 4}}));
  EXPECT_EQ(layout::dims::reg().str(), "register");
  EXPECT_EQ(layout::dims::lane().str(), "lane");
  EXPECT_EQ(layout::dims::warp().str(), "warp");
  EXPECT_EQ(layout::dims::block().str(), "block");
  EXPECT_EQ(layout::dims::offset().str(), "offset");
  EXPECT_EQ(layout::dims::standardOut(3).str(), "dim3");
}

TEST(LinearLayout, DimSizesByName) {
  // register has 2 bases (size 4), lane none (size 1), warp 1 (size 2); dim0 is 8, dim1 2.
  LinearLayout l =
      make({{kReg, {{1, 0}, {2, 0}}}, {kLane, {}}, {kWarp, {{4, 1}}}}, {{kDim0, 8}, {kDim1, 2}});
  EXPECT_EQ(l.inDimSize(kReg), 4u);
  EXPECT_EQ(l.inDimSize(kLane), 1u);
  EXPECT_EQ(l.inDimSize(kWarp), 2u);
  EXPECT_EQ(l.outDimSize(kDim0), 8u);
  EXPECT_EQ(l.outDimSize(kDim1), 2u);
  // An absent dim has size 1 (what `product` treats it as); an out-dim name is not an in-dim.
  EXPECT_EQ(l.inDimSize(kBlock), 1u);
  EXPECT_EQ(l.inDimSize(kDim0), 1u);
  EXPECT_EQ(l.outDimSize(kReg), 1u);
  EXPECT_EQ(l.outDimSize(D("dim2")), 1u);
  // The empty layout lacks every dim.
  EXPECT_EQ(LinearLayout().inDimSize(kReg), 1u);
  EXPECT_EQ(LinearLayout().outDimSize(kDim0), 1u);
  // A 2^40-element identity: log2 size 40 on both sides.
  LinearLayout big = id1(uint64_t{1} << 40, kI, kO);
  EXPECT_EQ(big.inDimSize(kI), uint64_t{1} << 40);
  EXPECT_EQ(big.outDimSize(kO), uint64_t{1} << 40);
  // By name and by index agree after a transpose moves the dims.
  auto moved = l.transposeIns(std::vector<DimName>{kWarp, kReg, kLane});
  ASSERT_OK(moved);
  EXPECT_EQ(moved->inDimSize(0), 2u);
  EXPECT_EQ(moved->inDimSize(kWarp), 2u);
  EXPECT_EQ(moved->inDimSize(kReg), 4u);
}

// =================================================================================================
// apply
// =================================================================================================

TEST(LinearLayout, ApplyProductExampleFromReference) {
  // "identity1D(4,i,o) * identity1D(8,i,o2) maps x to (o = x%4, o2 = x/4)".
  LinearLayout l = mul(id1(4, kI, kO), id1(8, kI, kO2));
  expectLayout(l, {{kI, {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}}}, {{kO, 4}, {kO2, 8}});
  for (uint64_t x = 0; x < 32; ++x) {
    Named got = applyNamed(l, {{kI, x}});
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0], std::make_pair(kO, x % 4));
    EXPECT_EQ(got[1], std::make_pair(kO2, x / 4));
    uint64_t in[1] = {x}, out[2];
    l.apply(in, out);
    EXPECT_EQ(out[0], x % 4);
    EXPECT_EQ(out[1], x / 4);
    // Packed: o in bits 0-1, o2 in bits 2-4, i.e. x itself.
    EXPECT_EQ(l.applyPacked(x), x);
  }
}

TEST(LinearLayout, ApplyHeaderExample) {
  // product(identity1D(4, register, dim1), identity1D(32, lane, dim0)): in-dims [register, lane],
  // out-dims [dim1, dim0] (dim1 came first). register 3, lane 5 -> dim1 = 3, dim0 = 5.
  LinearLayout tile = mul(id1(4, kReg, kDim1), id1(32, kLane, kDim0));
  EXPECT_EQ(tile.outDimNames(), (std::vector<DimName>{kDim1, kDim0}));
  uint64_t in[2] = {3, 5}, out[2];
  tile.apply(in, out);
  EXPECT_EQ(out[0], 3u);
  EXPECT_EQ(out[1], 5u);
  // Named, in any order; results in out-dim order.
  Named got = applyNamed(tile, {{kLane, 5}, {kReg, 3}});
  EXPECT_EQ(got, (Named{{kDim1, 3}, {kDim0, 5}}));
}

TEST(LinearLayout, ApplyXorsBases) {
  // bases [1], [3]: input 3 -> 1 XOR 3 = 2; input 2 -> 3.
  LinearLayout l = make({{kReg, {{1}, {3}}}, {kLane, {{2}}}}, {{kO, 4}});
  EXPECT_EQ(applyNamed(l, {{kReg, 3}, {kLane, 0}}), (Named{{kO, 2}}));
  EXPECT_EQ(applyNamed(l, {{kReg, 2}, {kLane, 0}}), (Named{{kO, 3}}));
  // register 3, lane 1: 1 ^ 3 ^ 2 = 0.
  EXPECT_EQ(applyNamed(l, {{kReg, 3}, {kLane, 1}}), (Named{{kO, 0}}));
  // Hot path: bits beyond a dim's size are ignored (register has 2 bits: 7 reads as 3).
  uint64_t in[2] = {7, 0}, out[1];
  l.apply(in, out);
  EXPECT_EQ(out[0], 2u);
  // Packed: register bits 0-1, lane bit 2: 3 | 1 << 2 = 7 -> 0.
  EXPECT_EQ(l.applyPacked(7), 0u);
  EXPECT_EQ(l.applyPacked(4), 2u);
}

TEST(LinearLayout, ApplyNamedErrors) {
  LinearLayout l = make({{kReg, {{1}}}, {kLane, {{2}}}}, {{kO, 4}});
  auto call = [&](const Named& in) {
    return l.apply(std::span<const std::pair<DimName, uint64_t>>(in)).ok();
  };
  EXPECT_TRUE(call({{kReg, 1}, {kLane, 1}}));
  EXPECT_FALSE(call({{kReg, 1}}));                         // lane missing
  EXPECT_FALSE(call({{kReg, 1}, {kLane, 1}, {kWarp, 0}})); // unknown dim
  EXPECT_FALSE(call({{kReg, 1}, {kReg, 1}}));              // register twice, lane missing
  EXPECT_FALSE(call({{kReg, 1}, {kLane, 1}, {kLane, 0}})); // lane twice
  // Values beyond a dim's size: the reference's apply XORs "over the set bits i of each input"
  // (i below the dim's log2 size) and asserts only the dim names, so the high bits are ignored,
  // as Triton does (tests/data/triton_algebra_vectors.jsonl, apply records 2181-2200).
  // register 3 -> bit 0 only: 1; lane 1 -> 2; 1 ^ 2 = 3.
  EXPECT_EQ(applyNamed(l, {{kReg, 3}, {kLane, 1}}), (Named{{kO, 3}}));
}

TEST(LinearLayout, ApplyEmptyAndOutOnly) {
  // No in-dims: every output is 0.
  LinearLayout l = make({}, {{kO, 4}});
  EXPECT_EQ(applyNamed(l, {}), (Named{{kO, 0}}));
  EXPECT_EQ(applyNamed(LinearLayout::empty(), {}), Named{});
  EXPECT_EQ(LinearLayout::empty().applyPacked(0), 0u);
}

// =================================================================================================
// compose
// =================================================================================================

TEST(LinearLayout, Compose) {
  // A: register -> x (identity over 4); B: x -> dim0 swapping the two bits.
  // compose applies B to each basis of A: [1] -> [2], [2] -> [1]. Out-dims are B's.
  LinearLayout a = id1(4, kReg, D("x"));
  LinearLayout b = make({{D("x"), {{2}, {1}}}}, {{kDim0, 4}});
  auto c = a.compose(b);
  ASSERT_OK(c);
  expectLayout(*c, {{kReg, {{2}, {1}}}}, {{kDim0, 4}});
  EXPECT_TRUE(c->isSurjective());

  // A's out size 2 <= B's in size 4: allowed; [1] -> [2]. Only half of dim0 is reached.
  auto c2 = id1(2, kReg, D("x")).compose(b);
  ASSERT_OK(c2);
  expectLayout(*c2, {{kReg, {{2}}}}, {{kDim0, 4}});
  EXPECT_FALSE(c2->isSurjective());

  // Two dims, matched by name in any order: A = (register -> x, lane -> y); B's in-dims are
  // [y, x]: y=1 -> (dim0 = 1), x=1 -> (dim1 = 1). register -> x -> dim1; lane -> y -> dim0.
  LinearLayout a2 = make({{kReg, {{1, 0}}}, {kLane, {{0, 1}}}}, {{D("x"), 2}, {D("y"), 2}});
  LinearLayout b2 = make({{D("y"), {{1, 0}}}, {D("x"), {{0, 1}}}}, {{kDim0, 2}, {kDim1, 2}});
  auto c3 = a2.compose(b2);
  ASSERT_OK(c3);
  expectLayout(*c3, {{kReg, {{0, 1}}}, {kLane, {{1, 0}}}}, {{kDim0, 2}, {kDim1, 2}});

  // Errors: A's out size 8 > B's in size 4; names that differ; a missing dim.
  EXPECT_FALSE(id1(8, kReg, D("x")).compose(b).ok());
  EXPECT_FALSE(id1(4, kReg, D("z")).compose(b).ok());
  EXPECT_FALSE(a2.compose(b).ok());
}

// =================================================================================================
// product
// =================================================================================================

TEST(LinearLayout, ProductSameAndDisjointDims) {
  // Same in- and out-dim: inner's bases [1], [2], then outer's [1], [2], [4] shifted by
  // log2(4) = 2: identity over 32.
  EXPECT_TRUE(mul(id1(4, kI, kO), id1(8, kI, kO)) == id1(32, kI, kO));
  // Different in-dims, same out-dim: lane's bases are shifted past register's 4 outputs.
  expectLayout(mul(id1(4, kReg, kO), id1(8, kLane, kO)),
               {{kReg, {{1}, {2}}}, {kLane, {{4}, {8}, {16}}}}, {{kO, 32}});
  // Disjoint: block-diagonal (Triton's MultiplyDisjoint).
  DimName in1 = D("in1"), in2 = D("in2"), out1 = D("out1"), out2 = D("out2");
  expectLayout(
      mul(id1(32, in1, out1), id1(16, in2, out2)),
      {{in1, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}}, {in2, {{0, 1}, {0, 2}, {0, 4}, {0, 8}}}},
      {{out1, 32}, {out2, 16}});
}

TEST(LinearLayout, ProductMergesDimOrders) {
  // In-dims [register, lane] * [lane, warp]: supremum [register, lane, warp]. Out-dims [dim0] *
  // [dim1]: [dim0, dim1]. register: inner's (1, 0). lane: inner's (2, 0), then outer's (0, 1)
  // (dim1 absent from inner: no shift). warp: outer's (0, 2).
  LinearLayout inner = make({{kReg, {{1}}}, {kLane, {{2}}}}, {{kDim0, 4}});
  LinearLayout outer = make({{kLane, {{1}}}, {kWarp, {{2}}}}, {{kDim1, 4}});
  auto p = product(inner, outer);
  ASSERT_OK(p);
  expectLayout(*p, {{kReg, {{1, 0}}}, {kLane, {{2, 0}, {0, 1}}}, {kWarp, {{0, 2}}}},
               {{kDim0, 4}, {kDim1, 4}});
  // [register] * [lane, register]: register must follow lane (outer's order), and nothing
  // orders register before lane: [lane, register]. lane: outer's (1); register: inner's (1),
  // then outer's (1) << 1.
  auto q = product(id1(2, kReg, kO), make({{kLane, {{1}}}, {kReg, {{0}}}}, {{kO, 2}}));
  ASSERT_OK(q);
  expectLayout(*q, {{kLane, {{2}}}, {kReg, {{1}, {0}}}}, {{kO, 4}});
  // Size-1 dims take part in the merge: [register, lane(size 1)] * [warp].
  auto r = product(make({{kReg, {{1}}}, {kLane, {}}}, {{kO, 2}}), id1(2, kWarp, kO));
  ASSERT_OK(r);
  expectLayout(*r, {{kReg, {{1}}}, {kLane, {}}, {kWarp, {{2}}}}, {{kO, 4}});
}

TEST(LinearLayout, ProductInconsistentOrdersAreErrors) {
  // supremum([a, b], [b, a]) aborts in Triton: an error here.
  DimName a = D("a"), b = D("b");
  LinearLayout ab = mul(id1(2, a, kO), id1(2, b, kO));
  LinearLayout ba = mul(id1(2, b, kO), id1(2, a, kO));
  EXPECT_EQ(ab.inDimNames(), (std::vector<DimName>{a, b}));
  EXPECT_EQ(ba.inDimNames(), (std::vector<DimName>{b, a}));
  EXPECT_FALSE(product(ab, ba).ok());
  // The same for out-dims.
  LinearLayout oab = mul(id1(2, kI, a), id1(2, kI, b));
  LinearLayout oba = mul(id1(2, kI, b), id1(2, kI, a));
  EXPECT_FALSE(product(oab, oba).ok());
  // Consistent orders are fine.
  EXPECT_TRUE(product(ab, ab).ok());
}

TEST(LinearLayout, ProductSurjectivityAndIdentity) {
  // "Surjective iff both are": strided1D(2, 2) is not surjective.
  auto s = LinearLayout::strided1D(2, 2, kLane, kDim1);
  ASSERT_OK(s);
  EXPECT_TRUE(mul(id1(4, kReg, kDim0), id1(2, kLane, kDim1)).isSurjective());
  EXPECT_FALSE(mul(id1(4, kReg, kDim0), *s).isSurjective());
  // empty() is the identity of product.
  LinearLayout l = make({{kReg, {{1, 1}}}, {kLane, {}}}, {{kDim0, 2}, {kDim1, 2}});
  EXPECT_TRUE(mul(LinearLayout::empty(), l) == l);
  EXPECT_TRUE(mul(l, LinearLayout::empty()) == l);
  // Associativity on a small example (dim orders merge to [register, lane, warp] and
  // [dim0, dim1] both ways).
  LinearLayout x = id1(2, kReg, kDim0), y = id1(4, kLane, kDim1), z = id1(2, kWarp, kDim1);
  EXPECT_TRUE(mul(mul(x, y), z) == mul(x, mul(y, z)));
  // Not commutative: the bases of a shared dim come in the other order.
  EXPECT_FALSE(mul(id1(2, kReg, kDim0), id1(2, kReg, kDim1)) ==
               mul(id1(2, kReg, kDim1), id1(2, kReg, kDim0)));
}

// =================================================================================================
// invertAndCompose, invert, pseudoinvert
// =================================================================================================

TEST(LinearLayout, InvertAndComposeLeastSquaresTieBreak) {
  // B: register -> o with columns c0 = 1, c1 = 3, c2 = 2 (c2 = c0 ^ c1: a free variable).
  // A = identity1D(4, lane, o). RREF of [B | A] has pivots c0, c1; the free variable c2 is 0:
  //   A's 1 = c0            -> register 1 (not 2 ^ 4 = 6, ...)
  //   A's 2 = c0 ^ c1       -> register 1 | 2 = 3 (not 4, the other solution)
  // C's out-dims are B's in-dims at their full sizes: register (size 8).
  LinearLayout b = make({{kReg, {{1}, {3}, {2}}}}, {{kO, 4}});
  auto c = id1(4, kLane, kO).invertAndCompose(b);
  ASSERT_OK(c);
  expectLayout(*c, {{kLane, {{1}, {3}}}}, {{kReg, 8}});
  EXPECT_FALSE(c->isSurjective());
}

TEST(LinearLayout, InvertAndComposeBroadcastingOuter) {
  // B broadcasts register bits 0 and 2 (zero bases): pivots are bits 1 and 3, so
  // 1 -> register 2, 2 -> register 8; out size 16 = B's full register size.
  LinearLayout b = make({{kReg, {{0}, {1}, {0}, {2}}}}, {{kO, 4}});
  auto c = id1(4, kLane, kO).invertAndCompose(b);
  ASSERT_OK(c);
  expectLayout(*c, {{kLane, {{2}, {8}}}}, {{kReg, 16}});
  // B duplicates register 0 in register 1 (a broadcast of a different kind): 1 -> register 1.
  LinearLayout dup = make({{kReg, {{1}, {1}, {2}}}}, {{kO, 4}});
  auto c2 = id1(4, kLane, kO).invertAndCompose(dup);
  ASSERT_OK(c2);
  expectLayout(*c2, {{kLane, {{1}, {4}}}}, {{kReg, 8}});
}

TEST(LinearLayout, InvertAndComposeIdentityDimHeuristic) {
  // B: register [1], [0]; lane [1], [2]. A: register [1], [1]; lane [1], [2].
  // lane's single-dim sublayouts agree -> lane maps to itself (identity1D).
  // register differs -> least squares over B's remaining dims (register only): column 0 = 1
  // is the pivot, column 1 = 0 is free: both of A's register bases (1) -> register 1.
  // Without the heuristic, lane's first basis (1) would go to register 1 (the lower column).
  // C: in-dims A's [register, lane]; out-dims B's [register (4), lane (4)].
  LinearLayout b = make({{kReg, {{1}, {0}}}, {kLane, {{1}, {2}}}}, {{kO, 4}});
  LinearLayout a = make({{kReg, {{1}, {1}}}, {kLane, {{1}, {2}}}}, {{kO, 4}});
  auto c = a.invertAndCompose(b);
  ASSERT_OK(c);
  expectLayout(*c, {{kReg, {{1, 0}, {1, 0}}}, {kLane, {{0, 1}, {0, 2}}}}, {{kReg, 4}, {kLane, 4}});

  // The comparison ignores out sizes (triton-lang/triton#10116; Triton 3.6 still compared them):
  // the same with B's out-dim of size 8 gives the same C.
  LinearLayout b8 = make({{kReg, {{1}, {0}}}, {kLane, {{1}, {2}}}}, {{kO, 8}});
  auto c8 = a.invertAndCompose(b8);
  ASSERT_OK(c8);
  EXPECT_TRUE(*c8 == *c);

  // A == B: every dim is an identity dim, so even the zero basis maps to itself (least squares
  // alone would send it to 0).
  LinearLayout z = make({{kReg, {{1}, {0}}}}, {{kO, 2}});
  auto self = z.invertAndCompose(z);
  ASSERT_OK(self);
  expectLayout(*self, {{kReg, {{1}, {2}}}}, {{kReg, 4}});
}

TEST(LinearLayout, InvertAndComposeDimOrders) {
  // A: in-dims [register, lane]; B: in-dims [lane, register] (no dim agrees, so no identity
  // dims). Least squares over B's columns in B's order: lane0 = 1, register0 = 2.
  // A's register (1) -> lane 1 -> (lane 1, register 0); A's lane (2) -> register 1.
  // C: ins in A's order, outs in B's in-dim order [lane, register].
  LinearLayout a = make({{kReg, {{1}}}, {kLane, {{2}}}}, {{kO, 4}});
  LinearLayout b = make({{kLane, {{1}}}, {kReg, {{2}}}}, {{kO, 4}});
  auto c = a.invertAndCompose(b);
  ASSERT_OK(c);
  expectLayout(*c, {{kReg, {{1, 0}}}, {kLane, {{0, 1}}}}, {{kLane, 2}, {kReg, 2}});

  // Out-dims in another order: B's outs are transposed to A's first. B: lane 1 -> dim1,
  // lane 2 -> dim0. A: register 1 -> dim0 (= lane 2), register 2 -> dim1 (= lane 1).
  LinearLayout a2 = make({{kReg, {{1, 0}, {0, 1}}}}, {{kDim0, 2}, {kDim1, 2}});
  LinearLayout b2 = make({{kLane, {{1, 0}, {0, 1}}}}, {{kDim1, 2}, {kDim0, 2}});
  auto c2 = a2.invertAndCompose(b2);
  ASSERT_OK(c2);
  expectLayout(*c2, {{kReg, {{2}, {1}}}}, {{kLane, 4}});
}

TEST(LinearLayout, InvertAndComposeErrors) {
  // Im(A) not inside Im(B): B reaches only {0, 1}; A needs 2.
  LinearLayout b = make({{kReg, {{1}, {0}}}}, {{kO, 4}});
  EXPECT_FALSE(id1(4, kLane, kO).invertAndCompose(b).ok());
  // A's out size 8 > B's 4.
  EXPECT_FALSE(id1(8, kLane, kO).invertAndCompose(id1(4, kReg, kO)).ok());
  // Out-dims differ as sets.
  EXPECT_FALSE(id1(4, kLane, kO).invertAndCompose(id1(4, kReg, kO2)).ok());
  EXPECT_FALSE(mul(id1(2, kLane, kO), id1(2, kLane, kO2)).invertAndCompose(id1(2, kReg, kO)).ok());
}

TEST(LinearLayout, Invert) {
  // register -> o swapping the bits; the inverse swaps them back: o -> register.
  LinearLayout l = make({{kReg, {{2}, {1}}}}, {{kO, 4}});
  auto inv = l.invert();
  ASSERT_OK(inv);
  expectLayout(*inv, {{kO, {{2}, {1}}}}, {{kReg, 4}});
  // Two dims each way: register -> dim1, lane -> dim0. Inverse: dim0 -> lane, dim1 -> register;
  // in-dims are L's out-dims [dim0, dim1], out-dims L's in-dims [register, lane].
  LinearLayout l2 = make({{kReg, {{0, 1}}}, {kLane, {{1, 0}}}}, {{kDim0, 2}, {kDim1, 2}});
  auto inv2 = l2.invert();
  ASSERT_OK(inv2);
  expectLayout(*inv2, {{kDim0, {{0, 1}}}, {kDim1, {{1, 0}}}}, {{kReg, 2}, {kLane, 2}});
  auto back = inv2->invert();
  ASSERT_OK(back);
  EXPECT_TRUE(*back == l2);
  // Not invertible: an error, not a crash.
  auto z = LinearLayout::zeros1D(2, kReg, kO, 2);
  ASSERT_OK(z);
  EXPECT_FALSE(z->invert().ok());
  auto s = LinearLayout::strided1D(2, 2, kReg, kO);
  ASSERT_OK(s);
  EXPECT_FALSE(s->invert().ok());
  EXPECT_FALSE(make({{kReg, {{1}, {2}, {0}}}}, {{kO, 4}}).invert().ok());
}

TEST(LinearLayout, PseudoinvertPicksTheSmallestPreimage) {
  // L: register [1], [1], [2] -> o (size 4), surjective. pseudoinvert =
  // identity1D(4, o, o).invertAndCompose(L): columns 1 (pivot), 1 (free), 2 (pivot).
  //   o = 1 -> register 1   (preimages {1, 2}: smallest 1)
  //   o = 2 -> register 4   (preimages {4, 7}: smallest 4)
  LinearLayout l = make({{kReg, {{1}, {1}, {2}}}}, {{kO, 4}});
  auto p = l.pseudoinvert();
  ASSERT_OK(p);
  expectLayout(*p, {{kO, {{1}, {4}}}}, {{kReg, 8}});
  // Broadcast dims: lane is all zero, so every output comes from register alone.
  LinearLayout b = make({{kLane, {{0}, {0}}}, {kReg, {{1}, {2}}}}, {{kO, 4}});
  auto pb = b.pseudoinvert();
  ASSERT_OK(pb);
  expectLayout(*pb, {{kO, {{0, 1}, {0, 2}}}}, {{kLane, 4}, {kReg, 4}});
  // Not surjective: an error.
  EXPECT_FALSE(make({{kReg, {{1}, {1}}}}, {{kO, 4}}).pseudoinvert().ok());
}

// =================================================================================================
// transpose, reshape, flatten
// =================================================================================================

TEST(LinearLayout, Transpose) {
  LinearLayout l = make({{kReg, {{1, 2}}}, {kLane, {{0, 1}}}}, {{kDim0, 2}, {kDim1, 4}});
  // transposeOuts permutes the dims and the components of every basis.
  std::vector<DimName> outs = {kDim1, kDim0};
  auto t = l.transposeOuts(outs);
  ASSERT_OK(t);
  expectLayout(*t, {{kReg, {{2, 1}}}, {kLane, {{1, 0}}}}, {{kDim1, 4}, {kDim0, 2}});
  std::vector<DimName> ins = {kLane, kReg};
  auto ti = l.transposeIns(ins);
  ASSERT_OK(ti);
  expectLayout(*ti, {{kLane, {{0, 1}}}, {kReg, {{1, 2}}}}, {{kDim0, 2}, {kDim1, 4}});
  std::vector<DimName> missing = {kLane}, extra = {kLane, kReg, kWarp}, twice = {kReg, kReg};
  EXPECT_FALSE(l.transposeIns(missing).ok());
  EXPECT_FALSE(l.transposeIns(extra).ok());
  EXPECT_FALSE(l.transposeIns(twice).ok());
  EXPECT_FALSE(l.transposeOuts(std::vector<DimName>{kDim0}).ok());
}

TEST(LinearLayout, ReshapeIns) {
  // All bases in order: register [1], [2]; lane [4], [8], [16]. Cut into x (8) and y (4):
  // x [1], [2], [4]; y [8], [16].
  LinearLayout l = mul(id1(4, kReg, kO), id1(8, kLane, kO));
  std::vector<DimSize> to = {{D("x"), 8}, {D("y"), 4}};
  auto r = l.reshapeIns(to);
  ASSERT_OK(r);
  expectLayout(*r, {{D("x"), {{1}, {2}, {4}}}, {D("y"), {{8}, {16}}}}, {{kO, 32}});
  // Size-1 dims may appear.
  std::vector<DimSize> withOne = {{D("x"), 1}, {D("y"), 32}};
  auto r1 = l.reshapeIns(withOne);
  ASSERT_OK(r1);
  expectLayout(*r1, {{D("x"), {}}, {D("y"), {{1}, {2}, {4}, {8}, {16}}}}, {{kO, 32}});
  // Wrong total, or not a power of two.
  EXPECT_FALSE(l.reshapeIns(std::vector<DimSize>{{D("x"), 16}}).ok());
  EXPECT_FALSE(l.reshapeIns(std::vector<DimSize>{{D("x"), 8}, {D("y"), 3}}).ok());
}

TEST(LinearLayout, ReshapeOuts) {
  // identity1D(32) flattened outputs 1, 2, 4, 8, 16 split into a (4) and b (8): value v ->
  // (v % 4, v / 4).
  LinearLayout l = id1(32, kI, kO);
  std::vector<DimSize> to = {{D("a"), 4}, {D("b"), 8}};
  auto r = l.reshapeOuts(to);
  ASSERT_OK(r);
  expectLayout(*r, {{kI, {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}}}, {{D("a"), 4}, {D("b"), 8}});
  EXPECT_FALSE(l.reshapeOuts(std::vector<DimSize>{{D("a"), 4}}).ok());
  EXPECT_FALSE(l.reshapeOuts(std::vector<DimSize>{{D("a"), 4}, {D("b"), 6}}).ok());
}

TEST(LinearLayout, Flatten) {
  // flattenOuts: (a, b) over sizes (4, 8) -> a + 4 b, one dim named like the first: dim0 (32).
  LinearLayout l = make({{kReg, {{1, 0}, {0, 1}, {3, 2}}}}, {{kDim0, 4}, {kDim1, 8}});
  auto fo = l.flattenOuts();
  ASSERT_OK(fo);
  expectLayout(*fo, {{kReg, {{1}, {4}, {11}}}}, {{kDim0, 32}});
  // flattenIns: register [1], lane [2] -> register [1], [2].
  LinearLayout m = make({{kReg, {{1}}}, {kLane, {{2}}}}, {{kO, 4}});
  auto fi = m.flattenIns();
  ASSERT_OK(fi);
  expectLayout(*fi, {{kReg, {{1}, {2}}}}, {{kO, 4}});
}

// =================================================================================================
// sublayout and friends
// =================================================================================================

TEST(LinearLayout, Sublayout) {
  LinearLayout l =
      make({{kReg, {{1, 0}, {0, 1}}}, {kLane, {{2, 0}, {0, 0}}}}, {{kDim0, 4}, {kDim1, 2}});
  // Keep lane and dim0: lane's bases restricted to dim0; dim0 keeps its size 4.
  std::vector<DimName> ins = {kLane}, outs = {kDim0};
  auto s = l.sublayout(ins, outs);
  ASSERT_OK(s);
  expectLayout(*s, {{kLane, {{2}, {0}}}}, {{kDim0, 4}});
  EXPECT_FALSE(s->isSurjective());
  // The arguments' order does not matter: the original order is kept.
  std::vector<DimName> allIns = {kLane, kReg}, allOuts = {kDim1, kDim0};
  auto all = l.sublayout(allIns, allOuts);
  ASSERT_OK(all);
  EXPECT_TRUE(*all == l);
  // No in-dims at all.
  std::vector<DimName> none;
  auto onlyOuts = l.sublayout(none, outs);
  ASSERT_OK(onlyOuts);
  expectLayout(*onlyOuts, {}, {{kDim0, 4}});

  // sublayoutIsZero: lane -> dim1 is (0, 0); register -> dim1 is not.
  std::vector<DimName> dim1 = {kDim1}, reg = {kReg};
  auto z1 = l.sublayoutIsZero(ins, dim1);
  ASSERT_OK(z1);
  EXPECT_TRUE(*z1);
  auto z2 = l.sublayoutIsZero(reg, dim1);
  ASSERT_OK(z2);
  EXPECT_FALSE(*z2);
}

TEST(LinearLayout, SquareSublayoutIsIdentity) {
  DimName a = D("a"), b = D("b");
  LinearLayout l = mul(id1(4, a, a), id1(2, b, b));
  for (std::vector<DimName> dims : {std::vector<DimName>{a}, {b}, {a, b}}) {
    auto r = l.squareSublayoutIsIdentity(dims);
    ASSERT_OK(r);
    EXPECT_TRUE(*r);
  }
  // Bits swapped: not the identity.
  std::vector<DimName> justA = {a};
  auto swapped = make({{a, {{2}, {1}}}}, {{a, 4}}).squareSublayoutIsIdentity(justA);
  ASSERT_OK(swapped);
  EXPECT_FALSE(*swapped);
  // In size 2, out size 4: not square.
  auto rect = make({{a, {{1}}}}, {{a, 4}}).squareSublayoutIsIdentity(justA);
  ASSERT_OK(rect);
  EXPECT_FALSE(*rect);
}

TEST(LinearLayout, IsTrivialOverAndQuotient) {
  // identity1D(4, register, dim0) * identity1D(2, block, block): block -> block is the
  // identity, nothing else touches block: trivial; quotient = the register -> dim0 part.
  LinearLayout l = mul(id1(4, kReg, kDim0), id1(2, kBlock, kBlock));
  std::vector<DimName> block = {kBlock};
  auto t = l.isTrivialOver(block);
  ASSERT_OK(t);
  EXPECT_TRUE(*t);
  auto q = l.quotient(block);
  ASSERT_OK(q);
  ASSERT_TRUE(q->has_value());
  EXPECT_TRUE(**q == id1(4, kReg, kDim0)) << (*q)->toString();

  // block also moves dim0 (a cross term out of block): not trivial, quotient nullopt.
  LinearLayout cross =
      make({{kReg, {{1, 0}, {2, 0}}}, {kBlock, {{1, 1}}}}, {{kDim0, 4}, {kBlock, 2}});
  auto t2 = cross.isTrivialOver(block);
  ASSERT_OK(t2);
  EXPECT_FALSE(*t2);
  auto q2 = cross.quotient(block);
  ASSERT_OK(q2);
  EXPECT_FALSE(q2->has_value());
  // register moves block (a cross term into block).
  LinearLayout into =
      make({{kReg, {{1, 1}, {2, 0}}}, {kBlock, {{0, 1}}}}, {{kDim0, 4}, {kBlock, 2}});
  auto t3 = into.isTrivialOver(block);
  ASSERT_OK(t3);
  EXPECT_FALSE(*t3);
  // block broadcast (not the identity).
  LinearLayout bc = make({{kReg, {{1, 0}, {2, 0}}}, {kBlock, {{0, 0}}}}, {{kDim0, 4}, {kBlock, 2}});
  auto t4 = bc.isTrivialOver(block);
  ASSERT_OK(t4);
  EXPECT_FALSE(*t4);
  auto q4 = bc.quotient(block);
  ASSERT_OK(q4);
  EXPECT_FALSE(q4->has_value());
}

TEST(LinearLayout, ConcatIns) {
  // Both have register; "an existing name keeps this layout's bases": register stays [1], [2];
  // lane is appended.
  LinearLayout a = id1(4, kReg, kO);
  LinearLayout b = make({{kReg, {{3}, {3}}}, {kLane, {{1}, {2}}}}, {{kO, 4}});
  auto c = a.concatIns(b);
  ASSERT_OK(c);
  expectLayout(*c, {{kReg, {{1}, {2}}}, {kLane, {{1}, {2}}}}, {{kO, 4}});
  // Out sizes must agree.
  EXPECT_FALSE(a.concatIns(make({{kLane, {{1}}}}, {{kO, 8}})).ok());
  EXPECT_FALSE(a.concatIns(make({{kLane, {{1}}}}, {{kO2, 4}})).ok());
}

TEST(LinearLayout, ConcatOuts) {
  // Components appended, out-dims = this then other.
  LinearLayout a = id1(4, kReg, kDim0);
  LinearLayout b = make({{kReg, {{0}, {1}}}}, {{kDim1, 2}});
  auto c = a.concatOuts(b);
  ASSERT_OK(c);
  expectLayout(*c, {{kReg, {{1, 0}, {2, 1}}}}, {{kDim0, 4}, {kDim1, 2}});
  // In-dims must agree (names and sizes).
  EXPECT_FALSE(a.concatOuts(make({{kReg, {{1}}}}, {{kDim1, 2}})).ok());
  EXPECT_FALSE(a.concatOuts(make({{kLane, {{0}, {1}}}}, {{kDim1, 2}})).ok());
}

// =================================================================================================
// Free variables, consecutive runs, resize, rename
// =================================================================================================

TEST(LinearLayout, FreeVariableMasks) {
  // Columns in order: register 1, 1, 0, 2; lane 3.
  //   r0 = 1: pivot. r1 = 1 = r0: free. r2 = 0: free. r3 = 2: pivot. lane0 = 3 = r0 ^ r3: free.
  // register mask 0b0110 = 6, lane mask 1.
  LinearLayout l = make({{kReg, {{1}, {1}, {0}, {2}}}, {kLane, {{3}}}}, {{kO, 4}});
  auto m = l.freeVariableMasks();
  EXPECT_EQ(m, (std::vector<std::pair<DimName, uint64_t>>{{kReg, 6}, {kLane, 1}}));
  // Identity: no free bits; zeros: all free; a size-1 dim has mask 0.
  EXPECT_EQ(mul(id1(8, kReg, kO), id1(1, kLane, kO)).freeVariableMasks(),
            (std::vector<std::pair<DimName, uint64_t>>{{kReg, 0}, {kLane, 0}}));
  auto z = LinearLayout::zeros1D(8, kReg, kO, 4);
  ASSERT_OK(z);
  EXPECT_EQ(z->freeVariableMasks(), (std::vector<std::pair<DimName, uint64_t>>{{kReg, 7}}));
}

TEST(LinearLayout, NumConsecutiveInOut) {
  // 1 << min(#leading bases equal to (2^i, 0, ..), ctz(OR of the first component of every other
  // basis)).
  // identity1D(8): 3 leading bases, no other bases: 8.
  EXPECT_EQ(id1(8, kReg, kDim0).numConsecutiveInOut(), 8u);
  // register (1,0), (2,0), (0,1), (8,0); lane (4,0): leading 2 (the third is (0,1), not (4,0)).
  // Others' first components: 0 | 8 | 4 = 12, ctz 2. min(2, 2) = 2 -> 4.
  LinearLayout l = make({{kReg, {{1, 0}, {2, 0}, {0, 1}, {8, 0}}}, {kLane, {{4, 0}}}},
                        {{kDim0, 16}, {kDim1, 2}});
  EXPECT_EQ(l.numConsecutiveInOut(), 4u);
  // lane (2, 0) instead: others 0 | 8 | 2 = 10, ctz 1 -> min(2, 1) = 1 -> 2.
  LinearLayout l2 = make({{kReg, {{1, 0}, {2, 0}, {0, 1}, {8, 0}}}, {kLane, {{2, 0}}}},
                         {{kDim0, 16}, {kDim1, 2}});
  EXPECT_EQ(l2.numConsecutiveInOut(), 2u);
  // register (1,0), (2,0), (0,1): leading 2; the other basis has first component 0 (OR = 0):
  // 4.
  EXPECT_EQ(mul(id1(4, kReg, kDim0), id1(2, kReg, kDim1)).numConsecutiveInOut(), 4u);
  // First basis is not (1, ...): 1.
  EXPECT_EQ(make({{kReg, {{2}, {1}}}}, {{kDim0, 4}}).numConsecutiveInOut(), 1u);
  // No bases at all / empty: 1.
  EXPECT_EQ(LinearLayout::empty().numConsecutiveInOut(), 1u);
  EXPECT_EQ(id1(1, kReg, kDim0).numConsecutiveInOut(), 1u);
}

TEST(LinearLayout, ResizeOutDimZeroesRatherThanMasks) {
  // Components >= 4 become 0: 4 -> 0, 5 -> 0 (masking would give 1), 6 -> 0 (masking: 2).
  LinearLayout l = make({{kReg, {{1}, {2}, {4}, {5}, {6}}}}, {{kO, 8}});
  auto r = l.resizeOutDim(kO, 4);
  ASSERT_OK(r);
  expectLayout(*r, {{kReg, {{1}, {2}, {0}, {0}, {0}}}}, {{kO, 4}});
  EXPECT_FALSE(l.resizeOutDim(kO, 3).ok());
  EXPECT_FALSE(l.resizeOutDim(kDim0, 4).ok());
}

TEST(LinearLayout, ResizeInDimAndRemoveZeroBases) {
  // resizeInDim keeps the first log2(n) bases; out sizes unchanged, so no longer surjective.
  auto r = id1(8, kReg, kO).resizeInDim(kReg, 2);
  ASSERT_OK(r);
  expectLayout(*r, {{kReg, {{1}}}}, {{kO, 8}});
  EXPECT_FALSE(r->isSurjective());
  EXPECT_FALSE(id1(8, kReg, kO).resizeInDim(kReg, 3).ok());
  // removeZeroBasesAlongDim drops register's zero bases; lane is untouched.
  LinearLayout l = make({{kReg, {{1}, {0}, {2}, {0}}}, {kLane, {{0}}}}, {{kO, 4}});
  auto z = l.removeZeroBasesAlongDim(kReg);
  ASSERT_OK(z);
  expectLayout(*z, {{kReg, {{1}, {2}}}, {kLane, {{0}}}}, {{kO, 4}});
}

TEST(LinearLayout, RenameInDimMovesTheDimToTheEnd) {
  // Triton's MapVector erase + insert: lane, renamed thread, goes last.
  DimName thread = D("thread");
  LinearLayout l = make({{kReg, {{1}}}, {kLane, {{2}}}, {kWarp, {{4}}}}, {{kO, 8}});
  auto r = l.renameInDim(kLane, thread);
  ASSERT_OK(r);
  expectLayout(*r, {{kReg, {{1}}}, {kWarp, {{4}}}, {thread, {{2}}}}, {{kO, 8}});
  EXPECT_FALSE(l.renameInDim(kBlock, thread).ok());
}

// =================================================================================================
// Identity and text
// =================================================================================================

TEST(LinearLayout, EqualityAndHash) {
  LinearLayout a = id1(4, kReg, kO);
  EXPECT_TRUE(a == id1(4, kReg, kO));
  EXPECT_EQ(a.hash(), id1(4, kReg, kO).hash());
  EXPECT_EQ(std::hash<LinearLayout>()(a), a.hash());
  // A different out size: not ==, but equal ignoring out sizes.
  LinearLayout big = make({{kReg, {{1}, {2}}}}, {{kO, 8}});
  EXPECT_FALSE(a == big);
  EXPECT_TRUE(a.equalIgnoringOutDimSizes(big));
  // A size-1 in-dim counts.
  LinearLayout withLane = make({{kReg, {{1}, {2}}}, {kLane, {}}}, {{kO, 4}});
  EXPECT_FALSE(a == withLane);
  EXPECT_FALSE(a.equalIgnoringOutDimSizes(withLane));
  // In-dim order counts.
  LinearLayout rl = make({{kReg, {{1}}}, {kLane, {{2}}}}, {{kO, 4}});
  LinearLayout lr = make({{kLane, {{2}}}, {kReg, {{1}}}}, {{kO, 4}});
  EXPECT_FALSE(rl == lr);
  // Out-dim order counts.
  LinearLayout o12 = make({{kReg, {{1, 0}}}}, {{kDim0, 2}, {kDim1, 2}});
  LinearLayout o21 = make({{kReg, {{0, 1}}}}, {{kDim1, 2}, {kDim0, 2}});
  EXPECT_FALSE(o12 == o21);
  EXPECT_FALSE(o12.equalIgnoringOutDimSizes(o21));
}

// operator== compares packed words (bases, then shape keys). Each pair below agrees on the
// totals, and most on the basis words too, so only the dims can tell them apart. The model is
// the definition: the same in-dims with the same bases, and the same out-dims with the same sizes.
TEST(LinearLayout, EqualityMatchesTheDimsAndBasesOnLayoutsThatShareTheirWords) {
  const uint64_t big = uint64_t{1} << 40;
  auto cases = [&] {
    return std::vector<LinearLayout>{
        LinearLayout(),
        make({{kReg, {}}}, {}),         // a size-1 in-dim, no out-dims
        make({}, {{kO, 1}}),            // a size-1 out-dim, no in-dims
        make({{kReg, {}}}, {{kO, 1}}),  // both
        make({{kLane, {}}}, {{kO, 1}}), // another in-dim name
        make({{kReg, {{1}, {2}}}, {kLane, {{4}}}}, {{kO, 8}}),
        make({{kReg, {{1}}}, {kLane, {{2}, {4}}}}, {{kO, 8}}),              // bases split 1 + 2
        make({{kLane, {{1}, {2}}}, {kReg, {{4}}}}, {{kO, 8}}),              // names swapped
        make({{kReg, {{1}, {2}}}, {kLane, {{4}}}, {kWarp, {}}}, {{kO, 8}}), // + size-1 in-dim
        make({{kReg, {{1, 0}, {2, 0}}}, {kLane, {{4, 0}}}},
             {{kO, 8}, {kO2, 1}}),                              // + size-1 out-dim
        make({{kReg, {{1}, {2}}}, {kLane, {{4}}}}, {{kO2, 8}}), // out-dim renamed
        make({{kReg, {{1}, {2}}}, {kLane, {{3}}}}, {{kO, 8}}),  // one basis differs
        make({{kReg, {{1, 0}, {2, 0}}}, {kLane, {{0, 1}}}}, {{kO, 4}, {kO2, 2}}), // same words
        make({{kReg, {{1, 0}, {0, 1}}}, {kLane, {{0, 2}}}}, {{kO, 2}, {kO2, 4}}), // same words
        // Two in-dims and one out-dim against one in-dim and two out-dims: the same totals,
        // basis words and number of keys; only the dim counts differ.
        make({{kReg, {{1}}}, {kLane, {{2}}}}, {{kO, 4}}),
        make({{kReg, {{1, 0}, {0, 1}}}}, {{kO, 2}, {kO2, 2}}),
        // The same (name, size) sequence across both sides, split after lane or before it: only
        // the dim counts tell these two apart (an in-dim and an out-dim may share a name).
        make({{kReg, {{1}}}, {kLane, {}}}, {{kO, 2}}),
        make({{kReg, {{0, 1}}}}, {{kLane, 1}, {kO, 2}}),
        // Two words per basis (80 out bits); the second pair differs only in the high word.
        make({{kReg, {{1, 0}, {0, big}}}}, {{kO, big}, {kO2, 2 * big}}),
        make({{kReg, {{1, 0}, {0, big / 2}}}}, {{kO, big}, {kO2, 2 * big}}),
    };
  };
  const std::vector<LinearLayout> first = cases(), second = cases();
  for (size_t i = 0; i < first.size(); ++i)
    for (size_t j = 0; j < second.size(); ++j) {
      const LinearLayout &a = first[i], &b = second[j];
      const bool same = a.inDims() == b.inDims() && a.outDims() == b.outDims();
      EXPECT_EQ(same, i == j) << "cases " << i << " and " << j << " are not distinct";
      EXPECT_EQ(a == b, same) << "cases " << i << " and " << j;
      if (same) {
        EXPECT_EQ(a.hash(), b.hash()) << "case " << i;
      }
    }
}

TEST(LinearLayout, ToString) {
  // " - <in>=1 -> (a, b)", "\n   <in>=2 -> (..)", then "\n"; a size-1 dim prints
  // " - <in> is a size 1 dimension\n"; last "where out dims are: [..]".
  LinearLayout l = mul(id1(4, kReg, kDim0), id1(1, kLane, kDim1));
  EXPECT_EQ(l.toString(), "\n - register=1 -> (1, 0)\n   register=2 -> (2, 0)\n"
                          " - lane is a size 1 dimension\n"
                          "where out dims are: [dim0 (size 4), dim1 (size 1)]");
  EXPECT_EQ(id1(1, kReg, kDim0).toString(),
            "\n - register is a size 1 dimension\nwhere out dims are: [dim0 (size 1)]");
  // Labels are 1 << i; components are decimal.
  EXPECT_EQ(make({{kLane, {{0}, {5}, {0}, {12}}}}, {{kO, 16}}).toString(),
            "\n - lane=1 -> (0)\n   lane=2 -> (5)\n   lane=4 -> (0)\n   lane=8 -> (12)\n"
            "where out dims are: [o (size 16)]");
  // No in-dims.
  EXPECT_EQ(LinearLayout::empty().toString(), "\n(empty layout)");
  EXPECT_EQ(make({}, {{kDim0, 4}}).toString(), "\n(empty layout with out-dims [dim0 (size 4)])");
  EXPECT_EQ(make({}, {{kDim0, 4}, {kDim1, 1}}).toString(),
            "\n(empty layout with out-dims [dim0 (size 4), dim1 (size 1)])");
  // No out-dims: empty component lists.
  EXPECT_EQ(make({{kReg, {{}, {}}}}, {}).toString(),
            "\n - register=1 -> ()\n   register=2 -> ()\nwhere out dims are: []");
}

// =================================================================================================
// divideLeft, divideRight
// =================================================================================================

TEST(LinearLayout, DivideLeft) {
  // B = identity1D(4, register, o); C0 = identity1D(2, register, o) * identity1D(8, lane, o)
  //   = register [1]; lane [2], [4], [8]; o 16.
  // A = B * C0: register [1], [2], then [1] << 2 = [4]; lane [2, 4, 8] << 2 = [8], [16], [32];
  //   o 64.
  LinearLayout b = id1(4, kReg, kO);
  LinearLayout c0 = mul(id1(2, kReg, kO), id1(8, kLane, kO));
  LinearLayout a = mul(b, c0);
  expectLayout(a, {{kReg, {{1}, {2}, {4}}}, {kLane, {{8}, {16}, {32}}}}, {{kO, 64}});
  // divideLeft: register's first 2 bases equal B's; the rest have zero low 2 bits: >> 2.
  auto c = divideLeft(a, b);
  ASSERT_OK(c);
  ASSERT_TRUE(c->has_value());
  expectLayout(**c, {{kReg, {{1}}}, {kLane, {{2}, {4}, {8}}}}, {{kO, 16}});
  EXPECT_TRUE(mul(b, **c) == a);

  // B over a lane prefix that A does not have (A's lane starts [8], [16]): nullopt.
  auto none = divideLeft(a, id1(4, kLane, kO));
  ASSERT_OK(none);
  EXPECT_FALSE(none->has_value());
  // A remaining basis with a nonzero low bit: register [1], [3] / identity1D(2): [3] & 1 != 0.
  auto odd = divideLeft(make({{kReg, {{1}, {3}}}}, {{kO, 4}}), id1(2, kReg, kO));
  ASSERT_OK(odd);
  EXPECT_FALSE(odd->has_value());

  // Out-dims that B lacks: A = identity1D(2, register, dim1) * identity1D(4, register, dim0):
  // register (1,0), (0,1), (0,2) over [dim1 (2), dim0 (4)]. By B = identity1D(2, register,
  // dim1): the first basis (1, 0) is B's (0 where B lacks dim0); the rest (0,1), (0,2) have no
  // dim1 bits. C keeps A's dims: register (0,1), (0,2) over [dim1 (1), dim0 (4)].
  LinearLayout a2 = mul(id1(2, kReg, kDim1), id1(4, kReg, kDim0));
  LinearLayout b2 = id1(2, kReg, kDim1);
  auto c2 = divideLeft(a2, b2);
  ASSERT_OK(c2);
  ASSERT_TRUE(c2->has_value());
  expectLayout(**c2, {{kReg, {{0, 1}, {0, 2}}}}, {{kDim1, 1}, {kDim0, 4}});
  EXPECT_TRUE(mul(b2, **c2) == a2);
}

TEST(LinearLayout, DivideRight) {
  // C0 = identity1D(8, lane, o), B = identity1D(4, register, o). A = C0 * B:
  //   lane [1], [2], [4]; register [1, 2] << 3 = [8], [16]; o 32.
  LinearLayout b = id1(4, kReg, kO);
  LinearLayout a = mul(id1(8, kLane, kO), b);
  expectLayout(a, {{kLane, {{1}, {2}, {4}}}, {kReg, {{8}, {16}}}}, {{kO, 32}});
  // divideRight: C's out size 32 / 4 = 8; register's last 2 bases are B's shifted by log2 8;
  // the rest (lane's) are below 8. C keeps A's dims: register is left with no bases.
  auto c = divideRight(a, b);
  ASSERT_OK(c);
  ASSERT_TRUE(c->has_value());
  expectLayout(**c, {{kLane, {{1}, {2}, {4}}}, {kReg, {}}}, {{kO, 8}});
  EXPECT_TRUE(mul(**c, b) == a);

  // B = identity1D(4, lane, o): A's last lane bases [2], [4] are not [1, 2] << 3: nullopt.
  auto none = divideRight(a, id1(4, kLane, kO));
  ASSERT_OK(none);
  EXPECT_FALSE(none->has_value());
  // A leading basis too large for C: register [2], [2] by identity1D(2): the last basis is B's
  // [1] << log2(4 / 2), but C's out size is 2 and its basis 2 >= 2.
  auto big = divideRight(make({{kReg, {{2}, {2}}}}, {{kO, 4}}), id1(2, kReg, kO));
  ASSERT_OK(big);
  EXPECT_FALSE(big->has_value());
}

// Triton aborts when its identity-dim heuristic claims a dim that the rest of A needs; we fall back
// to plain least squares. L: dim0=1 -> (1,0), dim0=2 -> (2,0), "my in"=1 -> (2,1) is invertible
// (rank 3 = 3 in bits = 3 out bits). identity.invertAndCompose(L) first maps identity's dim0 to L's
// dim0 (same bases) and then cannot reach (0,1) without dim0; least squares over all dims gives
// the inverse: (1,0) -> dim0=1, (2,0) -> dim0=2, (0,1) = (2,1)^(2,0) -> "my in"=1 ^ dim0=2.
TEST(LinearLayout, InvertFallsBackWhenTheIdentityHeuristicDeadEnds) {
  const DimName myIn = D("my in"), dim3 = D("dim3");
  LinearLayout l = make({{kDim0, {{1, 0}, {2, 0}}}, {myIn, {{2, 1}}}}, {{kDim0, 4}, {dim3, 2}});
  ASSERT_TRUE(l.isInvertible());
  auto inv = l.invert();
  ASSERT_OK(inv);
  expectLayout(*inv, {{kDim0, {{1, 0}, {2, 0}}}, {dim3, {{2, 1}}}}, {{kDim0, 4}, {myIn, 2}});
  // A = register:(1), f:(1); B = register:(1), lane:(2), invertible. The heuristic maps register
  // to itself, leaving f's (1) unreachable by lane; least squares gives f -> register=1.
  const DimName f = D("f");
  LinearLayout a = make({{kReg, {{1}}}, {f, {{1}}}}, {{kO, 4}});
  LinearLayout b = make({{kReg, {{1}}}, {kLane, {{2}}}}, {{kO, 4}});
  auto c = a.invertAndCompose(b);
  ASSERT_OK(c);
  expectLayout(*c, {{kReg, {{1, 0}}}, {f, {{1, 0}}}}, {{kReg, 2}, {kLane, 2}});
}

} // namespace

// applyNamed (no allocation) agrees with the named apply, including its errors, on the packed
// path and on a wide (> 64 out bits) layout.
TEST(LinearLayout, ApplyNamedMatchesApply) {
  const DimName a("a"), b("b"), x("x"), y("y");
  auto narrow = LinearLayout::create({{a, {{1, 2}, {3, 0}}}, {b, {{0, 1}}}}, {{x, 4}, {y, 4}});
  auto wide = LinearLayout::create({{a, {{uint64_t{1} << 40, 3}}}, {b, {{5, uint64_t{1} << 50}}}},
                                   {{x, uint64_t{1} << 41}, {y, uint64_t{1} << 51}});
  ASSERT_OK(narrow);
  ASSERT_OK(wide);
  for (const LinearLayout* l : {&*narrow, &*wide}) {
    const std::vector<Named> inputs = {
        {{a, 3}, {b, 1}}, {{b, 7}, {a, 2}}, {{a, 1}}, {{a, 1}, {a, 2}, {b, 0}}, {{a, 1}, {x, 0}}};
    for (const Named& in : inputs) {
      Named out(size_t(l->numOutDims()));
      auto got = l->applyNamed(in, out);
      auto want = l->apply(std::span<const std::pair<DimName, uint64_t>>(in));
      ASSERT_EQ(got.ok(), want.ok());
      if (want.ok())
        EXPECT_EQ(out, *want);
      else
        EXPECT_EQ(got.error().message, want.error().message);
    }
    Named tooShort(1);
    EXPECT_FALSE(l->applyNamed(Named{{a, 0}, {b, 0}}, tooShort).ok());
  }
}
