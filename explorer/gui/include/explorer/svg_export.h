// Writes a Scene as a standalone SVG document: every cell a <rect> with its label as <text>
// (the full labels, whatever the zoom), grouped as
//   <g class="cell" data-grid="tensor" data-row="3" data-col="5"><rect .../><text>T1:2</text></g>
// so tools and tests can read the cells back.
//
//   std::ofstream("view.svg") << explorer::sceneToSvg(scene);
#pragma once

#include "explorer/scene.h"

#include <string>

namespace explorer {

std::string sceneToSvg(const Scene& scene);

// `text` with &, <, >, " escaped for XML.
std::string xmlEscape(const std::string& text);

} // namespace explorer
