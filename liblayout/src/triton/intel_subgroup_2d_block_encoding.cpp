// Intel's #ttig.subgroup_2d_block (intel_subgroup_2d_block.h): the verifier (the backend's
// Subgroup2DBlockEncodingAttr::verify, with its messages, plus what a linear layout needs) and the
// conversion (subgroup2DBlockToLinearLayout; docs/reference/intel-xe.md §1.5).
#include "layout/triton/intel_subgroup_2d_block.h"

#include "encoding_internal.h"

#include <bit>

namespace layout::triton {

namespace {

bool isPow2(int64_t x) {
  return x >= 1 && std::has_single_bit(uint64_t(x));
}

Expected<std::array<int64_t, 2>> pairParam(const AttrValue& attr, const char* key,
                                           const char* what) {
  LAYOUT_TRY_ASSIGN(list, detail::intList(attr, key));
  if (list.size() != 2)
    return makeErrorAt(attr.find(key)->location, std::string(key) + " must be rank 2 but was" +
                                                     (what[0] ? std::string(what) : " ") +
                                                     std::to_string(list.size()));
  return std::array<int64_t, 2>{list[0], list[1]};
}

} // namespace

namespace detail {

Expected<Subgroup2DBlockParams> subgroup2DBlockParams(const AttrValue& attr) {
  LAYOUT_TRY(checkParameterNames(EncodingKind::IntelSubgroup2DBlock, attr));
  Subgroup2DBlockParams p;
  // The backend's verifier, in its order and words.
  LAYOUT_TRY_ASSIGN(instr, pairParam(attr, "instrShape", ": "));
  LAYOUT_TRY_ASSIGN(order, pairParam(attr, "order", " "));
  LAYOUT_TRY_ASSIGN(warps, pairParam(attr, "warpsPerCTA", " "));
  LAYOUT_TRY_ASSIGN(kWidth, intParam(attr, "kWidth"));
  if (kWidth != 1 && kWidth != 2 && kWidth != 4)
    return makeErrorAt(attr.find("kWidth")->location,
                       "kWidth must be 1, 2 or 4, but was: " + std::to_string(kWidth));
  LAYOUT_TRY_ASSIGN(tpw, intParam(attr, "threadsPerWarp"));
  if (tpw != 16)
    return makeErrorAt(attr.find("threadsPerWarp")->location,
                       "threadsPerWarp must be 16, but was: " + std::to_string(tpw));
  LAYOUT_TRY_ASSIGN(numBlocks, intParam(attr, "numBlocks"));
  // What the layout needs besides (the backend would build a wrong layout or assert).
  LAYOUT_TRY(checkOrder(attr, "order", order, 2));
  LAYOUT_TRY(checkPowersOfTwo(attr, "instrShape", instr));
  LAYOUT_TRY(checkPowersOfTwo(attr, "warpsPerCTA", warps));
  if (!isPow2(numBlocks))
    return makeErrorAt(attr.find("numBlocks")->location,
                       "'numBlocks' = " + std::to_string(numBlocks) + " must be a power of two");
  LAYOUT_TRY(cgaLayout(attr, 2));
  p.instrShape = instr;
  p.order = order;
  p.warpsPerCTA = warps;
  p.kWidth = kWidth;
  p.threadsPerWarp = tpw;
  p.numBlocks = numBlocks;
  return p;
}

namespace {

// The CTA layout: one message over the lanes, the blocks along the columns, the warps.
Expected<LinearLayout> subgroup2DBlockCta(const Subgroup2DBlockParams& p) {
  const int64_t height = p.instrShape[0], width = p.instrShape[1], tpw = p.threadsPerWarp;
  const int64_t packed = (width + tpw - 1) / tpw; // elements a lane packs per row
  InDimBases lanes{dims::lane(), {}}, regs{dims::reg(), {}};
  for (int64_t i = packed; i < width; i <<= 1) lanes.bases.push_back({0, uint64_t(i)});
  const int64_t laneColumns = int64_t{1} << lanes.bases.size();
  const int64_t rowsPerWarp = (tpw + laneColumns - 1) / laneColumns;
  for (int64_t i = 1; i < rowsPerWarp; i <<= 1) lanes.bases.push_back({uint64_t(i), 0});
  for (int64_t i = 1; i < packed; i <<= 1) regs.bases.push_back({0, uint64_t(i)});
  for (int64_t i = 1; i < height / rowsPerWarp; i <<= 1)
    regs.bases.push_back({uint64_t(i * rowsPerWarp), 0});
  const DimName dim0 = dims::standardOut(0), dim1 = dims::standardOut(1);
  LAYOUT_TRY_ASSIGN(cta, LinearLayout::createSurjective({regs, lanes}, {dim0, dim1}));
  if (auto err =
          multiplyInto(cta, LinearLayout::identity1D(uint64_t(p.numBlocks), dims::reg(), dim1));
      !err)
    return err.error();
  // Warps in row-major order (dim1 first), those along order[0] broadcast.
  LinearLayout warps;
  for (int d : {1, 0}) {
    const DimName dim = dims::standardOut(d);
    const uint64_t n = uint64_t(p.warpsPerCTA[d]);
    if (auto err =
            multiplyInto(warps, d == p.order[0] ? LinearLayout::zeros1D(n, dims::warp(), dim)
                                                : LinearLayout::identity1D(n, dims::warp(), dim));
        !err)
      return err.error();
  }
  LAYOUT_TRY_ASSIGN(warpsOrdered, warps.transposeOuts(std::vector<DimName>{dim0, dim1}));
  LAYOUT_TRY_ASSIGN(full, product(cta, warpsOrdered));
  return full;
}

} // namespace

std::string subgroup2DBlockSpacing(std::string text) {
  for (const char* key : {"numBlocks", "order", "kWidth", "threadsPerWarp"}) {
    const std::string spaced = std::string(key) + " = ";
    if (auto at = text.find(spaced); at != std::string::npos)
      text.replace(at, spaced.size(), std::string(key) + "=");
  }
  return text;
}

Expected<LinearLayout> subgroup2DBlockToLinearLayout(const AttrValue& attr,
                                                     std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(p, subgroup2DBlockParams(attr));
  if (auto err = checkRank(2, shape); !err) return err.error();
  LAYOUT_TRY_ASSIGN(cta, subgroup2DBlockCta(p));
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(attr, 2));
  return combineCtaCgaWithShape(cta, cga, shape);
}

} // namespace detail

Expected<Subgroup2DBlockParams> subgroup2DBlockParams(const Encoding& encoding) {
  if (encoding.kind != EncodingKind::IntelSubgroup2DBlock)
    return makeError("expected a #ttig.subgroup_2d_block, not #" + encoding.attr.text);
  return detail::subgroup2DBlockParams(encoding.attr);
}

Expected<LinearLayout> subgroup2DBlockLayout(const Subgroup2DBlockParams& p,
                                             std::span<const int64_t> shape) {
  if (p.threadsPerWarp != 16 && p.threadsPerWarp != 32)
    return makeError("threadsPerWarp = " + std::to_string(p.threadsPerWarp) +
                     ": the layout is defined for subgroups of 16 or 32");
  for (int64_t x :
       {p.instrShape[0], p.instrShape[1], p.numBlocks, p.warpsPerCTA[0], p.warpsPerCTA[1]})
    if (!isPow2(x))
      return makeError("instrShape, numBlocks and warpsPerCTA must be powers of two, not " +
                       std::to_string(x));
  if (!((p.order[0] == 0 && p.order[1] == 1) || (p.order[0] == 1 && p.order[1] == 0)))
    return makeError("order must be a permutation of 0..1");
  if (auto err = detail::checkRank(2, shape); !err) return err.error();
  LAYOUT_TRY_ASSIGN(cta, detail::subgroup2DBlockCta(p));
  LAYOUT_TRY_ASSIGN(oneCta,
                    LinearLayout::create({{dims::block(), {}}},
                                         {{dims::standardOut(0), 1}, {dims::standardOut(1), 1}}));
  return detail::combineCtaCgaWithShape(cta, oneCta, shape);
}

} // namespace layout::triton
