// The explorer's scripted-input mode (`layout-explorer --script FILE`): one command per line,
// fed to the UI as real mouse and key events, so tests drive the same code paths a user does.
//
//   wait 3                    render 3 frames
//   move 400 300              put the mouse at window pixel (400, 300)
//   click 400 300             press and release the left button there
//   click-cell tensor 3 5     click the centre of cell (row 3, col 5) of grid "tensor"
//   hover-cell hw 0 7         move the mouse over a cell
//   scroll 400 300 2          mouse wheel (+ zooms in) at a point
//   drag 400 300 500 350      pan: right-button drag from one point to another
//   key F                     press a key (a letter, digit, Escape, Left, Right, Up, Down,
//                             Plus, Minus, Home)
//   view hw                   switch the view (tensor, hw, matrix, banks, blockload, diff)
//   screenshot out.png        write the window as PNG
//   svg out.svg               write the current view as SVG
//   report out.json           write the UI state (selection, highlighted cells, geometry)
// Blank lines and lines starting with '#' are ignored.
//
// A script is bounded before it runs (docs/limits.md): a `wait` spans at most 1000 frames, a
// script holds at most 4096 commands and spans at most `ScriptLimits::maxFrames` frames in all
// (LAYOUT_MAX_SCRIPT_FRAMES); window coordinates are finite and inside the window, cell rows and
// columns whole numbers, a scroll at most 100 wheel steps. The app also bounds the script's
// running time (LAYOUT_MAX_SCRIPT_SECONDS).
#pragma once

#include "layout/core/expected.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace layout::views {

struct ScriptCommand {
  std::string op;                // as written: "wait", "click", ...
  std::vector<std::string> args; // raw words
  std::vector<float> numbers;    // the numeric arguments, in order
  int line = 0;
};

struct ScriptLimits {
  // Frames of one `wait` (fixed).
  static constexpr int kMaxWaitFrames = 1000;
  // Commands of one script, blank lines and comments not counted (fixed).
  static constexpr uint64_t kMaxCommands = 4096;
  // Steps of one `scroll` (fixed; a mouse wheel notch is 1).
  static constexpr float kMaxScroll = 100;
  // Frames the whole script spans: its waits plus each command's own frames
  // (scriptCommandFrames) (LAYOUT_MAX_SCRIPT_FRAMES).
  uint64_t maxFrames = 4096;
  // The window (`--size`): the coordinates of move, click, scroll and drag lie inside it.
  int windowWidth = 1400, windowHeight = 900;
};

// Parses and checks a script: unknown commands, wrong argument counts, coordinates that are not
// finite or lie outside the window, and a script past a limit of `limits` are errors that name
// the line.
layout::Expected<std::vector<ScriptCommand>> parseScript(std::string_view text,
                                                         const ScriptLimits& limits = {});

// The frames a command spans when played: `wait N` N, click and click-cell 4 (move, press,
// release, settle), drag 8, scroll and key 3, hover-cell 2, anything else 1.
int scriptCommandFrames(const ScriptCommand& command);

} // namespace layout::views
