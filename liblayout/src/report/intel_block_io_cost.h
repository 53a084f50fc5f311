// Intel Xe figures of the kernel report (kernel_report.h): the 2D block instructions of XeGPU's
// load_nd / store_nd / prefetch_nd and of the Intel backend's block-pointer loads, and the DPAS
// instruction shape. Internal to the report module.
#pragma once

#include "layout/intel/block_io.h"
#include "layout/report/kernel_report.h"
#include "layout/target/hardware_target.h"
#include "layout/triton/encoding.h"
#include "layout/xegpu/xegpu_layout.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace layout::report::detail {

// An XeGPU block access: the tensor descriptor's shape (one block), its layout (null when it
// has none) and the access's flags.
struct XegpuBlockAccess {
  intel::BlockOp op = intel::BlockOp::Load;
  const xegpu::XeLayout* layout = nullptr;
  std::vector<int64_t> shape;
  int elemBits = 0;
  int arrayLength = 1;
  bool packed = false, transpose = false;
};

// One block instruction moves the layout's inst_data tile when it has one, else the subgroup's
// whole data (sg_data, or the shape at subgroup level); the shape is checked against the
// target's block I/O rules (an illegal one keeps the rule in `why`).
Expected<BlockIoFigures> xegpuBlockIo(const XegpuBlockAccess& access,
                                      const intel::BlockIoTarget& t);

// A DPAS operand (#ttg.dot_op of a #ttig.dpas parent) loaded by 2D block loads: the block-load
// planner's loads and shuffles (layout/intel/block_load_plan.h).
Expected<BlockIoFigures> dpasOperandBlockLoads(const triton::Encoding& operand,
                                               std::span<const int64_t> shape, int elemBits,
                                               const intel::BlockIoTarget& t);

// A #ttig.subgroup_2d_block tensor: its instrShape x numBlocks message, checked, and how many a
// subgroup issues for `shape`.
Expected<BlockIoFigures> subgroup2dBlockIo(const triton::Encoding& encoding,
                                           std::span<const int64_t> shape, int elemBits,
                                           const intel::BlockIoTarget& t);

// A #ttig.dpas accumulator stored by 2D block stores: one [repeatCount, executionSize] tile per
// store, as many as the subgroup holds.
Expected<BlockIoFigures> dpasAccumulatorBlockStores(const triton::Encoding& encoding,
                                                    std::span<const int64_t> shape, int elemBits,
                                                    const intel::BlockIoTarget& t);

// The shape [M, N, K] of one DPAS instruction of `unit` for `aBits`-bit operands: M =
// repeatCount (the unit's largest when 0), N = the execution size, K = systolic depth x operands
// per 32-bit channel.
std::array<int64_t, 3> dpasInstructionShape(const target::DpasUnit& unit, int repeatCount,
                                            int aBits);

// "[M, N, K]", as DotFigures::instrShape holds it.
std::string dpasShapeText(const std::array<int64_t, 3>& shape);

// One DPAS instruction (dpasInstructionShape) and how many cover C [m, n] over A's k (0 when
// they do not divide).
DotFigures dpasFigures(const target::DpasUnit& unit, int repeatCount, int aBits, int64_t m,
                       int64_t n, int64_t k);

} // namespace layout::report::detail
