// layoutctl: the command-line explorer of liblayout.
#include "commands.h"

#include "layout/core/resource_limits.h"
#include "layout/text/internal/quoted_input.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

using namespace layoutctl;

namespace {

void printOverview(std::ostream& os, const std::vector<Command>& commands) {
  os << "layoutctl: GPU tensor layouts as linear maps over GF(2)\n\n"
        "usage: layoutctl <subcommand> [options]\n"
        "       layoutctl <subcommand> --help\n"
        "       layoutctl --list-commands [--format text|json]\n\n"
        "A LAYOUT argument is inline layout JSON (docs/interchange.md §1), or @FILE\n"
        "(@- for stdin). Every subcommand that prints a result takes --format text|json.\n"
        "Exit status: 0 ok, 1 invalid input or failed precondition, 2 usage error,\n"
        "3 device or runtime not available.\n\nsubcommands:\n";
  for (const Command& c : commands) os << "  " << c.usage << "\n";
  os << "\nexample:\n  layoutctl show        # the built-in example layout\n";
}

// "-l", "--elem-bits": an option as usage lines spell it.
std::string dashed(const std::string& name) {
  return (name.size() == 1 ? "-" : "--") + name;
}

void printCommandHelp(const Command& c) {
  std::cout << "usage: layoutctl " << c.usage << "\n\n" << c.description << "\n";
  std::string aliases;
  for (const Option& o : c.options) {
    if (o.aliases.empty()) continue;
    aliases += "  " + dashed(o.name) + ":";
    for (size_t i = 0; i < o.aliases.size(); ++i)
      aliases += (i ? ", " : " ") + dashed(o.aliases[i]);
    aliases += "\n";
  }
  if (!aliases.empty()) std::cout << "\nother spellings of the same options:\n" << aliases;
  std::cout << "\nexample:\n  " << c.example << "\n";
}

int runCommand(const Command& c, const std::vector<std::string>& argv) {
  try {
    Args args(argv, c.options, c.csv, c.sarif);
    if (args.help()) {
      printCommandHelp(c);
      return kOk;
    }
    const int code = c.run(args);
    std::cout.flush();
    if (!std::cout) {
      std::cerr << "error: writing to standard output failed (" << std::strerror(errno) << ")\n";
      return kInvalidInput;
    }
    return code;
  } catch (const CliExit& e) {
    std::cerr << "error: " << e.message << "\n";
    if (e.code == kUsage) std::cerr << "usage: layoutctl " << c.usage << "\n";
    return e.code;
  } catch (const layout::LimitExceeded& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kInvalidInput;
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of memory: the input needs more memory than is available "
                 "(docs/limits.md lists the limits on input sizes)\n";
    return kInvalidInput;
  } catch (const std::exception& e) {
    std::cerr << "error: internal error: " << e.what() << "\n";
    return kInvalidInput;
  }
}

} // namespace

int main(int argc, char** argv) {
  const std::vector<Command> commands = commandTable();
  if (auto limits = layout::resourceLimitsFromEnvironment()) {
    layout::setResourceLimits(*limits);
  } else {
    std::cerr << "error: " << limits.error().message << "\n";
    return kInvalidInput;
  }
  std::vector<std::string> rest(argv + (argc > 1 ? 2 : 1), argv + argc);
  if (argc < 2) {
    printOverview(std::cerr, commands);
    return kUsage;
  }
  const std::string sub = argv[1];
  if (sub == "-h" || sub == "--help" || sub == "help") {
    printOverview(std::cout, commands);
    return kOk;
  }
  if (sub == "--list-commands")
    return runCommand({"--list-commands",
                       "--list-commands [--format text|json]",
                       "Every subcommand, how it is bound to the batch ops (op: one op's "
                       "arguments, rules and printers; op-calls: its own argument forms, its "
                       "twin ops run; cli: no twin op) and those ops; --format json adds each "
                       "subcommand's options and their aliases.",
                       "layoutctl --list-commands --format json",
                       {},
                       [&commands](const Args& args) { return listCommands(commands, args); }},
                      rest);
  for (const Command& c : commands)
    if (c.name == sub) return runCommand(c, rest);
  std::cerr << "error: unknown subcommand " << layout::detail::quoteInput(sub)
            << " (see layoutctl --help)\n";
  return kUsage;
}
