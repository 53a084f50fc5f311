#include "layout/views/ui_script.h"

#include "layout/core/resource_limits.h"

#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

namespace layout::views {

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

// The explorer enumerates at most 2^22 elements, so a grid has fewer rows and columns.
constexpr float kMaxCell = float(1 << 22);

// Checks the numeric arguments of `cmd` (already parsed, so finite or not); "" when they are
// valid, else what is wrong.
std::string checkNumbers(const ScriptCommand& cmd, const ScriptLimits& limits) {
  const auto& n = cmd.numbers;
  const size_t first = cmd.args.size() - n.size(); // the argument index of n[0]
  auto argument = [&](size_t i, const char* what) {
    return "'" + cmd.op + "': argument " + std::to_string(first + i + 1) + " (" + what + ") '" +
           cmd.args[first + i] + "'";
  };
  auto whole = [&](size_t i, float hi, const char* what, const std::string& suffix) -> std::string {
    if (std::isfinite(n[i]) && n[i] >= 0 && n[i] <= hi && n[i] == std::floor(n[i])) return "";
    return argument(i, what) + " must be a whole number in [0, " + std::to_string(int64_t(hi)) +
           "]" + suffix;
  };
  // Window pixels: finite and inside the window (a click elsewhere reaches nothing, and a NaN
  // or infinite position would reach the canvas's arithmetic).
  auto inWindow = [&](size_t i, bool x) -> std::string {
    const int size = x ? limits.windowWidth : limits.windowHeight;
    if (std::isfinite(n[i]) && n[i] >= 0 && n[i] < float(size)) return "";
    return argument(i, x ? "x" : "y") + " must be a number in [0, " + std::to_string(size) +
           "): window pixels inside the " + std::to_string(limits.windowWidth) + "x" +
           std::to_string(limits.windowHeight) + " window (--size)";
  };
  if (cmd.op == "wait")
    return whole(0, float(ScriptLimits::kMaxWaitFrames), "frames",
                 " (the limit of one wait; the frames of the whole script are bounded by "
                 "LAYOUT_MAX_SCRIPT_FRAMES)");
  if (cmd.op == "click-cell" || cmd.op == "hover-cell") {
    for (size_t i = 0; i < 2; ++i)
      if (auto e = whole(i, kMaxCell - 1, i == 0 ? "row" : "column", ""); !e.empty()) return e;
    return "";
  }
  if (cmd.op == "move" || cmd.op == "click" || cmd.op == "scroll" || cmd.op == "drag") {
    const size_t coordinates = cmd.op == "scroll" ? 2 : n.size();
    for (size_t i = 0; i < coordinates; ++i)
      if (auto e = inWindow(i, i % 2 == 0); !e.empty()) return e;
  }
  if (cmd.op == "scroll" && !(std::isfinite(n[2]) && std::fabs(n[2]) <= ScriptLimits::kMaxScroll))
    return argument(2, "wheel steps") + " must be a number in [-100, 100]";
  return "";
}

} // namespace

int scriptCommandFrames(const ScriptCommand& c) {
  if (c.op == "wait") return int(c.numbers[0]);
  if (c.op == "click" || c.op == "click-cell") return 4; // move, press, release, settle
  if (c.op == "hover-cell") return 2;
  if (c.op == "scroll" || c.op == "key") return 3;
  if (c.op == "drag") return 8;
  return 1;
}

layout::Expected<std::vector<ScriptCommand>> parseScript(std::string_view text,
                                                         const ScriptLimits& limits) {
  std::vector<ScriptCommand> out;
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  uint64_t frames = 0;
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
    if (std::string e = checkNumbers(cmd, limits); !e.empty()) return makeError(where + e);
    // The bounds on the whole script, checked before anything runs.
    if (out.size() >= ScriptLimits::kMaxCommands)
      return makeError(where + "the script has more than " +
                       std::to_string(ScriptLimits::kMaxCommands) +
                       " commands, the limit of one script (fixed; split it into several runs)");
    frames += uint64_t(scriptCommandFrames(cmd));
    if (frames > limits.maxFrames)
      return makeError(where + "the script spans more than " +
                       layout::describeLimit(limits.maxFrames) +
                       " frames (its waits plus 1 to 8 frames per command), the limit of one "
                       "script (raise it with LAYOUT_MAX_SCRIPT_FRAMES)");
    out.push_back(std::move(cmd));
  }
  return out;
}

} // namespace layout::views
