// The generic binder of CLI subcommands to registered ops (op_command.h).
#include "op_command.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

namespace layoutctl {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// A value option's text, with @file read for the kinds that take one (a target file is read by
// the target lookup itself).
std::string optionText(const layout::OpArg& a, const std::string& raw) {
  switch (a.kind) {
  case layout::OpArgKind::String:
  case layout::OpArgKind::Operand:
  case layout::OpArgKind::Instruction:
  case layout::OpArgKind::Addresses:
    return readTextArg(raw, "--" + a.cliOption);
  default:
    return raw;
  }
}

// A bad value: invalid input for data the user wrote (a layout, a model, a target file), a usage
// error for a count, a shape or a choice.
int statusFor(const layout::OpArg& a, const json& value) {
  if (a.kind == layout::OpArgKind::Target)
    return value.is_string() && value.get<std::string>().rfind('@', 0) == 0 ? kInvalidInput
                                                                            : kUsage;
  return layout::holdsData(a.kind) ? kInvalidInput : kUsage;
}

// The op with each argument named as the command line gave it: messages name an alias as it was
// typed ("--elem-bits: 12 is not 8, 16, 32 or 64").
layout::BatchOp asGiven(const layout::BatchOp& op, const Args& args) {
  layout::BatchOp given = op;
  for (layout::OpArg& a : given.args) a.cliOption = args.given(a.cliOption);
  return given;
}

json argsFromCommandLine(const OpCommand& c, const layout::BatchOp& op, const Args& args) {
  constexpr auto cli = layout::ArgSpelling::CommandLine;
  json out = json::object();
  const layout::OpArg* positional = nullptr;
  for (const layout::OpArg& a : op.args) {
    if (a.positional) {
      positional = &a;
      continue;
    }
    std::optional<std::string> text;
    if (a.kind == layout::OpArgKind::Flag) {
      if (args.flag(a.cliOption)) text = "true";
    } else if (auto raw = args.option(a.cliOption)) {
      text = optionText(a, *raw);
    }
    if (!text) continue;
    auto value = layout::opArgFromText(a, *text, cli);
    if (!value)
      throw CliExit{layout::holdsData(a.kind) ? kInvalidInput : kUsage, value.error().message};
    if (auto ok = layout::checkOpArg(a, *value, cli); !ok)
      throw CliExit{statusFor(a, *value), ok.error().message};
    out[a.name] = std::move(*value);
  }
  const auto& words = args.positionals();
  if (!positional && !words.empty())
    throw CliExit{kUsage, c.command + " takes no positional arguments"};
  if (positional) {
    if (words.size() != 1)
      throw CliExit{kUsage, c.command + " takes one " + layout::kebabCase(positional->name) +
                                (c.positionalHint.empty() ? "" : " (" + c.positionalHint + ")")};
    out[positional->name] = words[0];
  }
  return out;
}

int runOpCommand(const OpCommand& c, const Args& args) {
  const layout::BatchOp op = asGiven(opRegistry().ops().at(c.op), args);
  json request = argsFromCommandLine(c, op, args);
  std::string preamble;
  if (c.prepare)
    if (auto status = c.prepare(args, request, preamble)) return *status;
  if (auto ok =
          layout::BatchProcessor::prepareArgs(c.op, op, request, layout::ArgSpelling::CommandLine);
      !ok)
    throw CliExit{kUsage, ok.error().message};
  const std::string format = args.option("format").value_or("text");
  // --format sarif sets the op's `sarif` flag; its text printer then prints the SARIF document.
  if (format == "sarif") request["sarif"] = true;
  const layout::OutputFormat out = format == "json"  ? layout::OutputFormat::Json
                                   : format == "csv" ? layout::OutputFormat::Csv
                                                     : layout::OutputFormat::Text;
  layout::BatchRequest req(c.op, request, &op, layout::ArgSpelling::CommandLine);
  auto text = op.render(req, out);
  if (!text) throw CliExit{kInvalidInput, text.error().message};
  if (out == layout::OutputFormat::Text) std::cout << preamble;
  std::cout << *text;
  return kOk;
}

// The options of `op`'s arguments (a positional one is not an option), after those in `options`
// and without repeating one.
void addArgOptions(std::vector<Option>& options, const layout::BatchOp& op) {
  for (const layout::OpArg& a : op.args) {
    const bool known = std::any_of(options.begin(), options.end(),
                                   [&](const Option& o) { return o.name == a.cliOption; });
    if (!a.positional && !known)
      options.push_back({a.cliOption, a.cliAliases, a.kind == layout::OpArgKind::Flag});
  }
}

// The request of `op` on `inputs` and `args`, the args checked by the op's rules first.
layout::BatchRequest checkedRequest(const std::string& op, std::vector<layout::LinearLayout> inputs,
                                    json& args) {
  const layout::BatchOp& spec = opRegistry().ops().at(op);
  constexpr auto cli = layout::ArgSpelling::CommandLine;
  if (auto ok = layout::BatchProcessor::prepareArgs(op, spec, args, cli); !ok)
    throw CliExit{kUsage, ok.error().message};
  layout::BatchRequest request(op, args, &spec, cli);
  request.inputs = std::move(inputs);
  return request;
}

} // namespace

const layout::BatchProcessor& opRegistry() {
  static const layout::BatchProcessor registry;
  return registry;
}

void addOpCommand(std::vector<Command>& commands, OpCommand command) {
  std::vector<Option> options;
  addArgOptions(options, opRegistry().ops().at(command.op));
  options.insert(options.end(), command.extraOptions.begin(), command.extraOptions.end());
  auto shared = std::make_shared<const OpCommand>(std::move(command));
  commands.push_back(Command{shared->command,
                             shared->usage,
                             shared->description,
                             shared->example,
                             std::move(options),
                             [shared](const Args& args) { return runOpCommand(*shared, args); },
                             shared->csv,
                             Binding::Op,
                             {shared->op},
                             shared->sarif});
}

void addTwinCommand(std::vector<Command>& commands, Binding binding, std::vector<std::string> ops,
                    Command command) {
  std::vector<Option> options;
  for (const std::string& op : ops) addArgOptions(options, opRegistry().ops().at(op));
  options.insert(options.end(), command.options.begin(), command.options.end());
  command.options = std::move(options);
  command.binding = binding;
  command.ops = std::move(ops);
  commands.push_back(std::move(command));
}

ordered_json runOp(const std::string& op, std::vector<layout::LinearLayout> inputs, json args) {
  const layout::BatchRequest request = checkedRequest(op, std::move(inputs), args);
  auto result = request.spec->run(request);
  if (!result) throw CliExit{kInvalidInput, result.error().message};
  return std::move(*result);
}

layout::LinearLayout runLayoutOp(const std::string& op, std::vector<layout::LinearLayout> inputs,
                                 json args) {
  const layout::BatchRequest request = checkedRequest(op, std::move(inputs), args);
  auto result = request.spec->layout(request);
  if (!result) throw CliExit{kInvalidInput, result.error().message};
  return std::move(*result);
}

} // namespace layoutctl
