// MLIR text as compilers dump it (TritonGPU IR from Triton's NVIDIA, AMD and Intel backends,
// upstream XeGPU IR), read op by op: attribute aliases, op names, results, operands, the types of
// the trailing signature with their encodings, attributes, locations and region nesting. Not a full
// MLIR parser (no LLVM dependency): what it does not need (op-specific syntax, block labels,
// dialect resources) is skipped, and an op it cannot read at all (unbalanced brackets, a
// truncated file) is an error "line L, column C: ..." saying what was expected.
//
//   #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], ...}>
//   #loc3 = loc("kernel.py":12:5)
//   module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
//     tt.func public @k(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
//       %5 = ttg.convert_layout %4 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #mma>
//            loc(#loc3)
//
//   auto m = layout::readMlirOps(text);
//   if (!m) std::cerr << m.error().message << "\n";     // "line 7, column 3: expected '}' ..."
//   for (const layout::MlirOp& op : m->ops)
//     if (op.name == "ttg.convert_layout")
//       use(op.operandTypes[0].encoding, op.resultTypes[0].encoding, op.loc.line);
//   m->moduleAttributes.at("ttg.target").text;          // "cuda:90"
//
// Bounded like every other input (docs/limits.md): the text by maxInputBytes, ops and results by
// maxMlirOps, region and bracket nesting by maxMlirNesting (the reader is iterative, so deep input
// is a located error, never a stack overflow), and the attribute values it reads by maxAttrValues
// over the whole file (past it, attributes and encodings are kept as text, with a note).
#pragma once

#include "layout/core/expected.h"
#include "layout/text/mlir_attribute.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace layout {

// Where an op comes from, resolved through `#locN` aliases (which dumps print after the module).
//   loc("k.py":12:5)                  -> k.py, 12, 5
//   loc(callsite(#callee at #caller)) -> the callee's site (the caller's when the callee has none)
//   loc("name"(#loc4))                -> #loc4's site
//   loc(fused[#a, #b])                -> the first of them with a file site
//   loc(unknown), loc("name")         -> empty file, line and column 0
struct MlirLocation {
  std::string file;
  int line = 0;
  int column = 0;
  // For a callsite, the outermost caller with a file site (the user's line that called into
  // inlined library code): loc(callsite(#callee at callsite(#mid at "k.py":12:5))) -> k.py, 12,
  // 5. Empty and 0 otherwise.
  std::string callerFile;
  int callerLine = 0;
  int callerColumn = 0;
  std::string text; // the loc as written on the op, e.g. "loc(#loc12)"; "" when it has none
};

// One type of an op signature.
//   tensor<128x64xf16, #blocked>                    Tensor   [128, 64] f16 16 "#blocked"
//   !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable, 2x128x64>
//                                                   MemDesc  [2, 128, 64] f16, extras
//                                                            {"#smem", "mutable", "2x128x64"}
//   <128x32xf16, #shared, #smem, mutable>           MemDesc  (Triton prints some memdesc results
//                                                            without their "!ttg.memdesc")
//   vector<8x16xf16>                                Vector   [8, 16] f16
//   !xegpu.tensor_desc<8x16xf16, #xegpu.layout<...>> TensorDesc [8, 16] f16, the layout; other
//                                                   attributes (#xegpu.block_tdesc_attr) in extras
//                                                   and, read, in extraValues
//   !tt.tensordesc<tensor<128x64xf16, #shared>>     TensorDesc: the described tensor's fields
//   !tt.ptr<tensor<64x32xf16, #enc>>, <tensor<...>> TensorDesc: a block pointer, the tensor's
//                                                   fields (the address space is dropped)
//   memref<64x64xf16, 3>                            MemRef   [64, 64] f16, extras {"3"}
//   f32, i1, index, !tt.ptr<f16>                    Scalar   (elementType is the type)
//   anything else (tuples, function types, ...)     Other    (only `text`)
// Dims are kept as written (a `?` is -1), never multiplied here: a consumer bounds the element
// count with boundedElementCount. A dim over 2^63 - 1 leaves the shape empty, with a note.
struct MlirType {
  enum class Kind { Tensor, MemDesc, Vector, TensorDesc, MemRef, Scalar, Other };
  Kind kind = Kind::Other;
  std::string text;           // verbatim
  std::vector<int64_t> shape; // Tensor, MemDesc, Vector, TensorDesc, MemRef
  std::string elementType;    // "f16", "f8E4M3FN", "i32", "!tt.ptr<f16>"
  int elementBits = 0;        // of a plain integer or float type, else 0 (index, pointers)
  std::string encodingText; // the encoding as written: "#blocked", "#ttg.dot_op<{...}>"; "" if none
  // The encoding read with the file's aliases (references replaced by their definitions), or null
  // when there is none or it could not be read (a note says why). Types that write the same text
  // share one value, so 100k ops naming a large alias hold one copy.
  std::shared_ptr<const AttrValue> encoding;
  std::vector<std::string> extras; // after the encoding, as written (see above)
  // A TensorDesc's extras read like the encoding (aliases resolved), one per extra: e.g.
  // #xegpu.block_tdesc_attr<array_length = 2, boundary_check = true> for
  // find("array_length"). Null for an extra that is not attribute text or is not read; empty for
  // the other kinds, whose extras ("#smem", "mutable", "3") stay text.
  std::vector<std::shared_ptr<const AttrValue>> extraValues;

  // The encoding with aliases expanded (printAttrValue), else encodingText.
  std::string printedEncoding() const;
};

// One attribute of an op: an entry of its `<{...}>` properties or `{...}` attribute dictionary.
//   axis = 1 : i32       name "axis", text "1 : i32", value Integer 1
//   "ttg.num-warps" = 4  name "ttg.num-warps" (unquoted)
//   tt.loop_unroll       a unit attribute: text "", value Keyword "unit"
//   cst = dense<0.0>     text "dense<0.0>", value null (not attribute text parseAttribute reads)
struct MlirNamedAttr {
  std::string name;
  std::string text;                       // the value as written
  std::shared_ptr<const AttrValue> value; // read where parseAttribute can (shared like encodings)
};

// One operation, in custom or generic form.
struct MlirOp {
  std::string name;                 // "ttg.convert_layout"; generic form unquoted: "tt.reduce"
  std::vector<std::string> results; // "%5"; a pack "%7:2" is "%7#0", "%7#1"
  // Values used, in order: "%4", "%7#1". Values an op defines (scf.for's induction variable and
  // iter_args, function and region arguments) are not operands.
  std::vector<std::string> operands;
  // From the trailing `: ...` signature. `(a, b) -> c`, `a, b -> c`, `a * b -> c` (tt.dot) and
  // `a to b` split into operand and result types. A list without an arrow gives operandTypes when
  // the op has operands (the types as written: custom forms may write fewer types than operands,
  // e.g. `tt.load %p, %m : T`, `arith.addf %a, %b : T`), else resultTypes (arith.constant,
  // and tt.make_tensor_ptr, which writes its result's type after its operands).
  // Ops with results whose signature writes none take them from `-> (...)` before the signature or
  // region (scf.for, scf.if). Empty when there is no signature or it could not be read (a note).
  std::vector<MlirType> operandTypes, resultTypes;
  std::vector<MlirNamedAttr> attributes; // properties, then attribute dictionaries, in text order
  MlirLocation loc;                      // the op's own trailing loc(...)
  int line = 0, column = 0;              // where the op starts (its first result, else its name)
  // Enclosing ops: 0 for a top-level op (the module), 1 for its body (tt.func), 2 for a function
  // body, 3 inside a loop. `parent` indexes MlirModule::ops (-1 at top level).
  int depth = 0;
  int parent = -1;
  int regions = 0; // how many regions the op has

  // The attribute named `name`, or nullptr.
  const MlirNamedAttr* attribute(std::string_view name) const;
};

struct MlirModule {
  // Attribute aliases (`#blocked = #ttg.blocked<...>`) in file order. Location aliases (`#loc3 =
  // loc(...)`) are not listed: they are resolved into each op's loc.
  std::vector<AliasDefinition> aliases;
  // The attributes of the first top-level module that parseAttribute reads: "ttg.target" ->
  // String "cuda:90", "ttg.num-warps" -> Integer 4. Every one, as written, is also in the module
  // op's attributes.
  std::map<std::string, AttrValue, std::less<>> moduleAttributes;
  // Every op in file order (an op before the ops of its regions): module, functions, their bodies.
  std::vector<MlirOp> ops;
  // What was skipped and why: "line 12: ...". At most 200, then one saying how many more.
  std::vector<std::string> notes;
};

// Reads MLIR text. Errors start "line L, column C: " (the place is also in Error::location).
Expected<MlirModule> readMlirOps(std::string_view text);

// The bits one element of an MLIR scalar type takes in storage, as MlirType::elementBits holds
// it; 0 for a type without a fixed width (index, pointers) or one this reader does not know.
//   mlirElementBits("f16")          == 16      "bf16" 16, "f32" 32, "f64" 64
//   mlirElementBits("tf32")         == 32      stored in 32 bits (its 19-bit precision aside)
//   mlirElementBits("f8E4M3FN")     == 8       every f8E*, f6E*, f4E* float: 8, 6, 4
//   mlirElementBits("i1")           == 1       iN, siN, uiN: N (at most 7 digits)
//   mlirElementBits("index")        == 0
//   mlirElementBits("!tt.ptr<f16>") == 0
int mlirElementBits(std::string_view scalarType);

} // namespace layout
