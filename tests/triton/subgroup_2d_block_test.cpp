// #ttig.subgroup_2d_block: every legal block shape (the 2D block-load rules of pvc for 8-, 16-
// and 32-bit elements: height, width, numBlocks), subgroups of 16 and 32, warp grids and both
// orders, against an element-by-element model written from the reference prose by someone who had
// not seen the implementation (tests/support/subgroup_2d_block_model.h); the attribute's parser,
// verifier (the Intel backend's messages) and printer (the backend's text).
#include "layout/triton/encoding.h"
#include "layout/triton/encoding_params.h"
#include "layout/triton/intel_subgroup_2d_block.h"
#include "layout/triton/layout_views.h"
#include "support/subgroup_2d_block_model.h"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

namespace layout::triton {
namespace {

using layout::testing::Subgroup2DBlockModel;

// The load shapes the hardware allows (docs/reference/intel-xe.md §2.2): height <= 32, at most
// 64 bytes per row over all blocks, at least 4 (8-bit) / 2 (16-bit) elements wide, numBlocks <= 4
// (<= 2 for 32-bit).
std::vector<std::tuple<int, int, int>> legalLoadShapes() {
  std::set<std::tuple<int, int, int>> shapes;
  for (int bits : {8, 16, 32})
    for (int h = 1; h <= 32; h *= 2)
      for (int w = 1; w * bits <= 512; w *= 2)
        for (int nb = 1; nb <= (bits == 32 ? 2 : 4); nb *= 2) {
          if (w * nb * bits > 512) continue;
          if ((bits == 8 && w < 4) || (bits == 16 && w < 2)) continue;
          shapes.insert({h, w, nb});
        }
  return {shapes.begin(), shapes.end()};
}

TEST(Subgroup2DBlock, EveryLegalShapeMatchesTheIndependentModel) {
  int layouts = 0;
  int64_t elements = 0;
  for (const auto& [h, w, nb] : legalLoadShapes())
    for (int tpw : {16, 32})
      for (std::array<int64_t, 2> warps : {std::array<int64_t, 2>{1, 1}, {2, 4}, {8, 1}})
        for (int order0 : {0, 1}) {
          Subgroup2DBlockModel m;
          m.height = h;
          m.width = w;
          m.numBlocks = nb;
          m.threadsPerWarp = tpw;
          m.warpsPerCTA[0] = int(warps[0]);
          m.warpsPerCTA[1] = int(warps[1]);
          m.order0 = order0;
          const auto [tileRows, tileCols] = layout::testing::subgroup2DBlockCtaTile(m);
          // Two tiles down, four across: the repetition that covers the tensor is checked too.
          const int64_t rows = tileRows * 2, cols = tileCols * 4;
          Subgroup2DBlockParams p;
          p.instrShape = {h, w};
          p.numBlocks = nb;
          p.threadsPerWarp = tpw;
          p.warpsPerCTA = warps;
          p.order = {order0, 1 - order0};
          const std::vector<int64_t> shape{rows, cols};
          auto ll = subgroup2DBlockLayout(p, shape);
          ASSERT_TRUE(ll) << ll.error().message;
          SCOPED_TRACE("instrShape [" + std::to_string(h) + ", " + std::to_string(w) +
                       "] numBlocks " + std::to_string(nb) + " tpw " + std::to_string(tpw) +
                       " warps [" + std::to_string(warps[0]) + ", " + std::to_string(warps[1]) +
                       "] order0 " + std::to_string(order0));
          const int64_t regs = layout::testing::subgroup2DBlockRegisters(m, rows, cols);
          ASSERT_EQ(int64_t(ll->inDimSize(dims::reg())), regs);
          ASSERT_EQ(int64_t(ll->inDimSize(dims::lane())), tpw);
          for (int64_t r = 0; r < regs; ++r)
            for (int64_t l = 0; l < tpw; ++l)
              for (int64_t wp = 0; wp < warps[0] * warps[1]; ++wp) {
                const std::pair<DimName, uint64_t> in[] = {{dims::reg(), uint64_t(r)},
                                                           {dims::lane(), uint64_t(l)},
                                                           {dims::warp(), uint64_t(wp)},
                                                           {dims::block(), 0}};
                auto out = ll->apply(in);
                const auto expected =
                    layout::testing::subgroup2DBlockElement(m, rows, cols, r, l, wp);
                ASSERT_EQ(int64_t((*out)[0].second), expected.first)
                    << "register " << r << " lane " << l << " warp " << wp;
                ASSERT_EQ(int64_t((*out)[1].second), expected.second)
                    << "register " << r << " lane " << l << " warp " << wp;
                ++elements;
              }
          ++layouts;
        }
  EXPECT_GT(layouts, 400);
  EXPECT_GT(elements, 1000000);
}

TEST(Subgroup2DBlock, AttributeParsesConvertsAndPrintsAsTheBackend) {
  // The backend's own test text (TritonIntelGPU materialize-block-pointer CHECK lines).
  const char* text = "#ttig.subgroup_2d_block<{warpsPerCTA = [8, 4], instrShape = [8, 16], "
                     "numBlocks=2, order=[1, 0], kWidth=1, threadsPerWarp=16}>";
  auto e = parseEncoding(text);
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_EQ(e->kind, EncodingKind::IntelSubgroup2DBlock);
  EXPECT_EQ(e->canonical, text);
  auto typed = subgroup2DBlockEncoding(*e);
  ASSERT_TRUE(typed) << typed.error().message;
  EXPECT_EQ(printEncoding(*typed), text);
  EXPECT_EQ(typed->params.numBlocks, 2);
  // The long dialect name reads the same.
  auto longForm = parseEncoding(std::string("#triton_intel_gpu.") + (text + 6));
  ASSERT_TRUE(longForm) << longForm.error().message;
  const std::vector<int64_t> shape{256, 64};
  auto a = toLinearLayout(*e, shape), b = toLinearLayout(*longForm, shape);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a, *b);
  // order [1, 0]: the 4 warps along dim1 hold copies; the 8 along dim0 stack 8-row tiles.
  const std::pair<DimName, uint64_t> warp5[] = {
      {dims::reg(), 0}, {dims::lane(), 0}, {dims::warp(), 5}, {dims::block(), 0}};
  auto o = a->apply(warp5); // warp 5 = (row 1, column 1) of the 8 x 4 grid
  EXPECT_EQ((*o)[0].second, 8u);
  EXPECT_EQ((*o)[1].second, 0u);
  auto view = layoutStr(*e, *a, shape, /*hwView=*/false);
  ASSERT_TRUE(view) << view.error().message;
}

TEST(Subgroup2DBlock, VerifierMessagesAreTheBackends) {
  auto error = [](const std::string& params) {
    auto e = parseEncoding("#ttig.subgroup_2d_block<{" + params + "}>");
    return e ? std::string("accepted") : e.error().message;
  };
  const std::string ok = "warpsPerCTA = [8, 4], instrShape = [8, 16], numBlocks=2, ";
  auto has = [](const std::string& m, const std::string& part) {
    return m.find(part) != std::string::npos;
  };
  EXPECT_TRUE(has(error("warpsPerCTA = [8, 4], instrShape = [8, 16, 1], numBlocks=2, "
                        "order=[1, 0], kWidth=1, threadsPerWarp=16"),
                  "instrShape must be rank 2 but was: 3"));
  EXPECT_TRUE(has(error(ok + "order=[1, 0, 2], kWidth=1, threadsPerWarp=16"),
                  "order must be rank 2 but was 3"));
  EXPECT_TRUE(has(error(ok + "order=[1, 0], kWidth=3, threadsPerWarp=16"),
                  "kWidth must be 1, 2 or 4, but was: 3"));
  EXPECT_TRUE(has(error(ok + "order=[1, 0], kWidth=1, threadsPerWarp=32"),
                  "threadsPerWarp must be 16, but was: 32"));
  EXPECT_TRUE(has(error(ok + "order=[1, 1], kWidth=1, threadsPerWarp=16"),
                  "must be a permutation of 0..1"));
  EXPECT_TRUE(has(error("warpsPerCTA = [8, 4], instrShape = [8, 12], numBlocks=2, order=[1, 0], "
                        "kWidth=1, threadsPerWarp=16"),
                  "every entry must be a power of two"));
  EXPECT_TRUE(has(error(ok + "order=[1, 0], kWidth=1, threadsPerWarp=16, numBlock=2"),
                  "unknown parameter 'numBlock'"));
  EXPECT_TRUE(has(error(ok + "order=[1, 0], kWidth=1"), "threadsPerWarp"));
}

} // namespace
} // namespace layout::triton
