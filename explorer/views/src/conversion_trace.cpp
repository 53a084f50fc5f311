#include "layout/views/conversion_trace.h"

#include "layout/views/views.h"

#include <algorithm>
#include <map>
#include <utility>

namespace layout::views {

using layout::conversion::ConversionKind;
using layout::conversion::ConversionPlan;

namespace {

uint64_t roundKey(uint64_t lane, uint64_t reg) {
  return lane << 32 | reg;
}

std::string reg(uint64_t r) {
  return "r" + std::to_string(r);
}

// "r2" for one register, "r2-r3" for a vector.
std::string regs(uint64_t first, int count) {
  return count <= 1 ? reg(first) : reg(first) + "-" + reg(first + uint64_t(count) - 1);
}

// The summary's word for a step.
std::string shortStep(const TraceStep& s) {
  switch (s.kind) {
  case TraceStepKind::None:
    return "in place";
  case TraceStepKind::RegisterMove:
    return s.round >= 0 ? "register move in round " + std::to_string(s.round) : "register move";
  case TraceStepKind::Shuffle:
    return "shuffle round " + std::to_string(s.round);
  case TraceStepKind::SharedMemory:
    return "shared memory";
  }
  return "";
}

// The inspector's line for one step.
std::string stepText(const TraceMove& m, ConversionKind plan) {
  const TraceStep& s = m.step;
  const TraceLocation &to = m.to, &from = m.from;
  switch (s.kind) {
  case TraceStepKind::None:
    return plan == ConversionKind::None
               ? "none: src and dst are the same layout"
               : "none: " + reg(from.reg) + " keeps its place (register permutation)";
  case TraceStepKind::RegisterMove:
  case TraceStepKind::Shuffle: {
    if (s.round < 0)
      return "register move: lane " + std::to_string(to.lane) + " renames " + reg(from.reg) +
             " as " + reg(to.reg);
    const int v = s.vectorElements;
    const uint64_t filled = s.copiedFrom >= 0 ? uint64_t(s.copiedFrom) : to.reg;
    const std::string which =
        v > 1 ? " (this element: " + reg(from.reg) + " -> " + reg(filled) + ")" : "";
    std::string t =
        s.kind == TraceStepKind::RegisterMove
            ? "round " + std::to_string(s.round) + ", register move: lane " +
                  std::to_string(to.lane) + " moves its " + regs(uint64_t(s.sendRegister), v) +
                  " into " + regs(uint64_t(s.dstRegister), v) + which
            : "shuffle round " + std::to_string(s.round) + ": lane " + std::to_string(s.sendLane) +
                  " sends " + regs(uint64_t(s.sendRegister), v) + ", lane " +
                  std::to_string(to.lane) + " reads " + (v > 1 ? "them" : "it") + " into " +
                  regs(uint64_t(s.dstRegister), v) + which;
    if (s.copiedFrom >= 0)
      t += "; then " + reg(filled) + " is copied into " + reg(to.reg) + " (dst broadcast)";
    return t;
  }
  case TraceStepKind::SharedMemory: {
    const std::string where = s.offset
                                  ? " at offset " + std::to_string(*s.offset) +
                                        (s.bank ? " (bank " + std::to_string(*s.bank) + ")" : "")
                                  : "";
    return "shared memory: " + from.label + " stores it" +
           (s.storeInstruction.empty() ? "" : " (" + s.storeInstruction + ")") + where + ", " +
           to.label + " loads it" +
           (s.loadInstruction.empty() ? "" : " (" + s.loadInstruction + ")");
  }
  }
  return "";
}

nlohmann::ordered_json locationJson(const TraceLocation& l) {
  return {{"label", l.label},
          {"register", l.reg},
          {"lane", l.lane},
          {"warp", l.warp},
          {"block", l.block}};
}

nlohmann::ordered_json stepJson(const TraceStep& s) {
  nlohmann::ordered_json j;
  j["kind"] = traceStepKindName(s.kind);
  if (s.round >= 0) {
    j["round"] = s.round;
    j["sendLane"] = s.sendLane;
    j["sendRegister"] = s.sendRegister;
    j["dstRegister"] = s.dstRegister;
    j["vectorElements"] = s.vectorElements;
  }
  if (s.copiedFrom >= 0) j["copiedFrom"] = s.copiedFrom;
  if (s.kind == TraceStepKind::SharedMemory) {
    j["store"] = s.storeInstruction;
    j["load"] = s.loadInstruction;
    if (s.offset) j["offset"] = *s.offset;
    if (s.byte) j["byte"] = *s.byte;
    if (s.bank) j["bank"] = *s.bank;
  }
  j["text"] = s.text;
  return j;
}

// The cell of the element's word in each drawn phase of the store and load bank maps: column
// = its bank, row = the word's rank among the bank's words in that phase.
void markBankWords(const Scene& scene, const ElementTrace& trace,
                   const layout::smem::SwizzleResult& shared,
                   std::map<std::string, std::vector<uint64_t>>& cells) {
  std::optional<uint64_t> byte;
  for (const TraceMove& m : trace.moves)
    if (m.step.kind == TraceStepKind::SharedMemory && m.step.byte) byte = m.step.byte;
  if (!byte) return;
  for (const auto& [prefix, report] : {std::pair{"convert.store.banks", &shared.store},
                                       std::pair{"convert.load.banks", &shared.load}}) {
    const uint64_t word = *byte / uint64_t(std::max(1, report->instruction.bankBytes));
    for (size_t p = 0; p < report->phases.size(); ++p) {
      const std::string id = std::string(prefix) + (p == 0 ? "" : "." + std::to_string(p));
      const CellGrid* g = scene.grid(id);
      if (!g) break;
      for (const layout::smem::BankUse& u : report->phases[p].banks) {
        auto it = std::find(u.words.begin(), u.words.end(), word);
        if (it != u.words.end() && u.bank < g->cols && it - u.words.begin() < g->rows)
          cells[id].push_back(uint64_t(g->index(int(it - u.words.begin()), u.bank)));
      }
    }
  }
}

} // namespace

const char* traceStepKindName(TraceStepKind k) {
  switch (k) {
  case TraceStepKind::None:
    return "none";
  case TraceStepKind::RegisterMove:
    return "registerMove";
  case TraceStepKind::Shuffle:
    return "shuffle";
  case TraceStepKind::SharedMemory:
    return "sharedMemory";
  }
  return "";
}

ConversionTracer::ConversionTracer(const ConversionPlan& plan, const TensorMap& src,
                                   const TensorMap& dst)
    : plan_(plan), src_(src), dst_(dst) {
  for (auto [map, f] : {std::pair{&src, &srcFields_}, std::pair{&dst, &dstFields_}}) {
    const layout::LinearLayout& ll = map->layout();
    for (int i = 0, shift = 0; i < ll.numInDims(); shift += ll.inDimSizeLog2(i), ++i) {
      const std::string_view n = ll.inDimName(i).str();
      const int d = n == "register" ? 0 : n == "lane" ? 1 : n == "warp" ? 2 : n == "block" ? 3 : -1;
      if (d < 0) continue;
      f->shift[d] = shift;
      f->bits[d] = ll.inDimSizeLog2(i);
    }
  }
  for (size_t k = 0; k < plan.rounds.size(); ++k)
    for (size_t l = 0; l < plan.rounds[k].dstRegister.size(); ++l)
      if (const int d = plan.rounds[k].dstRegister[l]; d >= 0)
        roundOf_.emplace(roundKey(l, uint64_t(d)), int(k));
  // The shared tile is one CTA's: it locates the element only when it spans the whole tensor.
  if (plan.kind == ConversionKind::SharedMemory && plan.shared) {
    const layout::LinearLayout& shared = plan.shared->shared;
    const layout::LinearLayout& tensor = src.layout();
    bool whole = shared.numOutDims() == tensor.numOutDims();
    for (int d = 0; whole && d < tensor.numOutDims(); ++d)
      whole = shared.outDimIndex(tensor.outDimName(d)) >= 0 &&
              shared.outDimSize(tensor.outDimName(d)) == tensor.outDimSize(d);
    if (whole)
      if (auto inv = shared.invert()) offsetOf_ = std::move(*inv);
  }
}

TraceLocation ConversionTracer::location(const TensorMap& map, uint64_t input) const {
  const Fields& f = &map == &src_ ? srcFields_ : dstFields_;
  uint64_t v[4];
  for (int d = 0; d < 4; ++d) v[d] = (input >> f.shift[d]) & ((uint64_t{1} << f.bits[d]) - 1);
  // TensorMap::label's form: "B<block>:" with several blocks, then T<lane + warp * lanes>:<reg>.
  std::string label = f.bits[3] > 0 ? "B" + std::to_string(v[3]) + ":T" : "T";
  label += std::to_string(v[1] + (v[2] << f.bits[1])) + ":" + std::to_string(v[0]);
  return {v[0], v[1], v[2], v[3], input, std::move(label)};
}

TraceLocation ConversionTracer::locationOf(const TensorMap& map, uint64_t r, uint64_t lane,
                                           uint64_t warp, uint64_t block) const {
  const Fields& f = &map == &src_ ? srcFields_ : dstFields_;
  const uint64_t v[4] = {r, lane, warp, block};
  uint64_t input = 0;
  for (int d = 0; d < 4; ++d)
    if (f.bits[d] > 0) input |= (v[d] & ((uint64_t{1} << f.bits[d]) - 1)) << f.shift[d];
  return location(map, input);
}

layout::Expected<TraceMove> ConversionTracer::move(uint64_t dstInput, bool full) const {
  TraceMove m;
  m.to = location(dst_, dstInput);
  const TraceLocation& to = m.to;
  TraceStep& s = m.step;
  switch (plan_.kind) {
  case ConversionKind::None:
    m.from = locationOf(src_, to.reg, to.lane, to.warp, to.block);
    break;
  case ConversionKind::RegisterPermutation: {
    if (to.reg >= plan_.registerPermutation.size())
      return layout::makeError("dst register " + std::to_string(to.reg) + " is outside the plan");
    const uint64_t from = uint64_t(plan_.registerPermutation[to.reg]);
    m.from = locationOf(src_, from, to.lane, to.warp, to.block);
    if (from != to.reg) s.kind = TraceStepKind::RegisterMove;
    break;
  }
  case ConversionKind::WarpShuffle: {
    const auto& copies = plan_.registerCopies;
    const int v = std::max(1, plan_.vectorElements);
    // A dst broadcast register is a copy of the one the rounds fill.
    const uint64_t filled =
        to.reg < copies.size() && copies[to.reg] >= 0 ? uint64_t(copies[to.reg]) : to.reg;
    const uint64_t e = filled % uint64_t(v), first = filled - e;
    auto it = roundOf_.find(roundKey(to.lane, first));
    if (it == roundOf_.end())
      return layout::makeError("no round fills dst register " + std::to_string(first) +
                               " of lane " + std::to_string(to.lane));
    const auto& round = plan_.rounds[size_t(it->second)];
    const int sendLane = round.readLane[to.lane];
    const int sendReg = round.sendRegister[size_t(sendLane)];
    m.from = locationOf(src_, uint64_t(sendReg) + e, uint64_t(sendLane), to.warp, to.block);
    s.kind = uint64_t(sendLane) == to.lane ? TraceStepKind::RegisterMove : TraceStepKind::Shuffle;
    s.round = it->second;
    s.sendLane = sendLane;
    s.sendRegister = sendReg;
    s.dstRegister = int(first);
    s.vectorElements = v;
    if (filled != to.reg) s.copiedFrom = int(filled);
    break;
  }
  case ConversionKind::SharedMemory: {
    // comp: dst location -> the src location holding the same element (the one that stores it).
    const layout::LinearLayout& comp = plan_.comp;
    std::vector<std::pair<layout::DimName, uint64_t>> ins;
    for (int i = 0; i < comp.numInDims(); ++i) {
      const std::string_view name = comp.inDimName(i).str();
      ins.emplace_back(comp.inDimName(i), name == "register" ? to.reg
                                          : name == "lane"   ? to.lane
                                          : name == "warp"   ? to.warp
                                                             : to.block);
    }
    LAYOUT_TRY_ASSIGN(outs, comp.apply(ins));
    uint64_t at[4] = {0, 0, 0, 0};
    for (const auto& [name, value] : outs) {
      const std::string_view n = name.str();
      at[n == "register" ? 0 : n == "lane" ? 1 : n == "warp" ? 2 : 3] = value;
    }
    m.from = locationOf(src_, at[0], at[1], at[2], at[3]);
    s.kind = TraceStepKind::SharedMemory;
    if (!full || !plan_.shared) break;
    const auto& store = plan_.shared->store.instruction;
    s.storeInstruction = store.name;
    s.loadInstruction = plan_.shared->load.instruction.name;
    if (!offsetOf_) break;
    const std::vector<uint64_t> c = dst_.coordinate(dst_.cellOf(dstInput));
    const layout::LinearLayout& tensor = dst_.layout();
    std::vector<std::pair<layout::DimName, uint64_t>> coord;
    for (int d = 0; d < tensor.numOutDims(); ++d)
      coord.emplace_back(tensor.outDimName(d), c[size_t(d)]);
    if (auto off = offsetOf_->apply(coord); off && off->size() == 1) {
      s.offset = off->front().second;
      s.byte = *s.offset * uint64_t(plan_.elemBits) / 8;
      if (store.bankBytes > 0 && store.banks > 0)
        s.bank = *s.byte / uint64_t(store.bankBytes) % uint64_t(store.banks);
    }
    break;
  }
  }
  if (full) s.text = stepText(m, plan_.kind);
  return m;
}

layout::Expected<ElementTrace> ConversionTracer::trace(int row, int col, TraceSide side) const {
  if (src_.rows() != dst_.rows() || src_.cols() != dst_.cols())
    return layout::makeError("src and dst are over different tensors");
  if (row < 0 || col < 0 || row >= src_.rows() || col >= src_.cols())
    return layout::makeError("cell (" + std::to_string(row) + ", " + std::to_string(col) +
                             ") is outside the " + std::to_string(src_.rows()) + "x" +
                             std::to_string(src_.cols()) + " tensor");
  ElementTrace t;
  t.side = side;
  t.row = row;
  t.col = col;
  t.kind = plan_.kind;
  const uint64_t cell = uint64_t(row) * uint64_t(src_.cols()) + uint64_t(col);
  t.coordinate = src_.coordinate(cell);
  for (uint64_t in : src_.owners(cell)) t.sources.push_back(location(src_, in));
  for (uint64_t in : dst_.owners(cell)) {
    LAYOUT_TRY_ASSIGN(m, move(in, true));
    t.moves.push_back(std::move(m));
  }
  t.summary = summary(cell);
  return t;
}

std::string ConversionTracer::summary(uint64_t cell) const {
  if (cell >= dst_.numElements()) return "";
  const auto owners = dst_.owners(cell);
  if (owners.empty()) return "";
  auto m = move(owners[0], false);
  if (!m) return "";
  std::string s = "src " + m->from.label + " -> dst " + m->to.label + ", " + shortStep(m->step);
  if (owners.size() > 1) s += " (+" + std::to_string(owners.size() - 1) + " dst)";
  return s;
}

layout::Expected<ElementTrace> traceElement(const ConversionPlan& plan, const TensorMap& src,
                                            const TensorMap& dst, int row, int col,
                                            TraceSide side) {
  return ConversionTracer(plan, src, dst).trace(row, col, side);
}

nlohmann::ordered_json traceToJson(const ElementTrace& t, size_t maxOwners) {
  nlohmann::ordered_json j;
  const bool src = t.side == TraceSide::Source;
  j["side"] = src ? "src" : "dst";
  j["grid"] = src ? "convert.src" : "convert.dst";
  j["row"] = t.row;
  j["col"] = t.col;
  j["element"] = t.coordinate;
  j["kind"] = std::string(layout::conversionKindName(t.kind));
  j["sourceCount"] = t.sources.size();
  nlohmann::ordered_json sources = nlohmann::ordered_json::array();
  for (size_t i = 0; i < t.sources.size() && i < maxOwners; ++i)
    sources.push_back(locationJson(t.sources[i]));
  j["sources"] = std::move(sources);
  j["destinationCount"] = t.moves.size();
  nlohmann::ordered_json dests = nlohmann::ordered_json::array();
  for (size_t i = 0; i < t.moves.size() && i < maxOwners; ++i) {
    nlohmann::ordered_json d = locationJson(t.moves[i].to);
    d["from"] = locationJson(t.moves[i].from);
    d["step"] = stepJson(t.moves[i].step);
    dests.push_back(std::move(d));
  }
  j["destinations"] = std::move(dests);
  j["text"] = t.summary;
  return j;
}

void markTrace(Scene& scene, const ElementTrace* trace, const ConversionPlan* plan) {
  std::map<std::string, std::vector<uint64_t>> cells;
  if (trace && plan && plan->shared) markBankWords(scene, *trace, *plan->shared, cells);
  if (trace) {
    for (const char* id : {"convert.src", "convert.dst"})
      if (const CellGrid* g = scene.grid(id))
        cells[id].push_back(uint64_t(g->index(trace->row, trace->col)));
    for (const TraceMove& m : trace->moves) {
      if (m.step.round >= 0) {
        const std::string id = "convert.round." + std::to_string(m.step.round);
        if (const CellGrid* g = scene.grid(id)) {
          cells[id].push_back(uint64_t(g->index(0, m.step.sendLane)));
          cells[id].push_back(uint64_t(g->index(2, int(m.to.lane))));
        }
      } else if (trace->kind == ConversionKind::RegisterPermutation) {
        if (const CellGrid* g = scene.grid("convert.registers"))
          cells["convert.registers"].push_back(uint64_t(g->index(0, int(m.to.reg))));
      }
    }
  }
  for (CellGrid& g : scene.grids)
    if (g.id.rfind("convert.", 0) == 0) {
      auto it = cells.find(g.id);
      markCells(g, it == cells.end() ? std::span<const uint64_t>()
                                     : std::span<const uint64_t>(it->second));
    }
}

} // namespace layout::views
