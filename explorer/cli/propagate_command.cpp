// layoutctl propagate: backward XeGPU layout propagation through one op (the library's
// layout::xegpu::propagate, the same request as the batch op xegpu.propagate).
#include "commands.h"

#include "layout/xegpu/propagation_json.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>

namespace layoutctl {

namespace {

using nlohmann::json;

// "256x128" or "1,0" -> integers (either separator).
json intListOption(const std::string& text, const std::string& option) {
  json out = json::array();
  std::string part;
  std::stringstream ss(text);
  while (std::getline(ss, part, text.find('x') != std::string::npos ? 'x' : ',')) {
    if (part.empty() || part.size() > 12 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      throw CliExit{kUsage, "--" + option + ": '" + part + "' is not a non-negative integer"};
    out.push_back(std::stoll(part));
  }
  return out;
}

// Command-line options and the request keys they fill.
struct OptionKey {
  const char* option;
  const char* key;
  enum { Text, List, Int } kind;
};
constexpr OptionKey kOptions[] = {
    {"result", "result", OptionKey::Text},
    {"input", "input", OptionKey::Text},
    {"element-type", "elementType", OptionKey::Text},
    {"target", "target", OptionKey::Text},
    {"shape-a", "shapeA", OptionKey::List},
    {"shape-b", "shapeB", OptionKey::List},
    {"source-shape", "sourceShape", OptionKey::List},
    {"result-shape", "resultShape", OptionKey::List},
    {"reduction-dims", "reductionDims", OptionKey::List},
    {"broadcast-dims", "broadcastDims", OptionKey::List},
    {"permutation", "permutation", OptionKey::List},
    {"shape", "shape", OptionKey::List},
    {"transpose", "transpose", OptionKey::List},
    {"source-bits", "sourceBits", OptionKey::Int},
    {"result-bits", "resultBits", OptionKey::Int},
    {"element-bits", "elementBits", OptionKey::Int},
    {"transpose-bit-width", "transposeBitWidth", OptionKey::Int},
};

int runPropagate(const Args& args) {
  if (args.positionals().size() != 1)
    throw CliExit{kUsage, "propagate takes one op (" + [] {
                    std::string ops;
                    for (const auto& op : layout::xegpu::propagationOps())
                      ops += (ops.empty() ? "" : ", ") + op;
                    return ops;
                  }() + ")"};
  json request = json::object();
  request["op"] = args.positionals()[0];
  for (const OptionKey& o : kOptions) {
    auto value = args.option(o.option);
    if (!value) continue;
    if (o.kind == OptionKey::Text) {
      request[o.key] = *value;
    } else {
      json list = intListOption(*value, o.option);
      if (o.kind == OptionKey::Int) {
        if (list.size() != 1) throw CliExit{kUsage, "--" + std::string(o.option) + ": one integer"};
        request[o.key] = list[0];
      } else {
        request[o.key] = list;
      }
    }
  }
  if (args.flag("packed")) request["packed"] = true;
  if (args.option("target")) request["target"] = targetOption(args, "target", "pvc");
  auto req = layout::propagationRequestFromJson(request);
  if (!req) throw CliExit{kInvalidInput, req.error().message};
  auto out = layout::xegpu::propagate(*req);
  if (!out) throw CliExit{kInvalidInput, out.error().message};
  if (args.json()) {
    std::cout << layout::propagationResultToJson(*out).dump() << "\n";
  } else {
    for (const auto& [name, value] : *out) std::cout << name << ": " << value << "\n";
  }
  return kOk;
}

} // namespace

void addPropagateCommand(std::vector<Command>& commands) {
  std::set<std::string> valueOptions;
  for (const OptionKey& o : kOptions) valueOptions.insert(o.option);
  commands.push_back(
      {"propagate",
       "propagate OP --result ATTR [op options] [--format text|json]",
       "The layouts an op's operands need, given its result's XeGPU layout (backward "
       "propagation, XeGPU RFC and upstream rules). Ops and their options:\n"
       "  dpas             --shape-a MxK --shape-b KxN --element-type bf16|f16|tf32|i8|si8|ui8 "
       "--target pvc|bmg|arc|@FILE (a target with DPAS)  -> a, b, c\n"
       "  multi_reduction  --reduction-dims D,..  (the result is the slice)  -> source\n"
       "  broadcast        --source-shape --result-shape [--broadcast-dims D,..]  -> source\n"
       "  shape_cast       --source-shape --result-shape  -> source\n"
       "  transpose        --permutation P,..  -> source\n"
       "  bitcast          --source-bits N --result-bits N  -> source\n"
       "  load_nd          --element-bits N [--transpose 1,0] [--transpose-bit-width 32] "
       "[--packed]  -> tensor_desc\n"
       "  convert_layout   --input ATTR --shape AxB (--result is the target)  -> "
       "needsDataMovement, movement (none|registers|lanes|subgroups)\n\n"
       "more examples:\n"
       "  layoutctl propagate dpas --result '#xegpu.sg_map<wi_layout = [1, 8], wi_data = [1, 1]>' "
       "--shape-a 8x32 --shape-b 32x8 --element-type ui8 --target arc\n"
       "  layoutctl propagate shape_cast --result '#xegpu.layout<sg_layout = [8, 1, 4], sg_data = "
       "[1, 32, 32], order = [2, 1, 0]>' --source-shape 256x128 --result-shape 8x32x128",
       "layoutctl propagate transpose --result '#xegpu.layout<sg_layout = [4, 8], sg_data = [32, "
       "64], lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>' --permutation 1,0",
       valueOptions,
       {"packed"},
       runPropagate});
}

} // namespace layoutctl
