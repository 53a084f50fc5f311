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
#pragma once

#include "layout/core/expected.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace explorer {

struct ScriptCommand {
  std::string op;                // as written: "wait", "click", ...
  std::vector<std::string> args; // raw words
  std::vector<float> numbers;    // the numeric arguments, in order
  int line = 0;
};

// Parses and checks a script: unknown commands and wrong argument counts are errors that
// name the line.
layout::Expected<std::vector<ScriptCommand>> parseScript(std::string_view text);

} // namespace explorer
