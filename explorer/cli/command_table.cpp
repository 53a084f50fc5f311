// The table of layoutctl's subcommands (commands.h) and `layoutctl --list-commands`, which prints
// it: each subcommand, how it is bound to the batch ops, and its options with their aliases.
#include "commands.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

namespace layoutctl {

const char* bindingName(Binding binding) {
  switch (binding) {
  case Binding::Op:
    return "op";
  case Binding::OpCalls:
    return "op-calls";
  case Binding::Cli:
    break;
  }
  return "cli";
}

std::vector<Command> commandTable() {
  std::vector<Command> commands;
  addShowCommand(commands);
  addAlgebraCommands(commands);
  addBatchCommand(commands);
  addXegpuCommand(commands);
  addPropagateCommand(commands);
  addBlockLoadCommand(commands);
  addConvertCommand(commands);
  addBanksCommands(commands);
  addReportCommand(commands);
  addGemmCommand(commands);
  addTargetsCommand(commands);
  return commands;
}

namespace {

std::string padded(std::string text, size_t width) {
  text.resize(std::max(text.size(), width), ' ');
  return text;
}

} // namespace

int listCommands(const std::vector<Command>& commands, const Args& args) {
  if (!args.positionals().empty()) throw CliExit{kUsage, "--list-commands takes no arguments"};
  if (args.json()) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const Command& c : commands) {
      nlohmann::ordered_json options = nlohmann::ordered_json::array();
      for (const Option& o : c.options)
        options.push_back({{"name", o.name}, {"aliases", o.aliases}, {"flag", o.flag}});
      out.push_back({{"name", c.name},
                     {"binding", bindingName(c.binding)},
                     {"ops", c.ops},
                     {"options", std::move(options)}});
    }
    std::cout << out.dump(2) << "\n";
    return kOk;
  }
  // "apply            op-calls  apply"
  for (const Command& c : commands) {
    std::string line = padded(c.name, 17) + bindingName(c.binding);
    if (!c.ops.empty()) line = padded(line, 27);
    for (size_t i = 0; i < c.ops.size(); ++i) line += (i ? " " : "") + c.ops[i];
    std::cout << line << "\n";
  }
  return kOk;
}

} // namespace layoutctl
