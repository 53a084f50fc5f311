// What the explorer accepts as a layout: TritonGPU encoding text (#ttg.*, #ttig.dpas, with
// aliases), XeGPU attributes (#xegpu.layout, #xegpu.slice, #xegpu.sg_map) or layout JSON, over
// a tensor shape; and alias files (`#name = <attribute>` lines). Errors keep the line and
// column the parsers report so the editor can point at them.
//
//   auto shape = layout::views::parseShapeText("32x32");
//   auto in = layout::views::parseLayoutInput("#ttg.blocked<{sizePerThread = [1, 4], ...}>", *shape);
//   auto typed = layout::views::parseLayoutInput("tensor<64x64xf16, #mma>", {}, aliases);
//   if (!in && in.error().location) point at in.error().location->column;
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/text/mlir_attribute.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace layout::views {

struct LayoutInput {
  layout::LinearLayout layout;
  std::string kind; // "layout JSON", "#ttg.blocked", "#xegpu.layout", ...
  // The shape the text itself gave (a tensor type's); empty when it came from `shape`.
  std::vector<int64_t> shape;
};

// `text` is an encoding or alias over `shape`, layout JSON (its own shape), or a tensor type
// `tensor<64x64xf16, #mma>` (the encoding over the type's shape; `shape` is not used).
layout::Expected<LayoutInput> parseLayoutInput(std::string_view text,
                                               std::span<const int64_t> shape,
                                               const layout::AttrAliases& aliases = {});

// A tensor type's parts: "tensor<64x64xf16>" (for parseShapeText) and the encoding "#mma".
struct TensorTypeText {
  std::string shape, encoding;
};
layout::Expected<TensorTypeText> splitTensorType(std::string_view text);

// The distinct tensor types with an encoding in a TTGIR file (`tensor<64x64xf16, #blocked>`), in
// the order they first appear: the explorer lists them to pick layout A from.
std::vector<std::string> tensorTypesIn(std::string_view text);

// "32x32" or "32,32" (or "tensor<32x32xf16>"): positive sizes.
layout::Expected<std::vector<int64_t>> parseShapeText(std::string_view text);

} // namespace layout::views
