// The source (and so result) layout upstream sets up for vector.multi_reduction at each level
// (xegpu.md §7 "multi_reduction"; setupMultiReductionResultLayout and
// computeReductionLaneLayoutAndData of the version named in §0).
#include "layout/xegpu/reduction_layout.h"

#include "layout/text/internal/list_text.h"
#include "propagation_util.h"

#include <algorithm>
#include <string>

namespace layout::xegpu {

using layout::detail::listText;

namespace {

using detail::Dims;

bool isReduced(const Dims& dims, int64_t d) {
  return std::find(dims.begin(), dims.end(), d) != dims.end();
}

Expected<void> checkSetup(const ReductionSetup& s) {
  const auto& shape = s.sourceShape;
  if (shape.empty() || shape.size() > 8)
    return makeError("multi_reduction: sourceShape " + listText(shape) + " must have rank 1 to 8");
  for (int64_t v : shape)
    if (v < 1)
      return makeError("multi_reduction: sourceShape " + listText(shape) +
                       " must have positive sizes");
  if (s.reductionDims.empty())
    return makeError("multi_reduction: reductionDims is empty (a reduction reduces at least one "
                     "dim)");
  for (size_t i = 0; i < s.reductionDims.size(); ++i) {
    const int64_t d = s.reductionDims[i];
    if (d < 0 || d >= int64_t(shape.size()) || (i && s.reductionDims[i - 1] >= d))
      return makeError("multi_reduction: reductionDims " + listText(s.reductionDims) +
                       " must be ascending dims of the source " + listText(shape));
  }
  if (s.subgroupSize < 1 || s.maxReduceVectorSize < 1)
    return makeError("multi_reduction: subgroupSize and maxReduceVectorSize must be at least 1");
  return {};
}

// Subgroup level, consumer not reusable: the consumer's sg_layout / sg_data (and order) go on the
// non-reduction dims in turn; the subgroups left go on the reduction dims, as many as each holds.
Expected<XeLayout> subgroupsFromScratch(const ReductionSetup& s,
                                        const std::optional<XeLayout>& consumer) {
  const int rank = int(s.sourceShape.size());
  Dims cSg, cData, cOrder;
  int64_t remaining = s.numSubgroups;
  bool withOrder = false;
  if (consumer) {
    if (consumer->sgLayout.empty())
      return makeError("multi_reduction: the consumer layout " + consumer->text +
                       " has no sg_layout (at subgroup level give a workgroup layout, or none and "
                       "numSubgroups)");
    cSg = consumer->effective(consumer->sgLayout);
    cData = consumer->effective(consumer->sgData);
    cOrder = consumer->sliceEffectiveOrder();
    withOrder = !consumer->order.empty();
    // Upstream counts the consumer's subgroups (its whole root grid), not numSubgroups.
    remaining = detail::productOf(consumer->sgLayout);
  }
  if (remaining < 1)
    return makeError("multi_reduction: numSubgroups is needed at subgroup level when there is no "
                     "consumer layout");
  Dims sg(size_t(rank), 0), data(size_t(rank), 0), order(size_t(rank), 0);
  size_t next = 0;
  for (int i = 0; i < rank; ++i) {
    if (isReduced(s.reductionDims, i)) continue;
    if (next >= cSg.size())
      return makeError("multi_reduction: source dim " + std::to_string(i) +
                       " is not reduced, but the consumer's sg_layout " + listText(cSg) +
                       " has no dim left for it");
    sg[size_t(i)] = cSg[next];
    data[size_t(i)] = cData[next];
    order[size_t(i)] = cOrder[next];
    if (remaining % sg[size_t(i)])
      return makeError("multi_reduction: the consumer's sg_layout " + listText(cSg) +
                       " does not divide its " + std::to_string(remaining) + " subgroups");
    remaining /= sg[size_t(i)];
    ++next;
  }
  int64_t nextOrder = int64_t(cSg.size());
  for (int i = 0; i < rank; ++i) {
    if (!isReduced(s.reductionDims, i)) continue;
    const int64_t dim = s.sourceShape[size_t(i)];
    const int64_t g = std::min(dim, remaining);
    if (dim % g || remaining % g)
      return makeError("multi_reduction: " + std::to_string(remaining) +
                       " subgroups do not split reduction dim " + std::to_string(i) + " (size " +
                       std::to_string(dim) + ") evenly");
    sg[size_t(i)] = g;
    data[size_t(i)] = dim / g;
    order[size_t(i)] = nextOrder++;
    remaining /= g;
  }
  if (remaining != 1)
    return makeError("multi_reduction: " + std::to_string(remaining) +
                     " subgroups are left over after filling the source " +
                     listText(s.sourceShape) + " (sg_layout " + listText(sg) +
                     "); upstream asserts they all fit");
  return detail::plainLayout(sg, data, {}, {}, {}, withOrder ? order : Dims{});
}

} // namespace

LaneSplit reductionLaneSplit(std::span<const int64_t> shape, int64_t subgroupSize,
                             int64_t maxReduceVectorSize, bool vertical) {
  const int rank = int(shape.size());
  LaneSplit out{Dims(size_t(rank), 1), Dims(size_t(rank), 1)};
  if (rank == 0) return out;
  int laneDim = rank - 1, vectorDim = rank - 2;
  if (vertical && vectorDim >= 0) std::swap(laneDim, vectorDim);
  out.laneLayout[size_t(laneDim)] = std::min(subgroupSize, shape[size_t(laneDim)]);
  if (vectorDim >= 0)
    out.laneData[size_t(vectorDim)] = std::min(maxReduceVectorSize, shape[size_t(vectorDim)]);
  return out;
}

Expected<XeLayout> multiReductionSourceLayout(const ReductionSetup& s,
                                              const std::optional<XeLayout>& consumer) {
  LAYOUT_TRY(checkSetup(s));
  const int rank = int(s.sourceShape.size());
  if (consumer && consumer->form == XeLayout::Form::SgMap)
    return makeError("multi_reduction: the consumer layout " + consumer->text +
                     " is an #xegpu.sg_map; use #xegpu.layout");
  if (consumer && consumer->rank() != rank - int(s.reductionDims.size()) &&
      s.level != LayoutKind::Subgroup)
    return makeError("multi_reduction: the consumer layout " + consumer->text + " has rank " +
                     std::to_string(consumer->rank()) + ", the result has rank " +
                     std::to_string(rank - int(s.reductionDims.size())));
  // The consumer slices exactly the reduction dims: its parent can be the source as it is.
  const bool reusable = consumer && consumer->isSlice && consumer->sliceDims == s.reductionDims &&
                        consumer->rootRank() == rank;
  const Dims consumerSliced = consumer && consumer->isSlice ? consumer->sliceDims : Dims{};
  // Lanes move to dim rank-2 when only the innermost dim is reduced and nothing downstream
  // broadcasts the result back: each lane then reduces its own row.
  const bool vertical =
      consumerSliced.empty() && s.reductionDims.size() == 1 && s.reductionDims[0] == rank - 1;
  if (s.level == LayoutKind::Subgroup) {
    if (!reusable) return subgroupsFromScratch(s, consumer);
    XeLayout src = *consumer;
    src.isSlice = false;
    src.sliceDims.clear();
    if (src.sgLayout.empty())
      return makeError("multi_reduction: the consumer layout " + consumer->text +
                       " has no sg_layout");
    // sg_data grows on the reduction dims so the subgroups cover the whole source.
    bool divides = true;
    for (int d = 0; d < rank; ++d)
      divides = divides && s.sourceShape[size_t(d)] % src.sgLayout[size_t(d)] == 0;
    if (divides)
      for (int64_t d : s.reductionDims)
        src.sgData[size_t(d)] = s.sourceShape[size_t(d)] / src.sgLayout[size_t(d)];
    return src;
  }
  if (s.level == LayoutKind::Lane) {
    for (int d = 0; d + 2 < rank; ++d)
      if (s.sourceShape[size_t(d)] != 1)
        return makeError("multi_reduction: at lane level only the two innermost dims may be "
                         "larger than 1, the source is " +
                         listText(s.sourceShape));
    if (reusable) {
      XeLayout src = *consumer;
      src.isSlice = false;
      src.sliceDims.clear();
      return src;
    }
  }
  const LaneSplit split =
      reductionLaneSplit(s.sourceShape, s.subgroupSize, s.maxReduceVectorSize, vertical);
  if (s.level == LayoutKind::Lane)
    return detail::plainLayout({}, {}, {}, split.laneLayout, split.laneData);
  Dims inst(static_cast<size_t>(rank), 0);
  for (int d = 0; d < rank; ++d)
    inst[size_t(d)] = split.laneLayout[size_t(d)] * split.laneData[size_t(d)];
  return detail::plainLayout({}, {}, inst, split.laneLayout, split.laneData);
}

} // namespace layout::xegpu
