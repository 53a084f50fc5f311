// A view of the explorer as plain geometry: cell grids, rectangles, lines and text in scene
// units (1 unit = 1 pixel at zoom 1). The same Scene is drawn by the ImGui canvas (with pan,
// zoom and level of detail) and written as SVG, so the two exports always agree.
//
//   layout::views::Scene s;
//   auto& g = s.grids.emplace_back();
//   g.x = 40; g.y = 40; g.cellW = g.cellH = 24; g.rows = g.cols = 16;
//   g.fill.assign(256, layout::views::Rgba{200, 200, 255});
//   g.labels.assign(256, "T0:0");
//   std::string svg = layout::views::sceneToSvg(s);
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace layout::views {

struct Rgba {
  uint8_t r = 0, g = 0, b = 0, a = 255;
  friend bool operator==(const Rgba&, const Rgba&) = default;
};

// How a cell is marked on top of its fill.
enum CellMark : uint8_t {
  kMarkNone = 0,
  kMarkHighlight = 1, // owned by the selected lane
  kMarkBroadcast = 2, // several owners
  kMarkUnowned = 4,   // no owner (hatched)
  kMarkConflict = 8,  // outlined: a bank conflict, or a cell where two layouts disagree
  kMarkOutline = 16,  // outlined in the secondary colour (e.g. a block-load boundary)
};

// A rows x cols grid of equal cells, row-major. `labels` may be empty (no text); a label may
// hold two lines separated by '\n'. `id` names the grid for hit tests ("tensor", "hw", ...).
struct CellGrid {
  std::string id;
  float x = 0, y = 0, cellW = 1, cellH = 1;
  int rows = 0, cols = 0;
  std::vector<Rgba> fill;
  std::vector<std::string> labels;
  std::vector<uint8_t> marks;
  // Optional per-cell key for the inspector: hardware grids store the packed layout input.
  std::vector<uint64_t> keys;
  // Optional per-cell text for the inspector (a bank cell: its word, bytes and lanes).
  std::vector<std::string> details;
  // Row and column headers drawn left of and above the grid (empty: none).
  std::vector<std::string> rowHeaders, colHeaders;
  // Optional per-cell CellEdge flags: edges where a group (a warp, a CTA tile) ends, drawn thick.
  std::vector<uint8_t> edges;
  // The fills before a selection dimmed them (markSelection keeps them; empty until then).
  std::vector<Rgba> undimmedFill;
  // The layout's CTA tile in cells (0: none): the canvas opens on a whole tile when it can.
  int tileRows = 0, tileCols = 0;
  // One warp's part of that tile, where the canvas opens when the whole tile does not fit.
  int warpTileRows = 0, warpTileCols = 0;

  float width() const { return cols * cellW; }
  float height() const { return rows * cellH; }
  int index(int row, int col) const { return row * cols + col; }
};

// The edges of a cell that border another group of cells.
enum CellEdge : uint8_t {
  kEdgeRight = 1,
  kEdgeBottom = 2,
};

struct SceneRect {
  float x = 0, y = 0, w = 0, h = 0;
  Rgba fill{0, 0, 0, 0}; // alpha 0: not filled
  Rgba stroke{0, 0, 0, 0};
  float strokeWidth = 1;
};

struct SceneLine {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  Rgba color;
  float width = 1;
};

// `x, y` is the top-left corner of the text box.
struct SceneText {
  float x = 0, y = 0;
  std::string text;
  Rgba color;
  float size = 13;
};

struct Scene {
  float width = 0, height = 0;
  // What the scene shows (the layout text and shape): the SVG's <title>.
  std::string title;
  std::vector<CellGrid> grids;
  std::vector<SceneRect> rects; // drawn after the grids
  std::vector<SceneLine> lines;
  std::vector<SceneText> texts;
  // The legend, in scene units from the scene's origin: the SVG draws it there, the canvas keeps
  // it at that size in the canvas's corner whatever the zoom and pan.
  std::vector<SceneRect> legendRects;
  std::vector<SceneText> legendTexts;

  // The grid with this id, or nullptr.
  const CellGrid* grid(const std::string& id) const;
  // Grows width/height to cover everything added so far, plus `margin`.
  void fitBounds(float margin = 16);
};

// The hit test the canvas and the scripted runs use: the cell of grid `g` at scene point
// (x, y), or false when the point is outside it.
bool cellAt(const CellGrid& g, float x, float y, int* row, int* col);

// Row or column headers 0..n-1 with `prefix` in front: indexHeaders(3, "L") is {L0, L1, L2}.
std::vector<std::string> indexHeaders(int n, std::string_view prefix = "");

// Colours: the scene's fixed colours and a categorical palette whose neighbours differ in hue
// and lightness (ids 0..n-1 get n colours; adjacent lanes never look alike).
namespace palette {
inline constexpr Rgba kBackground{250, 250, 250};
inline constexpr Rgba kGridLine{120, 120, 120};
inline constexpr Rgba kText{20, 20, 20};
inline constexpr Rgba kUnowned{255, 255, 255};
inline constexpr Rgba kHighlight{0, 0, 0};
inline constexpr Rgba kConflict{220, 0, 0};
inline constexpr Rgba kOutline{0, 90, 220};
inline constexpr Rgba kDimmed{235, 235, 235};
inline constexpr Rgba kBoundary{30, 30, 30};
Rgba categorical(int id, int count);
// White to red for 0..max (bank heat maps).
Rgba heat(int value, int max);
// Black or white, whichever reads better on `background`.
Rgba textOn(Rgba background);
} // namespace palette

} // namespace layout::views
