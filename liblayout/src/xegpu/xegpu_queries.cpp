// The integer queries of an XeGPU layout (upstream delinearizeId, computeDistributedCoords,
// computeDistributedShape), computed with integer arithmetic from the plan: they also answer
// shapes that are not powers of two, and they check toLinearLayout independently.
#include "layout/text/internal/list_text.h"
#include "layout/xegpu/xegpu_layout.h"

#include "xegpu_plan.h"

namespace layout::xegpu {

using detail::Plan;
using layout::detail::listText;

namespace {

// Lists longer than this are refused rather than built.
constexpr int64_t kMaxListed = int64_t{1} << 20;

Expected<int64_t> checkedProduct(int64_t a, int64_t b, const char* what) {
  if (b != 0 && a > INT64_MAX / b) return makeError(std::string(what) + " overflows 64 bits");
  return a * b;
}

Expected<void> checkId(const XeLayout& layout, int64_t id, Level level) {
  return checkIdInRange(layout, id, level, level == Level::Subgroup ? "subgroup id" : "lane id");
}

// Per tensor dim, the subgroup's offset ((g * sg_data) mod S), 0 for subgroup layouts.
std::vector<int64_t> subgroupOffsets(const Plan& plan, int64_t subgroupId) {
  std::vector<int64_t> offsets(plan.dims.size(), 0);
  const XeLayout& l = plan.layout;
  if (!l.isForWorkgroup()) return offsets;
  std::vector<int64_t> ids = detail::delinearizeGrid(l.sgLayout, l.effectiveOrder(), subgroupId);
  for (size_t j = 0; j < plan.dims.size(); ++j) {
    const detail::DimPlan& d = plan.dims[j];
    if (d.rootDim >= 0) offsets[j] = (ids[size_t(d.rootDim)] * d.sgBlock) % d.size;
  }
  return offsets;
}

} // namespace

int64_t idCount(const XeLayout& layout, Level level) {
  const std::vector<int64_t>& grid = level == Level::Subgroup ? layout.sgLayout : layout.laneLayout;
  if (grid.empty()) return 0;
  int64_t count = 1;
  for (int64_t g : grid) count = g > 0 && count <= INT64_MAX / g ? count * g : INT64_MAX;
  return count;
}

Expected<void> checkIdInRange(const XeLayout& layout, int64_t id, Level level,
                              std::string_view what) {
  if (id < 0) return makeError(std::string(what) + " " + std::to_string(id) + " is negative");
  const int64_t count = idCount(layout, level);
  if (count == 0 || id < count) return {};
  const bool sg = level == Level::Subgroup;
  const std::vector<int64_t>& grid = sg ? layout.sgLayout : layout.laneLayout;
  const char* field = sg                                     ? "sg_layout"
                      : layout.form == XeLayout::Form::SgMap ? "wi_layout"
                                                             : "lane_layout";
  return makeError(std::string(what) + ": " + std::to_string(id) +
                   " is outside the valid range [0, " + std::to_string(count - 1) + "] (" + field +
                   " " + listText(grid) + " has " + std::to_string(count) +
                   (sg ? " subgroups)" : " lanes)"));
}

Expected<std::vector<int64_t>> delinearize(const XeLayout& layout, int64_t id, Level level) {
  LAYOUT_TRY(checkId(layout, id, level));
  const std::vector<int64_t>& grid = level == Level::Subgroup ? layout.sgLayout : layout.laneLayout;
  if (grid.empty())
    return makeError(
        layout.text + " has no " +
        (level == Level::Subgroup ? std::string("sg_layout") : std::string("lane_layout")) +
        " to delinearize a " + (level == Level::Subgroup ? "subgroup" : "lane") + " id with");
  return detail::delinearizeGrid(grid, layout.effectiveOrder(), id);
}

Expected<SubgroupTiles> subgroupTiles(const XeLayout& layout, std::span<const int64_t> shape,
                                      int64_t subgroupId) {
  LAYOUT_TRY(checkId(layout, subgroupId, Level::Subgroup));
  if (!layout.isForWorkgroup())
    return makeError(layout.text +
                     " is a subgroup layout (no sg_layout): it has no subgroup tiles");
  // Like computeDistributedCoords, which upstream does not gate on isDistributable: the RFC's
  // [128, 128] example (sg_data [32, 128] on sg_layout [2, 2]) has tiles but does not verify.
  LAYOUT_TRY_ASSIGN(plan, detail::planDistribution(layout, shape, /*upstreamRule=*/false));
  SubgroupTiles out;
  int64_t count = 1;
  for (const detail::DimPlan& d : plan.dims) {
    out.tileShape.push_back(d.sgBlock);
    LAYOUT_TRY_ASSIGN(c, checkedProduct(count, d.blocks(), "the number of tiles"));
    count = c;
  }
  if (count > kMaxListed)
    return makeError("subgroup " + std::to_string(subgroupId) + " owns " + std::to_string(count) +
                     " tiles; at most 2^20 are listed");
  std::vector<int64_t> base = subgroupOffsets(plan, subgroupId);
  // computeDistributedCoords: the units of the shape, row-major (last dim fastest).
  for (int64_t t = 0; t < count; ++t) {
    std::vector<int64_t> offset(plan.dims.size());
    int64_t rem = t;
    for (size_t j = plan.dims.size(); j-- > 0;) {
      const detail::DimPlan& d = plan.dims[j];
      int64_t u = rem % d.blocks();
      rem /= d.blocks();
      offset[j] = (u * d.sgUnit + base[j]) % d.size;
    }
    out.tileOffsets.push_back(std::move(offset));
  }
  return out;
}

Expected<std::vector<std::vector<int64_t>>> laneCoords(const XeLayout& layout,
                                                       std::span<const int64_t> shape,
                                                       int64_t laneId,
                                                       std::optional<int64_t> subgroupId) {
  LAYOUT_TRY(checkId(layout, laneId, Level::Lane));
  if (layout.isForWorkgroup() && !subgroupId)
    return makeError(layout.text + " is a workgroup layout: laneCoords needs a subgroup id");
  if (subgroupId) LAYOUT_TRY(checkId(layout, *subgroupId, Level::Subgroup));
  LAYOUT_TRY_ASSIGN(plan, detail::planDistribution(layout, shape));
  std::vector<detail::Digit> digits = detail::registerDigits(plan);
  int64_t count = 1;
  for (const detail::Digit& g : digits) {
    LAYOUT_TRY_ASSIGN(c, checkedProduct(count, g.radix, "the number of registers"));
    count = c;
  }
  if (count > kMaxListed)
    return makeError("each lane holds " + std::to_string(count) +
                     " registers; at most 2^20 are listed");
  // Fixed part: the subgroup's block offset plus the lane's offset inside an inst tile.
  std::vector<int64_t> base = subgroupOffsets(plan, layout.isForWorkgroup() ? *subgroupId : 0);
  const XeLayout& l = plan.layout;
  if (!l.laneLayout.empty()) {
    std::vector<int64_t> ids = detail::delinearizeGrid(l.laneLayout, l.effectiveOrder(), laneId);
    for (size_t j = 0; j < plan.dims.size(); ++j) {
      const detail::DimPlan& d = plan.dims[j];
      if (d.rootDim >= 0) base[j] += (ids[size_t(d.rootDim)] * d.laneBlock) % d.inst;
    }
  }
  std::vector<std::vector<int64_t>> out;
  out.reserve(size_t(count));
  for (int64_t r = 0; r < count; ++r) {
    std::vector<int64_t> coord = base;
    int64_t rem = r;
    for (const detail::Digit& g : digits) {
      coord[size_t(g.dim)] += (rem % g.radix) * g.stride;
      rem /= g.radix;
    }
    for (size_t j = 0; j < coord.size(); ++j) coord[j] %= plan.dims[j].size;
    out.push_back(std::move(coord));
  }
  return out;
}

Expected<std::vector<int64_t>> distributedShape(const XeLayout& layout,
                                                std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(plan, detail::planDistribution(layout, shape));
  if (layout.form == XeLayout::Form::SgMap) {
    // The RFC's [n_distribution_units, wi_data size].
    int64_t units = 1, data = 1;
    for (const detail::DimPlan& d : plan.dims) {
      bool whole = d.rootDim < 0;
      LAYOUT_TRY_ASSIGN(u, checkedProduct(units, whole ? d.size : d.laneUnits(), "the shape"));
      LAYOUT_TRY_ASSIGN(w, checkedProduct(data, whole ? 1 : d.laneBlock, "the shape"));
      units = u;
      data = w;
    }
    return std::vector<int64_t>{units, data};
  }
  std::vector<int64_t> out;
  for (const detail::DimPlan& d : plan.dims) {
    if (d.rootDim < 0) {
      out.push_back(d.size);
      continue;
    }
    int64_t n = d.blocks();
    for (int64_t f : {d.tiles(), d.laneBlock, d.laneUnits()}) {
      LAYOUT_TRY_ASSIGN(p, checkedProduct(n, f, "the shape"));
      n = p;
    }
    out.push_back(n);
  }
  return out;
}

} // namespace layout::xegpu
