// The explorer's session as text, to share or come back to: a state string (base64url of the
// inputs and the selection as JSON; --state and the Export panel read it back) and the
// layout-explorer command line that opens the same view.
//
//   SessionState s{inputs, selectedThread};
//   std::string text = encodeSessionState(s);         // "eyJsYXlvdXRBIjoi..."
//   auto back = decodeSessionState(text);             // the same inputs and selection
//   std::string cmd = commandLineOf(inputs);          // "layout-explorer --layout '...' ..."
#pragma once

#include "explorer_app.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace layout::views {

struct SessionState {
  ExplorerInputs inputs;
  std::optional<uint64_t> selected; // the selected thread (a packed layout input)
};

std::string encodeSessionState(const SessionState& state);
// Errors say what is wrong: not base64, not the explorer's JSON, a field of the wrong kind.
layout::Expected<SessionState> decodeSessionState(std::string_view text);

// Options that differ from the defaults, each value quoted for a POSIX shell.
std::string commandLineOf(const ExplorerInputs& inputs);

} // namespace layout::views
