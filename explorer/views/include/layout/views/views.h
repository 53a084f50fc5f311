// The explorer's views of a layout as Scenes (see scene.h): the tensor grid, the hardware
// grid, the GF(2) matrix and the diff of two layouts.
//
//   auto map = layout::views::TensorMap::build(ll);
//   layout::views::ViewOptions opt;
//   opt.colorBy = "lane";
//   opt.selectedThread = map->threadOf(map->owners(0, 0)[0]);
//   layout::views::Scene s = layout::views::tensorScene(*map, opt);
#pragma once

#include "layout/views/layout_maps.h"
#include "layout/views/scene.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace layout::views {

struct ViewOptions {
  // The in-dim whose value colours a cell ("lane", "register", "warp", "offset", ...).
  std::string colorBy = "lane";
  // A selected hardware thread (TensorMap::threadOf): its cells are highlighted, the rest dimmed.
  std::optional<uint64_t> selectedThread;
  float cellSize = 0; // 0: chosen from the label length
  // Intel's names for the hardware (subgroup, work-item) instead of warp and lane: for XeGPU and
  // Intel DPAS layouts.
  bool intelTerms = false;
};

// A distributed layout's CTA tile: the register bits that step from one tile to the next (Triton
// orders registers within-thread first, then repetitions) and the tile's extent per out-dim.
// A 16x16 blocked layout of 4x8 lanes with sizePerThread [1, 2] over 32x32: extent {4, 16}.
// The warp tile is what one warp holds of one CTA tile (its register and lane bases): {4, 16} too.
struct CtaTile {
  uint64_t repetitionMask = 0;
  std::vector<uint64_t> extent, warpExtent;
};
// `runsStayInThread` (Intel: XeGPU and DPAS layouts, whose register order starts with the
// lane_data / VNNI packing and then walks the instruction tile): a dim the lanes and subgroups do
// not span keeps its leading run of register bases 1, 2, 4, ... inside the tile, so that the
// rows a work-item packs (lane_data = [2, 1]) are never split by a tile line.
CtaTile ctaTile(const layout::LinearLayout& ll, bool runsStayInThread = false);

// The in-dim a distributed layout is coloured by when none is chosen: lane, else the first.
std::string defaultColorBy(const TensorMap& map);

// Grid "tensor": one cell per element, labelled with its owners (first owner, "+n" when more),
// coloured by `colorBy` of its first owner; broadcast cells marked, unowned cells hatched.
// A legend lists the colours. Row/column headers give the coordinates.
Scene tensorScene(const TensorMap& map, const ViewOptions& opt);

// The tensor grid of `map` (labels, colours, marks, boundaries, headers) with id `id`; the
// caller places it.
CellGrid tensorGrid(const TensorMap& map, const ViewOptions& opt, const std::string& id);

// An MMA's operands, as tensor maps of the same hardware: A (M x K), B (K x N; absent when it is
// not held in registers, e.g. wgmma's B in shared memory: `noteB` says so) and C (M x N).
struct MmaOperandMaps {
  TensorMap a;
  std::optional<TensorMap> b;
  TensorMap c;
  std::string titleA, titleB, titleC, noteB;
};

// Grids "mma.A", "mma.B", "mma.C" side by side as in a GEMM picture (A left, B above C), one
// cell size and one lane colouring for all, as CuTe draws a TiledMMA.
Scene mmaOperandsScene(const MmaOperandMaps& maps, const ViewOptions& opt);

// Grids "hw" (one per warp / block): rows = registers, cols = lanes; each cell shows the
// coordinate its input maps to. For non-distributed layouts: one grid over the last in-dim
// (cols, up to 32) and the rest (rows).
Scene hardwareScene(const TensorMap& map, const ViewOptions& opt);

// Grid "matrix": rows = output bits grouped by out-dim, cols = input bits grouped by in-dim;
// a filled cell is a 1.
Scene matrixScene(const layout::LinearLayout& ll);

// Grid "diff": the tensor cells where `a` and `b` (same out-dims) have different owner sets
// are marked conflict (red outline, label "A|B"); agreeing cells are dimmed. `*differing` gets
// the count.
layout::Expected<Scene> diffScene(const TensorMap& a, const TensorMap& b, uint64_t* differing);

// Marks the cells of a hardware thread (TensorMap::threadOf) in a tensor or hardware scene of
// `map`: highlighted, every other cell dimmed; nullopt clears the selection. The grids keep their
// undimmed colours, so a selection changes in place: rebuilding a 1024x1024 tensor's scene (its
// million labels) took 1.6 s, this takes milliseconds.
void markSelection(const TensorMap& map, Scene& scene, std::optional<uint64_t> thread);

// Highlights `cells` (row-major indices) of a grid and dims the others, keeping the undimmed
// fills as markSelection does; no cells clears the marks. The banks view marks the tensor cells
// of a clicked bank cell's word this way.
void markCells(CellGrid& g, std::span<const uint64_t> cells);

// Number of cells of `g` carrying kMarkHighlight.
int countMarked(const CellGrid& g, CellMark mark);

} // namespace layout::views
