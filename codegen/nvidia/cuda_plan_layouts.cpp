// Layout helpers of the NVIDIA GEMM planners (cuda_plan_layouts.h).
#include "cuda_plan_layouts.h"

#include <vector>

namespace layout::codegen::cuda_plan {

namespace dims = layout::dims;

TileCoord at(const LinearLayout& ll, uint64_t reg, uint64_t lane, uint64_t warp) {
  std::vector<uint64_t> in(static_cast<size_t>(ll.numInDims()), 0);
  auto set = [&](DimName name, uint64_t v) {
    if (int i = ll.inDimIndex(name); i >= 0) in[static_cast<size_t>(i)] = v;
  };
  set(dims::reg(), reg);
  set(dims::lane(), lane);
  set(dims::warp(), warp);
  uint64_t out[2] = {0, 0};
  ll.apply(in, out);
  return {static_cast<int64_t>(out[0]), static_cast<int64_t>(out[1])};
}

Expected<LinearLayout> swapOutDims(const LinearLayout& ll) {
  std::vector<InDimBases> ins;
  for (const InDimBases& d : ll.inDims()) {
    InDimBases s{d.name, {}};
    for (const auto& b : d.bases) s.bases.push_back({b[1], b[0]});
    ins.push_back(std::move(s));
  }
  return LinearLayout::create(
      ins, {{ll.outDimName(0), ll.outDimSize(1)}, {ll.outDimName(1), ll.outDimSize(0)}});
}

Expected<LinearLayout> distributedLayout(const triton::Encoding& encoding, int64_t rows,
                                         int64_t cols) {
  const int64_t shape[] = {rows, cols};
  LAYOUT_TRY_ASSIGN(ll, triton::toLinearLayout(encoding, shape));
  const DimName ins[] = {dims::reg(), dims::lane(), dims::warp()};
  const DimName outs[] = {ll.outDimName(0), ll.outDimName(1)};
  return ll.sublayout(ins, outs);
}

Expected<LinearLayout> sharedLayout(const triton::Encoding& encoding, int64_t rows, int64_t cols) {
  const int64_t shape[] = {rows, cols};
  LAYOUT_TRY_ASSIGN(ll, triton::toLinearLayout(encoding, shape));
  const DimName ins[] = {dims::offset()};
  const DimName outs[] = {ll.outDimName(0), ll.outDimName(1)};
  return ll.sublayout(ins, outs);
}

} // namespace layout::codegen::cuda_plan
