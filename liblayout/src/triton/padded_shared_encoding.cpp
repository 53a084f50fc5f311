// #ttg.padded_shared: a linear component (offset, block -> dims) plus padding inserted every
// `interval` elements, applied to offsets after the linear map.
#include "encoding_internal.h"

#include "layout/core/shape_fitting.h"

#include <bit>

namespace layout::triton::detail {

Expected<std::vector<std::pair<int64_t, int64_t>>> paddingIntervals(const AttrValue& attr) {
  if (attr.items.empty() || attr.items[0].kind != AttrValue::Kind::List ||
      attr.items[0].items.empty())
    return makeErrorAt(attr.location,
                       "#ttg.padded_shared needs a list of interval:+pad pairs, e.g. "
                       "[32:+4]");
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const AttrValue& p : attr.items[0].items) {
    if (p.kind != AttrValue::Kind::Padding)
      return makeErrorAt(p.location,
                         std::string("expected interval:+pad, got ") + kindName(p.kind));
    // PaddedSharedEncodingAttr::verify's rules and messages. The padding of each interval is
    // added independently, so the order of the pairs does not matter.
    if (p.integer < 1 || !std::has_single_bit(uint64_t(p.integer)))
      return makeErrorAt(p.location, std::string("interval ") + std::to_string(p.integer) +
                                         ": interval values must all be power of two");
    if (p.padding < 1 || !std::has_single_bit(uint64_t(p.padding)))
      return makeErrorAt(p.location, std::string("padding ") + std::to_string(p.padding) +
                                         ": padding values must all be power of two");
    for (const auto& [interval, unused] : out)
      if (interval == p.integer)
        return makeErrorAt(p.location, std::string("interval ") + std::to_string(p.integer) +
                                           ": interval values cannot have duplicates");
    out.push_back({p.integer, p.padding});
  }
  return out;
}

// The linear component: explicit `offset` / `block` bases, or the short form {order, shape} =
// identityStandardND(offset, shape, order) with out-dims in standard order.
Expected<LinearLayout> paddedLinearComponent(const AttrValue& attr) {
  if (attr.find("offset") || attr.find("block")) {
    // PaddedSharedEncodingAttr's parser and verifier: both bases given, each basis of either
    // in-dim moving along at most one dim by 0 or a power of two.
    for (const char* key : {"offset", "block"})
      if (!attr.find(key))
        return makeErrorAt(attr.location, std::string("Expected basis of '") + key + "' not found");
    for (const char* key : {"offset", "block"}) {
      LAYOUT_TRY_ASSIGN(bases, basesParam(attr, key));
      for (const auto& basis : bases) {
        int moving = 0;
        for (int64_t c : basis) {
          moving += c != 0;
          if (c != 0 && !std::has_single_bit(uint64_t(c)))
            return makeErrorAt(attr.find(key)->location,
                               std::string("'") + key +
                                   "': Each offset basis must be 0 or a power of two.");
        }
        if (moving > 1)
          return makeErrorAt(attr.find(key)->location,
                             std::string("'") + key +
                                 "': Each offset basis must move in at most one dimension.");
      }
    }
    return storedSharedLinearLayout(attr);
  }
  LAYOUT_TRY_ASSIGN(order, intList(attr, "order"));
  LAYOUT_TRY_ASSIGN(shape, intList(attr, "shape"));
  if (order.size() != shape.size() || shape.empty())
    return makeErrorAt(attr.location,
                       "'order' and 'shape' of #ttg.padded_shared must have the same "
                       "nonzero rank");
  std::vector<uint64_t> sizes;
  for (int64_t s : shape) {
    if (s < 1 || !std::has_single_bit(uint64_t(s)))
      return makeErrorAt(attr.find("shape")->location, "'shape' entries must be powers of two");
    sizes.push_back(uint64_t(s));
  }
  LAYOUT_TRY_ASSIGN(
      ll, identityStandardND(dims::offset(), sizes, std::vector<int>(order.begin(), order.end())));
  std::vector<DimName> standard;
  for (size_t d = 0; d < shape.size(); ++d) standard.push_back(dims::standardOut(int(d)));
  LAYOUT_TRY_ASSIGN(t, ll.transposeOuts(standard));
  // One CTA: a size-1 block dim, as Triton's shared layouts always have.
  LAYOUT_TRY_ASSIGN(block, LinearLayout::create({{dims::block(), {}}}, t.outDims()));
  return t.concatIns(block);
}

Expected<LinearLayout> paddedSharedToLinearLayout(const AttrValue& attr,
                                                  std::span<const int64_t> shape) {
  LAYOUT_TRY(paddingIntervals(attr));
  LAYOUT_TRY_ASSIGN(ll, paddedLinearComponent(attr));
  if (auto err = checkRank(size_t(ll.numOutDims()), shape); !err) return err.error();
  return fitToShape(ll, shape);
}

} // namespace layout::triton::detail

namespace layout::triton {

Expected<std::function<uint64_t(uint64_t)>> paddedSharedAddressMap(const Encoding& encoding) {
  if (encoding.kind != EncodingKind::PaddedShared)
    return makeError("paddedSharedAddress: #" + encoding.attr.text + " has no padding");
  LAYOUT_TRY_ASSIGN(intervals, detail::paddingIntervals(encoding.attr));
  std::vector<std::pair<int, int>> shifts; // (log2 interval, log2 pad)
  for (auto [interval, pad] : intervals)
    shifts.emplace_back(std::countr_zero(uint64_t(interval)), std::countr_zero(uint64_t(pad)));
  return std::function<uint64_t(uint64_t)>([shifts](uint64_t offset) {
    uint64_t address = offset;
    for (auto [interval, pad] : shifts) address += (offset >> interval) << pad;
    return address;
  });
}

Expected<uint64_t> paddedSharedAddress(const Encoding& encoding, uint64_t offset) {
  LAYOUT_TRY_ASSIGN(map, paddedSharedAddressMap(encoding));
  return map(offset);
}

} // namespace layout::triton
