// Subgroup-layout candidates and the dpas pick (xegpu.md §7 "DPAS sg layouts"; upstream's
// getSgLayoutCandidates / getDpasSubgroupLayouts).
#include "layout/xegpu/subgroup_layout_candidates.h"

#include "layout/text/internal/list_text.h"
#include "layout/xegpu/xegpu_layout.h"

#include <algorithm>
#include <string>

namespace layout::xegpu {

using layout::detail::listText;

namespace {

using Grid = std::vector<int64_t>;

// Every ordered way to write the total as a product of rank factors. Factors are drawn from the
// total's divisors (ascending), so the walk stays small even for rank 8 and 4096 subgroups.
void factorise(const Grid& divisors, int64_t remaining, size_t dim, Grid& current,
               std::vector<Grid>& out) {
  if (current.empty()) return; // rank 0 has no factorisation (and g++ 13 needs to see it)
  if (dim + 1 == current.size()) {
    current[dim] = remaining;
    out.emplace_back(current.begin(), current.end());
    return;
  }
  for (int64_t f : divisors) {
    if (f > remaining) break;
    if (remaining % f) continue;
    current[dim] = f;
    factorise(divisors, remaining / f, dim + 1, current, out);
  }
}

Expected<void> checkSizes(std::span<const int64_t> shape, std::span<const int64_t> instData,
                          const std::string& what) {
  if (shape.empty() || shape.size() > kMaxCandidateRank)
    return makeError(what + ": the shape " + listText(shape) + " must have rank 1 to " +
                     std::to_string(kMaxCandidateRank));
  if (instData.size() != shape.size())
    return makeError(what + ": instData " + listText(instData) +
                     " must have the rank of the shape " + listText(shape));
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] <= 0 || instData[d] <= 0)
      return makeError(what + ": shape and instData entries must be positive, got " +
                       listText(shape) + " and " + listText(instData));
  return {};
}

} // namespace

Expected<std::vector<std::vector<int64_t>>>
subgroupLayoutCandidates(int64_t numSubgroups, std::span<const int64_t> shape,
                         std::span<const int64_t> instData, int64_t broadcastDim) {
  if (numSubgroups < 1 || numSubgroups > kMaxCandidateSubgroups)
    return makeError("numSubgroups: " + std::to_string(numSubgroups) + " is not in [1, " +
                     std::to_string(kMaxCandidateSubgroups) + "]");
  LAYOUT_TRY(checkSizes(shape, instData, "subgroup layout candidates"));
  if (broadcastDim < -1 || broadcastDim >= int64_t(shape.size()))
    return makeError("broadcastDim: " + std::to_string(broadcastDim) + " is not a dim of " +
                     listText(shape) + " (or -1)");
  std::vector<Grid> all;
  Grid current(shape.size(), 1);
  Grid divisors;
  for (int64_t f = 1; f <= numSubgroups; ++f)
    if (numSubgroups % f == 0) divisors.push_back(f);
  factorise(divisors, numSubgroups, 0, current, all);
  std::vector<Grid> out;
  for (const Grid& g : all) {
    bool ok = true;
    for (size_t d = 0; d < shape.size() && ok; ++d) {
      // A broadcast dim stays whole in every subgroup, so only the instruction tile must fit.
      if (int64_t(d) == broadcastDim) {
        ok = shape[d] % instData[d] == 0;
        continue;
      }
      ok = shape[d] % g[d] == 0 && (shape[d] / g[d]) % instData[d] == 0;
    }
    if (ok) out.push_back(g);
  }
  // Balanced grids first: they give the squarest per-subgroup tiles.
  std::stable_sort(out.begin(), out.end(), [](const Grid& a, const Grid& b) {
    auto spread = [](const Grid& v) {
      return *std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end());
    };
    if (spread(a) != spread(b)) return spread(a) < spread(b);
    return a < b;
  });
  return out;
}

Expected<std::vector<std::vector<int64_t>>>
dpasSubgroupLayoutCandidates(const std::string& operand, int64_t numSubgroups,
                             std::span<const int64_t> shape, std::span<const int64_t> instData) {
  if (shape.size() != 2)
    return makeError("dpas candidates: the " + operand + " shape " + listText(shape) +
                     " must have rank 2");
  if (operand == "a") return subgroupLayoutCandidates(numSubgroups, shape, instData, 1);
  if (operand == "b") return subgroupLayoutCandidates(numSubgroups, shape, instData, 0);
  if (operand == "cd") return subgroupLayoutCandidates(numSubgroups, shape, instData, -1);
  return makeError("dpas candidates: operand '" + operand + "' is not a, b or cd");
}

Expected<std::vector<int64_t>>
pickDpasSubgroupLayout(int64_t numSubgroups, std::span<const int64_t> shapeA,
                       std::span<const int64_t> shapeB, std::span<const int64_t> instA,
                       std::span<const int64_t> instB, std::span<const int64_t> instCD,
                       const std::optional<std::vector<int64_t>>& consumerSgLayout) {
  if (shapeA.size() != 2 || shapeB.size() != 2)
    return makeError("dpas: shapeA and shapeB must have rank 2, got " + listText(shapeA) + " and " +
                     listText(shapeB));
  const int64_t shapeCD[] = {shapeA[0], shapeB[1]};
  LAYOUT_TRY_ASSIGN(a, dpasSubgroupLayoutCandidates("a", numSubgroups, shapeA, instA));
  LAYOUT_TRY_ASSIGN(b, dpasSubgroupLayoutCandidates("b", numSubgroups, shapeB, instB));
  LAYOUT_TRY_ASSIGN(cd, dpasSubgroupLayoutCandidates("cd", numSubgroups, shapeCD, instCD));
  std::optional<Grid> pick;
  for (const Grid& g : b) {
    if (std::find(a.begin(), a.end(), g) == a.end() ||
        std::find(cd.begin(), cd.end(), g) == cd.end())
      continue;
    if (consumerSgLayout && g == *consumerSgLayout) return g;
    if (!pick) pick = g;
  }
  if (!pick)
    return makeError("dpas: no sg_layout of " + std::to_string(numSubgroups) +
                     " subgroups splits A " + listText(shapeA) + ", B " + listText(shapeB) +
                     " and C/D " + listText(shapeCD) + " into whole instruction tiles (A " +
                     listText(instA) + ", B " + listText(instB) + ", C/D " + listText(instCD) +
                     ")");
  return *pick;
}

} // namespace layout::xegpu
