// libFuzzer target: what the layout explorer reads from its user: layout input (encoding text,
// #xegpu attributes, layout JSON, tensor types) and shapes from the input panel, TTGIR files'
// tensor types, state strings' Base64 (--state), scripts (--script), and an XeGPU layout with a
// block shape in the block-load view.
// Any input must give a value or an error, never crash, hang or leak; a layout that parses is
// enumerated and drawn (tensor and hardware scenes, SVG) as the app would.
//
//   cmake -B build-asan -DCMAKE_CXX_COMPILER=clang++-14 -DLAYOUT_SANITIZE=ON -DLAYOUT_BUILD_FUZZERS=ON
//   ./build-asan/tests/fuzz/explorer_input_fuzzer tests/fuzz/corpus -max_total_time=30
#include "layout/views/base64_text.h"
#include "layout/views/layout_input.h"
#include "layout/views/layout_maps.h"
#include "layout/views/svg_export.h"
#include "layout/views/ui_script.h"
#include "layout/views/views.h"
#include "layout/views/xegpu_block_load_view.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  (void)layout::views::parseScript(text);
  (void)layout::views::parseShapeText(text);
  (void)layout::views::splitTensorType(text);
  for (const std::string& type : layout::views::tensorTypesIn(text))
    if (!layout::views::splitTensorType(type)) std::abort(); // listed types are well formed
  if (auto bytes = layout::views::base64Decode(text))        // and back to the same bytes
    if (auto again = layout::views::base64Decode(layout::views::base64Encode(*bytes, true));
        !again || *again != *bytes)
      std::abort();
  // The first line is the shape, the rest the layout (so shapes vary too).
  size_t nl = text.find('\n');
  auto shape =
      layout::views::parseShapeText(nl == std::string::npos ? "16x16" : text.substr(0, nl));
  if (!shape) return 0;
  const std::string layoutText = nl == std::string::npos ? text : text.substr(nl + 1);
  // An XeGPU layout also opens the block-load view; the shape line doubles as the block.
  if (layout::views::isXegpuLayoutText(layoutText)) {
    layout::views::XegpuBlockLoadOptions bl;
    bl.maxCells = 1 << 12; // keep each run fast
    if (auto block = layout::views::parseBlockText(text.substr(0, nl)); block && size % 2)
      bl.block = *block;
    bl.arrayLength = 1 + int(size % 3);
    (void)layout::views::xegpuBlockLoadView(layoutText, *shape, size % 4 ? 16 : 8, int(size % 17),
                                            bl);
  }
  auto in = layout::views::parseLayoutInput(layoutText, *shape);
  // An error's location (the explorer's caret) lies inside the text it was read from.
  if (!in && in.error().location) {
    const auto& at = *in.error().location;
    const int lines = 1 + int(std::count(layoutText.begin(), layoutText.end(), '\n'));
    if (at.line < 1 || at.column < 1 || at.line > lines) std::abort();
  }
  // Keep each run fast: draw only what has at most 2^12 inputs and elements.
  if (!in || in->layout.totalInDimSizeLog2() > 12 || in->layout.totalOutDimSizeLog2() > 12)
    return 0;
  auto map = layout::views::TensorMap::build(in->layout);
  if (!map) return 0;
  layout::views::ViewOptions opt;
  opt.colorBy = layout::views::defaultColorBy(*map);
  for (uint64_t c = 0; c < map->numElements() && c < 64; ++c)
    (void)layout::views::broadcastSummary(*map, c);
  (void)layout::views::sceneToSvg(layout::views::tensorScene(*map, opt));
  (void)layout::views::hardwareScene(*map, opt);
  (void)layout::views::matrixScene(in->layout);
  return 0;
}
