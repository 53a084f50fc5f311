// layoutctl's algebra subcommands: show, apply, compose, invert, invert-compose, product, reshape,
// transpose, sublayout, free-vars.
#include "commands.h"

#include "layout/text/layout_json.h"
#include "layout/text/quoted_input.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <iostream>

namespace layoutctl {

using layout::DimName;
using layout::LinearLayout;

namespace {

template <typename T> T unwrap(layout::Expected<T> r) {
  if (!r) throw CliExit{kInvalidInput, r.error().message};
  return std::move(*r);
}

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

int runApply(const Args& args) {
  if (args.positionals().empty()) throw CliExit{kUsage, "expected a layout and inDim=value pairs"};
  LinearLayout l = readLayoutArg(args.positionals()[0], "layout");
  std::vector<std::pair<DimName, uint64_t>> ins;
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
    ins.push_back({DimName(p.substr(0, eq)), v});
  }
  auto outs = unwrap(l.apply(ins));
  if (args.json()) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (auto& [n, v] : outs) j.push_back({std::string(n.str()), v});
    std::cout << j.dump() << "\n";
  } else {
    for (size_t i = 0; i < outs.size(); ++i)
      std::cout << (i ? " " : "") << outs[i].first.str() << "=" << outs[i].second;
    std::cout << "\n";
  }
  return kOk;
}

int runCompose(const Args& args) {
  requirePositionals(args, 2, "two layouts A and B");
  LinearLayout a = readLayoutArg(args.positionals()[0], "A");
  LinearLayout b = readLayoutArg(args.positionals()[1], "B");
  printLayout(unwrap(a.compose(b)), args);
  return kOk;
}

int runInvert(const Args& args) {
  requirePositionals(args, 1, "one layout");
  LinearLayout a = readLayoutArg(args.positionals()[0], "layout");
  printLayout(unwrap(args.flag("pseudo") ? a.pseudoinvert() : a.invert()), args);
  return kOk;
}

int runInvertCompose(const Args& args) {
  requirePositionals(args, 2, "two layouts A and B");
  LinearLayout a = readLayoutArg(args.positionals()[0], "A");
  LinearLayout b = readLayoutArg(args.positionals()[1], "B");
  printLayout(unwrap(a.invertAndCompose(b)), args);
  return kOk;
}

int runProduct(const Args& args) {
  if (args.positionals().size() < 2) throw CliExit{kUsage, "expected at least two layouts"};
  LinearLayout acc = readLayoutArg(args.positionals()[0], "layout 1");
  for (size_t i = 1; i < args.positionals().size(); ++i)
    acc = unwrap(layout::product(
        acc, readLayoutArg(args.positionals()[i], "layout " + std::to_string(i + 1))));
  printLayout(acc, args);
  return kOk;
}

// Shared by reshape and transpose: exactly one of --ins / --outs (or both, ins applied first).
int runReshape(const Args& args) {
  requirePositionals(args, 1, "one layout");
  auto ins = args.option("ins"), outs = args.option("outs");
  if (!ins && !outs) throw CliExit{kUsage, "give --ins name=size,... and/or --outs name=size,..."};
  LinearLayout l = readLayoutArg(args.positionals()[0], "layout");
  if (ins) l = unwrap(l.reshapeIns(parseDimSizeList(*ins, "ins")));
  if (outs) l = unwrap(l.reshapeOuts(parseDimSizeList(*outs, "outs")));
  printLayout(l, args);
  return kOk;
}

int runTranspose(const Args& args) {
  requirePositionals(args, 1, "one layout");
  auto ins = args.option("ins"), outs = args.option("outs");
  if (!ins && !outs) throw CliExit{kUsage, "give --ins a,b,... and/or --outs x,y,..."};
  LinearLayout l = readLayoutArg(args.positionals()[0], "layout");
  if (ins) l = unwrap(l.transposeIns(parseDimList(*ins, "ins")));
  if (outs) l = unwrap(l.transposeOuts(parseDimList(*outs, "outs")));
  printLayout(l, args);
  return kOk;
}

int runSublayout(const Args& args) {
  requirePositionals(args, 1, "one layout");
  auto ins = args.option("ins"), outs = args.option("outs");
  if (!ins || !outs) throw CliExit{kUsage, "give both --ins a,b,... and --outs x,y,..."};
  LinearLayout l = readLayoutArg(args.positionals()[0], "layout");
  std::vector<DimName> inNames = ins->empty() ? std::vector<DimName>() : parseDimList(*ins, "ins");
  std::vector<DimName> outNames =
      outs->empty() ? std::vector<DimName>() : parseDimList(*outs, "outs");
  printLayout(unwrap(l.sublayout(inNames, outNames)), args);
  return kOk;
}

int runFreeVars(const Args& args) {
  requirePositionals(args, 1, "one layout");
  LinearLayout l = readLayoutArg(args.positionals()[0], "layout");
  auto masks = l.freeVariableMasks();
  if (args.json()) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (auto& [n, m] : masks) j.push_back({std::string(n.str()), m});
    std::cout << j.dump() << "\n";
    return kOk;
  }
  for (int d = 0; d < l.numInDims(); ++d) {
    uint64_t m = masks[d].second;
    std::cout << masks[d].first.str() << ": mask " << m << " (";
    std::string bits;
    for (int i = 0; i < l.inDimSizeLog2(d); ++i)
      if ((m >> i) & 1) bits += (bits.empty() ? "" : ", ") + std::to_string(i);
    std::cout << (bits.empty() ? "no free bits" : "free bits " + bits) << ")\n";
  }
  return kOk;
}

} // namespace

void addAlgebraCommands(std::vector<Command>& commands) {
  const std::string ex = "'{\"inDims\":[{\"name\":\"lane\",\"bases\":[[1],[2]]}],"
                         "\"outDims\":[{\"name\":\"dim0\",\"size\":4}]}'";
  commands.push_back({"apply",
                      "apply LAYOUT IN=VALUE... [--format text|json]",
                      "Apply a layout to one input: every in-dim once, as name=value.",
                      "layoutctl apply " + ex + " lane=3",
                      {},
                      {},
                      runApply});
  commands.push_back({"compose",
                      "compose A B [--format text|json]",
                      "B(A(x)), Triton's A.compose(B). A's out-dims must be B's in-dims.",
                      "layoutctl compose @a.json @b.json",
                      {},
                      {},
                      runCompose});
  commands.push_back({"invert",
                      "invert LAYOUT [--pseudo] [--format text|json]",
                      "The inverse of an invertible layout; with --pseudo, the smallest-preimage "
                      "map of a surjective one (Triton's pseudoinvert).",
                      "layoutctl invert " + ex,
                      {},
                      {"pseudo"},
                      runInvert});
  commands.push_back({"invert-compose",
                      "invert-compose A B [--format text|json]",
                      "C with A(x) == B(C(x)), Triton's A.invertAndCompose(B) with its "
                      "tie-breaks: the conversion from layout A to layout B.",
                      "layoutctl invert-compose @src.json @dst.json",
                      {},
                      {},
                      runInvertCompose});
  commands.push_back({"product",
                      "product A B [C...] [--format text|json]",
                      "A * B * ..., Triton's operator* (direct sum; dims merged in order).",
                      "layoutctl product @regs.json @lanes.json",
                      {},
                      {},
                      runProduct});
  commands.push_back({"reshape",
                      "reshape LAYOUT [--ins n=size,...] [--outs n=size,...]",
                      "Regroup the input and/or output bits into new dims of the same total size.",
                      "layoutctl reshape " + ex + " --outs dim0=2,dim1=2",
                      {"ins", "outs"},
                      {},
                      runReshape});
  commands.push_back({"transpose",
                      "transpose LAYOUT [--ins a,b,...] [--outs x,y,...]",
                      "Permute the order of the in-dims and/or out-dims.",
                      "layoutctl transpose @l.json --ins lane,register",
                      {"ins", "outs"},
                      {},
                      runTranspose});
  commands.push_back({"sublayout",
                      "sublayout LAYOUT --ins a,... --outs x,...",
                      "Restrict to some in- and out-dims (others read as 0); an empty list keeps "
                      "none.",
                      "layoutctl sublayout @l.json --ins lane --outs dim0",
                      {"ins", "outs"},
                      {},
                      runSublayout});
  commands.push_back({"free-vars",
                      "free-vars LAYOUT [--format text|json]",
                      "Per in-dim, the input bits that do not change the output (broadcast bits).",
                      "layoutctl free-vars @l.json",
                      {},
                      {},
                      runFreeVars});
}

} // namespace layoutctl
