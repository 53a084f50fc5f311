// Internal: an XeGPU layout from an attribute the MLIR attribute parser already read, for the
// dispatch over all layout dialects (layout/protocol/layout_attribute.h). Programs parse text
// with parseXegpuAttr (layout/xegpu/xegpu_layout.h).
#pragma once

#include "layout/core/expected.h"
#include "layout/text/mlir_attribute.h"
#include "layout/xegpu/xegpu_layout.h"

namespace layout::xegpu {

// `attr` as #xegpu.layout, #xegpu.slice or #xegpu.sg_map, verified as parseXegpuAttr does; the
// layout's text is the attribute in canonical spacing.
Expected<XeLayout> xegpuFromAttr(const AttrValue& attr);

} // namespace layout::xegpu
