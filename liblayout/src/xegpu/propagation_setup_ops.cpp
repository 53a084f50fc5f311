// The propagate ops that run upstream's layout setup rather than a source-from-result rule:
// multi_reduction and dpas at a level, the subgroup-layout candidates, and level-based
// compatibility (xegpu.md §6-§7).
#include "layout/target/hardware_target.h"
#include "layout/text/internal/list_text.h"
#include "layout/xegpu/compatibility.h"
#include "layout/xegpu/reduction_layout.h"
#include "layout/xegpu/subgroup_layout_candidates.h"
#include "propagation_ops.h"
#include "propagation_util.h"

#include <string>

namespace layout::xegpu {

using detail::Dims;
using detail::plainLayout;
using detail::verifiedText;
using layout::detail::listText;

Expected<ReductionLayouts> propagate(const MultiReductionSetupRequest& req) {
  auto hw = target::hardwareTarget(req.target);
  if (!hw) return withContext(hw.error(), "multi_reduction: target");
  if (hw->subgroupSize < 1)
    return makeError("multi_reduction: target '" + hw->name + "' has no subgroup size");
  ReductionSetup setup;
  setup.level = req.level;
  setup.sourceShape = req.sourceShape;
  setup.reductionDims = req.reductionDims;
  std::sort(setup.reductionDims.begin(), setup.reductionDims.end());
  setup.numSubgroups = req.numSubgroups;
  setup.subgroupSize = hw->subgroupSize;
  setup.maxReduceVectorSize = req.maxReduceVectorSize;
  LAYOUT_TRY_ASSIGN(source, multiReductionSourceLayout(setup, req.consumer));
  LAYOUT_TRY_ASSIGN(sourceText, verifiedText(source, "multi_reduction source"));
  XeLayout result = source;
  result.sliceDims = setup.reductionDims;
  result.isSlice = true;
  LAYOUT_TRY_ASSIGN(resultText, verifiedText(result, "multi_reduction result"));
  // The accumulator has the result's layout.
  return ReductionLayouts{resultText, sourceText, resultText};
}

Expected<DpasLayouts> propagate(const DpasSubgroupRequest& req) {
  LAYOUT_TRY_ASSIGN(inst, detail::dpasInstShape(req.target, req.elementType));
  const Dims &a = req.shapeA, &b = req.shapeB;
  if (a.size() != 2 || b.size() != 2 || a[1] != b[0] || a[0] < 1 || a[1] < 1 || b[1] < 1)
    return makeError("dpas: shapeA [M, K] and shapeB [K, N] must be rank 2 with the same K, got " +
                     listText(a) + " and " + listText(b));
  // inst_data: the largest M the unit runs that divides the rows, its K, its N.
  int64_t m = 0;
  for (int64_t c = inst.maxM; c >= 1 && !m; --c)
    if (a[0] % c == 0) m = c;
  if (b[1] % inst.n)
    return makeError("dpas: N = " + std::to_string(b[1]) + " is not a multiple of the DPAS N " +
                     std::to_string(inst.n) + " on " + req.target);
  const Dims instA = {m, inst.k}, instB = {inst.k, inst.n}, instCD = {m, inst.n};
  std::optional<Dims> preferred;
  if (const auto& c = req.consumer; c && !c->sgLayout.empty())
    preferred = c->effective(c->sgLayout);
  LAYOUT_TRY_ASSIGN(
      g, pickDpasSubgroupLayout(req.numSubgroups, a, b, instA, instB, instCD, preferred));
  // K stays whole in every subgroup; M and N are split by the picked grid.
  const XeLayout la = plainLayout(g, {a[0] / g[0], a[1]}, {}, {}, {});
  const XeLayout lb = plainLayout(g, {b[0], b[1] / g[1]}, {}, {}, {});
  const XeLayout lc = plainLayout(g, {a[0] / g[0], b[1] / g[1]}, {}, {}, {});
  LAYOUT_TRY_ASSIGN(ta, verifiedText(la, "dpas operand a"));
  LAYOUT_TRY_ASSIGN(tb, verifiedText(lb, "dpas operand b"));
  LAYOUT_TRY_ASSIGN(tc, verifiedText(lc, "dpas operand c"));
  return DpasLayouts{ta, tb, tc};
}

Expected<SgLayoutCandidates> propagate(const SgLayoutCandidatesRequest& req) {
  LAYOUT_TRY_ASSIGN(list, subgroupLayoutCandidates(req.numSubgroups, req.shape, req.instData,
                                                   req.wholeDim.value_or(-1)));
  return SgLayoutCandidates{std::move(list)};
}

Expected<Compatibility> propagate(const CompatibleRequest& req) {
  LAYOUT_TRY_ASSIGN(same,
                    isCompatible(req.result, req.input, req.shape, req.level, req.partialSubgroup));
  return Compatibility{same};
}

} // namespace layout::xegpu
