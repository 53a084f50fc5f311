// An ImGui canvas that draws a Scene with pan and zoom. Only the visible cells are drawn; grid
// lines, headers and labels appear once a cell is large enough to show them, so a 256x256
// tensor stays interactive. A grid's visible cells are labelled all or none (a "zoom in for
// labels" hint says when none); titles and notes keep a readable size whatever the zoom. Mouse:
// wheel zooms at the cursor, right or middle drag pans, a left click reports the cell under the
// cursor. Keys (canvas hovered): F frames every grid, Home goes to the smallest zoom where labels
// read (top-left corner), +/- zoom, arrows pan.
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
  // Where a view starts (and what F and Home do): Overview frames every grid; Labels is the
  // smallest zoom where every grid's labels read and the visible ones fit the frame's glyph
  // budget, at the top-left corner; Start is Labels for one grid, and for several grids Labels
  // only when every grid is still whole on the canvas there, else Overview.
  enum class Fit : uint8_t { Start, Labels, Overview };
  void fit(const Scene& scene, Fit mode);
  float zoom() const { return zoom_; }
  // Dark theme: the scene's text and lines in light tones on the dark background (cell colours
  // and their labels stay as they are).
  void setDark(bool dark) { dark_ = dark; }
  // Labels drawn in grid `grid` in the last frame, and their size in pixels (0: none drawn).
  int labelsDrawn(const std::string& grid) const;
  float labelPixels() const;
  // Whether grid `grid` had visible cells with labels left undrawn in the last frame (too small
  // to read, or past the glyph budget), and the hint drawn for that ("" when none).
  bool labelsHidden(const std::string& grid) const;
  const std::string& labelHint() const { return labelHint_; }
  // Label glyphs drawn in the last frame, all grids together (at most the glyph budget).
  int64_t glyphsDrawn() const { return glyphsDrawn_; }
  // How the current view started: "labels", "fit" or "zoom" (a fixed --zoom).
  const char* startedAs() const { return startedAs_; }
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
  // How a grid's labels are drawn this frame: the form (for every visible cell, or None), and
  // whether visible labels are left out (the grid needs a closer zoom).
  struct LabelPlan {
    LabelForm form = LabelForm::None;
    bool hidden = false;
  };
  // Per grid: its widest label in full and short form (characters of the longest line, lines),
  // found once per scene version.
  struct LabelExtent {
    size_t fullColumns = 0, shortColumns = 0;
    int fullLines = 1, shortLines = 1;
    size_t fullIndex = 0, shortIndex = 0;
  };
  struct CellRange {
    int r0 = 0, r1 = 0, c0 = 0, c1 = 0;
    bool empty() const { return r0 >= r1 || c0 >= c1; }
  };
  CellRange visibleCells(const CellGrid& g, const ImVec2& clipMin, const ImVec2& clipMax) const;
  // `budget`: the label glyphs the frame may draw.
  std::vector<LabelPlan> planLabels(const Scene& scene, const ImVec2& clipMin,
                                    const ImVec2& clipMax, int64_t budget);
  const LabelExtent& labelExtent(const CellGrid& g, size_t index);
  // The scene box every grid lies in, with its headers and titles (scene units).
  static ImVec4 gridFrame(const Scene& scene);
  // Scene texts in screen space: titles above the grids first, none drawn over another.
  void drawTexts(ImDrawList* dl, const Scene& scene, const ImVec2& clipMin, const ImVec2& clipMax);
  void drawLabelHint(ImDrawList* dl, const ImVec2& clipMax);
  void drawGrid(ImDrawList* dl, const CellGrid& g, size_t index, const ImVec2& clipMin,
                const ImVec2& clipMax, LabelPlan labels);
  static ImVec4 legendBox(const Scene& scene);
  void drawLegend(ImDrawList* dl, const Scene& scene, const ImVec4& box, float width);
  // Zoomed far out, a grid is one texture with a texel per cell: one quad instead of up to
  // millions (a 256x256 tensor's overview would otherwise cost ~16k rectangles per frame).
  unsigned gridTexture(const CellGrid& g, size_t index);
  void releaseTextures();

  uint64_t version_ = ~uint64_t{0};
  std::vector<unsigned> textures_;                       // per grid index; 0: not made
  std::vector<std::optional<LabelExtent>> labelExtents_; // per grid index; found on first use
  std::map<std::string, int> labelsDrawn_;               // per grid id, in the last frame
  std::map<std::string, bool> labelsHidden_;             // per grid id, in the last frame
  std::string labelHint_;
  int64_t glyphsDrawn_ = 0;

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
  const char* startedAs_ = "labels";
  std::optional<CellHit> hovered_, clicked_;
};

} // namespace layout::views
