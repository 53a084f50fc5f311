#include "layout/triton/linear_encoding_of.h"

#include "layout/text/internal/quoted_input.h"
#include "layout/triton/encoding_params.h"

#include <string>

namespace layout::triton {

Expected<Encoding> linearEncodingOf(const LinearLayout& l) {
  for (int o = 0; o < l.numOutDims(); ++o)
    if (l.outDimName(o) != dims::standardOut(o))
      return makeError("out-dim " + std::to_string(o) + " is " +
                       layout::detail::quoteInput(std::string(l.outDimName(o).str())) +
                       ": #ttg.linear describes tensors whose dims are dim0, dim1, ... in order");
  const bool shared = l.inDimIndex(dims::offset()) >= 0;
  LinearEncoding distributed;
  SharedLinearEncoding sharedLinear;
  for (int d = 0; d < l.numInDims(); ++d) {
    const DimName name = l.inDimName(d);
    Bases* bases = nullptr;
    if (shared) {
      if (name == dims::offset()) bases = &sharedLinear.offset;
      if (name == dims::block()) bases = &sharedLinear.block;
    } else {
      if (name == dims::reg()) bases = &distributed.registers;
      if (name == dims::lane()) bases = &distributed.lanes;
      if (name == dims::warp()) bases = &distributed.warps;
      if (name == dims::block()) bases = &distributed.blocks;
    }
    if (!bases)
      return makeError("in-dim " + layout::detail::quoteInput(std::string(name.str())) +
                       " is not " +
                       (shared ? "offset or block (#ttg.shared_linear)"
                               : "register, lane, warp or block (#ttg.linear)"));
    for (int b = 0; b < l.inDimSizeLog2(d); ++b) {
      std::vector<int64_t> v;
      for (int o = 0; o < l.numOutDims(); ++o) v.push_back(int64_t(l.basis(d, b, o)));
      bases->push_back(std::move(v));
    }
  }
  return shared ? toEncoding(sharedLinear) : toEncoding(distributed);
}

} // namespace layout::triton
