// layoutctl's algebra subcommands: apply, compose, invert, invert-compose, product, reshape,
// transpose, sublayout, free-vars. Each reads its own argument forms (positional layouts,
// IN=VALUE words, --ins a=2,b=2) and runs its twin batch ops (Binding::OpCalls).
#include "op_command.h"

#include "layout/text/internal/quoted_input.h"
#include "layout/text/layout_json.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <iostream>

namespace layoutctl {

using layout::DimName;
using layout::LinearLayout;
using nlohmann::json;

namespace {

void printLayout(const LinearLayout& l, const Args& args) {
  if (args.json()) {
    if (auto fits = layout::checkLayoutJsonSize(l); !fits)
      throw CliExit{kInvalidInput, fits.error().message};
    std::cout << layout::printLayoutJson(l, 2) << "\n";
    return;
  }
  // Triton's toString starts with a newline; drop it on a terminal.
  std::cout << l.toString().substr(1) << "\n";
}

void requirePositionals(const Args& args, size_t count, const char* what) {
  if (args.positionals().size() != count)
    throw CliExit{kUsage, std::string("expected ") + what + ", got " +
                              std::to_string(args.positionals().size()) + " argument(s)"};
}

// The inputs of an op: layouts moved in, not copied.
template <typename... Layouts> std::vector<LinearLayout> inputs(Layouts&&... layouts) {
  std::vector<LinearLayout> v;
  (v.push_back(std::forward<Layouts>(layouts)), ...);
  return v;
}

json nameList(const std::vector<DimName>& names) {
  json j = json::array();
  for (DimName n : names) j.push_back(std::string(n.str()));
  return j;
}

json nameSizeList(const std::vector<layout::DimSize>& dims) {
  json j = json::array();
  for (const auto& d : dims) j.push_back({std::string(d.name.str()), d.size});
  return j;
}

int runApply(const Args& args) {
  if (args.positionals().empty()) throw CliExit{kUsage, "expected a layout and inDim=value pairs"};
  LinearLayout l = readLayoutArg(args.positionals()[0], "layout");
  json ins = json::array();
  for (size_t i = 1; i < args.positionals().size(); ++i) {
    const std::string& p = args.positionals()[i];
    auto eq = p.find('=');
    std::string value = eq == std::string::npos ? "" : p.substr(eq + 1);
    if (eq == 0 || value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
      throw CliExit{kUsage, "expected inDim=value (a non-negative integer), got " +
                                layout::detail::quoteInput(p)};
    // Any 64-bit value, as the batch's apply takes it (like Triton, only the low log2(size) bits
    // of the dim are read).
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size())
      throw CliExit{kUsage, "expected inDim=value with a value in [0, 2^64 - 1] "
                            "(18446744073709551615), got " +
                                layout::detail::quoteInput(p)};
    ins.push_back({p.substr(0, eq), v});
  }
  const auto outs = runOp("apply", inputs(std::move(l)), {{"ins", std::move(ins)}});
  if (args.json()) {
    std::cout << outs.dump() << "\n";
  } else {
    for (size_t i = 0; i < outs.size(); ++i)
      std::cout << (i ? " " : "") << outs[i][0].get<std::string>() << "="
                << outs[i][1].get<uint64_t>();
    std::cout << "\n";
  }
  return kOk;
}

// compose, invert-compose: the op on layouts A and B.
int runOnTwo(const char* op, const Args& args) {
  requirePositionals(args, 2, "two layouts A and B");
  LinearLayout a = readLayoutArg(args.positionals()[0], "A");
  LinearLayout b = readLayoutArg(args.positionals()[1], "B");
  printLayout(runLayoutOp(op, inputs(std::move(a), std::move(b))), args);
  return kOk;
}

int runInvert(const Args& args) {
  requirePositionals(args, 1, "one layout");
  LinearLayout a = readLayoutArg(args.positionals()[0], "layout");
  printLayout(runLayoutOp(args.flag("pseudo") ? "pseudoinvert" : "invert", inputs(std::move(a))),
              args);
  return kOk;
}

int runProduct(const Args& args) {
  if (args.positionals().size() < 2) throw CliExit{kUsage, "expected at least two layouts"};
  LinearLayout acc = readLayoutArg(args.positionals()[0], "layout 1");
  for (size_t i = 1; i < args.positionals().size(); ++i)
    acc = runLayoutOp(
        "product", inputs(std::move(acc),
                          readLayoutArg(args.positionals()[i], "layout " + std::to_string(i + 1))));
  printLayout(acc, args);
  return kOk;
}

// Regroups the in-dims (--ins, reshapeIns) and then the out-dims (--outs, reshapeOuts).
int runReshape(const Args& args) {
  requirePositionals(args, 1, "one layout");
  auto ins = args.option("ins"), outs = args.option("outs");
  if (!ins && !outs) throw CliExit{kUsage, "give --ins name=size,... and/or --outs name=size,..."};
  LinearLayout l = readLayoutArg(args.positionals()[0], "layout");
  if (ins)
    l = runLayoutOp("reshapeIns", inputs(std::move(l)),
                    {{"newInDims", nameSizeList(parseDimSizeList(*ins, "ins"))}});
  if (outs)
    l = runLayoutOp("reshapeOuts", inputs(std::move(l)),
                    {{"newOutDims", nameSizeList(parseDimSizeList(*outs, "outs"))}});
  printLayout(l, args);
  return kOk;
}

// Permutes the in-dims (--ins, transposeIns) and then the out-dims (--outs, transposeOuts).
int runTranspose(const Args& args) {
  requirePositionals(args, 1, "one layout");
  auto ins = args.option("ins"), outs = args.option("outs");
  if (!ins && !outs) throw CliExit{kUsage, "give --ins a,b,... and/or --outs x,y,..."};
  LinearLayout l = readLayoutArg(args.positionals()[0], "layout");
  if (ins)
    l = runLayoutOp("transposeIns", inputs(std::move(l)),
                    {{"newInDimOrder", nameList(parseDimList(*ins, "ins"))}});
  if (outs)
    l = runLayoutOp("transposeOuts", inputs(std::move(l)),
                    {{"newOutDimOrder", nameList(parseDimList(*outs, "outs"))}});
  printLayout(l, args);
  return kOk;
}

int runSublayout(const Args& args) {
  requirePositionals(args, 1, "one layout");
  auto ins = args.option("ins"), outs = args.option("outs");
  if (!ins || !outs) throw CliExit{kUsage, "give both --ins a,b,... and --outs x,y,..."};
  LinearLayout l = readLayoutArg(args.positionals()[0], "layout");
  // An empty list keeps no dims.
  const json inNames = ins->empty() ? json::array() : nameList(parseDimList(*ins, "ins"));
  const json outNames = outs->empty() ? json::array() : nameList(parseDimList(*outs, "outs"));
  printLayout(
      runLayoutOp("sublayout", inputs(std::move(l)), {{"inDims", inNames}, {"outDims", outNames}}),
      args);
  return kOk;
}

int runFreeVars(const Args& args) {
  requirePositionals(args, 1, "one layout");
  LinearLayout l = readLayoutArg(args.positionals()[0], "layout");
  std::vector<int> inBits; // of each in-dim, for the text
  for (int d = 0; d < l.numInDims(); ++d) inBits.push_back(l.inDimSizeLog2(d));
  const auto masks = runOp("getFreeVariableMasks", inputs(std::move(l)));
  if (args.json()) {
    std::cout << masks.dump() << "\n";
    return kOk;
  }
  for (size_t d = 0; d < inBits.size(); ++d) {
    const uint64_t m = masks[d][1].get<uint64_t>();
    std::cout << masks[d][0].get<std::string>() << ": mask " << m << " (";
    std::string bits;
    for (int i = 0; i < inBits[d]; ++i)
      if ((m >> i) & 1) bits += (bits.empty() ? "" : ", ") + std::to_string(i);
    std::cout << (bits.empty() ? "no free bits" : "free bits " + bits) << ")\n";
  }
  return kOk;
}

} // namespace

void addAlgebraCommands(std::vector<Command>& commands) {
  const std::string ex = "'{\"inDims\":[{\"name\":\"lane\",\"bases\":[[1],[2]]}],"
                         "\"outDims\":[{\"name\":\"dim0\",\"size\":4}]}'";
  // Each runs its twin ops; the options are theirs (--ins, --outs), and invert's --pseudo picks
  // pseudoinvert.
  auto add = [&](std::vector<std::string> ops, Command c) {
    addTwinCommand(commands, Binding::OpCalls, std::move(ops), std::move(c));
  };
  add({"apply"}, {"apply",
                  "apply LAYOUT IN=VALUE... [--format text|json]",
                  "Apply a layout to one input: every in-dim once, as name=value.",
                  "layoutctl apply " + ex + " lane=3",
                  {},
                  runApply});
  add({"compose"}, {"compose",
                    "compose A B [--format text|json]",
                    "B(A(x)), Triton's A.compose(B). A's out-dims must be B's in-dims.",
                    "layoutctl compose @a.json @b.json",
                    {},
                    [](const Args& args) { return runOnTwo("compose", args); }});
  add({"invert", "pseudoinvert"},
      {"invert",
       "invert LAYOUT [--pseudo] [--format text|json]",
       "The inverse of an invertible layout; with --pseudo, the smallest-preimage "
       "map of a surjective one (Triton's pseudoinvert).",
       "layoutctl invert " + ex,
       {{"pseudo", {}, /*flag=*/true}},
       runInvert});
  add({"invertAndCompose"}, {"invert-compose",
                             "invert-compose A B [--format text|json]",
                             "C with A(x) == B(C(x)), Triton's A.invertAndCompose(B) with its "
                             "tie-breaks: the conversion from layout A to layout B.",
                             "layoutctl invert-compose @src.json @dst.json",
                             {},
                             [](const Args& args) { return runOnTwo("invertAndCompose", args); }});
  add({"product"}, {"product",
                    "product A B [C...] [--format text|json]",
                    "A * B * ..., Triton's operator* (direct sum; dims merged in order).",
                    "layoutctl product @regs.json @lanes.json",
                    {},
                    runProduct});
  add({"reshapeIns", "reshapeOuts"},
      {"reshape",
       "reshape LAYOUT [--ins n=size,...] [--outs n=size,...]",
       "Regroup the input and/or output bits into new dims of the same total size.",
       "layoutctl reshape " + ex + " --outs dim0=2,dim1=2",
       {},
       runReshape});
  add({"transposeIns", "transposeOuts"}, {"transpose",
                                          "transpose LAYOUT [--ins a,b,...] [--outs x,y,...]",
                                          "Permute the order of the in-dims and/or out-dims.",
                                          "layoutctl transpose @l.json --ins lane,register",
                                          {},
                                          runTranspose});
  add({"sublayout"}, {"sublayout",
                      "sublayout LAYOUT --ins a,... --outs x,...",
                      "Restrict to some in- and out-dims (others read as 0); an empty list keeps "
                      "none.",
                      "layoutctl sublayout @l.json --ins lane --outs dim0",
                      {},
                      runSublayout});
  add({"getFreeVariableMasks"},
      {"free-vars",
       "free-vars LAYOUT [--format text|json]",
       "Per in-dim, the input bits that do not change the output (broadcast bits).",
       "layoutctl free-vars @l.json",
       {},
       runFreeVars});
}

} // namespace layoutctl
