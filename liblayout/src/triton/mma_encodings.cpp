// NVIDIA MMA accumulators (#ttg.nvidia_mma v2 / v3) and dot operands (#ttg.dot_op) of NVIDIA MMA
// and blocked (FMA) parents.
#include "encoding_internal.h"

#include "layout/core/shape_fitting.h"

#include <numeric>

namespace layout::triton::detail {

namespace {

Expected<LinearLayout> mul(const LinearLayout& a, const LinearLayout& b) {
  return product(a, b);
}

// Triton's getMatrixOrder: [rank-1, ..., 0]; column-major swaps the two most minor.
std::vector<int> matrixOrder(int rank, bool rowMajor) {
  std::vector<int> order(rank);
  std::iota(order.rbegin(), order.rend(), 0);
  if (!rowMajor) std::swap(order[0], order[1]);
  return order;
}

// getOrderForDotOperand with K contiguous.
std::vector<int> dotOperandOrder(int opIdx, int rank) {
  return matrixOrder(rank, opIdx != 1);
}

std::vector<DimName> namesInOrder(const std::vector<int>& order) {
  std::vector<DimName> names;
  for (int d : order) names.push_back(dims::standardOut(d));
  return names;
}

// nvidiaMmaTile: kWidth registers and 4 lanes along the inner dim, 8 lanes along the outer dim,
// then registers repeat m/8 times along the outer and n/(4 kWidth) times along the inner dim.
Expected<LinearLayout> mmaTile(const std::vector<int64_t>& tile, uint64_t kWidth,
                               const std::vector<int>& order, const std::vector<int>& repOrder) {
  std::vector<uint64_t> ones(repOrder.size(), 1);
  LAYOUT_TRY_ASSIGN(cta, identityStandardND(dims::reg(), ones, repOrder));
  const int inner = order[0], outer = order[1];
  const int64_t m = tile[outer], n = tile[inner];
  if (m % 8 != 0 || n % int64_t(kWidth * 4) != 0)
    return makeError("the MMA tile " + std::to_string(m) + "x" + std::to_string(n) +
                     " is not a multiple of 8 x 4*kWidth (kWidth " + std::to_string(kWidth) + ")");
  const DimName in = dims::standardOut(inner), out = dims::standardOut(outer);
  const auto id = [](uint64_t n, DimName i, DimName o) {
    return LinearLayout::identity1D(n, i, o);
  };
  for (const auto& f :
       {id(kWidth, dims::reg(), in), id(4, dims::lane(), in), id(8, dims::lane(), out),
        id(uint64_t(m / 8), dims::reg(), out), id(uint64_t(n / (kWidth * 4)), dims::reg(), in)}) {
    // A kWidth or tile that is not a power of two fails here with the factor's message.
    if (auto err = multiplyInto(cta, f))
      return makeError("kWidth " + std::to_string(kWidth) + ": " + err->message);
  }
  return cta;
}

// Warps (or lanes) over `shape` in `order`, zero along `broadcastDim`.
Expected<LinearLayout> broadcastedDotOperandLayout(const std::vector<int64_t>& shape,
                                                   const std::vector<int>& order, int broadcastDim,
                                                   DimName inDim) {
  LinearLayout l;
  for (int d : order) {
    auto f = d == broadcastDim
                 ? LinearLayout::zeros1D(uint64_t(shape[d]), inDim, dims::standardOut(d))
                 : LinearLayout::identity1D(uint64_t(shape[d]), inDim, dims::standardOut(d));
    if (!f) return f.error();
    LAYOUT_TRY_ASSIGN(next, mul(l, *f));
    l = std::move(next);
  }
  return l;
}

bool isHopper(const AttrValue& mma) {
  const AttrValue* v = mma.find("versionMajor");
  return v && v->integer == 3;
}

} // namespace

Expected<LinearLayout> nvidiaMmaToLinearLayout(const AttrValue& attr,
                                               std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(warps, intList(attr, "warpsPerCTA"));
  LAYOUT_TRY_ASSIGN(instr, intList(attr, "instrShape"));
  const int rank = int(warps.size());
  if (auto err = checkRank(size_t(rank), shape)) return *err;
  const bool hopper = isHopper(attr);
  std::vector<int64_t> tile;
  if (hopper) {
    if (instr.size() < 2) return makeError(at(attr) + "instrShape needs [M, N, K] for version 3");
    tile = {instr[0], instr[1]};
  } else {
    tile = instr;
  }
  if (int(tile.size()) != rank)
    return makeError(at(*attr.find("instrShape")) + "instrShape does not match the rank " +
                     std::to_string(rank));
  const std::vector<int> order = matrixOrder(rank, true);
  LAYOUT_TRY_ASSIGN(cta, mmaTile(tile, 2, order, order));
  std::vector<uint64_t> w(warps.begin(), warps.end());
  LAYOUT_TRY_ASSIGN(warpLayout, identityStandardND(dims::warp(), w, matrixOrder(rank, !hopper)));
  LAYOUT_TRY_ASSIGN(warpT, warpLayout.transposeOuts(cta.outDimNames()));
  LAYOUT_TRY_ASSIGN(full, mul(cta, warpT));
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(attr, rank));
  return combineCtaCgaWithShape(full, cga, shape);
}

Expected<LinearLayout> dotOperandToLinearLayout(const AttrValue& attr,
                                                std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(opIdx, intParam(attr, "opIdx"));
  const AttrValue& parent = *attr.find("parent");
  const int rank = int(shape.size());
  const int kDim = opIdx == 0 ? rank - 1 : rank - 2;
  const AttrValue* kw = attr.find("kWidth");
  const int64_t kWidth = kw ? kw->integer : 0;
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(parent, rank));
  if (parent.text == "ttg.blocked") {
    // FMA: registers cover the whole K extent; lanes and warps are broadcast along K.
    LAYOUT_TRY_ASSIGN(spt, intList(parent, "sizePerThread"));
    LAYOUT_TRY_ASSIGN(tpw, intList(parent, "threadsPerWarp"));
    LAYOUT_TRY_ASSIGN(wpc, intList(parent, "warpsPerCTA"));
    LAYOUT_TRY_ASSIGN(order64, intList(parent, "order"));
    if (auto err = checkRank(order64.size(), shape)) return *err;
    const std::vector<int> order(order64.begin(), order64.end());
    spt[kDim] = shape[kDim];
    const std::vector<DimName> repNames = namesInOrder(order);
    LAYOUT_TRY_ASSIGN(regs, identityStandardND(
                                dims::reg(), std::vector<uint64_t>(spt.begin(), spt.end()), order));
    LAYOUT_TRY_ASSIGN(lanes, broadcastedDotOperandLayout(tpw, order, kDim, dims::lane()));
    LAYOUT_TRY_ASSIGN(warps, broadcastedDotOperandLayout(wpc, order, kDim, dims::warp()));
    LAYOUT_TRY_ASSIGN(r, regs.transposeOuts(repNames));
    LAYOUT_TRY_ASSIGN(l, lanes.transposeOuts(repNames));
    LAYOUT_TRY_ASSIGN(w, warps.transposeOuts(repNames));
    LAYOUT_TRY_ASSIGN(rl, mul(r, l));
    LAYOUT_TRY_ASSIGN(cta, mul(rl, w));
    return combineCtaCgaWithShape(cta, cga, shape);
  }
  if (parent.text == "ttg.nvidia_mma") {
    if (kWidth < 1)
      return makeError(at(attr) + "a dot operand of #ttg.nvidia_mma needs kWidth > 0");
    const bool isA = opIdx == 0;
    if (!isA && isHopper(parent))
      return makeError(at(attr) + "operand B of a version 3 (Hopper) MMA is read from shared "
                                  "memory and has no register layout");
    std::vector<int64_t> tile(rank, 1);
    if (isA) {
      tile[rank - 2] = 16;
      tile[rank - 1] = kWidth * 8;
    } else {
      tile[rank - 2] = kWidth * 8;
      tile[rank - 1] = 8;
    }
    const std::vector<int> order = dotOperandOrder(int(opIdx), rank);
    LAYOUT_TRY_ASSIGN(cta, mmaTile(tile, uint64_t(kWidth), order, order));
    LAYOUT_TRY_ASSIGN(warps, intList(parent, "warpsPerCTA"));
    LAYOUT_TRY_ASSIGN(w, broadcastedDotOperandLayout(warps, matrixOrder(rank, !isHopper(parent)),
                                                     kDim, dims::warp()));
    LAYOUT_TRY_ASSIGN(wt, w.transposeOuts(cta.outDimNames()));
    LAYOUT_TRY_ASSIGN(full, mul(cta, wt));
    return combineCtaCgaWithShape(full, cga, shape);
  }
  if (parent.text == "ttg.amd_mfma") return amdMfmaDotToLinearLayout(attr, parent, shape);
  return makeError("#ttg.dot_op with parent #" + parent.text +
                   ": the conversion of this encoding to a linear layout is not implemented yet");
}

} // namespace layout::triton::detail
