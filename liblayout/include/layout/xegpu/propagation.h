// XeGPU layout propagation, backward: given the layout of an op's result, the layouts its
// operands must have (upstream's -xegpu-propagate-layout source-from-result rules and the XeGPU
// RFC, docs/seeds.md (seed 000); see docs/reference/xegpu.md §7).
//
//   using namespace layout::xegpu;
//   PropagationRequest r;
//   r.op = "transpose";
//   r.result = "#xegpu.layout<sg_layout = [4, 8], sg_data = [32, 64], order = [1, 0]>";
//   r.permutation = {1, 0};
//   auto operands = propagate(r);
//   // {"source": "#xegpu.layout<sg_layout = [8, 4], sg_data = [64, 32], order = [0, 1]>"}
//
// Every derived layout is printed in canonical attribute text and parsed back through the
// verifier, so an operand layout that upstream would reject is an error here too.
#pragma once

#include "layout/core/expected.h"
#include "layout/xegpu/xegpu_layout.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace layout::xegpu {

// One op and its result layout. Which fields an op reads:
//   dpas:             result (C/D), shapeA [M, K], shapeB [K, N], elementType (of A and B: bf16,
//                     f16, tf32, i8/si8/ui8/u8), target (pvc, bmg, arc) -> {a, b, c}; with
//                     numSubgroups > 0, upstream's subgroup-level setup instead: the sg_layout
//                     picked for A, B and C/D together (result, if given, is the consumer whose
//                     sg_layout is preferred) -> {a, b, c} with sg_layout / sg_data only
//   multi_reduction:  result (a slice), reductionDims -> {source}; with level (subgroup, inst,
//                     lane) upstream's setup instead: sourceShape, reductionDims, result (the
//                     consumer's layout: a slice, a plain layout, or absent), numSubgroups
//                     (subgroup level without a consumer), maxReduceVectorSize (default 1, as
//                     upstream), target (its subgroup size) -> {result, source, acc}
//   broadcast:        result, sourceShape, resultShape, broadcastDims (optional: the RFC's
//                     explicit dims, sliced away; otherwise upstream's rule) -> {source}
//   shape_cast:       result, sourceShape, resultShape -> {source}
//   transpose:        result, permutation -> {source}
//   bitcast:          result, sourceBits, resultBits -> {source}
//   extract:          result, sourceShape, resultShape -> {source} (leading unit dims added)
//   interleave, deinterleave: result -> {source} (innermost data halved / doubled)
//   insert_strided_slice: result, sourceShape, resultShape (the dest's), level (optional,
//                     "lane": set the result up from the consumer first) -> {dest, source,
//                     result when level is given}
//   load_nd:          result, elementBits, transpose (optional permutation), transposeBitWidth
//                     (0: none), packed -> {tensor_desc}; a transposed descriptor carries an
//                     order only when the result spelt one, as upstream prints it
//   convert_layout:   result (the target layout), input, shape -> {needsDataMovement, movement}
//                     from the conversion planner's classification (layout/core/
//                     conversion_kind.h): none and registers (renamed within each lane) move no
//                     data; lanes (shuffles in a subgroup) and subgroups (through shared local
//                     memory) do
//   compatible:       result (layout a), input (layout b), shape, level, partialSubgroup ->
//                     {compatible} (layout/xegpu/compatibility.h)
//   sg_layout_candidates: numSubgroups, shape, instData, broadcastDims (at most one: the dim
//                     kept whole) -> {candidates} (layout/xegpu/subgroup_layout_candidates.h)
struct PropagationRequest {
  std::string op;
  std::string result;
  std::vector<int64_t> shapeA, shapeB, sourceShape, resultShape, reductionDims, broadcastDims,
      permutation, shape, instData;
  std::optional<std::vector<int64_t>> transpose;
  std::string elementType, target = "pvc", input, level;
  int sourceBits = 0, resultBits = 0, elementBits = 0, transposeBitWidth = 0;
  int64_t numSubgroups = 0, maxReduceVectorSize = 1;
  bool packed = false, partialSubgroup = false;
};

// Whether the op reads `result` (a few setup ops run without a consumer layout).
bool propagationNeedsResult(const PropagationRequest& request);

// Operand name -> layout text ("a", "b", "c" for dpas; "source"; "tensor_desc"; "result" where
// the op sets up its result layout; "compatible" and "candidates" for those queries).
using OperandLayouts = std::map<std::string, std::string>;
Expected<OperandLayouts> propagate(const PropagationRequest& request);

// The ops propagate() knows, for --help and error messages.
const std::vector<std::string>& propagationOps();

// Canonical text of a layout: #xegpu.layout<...> with the fields it has, wrapped in one
// #xegpu.slice<..., dims = [...]> when sliced; #xegpu.sg_map<wi_layout, wi_data>.
std::string printXegpu(const XeLayout& layout);

} // namespace layout::xegpu
