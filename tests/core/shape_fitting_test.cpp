// ensureLayoutNotLargerThan / ensureLayoutNotSmallerThan / identityStandardND, with expectations
// derived by hand from docs/reference/triton-linear-layout.md sections 3 and 5.1.
#include "layout/core/shape_fitting.h"

#include <gtest/gtest.h>

#include "support/layout_expectations.h"

#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using layout::DimName;
using layout::DimSize;
using layout::InDimBases;
using layout::LinearLayout;

const DimName kReg("register"), kLane("lane"), kWarp("warp"), kOffset("offset");
const DimName kDim0("dim0"), kDim1("dim1"), kDim2("dim2");

using layout_test::describe;
using layout_test::expectLayout;
using layout_test::make;

#define ASSERT_OK(e) ASSERT_TRUE((e).ok()) << (e).error().message

// =================================================================================================
// ensureLayoutNotLargerThan
// =================================================================================================

TEST(ShapeFitting, NotLargerThanBroadcastsTheHighestBases) {
  // register [1], [2]; lane [4], [8], [16] over dim0 (32). To 8: components >= 8 become 0, so
  // lanes 2 and 4 broadcast; dim0 shrinks to 8 (still covered by 1, 2, 4).
  LinearLayout l = make({{kReg, {{1}, {2}}}, {kLane, {{4}, {8}, {16}}}}, {{kDim0, 32}});
  std::vector<DimSize> shape = {{kDim0, 8}};
  auto r = layout::ensureLayoutNotLargerThan(l, shape);
  ASSERT_OK(r);
  expectLayout(*r, {{kReg, {{1}, {2}}}, {kLane, {{4}, {0}, {0}}}}, {{kDim0, 8}});
  EXPECT_TRUE(r->isSurjective());
}

TEST(ShapeFitting, NotLargerThanMatchesShapeByName) {
  // register (0,1), (0,2); lane (0,4), (1,0), (2,0) over [dim0 (4), dim1 (8)]. Shape given as
  // dim1 = 4, dim0 = 2 (matched by name): dim1 components >= 4 -> 0 ((0,4) -> (0,0)); dim0
  // components >= 2 -> 0 ((2,0) -> (0,0)).
  LinearLayout l =
      make({{kReg, {{0, 1}, {0, 2}}}, {kLane, {{0, 4}, {1, 0}, {2, 0}}}}, {{kDim0, 4}, {kDim1, 8}});
  std::vector<DimSize> shape = {{kDim1, 4}, {kDim0, 2}};
  auto r = layout::ensureLayoutNotLargerThan(l, shape);
  ASSERT_OK(r);
  expectLayout(*r, {{kReg, {{0, 1}, {0, 2}}}, {kLane, {{0, 0}, {1, 0}, {0, 0}}}},
               {{kDim0, 2}, {kDim1, 4}});
}

TEST(ShapeFitting, NotLargerThanWithoutBroadcastingRegisters) {
  // register [1], [2], [4]; lane [8] over dim0 (16), to 4. broadcastRegisters = true: register
  // [4] and lane [8] become 0. broadcastRegisters = false: the register basis [4] is dropped
  // instead; lane [8] still becomes 0.
  LinearLayout l = make({{kReg, {{1}, {2}, {4}}}, {kLane, {{8}}}}, {{kDim0, 16}});
  std::vector<DimSize> shape = {{kDim0, 4}};
  auto bc = layout::ensureLayoutNotLargerThan(l, shape, true);
  ASSERT_OK(bc);
  expectLayout(*bc, {{kReg, {{1}, {2}, {0}}}, {kLane, {{0}}}}, {{kDim0, 4}});
  auto drop = layout::ensureLayoutNotLargerThan(l, shape, false);
  ASSERT_OK(drop);
  expectLayout(*drop, {{kReg, {{1}, {2}}}, {kLane, {{0}}}}, {{kDim0, 4}});
}

TEST(ShapeFitting, NotLargerThanZeroesWholeComponents) {
  // "Zeros every basis component that is >= the desired size": 5 >= 4 becomes 0 (not 5 & 3).
  LinearLayout l = make({{kReg, {{1}, {2}, {5}}}}, {{kDim0, 8}});
  std::vector<DimSize> shape = {{kDim0, 4}};
  auto r = layout::ensureLayoutNotLargerThan(l, shape);
  ASSERT_OK(r);
  expectLayout(*r, {{kReg, {{1}, {2}, {0}}}}, {{kDim0, 4}});
}

TEST(ShapeFitting, NotLargerThanSameShapeIsUnchanged) {
  LinearLayout l = make({{kReg, {{1, 0}}}, {kLane, {{0, 1}, {2, 0}}}}, {{kDim0, 4}, {kDim1, 2}});
  std::vector<DimSize> shape = {{kDim0, 4}, {kDim1, 2}};
  auto r = layout::ensureLayoutNotLargerThan(l, shape);
  ASSERT_OK(r);
  EXPECT_TRUE(*r == l);
}

// =================================================================================================
// ensureLayoutNotSmallerThan
// =================================================================================================

TEST(ShapeFitting, NotSmallerThanRepeatsInRegisters) {
  // register (1,0); lane (2,0), (0,1) over [dim0 (4), dim1 (2)], to dim0 16, dim1 4.
  // Out-dims in layout order: dim0 first: * identity1D(4, register, dim0) appends register
  // bases [1], [2] shifted past dim0's 4: (4,0), (8,0); then dim1: * identity1D(2, register,
  // dim1) appends (0, 1 << 1) = (0,2).
  LinearLayout l = make({{kReg, {{1, 0}}}, {kLane, {{2, 0}, {0, 1}}}}, {{kDim0, 4}, {kDim1, 2}});
  std::vector<DimSize> shape = {{kDim0, 16}, {kDim1, 4}};
  auto r = layout::ensureLayoutNotSmallerThan(l, shape);
  ASSERT_OK(r);
  expectLayout(*r, {{kReg, {{1, 0}, {4, 0}, {8, 0}, {0, 2}}}, {kLane, {{2, 0}, {0, 1}}}},
               {{kDim0, 16}, {kDim1, 4}});
}

TEST(ShapeFitting, NotSmallerThanGrowsInOutDimOrder) {
  // Out-dims [dim1, dim0], both size 1, to dim0 2, dim1 4: dim1 grows first (2 register bases),
  // then dim0 (1 register basis). Components are in [dim1, dim0] order.
  LinearLayout l = make({{kReg, {}}}, {{kDim1, 1}, {kDim0, 1}});
  std::vector<DimSize> shape = {{kDim0, 2}, {kDim1, 4}};
  auto r = layout::ensureLayoutNotSmallerThan(l, shape);
  ASSERT_OK(r);
  expectLayout(*r, {{kReg, {{1, 0}, {2, 0}, {0, 1}}}}, {{kDim1, 4}, {kDim0, 2}});
}

TEST(ShapeFitting, NotSmallerThanFirstInDim) {
  // offset is allowed as the first in-dim: identity1D(4, offset, dim0) to 16 -> identity over 16.
  auto o = LinearLayout::identity1D(4, kOffset, kDim0);
  ASSERT_OK(o);
  std::vector<DimSize> shape = {{kDim0, 16}};
  auto r = layout::ensureLayoutNotSmallerThan(*o, shape);
  ASSERT_OK(r);
  expectLayout(*r, {{kOffset, {{1}, {2}, {4}, {8}}}}, {{kDim0, 16}});
  // A first in-dim other than register / offset: an error.
  auto lane = LinearLayout::identity1D(4, kLane, kDim0);
  ASSERT_OK(lane);
  EXPECT_FALSE(layout::ensureLayoutNotSmallerThan(*lane, shape).ok());
  // Already large enough: identity1D(8 / 16 = 0) is empty, nothing changes.
  auto big = LinearLayout::identity1D(32, kReg, kDim0);
  ASSERT_OK(big);
  auto same = layout::ensureLayoutNotSmallerThan(*big, shape);
  ASSERT_OK(same);
  EXPECT_TRUE(*same == *big);
}

// =================================================================================================
// identityStandardND
// =================================================================================================

TEST(ShapeFitting, IdentityStandardND) {
  // shape [4, 8], order [1, 0]: identity1D(8, register, dim1) * identity1D(4, register, dim0);
  // out-dims in order's order [dim1, dim0].
  std::vector<uint64_t> shape = {4, 8};
  std::vector<int> rowMajor = {1, 0}, colMajor = {0, 1};
  auto r = layout::identityStandardND(kReg, shape, rowMajor);
  ASSERT_OK(r);
  expectLayout(*r, {{kReg, {{1, 0}, {2, 0}, {4, 0}, {0, 1}, {0, 2}}}}, {{kDim1, 8}, {kDim0, 4}});
  // order [0, 1]: dim0 first.
  auto c = layout::identityStandardND(kReg, shape, colMajor);
  ASSERT_OK(c);
  expectLayout(*c, {{kReg, {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}}}, {{kDim0, 4}, {kDim1, 8}});
  // A size-1 dim stays as an out-dim of size 1.
  std::vector<uint64_t> oneByFour = {1, 4};
  auto s = layout::identityStandardND(kLane, oneByFour, colMajor);
  ASSERT_OK(s);
  expectLayout(*s, {{kLane, {{0, 1}, {0, 2}}}}, {{kDim0, 1}, {kDim1, 4}});
  // Rank 3, order [2, 0, 1]: out-dims [dim2, dim0, dim1].
  std::vector<uint64_t> cube = {2, 2, 2};
  std::vector<int> order3 = {2, 0, 1};
  auto t = layout::identityStandardND(kWarp, cube, order3);
  ASSERT_OK(t);
  expectLayout(*t, {{kWarp, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}},
               {{kDim2, 2}, {kDim0, 2}, {kDim1, 2}});
  // Not a power of two; order of the wrong length.
  std::vector<uint64_t> bad = {3, 4};
  EXPECT_FALSE(layout::identityStandardND(kReg, bad, rowMajor).ok());
  std::vector<int> shortOrder = {0};
  EXPECT_FALSE(layout::identityStandardND(kReg, shape, shortOrder).ok());
}

// =================================================================================================
// Section 5.1: fitting a CTA tile to a shape
// =================================================================================================

TEST(ShapeFitting, BlockedTileOnALargerAndSmallerShape) {
  // blocked: sizePerThread [1, 4], threadsPerWarp [8, 4], warpsPerCTA [4, 1], order [1, 0]:
  //   identityStandardND(register, [1,4]) = register (1,0), (2,0) over [dim1 (4), dim0 (1)]
  //   identityStandardND(lane, [8,4])     = lane (1,0), (2,0), (0,1), (0,2), (0,4) over
  //                                         [dim1 (4), dim0 (8)]
  //   identityStandardND(warp, [4,1])     = warp (0,1), (0,2) over [dim1 (1), dim0 (4)]
  // product: [dim1 (16), dim0 (32)]; lane shifted past register's (2 bits, 0 bits), warp past
  // (4 bits, 3 bits): register (1,0), (2,0); lane (4,0), (8,0), (0,1), (0,2), (0,4);
  // warp (0,8), (0,16).
  std::vector<int> order = {1, 0};
  std::vector<uint64_t> spt = {1, 4}, tpw = {8, 4}, wpc = {4, 1};
  auto regs = layout::identityStandardND(kReg, spt, order);
  auto lanes = layout::identityStandardND(kLane, tpw, order);
  auto warps = layout::identityStandardND(kWarp, wpc, order);
  ASSERT_OK(regs);
  ASSERT_OK(lanes);
  ASSERT_OK(warps);
  auto rl = product(*regs, *lanes);
  ASSERT_OK(rl);
  auto cta = product(*rl, *warps);
  ASSERT_OK(cta);
  expectLayout(*cta,
               {{kReg, {{1, 0}, {2, 0}}},
                {kLane, {{4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}}},
                {kWarp, {{0, 8}, {0, 16}}}},
               {{kDim1, 16}, {kDim0, 32}});
  // On a 64 x 8 tensor. Grow (out-dims in the layout's order, dim1 then dim0): dim1 16 >= 8,
  // nothing; dim0 32 -> 64: one register basis (0, 32).
  std::vector<DimSize> shape = {{kDim0, 64}, {kDim1, 8}};
  auto grown = layout::ensureLayoutNotSmallerThan(*cta, shape);
  ASSERT_OK(grown);
  expectLayout(*grown,
               {{kReg, {{1, 0}, {2, 0}, {0, 32}}},
                {kLane, {{4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}}},
                {kWarp, {{0, 8}, {0, 16}}}},
               {{kDim1, 16}, {kDim0, 64}});
  // Shrink: dim1 16 -> 8, the lane basis (8, 0) becomes (0, 0): lane 2 broadcasts.
  auto fitted = layout::ensureLayoutNotLargerThan(*grown, shape);
  ASSERT_OK(fitted);
  expectLayout(*fitted,
               {{kReg, {{1, 0}, {2, 0}, {0, 32}}},
                {kLane, {{4, 0}, {0, 0}, {0, 1}, {0, 2}, {0, 4}}},
                {kWarp, {{0, 8}, {0, 16}}}},
               {{kDim1, 8}, {kDim0, 64}});
  EXPECT_TRUE(fitted->isSurjective());
  // register 4 (the repeat, (0, 32)), lane 3 (bits 0 and 1: (4,0) ^ (0,0)), warp 1 ((0, 8)):
  // dim1 = 4, dim0 = 32 ^ 8 = 40.
  std::vector<std::pair<DimName, uint64_t>> in = {{kReg, 4}, {kLane, 3}, {kWarp, 1}};
  auto out = fitted->apply(std::span<const std::pair<DimName, uint64_t>>(in));
  ASSERT_OK(out);
  EXPECT_EQ((*out)[0].second, 4u);      // dim1
  EXPECT_EQ((*out)[1].second, 32u + 8); // dim0
}

// productOf1D against the chain of products it replaces: ((f0 * f1) * f2) * ... with Triton's
// operator* (layout::product), on random chains over 3 in-dims and 3 out-dims (sizes 1-8,
// identity or zeros), including repeated dims and size-1 factors that only fix the dim order.
TEST(ProductOf1D, EqualsTheChainOfProducts) {
  const DimName ins[] = {DimName("register"), DimName("lane"), DimName("warp")};
  const DimName outs[] = {DimName("dim0"), DimName("dim1"), DimName("dim2")};
  std::mt19937 gen(0x1D);
  for (int c = 0; c < 2000; ++c) {
    std::vector<layout::Factor1D> factors(1 + gen() % 7);
    LinearLayout chained;
    for (auto& f : factors) {
      f = {uint64_t{1} << (gen() % 4), ins[gen() % 3], outs[gen() % 3], gen() % 4 == 0};
      auto one = f.zeros ? LinearLayout::zeros1D(f.size, f.in, f.out)
                         : LinearLayout::identity1D(f.size, f.in, f.out);
      ASSERT_TRUE(one);
      auto next = layout::product(chained, *one);
      ASSERT_TRUE(next) << next.error().message;
      chained = std::move(*next);
    }
    auto direct = layout::productOf1D(factors);
    ASSERT_TRUE(direct) << direct.error().message;
    EXPECT_EQ(*direct, chained) << "case " << c << "\n"
                                << direct->toString() << "\nvs\n"
                                << chained.toString();
    if (::testing::Test::HasFailure()) break;
  }
  // A size that is not a power of two is an error naming the in-dim.
  layout::Factor1D bad[] = {{3, ins[0], outs[0]}};
  auto err = layout::productOf1D(bad);
  ASSERT_FALSE(err);
  EXPECT_EQ(err.error().message, "identity1D: size 3 of in-dim 'register' must be a power of two");
}

} // namespace
