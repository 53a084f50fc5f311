// libFuzzer target: what the layout explorer reads from its user: layout input (encoding text,
// #xegpu attributes, layout JSON, tensor types) and shapes from the input panel, TTGIR files'
// tensor types, state strings' Base64 (--state), and scripts (--script).
// Any input must give a value or an error, never crash, hang or leak; a layout that parses is
// enumerated and drawn (tensor and hardware scenes, SVG) as the app would.
//
//   cmake -B build-fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DLAYOUT_BUILD_FUZZERS=ON
//   ./build-fuzz/tests/fuzz/explorer_input_fuzzer tests/fuzz/corpus -max_total_time=30
#include "explorer/base64_text.h"
#include "explorer/layout_input.h"
#include "explorer/layout_maps.h"
#include "explorer/svg_export.h"
#include "explorer/ui_script.h"
#include "explorer/views.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  (void)explorer::parseScript(text);
  (void)explorer::parseShapeText(text);
  (void)explorer::splitTensorType(text);
  for (const std::string& type : explorer::tensorTypesIn(text))
    if (!explorer::splitTensorType(type)) std::abort(); // listed types are well formed
  if (auto bytes = explorer::base64Decode(text))        // and back to the same bytes
    if (auto again = explorer::base64Decode(explorer::base64Encode(*bytes, true));
        !again || *again != *bytes)
      std::abort();
  // The first line is the shape, the rest the layout (so shapes vary too).
  size_t nl = text.find('\n');
  auto shape = explorer::parseShapeText(nl == std::string::npos ? "16x16" : text.substr(0, nl));
  if (!shape) return 0;
  const std::string layoutText = nl == std::string::npos ? text : text.substr(nl + 1);
  auto in = explorer::parseLayoutInput(layoutText, *shape);
  // An error's location (the explorer's caret) lies inside the text it was read from.
  if (!in && in.error().location) {
    const auto& at = *in.error().location;
    const int lines = 1 + int(std::count(layoutText.begin(), layoutText.end(), '\n'));
    if (at.line < 1 || at.column < 1 || at.line > lines) std::abort();
  }
  // Keep each run fast: draw only what has at most 2^12 inputs and elements.
  if (!in || in->layout.totalInDimSizeLog2() > 12 || in->layout.totalOutDimSizeLog2() > 12)
    return 0;
  auto map = explorer::TensorMap::build(in->layout);
  if (!map) return 0;
  explorer::ViewOptions opt;
  opt.colorBy = explorer::defaultColorBy(*map);
  for (uint64_t c = 0; c < map->numElements() && c < 64; ++c)
    (void)explorer::broadcastSummary(*map, c);
  (void)explorer::sceneToSvg(explorer::tensorScene(*map, opt));
  (void)explorer::hardwareScene(*map, opt);
  (void)explorer::matrixScene(in->layout);
  return 0;
}
