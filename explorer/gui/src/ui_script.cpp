#include "explorer/ui_script.h"

#include <charconv>
#include <map>
#include <sstream>

namespace explorer {

using layout::makeError;

namespace {

struct Signature {
  int words;   // argument count
  int numbers; // how many of them (from the end) must be numbers
};

const std::map<std::string, Signature, std::less<>>& signatures() {
  static const std::map<std::string, Signature, std::less<>> s = {
      {"wait", {1, 1}},       {"move", {2, 2}},       {"click", {2, 2}}, {"click-cell", {3, 2}},
      {"hover-cell", {3, 2}}, {"scroll", {3, 3}},     {"drag", {4, 4}},  {"key", {1, 0}},
      {"view", {1, 0}},       {"screenshot", {1, 0}}, {"svg", {1, 0}},   {"report", {1, 0}},
  };
  return s;
}

} // namespace

layout::Expected<std::vector<ScriptCommand>> parseScript(std::string_view text) {
  std::vector<ScriptCommand> out;
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    ScriptCommand cmd;
    cmd.line = number;
    if (!(words >> cmd.op) || cmd.op[0] == '#') continue;
    for (std::string w; words >> w;) cmd.args.push_back(w);
    auto sig = signatures().find(cmd.op);
    std::string where = "script line " + std::to_string(number) + ": ";
    if (sig == signatures().end())
      return makeError(where + "unknown command '" + cmd.op +
                       "' (wait, move, click, click-cell, hover-cell, scroll, drag, key, view, "
                       "screenshot, svg, report)");
    if (int(cmd.args.size()) != sig->second.words)
      return makeError(where + "'" + cmd.op + "' takes " + std::to_string(sig->second.words) +
                       " argument(s), got " + std::to_string(cmd.args.size()));
    for (size_t i = cmd.args.size() - size_t(sig->second.numbers); i < cmd.args.size(); ++i) {
      const std::string& w = cmd.args[i];
      float v = 0;
      auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
      if (ec != std::errc() || p != w.data() + w.size())
        return makeError(where + "'" + cmd.op + "': argument " + std::to_string(i + 1) + " '" + w +
                         "' is not a number");
      cmd.numbers.push_back(v);
    }
    if (cmd.op == "wait" && (cmd.numbers[0] < 0 || cmd.numbers[0] > 10000))
      return makeError(where + "'wait' frames must be in [0, 10000]");
    out.push_back(std::move(cmd));
  }
  return out;
}

} // namespace explorer
