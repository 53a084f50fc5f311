#include "session_state.h"

#include "layout/text/internal/json_text.h"
#include "layout/views/base64_text.h"

#include <nlohmann/json.hpp>

namespace layout::views {

namespace {

// The state's version: a later explorer that changes the fields can still read this one.
constexpr int kStateVersion = 1;

std::string shellQuoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

} // namespace

std::string encodeSessionState(const SessionState& s) {
  const ExplorerInputs& in = s.inputs;
  nlohmann::ordered_json j = {{"version", kStateVersion},      {"layoutA", in.layoutA},
                              {"layoutB", in.layoutB},         {"shape", in.shape},
                              {"view", viewName(in.view)},     {"op", opName(in.op)},
                              {"colorBy", in.colorBy},         {"shared", in.shared},
                              {"instruction", in.instruction}, {"elemBits", in.elemBits},
                              {"workItem", in.workItem},       {"block", in.block},
                              {"arrayLength", in.arrayLength}};
  j["selected"] = s.selected ? nlohmann::json(*s.selected) : nlohmann::json(nullptr);
  return base64Encode(j.dump(), /*urlSafe=*/true);
}

layout::Expected<SessionState> decodeSessionState(std::string_view text) {
  auto bytes = base64Decode(text);
  if (!bytes) return layout::makeError("not a state string: " + bytes.error().message);
  // The library's reader: its nesting depth and value count are bounded (docs/limits.md).
  auto parsed = layout::detail::parseJsonText(*bytes);
  if (!parsed)
    return layout::makeError("not a state string: its text is not the explorer's JSON (" +
                             parsed.error().message + ")");
  const nlohmann::json& j = *parsed;
  if (!j.is_object())
    return layout::makeError("not a state string: its text is not the explorer's JSON");
  if (!j.contains("version") || j["version"] != kStateVersion)
    return layout::makeError("state: version " +
                             (j.contains("version") ? j["version"].dump() : "missing") +
                             ", this explorer reads version " + std::to_string(kStateVersion));
  SessionState s;
  ExplorerInputs& in = s.inputs;
  auto readText = [&](const char* key, std::string& out) -> layout::Expected<void> {
    if (!j.contains(key)) return {};
    if (!j[key].is_string())
      return layout::makeError(std::string("state: ") + key + " must be text");
    out = j[key].get<std::string>();
    return {};
  };
  auto integer = [&](const char* key, int& out, int lo, int hi) -> layout::Expected<void> {
    if (!j.contains(key)) return {};
    if (!j[key].is_number_integer() || j[key].get<int64_t>() < lo || j[key].get<int64_t>() > hi)
      return layout::makeError(std::string("state: ") + key + " must be an integer in [" +
                               std::to_string(lo) + ", " + std::to_string(hi) + "]");
    out = j[key].get<int>();
    return {};
  };
  std::string view = "tensor", op = "none";
  for (auto [key, out] :
       {std::pair{"layoutA", &in.layoutA}, std::pair{"layoutB", &in.layoutB},
        std::pair{"shape", &in.shape}, std::pair{"colorBy", &in.colorBy},
        std::pair{"shared", &in.shared}, std::pair{"instruction", &in.instruction},
        std::pair{"view", &view}, std::pair{"op", &op}, std::pair{"block", &in.block}})
    LAYOUT_TRY(readText(key, *out));
  LAYOUT_TRY(integer("elemBits", in.elemBits, 1, 64));
  LAYOUT_TRY(integer("workItem", in.workItem, 0, 1023));
  LAYOUT_TRY(integer("arrayLength", in.arrayLength, 1, 64));
  LAYOUT_TRY(integer("k", in.k, 1, 1 << 16));
  auto v = viewFromName(view);
  if (!v) return layout::makeError("state: view '" + view + "' is not a view of the explorer");
  in.view = *v;
  auto o = opFromName(op);
  if (!o) return layout::makeError("state: op '" + op + "' is not an operation of the explorer");
  in.op = *o;
  if (j.contains("selected") && !j["selected"].is_null()) {
    if (!j["selected"].is_number_unsigned())
      return layout::makeError("state: selected must be a non-negative integer or null");
    s.selected = j["selected"].get<uint64_t>();
  }
  return s;
}

std::string commandLineOf(const ExplorerInputs& in) {
  const ExplorerInputs defaults;
  std::string cmd = "layout-explorer --layout " + shellQuoted(in.layoutA);
  auto add = [&](const char* option, const std::string& value, const std::string& byDefault) {
    if (value != byDefault) cmd += std::string(" ") + option + " " + shellQuoted(value);
  };
  add("--layout-b", in.layoutB, defaults.layoutB);
  add("--shape", in.shape, defaults.shape);
  add("--input", in.aliasFile, defaults.aliasFile);
  add("--view", viewName(in.view), viewName(defaults.view));
  add("--op", opName(in.op), opName(defaults.op));
  add("--color-by", in.colorBy, defaults.colorBy);
  add("--shared", in.shared, defaults.shared);
  add("--instruction", in.instruction, defaults.instruction);
  add("--element-bits", std::to_string(in.elemBits), std::to_string(defaults.elemBits));
  add("--work-item", std::to_string(in.workItem), std::to_string(defaults.workItem));
  add("--block", in.block, defaults.block);
  add("--array-length", std::to_string(in.arrayLength), std::to_string(defaults.arrayLength));
  add("--k", std::to_string(in.k), std::to_string(defaults.k));
  return cmd;
}

} // namespace layout::views
