// Upstream's subgroup-layout candidates (docs/reference/xegpu.md §7 "DPAS sg layouts"): every
// way to split numSg subgroups over the dims of a workgroup tile whose per-subgroup tile divides
// the tile and is a multiple of the instruction tile, most balanced first; and the pick one
// sg_layout makes for the A, B and C/D operands of a dpas together.
//
//   int64_t shape[] = {128, 64}, inst[] = {8, 16};
//   auto c = subgroupLayoutCandidates(32, shape, inst);   // [[8, 4], [16, 2]]
#pragma once

#include "layout/core/expected.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace layout::xegpu {

// The most subgroups and the highest rank the enumeration takes (the factorisations grow fast).
inline constexpr int64_t kMaxCandidateSubgroups = 4096;
inline constexpr size_t kMaxCandidateRank = 8;

// All ordered factorisations of numSubgroups into shape.size() factors g with
//   shape[d] % g[d] == 0 and (shape[d] / g[d]) % instData[d] == 0,
// except that `broadcastDim` (a dim every subgroup holds whole, such as K of a dpas operand;
// -1 for none) is not split: shape[d] % instData[d] == 0 is all it needs. Sorted by
// max(g) - min(g), ties lexicographically.
Expected<std::vector<std::vector<int64_t>>>
subgroupLayoutCandidates(int64_t numSubgroups, std::span<const int64_t> shape,
                         std::span<const int64_t> instData, int64_t broadcastDim = -1);

// The dpas candidates of one operand: A keeps K (its last dim) whole, B keeps K (its first dim)
// whole, C/D splits both (`operand` is "a", "b" or "cd").
Expected<std::vector<std::vector<int64_t>>>
dpasSubgroupLayoutCandidates(const std::string& operand, int64_t numSubgroups,
                             std::span<const int64_t> shape, std::span<const int64_t> instData);

// The one sg_layout for A [M, K], B [K, N] and C/D [M, N]: walking B's candidates in order, the
// first that is also a candidate of A and of C/D, unless a later such one equals the consumer's
// sg_layout, which then wins. An error when no candidate suits all three.
Expected<std::vector<int64_t>>
pickDpasSubgroupLayout(int64_t numSubgroups, std::span<const int64_t> shapeA,
                       std::span<const int64_t> shapeB, std::span<const int64_t> instA,
                       std::span<const int64_t> instB, std::span<const int64_t> instCD,
                       const std::optional<std::vector<int64_t>>& consumerSgLayout);

} // namespace layout::xegpu
