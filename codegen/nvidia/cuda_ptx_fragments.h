// Internal to the NVIDIA GEMM planners: the PTX ISA's instruction fragments (mma.sync m16n8k16,
// wgmma's D, ldmatrix), and the check that a layout's registers are those fragments.
#pragma once

#include "layout/codegen/cuda_gemm_plan.h"
#include "layout/core/expected.h"
#include "layout/core/linear_layout.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace layout::codegen::cuda_plan {

// The PTX ISA's m16n8k16 fragments (16-bit A and B, f32 C), for lane l = 4 * group + t:
// A register i (halves of a0..a7): row group + 8 * ((i >> 1) & 1), column 2t + (i & 1) + 8 * (i >> 2)
// B register i (halves of b0..b3): row (k) 2t + (i & 1) + 8 * (i >> 1), column (n) group
// C register i (c0..c3):           row group + 8 * ((i >> 1) & 1), column 2t + (i & 1) + 8 * (i >> 2)
// The C formula is also wgmma's f32 D fragment within one warp's 16 rows (m64nNk16: registers
// 4j..4j+3 hold column group j), which for mma.sync's four registers reads (i >> 2) = 0.
TileCoord ptxFragment(char operand, int reg, int lane);

// ldmatrix: the (register, lane) of an operand whose element sits at column 0 of row i of the
// matrix in register slot `slot` (its two halves are registers 2 * slot, 2 * slot + 1 of the
// fragment), as PTX defines the instruction: lane 4i gets row i's columns 0-1 (half 0 is column
// 0); with .trans, stored row i column 0 goes to lane i / 2, half i % 2.
std::pair<int, int> ldmatrixSource(int slot, int row, bool trans);

// register index of the instruction fragment at each origin (lane 0, warp 0), after checking
// that the first `fragmentRegs` registers are the PTX fragment of `operand`.
Expected<std::map<TileCoord, int>> fragmentRegisters(const LinearLayout& ll, char operand,
                                                     int fragmentRegs, int64_t rowStep,
                                                     int64_t colStep, const std::string& what);

} // namespace layout::codegen::cuda_plan
