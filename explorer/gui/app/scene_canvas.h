// An ImGui canvas that draws a Scene with pan and zoom. Only the visible cells are drawn; grid
// lines, headers and labels appear once a cell is large enough to show them, so a 256x256
// tensor stays interactive. Mouse: wheel zooms at the cursor, right or middle drag pans, a left
// click reports the cell under the cursor. Keys (canvas hovered): F shows the whole scene, Home
// returns to the legible starting zoom, +/- zoom, arrows pan.
#pragma once

#include "explorer/scene.h"

#include <imgui.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace explorer {

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
  // Pans (keeping the zoom) so that the cell lies inside the canvas; false if there is no such
  // cell. Scripted clicks use it the way a user scrolls to a cell before clicking it.
  bool ensureVisible(const Scene& scene, const std::string& grid, int row, int col);
  // overview: the whole scene; otherwise not below the zoom where labels are legible.
  void fit(const Scene& scene, bool overview);
  float zoom() const { return zoom_; }
  // How a new view starts: the whole scene (overview), a fixed zoom, or (default) the smallest
  // zoom at which labels show.
  void setStart(bool overview, std::optional<float> zoom) {
    startOverview_ = overview;
    startZoom_ = zoom;
  }

private:
  ImVec2 toScreen(float x, float y) const {
    return {origin_.x + pan_.x + x * zoom_, origin_.y + pan_.y + y * zoom_};
  }
  void drawGrid(ImDrawList* dl, const CellGrid& g, size_t index, const ImVec2& clipMin,
                const ImVec2& clipMax);
  // Zoomed far out, a grid is one texture with a texel per cell: one quad instead of up to
  // millions (a 256x256 tensor's overview would otherwise cost ~16k rectangles per frame).
  unsigned gridTexture(const CellGrid& g, size_t index);
  void releaseTextures();

  uint64_t version_ = ~uint64_t{0};
  std::vector<unsigned> textures_;    // per grid index; 0: not made
  std::vector<int64_t> longestLabel_; // per grid index: its longest label; -1: not found yet
  int64_t glyphsLeft_ = 0;            // label glyphs this frame may still draw

  ImVec2 origin_{0, 0}, size_{1, 1}, pan_{0, 0};
  float zoom_ = 1;
  bool fitted_ = false;
  bool startOverview_ = false;
  std::optional<float> startZoom_;
  std::optional<CellHit> hovered_, clicked_;
};

} // namespace explorer
