// An ImGui canvas that draws a Scene with pan and zoom. Only the visible cells are drawn; grid
// lines, headers and labels appear once a cell is large enough to show them, so a 256x256
// tensor stays interactive. Mouse: wheel zooms at the cursor, right or middle drag pans, a left
// click reports the cell under the cursor. Keys (canvas hovered): F shows the whole scene, Home
// returns to the legible starting zoom, +/- zoom, arrows pan.
#pragma once

#include "layout/views/scene.h"

#include <imgui.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace layout::views {

struct CellHit {
  std::string grid;
  int row = 0, col = 0;
};

class SceneCanvas {
public:
  // Draws `scene` into a child window filling the available region. `refit` (a new layout or
  // view) resets zoom and pan; otherwise they stay (e.g. when only the selection changed).
  // `version` changes whenever the scene's content does (cached textures are rebuilt then).
  void draw(const Scene& scene, bool refit, uint64_t version);
  ~SceneCanvas();

  const std::optional<CellHit>& hovered() const { return hovered_; }
  const std::optional<CellHit>& clicked() const { return clicked_; }

  // Screen position (window pixels) of the centre of a cell, for scripted clicks.
  std::optional<ImVec2> cellCentre(const Scene& scene, const std::string& grid, int row,
                                   int col) const;
  // The screen rectangle a grid occupies (x0, y0, x1, y1; may extend past the canvas), and
  // its part inside the canvas, for tests.
  std::optional<ImVec4> gridRect(const Scene& scene, const std::string& grid) const;
  std::optional<ImVec4> visibleGridRect(const Scene& scene, const std::string& grid) const;
  // The scene area's screen rectangle (x0, y0, x1, y1: the canvas below its legend strip) once it
  // has been drawn.
  std::optional<ImVec4> canvasRect() const {
    if (!fitted_) return std::nullopt;
    return ImVec4(origin_.x, origin_.y, origin_.x + size_.x, origin_.y + size_.y);
  }
  // True once the canvas has been drawn (its origin, size and zoom are those of the screen).
  bool drawn() const { return fitted_; }
  // Pans (keeping the zoom) so that the cell lies inside the canvas; false if there is no such
  // cell. Scripted clicks use it the way a user scrolls to a cell before clicking it.
  bool ensureVisible(const Scene& scene, const std::string& grid, int row, int col);
  // overview: the whole scene; otherwise not below the zoom where labels are legible.
  void fit(const Scene& scene, bool overview);
  float zoom() const { return zoom_; }
  // Dark theme: the scene's text and lines in light tones on the dark background (cell colours
  // and their labels stay as they are).
  void setDark(bool dark) { dark_ = dark; }
  // Labels drawn in grid `grid` in the last frame, and their size in pixels (0: none drawn).
  int labelsDrawn(const std::string& grid) const;
  float labelPixels() const;
  // How a new view starts: the whole scene (overview), a fixed zoom, or (default) the smallest
  // zoom at which labels show.
  void setStart(bool overview, std::optional<float> zoom) {
    startOverview_ = overview;
    startZoom_ = zoom;
  }

private:
  ImVec2 toScreen(float x, float y) const {
    return {origin_.x + pan_.x + x * zoom_, origin_.y + pan_.y + (y - sceneTop_) * zoom_};
  }
  enum class LabelForm : uint8_t { None, Full, Short };
  // How a grid's labels are drawn this frame: the form, and the glyphs it may spend on them.
  struct LabelPlan {
    LabelForm form = LabelForm::None;
    int64_t glyphs = 0;
  };
  struct CellRange {
    int r0 = 0, r1 = 0, c0 = 0, c1 = 0;
    bool empty() const { return r0 >= r1 || c0 >= c1; }
  };
  CellRange visibleCells(const CellGrid& g, const ImVec2& clipMin, const ImVec2& clipMax) const;
  std::vector<LabelPlan> planLabels(const Scene& scene, const ImVec2& clipMin,
                                    const ImVec2& clipMax);
  void drawGrid(ImDrawList* dl, const CellGrid& g, size_t index, const ImVec2& clipMin,
                const ImVec2& clipMax, LabelPlan labels);
  static ImVec4 legendBox(const Scene& scene);
  void drawLegend(ImDrawList* dl, const Scene& scene, const ImVec4& box, float width);
  // Zoomed far out, a grid is one texture with a texel per cell: one quad instead of up to
  // millions (a 256x256 tensor's overview would otherwise cost ~16k rectangles per frame).
  unsigned gridTexture(const CellGrid& g, size_t index);
  void releaseTextures();

  uint64_t version_ = ~uint64_t{0};
  std::vector<unsigned> textures_;         // per grid index; 0: not made
  std::vector<int64_t> longestLabel_;      // per grid index: its longest label; -1: not found yet
  std::map<std::string, int> labelsDrawn_; // per grid id, in the last frame

  // The canvas is a legend strip (the scene's legend at its own size, whatever the zoom) above
  // the scene area; origin_ and size_ are the scene area's, and scene y = sceneTop_ (the legend's
  // bottom) is drawn at its top.
  ImVec2 canvasOrigin_{0, 0};
  float legendH_ = 0, sceneTop_ = 0;
  bool dark_ = false;
  // A scene colour as drawn: dark text becomes light in the dark theme.
  ImU32 themed(Rgba c) const;
  ImVec2 origin_{0, 0}, size_{1, 1}, pan_{0, 0};
  float zoom_ = 1;
  bool fitted_ = false;
  bool startOverview_ = false;
  std::optional<float> startZoom_;
  std::optional<CellHit> hovered_, clicked_;
};

} // namespace layout::views
