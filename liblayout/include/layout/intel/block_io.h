// Intel Xe 2D block load / store / prefetch: the hardware limits per target (data, selectable by
// name or loaded from JSON), their validation, and reference executors on a host buffer.
//
//   using namespace layout::intel;
//   auto pvc = blockIoTarget("pvc");
//   BlockShape s{.elemBits = 16, .tileWidth = 16, .tileHeight = 8, .numBlocks = 2};
//   if (auto e = validateBlockShape(*pvc, BlockOp::Load, s); !e) report(e.error().message);
//   Surface surf{.widthBytes = 256, .height = 64, .pitchBytes = 256};
//   BlockIoRequest r{.op = BlockOp::Load, .shape = s, .surface = surf, .x = 0, .y = 0};
//   auto lanes = loadPerWorkItem(*pvc, r, memory);  // (*lanes)[3][13] = element (row 5, col 19)
//   auto grf = loadGrfImage(*pvc, r, memory);       // 512 bytes: block 0 then block 1
//
// Semantics (docs/reference/intel-xe.md §3.1). Block b covers columns x + b*W .. x + b*W + W-1
// (elements) of rows y .. y + H-1. Reads outside [0, width) x [0, height) of the surface give 0;
// stores drop such elements.
//
// GRF level (vISA LOAD_BLOCK2D): each block is a row-major image of rows padded to a power of two
// (transpose: the block's W columns become rows of H elements; VNNI: groups of 32/elemBits rows are
// interleaved into dwords, lower row in lower bits), and every block starts on a GRF boundary
// (padding is zero).
//
// Per work item (OpenCL / SPIR-V level): the per-lane array is compact across blocks (no GRF
// padding). Within a block, the unpadded image is cut into units D: the element (a dword for
// VNNI), or, when a non-transposed row holds more of those than the subgroup has lanes,
// rowLength/SG consecutive ones (8-bit W = 32: two bytes). Lane l's j-th unit of the block is unit
// j*SG + l; each block gives every lane ceil(units / SG) units, and a unit past the block (e.g.
// lanes 8..15 of a one-row 32-bit 8-wide load) is undefined and reads as 0. A lane's elements are
// listed block by block, unit by unit, and inside a unit from low to high bits. Transposed d32
// H = 32 thus gives lane l rows l and l + 16 (vISA / Triton), not 2l and 2l + 1.
// Stores take their data in the same order as a plain load (the OpenCL reading; the vISA text
// disagrees, see the reference §7).
#pragma once

#include "layout/core/expected.h"
#include "layout/target/hardware_target.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace layout::intel {

enum class BlockOp { Load, Store, Prefetch };

// "load", "store", "prefetch".
std::string_view blockOpName(BlockOp op);

// Limits of one element size. A rule that does not apply is std::nullopt.
struct BlockTransposeRule {
  int maxTileWidth = 0;       // d32: 8; d64: 4
  int requiredTileHeight = 0; // 0 = any legal height; d64: 8
  int maxBlocks = 1;
  auto operator<=>(const BlockTransposeRule&) const = default;
};
struct BlockVnniRule {
  int minTileHeight = 0; // one dword of rows: 4 for 8-bit, 2 for 16-bit
  auto operator<=>(const BlockVnniRule&) const = default;
};
struct BlockElementRule {
  int elemBits = 0;
  int minTileWidth = 1;
  int maxTileWidth = 0;
  std::array<int, 3> maxBlocks{}; // indexed by BlockOp
  std::optional<BlockTransposeRule> transpose;
  std::optional<BlockVnniRule> vnni;
  auto operator<=>(const BlockElementRule&) const = default;
};

// Surface (address payload) rules; all sizes in bytes unless named otherwise.
struct BlockSurfaceRule {
  int64_t minWidthBytes = 64;
  int64_t maxWidthBytes = int64_t{1} << 24;
  int64_t widthMultipleBytes = 4; // and a multiple of the element size
  int64_t maxHeight = int64_t{1} << 24;
  int64_t minPitchBytes = 64;
  int64_t maxPitchBytes = int64_t{1} << 24;
  int64_t pitchMultipleBytes = 16;
  int64_t baseAlignmentBytes = 64;
  int64_t xMultipleBytes = 4; // x * elemBytes must be a multiple of this
  auto operator<=>(const BlockSurfaceRule&) const = default;
};

// One target's 2D block I/O hardware description.
struct BlockIoTarget {
  std::string name;
  int subgroupSize = 16;
  int grfBytes = 64;
  std::vector<BlockElementRule> elements; // legal element sizes, ascending
  std::array<int, 3> maxTileHeight{};     // rows, indexed by BlockOp
  std::array<int, 3> maxRowBytes{};       // elemBits * tileWidth * numBlocks / 8, by BlockOp
  BlockSurfaceRule surface;

  // The rule of an element size, or nullptr when the size is not supported.
  const BlockElementRule* element(int elemBits) const;
  // Whole descriptions compare (two targets named "pvc" with other limits differ).
  auto operator<=>(const BlockIoTarget&) const = default;
};

// The rules of a hardware target (layout/target/hardware_target.h): a built-in name with 2D block
// I/O ("pvc" Xe-HPC, "bmg" Xe2) or "@file.json"; its "blockIo" section is read by
// blockIoTargetFromJson with the target's name, subgroup size and register size.
Expected<BlockIoTarget> blockIoTarget(std::string_view name);
Expected<BlockIoTarget> blockIoTarget(const target::HardwareTarget& hw);
// Names of the built-in targets that have 2D block I/O.
std::vector<std::string> blockIoTargetNames();
// Errors name the JSON path, e.g. "elements[1].maxBlocks.store: expected a positive integer".
Expected<BlockIoTarget> blockIoTargetFromJson(const nlohmann::json& j);
nlohmann::ordered_json blockIoTargetToJson(const BlockIoTarget& t);

struct BlockShape {
  int elemBits = 0;
  int tileWidth = 0;  // elements per row of one block (before transpose)
  int tileHeight = 0; // rows
  int numBlocks = 1;  // blocks side by side along the row
  bool transpose = false;
  bool vnni = false;
  friend bool operator==(const BlockShape&, const BlockShape&) = default;
};

// The OpenCL-style name, e.g. "16b_8r16x2c", "transform_16b_32r16x1c", "transpose_32b_16r8x1c".
std::string blockShapeName(const BlockShape& s);

struct Surface {
  uint64_t baseAddress = 0;
  int64_t widthBytes = 0;
  int64_t height = 0; // rows
  int64_t pitchBytes = 0;
};

struct BlockIoRequest {
  BlockOp op = BlockOp::Load;
  BlockShape shape;
  Surface surface;
  int64_t x = 0, y = 0; // x in elements, y in rows, the block's top-left
};

// The first violated rule, as an Error whose message names the field and the rule (e.g.
// "tileWidth 64 x 16-bit = 128 bytes exceeds the 64-byte row limit"), or nullopt when legal.
Expected<void> validateBlockShape(const BlockIoTarget& t, BlockOp op, const BlockShape& s);
// The shape, then the surface and the coordinates.
Expected<void> validateBlockIo(const BlockIoTarget& t, const BlockIoRequest& r);

// Sizes of a legal load shape: bytes of the GRF image (whole GRFs), elements per lane.
int64_t grfImageBytes(const BlockIoTarget& t, const BlockShape& s);
int64_t elementsPerWorkItem(const BlockIoTarget& t, const BlockShape& s);

// Reference executors on a host buffer `memory`: the surface starts at memory[baseAddress];
// reads outside the surface return 0; writes outside are dropped. An in-surface element outside
// `memory` is an error. The request must be legal (validateBlockIo) and its op a load (store for
// storePerWorkItem).
//
// The GRF bytes, with the hardware's padding.
Expected<std::vector<uint8_t>> loadGrfImage(const BlockIoTarget& t, const BlockIoRequest& r,
                                            std::span<const uint8_t> memory);
// Per work item (lane): the elements it receives, in register order, as raw element bits
// (zero-extended to 64 bits): result[lane][i].
Expected<std::vector<std::vector<uint64_t>>>
loadPerWorkItem(const BlockIoTarget& t, const BlockIoRequest& r, std::span<const uint8_t> memory);
// data[lane][i] in the order loadPerWorkItem returns for the same plain shape; every lane must
// have elementsPerWorkItem values that fit in elemBits. Values in undefined slots are ignored.
Expected<void> storePerWorkItem(const BlockIoTarget& t, const BlockIoRequest& r,
                                const std::vector<std::vector<uint64_t>>& data,
                                std::span<uint8_t> memory);

} // namespace layout::intel
