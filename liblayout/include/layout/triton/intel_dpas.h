// The parameters of Intel's DPAS encoding (#ttig.dpas, DpasEncodingAttr), typed, for modules that
// build on the encoding (block-load planning, the GEMM builder) without reading attribute text.
//
//   auto enc = layout::triton::parseEncoding("#ttg.dot_op<{opIdx = 0, parent = #ttig.dpas<{...}>, kWidth = 1}>");
//   auto dpas = layout::triton::intelDpasParams(*enc);     // the parent's parameters
//   auto opIdx = layout::triton::dotOperandIndex(*enc);    // 0 (A) or 1 (B)
#pragma once

#include "layout/core/expected.h"
#include "layout/triton/encoding.h"

#include <cstdint>
#include <vector>

namespace layout::triton {

struct IntelDpasParams {
  int64_t repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2;
  int64_t threadsPerWarp = 16, fp4KPack = 0; // fp4KPack 0: absent
  std::vector<int64_t> warpsPerCTA, repCluster;
  int rank = 2;
};

// Of a #ttig.dpas encoding, or of the parent of a #ttg.dot_op whose parent is one.
Expected<IntelDpasParams> intelDpasParams(const Encoding& encoding);

// opIdx of a #ttg.dot_op (0: operand A, 1: operand B).
Expected<int> dotOperandIndex(const Encoding& encoding);

} // namespace layout::triton
