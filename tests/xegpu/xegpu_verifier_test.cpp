// Illegal XeGPU attributes and shapes: upstream's verifier messages (docs/reference/xegpu.md
// §1.1, §1.2, §1.3, §5), and ours where upstream has no check or GF(2) cannot follow.
#include "layout/xegpu/xegpu_layout.h"

#include <gtest/gtest.h>

using namespace layout;
using namespace layout::xegpu;

namespace {

using Shape = std::vector<int64_t>;

std::string errorOf(const std::string& text) {
  auto l = parseXegpuAttr(text);
  EXPECT_FALSE(l.ok()) << text;
  return l.ok() ? "" : l.error().message;
}

#define EXPECT_CONTAINS(haystack, needle)                                                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)                                 \
      << "'" << (haystack) << "' lacks '" << (needle) << "'"

TEST(XegpuVerifier, LayoutRulesInUpstreamOrder) {
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2], sg_data = [4, 4], inst_data = [8]>"),
                  "expected sg_layout and inst_data to have the same rank");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2], sg_data = [4, 4], lane_layout = "
                          "[16], lane_data = [1]>"),
                  "expected sg_layout and lane_layout to have the same rank");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<inst_data = [8, 16], lane_layout = [16], lane_data = "
                          "[1]>"),
                  "expected inst_data and lane_layout to have the same rank, got inst_data 2, "
                  "lane_layout 1");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2]>"),
                  "sg_layout and sg_data must be used together");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2], sg_data = [4]>"),
                  "expected sg_data and sg_layout to have the same rank");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<lane_layout = [1, 16]>"),
                  "lane_layout and lane_data must be used together");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<lane_layout = [1, 16], lane_data = [1]>"),
                  "expected lane_data and lane_layout to have the same rank");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<inst_data = [8, 16], order = [1, 0]>"),
                  "expected sg_layout/lane_layout being used with order");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2], sg_data = [4, 4], order = [0]>"),
                  "expected order and sg_layout to have the same rank");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1], order = "
                          "[2, 1, 0]>"),
                  "expected order and lane_layout to have the same rank");
  // Rule 2 comes before rule 5: both broken, the rank message wins.
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2], inst_data = [8]>"),
                  "expected sg_layout and inst_data to have the same rank");
}

TEST(XegpuVerifier, EmptyLayoutIsLegalButDistributesNothing) {
  auto l = parseXegpuAttr("#xegpu.layout<>");
  ASSERT_TRUE(l.ok()) << l.error().message;
  auto ll = toLinearLayout(*l, Shape{8});
  ASSERT_FALSE(ll.ok());
  EXPECT_CONTAINS(ll.error().message, "describes no distribution");
  // Rule 1 returns early: sg_data alone is accepted, as upstream does.
  EXPECT_TRUE(parseXegpuAttr("#xegpu.layout<sg_data = [4]>").ok());
}

TEST(XegpuVerifier, OurChecksBeyondUpstream) {
  EXPECT_CONTAINS(errorOf("#xegpu.layout<lane_layout = [1, 0], lane_data = [1, 1]>"),
                  "lane_layout[1] = 0: sizes must be positive");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2], sg_data = [-4, 4]>"),
                  "sg_data[0] = -4: sizes must be positive");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2], sg_data = [4, 4], order = [1, 1]>"),
                  "order [1, 1] must be a permutation of 0..1");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2], sg_data = [4, 4], bogus = [1]>"),
                  "unknown parameter 'bogus' of #xegpu.layout");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2], sg_data = [4, 4], sg_data = [4, 4]>"),
                  "'sg_data' is given twice");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = 2, sg_data = [4]>"),
                  "'sg_layout' must be a list of integers, not an integer");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [4294967296], sg_data = [4]>"),
                  "does not fit in i32");
  EXPECT_CONTAINS(errorOf("#ttg.blocked<{}>"), "unknown XeGPU layout '#ttg.blocked'");
}

TEST(XegpuVerifier, ErrorsCarryLineAndColumn) {
  EXPECT_CONTAINS(errorOf("#xegpu.layout<lane_layout = [1, 16]>"),
                  "line 1, column 1: lane_layout and lane_data must be used together");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2], sg_data = [4, 4], bogus = [1]>"),
                  "line 1, column 61:");
  EXPECT_CONTAINS(errorOf("#xegpu.layout<sg_layout = [2, 2}>"), "line 1, column");
}

TEST(XegpuVerifier, SliceRules) {
  const std::string parent = "#xegpu.layout<sg_layout = [2, 2], sg_data = [4, 4]>";
  EXPECT_CONTAINS(errorOf("#xegpu.slice<" + parent + ">"), "expected dims attribute");
  EXPECT_CONTAINS(errorOf("#xegpu.slice<" + parent + ", dims = [-1]>"),
                  "invalid dim (-1) in slice attribute.");
  EXPECT_CONTAINS(errorOf("#xegpu.slice<" + parent + ", dims = [0, 0]>"),
                  "repeated dim (0) in slice attribute.");
  EXPECT_CONTAINS(errorOf("#xegpu.slice<" + parent + ", dims = [2]>"),
                  "dim (2) in slice attribute is out of range: the parent has rank 2");
  // Nested: the outer slice indexes the inner slice's remaining dims.
  EXPECT_CONTAINS(errorOf("#xegpu.slice<#xegpu.slice<" + parent + ", dims = [0]>, dims = [1]>"),
                  "dim (1) in slice attribute is out of range: the parent has rank 1");
  EXPECT_CONTAINS(errorOf("#xegpu.slice<#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1, 1]>, "
                          "dims = [0]>"),
                  "the parent of #xegpu.slice must be #xegpu.layout or #xegpu.slice");
}

TEST(XegpuVerifier, SliceFlattening) {
  // xegpu.md §5: slice<slice<L(rank 5), [1]>, [0, 2]> -> dims [0, 1, 3]; and the doc example
  // slice<slice<layout<sg_layout = [4, 8, 12]>, [0]>, [0]> -> dims [0, 1].
  auto a = parseXegpuAttr("#xegpu.slice<#xegpu.slice<#xegpu.layout<lane_layout = [1, 1, 1, 1, "
                          "1], lane_data = [1, 1, 1, 1, 1]>, dims = [1]>, dims = [0, 2]>");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->sliceDims, (Shape{0, 1, 3}));
  auto b = parseXegpuAttr("#xegpu.slice<#xegpu.slice<#xegpu.layout<sg_layout = [4, 8, 12], "
                          "sg_data = [1, 1, 1]>, dims = [0]>, dims = [0]>");
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->sliceDims, (Shape{0, 1}));
  EXPECT_EQ(b->rank(), 1);
}

TEST(XegpuVerifier, SgMapRules) {
  EXPECT_CONTAINS(errorOf("#xegpu.sg_map<wi_layout = [1, 16]>"),
                  "#xegpu.sg_map needs the parameter 'wi_data'");
  EXPECT_CONTAINS(errorOf("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [1]>"),
                  "expected wi_data and wi_layout to have the same rank");
  EXPECT_CONTAINS(errorOf("#xegpu.sg_map<wi_layout = [1, 16], wi_data = [0, 1]>"),
                  "wi_data[0] = 0: sizes must be positive");
}

TEST(XegpuVerifier, NotDistributable) {
  auto l = parseXegpuAttr("#xegpu.layout<sg_layout = [2, 2], sg_data = [48, 128], lane_layout = "
                          "[1, 16], lane_data = [1, 1]>");
  ASSERT_TRUE(l.ok());
  const Shape shape{128, 128};
  const std::string want = "cannot distribute [128, 128] using #xegpu.layout<sg_layout = [2, 2], "
                           "sg_data = [48, 128], lane_layout = [1, 16], lane_data = [1, 1]>";
  EXPECT_EQ(toLinearLayout(*l, shape).error().message, want);
  EXPECT_EQ(subgroupTiles(*l, shape, 0).error().message, want);
  EXPECT_EQ(distributedShape(*l, shape).error().message, want);
  EXPECT_EQ(laneCoords(*l, shape, 0, 0).error().message, want);
  // inst_data must divide sg_data (no round-robin at inst level) ...
  auto inst = parseXegpuAttr("#xegpu.layout<inst_data = [8, 32], lane_layout = [1, 16], "
                             "lane_data = [1, 1]>");
  EXPECT_CONTAINS(distributedShape(*inst, Shape{16, 16}).error().message, "cannot distribute");
  // ... and lanes must divide the tile, unless a dim equals lane_data (2026 wrap-around).
  auto lanes = parseXegpuAttr("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>");
  EXPECT_CONTAINS(distributedShape(*lanes, Shape{8, 8}).error().message,
                  "cannot distribute [8, 8] using");
  EXPECT_EQ(*distributedShape(*lanes, Shape{8, 1}), (Shape{8, 1}));
}

TEST(XegpuVerifier, RanksAndShapes) {
  auto wg = parseXegpuAttr("#xegpu.layout<sg_layout = [2, 2], sg_data = [4, 4]>");
  EXPECT_CONTAINS(toLinearLayout(*wg, Shape{8}).error().message,
                  "expected layout rank to match tensor rank");
  EXPECT_CONTAINS(toLinearLayout(*wg, Shape{2, 8, 8}).error().message,
                  "expected layout rank to match tensor rank");
  EXPECT_EQ(toLinearLayout(*wg, Shape{}).error().message, "expected non-zero rank tensor");
  EXPECT_CONTAINS(toLinearLayout(*wg, Shape{0, 8}).error().message,
                  "shape[0] = 0: dim sizes must be positive");
  EXPECT_CONTAINS(subgroupTiles(*wg, Shape{8, 8}, -1).error().message,
                  "subgroup id -1 is negative");
  // Issue 31: ids past the grid are refused, not wrapped.
  EXPECT_EQ(subgroupTiles(*wg, Shape{8, 8}, 4).error().message,
            "subgroup id: 4 is outside the valid range [0, 3] (sg_layout [2, 2] has 4 subgroups)");
  EXPECT_TRUE(subgroupTiles(*wg, Shape{8, 8}, 3));
  EXPECT_EQ(delinearize(*wg, 99999999999, Level::Subgroup).error().message,
            "subgroup id: 99999999999 is outside the valid range [0, 3] (sg_layout [2, 2] has 4 "
            "subgroups)");
  EXPECT_EQ(checkIdInRange(*wg, 7, Level::Subgroup, "--subgroup").error().message,
            "--subgroup: 7 is outside the valid range [0, 3] (sg_layout [2, 2] has 4 subgroups)");
  EXPECT_EQ(idCount(*wg, Level::Subgroup), 4);
  EXPECT_EQ(idCount(*wg, Level::Lane), 0);
  EXPECT_CONTAINS(laneCoords(*wg, Shape{8, 8}, 0, std::nullopt).error().message,
                  "laneCoords needs a subgroup id");
  auto sg = parseXegpuAttr("#xegpu.layout<lane_layout = [1, 16], lane_data = [1, 1]>");
  EXPECT_CONTAINS(subgroupTiles(*sg, Shape{8, 16}, 0).error().message,
                  "is a subgroup layout (no sg_layout)");
  EXPECT_CONTAINS(delinearize(*sg, 0, Level::Subgroup).error().message, "has no sg_layout");
  EXPECT_EQ(laneCoords(*sg, Shape{8, 16}, 16, std::nullopt).error().message,
            "lane id: 16 is outside the valid range [0, 15] (lane_layout [1, 16] has 16 lanes)");
  // Leading dims beyond a subgroup layout's rank are kept whole in every lane.
  EXPECT_EQ(*distributedShape(*sg, Shape{2, 32, 16}), (Shape{2, 32, 1}));
}

TEST(XegpuVerifier, PowerOfTwoNeededForLinearLayouts) {
  // Legal upstream (xegpu.md §10: 24x24 with [4, 4] x [2, 2], 3x3 units), but not GF(2)-linear.
  auto l = parseXegpuAttr("#xegpu.layout<sg_layout = [4, 4], sg_data = [2, 2]>");
  Shape shape{24, 24};
  ASSERT_TRUE(subgroupTiles(*l, shape, 0).ok());
  EXPECT_EQ(subgroupTiles(*l, shape, 0)->tileOffsets.size(), 9u);
  EXPECT_EQ(toLinearLayout(*l, shape).error().message,
            "cannot represent #xegpu.layout<sg_layout = [4, 4], sg_data = [2, 2]> as a linear "
            "layout: shape[0] = 24 is not a power of two (linear layouts over GF(2) need "
            "power-of-two sizes)");
  auto odd = parseXegpuAttr("#xegpu.layout<sg_layout = [4, 2, 6, 1], sg_data = [8, 8, 8, 8]>");
  EXPECT_CONTAINS(toLinearLayout(*odd, Shape{32, 16, 48, 8}).error().message,
                  "sg_layout[2] = 6 is not a power of two");
  auto data = parseXegpuAttr("#xegpu.layout<lane_layout = [1, 4], lane_data = [1, 3]>");
  EXPECT_CONTAINS(toLinearLayout(*data, Shape{1, 12}).error().message, "lane_data[1] = 3");
  EXPECT_EQ(*distributedShape(*data, Shape{1, 12}), (Shape{1, 3}));
}

TEST(XegpuVerifier, HugeGridsAreRefusedNotOverflowed) {
  auto l = parseXegpuAttr("#xegpu.layout<sg_layout = [65536, 65536, 65536], sg_data = [1, 1, "
                          "1]>");
  ASSERT_TRUE(l.ok());
  EXPECT_CONTAINS(toLinearLayout(*l, Shape{1, 1, 1}).error().message, "more than 2^40 ids");
  auto many = parseXegpuAttr("#xegpu.layout<lane_layout = [1, 1], lane_data = [1, 1]>");
  EXPECT_CONTAINS(laneCoords(*many, Shape{1 << 20, 4}, 0, std::nullopt).error().message,
                  "at most 2^20 are listed");
}

} // namespace
