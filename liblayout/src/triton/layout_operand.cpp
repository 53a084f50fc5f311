#include "layout/triton/layout_operand.h"

#include "layout/text/layout_json.h"

namespace layout {

Expected<LayoutOperand> parseLayoutOperand(std::string_view text, std::span<const int64_t> shape,
                                           OperandKind kind, const std::string& what) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return makeError(what + ": empty layout");
  if (text[first] == '{') {
    auto l = parseLayoutJson(text);
    if (!l) return withContext(l.error(), what);
    if (!shape.empty()) {
      bool same = int(shape.size()) == l->numOutDims();
      for (int i = 0; same && i < l->numOutDims(); ++i)
        same = uint64_t(shape[i]) == l->outDimSize(i);
      if (!same)
        return makeError(what + ": the layout's out-dims do not match the shape (dim i of the "
                                "layout must have size shape[i])");
    }
    return LayoutOperand{std::move(*l), std::nullopt};
  }
  auto enc = triton::parseEncoding(text);
  if (!enc) return withContext(enc.error(), what);
  if (kind == OperandKind::Distributed && enc->isShared())
    return makeError(what + ": a shared encoding where a distributed layout (register, lane, "
                            "warp, block) is needed");
  if (kind == OperandKind::Shared && !enc->isShared())
    return makeError(what + ": a distributed encoding where a shared layout (offset) is needed");
  if (shape.empty()) return makeError(what + ": an encoding needs the tensor shape");
  auto l = triton::toLinearLayout(*enc, shape);
  if (!l) return withContext(l.error(), what);
  return LayoutOperand{std::move(*l), std::move(*enc)};
}

} // namespace layout
