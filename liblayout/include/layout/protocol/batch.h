// The `layoutctl batch` protocol (docs/interchange.md §2): JSON Lines in, one response
// line per request line out, in order; errors are reported per line and processing continues.
//
//   layout::BatchProcessor batch;
//   std::string out = batch.processLine(
//       R"({"id": 1, "op": "identity1D", "args": {"size": 4, "inDim": "lane", "outDim": "dim0"}})");
//   // {"id":1,"result":{"inDims":[{"name":"lane","bases":[[1],[2]]}],...}}
//   if (!batch.run(std::cin, std::cout)) std::cerr << "error: writing the responses failed\n";
//
// Ops are looked up in a registry; modules (encodings, Intel models, banks) add theirs with
// registerOp, using the same argument helpers.
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/protocol/op_arg.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace layout {

struct BatchOp;

// A parsed request: the layouts of "inputs" and the raw "args" object.
struct BatchRequest {
  // `args`: the request's "args" object (an empty object when it has none); it must outlive the
  // request. `spec` and `spelling` say how errors name an argument ("args.elemBits" from a batch
  // line, "--elem-bits" from the command line).
  BatchRequest(std::string op, const nlohmann::json& args, const BatchOp* spec = nullptr,
               ArgSpelling spelling = ArgSpelling::Batch);

  std::string op;
  std::vector<LinearLayout> inputs;
  const nlohmann::json& args;
  const BatchOp* spec = nullptr;
  ArgSpelling spelling = ArgSpelling::Batch;

  // The argument's name as the request's front end spells it.
  std::string argPath(std::string_view name) const;

  // Typed accessors for args; errors name the argument and the expected type.
  Expected<uint64_t> uintArg(const char* name) const;
  Expected<uint64_t> uintArgOr(const char* name, uint64_t fallback) const;
  Expected<std::string> stringArg(const char* name) const;
  // A tensor shape: a list of positive sizes, each at most 2^40.
  Expected<std::vector<int64_t>> shapeArg(const char* name = "shape") const;
  Expected<DimName> dimArg(const char* name) const;
  Expected<std::vector<DimName>> dimListArg(const char* name) const;
  // A list of [name, size] pairs.
  Expected<std::vector<DimSize>> dimSizeListArg(const char* name) const;
  // A list of [name, value] pairs of non-negative values.
  Expected<std::vector<std::pair<DimName, uint64_t>>> dimValueListArg(const char* name) const;
};

// The forms a CLI subcommand bound to an op prints.
enum class OutputFormat { Json, Text, Csv };

struct BatchOp {
  // Number of layouts in "inputs".
  int arity = 0;
  // One line of help: what the op computes and its args.
  std::string summary;
  std::function<Expected<nlohmann::ordered_json>(const BatchRequest&)> run;
  // The "args" the op reads. Any other key is an error naming it; missing needed ones, values of
  // the wrong kind and defaults are handled by BatchProcessor::prepareArgs before the op runs.
  std::vector<OpArg> args = {};
  // The op checks its args' names itself (and names an unknown one in its own message).
  bool checksOwnArgs = false;
  // The result as a CLI subcommand prints it (typedOp in src/protocol/typed_op.h); empty for
  // JSON-only ops.
  std::function<Expected<std::string>(const BatchRequest&, OutputFormat)> render = {};
  // The result of an op that makes a layout, as a layout: a front end chains such ops and prints
  // the result its own way (`layoutctl reshape --ins .. --outs ..` is reshapeIns, then
  // reshapeOuts). Empty for other ops.
  std::function<Expected<LinearLayout>(const BatchRequest&)> layout = {};
};

class BatchProcessor {
public:
  // Starts with every op of docs/interchange.md §2: the core algebra, TritonGPU encodings,
  // XeGPU layouts and propagation, block-load plans, conversion plans and bank analysis (the
  // register* functions below); a program embedding the protocol adds its own with registerOp.
  BatchProcessor();

  void registerOp(std::string name, BatchOp op);
  // Declares the args each named op reads: {{"identity1D", {"size", "inDim", "outDim"}}, ...}
  // (an OpArg where the command line spells one: {"sublayout", {OpArg("inDims").spelled("ins"),
  // ...}}).
  void declareArgs(const std::vector<std::pair<std::string, std::vector<OpArg>>>& ops);
  const std::map<std::string, BatchOp>& ops() const { return ops_; }

  // Checks `args` (an object) against the op's declared arguments: unknown keys (unless the op
  // checks its own), missing needed ones and values of the wrong kind are errors naming the
  // argument as `spelling` does; absent ones with a default get it.
  static Expected<void> prepareArgs(const std::string& opName, const BatchOp& op,
                                    nlohmann::json& args, ArgSpelling spelling);

  // The response line (no trailing newline) for one request line.
  std::string processLine(std::string_view line) const;
  // Reads every line of `in` and writes one response line each, in order: a blank line, a
  // malformed one, or one longer than resourceLimits().maxLineBytes gets an error line (with the
  // request's id where it can be read). False when writing to `out` failed (a full disk).
  [[nodiscard]] bool run(std::istream& in, std::ostream& out) const;

private:
  std::map<std::string, BatchOp> ops_;
};

// Registers the core algebra ops (interchange §2 and our extensions) on `p`.
void registerAlgebraOps(BatchProcessor& p);
// Registers toLinearLayout, layoutStr and verify over TritonGPU encodings.
void registerTritonOps(BatchProcessor& p);
// Registers the xegpu.* ops over MLIR XeGPU layouts.
void registerXegpuOps(BatchProcessor& p);
// xegpu.propagate (layout/xegpu/propagation.h).
void registerXegpuPropagateOp(BatchProcessor& p);
// blockLoad.plan (layout/intel/block_load_plan.h).
void registerBlockLoadOps(BatchProcessor& p);
void registerConversionOps(BatchProcessor& p); // convert.plan (layout/conversion)
void registerBankOps(BatchProcessor& p);       // banks.analyze, banks.swizzle (layout/smem)

} // namespace layout
