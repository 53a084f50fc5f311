// Plays a parsed script (explorer/ui_script.h) into the UI: before each frame `inject` sets
// ImGui's mouse and keyboard state (after the GLFW backend wrote the real one), so clicks go
// through the same widgets and hit tests as a user's; after each frame `afterFrame` advances
// and performs the file outputs.
#pragma once

#include "explorer_app.h"
#include "layout/views/ui_script.h"

#include <imgui.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace layout::views {

class ScriptRunner {
public:
  explicit ScriptRunner(std::vector<ScriptCommand> commands) : commands_(std::move(commands)) {}

  void inject(ImGuiIO& io, ExplorerApp& app);

  struct Step {
    bool done = false;
    std::string error;
  };
  Step afterFrame(ExplorerApp& app, const std::function<bool(const std::string&)>& writePng);
  // The script line of the command being played (the last one once done; 0 before the first).
  int currentLine() const {
    if (commands_.empty()) return 0;
    return commands_[std::min(next_, commands_.size() - 1)].line;
  }

private:
  // Each command runs as a short sequence of frames; `phase_` counts them.
  std::vector<ScriptCommand> commands_;
  size_t next_ = 0;
  bool started_ = false; // the canvas has been drawn once
  int phase_ = 0;
  ImVec2 mouse_{-1, -1};
  bool left_ = false, right_ = false;
  float wheel_ = 0;
  int keyDown_ = -1;
  std::string error_;
};

} // namespace layout::views
