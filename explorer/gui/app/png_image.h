// PNG encoding for the app (stb_image_write): the window's screenshots, and the images that
// stand for large grids in SVG exports.
//
//   std::string png = explorer::encodePng(rgba.data(), 64, 32, 64 * 4);
//   std::string svg = explorer::sceneToSvg(scene, explorer::svgOptionsWithPng());
#pragma once

#include "explorer/svg_export.h"

#include <cstdint>
#include <string>

namespace explorer {

// RGBA pixels, `strideBytes` apart from row to row (negative: rows bottom first), as PNG bytes;
// empty when stb fails.
std::string encodePng(const uint8_t* rgba, int width, int height, int strideBytes);

// sceneToSvg's options with large grids as PNG images.
SvgOptions svgOptionsWithPng();

} // namespace explorer
