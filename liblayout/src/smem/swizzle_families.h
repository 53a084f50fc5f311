// Internal to smem: the parametric families (swizzle_families.cpp) that synthesizeSwizzle
// (swizzle_synthesis.cpp) compares its result with.
#pragma once

#include "layout/smem/swizzle_synthesis.h"

#include <cstdint>
#include <vector>

namespace layout::smem::detail {

// The row-XOR families on 2-D tiles: the best (vec, perPhase, maxPhase) of Triton's
// swizzled_shared over both orders, seed 004's best (swizzle unit, max phase) and the member its
// rule picks, appended to res.families. Other ranks add nothing.
void searchFamilies(const SwizzleRequest& req, const std::vector<int64_t>& shape,
                    SwizzleResult& res);

// Fills c.explanation: where the family member is worse than the synthesized layout `res`, and
// which of seed 004's exceptions explains it.
void explainFamily(FamilyCandidate& c, const SwizzleResult& res, const SwizzleRequest& req);

} // namespace layout::smem::detail
