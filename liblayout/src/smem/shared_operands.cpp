#include "layout/smem/shared_operands.h"

#include "layout/core/element_bits.h"
#include "layout/smem/swizzle_synthesis.h"
#include "layout/triton/layout_operand.h"

namespace layout::smem {

Expected<SharedAccess> sharedAccessFromText(std::string_view access, const SharedSpec& shared,
                                            std::span<const int64_t> shapeIn, int elemBits) {
  LAYOUT_TRY(checkElementBits(elemBits, "elemBits"));
  LAYOUT_TRY_ASSIGN(a, parseLayoutOperand(access, shapeIn, OperandKind::Distributed, "access"));
  // Layout JSON brings its own shape.
  std::vector<int64_t> shape(shapeIn.begin(), shapeIn.end());
  if (shape.empty())
    for (int i = 0; i < a.layout.numOutDims(); ++i)
      shape.push_back(int64_t(a.layout.outDimSize(i)));
  SharedAccess out;
  out.access = std::move(a.layout);
  out.elemBits = elemBits;
  if (!shared.text.empty()) {
    if (shared.swizzleUnit > 0)
      return makeError("shared: give either a shared layout or swizzleUnit / maxPhase, not both");
    LAYOUT_TRY_ASSIGN(s, parseLayoutOperand(shared.text, shape, OperandKind::Shared, "shared"));
    out.shared = std::move(s.layout);
    if (s.encoding && s.encoding->kind == triton::EncodingKind::PaddedShared) {
      LAYOUT_TRY_ASSIGN(map, triton::paddedSharedAddressMap(*s.encoding));
      out.paddedAddress = std::move(map);
    }
  } else if (shared.swizzleUnit > 0) {
    auto s = xorSwizzleShared(shape, shared.swizzleUnit, shared.maxPhase);
    if (!s) return withContext(s.error(), "shared");
    out.shared = std::move(*s);
  } else {
    auto s = rowMajorShared(shape);
    if (!s) return withContext(s.error(), "shared");
    out.shared = std::move(*s);
  }
  return out;
}

} // namespace layout::smem
