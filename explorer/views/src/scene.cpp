#include "layout/views/scene.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace layout::views {

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
  for (const auto* list : {&rects, &legendRects})
    for (const auto& r : *list) grow(r.x + r.w, r.y + r.h);
  for (const auto& l : lines) grow(std::max(l.x0, l.x1), std::max(l.y0, l.y1));
  // Text width is estimated at 0.6 em per character (the fonts are monospaced or close to it).
  for (const auto* list : {&texts, &legendTexts})
    for (const auto& t : *list) grow(t.x + 0.6f * t.size * float(t.text.size()), t.y + t.size);
}

bool cellAt(const CellGrid& g, float x, float y, int* row, int* col) {
  if (x < g.x || y < g.y || x >= g.x + g.width() || y >= g.y + g.height()) return false;
  *col = std::min(g.cols - 1, int((x - g.x) / g.cellW));
  *row = std::min(g.rows - 1, int((y - g.y) / g.cellH));
  return true;
}

std::vector<std::string> indexHeaders(int n, std::string_view prefix) {
  std::vector<std::string> h(size_t(std::max(n, 0)));
  for (size_t i = 0; i < h.size(); ++i) h[i] = std::string(prefix) + std::to_string(i);
  return h;
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

// CIELAB (D65) of an sRGB colour: palette distances are measured where they match what eyes see.
std::array<float, 3> toLab(Rgba c) {
  auto linear = [](uint8_t v) {
    float x = float(v) / 255.f;
    return x <= 0.04045f ? x / 12.92f : std::pow((x + 0.055f) / 1.055f, 2.4f);
  };
  const float r = linear(c.r), g = linear(c.g), b = linear(c.b);
  const float x = (0.4124f * r + 0.3576f * g + 0.1805f * b) / 0.95047f;
  const float y = 0.2126f * r + 0.7152f * g + 0.0722f * b;
  const float z = (0.0193f * r + 0.1192f * g + 0.9505f * b) / 1.08883f;
  auto f = [](float t) { return t > 0.008856f ? std::cbrt(t) : 7.787f * t + 16.f / 116.f; };
  return {116.f * f(y) - 16.f, 500.f * (f(x) - f(y)), 200.f * (f(y) - f(z))};
}

// The categorical colours in order: each the candidate farthest (in CIELAB) from all before it,
// over light and mid tones on which dark label text reads. The order does not depend on how many
// colours a view needs, so lane 5 keeps its colour from view to view, and the first n colours are
// as far apart as this greedy choice gets them (hue-stepping put lanes n and n + 21 7.5 degrees
// apart at the same lightness).
const std::vector<Rgba>& categoricalSequence() {
  static const std::vector<Rgba> sequence = [] {
    constexpr size_t kColours = 256;
    std::vector<Rgba> candidates;
    for (int h = 0; h < 360; h += 5)
      for (float sat : {0.45f, 0.65f, 0.85f})
        for (float light : {0.55f, 0.67f, 0.79f}) {
          const Rgba c = fromHsl(float(h), sat, light);
          if (textOn(c) == kText) candidates.push_back(c); // dark label text must read on it
        }
    std::vector<std::array<float, 3>> lab;
    for (Rgba c : candidates) lab.push_back(toLab(c));
    std::vector<float> nearest(candidates.size(), std::numeric_limits<float>::max());
    std::vector<Rgba> chosen;
    size_t next = 0;
    for (size_t i = 0; i < candidates.size(); ++i) // start from the old single colour's hue
      if (candidates[i] == fromHsl(210, 0.65f, 0.67f)) next = i;
    while (chosen.size() < kColours) {
      chosen.push_back(candidates[next]);
      size_t best = 0;
      for (size_t i = 0; i < candidates.size(); ++i) {
        const float dl = lab[i][0] - lab[next][0], da = lab[i][1] - lab[next][1],
                    db = lab[i][2] - lab[next][2];
        nearest[i] = std::min(nearest[i], dl * dl + da * da + db * db);
        if (nearest[i] > nearest[best]) best = i;
      }
      next = best;
    }
    return chosen;
  }();
  return sequence;
}

Rgba categorical(int id, int count) {
  if (count <= 1) return fromHsl(210, 0.55f, 0.72f);
  const auto& sequence = categoricalSequence();
  if (id >= 0 && size_t(id) < sequence.size()) return sequence[size_t(id)];
  // Past 256 values (a register or offset colouring): hues by the golden angle.
  return fromHsl(std::fmod(float(id) * 137.508f, 360.f), 0.6f, 0.7f);
}

Rgba heat(int value, int max) {
  if (max <= 1 || value <= 1) return value <= 0 ? Rgba{255, 255, 255} : Rgba{210, 240, 210};
  float t = float(value - 1) / float(max - 1);
  return fromHsl(40.f * (1 - t), 0.85f, 0.85f - 0.35f * t);
}

Rgba textOn(Rgba bg) {
  float luma = 0.299f * bg.r + 0.587f * bg.g + 0.114f * bg.b;
  return luma > 140 ? kText : Rgba{255, 255, 255};
}

} // namespace palette
} // namespace layout::views
