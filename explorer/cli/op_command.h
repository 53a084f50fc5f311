// CLI subcommands bound to registered ops (layout/protocol/batch.h): the options are the op's
// declared arguments, spelled in kebab-case (--elem-bits for elemBits, flags for Flag
// arguments), read by their kind (a shape as 64x32, a layout as text or @file), checked by the
// op's own rules and printed by its printers. `layoutctl convert ...` and the batch request
// {"op": "convert.plan", "args": {...}} run the same code and fail with the same words.
#pragma once

#include "commands.h"

#include "layout/protocol/batch.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <optional>
#include <set>
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
  std::set<std::string> extraFlags = {};
  bool csv = false;             // --format csv too
  std::string positionalHint{}; // after "takes one OP": the choices
};

void addOpCommand(std::vector<Command>& commands, OpCommand command);

} // namespace layoutctl
