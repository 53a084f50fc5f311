// XeGPU layout propagation, backward: given the layout of an op's result, the layouts its
// operands must have (upstream's -xegpu-propagate-layout source-from-result rules and the XeGPU
// RFC, docs/seeds.md (seed 000); see docs/reference/xegpu.md §7).
//
//   using namespace layout::xegpu;
//   TransposeRequest r;
//   r.result = *parseXegpuAttr("#xegpu.layout<sg_layout = [4, 8], sg_data = [32, 64], "
//                              "order = [1, 0]>");
//   r.permutation = {1, 0};
//   auto operands = propagate(r);  // Expected<SourceLayout>
//   // operands->source == "#xegpu.layout<sg_layout = [8, 4], sg_data = [64, 32], order = [0, 1]>"
//
// One request type per op (and per form of an op whose setup form reads other inputs), so an op
// gets exactly the inputs its rule reads and a caller cannot send a transpose a shapeA. Each has
// its own propagate() overload with a typed result; PropagationRequest holds any of them and
// propagate(PropagationRequest) dispatches with std::visit, as upstream's pass has one visit
// function per op. Reading a request from JSON (the batch op `xegpu.propagate`, `layoutctl
// propagate`) is the protocol's business (src/protocol/batch_xegpu_propagate_op.cpp).
//
// Layouts come in parsed; what comes out is canonical attribute text, each derived layout parsed
// back through the verifier, so an operand layout that upstream would reject is an error here too.
// Levels that a rule checks only after other inputs (and names as written) stay text.
#pragma once

#include "layout/core/expected.h"
#include "layout/xegpu/layout_kind.h"
#include "layout/xegpu/xegpu_layout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace layout::xegpu {

// ---- results ------------------------------------------------------------------------------
// Layouts are canonical attribute text (printXegpu).

struct DpasLayouts {
  std::string a, b, c;
  bool operator==(const DpasLayouts&) const = default;
};
// The one operand whose layout follows from the result's (most vector ops).
struct SourceLayout {
  std::string source;
  bool operator==(const SourceLayout&) const = default;
};
// multi_reduction set up at a level: the result layout picked, the source's, and the
// accumulator's (the result's).
struct ReductionLayouts {
  std::string result, source, acc;
  bool operator==(const ReductionLayouts&) const = default;
};
// The dest has the result's layout; `result` is set only when the op set that layout up (level).
struct InsertStridedSliceLayouts {
  std::string dest, source;
  std::optional<std::string> result;
  bool operator==(const InsertStridedSliceLayouts&) const = default;
};
struct TensorDescLayout {
  std::string tensorDesc;
  bool operator==(const TensorDescLayout&) const = default;
};
// The conversion planner's classification (layout/core/conversion_kind.h) in XeGPU's words:
// registers are renamed within each lane, lanes shuffle within a subgroup, subgroups go through
// shared local memory.
enum class DataMovement { None, Registers, Lanes, Subgroups };
std::string_view dataMovementName(DataMovement movement); // "none", "registers", ...
struct ConvertLayoutCost {
  DataMovement movement = DataMovement::None;
  // Only shuffles and shared memory move data; a register renaming is free.
  bool needsDataMovement() const {
    return movement == DataMovement::Lanes || movement == DataMovement::Subgroups;
  }
  bool operator==(const ConvertLayoutCost&) const = default;
};
struct Compatibility {
  bool compatible = false;
  bool operator==(const Compatibility&) const = default;
};
// Subgroup grids (sg_layout), most balanced first.
struct SgLayoutCandidates {
  std::vector<std::vector<int64_t>> candidates;
  bool operator==(const SgLayoutCandidates&) const = default;
};

// ---- requests -----------------------------------------------------------------------------
// `op` is the op's name in xegpu.propagate and in messages; `Result` what propagate() returns.
// `result` is the op's result layout (the consumer's) unless said otherwise.

// dpas at lane / instruction level: A [M, K] and B [K, N] from C/D, by the RFC's sg_map tables for
// the target's DPAS (pvc, bmg, arc; elementType bf16, f16, tf32, i8/si8/ui8/u8).
struct DpasRequest {
  static constexpr std::string_view op = "dpas";
  using Result = DpasLayouts;
  XeLayout result;
  std::vector<int64_t> shapeA, shapeB;
  std::string elementType, target = "pvc";
};
// dpas at subgroup level (upstream's setup): one sg_layout picked for A, B and C/D together; the
// consumer's sg_layout, when there is one, is preferred. Layouts have sg_layout / sg_data only.
struct DpasSubgroupRequest {
  static constexpr std::string_view op = "dpas";
  using Result = DpasLayouts;
  int64_t numSubgroups = 0;
  std::vector<int64_t> shapeA, shapeB;
  std::string elementType, target = "pvc";
  std::optional<XeLayout> consumer;
};
// The result is a slice over reductionDims; the source is its parent.
struct MultiReductionRequest {
  static constexpr std::string_view op = "multi_reduction";
  using Result = SourceLayout;
  XeLayout result;
  std::vector<int64_t> reductionDims;
};
// Upstream's setup at a level: the consumer (a slice, a plain layout, or none) and, at subgroup
// level without a consumer, numSubgroups; maxReduceVectorSize as upstream (default 1); the
// target gives the subgroup size.
struct MultiReductionSetupRequest {
  static constexpr std::string_view op = "multi_reduction";
  using Result = ReductionLayouts;
  LayoutKind level = LayoutKind::Subgroup;
  std::vector<int64_t> sourceShape, reductionDims;
  std::optional<XeLayout> consumer;
  int64_t numSubgroups = 0, maxReduceVectorSize = 1;
  std::string target = "pvc";
};
// broadcastDims given: the RFC's explicit new dims, sliced away; empty: upstream's rule.
struct BroadcastRequest {
  static constexpr std::string_view op = "broadcast";
  using Result = SourceLayout;
  XeLayout result;
  std::vector<int64_t> sourceShape, resultShape, broadcastDims;
};
struct ShapeCastRequest {
  static constexpr std::string_view op = "shape_cast";
  using Result = SourceLayout;
  XeLayout result;
  std::vector<int64_t> sourceShape, resultShape;
};
struct TransposeRequest {
  static constexpr std::string_view op = "transpose";
  using Result = SourceLayout;
  XeLayout result;
  std::vector<int64_t> permutation;
};
struct BitcastRequest {
  static constexpr std::string_view op = "bitcast";
  using Result = SourceLayout;
  XeLayout result;
  int sourceBits = 0, resultBits = 0;
};
// The source gets the leading unit dims the extract drops.
struct ExtractRequest {
  static constexpr std::string_view op = "extract";
  using Result = SourceLayout;
  XeLayout result;
  std::vector<int64_t> sourceShape, resultShape;
};
// The source holds half the innermost data (interleave) or twice it (deinterleave).
struct InterleaveRequest {
  static constexpr std::string_view op = "interleave";
  using Result = SourceLayout;
  XeLayout result;
};
struct DeinterleaveRequest {
  static constexpr std::string_view op = "deinterleave";
  using Result = SourceLayout;
  XeLayout result;
};
// resultShape is the dest's. level "lane" sets the result up from the consumer first (the only
// level upstream does); text, because the rule checks it after the shapes and quotes it.
struct InsertStridedSliceRequest {
  static constexpr std::string_view op = "insert_strided_slice";
  using Result = InsertStridedSliceLayouts;
  XeLayout result;
  std::vector<int64_t> sourceShape, resultShape;
  std::optional<std::string> level;
};
// transpose: the load's permutation; transposeBitWidth 0: none. A transposed descriptor carries
// an order only when the result spelt one, as upstream prints it.
struct LoadNdRequest {
  static constexpr std::string_view op = "load_nd";
  using Result = TensorDescLayout;
  XeLayout result;
  int elementBits = 0;
  std::optional<std::vector<int64_t>> transpose;
  int transposeBitWidth = 0;
  bool packed = false;
};
// result is the target layout, input the source's.
struct ConvertLayoutRequest {
  static constexpr std::string_view op = "convert_layout";
  using Result = ConvertLayoutCost;
  XeLayout result, input;
  std::vector<int64_t> shape;
};
// Whether `result` (a) and `input` (b) place `shape` alike at `level`
// (layout/xegpu/compatibility.h).
struct CompatibleRequest {
  static constexpr std::string_view op = "compatible";
  using Result = Compatibility;
  XeLayout result, input;
  std::vector<int64_t> shape;
  LayoutKind level = LayoutKind::Lane;
  bool partialSubgroup = false;
};
// The sg_layout candidates of numSubgroups over shape in instData tiles; wholeDim, the one dim
// every subgroup holds whole (layout/xegpu/subgroup_layout_candidates.h).
struct SgLayoutCandidatesRequest {
  static constexpr std::string_view op = "sg_layout_candidates";
  using Result = SgLayoutCandidates;
  int64_t numSubgroups = 0;
  std::vector<int64_t> shape, instData;
  std::optional<int64_t> wholeDim;
};

Expected<DpasLayouts> propagate(const DpasRequest& request);
Expected<DpasLayouts> propagate(const DpasSubgroupRequest& request);
Expected<SourceLayout> propagate(const MultiReductionRequest& request);
Expected<ReductionLayouts> propagate(const MultiReductionSetupRequest& request);
Expected<SourceLayout> propagate(const BroadcastRequest& request);
Expected<SourceLayout> propagate(const ShapeCastRequest& request);
Expected<SourceLayout> propagate(const TransposeRequest& request);
Expected<SourceLayout> propagate(const BitcastRequest& request);
Expected<SourceLayout> propagate(const ExtractRequest& request);
Expected<SourceLayout> propagate(const InterleaveRequest& request);
Expected<SourceLayout> propagate(const DeinterleaveRequest& request);
Expected<InsertStridedSliceLayouts> propagate(const InsertStridedSliceRequest& request);
Expected<TensorDescLayout> propagate(const LoadNdRequest& request);
Expected<ConvertLayoutCost> propagate(const ConvertLayoutRequest& request);
Expected<Compatibility> propagate(const CompatibleRequest& request);
Expected<SgLayoutCandidates> propagate(const SgLayoutCandidatesRequest& request);

// Any request, and any result, for callers that pick the op at run time.
using PropagationRequest =
    std::variant<DpasRequest, DpasSubgroupRequest, MultiReductionRequest,
                 MultiReductionSetupRequest, BroadcastRequest, ShapeCastRequest, TransposeRequest,
                 BitcastRequest, ExtractRequest, InterleaveRequest, DeinterleaveRequest,
                 InsertStridedSliceRequest, LoadNdRequest, ConvertLayoutRequest, CompatibleRequest,
                 SgLayoutCandidatesRequest>;
using PropagationResult =
    std::variant<DpasLayouts, SourceLayout, ReductionLayouts, InsertStridedSliceLayouts,
                 TensorDescLayout, ConvertLayoutCost, Compatibility, SgLayoutCandidates>;
Expected<PropagationResult> propagate(const PropagationRequest& request);
std::string_view opName(const PropagationRequest& request);

// The op names, for --help and error messages.
const std::vector<std::string>& propagationOps();

// Canonical text of a layout: #xegpu.layout<...> with the fields it has, wrapped in one
// #xegpu.slice<..., dims = [...]> when sliced; #xegpu.sg_map<wi_layout, wi_data>.
std::string printXegpu(const XeLayout& layout);

} // namespace layout::xegpu
