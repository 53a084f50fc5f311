// An XeGPU layout on a shape as a linear layout (xegpu.md §10). With power-of-two sizes every
// term of ((u*unit + g*block) mod S) + w occupies its own bits, so each register digit bit, lane
// id bit and subgroup id bit maps to one coordinate bit, or to 0 where `mod` drops it
// (broadcast / replicated ids).
#include "layout/xegpu/xegpu_layout.h"

#include "xegpu_plan.h"

#include <algorithm>
#include <bit>

namespace layout::xegpu {

namespace {

int log2Of(int64_t v) {
  return std::countr_zero(uint64_t(v));
}

// Upstream accepts any sizes; GF(2) needs powers of two. Names the first offender.
Expected<void> checkPowersOfTwo(const XeLayout& l, std::span<const int64_t> shape) {
  auto bad = [&](const std::string& what, int64_t v) {
    return makeError("cannot represent " + l.text + " as a linear layout: " + what + " = " +
                     std::to_string(v) +
                     " is not a power of two (linear layouts over GF(2) need power-of-two sizes)");
  };
  const bool sgMap = l.form == XeLayout::Form::SgMap;
  const std::pair<std::string, const std::vector<int64_t>*> fields[] = {
      {"sg_layout", &l.sgLayout},
      {"sg_data", &l.sgData},
      {"inst_data", &l.instData},
      {sgMap ? "wi_layout" : "lane_layout", &l.laneLayout},
      {sgMap ? "wi_data" : "lane_data", &l.laneData},
  };
  const std::vector<int64_t>& sliced = l.sliceDims;
  for (const auto& [name, field] : fields)
    for (size_t i = 0; i < field->size(); ++i) {
      // Only the grids of sliced dims matter: they still split the id bits.
      bool isGrid = field == &l.sgLayout || field == &l.laneLayout;
      if (!isGrid && std::find(sliced.begin(), sliced.end(), int64_t(i)) != sliced.end()) continue;
      if (!std::has_single_bit(uint64_t((*field)[i])))
        return bad(name + "[" + std::to_string(i) + "]", (*field)[i]);
    }
  for (size_t i = 0; i < shape.size(); ++i)
    if (!std::has_single_bit(uint64_t(shape[i])))
      return bad("shape[" + std::to_string(i) + "]", shape[i]);
  return {};
}

// Bases of an id in-dim over `grid` (root dims, linearized by `order`): id bit b of root dim k
// adds block << b to the tensor dim of k, kept only below `limit` and the dim size.
std::vector<std::vector<uint64_t>> idBases(const detail::Plan& plan,
                                           const std::vector<int64_t>& grid, bool lane) {
  std::vector<std::vector<uint64_t>> bases;
  const size_t n = plan.dims.size();
  for (int64_t k : plan.layout.effectiveOrder()) {
    if (grid.empty()) break;
    int dim = -1;
    for (size_t j = 0; j < n; ++j)
      if (plan.dims[j].rootDim == int(k)) dim = int(j);
    for (int b = 0; b < log2Of(grid[size_t(k)]); ++b) {
      std::vector<uint64_t> basis(n, 0);
      if (dim >= 0) { // a sliced dim's ids are ignored
        const detail::DimPlan& d = plan.dims[size_t(dim)];
        uint64_t v = uint64_t(lane ? d.laneBlock : d.sgBlock) << b;
        uint64_t limit = uint64_t(lane ? d.inst : d.size);
        if (v < limit && v < uint64_t(d.size)) basis[size_t(dim)] = v;
      }
      bases.push_back(std::move(basis));
    }
  }
  return bases;
}

} // namespace

Expected<LinearLayout> toLinearLayout(const XeLayout& layout, std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(plan, detail::planDistribution(layout, shape));
  LAYOUT_TRY(checkPowersOfTwo(layout, shape));
  const size_t n = plan.dims.size();
  std::vector<std::vector<uint64_t>> regs;
  for (const detail::Digit& g : detail::registerDigits(plan)) {
    for (int b = 0; b < log2Of(g.radix); ++b) {
      std::vector<uint64_t> basis(n, 0);
      uint64_t v = uint64_t(g.stride) << b;
      if (v < uint64_t(plan.dims[size_t(g.dim)].size)) basis[size_t(g.dim)] = v;
      regs.push_back(std::move(basis));
    }
  }
  std::vector<InDimBases> ins = {
      {dims::reg(), std::move(regs)},
      {dims::lane(), idBases(plan, plan.layout.laneLayout, /*lane=*/true)},
      {dims::warp(), idBases(plan, plan.layout.sgLayout, /*lane=*/false)},
      {dims::block(), {}},
  };
  std::vector<DimSize> outs;
  for (size_t j = 0; j < n; ++j)
    outs.push_back({dims::standardOut(int(j)), uint64_t(plan.dims[j].size)});
  return LinearLayout::create(ins, outs);
}

} // namespace layout::xegpu
