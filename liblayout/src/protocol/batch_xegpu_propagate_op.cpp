// Batch op xegpu.propagate (interchange §2), also `layoutctl propagate OP`: backward layout
// propagation through one op. Here the args object becomes the op's typed request
// (layout/xegpu/propagation.h), with the messages clients have always seen: every key is checked
// (name and type, whatever the op) before the op's own inputs are read, and layouts are parsed
// in the order the rules used to parse them.
#include "layout/text/internal/list_text.h"
#include "layout/text/internal/quoted_input.h"
#include "layout/xegpu/propagation_json.h"
#include "typed_op.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string_view>
#include <type_traits>
#include <variant>

namespace layout {

namespace {

using nlohmann::json;
using namespace xegpu;
using Dims = std::vector<int64_t>;
using layout::detail::listText;

// ---- the args object ----------------------------------------------------------------------

enum class ArgType { Text, IntList, SmallInt, Bool };

// Every key any op reads. The op decides which it reads; a key of another op is ignored, an
// unknown one (a misspelling) is an error.
const std::map<std::string_view, ArgType>& argTypes() {
  static const std::map<std::string_view, ArgType> types = {
      {"op", ArgType::Text},
      {"result", ArgType::Text},
      {"input", ArgType::Text},
      {"elementType", ArgType::Text},
      {"target", ArgType::Text},
      {"level", ArgType::Text},
      {"shapeA", ArgType::IntList},
      {"shapeB", ArgType::IntList},
      {"sourceShape", ArgType::IntList},
      {"resultShape", ArgType::IntList},
      {"reductionDims", ArgType::IntList},
      {"broadcastDims", ArgType::IntList},
      {"permutation", ArgType::IntList},
      {"shape", ArgType::IntList},
      {"transpose", ArgType::IntList},
      {"instData", ArgType::IntList},
      {"sourceBits", ArgType::SmallInt},
      {"resultBits", ArgType::SmallInt},
      {"elementBits", ArgType::SmallInt},
      {"transposeBitWidth", ArgType::SmallInt},
      {"numSubgroups", ArgType::SmallInt},
      {"maxReduceVectorSize", ArgType::SmallInt},
      {"packed", ArgType::Bool},
      {"partialSubgroup", ArgType::Bool}};
  return types;
}

Expected<void> checkArg(const std::string& key, ArgType type, const json& v) {
  switch (type) {
  case ArgType::Text:
    if (!v.is_string()) return makeError("args." + key + ": expected a string");
    return {};
  case ArgType::IntList:
    if (!v.is_array()) return makeError("args." + key + ": expected a list of integers");
    for (size_t i = 0; i < v.size(); ++i)
      if (!v[i].is_number_integer() || v[i].get<int64_t>() < 0 ||
          v[i].get<int64_t>() > (int64_t{1} << 40))
        return makeError("args." + key + "[" + std::to_string(i) +
                         "]: expected an integer in [0, 2^40]");
    return {};
  case ArgType::SmallInt:
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > 1024)
      return makeError("args." + key + ": expected an integer in [0, 1024]");
    return {};
  case ArgType::Bool:
    if (!v.is_boolean()) return makeError("args." + key + ": expected true or false");
    return {};
  }
  return {};
}

// The args after checkArg accepted each of them; an absent key reads as its default.
struct Args {
  const json& object;

  std::string text(const char* key, const char* absent = "") const {
    auto it = object.find(key);
    return it == object.end() ? absent : it->get<std::string>();
  }
  Dims list(const char* key) const {
    auto it = object.find(key);
    return it == object.end() ? Dims{} : it->get<Dims>();
  }
  std::optional<Dims> optionalList(const char* key) const {
    auto it = object.find(key);
    return it == object.end() ? std::nullopt : std::optional<Dims>(it->get<Dims>());
  }
  int64_t count(const char* key, int64_t absent = 0) const {
    auto it = object.find(key);
    return it == object.end() ? absent : it->get<int64_t>();
  }
  bool flag(const char* key) const {
    auto it = object.find(key);
    return it != object.end() && it->get<bool>();
  }
};

// One op's args, once the checks every op shares have passed.
struct OpArgs {
  Args args;
  std::string op;
  std::optional<XeLayout> result; // parsed when given
  // The setup form of dpas (numSubgroups) or multi_reduction (level): no consumer needed.
  bool setup = false;

  Expected<XeLayout> input() const {
    auto parsed = parseXegpuAttr(args.text("input"));
    if (!parsed) return withContext(parsed.error(), op + ": input");
    return parsed;
  }
  Expected<LayoutKind> level() const { return parseLayoutKind(args.text("level"), op + ": level"); }
};

using OpReader = Expected<PropagationRequest> (*)(const OpArgs&);

// The typed request of each op (both forms of dpas and multi_reduction), read from its args.
const std::map<std::string_view, OpReader>& opReaders() {
  using R = Expected<PropagationRequest>;
  static const std::map<std::string_view, OpReader> readers = {
      {"dpas",
       [](const OpArgs& o) -> R {
         const Args& a = o.args;
         if (o.setup)
           return DpasSubgroupRequest{a.count("numSubgroups"), a.list("shapeA"),
                                      a.list("shapeB"),        a.text("elementType"),
                                      a.text("target", "pvc"), o.result};
         return DpasRequest{*o.result, a.list("shapeA"), a.list("shapeB"), a.text("elementType"),
                            a.text("target", "pvc")};
       }},
      {"multi_reduction",
       [](const OpArgs& o) -> R {
         const Args& a = o.args;
         if (!o.setup) return MultiReductionRequest{*o.result, a.list("reductionDims")};
         LAYOUT_TRY_ASSIGN(kind, o.level());
         return MultiReductionSetupRequest{kind,
                                           a.list("sourceShape"),
                                           a.list("reductionDims"),
                                           o.result,
                                           a.count("numSubgroups"),
                                           a.count("maxReduceVectorSize", 1),
                                           a.text("target", "pvc")};
       }},
      {"broadcast",
       [](const OpArgs& o) -> R {
         return BroadcastRequest{*o.result, o.args.list("sourceShape"), o.args.list("resultShape"),
                                 o.args.list("broadcastDims")};
       }},
      {"shape_cast",
       [](const OpArgs& o) -> R {
         return ShapeCastRequest{*o.result, o.args.list("sourceShape"), o.args.list("resultShape")};
       }},
      {"transpose",
       [](const OpArgs& o) -> R {
         return TransposeRequest{*o.result, o.args.list("permutation")};
       }},
      {"bitcast",
       [](const OpArgs& o) -> R {
         return BitcastRequest{*o.result, int(o.args.count("sourceBits")),
                               int(o.args.count("resultBits"))};
       }},
      {"extract",
       [](const OpArgs& o) -> R {
         return ExtractRequest{*o.result, o.args.list("sourceShape"), o.args.list("resultShape")};
       }},
      {"interleave", [](const OpArgs& o) -> R { return InterleaveRequest{*o.result}; }},
      {"deinterleave", [](const OpArgs& o) -> R { return DeinterleaveRequest{*o.result}; }},
      {"insert_strided_slice",
       [](const OpArgs& o) -> R {
         // Its rule reads the level after the shapes, and quotes it as given.
         std::optional<std::string> level;
         if (!o.args.text("level").empty()) level = o.args.text("level");
         return InsertStridedSliceRequest{*o.result, o.args.list("sourceShape"),
                                          o.args.list("resultShape"), level};
       }},
      {"load_nd",
       [](const OpArgs& o) -> R {
         const Args& a = o.args;
         return LoadNdRequest{*o.result, int(a.count("elementBits")), a.optionalList("transpose"),
                              int(a.count("transposeBitWidth")), a.flag("packed")};
       }},
      {"convert_layout",
       [](const OpArgs& o) -> R {
         LAYOUT_TRY_ASSIGN(in, o.input());
         return ConvertLayoutRequest{*o.result, in, o.args.list("shape")};
       }},
      {"compatible",
       [](const OpArgs& o) -> R {
         LAYOUT_TRY_ASSIGN(in, o.input());
         LAYOUT_TRY_ASSIGN(kind, o.level());
         return CompatibleRequest{*o.result, in, o.args.list("shape"), kind,
                                  o.args.flag("partialSubgroup")};
       }},
      {"sg_layout_candidates",
       [](const OpArgs& o) -> R {
         const Dims whole = o.args.list("broadcastDims");
         if (whole.size() > 1)
           return makeError("sg_layout_candidates: broadcastDims " + listText(whole) +
                            " names more than one dim (the dim every subgroup holds whole)");
         return SgLayoutCandidatesRequest{
             o.args.count("numSubgroups"), o.args.list("shape"), o.args.list("instData"),
             whole.empty() ? std::nullopt : std::optional<int64_t>(whole[0])};
       }},
  };
  return readers;
}

// The typed request the args name. Checks in the order clients have seen them: every key's name
// and type, op, result, the op's name; then the layouts and levels each op reads, in its order.
Expected<PropagationRequest> propagationRequest(const json& args) {
  if (!args.is_object()) return makeError("args: expected an object");
  for (const auto& [key, v] : args.items()) {
    auto type = argTypes().find(key);
    if (type == argTypes().end())
      return makeError("args." + key + ": unknown argument of xegpu.propagate");
    LAYOUT_TRY(checkArg(key, type->second, v));
  }
  OpArgs o{Args{args}, Args{args}.text("op"), std::nullopt, false};
  if (o.op.empty()) return makeError("args.op: missing (one of the ops of layoutctl propagate)");
  o.setup = (o.op == "multi_reduction" && !o.args.text("level").empty()) ||
            (o.op == "dpas" && o.args.count("numSubgroups") > 0);
  const std::string resultText = o.args.text("result");
  if (resultText.empty() && !o.setup && o.op != "sg_layout_candidates")
    return makeError("args.result: missing (the result's layout text)");
  auto reader = opReaders().find(o.op);
  if (reader == opReaders().end()) {
    std::string known;
    for (const std::string& name : propagationOps()) known += (known.empty() ? "" : ", ") + name;
    return makeError("propagate: unknown op " + layout::detail::quoteInput(o.op) +
                     " (expected one of " + known + ")");
  }
  // A result given to an op that reads none (sg_layout_candidates) is still parsed, so a bad one
  // is reported.
  if (!resultText.empty()) {
    auto parsed = parseXegpuAttr(resultText);
    if (!parsed) return withContext(withContext(parsed.error(), "result"), o.op);
    o.result = std::move(*parsed);
  }
  return reader->second(o);
}

Expected<PropagationResult> runPropagate(const BatchRequest& r) {
  LAYOUT_TRY_ASSIGN(req, propagationRequest(r.args));
  return xegpu::propagate(req);
}

// ---- the op -------------------------------------------------------------------------------

// A shape (shapeA, sourceShape, instData, ...): every dimension at least 1.
Expected<void> dimsAtLeastOne(const json& value) {
  for (size_t i = 0; i < value.size(); ++i)
    if (value[i].is_number_integer() && value[i].get<int64_t>() < 1)
      return makeError("dimension " + std::to_string(i) + " is " +
                       std::to_string(value[i].get<int64_t>()) + ": every dimension is at least 1");
  return {};
}

// bitcast's element widths: --source-element-bits / --result-element-bits, as every width in bits
// is --...element-bits on the command line (--source-bits / --result-bits, their first
// spellings, work too).
OpArg bitcastWidthArg(const char* key, const std::string& side) {
  return OpArg(key, OpArgKind::Count).spelled(side + "-element-bits").alsoSpelled(side + "-bits");
}

// The text form: "operand: layout" lines, in the JSON's key order.
std::string operandsText(const PropagationResult& result) {
  std::string out;
  auto line = [&](const char* name, const std::string& value) {
    out += std::string(name) + ": " + value + "\n";
  };
  auto boolText = [](bool b) { return std::string(b ? "true" : "false"); };
  std::visit(
      [&](const auto& r) {
        using T = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<T, DpasLayouts>) {
          line("a", r.a);
          line("b", r.b);
          line("c", r.c);
        } else if constexpr (std::is_same_v<T, SourceLayout>) {
          line("source", r.source);
        } else if constexpr (std::is_same_v<T, ReductionLayouts>) {
          line("acc", r.acc);
          line("result", r.result);
          line("source", r.source);
        } else if constexpr (std::is_same_v<T, InsertStridedSliceLayouts>) {
          line("dest", r.dest);
          if (r.result) line("result", *r.result);
          line("source", r.source);
        } else if constexpr (std::is_same_v<T, TensorDescLayout>) {
          line("tensor_desc", r.tensorDesc);
        } else if constexpr (std::is_same_v<T, ConvertLayoutCost>) {
          line("movement", std::string(dataMovementName(r.movement)));
          line("needsDataMovement", boolText(r.needsDataMovement()));
        } else if constexpr (std::is_same_v<T, Compatibility>) {
          line("compatible", boolText(r.compatible));
        } else {
          static_assert(std::is_same_v<T, SgLayoutCandidates>);
          std::string list = "[";
          for (size_t i = 0; i < r.candidates.size(); ++i)
            list += (i ? ", " : "") + listText(r.candidates[i]);
          line("candidates", list + "]");
        }
      },
      result);
  return out;
}

} // namespace

void registerXegpuPropagateOp(BatchProcessor& p) {
  BatchOp op = typedOp<PropagationResult>(
      "args {op, result, ...op args (see layoutctl propagate --help)} -> {operand: layout text}",
      {OpArg("op", OpArgKind::String).asPositional(),
       OpArg("result", OpArgKind::String),
       OpArg("input", OpArgKind::String),
       OpArg("elementType", OpArgKind::String),
       OpArg("target", OpArgKind::Target),
       OpArg("shapeA", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("shapeB", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("sourceShape", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("resultShape", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("reductionDims", OpArgKind::IntList),
       OpArg("broadcastDims", OpArgKind::IntList),
       OpArg("permutation", OpArgKind::IntList),
       OpArg("shape", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("transpose", OpArgKind::IntList),
       bitcastWidthArg("sourceBits", "source"),
       bitcastWidthArg("resultBits", "result"),
       OpArg("elementBits", OpArgKind::Count),
       OpArg("transposeBitWidth", OpArgKind::Count),
       OpArg("packed", OpArgKind::Flag),
       OpArg("level", OpArgKind::String),
       OpArg("numSubgroups", OpArgKind::Count),
       OpArg("maxReduceVectorSize", OpArgKind::Count),
       OpArg("instData", OpArgKind::IntList).satisfying(dimsAtLeastOne),
       OpArg("partialSubgroup", OpArgKind::Flag)},
      runPropagate, propagationResultToJson, operandsText);
  op.checksOwnArgs = true; // which keys apply depends on "op"
  p.registerOp("xegpu.propagate", std::move(op));
}

} // namespace layout
