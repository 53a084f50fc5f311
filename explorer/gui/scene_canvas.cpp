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
// The starting zoom is searched from the smallest legible one up to kMaxStartZoom (see fit).
constexpr float kMaxStartZoom = 2.f;
// Advance of the 13 px monospaced label font (DejaVu Sans Mono: 0.6 em).
constexpr float kCharWidth = 7.9f;
// At most this many label glyphs per frame (all grids together): on software OpenGL each glyph is a
// blended quad, and glyphs dominate a frame (about 2 us each on this machine's llvmpipe; see
// docs/benchmarks.md); past the budget labels take their short form, then the grids past it are
// left unlabelled (whole, never from some row on) with a hint to zoom in. A view opens at a zoom
// whose labels take at most kStartGlyphs: what the benchmark's 256x256 tensor opened with when
// the budget was 2,500 (partial labels), so first frames stay as fast as they were.
constexpr int64_t kGlyphBudget = 4000, kStartGlyphs = 1300;
// Labels are drawn at 13 px at zoom >= 0.8 and scaled below that; under 8 px they are not drawn,
// and the starting zoom asks for at least 11 px (smaller text loses strokes on screen).
constexpr float kLabelPx = 13, kMinLabelPx = 8, kStartLabelPx = 11;
// Titles and notes are drawn at least this large whatever the zoom (and at most twice their size).
constexpr float kMinTextPx = 11;
// Room left of a grid for its row headers and above it for its column headers, in scene units
// (the views' header sizes).
constexpr float kRowHeaderRoom = 44, kColHeaderRoom = 18;

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

// The tooltip after the cell's name: a convert grid's trace from its details ("src T7:2 -> dst
// T17:6, shuffle round 3"), else the cell's label.
std::string hoverText(const CellGrid& g, size_t i) {
  if (g.id.rfind("convert.", 0) == 0 && i < g.details.size() && !g.details[i].empty())
    return ": " + g.details[i];
  // The block-load operand: which load, work-item, register and GRF byte (its details, on one
  // line).
  if (g.id == "operand" && i < g.details.size() && !g.details[i].empty()) {
    std::string d = g.details[i];
    std::replace(d.begin(), d.end(), '\n', ' ');
    return ": " + d;
  }
  return i < g.labels.size() && !g.labels[i].empty() ? ": " + g.labels[i] : "";
}

} // namespace

ImVec4 SceneCanvas::gridFrame(const Scene& scene) {
  // The grids, the room for their headers (drawn left of and above the grid), and the anchors of
  // the texts (titles and notes start there; their width is left out: at a small zoom they are
  // drawn larger than the scene says, and a long note must not shrink the grids).
  ImVec4 box(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
  auto grow = [&](float x0, float y0, float x1, float y1) {
    box =
        ImVec4(std::min(box.x, x0), std::min(box.y, y0), std::max(box.z, x1), std::max(box.w, y1));
  };
  for (const CellGrid& g : scene.grids)
    grow(g.x - (g.rowHeaders.empty() ? 0 : kRowHeaderRoom),
         g.y - (g.colHeaders.empty() ? 0 : kColHeaderRoom), g.x + g.width(), g.y + g.height());
  for (const SceneRect& r : scene.rects) grow(r.x, r.y, r.x + r.w, r.y + r.h);
  for (const SceneText& t : scene.texts) grow(t.x, t.y, t.x, t.y + t.size);
  if (box.z < box.x) box = ImVec4(0, 0, std::max(1.f, scene.width), std::max(1.f, scene.height));
  return box;
}

void SceneCanvas::fit(const Scene& scene, Fit mode) {
  // Every placement puts the frame's top-left corner a margin in from the canvas's.
  const ImVec4 frame = gridFrame(scene);
  // Above it, zoomed out, room for two lines of text drawn larger than the zoom says (a title
  // and the note stacked on it, see drawTexts).
  const float margin = 8;
  auto top = [&](float z) { return margin + std::max(0.f, 2 * (kMinTextPx - 12 * z)); };
  auto place = [&](float z) {
    zoom_ = std::clamp(z, kMinZoom, kMaxZoom);
    pan_ = {margin - frame.x * zoom_, top(zoom_) - (frame.y - sceneTop_) * zoom_};
  };
  const float overview =
      std::min({(size_.x - 2 * margin) / std::max(1.f, frame.z - frame.x),
                (size_.y - margin - top(0)) / std::max(1.f, frame.w - frame.y), 1.5f});
  place(overview);
  fitted_ = true;
  startedAs_ = "fit";
  if (mode == Fit::Overview || scene.grids.empty()) return;

  // The smallest zoom where every grid's labels read (at least 11 px, the longest short label
  // inside its cell), then closer until the visible labels of every grid fit the start's glyph
  // budget (a grid is labelled whole or not at all): a small view opens whole and labelled, a
  // large one at its top-left corner.
  struct GridText {
    const CellGrid* grid;
    std::string_view widest; // the widest short label
    int lines = 1;
  };
  std::vector<GridText> grids;
  for (size_t i = 0; i < scene.grids.size(); ++i) {
    const LabelExtent& e = labelExtent(scene.grids[i], i);
    if (e.shortColumns > 0)
      grids.push_back(
          {&scene.grids[i], shortLabel(scene.grids[i].labels[e.shortIndex]), e.shortLines});
  }
  ImFont* font = ImGui::GetFont();
  auto legible = [&](float z) {
    const float px = labelPx(z);
    if (px < kStartLabelPx) return false;
    for (const GridText& t : grids)
      if (font->CalcTextSizeA(px, FLT_MAX, 0, t.widest.data(), t.widest.data() + t.widest.size())
                  .x > t.grid->cellW * z - 2 ||
          float(t.lines) * px > t.grid->cellH * z)
        return false;
    return true;
  };
  auto withinBudget = [&](float z) {
    place(z);
    const ImVec2 clipMax{origin_.x + size_.x, origin_.y + size_.y};
    for (const LabelPlan& p : planLabels(scene, origin_, clipMax, kStartGlyphs))
      if (p.hidden) return false;
    return true;
  };
  float z = overview;
  if (!grids.empty() && !(legible(z) && withinBudget(z))) {
    z = std::max(z, kStartLabelPx / (kLabelPx * 1.25f));
    while (z < kMaxStartZoom && !legible(z)) z *= 1.05f;
    while (z < kMaxStartZoom && !withinBudget(z)) z *= 1.05f;
    z = std::min(z, kMaxStartZoom);
  }
  place(z);
  startedAs_ = "labels";
  if (mode == Fit::Labels || scene.grids.size() < 2) return;
  // Several grids (operands, conversions, bank maps, warps): the view opens on all of them, so it
  // starts at the labels zoom only where every grid is still whole on the canvas.
  for (const CellGrid& g : scene.grids) {
    const ImVec2 a = toScreen(g.x, g.y), b = toScreen(g.x + g.width(), g.y + g.height());
    if (a.x < origin_.x - 1 || a.y < origin_.y - 1 || b.x > origin_.x + size_.x + 1 ||
        b.y > origin_.y + size_.y + 1) {
      place(overview);
      startedAs_ = "fit";
      return;
    }
  }
}

SceneCanvas::~SceneCanvas() {
  releaseTextures();
}

void SceneCanvas::releaseTextures() {
  for (unsigned t : textures_)
    if (t) glDeleteTextures(1, &t);
  textures_.clear();
  labelExtents_.clear();
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
    fit(scene, startOverview_ ? Fit::Overview : Fit::Start);
    if (startZoom_) {
      zoom_ = std::clamp(*startZoom_, kMinZoom, kMaxZoom);
      startedAs_ = "zoom";
    }
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
    if (ImGui::IsKeyPressed(GLFW_KEY_F)) fit(scene, Fit::Overview);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) fit(scene, Fit::Labels);
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
  const std::vector<LabelPlan> plan = planLabels(scene, clipMin, clipMax, kGlyphBudget);
  labelsHidden_.clear();
  glyphsDrawn_ = 0;
  bool hidden = false;
  for (size_t i = 0; i < scene.grids.size(); ++i) {
    drawGrid(dl, scene.grids[i], i, clipMin, clipMax, plan[i]);
    labelsHidden_[scene.grids[i].id] = plan[i].hidden;
    hidden = hidden || plan[i].hidden;
  }
  labelHint_ = hidden ? "zoom in for labels (wheel, +, Home)" : "";
  for (const auto& r : scene.rects) {
    ImVec2 a = toScreen(r.x, r.y), b = toScreen(r.x + r.w, r.y + r.h);
    if (b.x < clipMin.x || b.y < clipMin.y || a.x > clipMax.x || a.y > clipMax.y) continue;
    if (r.fill.a) dl->AddRectFilled(a, b, col32(r.fill));
    if (r.stroke.a) dl->AddRect(a, b, col32(r.stroke), 0, 0, std::max(1.f, r.strokeWidth * zoom_));
  }
  for (const auto& l : scene.lines)
    dl->AddLine(toScreen(l.x0, l.y0), toScreen(l.x1, l.y1), col32(l.color),
                std::max(1.f, l.width * zoom_));
  drawTexts(dl, scene, clipMin, clipMax);
  drawLabelHint(dl, clipMax);
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
      tip += hoverText(*g, i);
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
  // A cell is visible when more than a quarter pixel of it is inside the clip rectangle (a
  // rounding error's sliver is not a cell on screen).
  constexpr float kSliver = 0.25f;
  const float cw = g.cellW * zoom_, ch = g.cellH * zoom_;
  ImVec2 o = toScreen(g.x, g.y);
  CellRange r;
  r.c0 = std::max(0, int(std::floor((clipMin.x - o.x + kSliver) / cw)));
  r.c1 = std::min(g.cols, int(std::ceil((clipMax.x - o.x - kSliver) / cw)));
  r.r0 = std::max(0, int(std::floor((clipMin.y - o.y + kSliver) / ch)));
  r.r1 = std::min(g.rows, int(std::ceil((clipMax.y - o.y - kSliver) / ch)));
  return r;
}

const SceneCanvas::LabelExtent& SceneCanvas::labelExtent(const CellGrid& g, size_t index) {
  if (labelExtents_.size() <= index) labelExtents_.resize(index + 1);
  std::optional<LabelExtent>& cached = labelExtents_[index];
  if (!cached) {
    LabelExtent e;
    for (size_t i = 0; i < g.labels.size(); ++i) {
      const TextExtent full = extentOf(g.labels[i]), shortened = extentOf(shortLabel(g.labels[i]));
      if (full.columns > e.fullColumns) e.fullColumns = full.columns, e.fullIndex = i;
      if (shortened.columns > e.shortColumns) e.shortColumns = shortened.columns, e.shortIndex = i;
      e.fullLines = std::max(e.fullLines, full.lines);
      e.shortLines = std::max(e.shortLines, shortened.lines);
    }
    cached = e;
  }
  return *cached;
}

std::vector<SceneCanvas::LabelPlan> SceneCanvas::planLabels(const Scene& scene,
                                                            const ImVec2& clipMin,
                                                            const ImVec2& clipMax, int64_t budget) {
  // A grid's visible cells are labelled all in one form, or none are: labels that stop at some
  // row read as if the cells past it had no owner (bank lanes 27-31 read as idle). Every grid in
  // full form when the frame's glyph budget allows, else each in its short form where that fits;
  // past the budget, grids are labelled whole in scene order while it lasts, and the rest are
  // marked hidden (the canvas says to zoom in).
  const float font = labelPx(zoom_);
  std::vector<LabelPlan> plan(scene.grids.size());
  struct Need {
    size_t grid;
    int64_t full = -1, shortened = -1; // glyphs; -1: does not fit
  };
  std::vector<Need> needs;
  ImFont* imFont = ImGui::GetFont();
  for (size_t index = 0; index < scene.grids.size(); ++index) {
    const CellGrid& g = scene.grids[index];
    if (g.labels.empty()) continue;
    const CellRange v = visibleCells(g, clipMin, clipMax);
    if (v.empty()) continue;
    // The glyphs the visible labels would draw in each form (spaces draw none), and whether any
    // visible cell has a label at all.
    bool any = false;
    auto glyphs = [&](bool shortened) {
      int64_t n = 0;
      for (int r = v.r0; r < v.r1; ++r)
        for (int c = v.c0; c < v.c1; ++c) {
          size_t i = size_t(g.index(r, c));
          if (i >= g.labels.size() || g.labels[i].empty()) continue;
          any = true;
          std::string_view l = g.labels[i];
          n += glyphCount(shortened ? shortLabel(l) : l);
        }
      return n;
    };
    const float cw = g.cellW * zoom_, ch = g.cellH * zoom_;
    if (font < kMinLabelPx || std::min(cw, ch) < 4) {
      // Too small to read anywhere in the grid: zooming in shows them. (Far out a grid may have
      // millions of visible cells; the first labelled one settles it.)
      for (int r = v.r0; r < v.r1 && !plan[index].hidden; ++r)
        for (int c = v.c0; c < v.c1 && !plan[index].hidden; ++c) {
          const size_t i = size_t(g.index(r, c));
          plan[index].hidden = i < g.labels.size() && !g.labels[i].empty();
        }
      continue;
    }
    const LabelExtent& extent = labelExtent(g, index);
    if (extent.fullColumns == 0) continue; // no cell has a label
    auto fits = [&](size_t i, int lines, bool shortened) {
      std::string_view label = g.labels[i];
      if (shortened) label = shortLabel(label);
      const ImVec2 ts =
          imFont->CalcTextSizeA(font, FLT_MAX, 0, label.data(), label.data() + label.size());
      return ts.x <= cw - 2 && float(lines) * font <= ch;
    };
    Need need{index};
    const int64_t fullGlyphs = glyphs(false), shortGlyphs = glyphs(true);
    if (!any) continue;
    if (fits(extent.fullIndex, extent.fullLines, false)) need.full = fullGlyphs;
    if (fits(extent.shortIndex, extent.shortLines, true)) need.shortened = shortGlyphs;
    if (need.full >= 0 || need.shortened >= 0)
      needs.push_back(need);
    else
      plan[index].hidden = true;
  }
  int64_t full = 0;
  bool allFull = true;
  for (const Need& n : needs) {
    allFull = allFull && n.full >= 0;
    full += std::max<int64_t>(n.full, 0);
  }
  int64_t left = budget;
  for (const Need& n : needs) {
    LabelPlan& p = plan[n.grid];
    if (allFull && full <= budget) {
      p.form = LabelForm::Full;
      continue;
    }
    const bool useShort = n.shortened >= 0;
    const int64_t cost = useShort ? n.shortened : n.full;
    if (cost <= left) {
      p.form = useShort ? LabelForm::Short : LabelForm::Full;
      left -= cost;
    } else {
      p.hidden = true;
    }
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
  // as different owners), on every visible cell: the plan checked the widest label fits.
  const LabelForm form = labels.form;
  const float fontSize = form == LabelForm::None ? 0 : labelPx(zoom_);
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
        const char* begin = label.data();
        const char* end = begin + label.size();
        ImVec2 ts = font->CalcTextSizeA(fontSize, FLT_MAX, 0, begin, end);
        if (ts.x <= cw - 2 && ts.y <= ch) {
          ImVec2 p{a.x + (cw - ts.x) / 2, a.y + (ch - ts.y) / 2};
          dl->AddText(font, fontSize, p, col32(palette::textOn(g.fill[i])), begin, end);
          ++drawn;
          glyphsDrawn_ += glyphCount(label);
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

bool SceneCanvas::labelsHidden(const std::string& grid) const {
  auto it = labelsHidden_.find(grid);
  return it != labelsHidden_.end() && it->second;
}

void SceneCanvas::drawTexts(ImDrawList* dl, const Scene& scene, const ImVec2& clipMin,
                            const ImVec2& clipMax) {
  // Titles and notes read at any zoom: drawn at least kMinTextPx tall (at most twice their size),
  // on a backdrop where enlarged. Each grid's title (the nearest text just above it) is drawn
  // first: enlarged, it takes the room down to its grid (the column headers' while they are not
  // drawn), then grows upwards; it is cut where the next title on its line starts. A note never
  // covers a grid: on a drawn text it moves up over it (lines stack), and is left out where that
  // ends on a grid or off the canvas. Texts inside a grid (a load's name on its tile) scale with
  // it.
  struct Placed {
    const SceneText* text;
    float px;
    ImVec2 at, size;
    float right;             // the text is cut here
    const CellGrid* titleOf; // the grid it is the title of; null: a note
  };
  ImFont* font = ImGui::GetFont();
  auto inGrid = [&](const SceneText& t) {
    for (const CellGrid& g : scene.grids)
      if (t.x >= g.x && t.y >= g.y && t.x < g.x + g.width() && t.y < g.y + g.height()) return true;
    return false;
  };
  std::vector<const CellGrid*> titleOf(scene.texts.size(), nullptr);
  for (const CellGrid& g : scene.grids) {
    std::optional<size_t> best;
    for (size_t i = 0; i < scene.texts.size(); ++i) {
      const SceneText& t = scene.texts[i];
      const float gap = g.y - (t.y + t.size);
      if (gap < -1 || gap > 64 || t.x > g.x + 1 || t.x < g.x - kRowHeaderRoom - 8) continue;
      if (!best || t.y > scene.texts[*best].y) best = i;
    }
    if (best) titleOf[*best] = &g;
  }
  // The grids on screen, which notes keep clear of.
  std::vector<ImVec4> gridBoxes;
  for (const CellGrid& g : scene.grids) {
    const ImVec2 a = toScreen(g.x, g.y), b = toScreen(g.x + g.width(), g.y + g.height());
    if (a.x < clipMax.x && a.y < clipMax.y && b.x > clipMin.x && b.y > clipMin.y)
      gridBoxes.emplace_back(a.x, a.y, b.x, b.y);
  }
  const float headerPx = labelPx(zoom_);
  std::vector<Placed> placed;
  for (size_t i = 0; i < scene.texts.size(); ++i) {
    const SceneText& t = scene.texts[i];
    const float natural = t.size * zoom_;
    if (inGrid(t)) {
      if (natural < 5) continue;
      dl->AddText(font, std::clamp(natural, 9.f, 2 * t.size), toScreen(t.x, t.y), themed(t.color),
                  t.text.c_str());
      continue;
    }
    Placed p{&t,
             std::clamp(natural, kMinTextPx, std::max(kMinTextPx, 2 * t.size)),
             toScreen(t.x, t.y),
             {},
             clipMax.x,
             titleOf[i]};
    p.size = font->CalcTextSizeA(p.px, FLT_MAX, 0, t.text.c_str());
    if (p.px > natural) {
      // Down to the grid it names (or its own bottom, for a note), then up.
      float bottom = p.at.y + natural;
      if (p.titleOf) {
        const bool headers = headerPx >= kMinLabelPx && !p.titleOf->colHeaders.empty();
        bottom = std::max(bottom, toScreen(0, p.titleOf->y).y - (headers ? headerPx + 3 : 2));
      }
      p.at.y = std::min(p.at.y, bottom - p.size.y);
    }
    placed.push_back(p);
  }
  auto overlapsY = [](const Placed& a, const Placed& b) {
    return a.at.y < b.at.y + b.size.y && b.at.y < a.at.y + a.size.y;
  };
  for (Placed& a : placed)
    for (const Placed& b : placed)
      if (a.titleOf && b.titleOf && &a != &b && b.at.x > a.at.x && overlapsY(a, b))
        a.right = std::min(a.right, b.at.x - 8);
  auto intersects = [](const ImVec4& a, const ImVec4& b) {
    return a.x < b.z && b.x < a.z && a.y < b.w && b.y < a.w;
  };
  std::vector<ImVec4> drawn;
  auto drawOne = [&](Placed p) {
    const float right = std::min(p.right, p.at.x + p.size.x);
    if (right <= p.at.x) return;
    ImVec4 box(p.at.x, p.at.y, right, p.at.y + p.size.y);
    for (bool moved = !p.titleOf; moved;) {
      moved = false;
      for (const ImVec4& d : drawn)
        if (intersects(box, d)) {
          box.y = d.y - p.size.y - 1, box.w = d.y - 1;
          moved = true;
        }
      if (box.y < clipMin.y) return;
    }
    if (!p.titleOf)
      for (const ImVec4& g : gridBoxes)
        if (intersects(box, g)) return;
    if (box.x > clipMax.x || box.y > clipMax.y || box.w < clipMin.y) return;
    p.at.y = box.y;
    drawn.push_back(box);
    dl->PushClipRect({std::max(clipMin.x, box.x - 2), std::max(clipMin.y, box.y - 1)},
                     {std::min(clipMax.x, box.z + 2), std::min(clipMax.y, box.w + 1)}, false);
    if (p.px > p.text->size * zoom_) {
      ImU32 back = themed(palette::kBackground);
      back = (back & ~IM_COL32_A_MASK) | (ImU32(225) << IM_COL32_A_SHIFT);
      dl->AddRectFilled({box.x - 2, box.y - 1}, {box.z + 2, box.w + 1}, back);
    }
    dl->AddText(font, p.px, p.at, themed(p.text->color), p.text->text.c_str());
    dl->PopClipRect();
  };
  for (const Placed& p : placed)
    if (p.titleOf) drawOne(p);
  // Notes from the bottom up, so a stack of them keeps its order.
  std::stable_sort(placed.begin(), placed.end(),
                   [](const Placed& a, const Placed& b) { return a.at.y > b.at.y; });
  for (const Placed& p : placed)
    if (!p.titleOf) drawOne(p);
}

void SceneCanvas::drawLabelHint(ImDrawList* dl, const ImVec2& clipMax) {
  // Some grid on screen has labels it does not show: say so where the eye finds it, at the
  // scene area's bottom-right corner, the same size at any zoom.
  if (labelHint_.empty()) return;
  ImFont* font = ImGui::GetFont();
  const ImVec2 size = font->CalcTextSizeA(kLabelPx, FLT_MAX, 0, labelHint_.c_str());
  const ImVec2 at{clipMax.x - size.x - 14, clipMax.y - size.y - 10};
  dl->AddRectFilled({at.x - 6, at.y - 3}, {at.x + size.x + 6, at.y + size.y + 3},
                    themed(palette::kBackground));
  dl->AddRect({at.x - 6, at.y - 3}, {at.x + size.x + 6, at.y + size.y + 3},
              col32(palette::kOutline), 0, 0, 1.5f);
  dl->AddText(font, kLabelPx, at, themed(palette::kText), labelHint_.c_str());
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
