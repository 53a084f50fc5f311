// #ttg.amd_wmma in Triton main's form: `ctaLayout = {register = [...], warp = [...]}` (the warp
// arrangement over WMMA tiles) instead of Triton 3.6's warpsPerCTA / tilesPerWarp. Independent
// sources: the 3.6 form (itself checked against Triton 3.6.0's own output in
// encoding_vectors_test.cpp), which upstream says the main form translates (its attribute
// documentation: warpsPerCTA = [2, 2] is ctaLayout = {warp = [[0, 1], [1, 0]]}), and the tile
// grids of that documentation's worked examples.
#include "layout/triton/encoding.h"
#include "layout/triton/encoding_params.h"
#include "layout/triton/layout_views.h"

#include <gtest/gtest.h>

#include <bit>
#include <map>

namespace layout::triton {
namespace {

Expected<LinearLayout> convert(const std::string& text, std::vector<int64_t> shape) {
  auto e = parseEncoding(text);
  if (!e) return e.error();
  return toLinearLayout(*e, shape);
}

std::string bases(const std::vector<std::vector<int>>& list) {
  std::string s = "[";
  for (size_t i = 0; i < list.size(); ++i) {
    s += i ? ", [" : "[";
    for (size_t j = 0; j < list[i].size(); ++j) s += (j ? ", " : "") + std::to_string(list[i][j]);
    s += "]";
  }
  return s + "]";
}

// Upstream's translation of warpsPerCTA (tilesPerWarp 1): dim by dim in row-major order (last
// dim first), one warp basis per doubling, in units of tiles.
std::string ctaLayoutOf(const std::vector<int>& warps) {
  std::vector<std::vector<int>> w;
  for (int d = int(warps.size()) - 1; d >= 0; --d)
    for (int i = 1; i < warps[d]; i *= 2) {
      std::vector<int> b(warps.size(), 0);
      b[d] = i;
      w.push_back(b);
    }
  std::string s = "ctaLayout = {warp = " + bases(w) + "}";
  if (w.empty()) s += ", rank = " + std::to_string(warps.size());
  return s;
}

std::string list(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

TEST(AmdWmmaMainSyntax, SameLayoutAsTheTriton36Form) {
  struct Case {
    int version;
    std::string instr; // "" = default
    std::vector<int> warps;
    std::vector<int64_t> shape;
  };
  const std::vector<Case> cases = {
      {1, "", {2, 2}, {64, 128}},
      {1, "", {4, 1}, {32, 32}},
      {2, "", {1, 4}, {128, 64}},
      {2, "", {2, 4}, {16, 16}},
      {3, "[16, 16, 32]", {2, 2}, {64, 64}},
      {3, "[16, 16, 128]", {8, 1}, {256, 16}},
      {1, "", {2, 2, 1}, {4, 64, 32}},
      {2, "", {1, 2, 2}, {2, 16, 64}},
      {2, "", {1, 1}, {32, 32}},
  };
  int checked = 0;
  for (const Case& c : cases)
    for (bool transposed : {false, true}) {
      const std::string head = "#ttg.amd_wmma<{version = " + std::to_string(c.version) +
                               ", isTranspose = " + (transposed ? "true" : "false") + ", ";
      const std::string tail = (c.instr.empty() ? "" : ", instrShape = " + c.instr) + "}>";
      const std::string old36 = head + "warpsPerCTA = " + list(c.warps) + tail;
      const std::string main = head + ctaLayoutOf(c.warps) + tail;
      SCOPED_TRACE(main);
      auto a = convert(old36, c.shape);
      auto b = convert(main, c.shape);
      ASSERT_TRUE(a) << a.error().message;
      ASSERT_TRUE(b) << b.error().message;
      EXPECT_EQ(*a, *b);
      // And their dot operands.
      for (int opIdx : {0, 1}) {
        const std::string dot =
            "#ttg.dot_op<{opIdx = " + std::to_string(opIdx) + ", parent = %s, kWidth = 8}>";
        auto withParent = [&](const std::string& parent) {
          std::string t = dot;
          t.replace(t.find("%s"), 2, parent);
          return t;
        };
        std::vector<int64_t> opShape = c.shape;
        auto da = convert(withParent(old36), opShape);
        auto db = convert(withParent(main), opShape);
        ASSERT_TRUE(da) << da.error().message;
        ASSERT_TRUE(db) << db.error().message;
        EXPECT_EQ(*da, *db) << "opIdx " << opIdx;
      }
      ++checked;
    }
  EXPECT_EQ(checked, 18);
}

// The warp that holds the top-left element of each 16x16 tile, as a grid of tiles.
std::vector<std::vector<int>> warpGrid(const LinearLayout& ll, int tileRows, int tileCols) {
  std::map<std::pair<uint64_t, uint64_t>, int> owner;
  const int regs = ll.inDimSizeLog2(ll.inDimIndex(dims::reg()));
  const int warps = ll.inDimSizeLog2(ll.inDimIndex(dims::warp()));
  for (uint64_t r = 0; r < (uint64_t{1} << regs); ++r)
    for (uint64_t w = 0; w < (uint64_t{1} << warps); ++w) {
      const std::pair<DimName, uint64_t> in[] = {
          {dims::reg(), r}, {dims::lane(), 0}, {dims::warp(), w}, {dims::block(), 0}};
      auto out = ll.apply(in);
      owner[{(*out)[0].second, (*out)[1].second}] = int(w);
    }
  std::vector<std::vector<int>> grid(tileRows, std::vector<int>(tileCols, -1));
  for (int tr = 0; tr < tileRows; ++tr)
    for (int tc = 0; tc < tileCols; ++tc) {
      auto it = owner.find({uint64_t(tr * 16), uint64_t(tc * 16)});
      if (it != owner.end()) grid[tr][tc] = it->second;
    }
  return grid;
}

// The grids of upstream's ctaLayout documentation (TritonGPUAttrDefs.td, Example 2).
TEST(AmdWmmaMainSyntax, UpstreamDocumentationGrids) {
  auto one = convert("#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = "
                     "[[0, 1], [1, 0]]}}>",
                     std::vector<int64_t>{64, 64});
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(warpGrid(*one, 4, 4), (std::vector<std::vector<int>>{
                                      {0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}));

  auto tiles = convert("#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {register = "
                       "[[0, 1], [1, 0]], warp = [[0, 2], [2, 0]]}}>",
                       std::vector<int64_t>{64, 64});
  ASSERT_TRUE(tiles) << tiles.error().message;
  EXPECT_EQ(warpGrid(*tiles, 4, 4), (std::vector<std::vector<int>>{
                                        {0, 0, 1, 1}, {0, 0, 1, 1}, {2, 2, 3, 3}, {2, 2, 3, 3}}));
  // That is warpsPerCTA = [2, 2], tilesPerWarp = [2, 2] in 3.6's form (on a shape it covers
  // exactly; beyond it the two order their repetitions differently).
  auto old36 = convert("#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2], "
                       "tilesPerWarp = [2, 2]}>",
                       std::vector<int64_t>{64, 64});
  ASSERT_TRUE(old36) << old36.error().message;
  EXPECT_EQ(*tiles, *old36);

  // The swizzled arrangement: warp 1 computes tiles (0, 1) (its second) and (2, 1) (its first).
  auto swizzled = convert("#ttg.amd_wmma<{version = 3, isTranspose = false, ctaLayout = {register "
                          "= [[2, 0]], warp = [[2, 1], [1, 0]]}, instrShape = [16, 16, 32]}>",
                          std::vector<int64_t>{64, 32});
  ASSERT_TRUE(swizzled) << swizzled.error().message;
  EXPECT_EQ(warpGrid(*swizzled, 4, 2),
            (std::vector<std::vector<int>>{{0, 1}, {2, 3}, {0, 1}, {2, 3}}));
}

// Version 3's 32x16 instruction: two 16x16 tiles stacked, the second in 8 more registers. Element
// (r, c) is held by lane c + 16 * (r / 8 % 2), register r % 8 + 8 * (r / 16).
TEST(AmdWmmaMainSyntax, Version3Tall32x16Tile) {
  auto ll = convert("#ttg.amd_wmma<{version = 3, isTranspose = false, ctaLayout = {warp = []}, "
                    "instrShape = [32, 16, 64]}>",
                    std::vector<int64_t>{32, 16});
  ASSERT_TRUE(ll) << ll.error().message;
  for (uint64_t r = 0; r < 32; ++r)
    for (uint64_t c = 0; c < 16; ++c) {
      const uint64_t lane = c + 16 * (r / 8 % 2), reg = r % 8 + 8 * (r / 16);
      const std::pair<DimName, uint64_t> in[] = {
          {dims::reg(), reg}, {dims::lane(), lane}, {dims::warp(), 0}, {dims::block(), 0}};
      auto out = ll->apply(in);
      ASSERT_TRUE(out);
      EXPECT_EQ((*out)[0].second, r) << "register " << reg << " lane " << lane;
      EXPECT_EQ((*out)[1].second, c) << "register " << reg << " lane " << lane;
    }
}

TEST(AmdWmmaMainSyntax, PrintsBackInTheFormItWasReadIn) {
  for (const char* text :
       {"#ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {register = [[1, 0]], warp = "
        "[[0, 1], [0, 2]]}, instrShape = [16, 16, 32]}>",
        "#ttg.amd_wmma<{version = 1, isTranspose = false, ctaLayout = {warp = [[0, 1], [1, 0]]}, "
        "CGALayout = [[0, 1]]}>",
        "#ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [2, 2]}>"}) {
    auto e = parseEncoding(text);
    ASSERT_TRUE(e) << e.error().message;
    auto typed = amdWmmaEncoding(*e);
    ASSERT_TRUE(typed) << typed.error().message;
    EXPECT_EQ(printEncoding(*typed), text);
    auto rebuilt = toEncoding(*typed);
    ASSERT_TRUE(rebuilt) << rebuilt.error().message;
    const std::vector<int64_t> shape{64, 64};
    auto a = toLinearLayout(*e, shape), b = toLinearLayout(*rebuilt, shape);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a, *b);
    auto view = layoutStr(*e, *a, shape, /*hwView=*/true);
    ASSERT_TRUE(view) << view.error().message;
    EXPECT_NE(view->find("Warp0:"), std::string::npos) << *view;
  }
}

TEST(AmdWmmaMainSyntax, ErrorsNameTheParameterAndTheRule) {
  auto error = [](const std::string& text) {
    auto e = parseEncoding(text);
    return e ? std::string("accepted") : e.error().message;
  };
  auto has = [](const std::string& message, const std::string& part) {
    return message.find(part) != std::string::npos;
  };
  const std::string head = "#ttg.amd_wmma<{version = 1, isTranspose = false, ";
  EXPECT_TRUE(has(error(head + "ctaLayout = {warp = [[0, 1]]}, warpsPerCTA = [1, 2]}>"),
                  "'warpsPerCTA' is Triton 3.6's form of #ttg.amd_wmma"));
  EXPECT_TRUE(has(error(head + "ctaLayout = {register = [[0, 1]]}}>"),
                  "Expected basis of 'warp' not found in 'ctaLayout'"));
  EXPECT_TRUE(has(error(head + "ctaLayout = {warp = [[0, 2]]}}>"), "'ctaLayout': layout is not "
                                                                   "surjective"));
  EXPECT_TRUE(has(error(head + "ctaLayout = {warp = [[0, 1]]}, rank = 3}>"),
                  "'rank' = 3 but the ctaLayout bases have 2 components"));
  EXPECT_TRUE(has(error(head + "ctaLayout = {warp = [[0, 1]], lane = []}}>"),
                  "'ctaLayout' has the in-dims register and warp, not 'lane'"));
  EXPECT_TRUE(has(error(head + "ctaLayout = {warp = [[0, 1]]}, instrShape = [16, 16, 32]}>"),
                  "invalid WMMA v1 instruction shape: 'instrShape' = [16, 16, 32]"));
  EXPECT_TRUE(has(error(head + "ctaLayout = [[0, 1]]}>"), "'ctaLayout' must be a dictionary"));
  EXPECT_TRUE(has(error(head + "warpsPerCTA = [2, 2], rank = 2}>"),
                  "'rank' belongs to Triton main's ctaLayout form"));
  EXPECT_TRUE(has(error(head + "ctaLayout = {warp = [[0, -1]]}}>"), "must be non-negative"));
}

} // namespace
} // namespace layout::triton
