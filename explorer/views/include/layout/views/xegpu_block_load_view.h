// The 2D block loads of an XeGPU load_nd: which load of which subgroup brings each element of a
// tensor descriptor with an #xegpu.layout (or #xegpu.slice / #xegpu.sg_map), and what one
// work-item receives from each of its subgroup's loads.
//
//   int64_t shape[] = {128, 32};
//   auto v = layout::views::xegpuBlockLoadView(
//       "#xegpu.layout<sg_layout = [4, 2], sg_data = [32, 16], inst_data = [8, 16], "
//       "lane_layout = [1, 16], lane_data = [1, 1]>",
//       shape, 16, /*workItem=*/3);
//   v->numLoads;      // 4 loads of 16b_8r16x1c per subgroup (32x16 data / 8x16 block)
//   v->blockRule;     // "inst_data"
//
// Semantics (upstream XeGPU, layout/xegpu/xegpu_layout.h): `shape` is the tensor descriptor's
// shape, the workgroup tile for a layout with sg_layout, one subgroup's data otherwise. Each
// subgroup owns its sg_data tiles (layout::xegpu::subgroupTiles, round-robin). One 2D block load
// moves one block: `block` when given, else the layout's inst_data, else sg_data (else the whole
// shape of a subgroup layout), as the kernel report counts load_nd instructions. Each of the
// subgroup's tiles is split into blocks in row-major order, tile by tile; that is the load order.
// With `arrayLength` N a load reads N blocks side by side: the descriptor's shape is one block of
// the array (upstream's block_tdesc_attr), so the memory drawn is shape[0] x N * shape[1], array
// block a at columns a * shape[1], and the block must be as wide as the descriptor. VNNI
// (`packed`) is on when asked, or when the layout's lane_data is [32 / elemBits, 1].
//
// Grid "operand": one cell per element of memory (rows, cols); every subgroup's loads are drawn:
// subgroups owning the same tiles (broadcast) form one tile, filled with
// palette::categorical(tile, numSubgroupTiles). The selected subgroup's loads are outlined in
// palette::kOutline and labelled "<load>: <shape name>", the other tiles' in palette::kBoundary.
// The work-item's elements (layout::xegpu::laneCoords; without a lane_layout, what the loads give
// it) carry kMarkHighlight. Each loaded cell's `details` name the element, its load and
// subgroups, the work-item and register of the load's result that receive it and its GRF byte
// (the reference executors, intel::loadPerWorkItem / intel::loadGrfImage).
// Grid "workitem": one row per load of the selected subgroup ("L<load>"), one cell per register
// of the work-item's load result ("r<k>", `registerBits` wide: the element size, 32 when packed),
// labelled with the memory element it holds (the first, when a register holds several).
#pragma once

#include "layout/core/expected.h"
#include "layout/text/mlir_attribute.h"
#include "layout/views/scene.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace layout::views {

struct XegpuBlockLoadOptions {
  std::string target = "pvc";      // "pvc" or "bmg"
  int subgroup = 0;                // the subgroup whose loads are outlined and work-item shown
  std::vector<int64_t> block;      // [rows, cols] of one block; empty: the rule above
  int arrayLength = 1;             // blocks side by side per load (block_tdesc_attr array_length)
  bool packed = false;             // VNNI loads (also implied by lane_data [32 / elemBits, 1])
  int64_t maxCells = 1 << 18;      // larger memory tiles are refused ("shape: ...")
  float cellSize = 0;              // operand cells; 0: 16
  const AttrAliases* aliases = {}; // resolves #name references in the layout text
};

struct XegpuBlockLoadResult {
  Scene scene;
  std::vector<int64_t> block; // [rows, cols] of one block
  std::string blockRule;      // where the block came from: "inst_data", "sg_data", "shape", or
                              // "given" (a given block the rule would not pick)
  std::string instruction;    // intel::blockShapeName of one load
  int arrayLength = 1;        // blocks per load
  bool packed = false;        // VNNI
  int registerBits = 0;       // the unit of the work-item grid's registers
  int numLoads = 0;           // per subgroup
  int numSubgroups = 1;       // the layout's subgroups (1 for a subgroup layout)
  int numSubgroupTiles = 1;   // their distinct tile sets (broadcast subgroups share one)
  int workItemElements = 0;   // distinct elements the work-item holds (highlighted cells)
  int workItemRegisters = 0;  // registers of its load results that hold an element
  int64_t unloadedCells = 0;  // drawn cells that no subgroup's load covers
  struct Load {
    int64_t row = 0, col = 0, rows = 0, cols = 0; // memory rectangle
    friend bool operator==(const Load&, const Load&) = default;
  };
  std::vector<Load> loads; // the selected subgroup's loads, in load order
};

// Whether `text` is an XeGPU layout attribute (#xegpu.layout, #xegpu.slice, #xegpu.sg_map),
// directly or through an alias of `aliases`.
bool isXegpuLayoutText(std::string_view text, const AttrAliases& aliases = {});

// "8x16" (or "8,16"): the rows and columns of one block. Errors start with "block: ".
layout::Expected<std::vector<int64_t>> parseBlockText(std::string_view text);

// Errors: "target: ...", "layout: ..." (parse), "elemBits: ...", "shape: ..." (rank, size
// bounds), "subgroup: ...", "workItem: ...", "arrayLength: ...", "block: ..." (not dividing the
// subgroup's data, or not a legal load on the target: the rule it breaks), and the layout's own
// distribution errors.
layout::Expected<XegpuBlockLoadResult> xegpuBlockLoadView(std::string_view layoutText,
                                                          std::span<const int64_t> shape,
                                                          int elemBits, int workItem = 0,
                                                          const XegpuBlockLoadOptions& opt = {});

} // namespace layout::views
