// The CTA grid (CGA) part of TritonGPU encodings, and Triton's combineCtaCgaWithShape.
#include "encoding_internal.h"

#include "layout/core/shape_fitting.h"

#include <algorithm>
#include <bit>

namespace layout::triton::detail {

namespace {

std::vector<DimName> standardOutNames(int rank) {
  std::vector<DimName> names;
  for (int d = 0; d < rank; ++d) names.push_back(dims::standardOut(d));
  return names;
}

std::vector<DimSize> namedShape(std::span<const int64_t> shape) {
  std::vector<DimSize> s;
  for (size_t d = 0; d < shape.size(); ++d)
    s.push_back({dims::standardOut(int(d)), uint64_t(shape[d])});
  return s;
}

} // namespace

Expected<void> checkRank(size_t encodingRank, std::span<const int64_t> shape) {
  if (encodingRank == shape.size()) return {};
  return makeError("the encoding has rank " + std::to_string(encodingRank) +
                   " but the tensor shape has rank " + std::to_string(shape.size()));
}

Expected<LinearLayout> fitToShape(const LinearLayout& layout, std::span<const int64_t> shape) {
  const std::vector<DimSize> named = namedShape(shape);
  LAYOUT_TRY_ASSIGN(grown, ensureLayoutNotSmallerThan(layout, named));
  return ensureLayoutNotLargerThan(grown, named);
}

Expected<void> multiplyInto(LinearLayout& acc, const Expected<LinearLayout>& factor) {
  if (!factor) return factor.error();
  auto next = product(acc, *factor);
  if (!next) return next.error();
  acc = std::move(*next);
  return {};
}

Expected<LinearLayout> cgaLayout(const AttrValue& attr, int rank) {
  const std::vector<DimName> outs = standardOutNames(rank);
  if (const AttrValue* cga = attr.find("CGALayout")) {
    LAYOUT_TRY_ASSIGN(bases, basesParam(attr, "CGALayout"));
    InDimBases block{dims::block(), {}};
    for (size_t i = 0; i < bases.size(); ++i) {
      if (int(bases[i].size()) != rank)
        return makeErrorAt((cga->items[i]).location,
                           std::string("CGALayout basis ") + std::to_string(i) + " has " +
                               std::to_string(bases[i].size()) +
                               " components; the encoding has rank " + std::to_string(rank));
      block.bases.push_back(std::vector<uint64_t>(bases[i].begin(), bases[i].end()));
    }
    auto l = LinearLayout::createSurjective({block}, outs);
    if (!l) return makeErrorAt(cga->location, std::string("CGALayout: ") + l.error().message);
    return l;
  }
  const bool legacy = attr.find("CTAsPerCGA") || attr.find("CTASplitNum") || attr.find("CTAOrder");
  if (!legacy) {
    std::vector<DimSize> sizes;
    for (DimName n : outs) sizes.push_back({n, 1});
    return LinearLayout::create({{dims::block(), {}}}, sizes);
  }
  LAYOUT_TRY_ASSIGN(ctas, intList(attr, "CTAsPerCGA"));
  LAYOUT_TRY_ASSIGN(split, intList(attr, "CTASplitNum"));
  LAYOUT_TRY_ASSIGN(order, intList(attr, "CTAOrder"));
  for (auto [key, list] : {std::pair{"CTAsPerCGA", &ctas}, std::pair{"CTASplitNum", &split},
                           std::pair{"CTAOrder", &order}})
    if (int(list->size()) != rank)
      return makeErrorAt(attr.find(key)->location,
                         std::string("'") + key + "' has rank " + std::to_string(list->size()) +
                             "; the encoding has rank " + std::to_string(rank));
  LinearLayout ret;
  std::vector<bool> seen(rank);
  for (int i = 0; i < rank; ++i) {
    int64_t d = order[i];
    if (d < 0 || d >= rank || seen[d])
      return makeErrorAt(attr.find("CTAOrder")->location,
                         std::string("'CTAOrder' must be a permutation of 0..") +
                             std::to_string(rank - 1));
    seen[d] = true;
    if (ctas[d] < 1 || split[d] < 1 || ctas[d] % split[d] != 0 ||
        !std::has_single_bit(uint64_t(ctas[d])) || !std::has_single_bit(uint64_t(split[d])))
      return makeErrorAt(attr.find("CTASplitNum")->location,
                         std::string("dim ") + std::to_string(d) + ": CTAsPerCGA (" +
                             std::to_string(ctas[d]) + ") and CTASplitNum (" +
                             std::to_string(split[d]) +
                             ") must be powers of two, and CTASplitNum must divide CTAsPerCGA");
    // Split CTAs own distinct tiles; the rest replicate them (zero bases).
    LAYOUT_TRY_ASSIGN(id, LinearLayout::identity1D(uint64_t(split[d]), dims::block(), outs[d]));
    LAYOUT_TRY_ASSIGN(zeros,
                      LinearLayout::zeros1D(uint64_t(ctas[d] / split[d]), dims::block(), outs[d]));
    LAYOUT_TRY_ASSIGN(part, product(id, zeros));
    LAYOUT_TRY_ASSIGN(next, product(ret, part));
    ret = std::move(next);
  }
  return ret.transposeOuts(outs);
}

std::vector<int64_t> shapePerCTA(const LinearLayout& cga, std::span<const int64_t> shape) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t split = int64_t(cga.outDimSize(dims::standardOut(int(d))));
    out.push_back(shape[d] / std::min(shape[d], split));
  }
  return out;
}

Expected<LinearLayout> combineCtaCgaWithShape(const LinearLayout& ctaIn, const LinearLayout& cgaIn,
                                              std::span<const int64_t> shape) {
  const int rank = int(shape.size());
  if (auto err = checkRank(size_t(ctaIn.numOutDims()), shape); !err) return err.error();
  if (auto err = checkRank(size_t(cgaIn.numOutDims()), shape); !err) return err.error();
  const std::vector<DimSize> labeled = namedShape(shape);
  LAYOUT_TRY_ASSIGN(cgaFit, ensureLayoutNotLargerThan(cgaIn, labeled));
  LAYOUT_TRY_ASSIGN(cga, cgaFit.transposeOuts(ctaIn.outDimNames()));
  std::vector<DimSize> ctaShape;
  for (int o = 0; o < ctaIn.numOutDims(); ++o) {
    DimName n = ctaIn.outDimName(o);
    int d = 0;
    while (d < rank && dims::standardOut(d) != n) ++d;
    if (d == rank)
      return makeError("internal: out-dim '" + std::string(n.str()) + "' is not standard");
    int64_t want = shape[d];
    ctaShape.push_back({n, uint64_t(std::max<int64_t>(1, want / int64_t(cga.outDimSize(o))))});
  }
  LAYOUT_TRY_ASSIGN(grown, ensureLayoutNotSmallerThan(ctaIn, ctaShape));
  LAYOUT_TRY_ASSIGN(cta, ensureLayoutNotLargerThan(grown, ctaShape));
  LAYOUT_TRY_ASSIGN(combined, product(cta, cga));
  return combined.transposeOuts(standardOutNames(rank));
}

} // namespace layout::triton::detail
