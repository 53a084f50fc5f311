// Distributed TritonGPU encodings: blocked, slice, linear.
#include "encoding_internal.h"

#include "layout/core/shape_fitting.h"

namespace layout::triton::detail {

namespace {

std::vector<uint64_t> toUnsigned(const std::vector<int64_t>& v) {
  return std::vector<uint64_t>(v.begin(), v.end());
}

std::vector<int> toInt(const std::vector<int64_t>& v) {
  return std::vector<int>(v.begin(), v.end());
}

} // namespace

// identityStandardND(register, sizePerThread, order) * (lane, threadsPerWarp) * (warp,
// warpsPerCTA), then fitted to the shape with the CGA.
Expected<LinearLayout> blockedToLinearLayout(const AttrValue& attr,
                                             std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(spt, intList(attr, "sizePerThread"));
  LAYOUT_TRY_ASSIGN(tpw, intList(attr, "threadsPerWarp"));
  LAYOUT_TRY_ASSIGN(wpc, intList(attr, "warpsPerCTA"));
  LAYOUT_TRY_ASSIGN(order, intList(attr, "order"));
  const std::vector<int> ord = toInt(order);
  LAYOUT_TRY_ASSIGN(regs, identityStandardND(dims::reg(), toUnsigned(spt), ord));
  LAYOUT_TRY_ASSIGN(lanes, identityStandardND(dims::lane(), toUnsigned(tpw), ord));
  LAYOUT_TRY_ASSIGN(warps, identityStandardND(dims::warp(), toUnsigned(wpc), ord));
  LAYOUT_TRY_ASSIGN(rl, product(regs, lanes));
  LAYOUT_TRY_ASSIGN(cta, product(rl, warps));
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(attr, int(order.size())));
  return combineCtaCgaWithShape(cta, cga, shape);
}

// The parent's layout on the shape with a 1 inserted at `dim`, without that out-dim; register
// bases that become zero are dropped (zero lane / warp bases stay: broadcast).
Expected<LinearLayout> sliceToLinearLayout(const AttrValue& attr, std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(dim, intParam(attr, "dim"));
  LAYOUT_TRY_ASSIGN(parent, encodingFromAttr(*attr.find("parent")));
  if (dim < 0 || dim > int64_t(shape.size()))
    return makeErrorAt(attr.find("dim")->location, std::string("slice dim ") + std::to_string(dim) +
                                                       " does not fit a tensor of rank " +
                                                       std::to_string(shape.size()));
  std::vector<int64_t> parentShape(shape.begin(), shape.end());
  parentShape.insert(parentShape.begin() + dim, 1);
  LAYOUT_TRY_ASSIGN(p, toLinearLayout(parent, parentShape));
  const int rank = int(shape.size());
  std::vector<InDimBases> ins;
  for (const InDimBases& d : p.inDims()) {
    InDimBases out{d.name, {}};
    for (const auto& basis : d.bases) {
      std::vector<uint64_t> comps;
      for (int o = 0; o <= rank; ++o)
        if (o != dim) comps.push_back(basis[o]);
      bool zero = std::all_of(comps.begin(), comps.end(), [](uint64_t c) { return c == 0; });
      if (zero && d.name == dims::reg()) continue;
      out.bases.push_back(std::move(comps));
    }
    ins.push_back(std::move(out));
  }
  std::vector<DimSize> outs;
  for (int o = 0; o < rank; ++o) outs.push_back({dims::standardOut(o), uint64_t(shape[o])});
  return LinearLayout::create(ins, outs);
}

namespace {

// The bases of the named in-dims of a #ttg.linear / #ttg.shared_linear attribute, with out-dims
// dim0.. sized to hold them (the layout must be surjective).
Expected<LinearLayout> storedLayout(const AttrValue& attr,
                                    std::initializer_list<const char*> keys) {
  std::vector<InDimBases> ins;
  int rank = -1;
  for (const char* key : keys) {
    LAYOUT_TRY_ASSIGN(bases, basesParam(attr, key));
    InDimBases d{DimName(key), {}};
    for (size_t i = 0; i < bases.size(); ++i) {
      if (rank < 0) rank = int(bases[i].size());
      if (int(bases[i].size()) != rank)
        return makeErrorAt((attr.find(key)->items[i]).location,
                           std::string("'") + key + "' basis " + std::to_string(i) + " has " +
                               std::to_string(bases[i].size()) +
                               " components; earlier bases have " + std::to_string(rank));
      d.bases.push_back(std::vector<uint64_t>(bases[i].begin(), bases[i].end()));
    }
    ins.push_back(std::move(d));
  }
  if (rank < 1)
    return makeErrorAt(attr.location,
                       std::string("#") + attr.text + " needs at least one nonempty basis list");
  std::vector<DimName> outs;
  for (int o = 0; o < rank; ++o) outs.push_back(dims::standardOut(o));
  auto l = LinearLayout::createSurjective(ins, outs);
  if (!l)
    return makeErrorAt(attr.location, std::string("#") + attr.text + ": " + l.error().message);
  return l;
}

} // namespace

Expected<LinearLayout> storedLinearLayout(const AttrValue& attr) {
  return storedLayout(attr, {"register", "lane", "warp", "block"});
}

Expected<LinearLayout> storedSharedLinearLayout(const AttrValue& attr) {
  return storedLayout(attr, {"offset", "block"});
}

// The stored layout grown by offsets / broadcast to the shape, out-dims in standard order.
Expected<LinearLayout> sharedLinearToLinearLayout(const AttrValue& attr,
                                                  std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(ll, storedSharedLinearLayout(attr));
  if (auto err = checkRank(size_t(ll.numOutDims()), shape); !err) return err.error();
  return fitToShape(ll, shape);
}

// Triton's LinearEncodingAttr::toLinearLayout: outs in the register order, grown by registers,
// shrunk without register broadcasting, outs back in standard order.
Expected<LinearLayout> linearToLinearLayout(const AttrValue& attr, std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(ll, storedLinearLayout(attr));
  const int rank = ll.numOutDims();
  if (auto err = checkRank(size_t(rank), shape); !err) return err.error();
  // orderPerDim(register): dims in the order register bases first touch them, then the rest
  // from the most minor (rank-1) down.
  std::vector<int> order;
  auto add = [&order](int d) {
    if (std::find(order.begin(), order.end(), d) == order.end()) order.push_back(d);
  };
  int r = ll.inDimIndex(dims::reg());
  for (int i = 0; i < ll.inDimSizeLog2(r); ++i)
    for (int o = 0; o < rank; ++o)
      if (ll.basis(r, i, o) != 0) {
        add(o);
        break;
      }
  for (int o = rank - 1; o >= 0; --o) add(o);
  std::vector<DimName> permuted;
  std::vector<DimSize> named;
  for (int d : order) {
    permuted.push_back(dims::standardOut(d));
    named.push_back({dims::standardOut(d), uint64_t(shape[d])});
  }
  LAYOUT_TRY_ASSIGN(t, ll.transposeOuts(permuted));
  LAYOUT_TRY_ASSIGN(grown, ensureLayoutNotSmallerThan(t, named));
  LAYOUT_TRY_ASSIGN(fitted, ensureLayoutNotLargerThan(grown, named, /*broadcastRegisters=*/false));
  return fitted.transposeOuts(ll.outDimNames());
}

} // namespace layout::triton::detail
