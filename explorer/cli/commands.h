// The subcommand table of layoutctl.
#pragma once

#include "cli_args.h"

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace layoutctl {

struct Command {
  std::string name;
  std::string usage;
  std::string description;
  std::string example;
  std::set<std::string> valueOptions;
  std::set<std::string> flags;
  std::function<int(const Args&)> run;
  bool csv = false; // --format csv too
};

void addShowCommand(std::vector<Command>& commands);
void addAlgebraCommands(std::vector<Command>& commands);
void addBatchCommand(std::vector<Command>& commands);
void addXegpuCommand(std::vector<Command>& commands);
void addPropagateCommand(std::vector<Command>& commands);
void addBlockLoadCommand(std::vector<Command>& commands);
void addBanksCommands(std::vector<Command>& commands);
void addConvertCommand(std::vector<Command>& commands);
void addGemmCommand(std::vector<Command>& commands);
void addTargetsCommand(std::vector<Command>& commands);

} // namespace layoutctl
