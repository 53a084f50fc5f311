// Classification of a layout conversion (layout/core/conversion_kind.h).
#include "layout/core/conversion_kind.h"

#include <algorithm>
#include <array>

namespace layout {

namespace {

std::array<DimName, 4> hardwareDims() {
  return {dims::reg(), dims::lane(), dims::warp(), dims::block()};
}

std::string dimsText(const std::vector<DimSize>& ds) {
  std::string s;
  for (size_t i = 0; i < ds.size(); ++i)
    s += (i ? ", " : "") + std::string(ds[i].name.str()) + "=" + std::to_string(ds[i].size);
  return "(" + s + ")";
}

// The layout with in-dims exactly register, lane, warp, block (absent ones of size 1).
Expected<LinearLayout> normalize(const LinearLayout& l, const std::string& side) {
  const std::array<DimName, 4> names = hardwareDims();
  for (DimName n : l.inDimNames())
    if (std::find(names.begin(), names.end(), n) == names.end())
      return makeError(side + ": in-dim '" + std::string(n.str()) +
                       "' is not register, lane, warp or block (a distributed layout is needed)");
  std::vector<InDimBases> ins;
  for (DimName n : names) {
    int i = l.inDimIndex(n);
    ins.push_back({n, i >= 0 ? l.inDims()[i].bases : std::vector<std::vector<uint64_t>>{}});
  }
  return LinearLayout::create(ins, l.outDims());
}

// Same tensor, same hardware (lanes, warps, blocks), every element held.
Expected<void> checkPair(const LinearLayout& src, const LinearLayout& dst) {
  if (src.outDimNames() != dst.outDimNames())
    return makeError("dst: out-dims " + dimsText(dst.outDims()) + " differ from src's " +
                     dimsText(src.outDims()));
  for (int i = 0; i < src.numOutDims(); ++i)
    if (src.outDimSize(i) != dst.outDimSize(i))
      return makeError("dst: " + std::string(dst.outDimName(i).str()) + " has size " +
                       std::to_string(dst.outDimSize(i)) + " but src has " +
                       std::to_string(src.outDimSize(i)) + " (both must cover the same tensor)");
  const char* plural[] = {"registers", "lanes", "warps", "blocks"};
  for (int d = 1; d < 4; ++d)
    if (src.inDimSize(d) != dst.inDimSize(d))
      return makeError("dst: " + std::string(dst.inDimName(d).str()) + " has " +
                       std::to_string(dst.inDimSize(d)) + " " + plural[d] + " but src has " +
                       std::to_string(src.inDimSize(d)));
  for (auto [l, side] : {std::pair{&src, "src"}, std::pair{&dst, "dst"}})
    if (!l->isSurjective())
      return makeError(std::string(side) +
                       ": does not hold every element of the tensor (not surjective)");
  return {};
}

} // namespace

std::string_view conversionKindName(ConversionKind k) {
  switch (k) {
  case ConversionKind::None:
    return "none";
  case ConversionKind::RegisterPermutation:
    return "registerPermutation";
  case ConversionKind::WarpShuffle:
    return "warpShuffle";
  case ConversionKind::SharedMemory:
    return "sharedMemory";
  }
  return "none";
}

Expected<ConversionClass> classifyConversion(const LinearLayout& srcIn, const LinearLayout& dstIn) {
  ConversionClass c;
  LAYOUT_TRY_ASSIGN(src, normalize(srcIn, "src"));
  LAYOUT_TRY_ASSIGN(dst, normalize(dstIn, "dst"));
  LAYOUT_TRY(checkPair(src, dst));
  auto comp = dst.invertAndCompose(src);
  if (!comp) return withContext(comp.error(), "comp = dst.invertAndCompose(src)");
  LAYOUT_TRY_ASSIGN(compOrdered, comp->transposeOuts(hardwareDims()));
  c.comp = std::move(compOrdered);
  c.src = std::move(src);
  c.dst = std::move(dst);
  if (c.src == c.dst) return c; // ConversionKind::None
  const std::array<DimName, 3> lwb = {dims::lane(), dims::warp(), dims::block()};
  const std::array<DimName, 2> wb = {dims::warp(), dims::block()};
  LAYOUT_TRY_ASSIGN(inThread, c.comp.isTrivialOver(lwb));
  LAYOUT_TRY_ASSIGN(inWarp, c.comp.isTrivialOver(wb));
  c.kind = inThread ? ConversionKind::RegisterPermutation
           : inWarp ? ConversionKind::WarpShuffle
                    : ConversionKind::SharedMemory;
  return c;
}

} // namespace layout
