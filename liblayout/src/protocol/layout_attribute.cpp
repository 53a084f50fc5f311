// Any layout attribute by dialect (layout_attribute.h).
#include "layout/protocol/layout_attribute.h"

#include "layout/triton/layout_views.h"
#include "layout/xegpu/internal/xegpu_attr_value.h"

namespace layout {

std::string LayoutAttribute::text() const {
  if (const auto* e = triton()) return e->text();
  return xegpu()->text;
}

bool LayoutAttribute::isShared() const {
  const auto* e = triton();
  return e && e->isShared();
}

Expected<LayoutAttribute> layoutAttributeFromAttr(const AttrValue& attr) {
  if (attr.kind == AttrValue::Kind::Attribute && attr.text.rfind("xegpu.", 0) == 0) {
    LAYOUT_TRY_ASSIGN(x, xegpu::xegpuFromAttr(attr));
    return LayoutAttribute{std::move(x)};
  }
  if (attr.kind == AttrValue::Kind::Attribute) {
    const std::string& t = attr.text;
    const bool tritonDialect = t.rfind("ttg.", 0) == 0 || t.rfind("ttig.", 0) == 0 ||
                               t.rfind("triton_gpu.", 0) == 0 ||
                               t.rfind("triton_intel_gpu.", 0) == 0;
    if (!tritonDialect)
      return makeErrorAt(attr.location,
                         "unknown layout attribute '#" + t +
                             "' (the dialects are TritonGPU: #ttg., #ttig., #triton_gpu., "
                             "#triton_intel_gpu.; and XeGPU: #xegpu.)");
  }
  LAYOUT_TRY_ASSIGN(e, triton::encodingFromAttr(attr));
  return LayoutAttribute{std::move(e)};
}

Expected<LayoutAttribute> parseLayoutAttribute(std::string_view text, const AttrAliases& aliases) {
  LAYOUT_TRY_ASSIGN(attr, parseAttribute(text, aliases));
  return layoutAttributeFromAttr(attr);
}

Expected<LinearLayout> toLinearLayout(const LayoutAttribute& attribute,
                                      std::span<const int64_t> shape) {
  if (const auto* e = attribute.triton()) return triton::toLinearLayout(*e, shape);
  return xegpu::toLinearLayout(*attribute.xegpu(), shape);
}

Expected<std::string> layoutStr(const LayoutAttribute& attribute, const LinearLayout& ll,
                                std::span<const int64_t> shape, bool hwView) {
  if (const auto* e = attribute.triton()) return triton::layoutStr(*e, ll, shape, hwView);
  return triton::distributedLayoutStr(ll, shape, hwView);
}

} // namespace layout
