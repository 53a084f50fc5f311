// Writes a Scene as a standalone SVG document: every cell a <rect> with its label as <text>
// (the full labels, whatever the zoom), grouped as
//   <g class="cell" data-grid="tensor" data-row="3" data-col="5"><rect .../><text>T1:2</text></g>
// so tools and tests can read the cells back. A grid of more than `maxVectorCells` cells is written
// as one image instead (a PNG, one pixel per cell, scaled to the grid), when an encoder is given:
// a 1024x1024 tensor cell by cell is 280 MB of SVG.
//
//   std::ofstream("view.svg") << layout::views::sceneToSvg(scene);
#pragma once

#include "layout/views/scene.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace layout::views {

struct SvgOptions {
  size_t maxVectorCells = 16384;
  // RGBA pixels, rows top first, as a PNG file's bytes; empty: every grid is written cell by cell.
  std::function<std::string(const std::vector<uint8_t>& rgba, int width, int height)> encodePng;
};

std::string sceneToSvg(const Scene& scene, const SvgOptions& options = {});

// `text` as XML character data or an attribute value: &, <, >, " as entities, CR as "&#13;";
// what XML 1.0 cannot hold even as a character reference (ESC, NUL and the other C0 controls
// but tab and newline), DEL, and bytes that are not UTF-8 as visible text "\x1b", C1 controls
// and U+FFFE / U+FFFF as "\u0085": the document is well-formed whatever the dim names.
std::string xmlEscape(const std::string& text);

} // namespace layout::views
