#include "scene_canvas.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

namespace explorer {

namespace {

ImU32 col32(Rgba c) {
  return IM_COL32(c.r, c.g, c.b, c.a);
}

constexpr float kMinZoom = 0.01f, kMaxZoom = 8;
// The starting zoom is searched in [kMinReadableZoom, kMaxStartZoom] (see fit).
constexpr float kMinReadableZoom = 0.75f, kMaxStartZoom = 2.f;
// Advance of the 13 px monospaced label font (DejaVu Sans Mono: 0.6 em).
constexpr float kCharWidth = 7.9f;
// At most this many label glyphs per frame (all grids together): on software OpenGL each glyph is a
// blended quad, and glyphs dominate a frame (~2 us each on this machine's llvmpipe, over a ~9 ms
// base; see docs/benchmarks.md); past the budget labels take their short form, then disappear.
constexpr int64_t kGlyphBudget = 2500;

// A label that does not fit its cell loses the warp/block prefixes ("W1 B0 ") and the
// broadcast count (" +3"): the lane and register stay, the rest is in the colour and inspector.
std::string_view shortLabel(std::string_view label) {
  std::string_view first = label.substr(0, label.find('\n'));
  while (first.size() > 1 && (first[0] == 'W' || first[0] == 'B') &&
         std::isdigit(static_cast<unsigned char>(first[1]))) {
    size_t sp = first.find(' ');
    if (sp == std::string_view::npos) break;
    first.remove_prefix(sp + 1);
  }
  if (size_t plus = first.find(" +"); plus != std::string_view::npos) first = first.substr(0, plus);
  return first;
}

// A draw-list callback (run by the OpenGL backend between its draw calls): blending off for
// opaque fills (data 0) and back on (data 1).
void setBlending(const ImDrawList*, const ImDrawCmd* cmd) {
  if (cmd->UserCallbackData)
    glEnable(GL_BLEND);
  else
    glDisable(GL_BLEND);
}

} // namespace

void SceneCanvas::fit(const Scene& scene, bool overview) {
  float zx = size_.x / std::max(1.f, scene.width), zy = size_.y / std::max(1.f, scene.height);
  zoom_ = std::clamp(std::min({zx, zy, 1.5f}), kMinZoom, kMaxZoom);
  pan_ = {0, 0};
  // Unless an overview is asked for, start at the smallest zoom where the first grid's labels
  // show (legible and within the glyph budget): a large tensor opens at its top-left corner,
  // F shows all of it.
  if (!overview && !scene.grids.empty()) {
    const CellGrid& g = scene.grids.front();
    double glyphsPerCell = 0;
    size_t longest = 0;
    for (const auto& l : g.labels) {
      size_t n = shortLabel(l).size();
      glyphsPerCell += double(n);
      longest = std::max(longest, n);
    }
    glyphsPerCell /= double(std::max<size_t>(1, g.labels.size()));
    auto labelsShow = [&](float z) {
      float cw = g.cellW * z, ch = g.cellH * z;
      float font = std::min(13.f, 13.f * z * 1.25f);
      double cols = std::min<double>(g.cols, std::ceil(size_.x / cw) + 1);
      double rows = std::min<double>(g.rows, std::ceil(size_.y / ch) + 1);
      return font >= 8 && float(longest) * kCharWidth * font / 13.f <= cw - 2 &&
             cols * rows * glyphsPerCell <= double(kGlyphBudget);
    };
    if (!g.labels.empty() && !labelsShow(zoom_)) {
      float z = std::max(zoom_, kMinReadableZoom);
      while (z < kMaxStartZoom && !labelsShow(z)) z *= 1.1f;
      zoom_ = std::min(z, kMaxStartZoom);
    }
  }
  fitted_ = true;
}

SceneCanvas::~SceneCanvas() {
  releaseTextures();
}

void SceneCanvas::releaseTextures() {
  for (unsigned t : textures_)
    if (t) glDeleteTextures(1, &t);
  textures_.clear();
  longestLabel_.clear();
}

unsigned SceneCanvas::gridTexture(const CellGrid& g, size_t index) {
  static GLint maxSize = [] {
    GLint v = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &v);
    return v;
  }();
  if (g.cols > maxSize || g.rows > maxSize || g.fill.size() < size_t(g.rows) * size_t(g.cols))
    return 0;
  if (textures_.size() <= index) textures_.resize(index + 1, 0);
  if (textures_[index]) return textures_[index];
  std::vector<uint8_t> texels(g.fill.size() * 4);
  for (size_t i = 0; i < g.fill.size(); ++i) {
    texels[4 * i] = g.fill[i].r;
    texels[4 * i + 1] = g.fill[i].g;
    texels[4 * i + 2] = g.fill[i].b;
    texels[4 * i + 3] = 255;
  }
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, g.cols, g.rows, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               texels.data());
  textures_[index] = tex;
  return tex;
}

void SceneCanvas::draw(const Scene& scene, bool refit, uint64_t version) {
  if (version != version_) {
    releaseTextures();
    version_ = version;
  }
  hovered_.reset();
  clicked_.reset();
  // The window clears to the scene background, so the canvas draws none of its own: software
  // OpenGL pays for every blended layer of pixels (see docs/benchmarks.md).
  ImGui::BeginChild("canvas", ImVec2(0, 0), true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                        ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBackground);
  origin_ = ImGui::GetCursorScreenPos();
  size_ = ImGui::GetContentRegionAvail();
  if (size_.x < 1) size_.x = 1;
  if (size_.y < 1) size_.y = 1;
  if (refit || !fitted_) {
    fit(scene, startOverview_);
    if (startZoom_) zoom_ = std::clamp(*startZoom_, kMinZoom, kMaxZoom);
  }

  ImGui::InvisibleButton("canvas_area", size_,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                             ImGuiButtonFlags_MouseButtonMiddle);
  const bool hoveredCanvas = ImGui::IsItemHovered();
  ImGuiIO& io = ImGui::GetIO();

  // Pan with right / middle drag, zoom with the wheel around the cursor.
  if (ImGui::IsItemActive() && (ImGui::IsMouseDragging(ImGuiMouseButton_Right) ||
                                ImGui::IsMouseDragging(ImGuiMouseButton_Middle))) {
    pan_.x += io.MouseDelta.x;
    pan_.y += io.MouseDelta.y;
  }
  auto zoomAt = [&](float factor, ImVec2 at) {
    float nz = std::clamp(zoom_ * factor, kMinZoom, kMaxZoom);
    float sx = (at.x - origin_.x - pan_.x) / zoom_, sy = (at.y - origin_.y - pan_.y) / zoom_;
    zoom_ = nz;
    pan_.x = at.x - origin_.x - sx * zoom_;
    pan_.y = at.y - origin_.y - sy * zoom_;
  };
  if (hoveredCanvas && io.MouseWheel != 0) zoomAt(std::pow(1.2f, io.MouseWheel), io.MousePos);
  if (hoveredCanvas) {
    ImVec2 centre{origin_.x + size_.x / 2, origin_.y + size_.y / 2};
    if (ImGui::IsKeyPressed(GLFW_KEY_F)) fit(scene, /*overview=*/true);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) fit(scene, /*overview=*/false);
    if (ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD))
      zoomAt(1.25f, centre);
    if (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT))
      zoomAt(0.8f, centre);
    const float step = 60;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) pan_.x += step;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) pan_.x -= step;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) pan_.y += step;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) pan_.y -= step;
  }

  // Hit test.
  if (hoveredCanvas) {
    float sx = (io.MousePos.x - origin_.x - pan_.x) / zoom_;
    float sy = (io.MousePos.y - origin_.y - pan_.y) / zoom_;
    for (const auto& g : scene.grids) {
      int r, c;
      if (cellAt(g, sx, sy, &r, &c)) {
        hovered_ = CellHit{g.id, r, c};
        break;
      }
    }
    if (hovered_ && ImGui::IsMouseReleased(ImGuiMouseButton_Left) &&
        io.MouseDragMaxDistanceSqr[0] < io.MouseDragThreshold * io.MouseDragThreshold)
      clicked_ = hovered_;
  }

  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 clipMin = origin_, clipMax{origin_.x + size_.x, origin_.y + size_.y};
  dl->PushClipRect(clipMin, clipMax, true);
  glyphsLeft_ = kGlyphBudget;
  for (size_t i = 0; i < scene.grids.size(); ++i) drawGrid(dl, scene.grids[i], i, clipMin, clipMax);
  for (const auto& r : scene.rects) {
    ImVec2 a = toScreen(r.x, r.y), b = toScreen(r.x + r.w, r.y + r.h);
    if (b.x < clipMin.x || b.y < clipMin.y || a.x > clipMax.x || a.y > clipMax.y) continue;
    if (r.fill.a) dl->AddRectFilled(a, b, col32(r.fill));
    if (r.stroke.a) dl->AddRect(a, b, col32(r.stroke), 0, 0, std::max(1.f, r.strokeWidth * zoom_));
  }
  for (const auto& l : scene.lines)
    dl->AddLine(toScreen(l.x0, l.y0), toScreen(l.x1, l.y1), col32(l.color),
                std::max(1.f, l.width * zoom_));
  ImFont* font = ImGui::GetFont();
  for (const auto& t : scene.texts) {
    float size = t.size * zoom_;
    if (size < 5) continue;
    dl->AddText(font, std::clamp(size, 9.f, 2 * t.size), toScreen(t.x, t.y), col32(t.color),
                t.text.c_str());
  }
  dl->PopClipRect();
  ImGui::EndChild();
}

void SceneCanvas::drawGrid(ImDrawList* dl, const CellGrid& g, size_t index, const ImVec2& clipMin,
                           const ImVec2& clipMax) {
  const float cw = g.cellW * zoom_, ch = g.cellH * zoom_;
  ImVec2 o = toScreen(g.x, g.y);
  int c0 = std::max(0, int(std::floor((clipMin.x - o.x) / cw)));
  int c1 = std::min(g.cols, int(std::ceil((clipMax.x - o.x) / cw)));
  int r0 = std::max(0, int(std::floor((clipMin.y - o.y) / ch)));
  int r1 = std::min(g.rows, int(std::ceil((clipMax.y - o.y) / ch)));
  if (c0 >= c1 || r0 >= r1) return;
  ImFont* font = ImGui::GetFont();
  if (std::min(cw, ch) < 4) {
    // Cells of a few pixels: no lines, labels or marks could show; the fill says it all (a
    // selection shows as the selected lane's cells in colour among dimmed ones).
    if (unsigned tex = gridTexture(g, index)) {
      dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex)), o,
                   {o.x + float(g.cols) * cw, o.y + float(g.rows) * ch});
      return;
    }
  }

  // Fills: runs of equal colour in a row become one rectangle (most of a zoomed-out frame).
  // They are opaque, so they are drawn with blending off: on software OpenGL the cell layer
  // is most of a frame's pixels, and blending reads every one of them back.
  dl->AddCallback(setBlending, reinterpret_cast<void*>(intptr_t{0}));
  for (int r = r0; r < r1; ++r) {
    float y = o.y + float(r) * ch;
    int c = c0;
    while (c < c1) {
      size_t i = size_t(g.index(r, c));
      Rgba fill = g.fill[i];
      int e = c + 1;
      while (e < c1 && g.fill[size_t(g.index(r, e))] == fill) ++e;
      dl->AddRectFilled({o.x + float(c) * cw, y}, {o.x + float(e) * cw, y + ch}, col32(fill));
      c = e;
    }
  }
  dl->AddCallback(setBlending, reinterpret_cast<void*>(intptr_t{1}));
  const bool lines = cw >= 5 && ch >= 5;
  if (lines) {
    ImU32 lc = col32(palette::kGridLine);
    for (int c = c0; c <= c1; ++c)
      dl->AddLine({o.x + float(c) * cw, o.y + float(r0) * ch},
                  {o.x + float(c) * cw, o.y + float(r1) * ch}, lc);
    for (int r = r0; r <= r1; ++r)
      dl->AddLine({o.x + float(c0) * cw, o.y + float(r) * ch},
                  {o.x + float(c1) * cw, o.y + float(r) * ch}, lc);
  }
  // Marks, then labels where they fit. One label form for the whole grid (mixing forms would
  // read as different owners): full, else short (no warp/block prefix, no "+n") when the full
  // form does not fit the cell or the glyph budget, else none.
  float fontSize = std::min(13.f, 13.f * zoom_ * 1.25f);
  const float thick = std::max(1.5f, std::min(3.f, cw / 8));
  bool shortForm = false;
  if (fontSize >= 8 && !g.labels.empty()) {
    if (longestLabel_.size() <= index) longestLabel_.resize(index + 1, -1);
    if (longestLabel_[index] < 0) {
      size_t best = 0;
      for (size_t i = 1; i < g.labels.size(); ++i)
        if (g.labels[i].size() > g.labels[best].size()) best = i;
      longestLabel_[index] = int64_t(best);
    }
    const std::string& longest = g.labels[size_t(longestLabel_[index])];
    // The glyphs the visible labels would draw (spaces draw none).
    auto glyphs = [&](bool shortened) {
      int64_t n = 0;
      for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c) {
          size_t i = size_t(g.index(r, c));
          if (i >= g.labels.size()) continue;
          std::string_view l = g.labels[i];
          if (shortened) l = shortLabel(l);
          n += int64_t(l.size()) - std::count(l.begin(), l.end(), ' ');
        }
      return n;
    };
    auto fits = [&](std::string_view label) {
      ImVec2 ts =
          font->CalcTextSizeA(fontSize, FLT_MAX, 0, label.data(), label.data() + label.size());
      return ts.x <= cw - 2 && ts.y <= ch;
    };
    int64_t used = 0;
    if (fits(longest) && (used = glyphs(false)) <= glyphsLeft_) {
      shortForm = false;
    } else if (fits(shortLabel(longest)) && (used = glyphs(true)) <= glyphsLeft_) {
      shortForm = true;
    } else {
      fontSize = 0;
      used = 0;
    }
    glyphsLeft_ -= used;
  }
  for (int r = r0; r < r1; ++r) {
    for (int c = c0; c < c1; ++c) {
      size_t i = size_t(g.index(r, c));
      uint8_t m = i < g.marks.size() ? g.marks[i] : 0;
      ImVec2 a{o.x + float(c) * cw, o.y + float(r) * ch}, b{a.x + cw, a.y + ch};
      if (m & kMarkUnowned && lines)
        dl->AddLine({a.x, b.y}, {b.x, a.y}, IM_COL32(150, 150, 150, 255));
      if (m & kMarkBroadcast) {
        float t = std::min(cw, ch) * 0.35f;
        dl->AddTriangleFilled({b.x - t, a.y}, {b.x, a.y}, {b.x, a.y + t},
                              IM_COL32(30, 30, 30, 255));
      }
      if (m & kMarkOutline) dl->AddRect(a, b, col32(palette::kOutline), 0, 0, thick);
      if (m & kMarkConflict) dl->AddRect(a, b, col32(palette::kConflict), 0, 0, thick);
      if (m & kMarkHighlight) dl->AddRect(a, b, col32(palette::kHighlight), 0, 0, thick);
      if (fontSize >= 8 && i < g.labels.size() && !g.labels[i].empty()) {
        std::string_view label = g.labels[i];
        if (shortForm) label = shortLabel(label);
        const char* begin = label.data();
        const char* end = begin + label.size();
        ImVec2 ts = font->CalcTextSizeA(fontSize, FLT_MAX, 0, begin, end);
        if (ts.x <= cw - 2 && ts.y <= ch) {
          ImVec2 p{a.x + (cw - ts.x) / 2, a.y + (ch - ts.y) / 2};
          dl->AddText(font, fontSize, p, col32(palette::textOn(g.fill[i])), begin, end);
        }
      }
    }
  }
  // Headers where there is room (whatever the label budget: there are only rows + columns).
  const float headerSize = std::min(13.f, 13.f * zoom_ * 1.25f);
  if (headerSize >= 8) {
    ImU32 tc = col32(palette::kText);
    for (int r = r0; r < r1 && r < int(g.rowHeaders.size()); ++r) {
      if (ch < headerSize) break;
      const std::string& h = g.rowHeaders[r];
      ImVec2 ts = font->CalcTextSizeA(headerSize, FLT_MAX, 0, h.c_str());
      dl->AddText(font, headerSize, {o.x - ts.x - 4, o.y + float(r) * ch + (ch - ts.y) / 2}, tc,
                  h.c_str());
    }
    for (int c = c0; c < c1 && c < int(g.colHeaders.size()); ++c) {
      const std::string& h = g.colHeaders[c];
      ImVec2 ts = font->CalcTextSizeA(headerSize, FLT_MAX, 0, h.c_str());
      if (ts.x > cw) continue;
      dl->AddText(font, headerSize, {o.x + float(c) * cw + (cw - ts.x) / 2, o.y - ts.y - 2}, tc,
                  h.c_str());
    }
  }
}

std::optional<ImVec2> SceneCanvas::cellCentre(const Scene& scene, const std::string& grid, int row,
                                              int col) const {
  const CellGrid* g = scene.grid(grid);
  if (!g || row < 0 || col < 0 || row >= g->rows || col >= g->cols) return std::nullopt;
  return toScreen(g->x + (float(col) + 0.5f) * g->cellW, g->y + (float(row) + 0.5f) * g->cellH);
}

std::optional<ImVec4> SceneCanvas::gridRect(const Scene& scene, const std::string& grid) const {
  const CellGrid* g = scene.grid(grid);
  if (!g) return std::nullopt;
  ImVec2 a = toScreen(g->x, g->y), b = toScreen(g->x + g->width(), g->y + g->height());
  return ImVec4(a.x, a.y, b.x, b.y);
}

bool SceneCanvas::ensureVisible(const Scene& scene, const std::string& grid, int row, int col) {
  const CellGrid* g = scene.grid(grid);
  if (!g || row < 0 || col < 0 || row >= g->rows || col >= g->cols) return false;
  ImVec2 a = toScreen(g->x + float(col) * g->cellW, g->y + float(row) * g->cellH);
  ImVec2 b{a.x + g->cellW * zoom_, a.y + g->cellH * zoom_};
  const float margin = 8;
  if (a.x < origin_.x) pan_.x += origin_.x + margin - a.x;
  if (b.x > origin_.x + size_.x) pan_.x -= b.x - (origin_.x + size_.x) + margin;
  if (a.y < origin_.y) pan_.y += origin_.y + margin - a.y;
  if (b.y > origin_.y + size_.y) pan_.y -= b.y - (origin_.y + size_.y) + margin;
  return true;
}

std::optional<ImVec4> SceneCanvas::visibleGridRect(const Scene& scene,
                                                   const std::string& grid) const {
  auto r = gridRect(scene, grid);
  if (!r) return std::nullopt;
  ImVec2 a{r->x, r->y}, b{r->z, r->w};
  a.x = std::max(a.x, origin_.x);
  a.y = std::max(a.y, origin_.y);
  b.x = std::min(b.x, origin_.x + size_.x);
  b.y = std::min(b.y, origin_.y + size_.y);
  return ImVec4(a.x, a.y, b.x, b.y);
}

} // namespace explorer
