#include "png_image.h"

#include <stb/stb_image_write.h>

namespace layout::views {

std::string encodePng(const uint8_t* rgba, int width, int height, int strideBytes) {
  // Encoded in memory: stbi_write_png reports no failed writes, the caller's writer does.
  std::string png;
  auto append = [](void* out, void* data, int size) {
    static_cast<std::string*>(out)->append(static_cast<const char*>(data), size_t(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 4, rgba, strideBytes)) return {};
  return png;
}

SvgOptions svgOptionsWithPng() {
  SvgOptions options;
  options.encodePng = [](const std::vector<uint8_t>& rgba, int width, int height) {
    return encodePng(rgba.data(), width, height, width * 4);
  };
  return options;
}

} // namespace layout::views
