// Source layouts of vector.extract, vector.interleave / deinterleave and
// vector.insert_strided_slice from the result's (xegpu.md §7 "Source layout from result
// layout"; upstream's inferExtractSourceLayout, inferInterleaveSourceLayout,
// inferDeinterleaveSourceLayout, inferInsertStridedSliceSourceLayout and, at lane level,
// setupInsertStridedSliceResultLayout).
#include "layout/text/internal/list_text.h"
#include "layout/text/internal/quoted_input.h"
#include "layout/xegpu/layout_kind.h"
#include "propagation_ops.h"
#include "propagation_util.h"

#include <string>

namespace layout::xegpu {

using layout::detail::listText;

namespace {

using detail::Dims;
using detail::plainLayout;
using detail::setViewDimData;
using detail::verifiedText;

Expected<void> layoutForm(const std::string& op, const XeLayout& r) {
  if (r.form == XeLayout::Form::SgMap)
    return makeError(op + ": the result layout " + r.text +
                     " is an #xegpu.sg_map; this rule is defined on #xegpu.layout");
  return {};
}

Expected<void> rankMatches(const std::string& op, const XeLayout& r, const Dims& shape,
                           const char* key) {
  if (int64_t(shape.size()) != r.rank())
    return makeError(op + ": the result layout has rank " + std::to_string(r.rank()) + " but " +
                     key + " " + listText(shape) + " has rank " + std::to_string(shape.size()));
  return {};
}

// interleave doubles the innermost dim, so the source holds half of each innermost data field;
// deinterleave halves it, so the source holds twice as much.
Expected<SourceLayout> interleaveSource(const XeLayout& r, bool deinterleave) {
  const std::string op = deinterleave ? "deinterleave" : "interleave";
  LAYOUT_TRY(layoutForm(op, r));
  if (r.rank() < 1) return makeError(op + ": the result layout " + r.text + " has rank 0");
  XeLayout s = r;
  const size_t inner = size_t(r.rank() - 1);
  const size_t root = size_t(r.keptDims()[inner]);
  const std::pair<const char*, const Dims*> fields[] = {
      {"sg_data", &r.sgData}, {"inst_data", &r.instData}, {"lane_data", &r.laneData}};
  int64_t values[3] = {-1, -1, -1};
  for (int i = 0; i < 3; ++i) {
    const Dims& f = *fields[i].second;
    if (f.empty()) continue;
    if (!deinterleave && f[root] % 2)
      return makeError(op + ": " + fields[i].first + " " + listText(f) + " of " + r.text +
                       " is odd on the innermost dim; interleave halves it");
    values[i] = deinterleave ? f[root] * 2 : f[root] / 2;
  }
  setViewDimData(s, inner, values[0], values[1], values[2]);
  LAYOUT_TRY_ASSIGN(text, verifiedText(s, op + " source"));
  return SourceLayout{text};
}

} // namespace

// vector.extract drops leading dims: the source is the result with d unit dims put in front. The
// order (only when the result spells one) moves up by d and lists the new dims last, outermost
// last: result order [1, 2, 0], d = 2 -> [3, 4, 2, 1, 0].
Expected<SourceLayout> propagate(const ExtractRequest& req) {
  const XeLayout& r = req.result;
  LAYOUT_TRY(layoutForm("extract", r));
  LAYOUT_TRY(rankMatches("extract", r, req.resultShape, "resultShape"));
  const int64_t d = int64_t(req.sourceShape.size()) - int64_t(req.resultShape.size());
  if (d <= 0) {
    LAYOUT_TRY_ASSIGN(same, verifiedText(r, "extract source"));
    return SourceLayout{same};
  }
  auto grow = [&](const Dims& root) {
    Dims f = r.effective(root);
    if (!f.empty()) f.insert(f.begin(), size_t(d), 1);
    return f;
  };
  Dims order;
  if (!r.order.empty()) {
    for (int64_t o : r.sliceEffectiveOrder()) order.push_back(o + d);
    for (int64_t i = d - 1; i >= 0; --i) order.push_back(i);
  }
  const XeLayout s = plainLayout(grow(r.sgLayout), grow(r.sgData), grow(r.instData),
                                 grow(r.laneLayout), grow(r.laneData), order);
  LAYOUT_TRY_ASSIGN(text, verifiedText(s, "extract source"));
  return SourceLayout{text};
}

Expected<SourceLayout> propagate(const InterleaveRequest& req) {
  return interleaveSource(req.result, false);
}

Expected<SourceLayout> propagate(const DeinterleaveRequest& req) {
  return interleaveSource(req.result, true);
}

// insert_strided_slice: the dest operand has the result's layout; the source, of lower rank,
// drops the leading dims, which must not be distributed. At lane level the result layout is
// first set up from the consumer's: lane_data per dim is capped by what the source holds.
Expected<InsertStridedSliceLayouts> propagate(const InsertStridedSliceRequest& req) {
  const std::string op = "insert_strided_slice";
  const XeLayout& consumer = req.result;
  LAYOUT_TRY(layoutForm(op, consumer));
  if (consumer.isSlice)
    return makeError(op + ": the result layout " + consumer.text +
                     " is a slice; this rule takes a plain #xegpu.layout");
  LAYOUT_TRY(rankMatches(op, consumer, req.resultShape, "resultShape"));
  const Dims &src = req.sourceShape, &res = req.resultShape;
  if (src.empty() || src.size() > res.size())
    return makeError(op + ": sourceShape " + listText(src) +
                     " must have rank 1 up to the rank of resultShape " + listText(res));
  XeLayout r = consumer;
  InsertStridedSliceLayouts out;
  if (req.level) {
    LAYOUT_TRY_ASSIGN(level, parseLayoutKind(*req.level, op + ": level"));
    if (level != LayoutKind::Lane)
      return makeError(op + ": level " + layout::detail::quoteInput(*req.level) +
                       ": upstream sets up this op's layout at lane level only");
    if (r.laneLayout.empty())
      return makeError(op + ": the consumer layout " + r.text + " has no lane_layout");
    // Upstream walks the source's dims against the result's dims of the same index.
    for (size_t d = 0; d < src.size(); ++d) {
      int64_t lane = 1;
      if (src[d] != 1) {
        if (src[d] % r.laneLayout[d])
          return makeError(op + ": sourceShape " + listText(src) + " dim " + std::to_string(d) +
                           " is not a multiple of lane_layout " + listText(r.laneLayout));
        lane = std::min(src[d] / r.laneLayout[d], r.laneData[d]);
      }
      r.laneData[d] = lane;
    }
    LAYOUT_TRY_ASSIGN(resultText, verifiedText(r, op + " result"));
    out.result = resultText;
  }
  LAYOUT_TRY_ASSIGN(destText, verifiedText(r, op + " dest"));
  out.dest = destText;
  const size_t d = res.size() - src.size();
  for (size_t i = 0; i < d; ++i) {
    if ((!r.sgLayout.empty() && r.sgLayout[i] != 1) ||
        (!r.laneLayout.empty() && r.laneLayout[i] != 1))
      return makeError(op + ": leading dim " + std::to_string(i) + " of " + r.text +
                       " is dropped for the source but distributed (sg_layout " +
                       listText(r.sgLayout) + ", lane_layout " + listText(r.laneLayout) +
                       "); it must be 1 in both");
  }
  // dropDims of the d leading dims: every field loses them, order is renumbered.
  XeLayout s = r;
  for (Dims* f : {&s.sgLayout, &s.sgData, &s.instData, &s.laneLayout, &s.laneData})
    if (!f->empty()) f->erase(f->begin(), f->begin() + int64_t(d));
  if (!r.order.empty()) {
    s.order.clear();
    for (int64_t o : r.order)
      if (o >= int64_t(d)) s.order.push_back(o - int64_t(d));
  }
  LAYOUT_TRY_ASSIGN(text, verifiedText(s, op + " source"));
  out.source = text;
  return out;
}

} // namespace layout::xegpu
