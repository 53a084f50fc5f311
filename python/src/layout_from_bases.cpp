#include "layout_from_bases.h"

#include <string>

namespace gf2layout {

using layout::Expected;
using layout::LinearLayout;
using layout::makeError;

Expected<LinearLayout> layoutFromBases(const std::vector<layout::InDimBases>& ins,
                                       const std::vector<layout::DimName>& outDimNames,
                                       const std::vector<uint64_t>* outDimSizes,
                                       bool requireSurjective) {
  if (!outDimSizes) {
    if (!requireSurjective)
      return makeError("out_dim_sizes must be provided when require_surjective is false");
    return LinearLayout::createSurjective(ins, outDimNames);
  }
  if (outDimSizes->size() != outDimNames.size())
    return makeError("out_dim_names and out_dim_sizes must have the same length");
  std::vector<layout::DimSize> outs(outDimNames.size());
  for (size_t i = 0; i < outs.size(); ++i) {
    outs[i].name = outDimNames[i];
    outs[i].size = (*outDimSizes)[i];
  }
  auto l = LinearLayout::create(ins, outs);
  if (l && requireSurjective && !l->isSurjective())
    return makeError("from_bases: the layout is not surjective (require_surjective)");
  return l;
}

} // namespace gf2layout
