// One-message probes of a block load's lane order (block_load_probe.h).
#include "layout/codegen/block_load_probe.h"

#include "layout/codegen/opencl_block_builtins.h"
#include "layout/codegen/opencl_emitter.h"

#include <algorithm>
#include <cstring>

namespace layout::codegen {

namespace {

uint64_t elementCode(int elemBits, int64_t row, int64_t column) {
  if (elemBits == 32) return static_cast<uint64_t>(row) << 16 | static_cast<uint64_t>(column);
  const uint64_t mask = (uint64_t{1} << elemBits) - 1;
  return static_cast<uint64_t>(row * 251 + column + 1) & mask;
}

} // namespace

Expected<BlockLoadProbe> buildBlockLoadProbe(const intel::BlockShape& shape,
                                             const intel::BlockIoTarget& target) {
  if (!hasOpenClBlockBuiltin(intel::BlockOp::Load, shape))
    return makeError("probe: " + intel::blockShapeName(shape) +
                     " is not a load with a cl_intel_subgroup_2d_block_io built-in");
  if (auto ok = intel::validateBlockShape(target, intel::BlockOp::Load, shape); !ok)
    return ok.error();
  BlockLoadProbe p;
  p.shape = shape;
  p.kernelName = "layout_probe_" + intel::blockShapeName(shape);
  // Away from the origin, so swapped or dropped coordinates show; the block lies inside the
  // surface, so no element is zero-filled.
  p.x = 32 / shape.elemBits * 2; // 8 bytes in: aligned for every element size
  p.y = 3;
  const int64_t columns = p.x + int64_t{shape.tileWidth} * shape.numBlocks;
  const int64_t rowBytes = std::max<int64_t>(64, (columns * shape.elemBits / 8 + 3) / 4 * 4);
  p.surface.widthBytes = rowBytes;
  p.surface.height = p.y + shape.tileHeight + 1;
  p.surface.pitchBytes = (rowBytes + 63) / 64 * 64;
  p.input.assign(static_cast<size_t>(p.surface.pitchBytes * p.surface.height), 0);
  const int bytes = shape.elemBits / 8;
  for (int64_t r = 0; r < p.surface.height; ++r)
    for (int64_t c = 0; c < rowBytes / bytes; ++c) {
      const uint64_t code = elementCode(shape.elemBits, r, c);
      std::memcpy(p.input.data() + r * p.surface.pitchBytes + c * bytes, &code, bytes);
    }
  intel::BlockIoRequest request{intel::BlockOp::Load, shape, p.surface, p.x, p.y};
  auto lanes = intel::loadPerWorkItem(target, request, p.input);
  if (!lanes) return lanes.error();
  // Elements are packed into the built-in's register units, lower elements in lower bits.
  const int unitBits =
      shape.vnni || shape.transpose ? 32 : shape.elemBits * std::max(1, shape.tileWidth / 16);
  if (unitBits > 32)
    return makeError("probe: " + intel::blockShapeName(shape) + " delivers " +
                     std::to_string(unitBits) + "-bit registers; the probe reads 32-bit ones");
  const int perUnit = unitBits / shape.elemBits;
  p.unitsPerLane = static_cast<int64_t>((*lanes)[0].size()) / perUnit;
  for (const auto& lane : *lanes) {
    std::vector<uint32_t> units(static_cast<size_t>(p.unitsPerLane), 0);
    for (size_t i = 0; i < lane.size(); ++i)
      units[i / perUnit] |= static_cast<uint32_t>(lane[i] << (i % perUnit * shape.elemBits));
    p.expected.push_back(std::move(units));
  }
  p.source = emitBlockLoadProbe(shape, p.kernelName, p.x, p.y, p.unitsPerLane);
  return p;
}

Expected<void> checkBlockLoadProbe(const BlockLoadProbe& probe, std::span<const uint8_t> output) {
  if (output.size() != probe.outputBytes())
    return makeError("probe " + probe.kernelName + ": the output has " +
                     std::to_string(output.size()) + " bytes, expected " +
                     std::to_string(probe.outputBytes()));
  auto describe = [&](uint32_t v) {
    if (probe.shape.elemBits != 32)
      return "0x" + [&] {
        char hex[16];
        std::snprintf(hex, sizeof hex, "%08x", v);
        return std::string(hex);
      }();
    return "element (row " + std::to_string(v >> 16) + ", column " + std::to_string(v & 0xFFFF) +
           ")";
  };
  for (size_t lane = 0; lane < probe.expected.size(); ++lane)
    for (size_t i = 0; i < probe.expected[lane].size(); ++i) {
      uint32_t got = 0;
      std::memcpy(&got, output.data() + (lane * probe.expected[lane].size() + i) * 4, 4);
      if (got != probe.expected[lane][i])
        return makeError("probe " + probe.kernelName + ": the device's " +
                         intel::blockShapeName(probe.shape) +
                         " load disagrees with the lane order the kernels assume: lane " +
                         std::to_string(lane) + ", register " + std::to_string(i) + ": got " +
                         describe(got) + ", expected " + describe(probe.expected[lane][i]));
    }
  return {};
}

std::vector<intel::BlockShape> kernelProbeShapes(const GemmKernel& kernel) {
  std::vector<intel::BlockShape> shapes;
  for (const Op& op : kernel.mainLoop)
    if (const auto* b = std::get_if<BlockIoOp>(&op);
        b && b->kind == intel::BlockOp::Load && b->shape.transpose &&
        std::none_of(shapes.begin(), shapes.end(),
                     [&](const intel::BlockShape& s) { return s == b->shape; }))
      shapes.push_back(b->shape);
  return shapes;
}

} // namespace layout::codegen
