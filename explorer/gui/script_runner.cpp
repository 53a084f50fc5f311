#include "script_runner.h"

#include "layout/text/file_io.h"
#include "layout/views/svg_export.h"
#include "png_image.h"

#include <nlohmann/json.hpp>

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>

namespace layout::views {

namespace {

// GLFW key codes by script name; letters and digits are their own codes.
int keyCode(const std::string& name) {
  static const std::map<std::string, int> named = {
      {"Escape", GLFW_KEY_ESCAPE}, {"Left", GLFW_KEY_LEFT}, {"Right", GLFW_KEY_RIGHT},
      {"Up", GLFW_KEY_UP},         {"Down", GLFW_KEY_DOWN}, {"Plus", GLFW_KEY_EQUAL},
      {"Minus", GLFW_KEY_MINUS},   {"Home", GLFW_KEY_HOME}, {"Enter", GLFW_KEY_ENTER},
  };
  if (auto it = named.find(name); it != named.end()) return it->second;
  if (name.size() == 1 && std::isalnum(static_cast<unsigned char>(name[0])))
    return std::toupper(static_cast<unsigned char>(name[0]));
  return -1;
}

} // namespace

void ScriptRunner::inject(ImGuiIO& io, ExplorerApp& app) {
  // Commands start once the canvas has been drawn: before that its zoom and origin are not the
  // screen's, and a cell's position computed from them is wrong (the first click of a script
  // used to land elsewhere).
  started_ = started_ || app.canvas().drawn();
  if (started_ && next_ < commands_.size()) {
    const ScriptCommand& c = commands_[next_];
    const auto& n = c.numbers;
    if (c.op == "move") {
      mouse_ = {n[0], n[1]};
    } else if (c.op == "click" || c.op == "click-cell" || c.op == "hover-cell") {
      if (phase_ == 0) {
        ImVec2 at{0, 0};
        if (c.op == "click") {
          at = {n[0], n[1]};
        } else {
          app.canvas().ensureVisible(app.scene(), c.args[0], int(n[0]), int(n[1]));
          auto p = app.canvas().cellCentre(app.scene(), c.args[0], int(n[0]), int(n[1]));
          if (!p) {
            error_ = "line " + std::to_string(c.line) + ": no cell (" + c.args[1] + ", " +
                     c.args[2] + ") in grid '" + c.args[0] + "' of the current view";
            return;
          }
          // A pointer lands on whole pixels: a cell under two pixels wide or high cannot be
          // aimed at (it would hit a neighbour), so the script must zoom in first.
          const CellGrid* g = app.scene().grid(c.args[0]);
          const float w = g->cellW * app.canvas().zoom(), h = g->cellH * app.canvas().zoom();
          if (std::min(w, h) < 2) {
            char size[64];
            std::snprintf(size, sizeof size, "%.2g x %.2g", double(w), double(h));
            error_ = "line " + std::to_string(c.line) + ": cell (" + c.args[1] + ", " + c.args[2] +
                     ") of grid '" + c.args[0] + "' is " + size +
                     " px at this zoom, too small to aim at: zoom in first (key Plus)";
            return;
          }
          at = *p;
        }
        mouse_ = at;
      }
      // Frame 0: move there; 1: press; 2: release (a click is a release without a drag).
      if (c.op != "hover-cell") left_ = phase_ == 1;
    } else if (c.op == "scroll") {
      mouse_ = {n[0], n[1]};
      wheel_ = phase_ == 1 ? n[2] : 0;
    } else if (c.op == "drag") {
      // 0: at start, 1: press, 2..5: move in steps, 6: release.
      if (phase_ <= 1) mouse_ = {n[0], n[1]};
      if (phase_ >= 2 && phase_ <= 5) {
        float t = float(phase_ - 1) / 4.f;
        mouse_ = {n[0] + (n[2] - n[0]) * t, n[1] + (n[3] - n[1]) * t};
      }
      right_ = phase_ >= 1 && phase_ <= 5;
    } else if (c.op == "key") {
      int code = keyCode(c.args[0]);
      if (code < 0) {
        error_ = "line " + std::to_string(c.line) + ": unknown key '" + c.args[0] + "'";
        return;
      }
      keyDown_ = phase_ == 1 ? code : -1;
    }
  }
  io.MousePos = mouse_;
  io.MouseDown[0] = left_;
  io.MouseDown[1] = right_;
  io.MouseDown[2] = false;
  io.MouseWheel = wheel_;
  for (int k : {GLFW_KEY_ESCAPE, GLFW_KEY_LEFT, GLFW_KEY_RIGHT, GLFW_KEY_UP, GLFW_KEY_DOWN,
                GLFW_KEY_EQUAL, GLFW_KEY_MINUS, GLFW_KEY_HOME, GLFW_KEY_ENTER})
    io.KeysDown[k] = false;
  for (int k = '0'; k <= 'Z'; ++k) io.KeysDown[k] = false;
  if (keyDown_ >= 0) io.KeysDown[keyDown_] = true;
}

ScriptRunner::Step
ScriptRunner::afterFrame(ExplorerApp& app,
                         const std::function<bool(const std::string&)>& writePng) {
  if (!error_.empty()) return {true, error_};
  if (next_ >= commands_.size()) return {true, ""};
  if (!started_) return {false, ""};
  const ScriptCommand& c = commands_[next_];
  // A scripted click or hover must reach the cell it names; anything else fails the script.
  const bool checkHit =
      (c.op == "click-cell" && phase_ == 2) || (c.op == "hover-cell" && phase_ == 1);
  if (checkHit) {
    const auto& hit = c.op == "click-cell" ? app.canvas().clicked() : app.canvas().hovered();
    const int row = int(c.numbers[0]), col = int(c.numbers[1]);
    if (!hit || hit->grid != c.args[0] || hit->row != row || hit->col != col) {
      std::string got = hit ? "cell (" + std::to_string(hit->row) + ", " +
                                  std::to_string(hit->col) + ") of grid '" + hit->grid + "'"
                            : "no cell";
      return {true, "line " + std::to_string(c.line) + ": " + c.op + " (" + c.args[1] + ", " +
                        c.args[2] + ") of grid '" + c.args[0] + "' reached " + got};
    }
  }
  const int frames = scriptCommandFrames(c); // what parseScript counted against the limit
  if (phase_ == 0) {
    auto where = [&] { return "line " + std::to_string(c.line) + ": "; };
    if (c.op == "view") {
      auto v = viewFromName(c.args[0]);
      if (!v) return {true, where() + "unknown view '" + c.args[0] + "'"};
      app.setView(*v);
    } else if (c.op == "screenshot") {
      if (!writePng(c.args[0])) return {true, where() + "cannot write " + c.args[0]};
    } else if (c.op == "svg") {
      if (auto e = layout::writeOutputFile(c.args[0], sceneToSvg(app.scene(), svgOptionsWithPng()),
                                           "svg");
          !e)
        return {true, where() + e.error().message};
    } else if (c.op == "report") {
      if (auto e = layout::writeOutputFile(c.args[0], app.report().dump(2) + "\n", "report"); !e)
        return {true, where() + e.error().message};
    }
  }
  if (++phase_ >= frames) {
    phase_ = 0;
    ++next_;
    wheel_ = 0;
    keyDown_ = -1;
  }
  return {next_ >= commands_.size(), ""};
}

} // namespace layout::views
