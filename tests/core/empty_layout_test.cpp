// Every operation on degenerate layouts against Triton main: LL.cpp / LL.h / LU.cpp are
// lib/Tools/LinearLayout.cpp, include/triton/Tools/LinearLayout.h, lib/Tools/LayoutUtils.cpp at
// intel-xpu-backend-for-triton 6c1649935d (last change to them: triton #11062, 2026-07-27).
//   noIns   no in-dims, out-dims (dim0: 4, dim1: 2)            rank 0: injective, not surjective
//   noOuts  in-dims (register: 4, lane: 2), bases (), no outs  rank 0: surjective, not injective
//   empty   LinearLayout::empty()                              rank 0: invertible
//   ones    in-dims (register: 1, lane: 1), outs (dim0: 1, dim1: 1); onesSq names its ins dim0, dim1
// Where upstream asserts, reports a fatal error or has undefined behaviour, we expect an error.
#include "layout/core/linear_layout.h"
#include "layout/core/shape_fitting.h"

#include <gtest/gtest.h>

#include "support/layout_expectations.h"

#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace layout {
namespace {

using layout_test::make;
using Names = std::vector<DimName>;
using Sizes = std::vector<DimSize>;
using Named = std::vector<std::pair<DimName, uint64_t>>;

const DimName R = dims::reg(), L = dims::lane(), D0 = dims::standardOut(0),
              D1 = dims::standardOut(1), X("x"), Y("y");

const LinearLayout kNoIns = make({}, {{D0, 4}, {D1, 2}});
const LinearLayout kNoOuts = make({{R, {{}, {}}}, {L, {{}}}}, {});
const LinearLayout kEmpty = LinearLayout::empty();
const LinearLayout kOnes = make({{R, {}}, {L, {}}}, {{D0, 1}, {D1, 1}});
const LinearLayout kOnesSq = make({{D0, {}}, {D1, {}}}, {{D0, 1}, {D1, 1}});

std::string show(const LinearLayout& l) {
  return layout_test::describe(l.inDims(), l.outDims());
}

testing::AssertionResult IsLayout(const Expected<LinearLayout>& got, const LinearLayout& want) {
  if (!got) return testing::AssertionFailure() << "error: " << got.error().message;
  if (got->inDims() == want.inDims() && got->outDims() == want.outDims())
    return testing::AssertionSuccess();
  return testing::AssertionFailure() << "got" << show(*got) << "\nwant" << show(want);
}
// want == std::nullopt: expects nullopt.
testing::AssertionResult IsOpt(const Expected<std::optional<LinearLayout>>& got,
                               const std::optional<LinearLayout>& want) {
  if (!got) return testing::AssertionFailure() << "error: " << got.error().message;
  if (got->has_value() != want.has_value())
    return testing::AssertionFailure() << "got " << (got->has_value() ? show(**got) : "nullopt");
  return want ? IsLayout(**got, *want) : testing::AssertionSuccess();
}
testing::AssertionResult IsBool(const Expected<bool>& got, bool want) {
  if (!got) return testing::AssertionFailure() << "error: " << got.error().message;
  if (*got != want) return testing::AssertionFailure() << "got " << *got;
  return testing::AssertionSuccess();
}
template <typename T> testing::AssertionResult IsError(const Expected<T>& got) {
  if (!got) return testing::AssertionSuccess();
  auto f = testing::AssertionFailure() << "got a value where upstream asserts";
  if constexpr (std::is_same_v<T, LinearLayout>) f << show(*got);
  return f;
}
Named apply(const LinearLayout& l, const Named& ins) {
  auto r = l.apply(std::span<const std::pair<DimName, uint64_t>>(ins));
  if (!r) ADD_FAILURE() << "apply: " << r.error().message;
  return r ? *r : Named{};
}

#define EXPECT_LL(...) EXPECT_TRUE(IsLayout(__VA_ARGS__))
#define EXPECT_SOME(...) EXPECT_TRUE(IsOpt(__VA_ARGS__))
#define EXPECT_NONE(...) EXPECT_TRUE(IsOpt(__VA_ARGS__, std::nullopt))
#define EXPECT_BOOL(...) EXPECT_TRUE(IsBool(__VA_ARGS__))
#define EXPECT_ERR(...) EXPECT_TRUE(IsError(__VA_ARGS__))

TEST(EmptyLayout, Classification) {
  // checkInvariants (LL.cpp:217) takes rank = 0 for each; LL.h:428-433: surjective iff rank ==
  // out bits, injective iff rank == in bits, invertible iff surjective and in size == out size.
  auto cls = [](const LinearLayout& l) {
    return std::tuple(l.rank(), l.totalInDimSizeLog2(), l.totalOutDimSizeLog2(), l.isSurjective(),
                      l.isInjective(), l.isInvertible());
  };
  EXPECT_EQ(cls(kNoIns), std::tuple(0, 0, 3, false, true, false));
  EXPECT_EQ(cls(kNoOuts), std::tuple(0, 3, 0, true, false, false));
  EXPECT_EQ(cls(kEmpty), std::tuple(0, 0, 0, true, true, true));
  EXPECT_EQ(cls(kOnes), std::tuple(0, 0, 0, true, true, true));
  // Factories: size 0 returns empty() (LL.cpp:243, 260); size 1 has no bases (LL.cpp:248-253).
  EXPECT_LL(LinearLayout::zeros1D(0, R, D0, 4), kEmpty);
  EXPECT_LL(LinearLayout::strided1D(1, 4, R, D0), make({{R, {}}}, {{D0, 4}}));
}

TEST(EmptyLayout, ToStringEqualityHash) {
  // toString (LL.cpp:1285-1309): no bases -> "(empty layout[ with out-dims ..])"; a basis with no
  // components prints "()"; a size-1 dim prints "is a size 1 dimension".
  EXPECT_EQ(kNoIns.toString(), "\n(empty layout with out-dims [dim0 (size 4), dim1 (size 2)])");
  EXPECT_EQ(kNoOuts.toString(),
            "\n - register=1 -> ()\n   register=2 -> ()\n - lane=1 -> ()\nwhere out dims are: []");
  EXPECT_EQ(kEmpty.toString(), "\n(empty layout)");
  EXPECT_EQ(kOnes.toString(), "\n - register is a size 1 dimension\n - lane is a size 1 "
                              "dimension\nwhere out dims are: [dim0 (size 1), dim1 (size 1)]");
  // operator== / equalIgnoringOutDimSizes (LL.cpp:1244-1269): ordered in-dims, out names, sizes.
  EXPECT_TRUE(kEmpty == make({}, {}));
  EXPECT_EQ(kEmpty.hash(), make({}, {}).hash());
  LinearLayout wider = make({}, {{D0, 8}, {D1, 2}});
  EXPECT_FALSE(kNoIns == wider);
  EXPECT_TRUE(kNoIns.equalIgnoringOutDimSizes(wider));
  EXPECT_FALSE(kNoOuts == kEmpty);
}

TEST(EmptyLayout, Apply) {
  // apply (LL.cpp:885-901): the given dims must equal the in-dims (fatal error otherwise); one
  // pair per out-dim; only log2(size) bits of each input are read.
  EXPECT_EQ(apply(kNoIns, {}), (Named{{D0, 0}, {D1, 0}}));
  Named bad{{R, 0}};
  EXPECT_ERR(kNoIns.apply(std::span<const std::pair<DimName, uint64_t>>(bad)));
  EXPECT_EQ(apply(kNoOuts, {{L, 1}, {R, 3}}), Named{});
  EXPECT_EQ(apply(kEmpty, {}), Named{});
  EXPECT_EQ(apply(kOnes, {{R, 1}, {L, 1}}), (Named{{D0, 0}, {D1, 0}}));
}

TEST(EmptyLayout, Compose) {
  // compose (LL.cpp:903-931): this's outs == outer's ins as sets; every basis goes through
  // outer.apply; the out-dims are outer's.
  auto outer = product(*LinearLayout::identity1D(4, D0, X), *LinearLayout::identity1D(2, D1, Y));
  EXPECT_LL(kNoIns.compose(*outer), make({}, {{X, 4}, {Y, 2}}));
  EXPECT_ERR(kNoIns.compose(*LinearLayout::identity1D(4, D0, X)));
  EXPECT_LL(kNoOuts.compose(make({}, {{X, 2}})), make({{R, {{0}, {0}}}, {L, {{0}}}}, {{X, 2}}));
  EXPECT_LL(kNoOuts.compose(kEmpty), kNoOuts);
  EXPECT_LL(kEmpty.compose(kEmpty), kEmpty);
  EXPECT_LL(kOnes.compose(make({{D0, {}}, {D1, {}}}, {{X, 1}, {Y, 1}})),
            make({{R, {}}, {L, {}}}, {{X, 1}, {Y, 1}}));
}

TEST(EmptyLayout, Product) {
  // operator* (LL.cpp:704-765): supremum of the dim lists, out sizes add in log2, outer's
  // components shifted by inner's out size.
  EXPECT_LL(product(kNoIns, kNoIns), make({}, {{D0, 16}, {D1, 4}}));
  EXPECT_LL(product(kNoIns, *LinearLayout::identity1D(2, R, D0)),
            make({{R, {{4, 0}}}}, {{D0, 8}, {D1, 2}}));
  EXPECT_LL(product(kNoOuts, kNoOuts), make({{R, {{}, {}, {}, {}}}, {L, {{}, {}}}}, {}));
  EXPECT_LL(product(kNoOuts, kNoIns),
            make({{R, {{0, 0}, {0, 0}}}, {L, {{0, 0}}}}, {{D0, 4}, {D1, 2}}));
  EXPECT_LL(product(kOnes, kOnes), kOnes);
  EXPECT_LL(product(kOnes, kNoIns), make({{R, {}}, {L, {}}}, {{D0, 4}, {D1, 2}}));
  for (const LinearLayout& l : {kNoIns, kNoOuts, kEmpty, kOnes}) {
    EXPECT_LL(product(kEmpty, l), l); // empty() is neutral on both sides
    EXPECT_LL(product(l, kEmpty), l);
  }
}

TEST(EmptyLayout, InvertAndCompose) {
  // invertAndCompose (LL.cpp:1042-1122): in-dims of both whose sublayouts agree are identity dims;
  // L1105 asserts that the non-identity in-dims of this and outer are both empty or both not;
  // lstsq (LL.cpp:960-1040) of a system without columns returns a layout with no dims.
  EXPECT_LL(kNoIns.invertAndCompose(kNoIns), kEmpty);
  EXPECT_ERR(kNoIns.invertAndCompose(make({}, {{D0, 2}, {D1, 2}}))); // L1056
  auto outer = product(*LinearLayout::identity1D(4, R, D0), *LinearLayout::identity1D(2, R, D1));
  // L1105 asserts ([register] vs []); the system itself is solvable, and the library returns its
  // solution (no inputs -> the outer's register 8) rather than an error: deliberate, documented
  // in docs/reference/triton-linear-layout.md §2.
  EXPECT_LL(kNoIns.invertAndCompose(*outer), make({}, {{R, 8}}));
  // Both in-dims are identity dims: the result is identity1D(4,R,R) * identity1D(2,L,L) (L1115).
  EXPECT_LL(kNoOuts.invertAndCompose(kNoOuts),
            make({{R, {{1, 0}, {2, 0}}}, {L, {{0, 1}}}}, {{R, 4}, {L, 2}}));
  // lstsq with 0 rows: every solution column is free, hence 0 (L1009-1014).
  EXPECT_LL(kNoOuts.invertAndCompose(make({{X, {{}}}}, {})),
            make({{R, {{0}, {0}}}, {L, {{0}}}}, {{X, 2}}));
  EXPECT_LL(kEmpty.invertAndCompose(kEmpty), kEmpty);
  EXPECT_LL(kOnes.invertAndCompose(kOnes), make({{R, {}}, {L, {}}}, {{R, 1}, {L, 1}}));
  EXPECT_LL(kOnes.invertAndCompose(kOnesSq), kOnes);
}

TEST(EmptyLayout, InvertAndPseudoinvert) {
  // pseudoinvert (LL.cpp:1130-1136) = (prod identity1D(out, d, d)).invertAndCompose(*this); invert
  // (L1124-1128) asserts isInvertible first.
  EXPECT_ERR(kNoIns.pseudoinvert()); // L1105: identity has ins [dim0, dim1], noIns none
  EXPECT_ERR(kNoIns.invert());       // L1125: not surjective
  // Invertible (0 out bits, in size 1 == out size 1), yet the same L1105 assert fires upstream;
  // the library returns the inverse (as lstsq would without the assert), like any other square
  // layout's.
  LinearLayout unitOuts = make({}, {{D0, 1}, {D1, 1}});
  EXPECT_LL(unitOuts.pseudoinvert(), make({{D0, {}}, {D1, {}}}, {}));
  EXPECT_LL(unitOuts.invert(), make({{D0, {}}, {D1, {}}}, {}));
  // L1105 upstream (identity = empty(), noOuts has ins); the least-squares answer maps nothing
  // to input 0.
  EXPECT_LL(kNoOuts.pseudoinvert(), make({}, {{R, 4}, {L, 2}}));
  EXPECT_ERR(kNoOuts.invert()); // L1125: in size 8 != out size 1
  EXPECT_LL(kEmpty.invert(), kEmpty);
  EXPECT_LL(kEmpty.pseudoinvert(), kEmpty);
  LinearLayout inv = make({{D0, {}}, {D1, {}}}, {{R, 1}, {L, 1}});
  EXPECT_LL(kOnes.invert(), inv);
  EXPECT_LL(kOnes.pseudoinvert(), inv);
}

TEST(EmptyLayout, TransposeReshape) {
  // transposeIns / transposeOuts (LL.cpp:337-374): the order must name the same set (fatal error
  // otherwise, L85).
  EXPECT_LL(kNoIns.transposeIns(Names{}), kNoIns);
  EXPECT_LL(kNoIns.transposeOuts(Names{D1, D0}), make({}, {{D1, 2}, {D0, 4}}));
  EXPECT_ERR(kNoIns.transposeIns(Names{R}));
  EXPECT_LL(kNoOuts.transposeIns(Names{L, R}), make({{L, {{}}}, {R, {{}, {}}}}, {}));
  EXPECT_LL(kNoOuts.transposeOuts(Names{}), kNoOuts);
  EXPECT_LL(kEmpty.transposeIns(Names{}), kEmpty);
  EXPECT_LL(kOnes.transposeIns(Names{L, R}), make({{L, {}}, {R, {}}}, kOnes.outDims()));
  EXPECT_LL(kOnes.transposeOuts(Names{D1, D0}), make({{R, {}}, {L, {}}}, {{D1, 1}, {D0, 1}}));
  // reshapeIns (LL.cpp:376-406) asserts equal total size (an empty list has total 1), then deals
  // the bases in order; reshapeOuts (L408-452) likewise, re-splitting each flattened basis.
  EXPECT_LL(kNoIns.reshapeIns(Sizes{}), kNoIns);
  EXPECT_LL(kNoIns.reshapeIns(Sizes{{X, 1}}), make({{X, {}}}, {{D0, 4}, {D1, 2}}));
  EXPECT_ERR(kNoIns.reshapeIns(Sizes{{X, 2}}));
  EXPECT_LL(kNoOuts.reshapeIns(Sizes{{X, 8}}), make({{X, {{}, {}, {}}}}, {}));
  EXPECT_ERR(kNoOuts.reshapeIns(Sizes{}));
  EXPECT_LL(kEmpty.reshapeIns(Sizes{}), kEmpty);
  EXPECT_LL(kOnes.reshapeIns(Sizes{}), make({}, {{D0, 1}, {D1, 1}}));

  EXPECT_LL(kNoIns.reshapeOuts(Sizes{{X, 8}}), make({}, {{X, 8}}));
  EXPECT_ERR(kNoIns.reshapeOuts(Sizes{}));
  EXPECT_LL(kNoOuts.reshapeOuts(Sizes{}), kNoOuts);
  EXPECT_LL(kNoOuts.reshapeOuts(Sizes{{X, 1}}), make({{R, {{0}, {0}}}, {L, {{0}}}}, {{X, 1}}));
  EXPECT_LL(kEmpty.reshapeOuts(Sizes{}), kEmpty);
  EXPECT_LL(kOnes.reshapeOuts(Sizes{}), make({{R, {}}, {L, {}}}, {}));
  EXPECT_LL(kOnes.reshapeOuts(Sizes{{X, 1}}), make({{R, {}}, {L, {}}}, {{X, 1}}));
}

TEST(EmptyLayout, Flatten) {
  // flattenIns / flattenOuts (LL.h:555-571): reshape{Ins,Outs}({}) when there is no dim, else one
  // dim named like the first, of the total size.
  EXPECT_LL(kNoIns.flattenIns(), kNoIns);
  EXPECT_LL(kNoIns.flattenOuts(), make({}, {{D0, 8}}));
  EXPECT_LL(kNoOuts.flattenIns(), make({{R, {{}, {}, {}}}}, {}));
  EXPECT_LL(kNoOuts.flattenOuts(), kNoOuts);
  EXPECT_LL(kEmpty.flattenIns(), kEmpty);
  EXPECT_LL(kEmpty.flattenOuts(), kEmpty);
  EXPECT_LL(kOnes.flattenIns(), make({{R, {}}}, {{D0, 1}, {D1, 1}}));
  EXPECT_LL(kOnes.flattenOuts(), make({{R, {}}, {L, {}}}, {{D0, 1}}));
}

TEST(EmptyLayout, ResizeInDimOutDim) {
  // resizeInDim (LL.cpp:454-463): asserts hasInDim and a power-of-two size; shrinking drops the
  // high bases, growing appends zero bases of #outDims components (allowed since triton #10946).
  EXPECT_ERR(kNoIns.resizeInDim(R, 1));
  EXPECT_LL(kNoOuts.resizeInDim(R, 2), make({{R, {{}}}, {L, {{}}}}, {}));
  EXPECT_LL(kNoOuts.resizeInDim(L, 8), make({{R, {{}, {}}}, {L, {{}, {}, {}}}}, {}));
  EXPECT_ERR(kNoOuts.resizeInDim(R, 3));
  EXPECT_ERR(kEmpty.resizeInDim(R, 1));
  EXPECT_LL(kOnes.resizeInDim(R, 1), kOnes);
  EXPECT_LL(kOnes.resizeInDim(R, 4), make({{R, {{0, 0}, {0, 0}}}, {L, {}}}, {{D0, 1}, {D1, 1}}));
  EXPECT_ERR(kOnes.resizeInDim(R, 0)); // isPowerOf2_32(0) is false
  // resizeOutDim (LL.cpp:465-487): asserts a power of two no larger than getOutDimSize, which
  // itself asserts that the out-dim exists (L299); components >= newSize become 0. Only that
  // out-dim is resized (3.6's loop compared a shadowed name and resized every out-dim).
  EXPECT_LL(kNoIns.resizeOutDim(D1, 1), make({}, {{D0, 4}, {D1, 1}}));
  EXPECT_ERR(kNoIns.resizeOutDim(D0, 8));
  EXPECT_ERR(kNoIns.resizeOutDim(X, 1));
  EXPECT_ERR(kNoOuts.resizeOutDim(D0, 1));
  EXPECT_ERR(kEmpty.resizeOutDim(D0, 1));
  EXPECT_LL(kOnes.resizeOutDim(D1, 1), kOnes);
  EXPECT_ERR(kOnes.resizeOutDim(D1, 2));
}

TEST(EmptyLayout, RenameInDim) {
  // renameInDim (LL.cpp:489-492) = renameLinearLayoutDims (LU.cpp:265-304): asserts the old dim
  // exists and the new names are unique. Triton main keeps the renamed dim's position (#10946);
  // 3.6 moved it to the end. That is a change for every layout, not an empty-layout case, and the
  // library keeps 3.6's order, which its 3.6 parity vectors check byte for byte (documented in
  // docs/reference/triton-linear-layout.md §2).
  EXPECT_ERR(kNoIns.renameInDim(R, X));
  EXPECT_LL(kNoOuts.renameInDim(R, X), make({{L, {{}}}, {X, {{}, {}}}}, {}));
  EXPECT_ERR(kNoOuts.renameInDim(R, L)); // "renaming creates duplicate dimensions"
  EXPECT_ERR(kEmpty.renameInDim(R, X));
  EXPECT_LL(kOnes.renameInDim(R, X), make({{L, {}}, {X, {}}}, {{D0, 1}, {D1, 1}}));
  EXPECT_LL(kOnes.renameInDim(R, R), make({{L, {}}, {R, {}}}, {{D0, 1}, {D1, 1}}));
}

TEST(EmptyLayout, Concat) {
  // concatIns (LL.cpp:494-513): asserts identical out-dim lists and sizes and (since #10946)
  // disjoint in-dims; other's in-dims are appended.
  EXPECT_LL(kNoIns.concatIns(kNoIns), kNoIns);
  EXPECT_LL(kNoIns.concatIns(make({{X, {{1, 0}}}}, {{D0, 4}, {D1, 2}})),
            make({{X, {{1, 0}}}}, {{D0, 4}, {D1, 2}}));
  EXPECT_ERR(kNoIns.concatIns(make({}, {{D0, 4}})));
  EXPECT_LL(kNoOuts.concatIns(make({{X, {{}}}}, {})),
            make({{R, {{}, {}}}, {L, {{}}}, {X, {{}}}}, {}));
  // L503 (since #10946) asserts disjoint in-dims; 3.6 kept this layout's bases for a shared name,
  // which the library keeps (3.6 parity vectors; docs/reference/triton-linear-layout.md §2).
  EXPECT_LL(kNoOuts.concatIns(kNoOuts), kNoOuts);
  EXPECT_LL(kEmpty.concatIns(kEmpty), kEmpty);
  EXPECT_LL(kEmpty.concatIns(kNoOuts), kNoOuts);
  EXPECT_LL(kOnes.concatIns(make({}, {{D0, 1}, {D1, 1}})), kOnes);
  EXPECT_LL(kOnes.concatIns(kOnes), kOnes);
  // concatOuts (LL.cpp:515-546): asserts identical in-dim lists and sizes and (since #10946)
  // disjoint out-dims; components and out-dims are appended.
  EXPECT_LL(kNoIns.concatOuts(make({}, {{X, 2}})), make({}, {{D0, 4}, {D1, 2}, {X, 2}}));
  EXPECT_ERR(kNoIns.concatOuts(kNoIns)); // L524: not disjoint
  EXPECT_LL(kNoOuts.concatOuts(kNoOuts), kNoOuts);
  LinearLayout other = make({{R, {{1}, {2}}}, {L, {{4}}}}, {{X, 8}});
  EXPECT_LL(kNoOuts.concatOuts(other), other);
  EXPECT_ERR(kNoOuts.concatOuts(kOnes)); // L520: in sizes differ
  EXPECT_LL(kEmpty.concatOuts(kEmpty), kEmpty);
  EXPECT_LL(kEmpty.concatOuts(kNoIns), kNoIns);
  EXPECT_ERR(kOnes.concatOuts(kOnes));
  EXPECT_LL(kOnes.concatOuts(make({{R, {}}, {L, {}}}, {{X, 1}})),
            make({{R, {}}, {L, {}}}, {{D0, 1}, {D1, 1}, {X, 1}}));
}

TEST(EmptyLayout, SublayoutAndIsZero) {
  // sublayout (LL.cpp:841-876): both lists must be subsets (fatal error otherwise, L97); the
  // original dim order is kept.
  EXPECT_LL(kNoIns.sublayout(Names{}, Names{D1}), make({}, {{D1, 2}}));
  EXPECT_LL(kNoIns.sublayout(Names{}, Names{}), kEmpty);
  EXPECT_ERR(kNoIns.sublayout(Names{R}, Names{}));
  EXPECT_LL(kNoOuts.sublayout(Names{L}, Names{}), make({{L, {{}}}}, {}));
  EXPECT_LL(kNoOuts.sublayout(Names{}, Names{}), kEmpty);
  EXPECT_LL(kOnes.sublayout(Names{L}, Names{D1}), make({{L, {}}}, {{D1, 1}}));
  EXPECT_LL(kOnes.sublayout(Names{L, R}, Names{D1, D0}), kOnes);
  // sublayoutIsZero (LL.cpp:878-883): all_of over the out list of getOutputBasisMask (LU.cpp:212),
  // which asserts each out-dim and, per out-dim, each in-dim. With no out-dims nothing is checked.
  EXPECT_BOOL(kNoIns.sublayoutIsZero(Names{}, Names{D0, D1}), true);
  EXPECT_ERR(kNoIns.sublayoutIsZero(Names{}, Names{X}));
  EXPECT_ERR(kNoIns.sublayoutIsZero(Names{X}, Names{D0}));
  EXPECT_BOOL(kNoOuts.sublayoutIsZero(Names{R, L}, Names{}), true);
  EXPECT_BOOL(kNoOuts.sublayoutIsZero(Names{X}, Names{}), true); // x never looked up
  EXPECT_BOOL(kEmpty.sublayoutIsZero(Names{}, Names{}), true);
  EXPECT_BOOL(kOnes.sublayoutIsZero(Names{R, L}, Names{D0, D1}), true);
}

TEST(EmptyLayout, SquareSublayoutIsTrivialOverQuotient) {
  // squareSublayoutIsIdentity (LU.cpp:7-37): an empty list is the identity; else sublayout (fatal
  // error unless in- and out-dims), equal sizes, flatten, bases 1, 2, 4, ...
  for (const LinearLayout& l : {kNoIns, kNoOuts, kEmpty, kOnes})
    EXPECT_BOOL(l.squareSublayoutIsIdentity(Names{}), true);
  EXPECT_ERR(kNoIns.squareSublayoutIsIdentity(Names{D0}));
  EXPECT_ERR(kNoOuts.squareSublayoutIsIdentity(Names{R}));
  EXPECT_ERR(kOnes.squareSublayoutIsIdentity(Names{R}));
  EXPECT_BOOL(kOnesSq.squareSublayoutIsIdentity(Names{D0, D1}), true);
  // isTrivialOver (LL.cpp:767-799): fatal error unless every dim is an in- AND an out-dim (L770).
  for (const LinearLayout& l : {kNoIns, kNoOuts, kEmpty, kOnes})
    EXPECT_BOOL(l.isTrivialOver(Names{}), true);
  EXPECT_ERR(kNoIns.isTrivialOver(Names{D0}));
  EXPECT_ERR(kNoOuts.isTrivialOver(Names{R}));
  EXPECT_ERR(kOnes.isTrivialOver(Names{R}));
  EXPECT_BOOL(kOnesSq.isTrivialOver(Names{D0}), true);
  // quotient (LL.cpp:813-839): nullopt when a dim is not an in-dim (L815), then isTrivialOver
  // (fatal error for an in-dim that is not an out-dim), then the sublayout of the other dims.
  EXPECT_SOME(kNoIns.quotient(Names{}), kNoIns);
  EXPECT_NONE(kNoIns.quotient(Names{D0}));
  EXPECT_NONE(kNoIns.quotient(Names{X}));
  EXPECT_SOME(kNoOuts.quotient(Names{}), kNoOuts);
  EXPECT_ERR(kNoOuts.quotient(Names{R}));
  EXPECT_SOME(kEmpty.quotient(Names{}), kEmpty);
  EXPECT_ERR(kOnes.quotient(Names{R}));
  EXPECT_SOME(kOnesSq.quotient(Names{D0}), make({{D1, {}}}, {{D1, 1}}));
  EXPECT_SOME(kOnesSq.quotient(Names{D0, D1}), kEmpty);
}

TEST(EmptyLayout, DivideLeftRight) {
  // divideLeft / divideRight (LL.cpp:548-702): nullopt if B has a dim A lacks or a larger size;
  // C gets A's dims with B's sizes subtracted; dividing by empty() returns A.
  for (const LinearLayout& l : {kNoIns, kNoOuts, kEmpty, kOnes}) {
    EXPECT_SOME(divideLeft(l, kEmpty), l);
    EXPECT_SOME(divideRight(l, kEmpty), l);
  }
  EXPECT_SOME(divideLeft(kNoIns, make({}, {{D0, 2}})), make({}, {{D0, 2}, {D1, 2}}));
  EXPECT_NONE(divideLeft(kNoIns, make({}, {{D0, 8}})));
  EXPECT_SOME(divideLeft(kNoOuts, make({{R, {{}}}}, {})), make({{R, {{}}}, {L, {{}}}}, {}));
  EXPECT_SOME(divideLeft(kOnes, kOnes), kOnes);
  EXPECT_NONE(divideLeft(kEmpty, make({}, {{D0, 1}})));
  EXPECT_NONE(divideLeft(kEmpty, kNoOuts));
  EXPECT_SOME(divideRight(kNoIns, make({}, {{D1, 2}})), make({}, {{D0, 4}, {D1, 1}}));
  EXPECT_SOME(divideRight(kNoOuts, make({{L, {{}}}}, {})), make({{R, {{}, {}}}, {L, {}}}, {}));
  EXPECT_SOME(divideRight(kOnes, kOnes), kOnes);
  EXPECT_NONE(divideRight(kEmpty, kNoOuts));
}

TEST(EmptyLayout, FreeVariablesAndConsecutive) {
  // getFreeVariableMasks (LL.cpp:1160-1193): with no rows every column is free.
  using Masks = std::vector<std::pair<DimName, uint64_t>>;
  EXPECT_EQ(kNoIns.freeVariableMasks(), Masks{});
  EXPECT_EQ(kNoOuts.freeVariableMasks(), (Masks{{R, 3}, {L, 1}}));
  EXPECT_EQ(kEmpty.freeVariableMasks(), Masks{});
  EXPECT_EQ(kOnes.freeVariableMasks(), (Masks{{R, 0}, {L, 0}}));
  // getNumConsecutiveInOut (LL.cpp:310-319): 1 without bases or out-dims, else the largest
  // identity prefix up to min(in size, out size) = 1 here.
  for (const LinearLayout& l : {kNoIns, kNoOuts, kEmpty, kOnes, make({{R, {}}}, {{D0, 4}})})
    EXPECT_EQ(l.numConsecutiveInOut(), 1u);
}

TEST(EmptyLayout, RemoveZeroBasesAlongDim) {
  // removeZeroBasesAlongDim (LL.cpp:1195-1218): getInputBasisMask asserts the in-dim exists
  // (LU.cpp:227); a basis without components is zero.
  EXPECT_ERR(kNoIns.removeZeroBasesAlongDim(R));
  EXPECT_LL(kNoOuts.removeZeroBasesAlongDim(R), make({{R, {}}, {L, {{}}}}, {}));
  EXPECT_LL(kNoOuts.removeZeroBasesAlongDim(L), make({{R, {{}, {}}}, {L, {}}}, {}));
  EXPECT_ERR(kEmpty.removeZeroBasesAlongDim(R));
  EXPECT_LL(kOnes.removeZeroBasesAlongDim(R), kOnes);
}

TEST(EmptyLayout, EnsureLayoutNotLargerThan) {
  // LU.cpp:68-124: asserts one shape entry per out-dim (L72), returns the layout for an empty
  // shape (L73), asserts every looked-up size is a non-zero power of two (L84), sizes = min.
  EXPECT_LL(ensureLayoutNotLargerThan(kNoIns, Sizes{{D0, 2}, {D1, 2}}),
            make({}, {{D0, 2}, {D1, 2}}));
  EXPECT_LL(ensureLayoutNotLargerThan(kNoIns, Sizes{{D0, 8}, {D1, 2}}), kNoIns);
  EXPECT_ERR(ensureLayoutNotLargerThan(kNoIns, Sizes{{D0, 2}}));
  EXPECT_ERR(ensureLayoutNotLargerThan(kNoIns, Sizes{{D0, 2}, {X, 2}}));
  EXPECT_LL(ensureLayoutNotLargerThan(kNoOuts, Sizes{}), kNoOuts);
  EXPECT_ERR(ensureLayoutNotLargerThan(kNoOuts, Sizes{{D0, 1}}));
  EXPECT_LL(ensureLayoutNotLargerThan(kEmpty, Sizes{}), kEmpty);
  EXPECT_LL(ensureLayoutNotLargerThan(kOnes, Sizes{{D0, 4}, {D1, 4}}), kOnes);
  EXPECT_LL(ensureLayoutNotLargerThan(kOnes, Sizes{{D0, 1}, {D1, 1}}, false), kOnes);
}

TEST(EmptyLayout, EnsureNotSmallerAndIdentityND) {
  // LU.cpp:133-153: asserts one shape entry per out-dim (L136), returns the layout for an empty
  // shape (L137), then dereferences the first in-dim (L141: undefined behaviour without in-dims)
  // and asserts it is register or offset (L142).
  EXPECT_ERR(ensureLayoutNotSmallerThan(kNoIns, Sizes{{D0, 8}, {D1, 2}}));
  EXPECT_ERR(ensureLayoutNotSmallerThan(kNoIns, Sizes{}));
  EXPECT_LL(ensureLayoutNotSmallerThan(kNoOuts, Sizes{}), kNoOuts);
  EXPECT_LL(ensureLayoutNotSmallerThan(kEmpty, Sizes{}), kEmpty);
  EXPECT_LL(ensureLayoutNotSmallerThan(kOnes, Sizes{{D0, 4}, {D1, 1}}),
            make({{R, {{1, 0}, {2, 0}}}, {L, {}}}, {{D0, 4}, {D1, 1}}));
  EXPECT_ERR(ensureLayoutNotSmallerThan(kOnesSq, Sizes{{D0, 1}, {D1, 1}}));
  // LU.cpp:180-196: the product over `order` starting from empty(); no dims gives empty().
  EXPECT_LL(identityStandardND(R, std::vector<uint64_t>{}, std::vector<int>{}), kEmpty);
  EXPECT_LL(identityStandardND(R, std::vector<uint64_t>{1, 1}, std::vector<int>{1, 0}),
            make({{R, {}}}, {{D1, 1}, {D0, 1}}));
}

} // namespace
} // namespace layout
