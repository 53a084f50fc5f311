#include "explorer/scene.h"

#include <algorithm>
#include <cmath>

namespace explorer {

const CellGrid* Scene::grid(const std::string& id) const {
  for (const auto& g : grids)
    if (g.id == id) return &g;
  return nullptr;
}

void Scene::fitBounds(float margin) {
  auto grow = [&](float x, float y) {
    width = std::max(width, x + margin);
    height = std::max(height, y + margin);
  };
  for (const auto& g : grids) grow(g.x + g.width(), g.y + g.height());
  for (const auto& r : rects) grow(r.x + r.w, r.y + r.h);
  for (const auto& l : lines) grow(std::max(l.x0, l.x1), std::max(l.y0, l.y1));
  // Text width is estimated at 0.6 em per character (the fonts are monospaced or close to it).
  for (const auto& t : texts) grow(t.x + 0.6f * t.size * float(t.text.size()), t.y + t.size);
}

bool cellAt(const CellGrid& g, float x, float y, int* row, int* col) {
  if (x < g.x || y < g.y || x >= g.x + g.width() || y >= g.y + g.height()) return false;
  *col = std::min(g.cols - 1, int((x - g.x) / g.cellW));
  *row = std::min(g.rows - 1, int((y - g.y) / g.cellH));
  return true;
}

namespace palette {

namespace {
Rgba fromHsl(float h, float s, float l) {
  auto f = [&](float n) {
    float k = std::fmod(n + h / 30.f, 12.f);
    float a = s * std::min(l, 1 - l);
    return l - a * std::max(-1.f, std::min({k - 3, 9 - k, 1.f}));
  };
  auto c = [](float v) { return uint8_t(std::lround(std::clamp(v, 0.f, 1.f) * 255)); };
  return {c(f(0)), c(f(8)), c(f(4)), 255};
}
} // namespace

Rgba categorical(int id, int count) {
  if (count <= 1) return fromHsl(210, 0.55f, 0.72f);
  // Hues spread by the golden angle so neighbours differ strongly; three lightness levels
  // (light enough for dark text) keep colours apart once there are more than ~12 hues.
  float hue = std::fmod(float(id) * 137.508f, 360.f);
  static constexpr float kLightness[3] = {0.72f, 0.60f, 0.82f};
  static constexpr float kSaturation[3] = {0.70f, 0.55f, 0.80f};
  int level = count > 12 ? id % 3 : 0;
  return fromHsl(hue, kSaturation[level], kLightness[level]);
}

Rgba heat(int value, int max) {
  if (max <= 1 || value <= 1) return value <= 0 ? Rgba{255, 255, 255} : Rgba{210, 240, 210};
  float t = float(value - 1) / float(max - 1);
  return fromHsl(40.f * (1 - t), 0.85f, 0.85f - 0.35f * t);
}

Rgba textOn(Rgba bg) {
  float luma = 0.299f * bg.r + 0.587f * bg.g + 0.114f * bg.b;
  return luma > 140 ? Rgba{20, 20, 20} : Rgba{255, 255, 255};
}

} // namespace palette
} // namespace explorer
