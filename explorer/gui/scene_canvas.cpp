#include "scene_canvas.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <string_view>

namespace layout::views {

namespace {

ImU32 col32(Rgba c) {
  return IM_COL32(c.r, c.g, c.b, c.a);
}

// Far enough out for any tensor the views accept (2^22 elements of the widest labels).
constexpr float kMinZoom = 0.0005f, kMaxZoom = 8;
// The starting zoom is searched in [kMinReadableZoom, kMaxStartZoom] (see fit).
constexpr float kMinReadableZoom = 0.75f, kMaxStartZoom = 2.f;
// Advance of the 13 px monospaced label font (DejaVu Sans Mono: 0.6 em).
constexpr float kCharWidth = 7.9f;
// At most this many label glyphs per frame (all grids together): on software OpenGL each glyph is a
// blended quad, and glyphs dominate a frame (~2 us each on this machine's llvmpipe, over a ~9 ms
// base; see docs/benchmarks.md); past the budget labels take their short form, then disappear.
constexpr int64_t kGlyphBudget = 2500;
// Labels are drawn at 13 px at zoom >= 0.8 and scaled below that; under 8 px they are not drawn,
// and the starting zoom asks for at least 11 px (smaller text loses strokes on screen).
constexpr float kLabelPx = 13, kMinLabelPx = 8, kStartLabelPx = 11;

float labelPx(float zoom) {
  return std::min(kLabelPx, kLabelPx * zoom * 1.25f);
}

// A label that does not fit its cell loses the block prefix ("B1:") and the broadcast count
// (" +3"): the thread and register stay, the rest is in the colour and inspector. Other
// two-line labels (the diff view's "A owner / B owner") have no short form: dropping a line
// would hide layout B's owner.
std::string_view shortLabel(std::string_view label) {
  const size_t nl = label.find('\n');
  const bool threadOverRegister =
      nl != std::string_view::npos && label.substr(nl + 1).starts_with('V');
  if (nl != std::string_view::npos && !threadOverRegister) return label;
  std::string_view first = label;
  if (first.size() > 1 && first[0] == 'B' && std::isdigit(static_cast<unsigned char>(first[1])))
    if (size_t colon = first.find(':'); colon != std::string_view::npos)
      first.remove_prefix(colon + 1);
  if (size_t plus = first.find(" +"); plus != std::string_view::npos) first = first.substr(0, plus);
  return first;
}

// Characters of a label's longest line and its number of lines.
struct TextExtent {
  size_t columns = 0;
  int lines = 1;
};
TextExtent extentOf(std::string_view label) {
  TextExtent e;
  size_t line = 0;
  for (char c : label) {
    line = c == '\n' ? 0 : line + 1;
    e.lines += c == '\n';
    e.columns = std::max(e.columns, line);
  }
  return e;
}

// The glyphs a label draws (spaces and line breaks draw none).
int64_t glyphCount(std::string_view label) {
  return int64_t(label.size()) -
         std::count_if(label.begin(), label.end(), [](char c) { return c == ' ' || c == '\n'; });
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
  float zx = size_.x / std::max(1.f, scene.width),
        zy = size_.y / std::max(1.f, scene.height - sceneTop_);
  zoom_ = std::clamp(std::min({zx, zy, 1.5f}), kMinZoom, kMaxZoom);
  pan_ = {0, 0};
  // Unless an overview is asked for, start at the smallest zoom where every grid's labels read
  // (at least 11 px, the longest short label inside its cell) and the first grid's visible
  // labels stay within the glyph budget: a small view opens whole, a large one at its top-left
  // corner, and F shows all of it.
  if (!overview && !scene.grids.empty()) {
    struct GridText {
      const CellGrid* grid;
      size_t longest = 0; // characters of the longest line of a short label
      int lines = 1;
      double glyphsPerCell = 0;
    };
    std::vector<GridText> grids;
    for (const CellGrid& g : scene.grids) {
      GridText t{&g};
      for (const auto& l : g.labels) {
        const std::string_view label = shortLabel(l);
        const TextExtent e = extentOf(label);
        t.glyphsPerCell += double(glyphCount(label));
        t.longest = std::max(t.longest, e.columns);
        t.lines = std::max(t.lines, e.lines);
      }
      if (t.longest == 0) continue;
      t.glyphsPerCell /= double(g.labels.size());
      grids.push_back(t);
    }
    auto labelsShow = [&](float z, bool withinBudget) {
      const float font = labelPx(z);
      if (font < kStartLabelPx) return false;
      for (size_t i = 0; i < grids.size(); ++i) {
        const CellGrid& g = *grids[i].grid;
        const float cw = g.cellW * z, ch = g.cellH * z;
        if (float(grids[i].longest) * kCharWidth * font / kLabelPx > cw - 2 ||
            float(grids[i].lines) * font > ch)
          return false;
        if (i == 0 && withinBudget) {
          double cols = std::min<double>(g.cols, std::ceil(size_.x / cw) + 1);
          double rows = std::min<double>(g.rows, std::ceil(size_.y / ch) + 1);
          if (cols * rows * grids[i].glyphsPerCell > double(kGlyphBudget)) return false;
        }
      }
      return true;
    };
    if (!grids.empty() && !labelsShow(zoom_, true)) {
      // The smallest legible zoom; there, if the first grid's whole CTA tile (else one warp's
      // part of it) fits the canvas, the view opens on it (labels past the frame's glyph budget
      // fill in row by row as it allows); otherwise it zooms in until the visible labels fit the
      // budget.
      float z = std::max(zoom_, kStartLabelPx / (kLabelPx * 1.25f));
      while (z < kMaxStartZoom && !labelsShow(z, false)) z *= 1.05f;
      const CellGrid& first = *grids.front().grid;
      auto fits = [&](int rows, int cols) {
        return rows > 0 && cols > 0 && float(cols) * first.cellW * z <= size_.x &&
               float(rows) * first.cellH * z <= size_.y;
      };
      const bool tileFits =
          fits(first.tileRows, first.tileCols) || fits(first.warpTileRows, first.warpTileCols);
      while (!tileFits && z < kMaxStartZoom && !labelsShow(z, true)) z *= 1.05f;
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
  canvasOrigin_ = ImGui::GetCursorScreenPos();
  const ImVec2 canvasSize = ImGui::GetContentRegionAvail();
  const ImVec4 legend = legendBox(scene);
  legendH_ = legend.w > legend.y ? std::min(legend.w - legend.y + 12, canvasSize.y / 2) : 0;
  sceneTop_ = legend.w > legend.y ? legend.w : 0;
  origin_ = {canvasOrigin_.x, canvasOrigin_.y + legendH_};
  size_ = {canvasSize.x, canvasSize.y - legendH_};
  if (size_.x < 1) size_.x = 1;
  if (size_.y < 1) size_.y = 1;
  if (refit || !fitted_) {
    fit(scene, startOverview_);
    if (startZoom_) zoom_ = std::clamp(*startZoom_, kMinZoom, kMaxZoom);
  }

  ImGui::SetCursorScreenPos(origin_);
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
    pan_.y = at.y - origin_.y - sy * zoom_; // sy is relative to sceneTop_: it cancels
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
    float sy = (io.MousePos.y - origin_.y - pan_.y) / zoom_ + sceneTop_;
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
  const std::vector<LabelPlan> plan = planLabels(scene, clipMin, clipMax);
  for (size_t i = 0; i < scene.grids.size(); ++i)
    drawGrid(dl, scene.grids[i], i, clipMin, clipMax, plan[i]);
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
    dl->AddText(font, std::clamp(size, 9.f, 2 * t.size), toScreen(t.x, t.y), themed(t.color),
                t.text.c_str());
  }
  // The hovered cell: outlined, its label (and the inspector's first line) in a tooltip at the
  // cursor, at any zoom.
  if (hovered_)
    if (const CellGrid* g = scene.grid(hovered_->grid)) {
      const ImVec2 a =
          toScreen(g->x + float(hovered_->col) * g->cellW, g->y + float(hovered_->row) * g->cellH);
      const ImVec2 b{a.x + g->cellW * zoom_, a.y + g->cellH * zoom_};
      dl->AddRect({a.x - 1, a.y - 1}, {b.x + 1, b.y + 1}, themed(palette::kText), 0, 0, 2);
      const size_t i = size_t(g->index(hovered_->row, hovered_->col));
      std::string tip =
          g->id + " (" + std::to_string(hovered_->row) + ", " + std::to_string(hovered_->col) + ")";
      if (i < g->labels.size() && !g->labels[i].empty()) tip += ": " + g->labels[i];
      // Drawn in the canvas's own list rather than as an ImGui tooltip window: one rectangle and
      // a line of text, which software OpenGL blends for less than a window's frame.
      const ImVec2 mouse = ImGui::GetIO().MousePos;
      const ImVec2 size = ImGui::GetFont()->CalcTextSizeA(kLabelPx, FLT_MAX, 0, tip.c_str());
      ImVec2 at{mouse.x + 16, mouse.y + 16};
      at.x = std::min(at.x, origin_.x + size_.x - size.x - 8);
      at.y = std::min(at.y, origin_.y + size_.y - size.y - 8);
      dl->AddRectFilled({at.x - 4, at.y - 2}, {at.x + size.x + 4, at.y + size.y + 2},
                        themed(palette::kBackground));
      dl->AddRect({at.x - 4, at.y - 2}, {at.x + size.x + 4, at.y + size.y + 2},
                  col32(palette::kGridLine));
      dl->AddText(ImGui::GetFont(), kLabelPx, at, themed(palette::kText), tip.c_str());
    }
  dl->PopClipRect();
  drawLegend(dl, scene, legend, canvasSize.x);
  ImGui::EndChild();
}

SceneCanvas::CellRange SceneCanvas::visibleCells(const CellGrid& g, const ImVec2& clipMin,
                                                 const ImVec2& clipMax) const {
  const float cw = g.cellW * zoom_, ch = g.cellH * zoom_;
  ImVec2 o = toScreen(g.x, g.y);
  CellRange r;
  r.c0 = std::max(0, int(std::floor((clipMin.x - o.x) / cw)));
  r.c1 = std::min(g.cols, int(std::ceil((clipMax.x - o.x) / cw)));
  r.r0 = std::max(0, int(std::floor((clipMin.y - o.y) / ch)));
  r.r1 = std::min(g.rows, int(std::ceil((clipMax.y - o.y) / ch)));
  return r;
}

std::vector<SceneCanvas::LabelPlan>
SceneCanvas::planLabels(const Scene& scene, const ImVec2& clipMin, const ImVec2& clipMax) {
  // Per grid, whether its visible labels fit their cells in full or in short form and how many
  // glyphs each form costs; then the frame's glyph budget is shared among the grids, so no grid
  // loses every label to the grids drawn before it (a hardware view's last warp did).
  const float font = labelPx(zoom_);
  std::vector<LabelPlan> plan(scene.grids.size());
  if (font < kMinLabelPx) return plan;
  struct Need {
    size_t grid;
    int64_t full = -1, shortened = -1; // glyphs; -1: does not fit
  };
  std::vector<Need> needs;
  ImFont* imFont = ImGui::GetFont();
  for (size_t index = 0; index < scene.grids.size(); ++index) {
    const CellGrid& g = scene.grids[index];
    const float cw = g.cellW * zoom_, ch = g.cellH * zoom_;
    const CellRange v = visibleCells(g, clipMin, clipMax);
    if (g.labels.empty() || v.empty() || std::min(cw, ch) < 4) continue;
    if (longestLabel_.size() <= index) longestLabel_.resize(index + 1, -1);
    if (longestLabel_[index] < 0) {
      size_t best = 0;
      for (size_t i = 1; i < g.labels.size(); ++i)
        if (extentOf(g.labels[i]).columns > extentOf(g.labels[best]).columns) best = i;
      longestLabel_[index] = int64_t(best);
    }
    const std::string& longest = g.labels[size_t(longestLabel_[index])];
    auto fits = [&](std::string_view label) {
      ImVec2 ts =
          imFont->CalcTextSizeA(font, FLT_MAX, 0, label.data(), label.data() + label.size());
      return ts.x <= cw - 2 && ts.y <= ch;
    };
    // The glyphs the visible labels would draw (spaces draw none).
    auto glyphs = [&](bool shortened) {
      int64_t n = 0;
      for (int r = v.r0; r < v.r1; ++r)
        for (int c = v.c0; c < v.c1; ++c) {
          size_t i = size_t(g.index(r, c));
          if (i >= g.labels.size()) continue;
          std::string_view l = g.labels[i];
          n += glyphCount(shortened ? shortLabel(l) : l);
        }
      return n;
    };
    Need need{index};
    if (fits(longest)) need.full = glyphs(false);
    if (fits(shortLabel(longest))) need.shortened = glyphs(true);
    if (need.full >= 0 || need.shortened >= 0) needs.push_back(need);
  }
  // All in full form if the budget allows, else all short; past that, each grid's share of the
  // budget is in proportion to its need, and it labels its visible cells row by row until the
  // share is spent: every grid on screen keeps labels on its first rows.
  int64_t full = 0, shortened = 0;
  bool allFull = true, allShort = true;
  for (const Need& n : needs) {
    allFull = allFull && n.full >= 0;
    allShort = allShort && n.shortened >= 0;
    full += std::max<int64_t>(n.full, 0);
    shortened += std::max<int64_t>(n.shortened, 0);
  }
  const bool useFull = allFull && full <= kGlyphBudget;
  const bool useShort = !useFull && allShort && shortened <= kGlyphBudget;
  int64_t total = 0;
  for (const Need& n : needs) total += n.shortened >= 0 ? n.shortened : n.full;
  for (const Need& n : needs) {
    LabelPlan& p = plan[n.grid];
    if (useFull || useShort) {
      p.form = useFull ? LabelForm::Full : LabelForm::Short;
      p.glyphs = kGlyphBudget;
      continue;
    }
    p.form = n.shortened >= 0 ? LabelForm::Short : LabelForm::Full;
    const int64_t need = p.form == LabelForm::Short ? n.shortened : n.full;
    p.glyphs = total > 0 ? kGlyphBudget * need / total : 0;
  }
  return plan;
}

int SceneCanvas::labelsDrawn(const std::string& grid) const {
  auto it = labelsDrawn_.find(grid);
  return it == labelsDrawn_.end() ? 0 : it->second;
}

void SceneCanvas::drawGrid(ImDrawList* dl, const CellGrid& g, size_t index, const ImVec2& clipMin,
                           const ImVec2& clipMax, LabelPlan labels) {
  const float cw = g.cellW * zoom_, ch = g.cellH * zoom_;
  ImVec2 o = toScreen(g.x, g.y);
  const CellRange v = visibleCells(g, clipMin, clipMax);
  const int c0 = v.c0, c1 = v.c1, r0 = v.r0, r1 = v.r1;
  int& drawn = labelsDrawn_[g.id];
  drawn = 0;
  if (v.empty()) return;
  ImFont* font = ImGui::GetFont();
  if (std::min(cw, ch) < 4) {
    // Cells of a few pixels: no lines, labels or marks could show; the fill says it all (a
    // selection shows as the selected lane's cells in colour among dimmed ones).
    if (unsigned tex = gridTexture(g, index)) {
      // Opaque texels: drawn without blending, which on software OpenGL would read back every
      // pixel of the picture.
      dl->AddCallback(setBlending, reinterpret_cast<void*>(intptr_t{0}));
      dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex)), o,
                   {o.x + float(g.cols) * cw, o.y + float(g.rows) * ch});
      dl->AddCallback(setBlending, reinterpret_cast<void*>(intptr_t{1}));
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
  // Group boundaries (warps, CTA tiles): a thicker line on the marked cell edges.
  if (!g.edges.empty() && std::min(cw, ch) >= 3) {
    const ImU32 ec = col32(palette::kBoundary);
    const float w = std::clamp(std::min(cw, ch) / 6, 2.f, 4.f);
    for (int r = r0; r < r1; ++r)
      for (int c = c0; c < c1; ++c) {
        const uint8_t e = g.edges[size_t(g.index(r, c))];
        const ImVec2 a{o.x + float(c) * cw, o.y + float(r) * ch};
        if (e & kEdgeRight) dl->AddLine({a.x + cw, a.y}, {a.x + cw, a.y + ch}, ec, w);
        if (e & kEdgeBottom) dl->AddLine({a.x, a.y + ch}, {a.x + cw, a.y + ch}, ec, w);
      }
  }
  // Marks, then labels in the form planLabels chose for the whole grid (mixing forms would read
  // as different owners).
  const LabelForm form = labels.form;
  const float fontSize = form == LabelForm::None ? 0 : labelPx(zoom_);
  int64_t glyphsLeft = labels.glyphs;
  const float thick = std::max(1.5f, std::min(3.f, cw / 8));
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
      if (fontSize > 0 && i < g.labels.size() && !g.labels[i].empty()) {
        std::string_view label = g.labels[i];
        if (form == LabelForm::Short) label = shortLabel(label);
        glyphsLeft -= glyphCount(label);
        if (glyphsLeft < 0) continue; // this grid's share of the budget is spent
        const char* begin = label.data();
        const char* end = begin + label.size();
        ImVec2 ts = font->CalcTextSizeA(fontSize, FLT_MAX, 0, begin, end);
        if (ts.x <= cw - 2 && ts.y <= ch) {
          ImVec2 p{a.x + (cw - ts.x) / 2, a.y + (ch - ts.y) / 2};
          dl->AddText(font, fontSize, p, col32(palette::textOn(g.fill[i])), begin, end);
          ++drawn;
        }
      }
    }
  }
  // Headers where there is room (whatever the label budget: there are only rows + columns).
  const float headerSize = labelPx(zoom_);
  if (headerSize >= kMinLabelPx) {
    ImU32 tc = themed(palette::kText);
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

ImVec4 SceneCanvas::legendBox(const Scene& scene) {
  // (x0, y0, x1, y1) of the legend's items in scene units; empty (x1 < x0) without a legend.
  ImVec4 box(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
  auto grow = [&](float x0, float y0, float x1, float y1) {
    box =
        ImVec4(std::min(box.x, x0), std::min(box.y, y0), std::max(box.z, x1), std::max(box.w, y1));
  };
  for (const auto& r : scene.legendRects) grow(r.x, r.y, r.x + r.w, r.y + r.h);
  for (const auto& t : scene.legendTexts)
    grow(t.x, t.y, t.x + kCharWidth * t.size / kLabelPx * float(t.text.size()), t.y + t.size + 2);
  return box;
}

void SceneCanvas::drawLegend(ImDrawList* dl, const Scene& scene, const ImVec4& box, float width) {
  // The legend strip: the legend at its own size, its top-left corner at the canvas's.
  if (legendH_ <= 0) return;
  dl->PushClipRect(canvasOrigin_, {canvasOrigin_.x + width, canvasOrigin_.y + legendH_}, true);
  auto at = [&](float x, float y) {
    return ImVec2{canvasOrigin_.x + x - box.x + 8, canvasOrigin_.y + y - box.y + 6};
  };
  dl->AddLine({canvasOrigin_.x, canvasOrigin_.y + legendH_ - 1},
              {canvasOrigin_.x + width, canvasOrigin_.y + legendH_ - 1}, col32(palette::kGridLine));
  for (const auto& r : scene.legendRects) {
    if (r.fill.a) dl->AddRectFilled(at(r.x, r.y), at(r.x + r.w, r.y + r.h), col32(r.fill));
    if (r.stroke.a)
      dl->AddRect(at(r.x, r.y), at(r.x + r.w, r.y + r.h), col32(r.stroke), 0, 0, r.strokeWidth);
  }
  ImFont* font = ImGui::GetFont();
  for (const auto& t : scene.legendTexts)
    dl->AddText(font, t.size, at(t.x, t.y), themed(t.color), t.text.c_str());
  dl->PopClipRect();
}

ImU32 SceneCanvas::themed(Rgba c) const {
  if (dark_ && c == palette::kText) return IM_COL32(225, 225, 225, 255);
  if (dark_ && c == palette::kBackground) return IM_COL32(32, 32, 36, 255);
  return col32(c);
}

float SceneCanvas::labelPixels() const {
  return labelPx(zoom_);
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

} // namespace layout::views
