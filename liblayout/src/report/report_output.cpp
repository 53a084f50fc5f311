// The report as JSON, as text for people and as SARIF 2.1.0 (kernel_report.h).
#include "layout/report/kernel_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <sstream>

namespace layout::report {

namespace {

using nlohmann::ordered_json;

// The JSON contract's names: none | registers | shuffles | shared.
const char* planKindName(ConversionKind k) {
  switch (k) {
  case ConversionKind::None:
    return "none";
  case ConversionKind::RegisterPermutation:
    return "registers";
  case ConversionKind::WarpShuffle:
    return "shuffles";
  case ConversionKind::SharedMemory:
    return "shared";
  }
  return "none";
}

std::string locationText(const OpReport& r) {
  if (r.loc.file.empty()) return "";
  return r.loc.file + ":" + std::to_string(r.loc.line) + ":" + std::to_string(r.loc.column);
}

std::string shapeText(const OpReport& r) {
  std::string s;
  for (int64_t d : r.shape) s += std::to_string(d) + "x";
  return s + r.elementType;
}

uint64_t extraOf(const OpReport& r) {
  uint64_t extra = r.banks ? r.banks->extra() : 0;
  if (r.conversion && r.conversion->kind == ConversionKind::SharedMemory)
    extra += (r.conversion->storeWavefronts - r.conversion->storeIdeal) +
             (r.conversion->loadWavefronts - r.conversion->loadIdeal);
  return extra;
}

bool sharedTrip(const OpReport& r) {
  return r.conversion && r.conversion->kind == ConversionKind::SharedMemory;
}

// The figure column of the text report.
std::string costText(const OpReport& r) {
  std::ostringstream o;
  if (r.conversion) {
    const ConversionFigures& c = *r.conversion;
    o << planKindName(c.kind);
    if (c.kind == ConversionKind::WarpShuffle) o << ": " << c.shuffleRounds << " rounds";
    if (c.kind == ConversionKind::SharedMemory)
      o << ": " << c.sharedBytes << " B, store " << c.storeInstruction << " " << c.storeWavefronts
        << "/" << c.storeIdeal << " wf, load " << c.loadInstruction << " " << c.loadWavefronts
        << "/" << c.loadIdeal << " wf (synthesized swizzle)";
  } else if (r.banks) {
    const BankFigures& b = *r.banks;
    o << b.instruction << " x" << b.vectorElements << ": " << b.wavefronts << "/" << b.ideal
      << " wf";
    if (b.swizzledWavefronts)
      o << ", swizzle " << *b.swizzledWavefronts << "/" << *b.swizzledIdeal << " wf";
  } else if (r.blockIo) {
    const BlockIoFigures& b = *r.blockIo;
    o << b.instruction << " x" << b.instructions << " per subgroup";
    if (b.legal && b.elementsPerLane > 0)
      o << ", " << b.elementsPerLane << " elements/lane each";
    else if (!b.legal)
      o << " (not legal on the target)";
    if (b.shuffledRegisters > 0) o << ", " << b.shuffledRegisters << " registers shuffled";
  } else if (r.dot) {
    o << "instr " << (r.dot->instrShape.empty() ? "-" : r.dot->instrShape) << ", acc "
      << r.dot->accumulatorRegisters << " regs/thread";
    if (r.dot->instructions > 0) o << ", " << r.dot->instructions << " instructions/subgroup";
  } else if (r.reduction) {
    const ReductionFigures& d = *r.reduction;
    o << "reduce axis " << d.axis << ": " << d.inThreadElements << " per thread, " << d.laneRounds
      << " shuffle rounds x " << d.accumulators << " = " << d.shuffles << " shuffles";
    if (d.crossWarp()) o << ", shared memory across " << d.warpsAlongAxis << " warps";
  } else if (r.change) {
    o << (r.change->free ? "free" : std::string("moves: ") + planKindName(r.change->movement));
  } else if (r.vectorWidth) {
    o << "vector " << *r.vectorWidth << " x " << r.elemBits << " bit";
  } else {
    o << "-";
  }
  return o.str();
}

// Strings from the input (file names, attribute text, notes that quote it) may hold bytes that
// are not UTF-8, which JSON text must not: the document is re-read with each such byte replaced
// by U+FFFD (nlohmann's replacing serializer), so every consumer can dump it.
ordered_json validUtf8(const ordered_json& j) {
  return ordered_json::parse(j.dump(-1, ' ', false, ordered_json::error_handler_t::replace));
}

} // namespace

ordered_json reportToJson(const KernelReport& k) {
  ordered_json j;
  j["target"] = k.target;
  j["bankModel"] = k.bankModel;
  j["lanes"] = k.lanes;
  ordered_json ops = ordered_json::array();
  for (const OpReport& r : k.ops) {
    ordered_json o;
    o["op"] = r.op;
    o["loc"] = {{"file", r.loc.file}, {"line", r.loc.line}, {"column", r.loc.column}};
    if (!r.loc.callerFile.empty())
      o["loc"]["caller"] = {
          {"file", r.loc.callerFile}, {"line", r.loc.callerLine}, {"column", r.loc.callerColumn}};
    o["location"] = locationText(r);
    o["line"] = r.line;
    o["column"] = r.column;
    o["category"] = r.category;
    o["shape"] = r.shape;
    o["elementType"] = r.elementType;
    o["elemBits"] = r.elemBits;
    ordered_json layouts = ordered_json::object();
    for (const auto& [role, text] : r.layouts) {
      // Roles may repeat (several operands): later ones get an index.
      std::string key = role;
      for (int i = 1; layouts.contains(key); ++i) key = role + std::to_string(i);
      layouts[key] = text;
    }
    o["layouts"] = layouts;
    if (r.conversion) {
      const ConversionFigures& c = *r.conversion;
      ordered_json p;
      p["kind"] = planKindName(c.kind);
      p["crossWarp"] = c.crossWarp;
      if (c.kind == ConversionKind::WarpShuffle) {
        p["shuffleRounds"] = c.shuffleRounds;
        p["roundsLowerBound"] = c.roundsLowerBound;
      }
      if (c.kind == ConversionKind::SharedMemory) {
        p["sharedBytes"] = c.sharedBytes;
        p["store"] = {{"instruction", c.storeInstruction},
                      {"wavefronts", c.storeWavefronts},
                      {"ideal", c.storeIdeal}};
        p["load"] = {{"instruction", c.loadInstruction},
                     {"wavefronts", c.loadWavefronts},
                     {"ideal", c.loadIdeal}};
      }
      o["plan"] = p;
    }
    if (r.banks) {
      const BankFigures& b = *r.banks;
      ordered_json bj;
      bj["instruction"] = b.instruction;
      bj["vectorElements"] = b.vectorElements;
      bj["wavefronts"] = b.wavefronts;
      bj["ideal"] = b.ideal;
      if (b.swizzledWavefronts)
        bj["swizzle"] = {{"instruction", b.swizzledInstruction},
                         {"wavefronts", *b.swizzledWavefronts},
                         {"ideal", *b.swizzledIdeal}};
      o["banks"] = bj;
    }
    if (r.dot) {
      o["dot"] = {{"instrShape", r.dot->instrShape},
                  {"accumulatorRegisters", r.dot->accumulatorRegisters}};
      if (r.dot->instructions > 0) o["dot"]["instructions"] = r.dot->instructions;
    }
    if (r.blockIo) {
      const BlockIoFigures& b = *r.blockIo;
      ordered_json bj;
      bj["instruction"] = b.instruction;
      bj["tile"] = b.tile;
      if (!b.subgroupData.empty()) bj["subgroupData"] = b.subgroupData;
      bj["arrayLength"] = b.arrayLength;
      bj["packed"] = b.packed;
      bj["transpose"] = b.transpose;
      bj["instructions"] = b.instructions;
      bj["elementsPerLane"] = b.elementsPerLane;
      if (b.shuffledRegisters > 0) bj["shuffledRegisters"] = b.shuffledRegisters;
      bj["legal"] = b.legal;
      bj["why"] = b.why;
      o["blockIo"] = bj;
    }
    if (r.vectorWidth) o["vectorWidth"] = *r.vectorWidth;
    if (r.change)
      o["change"] = {{"free", r.change->free},
                     {"movement", planKindName(r.change->movement)},
                     {"why", r.change->why}};
    if (r.reduction) {
      const ReductionFigures& d = *r.reduction;
      o["reduction"] = {{"axis", d.axis},
                        {"inThreadElements", d.inThreadElements},
                        {"accumulators", d.accumulators},
                        {"laneRounds", d.laneRounds},
                        {"shuffles", d.shuffles},
                        {"warpsAlongAxis", d.warpsAlongAxis},
                        {"crossWarp", d.crossWarp()}};
    }
    if (!r.notes.empty()) {
      o["note"] = r.notes.front();
      o["notes"] = r.notes;
    }
    ops.push_back(std::move(o));
  }
  j["ops"] = std::move(ops);
  const ReportSummary& s = k.summary;
  j["summary"] = {{"ops", s.ops},
                  {"conversions", s.conversions},
                  {"plans",
                   {{"none", s.planNone},
                    {"registers", s.planRegisters},
                    {"shuffles", s.planShuffles},
                    {"shared", s.planShared}}},
                  {"sharedRoundTrips", s.sharedRoundTrips},
                  {"sharedAccesses", s.sharedAccesses},
                  {"extraWavefronts", s.extraWavefronts},
                  {"couldBeShuffles", s.couldBeShuffles},
                  {"notAnalysed", s.notAnalysed},
                  {"layoutChanges", s.layoutChanges},
                  {"layoutChangesNotFree", s.layoutChangesNotFree},
                  {"reductions", s.reductions},
                  {"crossWarpReductions", s.crossWarpReductions}};
  j["notes"] = k.notes;
  return validUtf8(j);
}

std::string reportText(const KernelReport& k) {
  std::ostringstream o;
  const ReportSummary& s = k.summary;
  o << "target " << k.target << " (bank model " << k.bankModel << ", " << k.lanes
    << " lanes): " << s.ops << " ops, " << s.conversions << " conversions (" << s.planNone
    << " none, " << s.planRegisters << " registers, " << s.planShuffles << " shuffles, "
    << s.planShared << " shared), " << s.sharedAccesses << " shared accesses, " << s.extraWavefronts
    << " extra wavefronts\n";
  // Group by source line; ops without a location by their MLIR line.
  struct Group {
    std::string key;
    uint64_t extra = 0;
    int trips = 0;
    int firstLine = 0;
    std::vector<const OpReport*> ops;
  };
  std::map<std::string, Group> groups;
  int layoutOps = 0;
  for (const OpReport& r : k.ops) {
    // Free layout changes (broadcasts, expand_dims, ...) cost nothing: JSON lists them.
    if (r.change && r.change->free && r.notes.empty()) {
      ++layoutOps;
      continue;
    }
    // Inlined library code (tl.sum's combine loop) under the user's line that called it.
    const std::string key = !r.loc.callerFile.empty()
                                ? r.loc.callerFile + ":" + std::to_string(r.loc.callerLine)
                            : r.loc.file.empty() ? "<mlir line " + std::to_string(r.line) + ">"
                                                 : r.loc.file + ":" + std::to_string(r.loc.line);
    Group& g = groups[key];
    if (g.ops.empty()) {
      g.key = key;
      g.firstLine = r.line;
    }
    g.extra += extraOf(r);
    g.trips += sharedTrip(r) ? 1 : 0;
    g.ops.push_back(&r);
  }
  std::vector<const Group*> order;
  for (const auto& [key, g] : groups) order.push_back(&g);
  std::stable_sort(order.begin(), order.end(), [](const Group* a, const Group* b) {
    if (a->extra != b->extra) return a->extra > b->extra;
    if (a->trips != b->trips) return a->trips > b->trips;
    return a->firstLine < b->firstLine;
  });
  for (const Group* g : order) {
    o << "\n" << g->key;
    if (g->extra || g->trips)
      o << "  (" << g->extra << " extra wavefronts, " << g->trips << " shared round trips)";
    o << "\n";
    for (const OpReport* r : g->ops) {
      o << "  " << r->op << "  " << r->category << "  " << shapeText(*r) << "  " << costText(*r)
        << "  [mlir " << r->line << "]";
      if (!r->loc.callerFile.empty())
        o << "  (inlined from " << r->loc.file << ":" << r->loc.line << ")";
      o << "\n";
      for (const std::string& n : r->notes) o << "      note: " << n << "\n";
    }
  }
  if (layoutOps > 0)
    o << "\n"
      << layoutOps
      << " layout changes that are free (broadcast, expand_dims, trans, reshape, join, split): "
         "see --format json\n";
  for (const std::string& n : k.notes) o << "note: " << n << "\n";
  return o.str();
}

ordered_json reportToSarif(const KernelReport& k) {
  ordered_json results = ordered_json::array();
  auto add = [&](const OpReport& r, const char* rule, const char* level, std::string message) {
    ordered_json res;
    res["ruleId"] = rule;
    res["level"] = level;
    res["message"] = {{"text", std::move(message)}};
    // The user's line: the outermost caller of inlined code, else the op's own site, else its
    // line in the MLIR file.
    const bool caller = !r.loc.callerFile.empty();
    const std::string& file = caller ? r.loc.callerFile : r.loc.file;
    const int line = caller ? r.loc.callerLine : r.loc.line;
    const int column = caller ? r.loc.callerColumn : r.loc.column;
    ordered_json region = {{"startLine", std::max(1, file.empty() ? r.line : line)}};
    if (!file.empty() && column > 0) region["startColumn"] = column;
    if (file.empty() && r.column > 0) region["startColumn"] = r.column;
    res["locations"] =
        ordered_json::array({{{"physicalLocation",
                               {{"artifactLocation", {{"uri", file.empty() ? "input.mlir" : file}}},
                                {"region", region}}}}});
    results.push_back(std::move(res));
  };
  for (const OpReport& r : k.ops) {
    if (sharedTrip(r))
      add(r, "shared-round-trip", "note",
          r.op + " sends " + std::to_string(r.conversion->sharedBytes) +
              " B through shared memory (data moves between warps)");
    if (r.conversion && r.conversion->kind == ConversionKind::WarpShuffle)
      add(r, "shuffles-suffice", "note",
          r.op + ": every warp keeps its data; " + std::to_string(r.conversion->shuffleRounds) +
              " shuffle rounds suffice, no shared memory is needed");
    const uint64_t extra = extraOf(r);
    if (extra > 0) {
      std::string text = r.op + ": " + std::to_string(extra) + " wavefronts above the ideal";
      if (r.banks)
        text += " (" + r.banks->instruction + " " + std::to_string(r.banks->wavefronts) + "/" +
                std::to_string(r.banks->ideal) +
                (r.banks->swizzledWavefronts ? "; a synthesized swizzle takes " +
                                                   std::to_string(*r.banks->swizzledWavefronts)
                                             : std::string()) +
                ")";
      add(r, "bank-conflicts", "warning", std::move(text));
    }
  }
  ordered_json rules = ordered_json::array(
      {{{"id", "shared-round-trip"},
        {"shortDescription", {{"text", "A layout conversion goes through shared memory"}}}},
       {{"id", "shuffles-suffice"},
        {"shortDescription", {{"text", "A layout conversion that warp shuffles can do"}}}},
       {{"id", "bank-conflicts"},
        {"shortDescription", {{"text", "Shared-memory accesses above the ideal wavefronts"}}}}});
  ordered_json sarif;
  sarif["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  sarif["version"] = "2.1.0";
  sarif["runs"] = ordered_json::array(
      {{{"tool", {{"driver", {{"name", "layoutctl"}, {"rules", std::move(rules)}}}}},
        {"results", std::move(results)}}});
  return validUtf8(sarif);
}

} // namespace layout::report
