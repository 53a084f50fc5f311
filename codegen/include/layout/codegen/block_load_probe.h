// A one-message probe of a 2D block load's lane order, run on a device before a kernel that
// relies on it.
//
//   auto target = layout::intel::blockIoTarget("pvc");
//   auto probe = layout::codegen::buildBlockLoadProbe(shape, *target);   // transpose_32b_32r8x1c
//   // run probe->source's kernel probe->kernelName on (probe->input, probe->surface's width,
//   // height and pitch, an output of probe->outputBytes()), one subgroup of 16
//   if (auto ok = layout::codegen::checkBlockLoadProbe(*probe, output); !ok)
//     refuse(ok.error().message);   // "lane 3, register 5: got element (row 4, column 9), ..."
//
// Why: every `transpose_b` GEMM reads B with transposed 32-row d32 loads and feeds DPAS in the
// lane order the model gives (docs/reference/intel-xe.md §3.1). A device or driver that orders
// them otherwise would give wrong products that look like a numerics problem; one message on a
// surface whose elements encode their own (row, column) shows it directly.
#pragma once

#include "layout/codegen/kernel_ir.h"
#include "layout/core/expected.h"
#include "layout/intel/block_io.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace layout::codegen {

struct BlockLoadProbe {
  intel::BlockShape shape;
  std::string kernelName; // "layout_probe_transpose_32b_32r8x1c"
  std::string source;     // OpenCL C (opencl_emitter.h, emitBlockLoadProbe)
  intel::Surface surface; // of `input`; the load is at (x, y), inside it
  int64_t x = 0, y = 0;
  // The surface bytes: element (row, column) holds row << 16 | column (32-bit elements), or the
  // low bits of row * 251 + column + 1 (narrower ones).
  std::vector<uint8_t> input;
  int64_t unitsPerLane = 0;                    // the registers each lane writes, as 32-bit words
  std::vector<std::vector<uint32_t>> expected; // [lane][register], by intel::loadPerWorkItem
  size_t outputBytes() const { return static_cast<size_t>(16 * unitsPerLane * 4); }
};

// A probe of `shape` (a load with an OpenCL built-in, units of at most 32 bits). Errors: a shape
// that is not such a load, or that `target` does not allow.
Expected<BlockLoadProbe> buildBlockLoadProbe(const intel::BlockShape& shape,
                                             const intel::BlockIoTarget& target);
// Whether the device's output matches the model; the error names the first lane and register
// that differ, and for 32-bit elements which element the device delivered there.
Expected<void> checkBlockLoadProbe(const BlockLoadProbe& probe, std::span<const uint8_t> output);
// The loads of a kernel that a device run probes first: each distinct transposed load shape.
std::vector<intel::BlockShape> kernelProbeShapes(const GemmKernel& kernel);

} // namespace layout::codegen
