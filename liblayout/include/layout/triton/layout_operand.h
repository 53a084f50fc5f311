// A layout operand given as text, the way layoutctl and the batch ops take them: TritonGPU
// encoding text (converted over a tensor shape) or layout JSON (interchange §1).
//
//   int64_t shape[] = {32, 64};
//   auto op = layout::parseLayoutOperand("#ttg.swizzled_shared<{vec = 8, perPhase = 1, "
//                                        "maxPhase = 8, order = [1, 0]}>",
//                                        shape, layout::OperandKind::Shared, "args.shared");
//   op->layout;     // offset -> dim0, dim1
//   op->encoding;   // the parsed encoding (e.g. to apply #ttg.padded_shared's padding)
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/triton/encoding.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace layout {

// Which encodings an operand may be: distributed (register, lane, warp, block) or shared (offset).
enum class OperandKind { Distributed, Shared, Any };

struct LayoutOperand {
  LinearLayout layout;
  std::optional<triton::Encoding> encoding; // when given as encoding text
};

// `what` starts every error message ("src", "args.access"). Layout JSON with a non-empty `shape`
// must have out-dim i of size shape[i]; encoding text needs the shape.
Expected<LayoutOperand> parseLayoutOperand(std::string_view text, std::span<const int64_t> shape,
                                           OperandKind kind, const std::string& what);

} // namespace layout
