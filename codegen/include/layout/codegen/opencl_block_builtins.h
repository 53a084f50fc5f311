// Which 2D block shapes have a cl_intel_subgroup_2d_block_io built-in (OpenCL C, subgroup size
// 16): the SPIR-V environment table of docs/reference/intel-xe.md §3.1. The hardware (vISA,
// Triton's GenISA path) accepts more, e.g. 16-bit 32-wide prefetches; the emitter can only call
// what the extension declares, so the kernel builder keeps to this table.
//
//   intel::BlockShape s{16, 16, 32, 2, false, false};
//   bool ok = layout::codegen::hasOpenClBlockBuiltin(intel::BlockOp::Load, s);   // true
#pragma once

#include "layout/intel/block_io.h"

namespace layout::codegen {

bool hasOpenClBlockBuiltin(intel::BlockOp op, const intel::BlockShape& s);

} // namespace layout::codegen
