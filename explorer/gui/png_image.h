// PNG encoding for the app (stb_image_write): the window's screenshots, and the images that
// stand for large grids in SVG exports.
//
//   std::string png = layout::views::encodePng(rgba.data(), 64, 32, 64 * 4);
//   std::string svg = layout::views::sceneToSvg(scene, layout::views::svgOptionsWithPng());
#pragma once

#include "layout/views/svg_export.h"

#include <cstdint>
#include <string>

namespace layout::views {

// RGBA pixels, `strideBytes` apart from row to row (negative: rows bottom first), as PNG bytes;
// empty when stb fails.
std::string encodePng(const uint8_t* rgba, int width, int height, int strideBytes);

// sceneToSvg's options with large grids as PNG images.
SvgOptions svgOptionsWithPng();

} // namespace layout::views
