// Distributability of a shape under an XeGPU layout (upstream isDistributable, xegpu.md §1.3)
// and the per-dim level parameters the queries and the linear layout share.
#include "xegpu_plan.h"

#include <algorithm>

namespace layout::xegpu::detail {

namespace {

constexpr int64_t kMaxDimSize = int64_t{1} << 40;

std::string shapeText(std::span<const int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// Number of ids of a grid, or an error past 2^40.
Expected<int64_t> gridSize(const std::vector<int64_t>& grid, const char* what) {
  int64_t n = 1;
  for (int64_t g : grid) {
    if (n > kMaxDimSize / g)
      return makeError(std::string(what) + " describes more than 2^40 ids, which is not supported");
    n *= g;
  }
  return n;
}

// sg_map on a tensor of lower rank (the RFC's 1-D loads): the leading dims must be 1 and are
// ignored, which is a slice of them.
Expected<XeLayout> dropSgMapLeadingDims(const XeLayout& layout, size_t tensorRank) {
  XeLayout l = layout;
  size_t extra = size_t(layout.rank()) - tensorRank;
  std::vector<int64_t> kept = layout.keptDims();
  for (size_t k = 0; k < extra; ++k) {
    int64_t d = kept[k];
    if (l.laneLayout[size_t(d)] != 1 || l.laneData[size_t(d)] != 1)
      return makeError("a " + std::to_string(tensorRank) + "-D tensor with " + layout.text +
                       " needs wi_layout[" + std::to_string(d) + "] = 1 and wi_data[" +
                       std::to_string(d) + "] = 1 (the leading dims are ignored)");
    l.sliceDims.push_back(d);
  }
  std::sort(l.sliceDims.begin(), l.sliceDims.end());
  return l;
}

} // namespace

std::vector<int64_t> delinearizeGrid(const std::vector<int64_t>& grid,
                                     const std::vector<int64_t>& order, int64_t id) {
  std::vector<int64_t> out(grid.size(), 0);
  int64_t rem = id;
  for (int64_t d : order) {
    out[size_t(d)] = rem % grid[size_t(d)];
    rem /= grid[size_t(d)];
  }
  return out;
}

Expected<Plan> planDistribution(const XeLayout& layout, std::span<const int64_t> shape,
                                bool upstreamRule) {
  if (shape.empty()) return makeError("expected non-zero rank tensor");
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] <= 0)
      return makeError("shape[" + std::to_string(i) + "] = " + std::to_string(shape[i]) +
                       ": dim sizes must be positive");
    if (shape[i] > kMaxDimSize)
      return makeError("shape[" + std::to_string(i) + "] = " + std::to_string(shape[i]) +
                       " exceeds 2^40");
  }
  if (layout.rootRank() == 0)
    return makeError(layout.text + " has no sg_layout, inst_data or lane_layout: it describes no "
                                   "distribution");
  LAYOUT_TRY(gridSize(layout.sgLayout, "sg_layout"));
  LAYOUT_TRY(gridSize(layout.laneLayout, "lane_layout"));

  Plan plan;
  plan.layout = layout;
  const size_t rank = size_t(layout.rank());
  if (shape.size() < rank && layout.form == XeLayout::Form::SgMap) {
    LAYOUT_TRY_ASSIGN(l, dropSgMapLeadingDims(layout, shape.size()));
    plan.layout = std::move(l);
  } else if (shape.size() != rank && (shape.size() < rank || layout.isForWorkgroup())) {
    // Extra leading dims are kept whole at lane level only (upstream
    // getDistVecTypeBasedOnLaneLayout); tensor descriptors need equal ranks.
    return makeError("expected layout rank to match tensor rank (layout " + layout.text +
                     " has rank " + std::to_string(rank) + ", the shape " + shapeText(shape) +
                     " has rank " + std::to_string(shape.size()) + ")");
  }
  const XeLayout& l = plan.layout;
  const std::vector<int64_t> kept = l.keptDims();
  const size_t lead = shape.size() - kept.size();
  const std::vector<int64_t> sgl = l.effective(l.sgLayout), sgd = l.effective(l.sgData),
                             inst = l.effective(l.instData), ll = l.effective(l.laneLayout),
                             ld = l.effective(l.laneData);
  const bool sgMap = l.form == XeLayout::Form::SgMap;
  auto fail = [&]() {
    return makeError("cannot distribute " + shapeText(shape) + " using " + layout.text);
  };

  // Upstream's subgroup stage (tryDistribute with round-robin) on whole shapes: shape / sg_layout
  // in every dim, else sg_layout / shape in every dim (shape kept); then the result divisible by
  // sg_data in every dim, or sg_data by it in every dim. Mixing directions across dims fails.
  if (upstreamRule && !sgl.empty()) {
    auto allDivide = [](const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
      for (size_t i = 0; i < a.size(); ++i)
        if (a[i] % b[i] != 0) return false;
      return true;
    };
    std::vector<int64_t> cur(shape.begin() + std::ptrdiff_t(lead), shape.end());
    if (allDivide(cur, sgl)) {
      for (size_t i = 0; i < cur.size(); ++i) cur[i] /= sgl[i];
    } else if (!allDivide(sgl, cur)) {
      return fail();
    }
    if (!allDivide(cur, sgd) && !allDivide(sgd, cur)) return fail();
  }
  for (size_t j = 0; j < shape.size(); ++j) {
    DimPlan d;
    d.size = shape[j];
    if (j < lead) { // kept whole in every lane's registers
      d.sgBlock = d.sgUnit = d.inst = d.laneBlock = d.laneUnit = d.size;
      plan.dims.push_back(d);
      continue;
    }
    const size_t i = j - lead;
    d.rootDim = int(kept[i]);
    // (a) subgroups, round-robin allowed both ways (per dim; the whole-shape rule is above).
    int64_t cur = d.size;
    if (!sgl.empty()) {
      d.sgGrid = sgl[i];
      d.sgBlock = sgd[i];
      if (cur % d.sgGrid == 0)
        cur /= d.sgGrid;
      else if (d.sgGrid % cur != 0)
        return fail();
      if (cur % d.sgBlock != 0 && d.sgBlock % cur != 0) return fail();
      cur = d.sgBlock;
    } else {
      d.sgBlock = d.size;
    }
    d.sgUnit = std::min(d.size, d.sgGrid * d.sgBlock);
    // (b) inst_data tiles, no round-robin.
    d.inst = cur;
    if (!inst.empty()) {
      if (cur % inst[i] != 0) return fail();
      d.inst = cur = inst[i];
    }
    // (c) lanes, no round-robin, except a dim equal to lane_data (replicated to every lane, 2026)
    // and, for sg_map, more lanes than elements (the RFC's 1-D example).
    d.laneBlock = cur;
    if (!ll.empty()) {
      d.laneGrid = ll[i];
      d.laneBlock = ld[i];
      bool ok = cur == d.laneBlock ||
                (cur % d.laneGrid == 0 && (cur / d.laneGrid) % d.laneBlock == 0) ||
                (sgMap && (d.laneGrid * d.laneBlock) % cur == 0 && cur % d.laneBlock == 0);
      if (!ok) return fail();
    }
    d.laneUnit = std::min(d.inst, d.laneGrid * d.laneBlock);
    plan.dims.push_back(d);
  }
  return plan;
}

std::vector<Digit> registerDigits(const Plan& plan) {
  std::vector<Digit> digits;
  auto add = [&](int dim, int64_t radix, int64_t stride) {
    if (radix > 1) digits.push_back({dim, radix, stride});
  };
  const int n = int(plan.dims.size());
  auto distributed = [&](int i) { return plan.dims[size_t(i)].rootDim >= 0; };
  if (plan.layout.form == XeLayout::Form::SgMap) {
    // The RFC: lane_data elements packed first, then the distribution units, both row-major.
    for (int i = n - 1; i >= 0; --i)
      if (distributed(i)) add(i, plan.dims[size_t(i)].laneBlock, 1);
    for (int i = n - 1; i >= 0; --i)
      if (distributed(i)) add(i, plan.dims[size_t(i)].laneUnits(), plan.dims[size_t(i)].laneUnit);
  } else {
    // Row-major over the per-lane shape; in a dim the lane_data offset is the low part.
    for (int i = n - 1; i >= 0; --i) {
      if (!distributed(i)) continue;
      const DimPlan& d = plan.dims[size_t(i)];
      add(i, d.laneBlock, 1);
      add(i, d.laneUnits(), d.laneUnit);
    }
    for (int i = n - 1; i >= 0; --i)
      if (distributed(i)) add(i, plan.dims[size_t(i)].tiles(), plan.dims[size_t(i)].inst);
    for (int i = n - 1; i >= 0; --i)
      if (distributed(i)) add(i, plan.dims[size_t(i)].blocks(), plan.dims[size_t(i)].sgUnit);
  }
  for (int i = n - 1; i >= 0; --i)
    if (!distributed(i)) add(i, plan.dims[size_t(i)].size, 1);
  return digits;
}

} // namespace layout::xegpu::detail
