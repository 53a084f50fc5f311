// The operands of an MMA-like encoding, for the explorer's operands view: the accumulator C is
// the encoding itself (or the parent of a given #ttg.dot_op), A and B are its #ttg.dot_op
// operands with the kWidth the compilers use for the element size:
//   #ttg.nvidia_mma v2: 32 / elemBits for A and B; v3 (wgmma): A alone (B is read from shared
//     memory), 32 / elemBits;
//   #ttg.amd_mfma: 64 / elemBits; #ttg.amd_wmma: 16 for version 1, 128 / elemBits after;
//   #ttig.dpas: A opsPerChan / 2, B opsPerChan (seed 002's bf16 operands: 1 and 2).
//
//   auto enc = layout::triton::parseEncoding(mmaText);
//   auto ops = layout::views::mmaOperands(*enc, /*elemBits=*/16);
//   layout::triton::toLinearLayout(ops->a, {M, K});
#pragma once

#include "layout/triton/encoding.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace layout::views {

struct MmaOperands {
  layout::triton::Encoding a, c;
  std::optional<layout::triton::Encoding> b; // absent when B is not in registers
  int64_t kWidthA = 0, kWidthB = 0;
  std::string noteB; // why B is absent
};

// Errors: an encoding that is not MMA-like (blocked, shared, ...), an element size the kWidth
// rule does not cover, or an operand the verifier refuses.
layout::Expected<MmaOperands> mmaOperands(const layout::triton::Encoding& encoding, int elemBits);

// An accumulator element C(row, col) followed to the operands it is computed from: the threads
// that hold it, and of A's row `row` and B's column `col` the cells those same threads hold (a
// thread's copy of an operand broadcast across warps counts only in its own warp). Cells are
// row-major indices of A (M x K), B (K x N) and C (M x N); cCells are all C cells the threads
// hold, as a selection of them would highlight.
struct OperandsPick {
  int row = 0, col = 0;
  std::vector<std::array<uint64_t, 3>> threads; // lane, warp, block
  std::vector<uint64_t> aCells, bCells, cCells;
};

// Errors: (row, col) outside M x N, or an operand that has no layout over its shape.
layout::Expected<OperandsPick> pickOperands(const MmaOperands& ops, int64_t m, int64_t n, int64_t k,
                                            int row, int col);

} // namespace layout::views
