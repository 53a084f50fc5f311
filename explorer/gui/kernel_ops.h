// The "Kernel ops" list of an --input MLIR file (issue 33): one row per op the kernel report
// (layout/report/kernel_report.h) analysed, its cost in a few words, and the view that shows it
// with the op's layouts. No ImGui here: the panel in explorer_app.cpp draws the rows and applies a
// row's inputs through the same rebuild() as the input panel.
#pragma once

#include "layout/text/mlir_attribute.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layout::views {

enum class ViewKind; // explorer_app.h, which includes this header
struct ExplorerInputs;

struct KernelOp {
  int line = 0;      // in the MLIR file
  std::string op;    // "ttg.convert_layout"
  std::string label; // "181  ttg.convert_layout  shared 32768 B  256/256 wf"
  ViewKind view{};   // Tensor
  // What the row sets in ExplorerInputs; unset fields keep the current value.
  std::string layoutA, layoutB, shape;
  std::optional<std::string> shared, instruction;
  std::optional<int> elemBits, k;
  // The block-load view of an XeGPU load_nd / prefetch_nd: one load's block "RxC" and the
  // descriptor's array_length (every row sets them: empty and 1 elsewhere).
  std::string block;
  int arrayLength = 1;
  // A dot's operand and result types as the file writes them: a tensor type picked for layout A
  // finds its dot here (the operands view's M x N, K and element bits).
  std::vector<std::string> types;
};

struct KernelFile {
  // The file's attribute aliases as the MLIR reader found them (location aliases such as
  // `#loc3 = loc(...)`, which the alias-file reader refuses, are skipped).
  std::vector<AliasDefinition> aliases;
  // The analysed ops that have layouts, costliest classes first (conversions, shared accesses,
  // 2D block accesses, dots, memory ops, then layout-only ops), file order within a class.
  std::vector<KernelOp> ops;
  // Why the report could not analyse the module, so that the panel can say it instead of listing
  // nothing: "unknown target 'cuda:bogus' (known: sm80, ...)". "" when it was analysed (ops may
  // still be empty: a plain alias file has none).
  std::string error;
};

// Empty when the text is not MLIR the reader reads (a plain alias file with no module is read,
// with no ops). A module the report refuses (its ttg.target is unknown) gives its aliases, no ops
// and the report's error.
std::optional<KernelFile> readKernelFile(std::string_view text);

// Sets the view and its inputs of `op` in `in` (algebra off: the view shows layout A).
void applyKernelOp(const KernelOp& op, ExplorerInputs& in);

// What a tensor type says beyond its layout: `tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, ...}>>`
// has shape 128x64, 16-bit elements and is dot operand 0. Empty when `text` is not a tensor type
// with an encoding.
struct TensorTypeFacts {
  std::vector<int64_t> shape;
  std::string shapeText;    // "128x64", as the shape field writes it
  int elemBits = 0;         // 0: not a plain integer or float element type (pointers, index)
  std::optional<int> opIdx; // the operand index of a #ttg.dot_op encoding
};
std::optional<TensorTypeFacts> tensorTypeFacts(std::string_view text, const AttrAliases& aliases);

// The row of a tt.dot (or other dot) in `ops` that takes or gives a value of tensor type `type`
// (compared without white space), or null.
const KernelOp* dotWithType(const std::vector<KernelOp>& ops, std::string_view type);

} // namespace layout::views
