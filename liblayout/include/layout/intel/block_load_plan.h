// Block-load planner for Intel DPAS operands (seed 002, "Using Linear Layout for Intel 2D Block
// Loads"): from a `#ttg.dot_op<{opIdx, parent = #ttig.dpas<...>}>` operand on a tensor shape,
// choose the largest legal 2D block loads that cover one subgroup's part of the operand, and the
// shuffle vectors that turn each work-item's loaded elements into its DPAS operand registers.
//
//   auto enc = layout::triton::parseEncoding(
//       "#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, "
//       "executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [8, 4], "
//       "repCluster = [4, 2]}>, kWidth = 1}>");
//   auto pvc = layout::intel::blockIoTarget("pvc");
//   int64_t shape[] = {256, 32};
//   auto plan = layout::intel::planBlockLoads(*enc, shape, 16, false, *pvc);
//   // plan->loads: one 16b_32r16x2c load at (0, 0); plan->shuffles[i].registers: the 8
//   // elements of DPAS instruction i; plan->tileLayout: offset, iteration, load -> (dim0, dim1).
//
// Method: one DPAS instruction's operand is a dense tile; register bases that double it along a
// dim (repCluster, repetitions) may join the same load. The largest such tile for which a shape
// passes validateBlockShape and the reference executor (loadPerWorkItem) hands every DPAS
// register to its own work-item, whole, is one load; the other register bases enumerate loads.
//
// Coordinates. "Memory coordinates" are (row, column) of the 2D surface the loads read: the
// tensor's (dim0, dim1) when the operand is row-major in memory, (dim1, dim0) when
// `transposedInMemory` (the column is always the contiguous dim).
//   - BlockLoad::offset and subgroupOffset are in elements of the operand type.
//   - tileLayout follows the seed: its out dims count load *slots*, i.e. the memory coordinate
//     along the packed dim is divided by the elements per slot (VNNI: 32/elemBits rows per dword;
//     transposed d32 loads: 32/elemBits columns per dword; plain loads wider than the subgroup:
//     W/16 columns per lane unit). In-dims: `offset` (row-major slot index into one DPAS
//     instruction's tile), `iteration` (the DPAS instructions served by one load), `load`.
//
// Shuffles. Load j gives each work-item a list of elements (intel::loadPerWorkItem order); read
// as a little-endian bit string it is cut into DPAS operand registers (A: 16 bits, 32 for tf32;
// B: 32 bits). Shuffle::registers[u] is the index, in that load's register list, of the u-th
// operand register of DPAS instruction `dpas` (the operand's register index divided by the
// registers of one instruction, as in Triton's linear layout).
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/intel/block_io.h"
#include "layout/triton/encoding.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace layout::intel {

struct BlockLoad {
  int elemBits = 0, tileWidth = 0, tileHeight = 0, numBlocks = 1;
  bool transpose = false, vnni = false;
  std::vector<int64_t> offset; // [row, col] in memory coordinates, elements, from the tile origin
};

struct Shuffle {
  int load = 0;            // which load's result the registers index
  int64_t iteration = 0;   // the tile layout's iteration index within that load
  int64_t dpas = 0;        // the DPAS instruction (operand register block) it feeds
  std::optional<int> lane; // nullopt: the same vector for every lane
  std::vector<int64_t> registers;
};

struct BlockLoadPlan {
  LinearLayout tileLayout;       // (offset, iteration, load) -> memory coordinates in slots
  std::vector<BlockLoad> loads;  // in `load` index order
  std::vector<Shuffle> shuffles; // one per DPAS instruction (per lane where lanes differ)
  int numLoads = 0;
  int numShuffledRegisters = 0; // operand registers assembled per work-item, all shuffles
  int operandRegisterBits = 0;  // 16 or 32: the unit of Shuffle::registers
  LinearLayout subgroupOffset;  // warp -> memory coordinates (elements) of the subgroup's tile
};

// Errors: not a dot_op of a dpas parent, rank other than 2, more elements than
// resourceLimits().maxPlanElements, elemBits * opsPerChan != 32, a shape
// smaller than one DPAS instruction, threadsPerWarp != the target's subgroup size, or no legal
// block load whose per-lane data matches the DPAS operand (e.g. a transposed 8-bit A).
Expected<BlockLoadPlan> planBlockLoads(const triton::Encoding& operand,
                                       std::span<const int64_t> shape, int elemBits,
                                       bool transposedInMemory, const BlockIoTarget& target);

// The batch / CLI JSON (interchange §2, `blockLoad.plan`): {"tileLayout", "loads", "shuffles",
// "numLoads", "numShuffledRegisters", "operandRegisterBits", "subgroupOffset"}; a shuffle's
// "lane" is a number or "all".
nlohmann::ordered_json blockLoadPlanToJson(const BlockLoadPlan& plan);
// The text `layoutctl blockload` prints: the tile layout, a table of loads, a table of shuffle
// vectors, the subgroup offsets.
std::string blockLoadPlanText(const BlockLoadPlan& plan);

} // namespace layout::intel
