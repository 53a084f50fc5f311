#include "layout/views/mma_operands.h"

#include "layout/core/element_bits.h"
#include "layout/triton/encoding_params.h"

#include <algorithm>
#include <functional>
#include <set>

namespace layout::views {

using layout::Expected;
using layout::makeError;
using namespace layout::triton;

Expected<MmaOperands> mmaOperands(const Encoding& encoding, int elemBits) {
  Encoding parent = encoding;
  if (encoding.kind == EncodingKind::DotOperand) {
    LAYOUT_TRY_ASSIGN(dot, dotOperandEncoding(encoding));
    parent = dot.parent;
  }
  LAYOUT_TRY(layout::checkElementBits(elemBits, "elemBits", layout::kElementBitsWithNibbles));
  MmaOperands ops{parent, parent, std::nullopt, 0, 0, ""};
  bool withB = true;
  switch (parent.kind) {
  case EncodingKind::NvidiaMma: {
    LAYOUT_TRY_ASSIGN(mma, nvidiaMmaEncoding(parent));
    ops.kWidthA = ops.kWidthB = std::max(1, 32 / elemBits);
    if (mma.versionMajor == 3) {
      withB = false;
      ops.noteB = "B: wgmma reads B from shared memory (no register layout)";
    }
    break;
  }
  case EncodingKind::AmdMfma:
    ops.kWidthA = ops.kWidthB = std::max(1, 64 / elemBits);
    break;
  case EncodingKind::AmdWmma: {
    LAYOUT_TRY_ASSIGN(wmma, amdWmmaEncoding(parent));
    ops.kWidthA = ops.kWidthB = wmma.version == 1 ? 16 : std::max(1, 128 / elemBits);
    break;
  }
  case EncodingKind::IntelDpas: {
    LAYOUT_TRY_ASSIGN(dpas, intelDpasEncoding(parent));
    ops.kWidthA = std::max<int64_t>(1, dpas.opsPerChan / 2);
    ops.kWidthB = dpas.opsPerChan;
    break;
  }
  default:
    return makeError("operands: '" + parent.text() +
                     "' is not an MMA encoding (#ttg.nvidia_mma, #ttg.amd_mfma, #ttg.amd_wmma, "
                     "#ttig.dpas) or a #ttg.dot_op of one");
  }
  auto operand = [&](int64_t opIdx, int64_t kWidth) -> Expected<Encoding> {
    auto e = toEncoding(DotOperandEncoding{opIdx, parent, kWidth});
    if (!e)
      return makeError(std::string("operand ") + (opIdx ? "B" : "A") + " (kWidth " +
                       std::to_string(kWidth) + "): " + e.error().message);
    return e;
  };
  LAYOUT_TRY_ASSIGN(a, operand(0, ops.kWidthA));
  ops.a = std::move(a);
  if (withB) {
    LAYOUT_TRY_ASSIGN(b, operand(1, ops.kWidthB));
    ops.b = std::move(b);
  }
  return ops;
}

namespace {

using Thread = std::array<uint64_t, 3>; // lane, warp, block

// Calls `visit(thread, row, col)` for every input of `ll` (a 2-D distributed layout).
void forEachInput(const layout::LinearLayout& ll,
                  const std::function<void(const Thread&, uint64_t, uint64_t)>& visit) {
  namespace d = layout::dims;
  const int lane = ll.inDimIndex(d::lane()), warp = ll.inDimIndex(d::warp()),
            block = ll.inDimIndex(d::block());
  const int out0 = ll.outDimIndex(d::standardOut(0)), out1 = ll.outDimIndex(d::standardOut(1));
  std::vector<uint64_t> ins(size_t(ll.numInDims()), 0), outs(size_t(ll.numOutDims()), 0);
  const uint64_t total = uint64_t{1} << ll.totalInDimSizeLog2();
  for (uint64_t packed = 0; packed < total; ++packed) {
    // In-dim 0 takes the low bits, as TensorMap packs its inputs.
    uint64_t rest = packed;
    for (int i = 0; i < ll.numInDims(); ++i) {
      ins[size_t(i)] = rest & (ll.inDimSize(i) - 1);
      rest >>= ll.inDimSizeLog2(i);
    }
    ll.apply(ins, outs);
    const Thread t{lane < 0 ? 0 : ins[size_t(lane)], warp < 0 ? 0 : ins[size_t(warp)],
                   block < 0 ? 0 : ins[size_t(block)]};
    visit(t, out0 < 0 ? 0 : outs[size_t(out0)], out1 < 0 ? 0 : outs[size_t(out1)]);
  }
}

} // namespace

Expected<OperandsPick> pickOperands(const MmaOperands& ops, int64_t m, int64_t n, int64_t k,
                                    int row, int col) {
  if (row < 0 || col < 0 || row >= m || col >= n)
    return makeError("operands: C(" + std::to_string(row) + ", " + std::to_string(col) +
                     ") is outside the " + std::to_string(m) + "x" + std::to_string(n) +
                     " accumulator");
  const int64_t shapeA[] = {m, k}, shapeB[] = {k, n}, shapeC[] = {m, n};
  LAYOUT_TRY_ASSIGN(c, toLinearLayout(ops.c, shapeC));
  LAYOUT_TRY_ASSIGN(a, toLinearLayout(ops.a, shapeA));
  OperandsPick pick;
  pick.row = row, pick.col = col;
  const uint64_t r = uint64_t(row), cl = uint64_t(col);
  std::set<Thread> owners;
  forEachInput(c, [&](const Thread& t, uint64_t y, uint64_t x) {
    if (y == r && x == cl) owners.insert(t);
  });
  pick.threads.assign(owners.begin(), owners.end());
  // A thread's cells of one grid, once each (a broadcast layout gives a cell to several
  // registers of the thread).
  auto cellsOf = [&](const layout::LinearLayout& ll, int64_t cols,
                     const std::function<bool(uint64_t, uint64_t)>& wanted) {
    std::set<uint64_t> cells;
    forEachInput(ll, [&](const Thread& t, uint64_t y, uint64_t x) {
      if (owners.count(t) && wanted(y, x)) cells.insert(y * uint64_t(cols) + x);
    });
    return std::vector<uint64_t>(cells.begin(), cells.end());
  };
  pick.cCells = cellsOf(c, n, [](uint64_t, uint64_t) { return true; });
  pick.aCells = cellsOf(a, k, [&](uint64_t y, uint64_t) { return y == r; });
  if (ops.b) {
    LAYOUT_TRY_ASSIGN(b, toLinearLayout(*ops.b, shapeB));
    pick.bCells = cellsOf(b, n, [&](uint64_t, uint64_t x) { return x == cl; });
  }
  return pick;
}

} // namespace layout::views
