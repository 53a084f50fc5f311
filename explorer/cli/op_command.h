// CLI subcommands bound to registered ops (layout/protocol/batch.h), in the ways commands.h
// lists. Bound to one op (Binding::Op): the options are the op's declared arguments, spelled in
// kebab-case or as the argument says (--element-bits for elemBits, also its older --elem-bits;
// flags for Flag arguments), read by their kind (a shape as 64x32, a layout as text or @file),
// checked by the op's own rules and printed by its printers: `layoutctl convert ...` and the batch
// request {"op": "convert.plan", "args": {...}} run the same code and fail with the same words.
// Bound to twin ops (Binding::OpCalls): the options are the ops' arguments as the command line
// spells them, and the subcommand runs the ops with runOp / runLayoutOp.
#pragma once

#include "commands.h"

#include "layout/protocol/batch.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace layoutctl {

// The op registry every subcommand and `layoutctl batch` use.
const layout::BatchProcessor& opRegistry();

struct OpCommand {
  std::string command; // "convert"
  std::string op;      // "convert.plan"
  std::string usage;
  std::string description;
  std::string example;
  // CLI conveniences before the op runs (a built-in example when the inputs are absent, a
  // listing flag): may fill `args`, set a line printed before a text result, or return an exit
  // status to stop with.
  std::function<std::optional<int>(const Args&, nlohmann::json& args, std::string& preamble)>
      prepare = {};
  std::vector<Option> extraOptions = {}; // options of the subcommand alone (banks --list)
  bool csv = false;                      // --format csv too
  std::string positionalHint{};          // after "takes one OP": the choices
  bool sarif = false; // --format sarif too: sets the op's `sarif` flag, printed as JSON
};

void addOpCommand(std::vector<Command>& commands, OpCommand command);

// A subcommand bound to its twin `ops` (binding OpCalls): its options are the ops' arguments the
// command line spells as options, then those already in `command.options`.
void addTwinCommand(std::vector<Command>& commands, Binding binding, std::vector<std::string> ops,
                    Command command);

// The result of the registered op `op` on `inputs` and `args` (its arguments' JSON); a failure
// is invalid input (exit 1) with the op's message.
nlohmann::ordered_json runOp(const std::string& op, std::vector<layout::LinearLayout> inputs,
                             nlohmann::json args = nlohmann::json::object());
// The same for an op that makes a layout (layout::BatchOp::layout).
layout::LinearLayout runLayoutOp(const std::string& op, std::vector<layout::LinearLayout> inputs,
                                 nlohmann::json args = nlohmann::json::object());

} // namespace layoutctl
