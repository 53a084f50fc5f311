// Triton's LinearLayout.from_bases semantics over already-converted arguments, shared by the
// module's general binding and its fast path (layout_fast_calls.h) so both build the same layout
// and give the same errors.
#pragma once

#include "layout/core/linear_layout.h"

#include <cstdint>
#include <vector>

namespace gf2layout {

// With out sizes (non-null): LinearLayout::create, then (if requireSurjective) the surjectivity check.
// Without: createSurjective, which infers the sizes and requires surjectivity (Triton refuses
// require_surjective=False without sizes, and so does this).
//
//   auto l = layoutFromBases({{DimName("x"), {{1}, {2}}}}, {DimName("y")}, nullptr, true);
//   // x -> y over 4 elements
layout::Expected<layout::LinearLayout>
layoutFromBases(const std::vector<layout::InDimBases>& ins,
                const std::vector<layout::DimName>& outDimNames,
                const std::vector<uint64_t>* outDimSizes, bool requireSurjective);

} // namespace gf2layout
