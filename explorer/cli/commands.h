// The subcommand table of layoutctl: every subcommand, its options, and how it is bound to the
// batch ops of docs/interchange.md §2 (`layoutctl --list-commands` prints it).
#pragma once

#include "cli_args.h"

#include <functional>
#include <string>
#include <vector>

namespace layoutctl {

// How a subcommand is bound to the batch ops.
enum class Binding {
  // One op (op_command.h): its arguments are the options, its rules and printers the
  // subcommand's.
  Op,
  // Reads its own argument forms (positional layouts, IN=VALUE words, alias files, query words)
  // and runs its twin ops for the result; the options are the ops' arguments.
  OpCalls,
  // No twin op.
  Cli,
};

// "op", "op-calls", "cli".
const char* bindingName(Binding binding);

struct Command {
  std::string name;
  std::string usage;
  std::string description;
  std::string example;
  std::vector<Option> options; // --format is every subcommand's
  std::function<int(const Args&)> run;
  bool csv = false; // --format csv too
  Binding binding = Binding::Cli;
  std::vector<std::string> ops = {}; // the batch ops it is bound to
  bool sarif = false;                // --format sarif too (the op's `sarif` flag, printed as JSON)
};

// Every subcommand, in the order of the overview.
std::vector<Command> commandTable();
// `layoutctl --list-commands [--format text|json]`: each subcommand with its binding and ops
// (and, as JSON, its options and their aliases).
int listCommands(const std::vector<Command>& commands, const Args& args);

void addShowCommand(std::vector<Command>& commands);
void addAlgebraCommands(std::vector<Command>& commands);
void addBatchCommand(std::vector<Command>& commands);
void addXegpuCommand(std::vector<Command>& commands);
void addPropagateCommand(std::vector<Command>& commands);
void addBlockLoadCommand(std::vector<Command>& commands);
void addBanksCommands(std::vector<Command>& commands);
void addConvertCommand(std::vector<Command>& commands);
void addReportCommand(std::vector<Command>& commands);
void addGemmCommand(std::vector<Command>& commands);
void addTargetsCommand(std::vector<Command>& commands);

} // namespace layoutctl
