#include "layout/views/mma_operands.h"

#include "layout/core/element_bits.h"
#include "layout/triton/encoding_params.h"

namespace layout::views {

using layout::Expected;
using layout::makeError;
using namespace layout::triton;

Expected<MmaOperands> mmaOperands(const Encoding& encoding, int elemBits) {
  Encoding parent = encoding;
  if (encoding.kind == EncodingKind::DotOperand) {
    LAYOUT_TRY_ASSIGN(dot, dotOperandEncoding(encoding));
    parent = dot.parent;
  }
  LAYOUT_TRY(layout::checkElementBits(elemBits, "elemBits", layout::kElementBitsWithNibbles));
  MmaOperands ops{parent, parent, std::nullopt, 0, 0, ""};
  bool withB = true;
  switch (parent.kind) {
  case EncodingKind::NvidiaMma: {
    LAYOUT_TRY_ASSIGN(mma, nvidiaMmaEncoding(parent));
    ops.kWidthA = ops.kWidthB = std::max(1, 32 / elemBits);
    if (mma.versionMajor == 3) {
      withB = false;
      ops.noteB = "B: wgmma reads B from shared memory (no register layout)";
    }
    break;
  }
  case EncodingKind::AmdMfma:
    ops.kWidthA = ops.kWidthB = std::max(1, 64 / elemBits);
    break;
  case EncodingKind::AmdWmma: {
    LAYOUT_TRY_ASSIGN(wmma, amdWmmaEncoding(parent));
    ops.kWidthA = ops.kWidthB = wmma.version == 1 ? 16 : std::max(1, 128 / elemBits);
    break;
  }
  case EncodingKind::IntelDpas: {
    LAYOUT_TRY_ASSIGN(dpas, intelDpasEncoding(parent));
    ops.kWidthA = std::max<int64_t>(1, dpas.opsPerChan / 2);
    ops.kWidthB = dpas.opsPerChan;
    break;
  }
  default:
    return makeError("operands: '" + parent.text() +
                     "' is not an MMA encoding (#ttg.nvidia_mma, #ttg.amd_mfma, #ttg.amd_wmma, "
                     "#ttig.dpas) or a #ttg.dot_op of one");
  }
  auto operand = [&](int64_t opIdx, int64_t kWidth) -> Expected<Encoding> {
    auto e = toEncoding(DotOperandEncoding{opIdx, parent, kWidth});
    if (!e)
      return makeError(std::string("operand ") + (opIdx ? "B" : "A") + " (kWidth " +
                       std::to_string(kWidth) + "): " + e.error().message);
    return e;
  };
  LAYOUT_TRY_ASSIGN(a, operand(0, ops.kWidthA));
  ops.a = std::move(a);
  if (withB) {
    LAYOUT_TRY_ASSIGN(b, operand(1, ops.kWidthB));
    ops.b = std::move(b);
  }
  return ops;
}

} // namespace layout::views
