// Reading and verifying #xegpu.layout / #xegpu.slice / #xegpu.sg_map attributes. The checks and
// their wording follow upstream's LayoutAttr::verify and SliceAttr::verify (xegpu.md §1.1, §5);
// the few checks upstream lacks (positive sizes, order a permutation, slice dims in range) are
// ours, so that no input reaches arithmetic it cannot survive.
#include "layout/xegpu/xegpu_layout.h"

#include "layout/text/internal/list_text.h"
#include "layout/text/internal/quoted_input.h"
#include "layout/xegpu/internal/xegpu_attr_value.h"

#include <algorithm>
#include <numeric>

namespace layout::xegpu {

using layout::detail::listText;

namespace {

// Upstream stores the fields as DenseI32ArrayAttr.
Expected<std::vector<int64_t>> i32List(const AttrValue& v, const std::string& key) {
  if (v.kind != AttrValue::Kind::List)
    return makeErrorAt(v.location, std::string("'") + key + "' must be a list of integers, not " +
                                       kindName(v.kind));
  std::vector<int64_t> out;
  for (const AttrValue& item : v.items) {
    if (item.kind != AttrValue::Kind::Integer)
      return makeErrorAt(item.location, std::string("'") + key +
                                            "' must be a list of integers, but holds " +
                                            kindName(item.kind));
    if (item.integer < INT32_MIN || item.integer > INT32_MAX)
      return makeErrorAt(item.location, std::string("'") + key + "' holds " +
                                            std::to_string(item.integer) +
                                            ", which does not fit in i32");
    out.push_back(item.integer);
  }
  return out;
}

Error verifyError(const AttrValue& attr, const std::string& message) {
  return makeErrorAt(attr.location, message);
}

// LayoutAttr::verify, newest version, in upstream's order.
Expected<void> verifyLayout(const AttrValue& attr, const XeLayout& l) {
  const auto &sgl = l.sgLayout, &sgd = l.sgData, &inst = l.instData, &ll = l.laneLayout,
             &ld = l.laneData, &ord = l.order;
  if (sgl.empty() && inst.empty() && ll.empty()) return {}; // the empty layout is legal
  if (!sgl.empty() && !inst.empty() && sgl.size() != inst.size())
    return verifyError(attr, "expected sg_layout and inst_data to have the same rank");
  if (!sgl.empty() && !ll.empty() && sgl.size() != ll.size())
    return verifyError(attr, "expected sg_layout and lane_layout to have the same rank");
  if (!inst.empty() && !ll.empty() && inst.size() != ll.size())
    return verifyError(attr, "expected inst_data and lane_layout to have the same rank, got "
                             "inst_data " +
                                 std::to_string(inst.size()) + ", lane_layout " +
                                 std::to_string(ll.size()));
  if (sgl.empty() != sgd.empty())
    return verifyError(attr, "sg_layout and sg_data must be used together");
  if (!sgl.empty() && sgl.size() != sgd.size())
    return verifyError(attr, "expected sg_data and sg_layout to have the same rank");
  if (ll.empty() != ld.empty())
    return verifyError(attr, "lane_layout and lane_data must be used together");
  if (!ll.empty() && ll.size() != ld.size())
    return verifyError(attr, "expected lane_data and lane_layout to have the same rank");
  if (!ord.empty() && sgl.empty() && ll.empty())
    return verifyError(attr, "expected sg_layout/lane_layout being used with order");
  if (!ord.empty() && !sgl.empty() && ord.size() != sgl.size())
    return verifyError(attr, "expected order and sg_layout to have the same rank");
  if (!ord.empty() && !ll.empty() && ord.size() != ll.size())
    return verifyError(attr, "expected order and lane_layout to have the same rank");
  return {};
}

// Our checks, after upstream's: sizes positive, order a permutation.
Expected<void> verifySizes(const AttrValue& attr, const XeLayout& l) {
  const std::pair<const char*, const std::vector<int64_t>*> fields[] = {
      {"sg_layout", &l.sgLayout},     {"sg_data", &l.sgData},     {"inst_data", &l.instData},
      {"lane_layout", &l.laneLayout}, {"lane_data", &l.laneData},
  };
  const char* laneName = l.form == XeLayout::Form::SgMap ? "wi_layout" : "lane_layout";
  const char* dataName = l.form == XeLayout::Form::SgMap ? "wi_data" : "lane_data";
  for (auto [name, field] : fields) {
    std::string shown = field == &l.laneLayout ? laneName : field == &l.laneData ? dataName : name;
    for (size_t i = 0; i < field->size(); ++i)
      if ((*field)[i] <= 0)
        return verifyError(attr, shown + "[" + std::to_string(i) + "] = " +
                                     std::to_string((*field)[i]) + ": sizes must be positive");
  }
  if (!l.order.empty()) {
    std::vector<int64_t> sorted = l.order;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i)
      if (sorted[i] != int64_t(i))
        return verifyError(attr, "order " + listText(l.order) + " must be a permutation of 0.." +
                                     std::to_string(sorted.size() - 1));
  }
  return {};
}

Expected<XeLayout> layoutFromAttr(const AttrValue& attr) {
  XeLayout l;
  if (!attr.items.empty())
    return makeErrorAt(attr.items[0].location,
                       "#xegpu.layout takes only named parameters (sg_layout = [..], ...)");
  for (const AttrEntry& e : attr.entries) {
    std::vector<int64_t>* field = e.key == "sg_layout"     ? &l.sgLayout
                                  : e.key == "sg_data"     ? &l.sgData
                                  : e.key == "inst_data"   ? &l.instData
                                  : e.key == "lane_layout" ? &l.laneLayout
                                  : e.key == "lane_data"   ? &l.laneData
                                  : e.key == "order"       ? &l.order
                                                           : nullptr;
    if (!field)
      return makeErrorAt(
          e.value.location,
          std::string("unknown parameter '") + e.key +
              "' of #xegpu.layout (expected sg_layout, sg_data, inst_data, lane_layout, "
              "lane_data or order)");
    LAYOUT_TRY_ASSIGN(values, i32List(e.value, e.key));
    if (values.empty())
      return makeErrorAt(e.value.location,
                         std::string("'") + e.key + "' must not be empty (omit it instead)");
    if (!field->empty())
      return makeErrorAt(e.value.location, std::string("'") + e.key + "' is given twice");
    *field = std::move(values);
  }
  LAYOUT_TRY(verifyLayout(attr, l));
  LAYOUT_TRY(verifySizes(attr, l));
  return l;
}

Expected<XeLayout> sgMapFromAttr(const AttrValue& attr) {
  XeLayout l;
  l.form = XeLayout::Form::SgMap;
  if (!attr.items.empty())
    return makeErrorAt(attr.items[0].location, "#xegpu.sg_map takes only wi_layout and wi_data");
  for (const AttrEntry& e : attr.entries) {
    std::vector<int64_t>* field = e.key == "wi_layout" ? &l.laneLayout
                                  : e.key == "wi_data" ? &l.laneData
                                                       : nullptr;
    if (!field)
      return makeErrorAt(e.value.location,
                         std::string("unknown parameter '") + e.key +
                             "' of #xegpu.sg_map (expected wi_layout and wi_data)");
    LAYOUT_TRY_ASSIGN(values, i32List(e.value, e.key));
    if (values.empty())
      return makeErrorAt(e.value.location, std::string("'") + e.key + "' must not be empty");
    if (!field->empty())
      return makeErrorAt(e.value.location, std::string("'") + e.key + "' is given twice");
    *field = std::move(values);
  }
  if (l.laneLayout.empty())
    return makeErrorAt(attr.location, "#xegpu.sg_map needs the parameter 'wi_layout'");
  if (l.laneData.empty())
    return makeErrorAt(attr.location, "#xegpu.sg_map needs the parameter 'wi_data'");
  if (l.laneLayout.size() != l.laneData.size())
    return verifyError(attr, "expected wi_data and wi_layout to have the same rank");
  LAYOUT_TRY(verifySizes(attr, l));
  return l;
}

Expected<XeLayout> sliceFromAttr(const AttrValue& attr) {
  if (attr.items.empty() || attr.items[0].kind != AttrValue::Kind::Attribute)
    return makeErrorAt(attr.location,
                       "#xegpu.slice needs a parent layout: #xegpu.slice<#parent, dims "
                       "= [..]>");
  const AttrValue& parentAttr = attr.items[0];
  if (parentAttr.text != "xegpu.layout" && parentAttr.text != "xegpu.slice")
    return makeErrorAt(parentAttr.location, "the parent of #xegpu.slice must be #xegpu.layout or "
                                            "#xegpu.slice, not #" +
                                                parentAttr.text);
  LAYOUT_TRY_ASSIGN(parent, xegpuFromAttr(parentAttr));
  // dims: `dims = [..]` (upstream's assembly) or a positional integer / list (the RFC's).
  const AttrValue* dimsValue = attr.find("dims");
  if (attr.items.size() > 2 || (dimsValue && attr.items.size() > 1))
    return makeErrorAt(attr.location, "#xegpu.slice takes a parent and dims = [..]");
  for (const AttrEntry& e : attr.entries)
    if (e.key != "dims")
      return makeErrorAt(e.value.location, std::string("unknown parameter '") + e.key +
                                               "' of #xegpu.slice (expected dims)");
  if (!dimsValue && attr.items.size() == 2) dimsValue = &attr.items[1];
  if (!dimsValue) return verifyError(attr, "expected dims attribute");
  std::vector<int64_t> dims;
  if (dimsValue->kind == AttrValue::Kind::Integer) {
    dims.push_back(dimsValue->integer);
  } else {
    if (dimsValue->kind != AttrValue::Kind::List)
      return makeErrorAt(dimsValue->location,
                         std::string("'dims' must be a list of integers, not ") +
                             kindName(dimsValue->kind));
    for (const AttrValue& item : dimsValue->items) {
      if (item.kind != AttrValue::Kind::Integer)
        return makeErrorAt(item.location,
                           std::string("'dims' must be a list of integers, but holds ") +
                               kindName(item.kind));
      dims.push_back(item.integer);
    }
  }
  // SliceAttr::verify; then ours: every dim indexes the parent.
  std::vector<int64_t> seen;
  for (int64_t d : dims) {
    if (d < 0)
      return verifyError(attr, "invalid dim (" + std::to_string(d) + ") in slice attribute.");
    if (std::find(seen.begin(), seen.end(), d) != seen.end())
      return verifyError(attr, "repeated dim (" + std::to_string(d) + ") in slice attribute.");
    seen.push_back(d);
  }
  std::vector<int64_t> remaining = parent.keptDims();
  for (int64_t d : dims)
    if (d >= int64_t(remaining.size()))
      return verifyError(attr, "dim (" + std::to_string(d) +
                                   ") in slice attribute is out of range: the parent has rank " +
                                   std::to_string(remaining.size()));
  // flatten(): this slice's dims index the parent's remaining dims.
  XeLayout l = std::move(parent);
  for (int64_t d : dims) l.sliceDims.push_back(remaining[size_t(d)]);
  std::sort(l.sliceDims.begin(), l.sliceDims.end());
  l.isSlice = true;
  return l;
}

} // namespace

int XeLayout::rootRank() const {
  if (!sgLayout.empty()) return int(sgLayout.size());
  if (!instData.empty()) return int(instData.size());
  return int(laneLayout.size());
}

int XeLayout::rank() const {
  return rootRank() - int(sliceDims.size());
}

std::vector<int64_t> XeLayout::effectiveOrder() const {
  if (!order.empty()) return order;
  std::vector<int64_t> o(static_cast<size_t>(rootRank()));
  for (int i = 0; i < rootRank(); ++i) o[size_t(i)] = rootRank() - 1 - i;
  return o;
}

std::vector<int64_t> XeLayout::sliceEffectiveOrder() const {
  const std::vector<int64_t> kept = keptDims();
  std::vector<int64_t> out;
  for (int64_t d : effectiveOrder())
    if (std::binary_search(kept.begin(), kept.end(), d))
      out.push_back(std::lower_bound(kept.begin(), kept.end(), d) - kept.begin());
  return out;
}

std::vector<int64_t> XeLayout::keptDims() const {
  std::vector<int64_t> kept;
  for (int d = 0; d < rootRank(); ++d)
    if (!std::binary_search(sliceDims.begin(), sliceDims.end(), d)) kept.push_back(d);
  return kept;
}

std::vector<int64_t> XeLayout::effective(const std::vector<int64_t>& field) const {
  if (field.empty()) return {};
  std::vector<int64_t> out;
  for (int64_t d : keptDims())
    if (size_t(d) < field.size()) out.push_back(field[size_t(d)]);
  return out;
}

Expected<XeLayout> xegpuFromAttr(const AttrValue& attr) {
  if (attr.kind != AttrValue::Kind::Attribute)
    return makeErrorAt(attr.location,
                       std::string("expected an #xegpu attribute, got ") + kindName(attr.kind));
  Expected<XeLayout> l = makeError("");
  if (attr.text == "xegpu.layout") {
    l = layoutFromAttr(attr);
  } else if (attr.text == "xegpu.slice") {
    l = sliceFromAttr(attr);
  } else if (attr.text == "xegpu.sg_map") {
    l = sgMapFromAttr(attr);
  } else {
    return makeErrorAt(attr.location,
                       "unknown XeGPU layout " + layout::detail::quoteInput("#" + attr.text) +
                           " (expected #xegpu.layout, #xegpu.slice or #xegpu.sg_map)");
  }
  if (l) l->text = printAttrValue(attr);
  return l;
}

Expected<XeLayout> parseXegpuAttr(std::string_view text, const AttrAliases& aliases) {
  LAYOUT_TRY_ASSIGN(attr, parseAttribute(text, aliases));
  return xegpuFromAttr(attr);
}

} // namespace layout::xegpu
