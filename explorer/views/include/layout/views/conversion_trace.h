// Following one element through a conversion plan (layout/conversion/conversion_plan.h): which
// src locations hold it, which dst locations receive it, and the plan's step that fills each dst
// location (none, a register move, shuffle round k with the lane and register that send it, or
// the shared-memory store and load with their instructions). The convert view's clicks, hover
// tooltips, inspector and `--report` field `trace` all read it.
//
//   auto plan = layout::conversion::planConversion(src.layout(), dst.layout(), 16, "nvidia");
//   auto t = layout::views::traceElement(*plan, src, dst, 5, 9, TraceSide::Source);
//   t->moves[0].from.label;  // "T7:2", the src location the plan reads
//   t->moves[0].to.label;    // "T17:6", a dst location holding element (5, 9)
//   t->moves[0].step.text;   // "shuffle round 3: lane 7 sends r2, lane 17 reads it into r6"
#pragma once

#include "layout/conversion/conversion_plan.h"
#include "layout/views/layout_maps.h"
#include "layout/views/scene.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace layout::views {

enum class TraceSide { Source, Destination };

// One hardware location of a side, by in-dim (absent in-dims are 0).
struct TraceLocation {
  uint64_t reg = 0, lane = 0, warp = 0, block = 0;
  uint64_t input = 0; // the packed input of the side's TensorMap
  std::string label;  // TensorMap::label: "T7:2"
};

enum class TraceStepKind { None, RegisterMove, Shuffle, SharedMemory };
// "none", "registerMove", "shuffle", "sharedMemory".
const char* traceStepKindName(TraceStepKind k);

// How the plan fills one dst location.
struct TraceStep {
  TraceStepKind kind = TraceStepKind::None;
  // Shuffle, and a register move inside a shuffle plan: the plan's round, the lane that puts the
  // vector on the wire and the vector's first register there (the round's sendRegister), and the
  // dst register the round fills (the vector's first).
  int round = -1, sendLane = -1, sendRegister = -1, dstRegister = -1;
  int vectorElements = 1;
  // Dst broadcast: the dst register the round filled, copied into this one after the rounds.
  int copiedFrom = -1;
  // SharedMemory: the instructions of the store (src) and the load (dst), and where the element
  // lies in one CTA's shared tile (absent when the blocks split the tensor).
  std::string storeInstruction, loadInstruction;
  std::optional<uint64_t> offset, byte, bank;
  std::string text; // one line, for the inspector
};

// One dst location holding the element, the src location the plan takes it from, and the step.
struct TraceMove {
  TraceLocation to, from;
  TraceStep step;
};

struct ElementTrace {
  TraceSide side = TraceSide::Source; // the grid clicked
  int row = 0, col = 0;
  std::vector<uint64_t> coordinate; // per out-dim
  layout::conversion::ConversionKind kind = layout::conversion::ConversionKind::None;
  std::vector<TraceLocation> sources; // every src location holding the element
  std::vector<TraceMove> moves;       // one per dst location holding it
  // "src T7:2 -> dst T17:6, shuffle round 3" (the first dst location; "(+n dst)" for more).
  std::string summary;
};

// Traces elements of one plan; the maps are the plan's src and dst layouts (TensorMap::build of
// the layouts planConversion was given) and must outlive the tracer.
class ConversionTracer {
public:
  ConversionTracer(const layout::conversion::ConversionPlan& plan, const TensorMap& src,
                   const TensorMap& dst);
  // Errors: a cell outside the tensor, maps over different tensors, a plan that does not fit them.
  layout::Expected<ElementTrace> trace(int row, int col, TraceSide side) const;
  // ElementTrace::summary of a cell without the rest ("" when the cell has no dst owner).
  std::string summary(uint64_t cell) const;

private:
  // full: also the instructions, the shared offset and the text (the summary needs none).
  layout::Expected<TraceMove> move(uint64_t dstInput, bool full) const;
  TraceLocation location(const TensorMap& map, uint64_t input) const;
  TraceLocation locationOf(const TensorMap& map, uint64_t reg, uint64_t lane, uint64_t warp,
                           uint64_t block) const;

  const layout::conversion::ConversionPlan& plan_;
  const TensorMap &src_, &dst_;
  // Where register, lane, warp and block sit in each side's packed input (TensorMap's order):
  // every cell's summary is decoded, so no dim is looked up by name per cell.
  struct Fields {
    int shift[4] = {0, 0, 0, 0}, bits[4] = {0, 0, 0, 0};
  };
  Fields srcFields_, dstFields_;
  // Shuffle plans: (lane, first dst register of a vector) -> the round that fills it.
  std::unordered_map<uint64_t, int> roundOf_;
  // Shared memory: tensor coordinate -> offset in the shared tile (when it covers the tensor).
  std::optional<layout::LinearLayout> offsetOf_;
};

// One element, once (builds a tracer).
layout::Expected<ElementTrace> traceElement(const layout::conversion::ConversionPlan& plan,
                                            const TensorMap& src, const TensorMap& dst, int row,
                                            int col, TraceSide side);

// The report's `trace`: side, grid, row, col, element, kind, sources, destinations (each a
// location with `from` and `step`), text. Lists stop at `maxOwners` (the counts say how many).
nlohmann::ordered_json traceToJson(const ElementTrace& t, size_t maxOwners = 64);

// Highlights a trace in the convert scene (conversion_view.h): the element in "convert.src" and
// "convert.dst", the sending and receiving lanes in each round grid that moves it, the dst
// registers in "convert.registers", and (given the plan of a shared-memory conversion) the word
// holding the element in the store and load bank maps ("convert.store.banks[.p]",
// "convert.load.banks[.p]") when warp 0's first access, the one drawn, moves it; every other cell
// of those grids dimmed. nullptr clears.
void markTrace(Scene& scene, const ElementTrace* trace,
               const layout::conversion::ConversionPlan* plan = nullptr);

} // namespace layout::views
