// Any layout attribute, dispatched on its dialect: TritonGPU encodings (#ttg., #ttig., and the
// long names #triton_gpu., #triton_intel_gpu.) and MLIR XeGPU layouts (#xegpu.layout, #xegpu.slice,
// #xegpu.sg_map). One entry point for the batch ops verify, toLinearLayout and layoutStr and for
// the tools; errors are the verifier messages of the attribute's own dialect.
//
//   auto a = layout::parseLayoutAttribute("#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 32]>");
//   int64_t shape[] = {64, 64};
//   auto ll = layout::toLinearLayout(*a, shape);         // register, lane, warp, block -> dims
//   auto text = layout::layoutStr(*a, *ll, shape, false); // the triton-tensor-layout tensor view
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/text/mlir_attribute.h"
#include "layout/triton/encoding.h"
#include "layout/xegpu/xegpu_layout.h"

#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace layout {

struct LayoutAttribute {
  std::variant<triton::Encoding, xegpu::XeLayout> value;
  // The attribute in canonical spacing, with its '#'.
  std::string text() const;
  // A shared-memory encoding (in-dims offset, block); XeGPU layouts are distributed.
  bool isShared() const;
  const triton::Encoding* triton() const { return std::get_if<triton::Encoding>(&value); }
  const xegpu::XeLayout* xegpu() const { return std::get_if<xegpu::XeLayout>(&value); }
};

Expected<LayoutAttribute> parseLayoutAttribute(std::string_view text,
                                               const AttrAliases& aliases = {});
Expected<LayoutAttribute> layoutAttributeFromAttr(const AttrValue& attr);

// The attribute's linear layout over `shape`.
Expected<LinearLayout> toLinearLayout(const LayoutAttribute& attribute,
                                      std::span<const int64_t> shape);

// The triton-tensor-layout views (layout/triton/layout_views.h) of `ll`, the family picked by the
// attribute (shared or distributed).
Expected<std::string> layoutStr(const LayoutAttribute& attribute, const LinearLayout& ll,
                                std::span<const int64_t> shape, bool hwView);

} // namespace layout
