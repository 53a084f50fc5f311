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

// nvidiaMmaTile as product factors: kWidth registers and 4 lanes along the inner dim, 8 lanes
// along the outer dim, then registers repeat m/8 times along the outer and n/(4 kWidth) times along
// the inner dim (after size-1 register factors that fix the out-dim order to repOrder).
Expected<void> appendMmaTile(SmallVector<Factor1D, 16>& factors, const std::vector<int64_t>& tile,
                             uint64_t kWidth, const std::vector<int>& order,
                             const std::vector<int>& repOrder) {
  const int inner = order[0], outer = order[1];
  const int64_t m = tile[outer], n = tile[inner];
  // 4 * kWidth in 128 bits: a kWidth of 2^62 or more would wrap to 0 and divide by it.
  const unsigned __int128 kSpan = (unsigned __int128)kWidth * 4;
  if (m % 8 != 0 || n <= 0 || kSpan > (unsigned __int128)n || n % int64_t(kSpan) != 0)
    return Error{"the MMA tile " + std::to_string(m) + "x" + std::to_string(n) +
                 " is not a multiple of 8 x 4*kWidth (kWidth " + std::to_string(kWidth) + ")"};
  if (!std::has_single_bit(kWidth))
    return Error{"kWidth " + std::to_string(kWidth) + " must be a power of two"};
  for (int d : repOrder) factors.push_back({1, dims::reg(), dims::standardOut(d)});
  const DimName in = dims::standardOut(inner), out = dims::standardOut(outer);
  for (const Factor1D& f :
       {Factor1D{kWidth, dims::reg(), in}, Factor1D{4, dims::lane(), in},
        Factor1D{8, dims::lane(), out}, Factor1D{uint64_t(m / 8), dims::reg(), out},
        Factor1D{uint64_t(n / (kWidth * 4)), dims::reg(), in}})
    factors.push_back(f);
  return {};
}

// Warps (or lanes) over `shape` in `order`, zero along `broadcastDim` (-1: none), as factors.
void appendBroadcastedDotOperand(SmallVector<Factor1D, 16>& factors,
                                 const std::vector<int64_t>& shape, const std::vector<int>& order,
                                 int broadcastDim, DimName inDim) {
  for (int d : order)
    factors.push_back({uint64_t(shape[size_t(d)]), inDim, dims::standardOut(d), d == broadcastDim});
}

Expected<LinearLayout> chain(const SmallVector<Factor1D, 16>& factors) {
  return productOf1D({factors.data(), factors.size()});
}

bool isHopper(const AttrValue& mma) {
  const AttrValue* v = mma.find("versionMajor");
  return v && v->integer == 3;
}

} // namespace

Expected<LinearLayout> nvidiaMmaToLinearLayout(const AttrValue& attr,
                                               std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(major, intParam(attr, "versionMajor"));
  if (major != 2 && major != 3)
    return makeErrorAt(
        attr.find("versionMajor")->location,
        std::string("versionMajor = ") + std::to_string(major) +
            ": Triton converts #ttg.nvidia_mma to a linear layout for versionMajor 2 "
            "(Ampere) and 3 (Hopper) only");
  LAYOUT_TRY_ASSIGN(warps, intList(attr, "warpsPerCTA"));
  LAYOUT_TRY_ASSIGN(instr, intList(attr, "instrShape"));
  const int rank = int(warps.size());
  if (auto err = checkRank(size_t(rank), shape); !err) return err.error();
  const bool hopper = isHopper(attr);
  std::vector<int64_t> tile;
  if (hopper) {
    if (instr.size() < 2)
      return makeErrorAt(attr.location, "instrShape needs [M, N, K] for version 3");
    tile = {instr[0], instr[1]};
  } else {
    tile = instr;
  }
  if (int(tile.size()) != rank)
    return makeErrorAt(attr.find("instrShape")->location,
                       std::string("instrShape does not match the rank ") + std::to_string(rank));
  const std::vector<int> order = matrixOrder(rank, true);
  // The tile, then the warps in the (v2 row-major, v3 column-major) warp order.
  SmallVector<Factor1D, 16> factors;
  if (auto err = appendMmaTile(factors, tile, 2, order, order); !err) return err.error();
  appendBroadcastedDotOperand(factors, warps, matrixOrder(rank, !hopper), -1, dims::warp());
  LAYOUT_TRY_ASSIGN(full, chain(factors));
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
    if (auto err = checkRank(order64.size(), shape); !err) return err.error();
    const std::vector<int> order(order64.begin(), order64.end());
    spt[kDim] = shape[kDim];
    const std::vector<DimName> repNames = namesInOrder(order);
    LAYOUT_TRY_ASSIGN(regs, identityStandardND(
                                dims::reg(), std::vector<uint64_t>(spt.begin(), spt.end()), order));
    SmallVector<Factor1D, 16> lw;
    appendBroadcastedDotOperand(lw, tpw, order, kDim, dims::lane());
    appendBroadcastedDotOperand(lw, wpc, order, kDim, dims::warp());
    LAYOUT_TRY_ASSIGN(lanesWarps, chain(lw));
    LAYOUT_TRY_ASSIGN(r, regs.transposeOuts(repNames));
    LAYOUT_TRY_ASSIGN(cta, mul(r, lanesWarps));
    return combineCtaCgaWithShape(cta, cga, shape);
  }
  if (parent.text == "ttg.nvidia_mma") {
    if (kWidth < 1)
      return makeErrorAt(attr.location, "a dot operand of #ttg.nvidia_mma needs kWidth > 0");
    if (!std::has_single_bit(uint64_t(kWidth)))
      return makeErrorAt(kw->location, std::string("kWidth ") + std::to_string(kWidth) +
                                           " must be a power of two");
    // The operand's tile spans 8 * kWidth elements along K: past 2^62 it does not fit 64 bits.
    if (kWidth > (int64_t{1} << 59))
      return makeErrorAt(kw->location, std::string("kWidth ") + std::to_string(kWidth) +
                                           " is too large: the operand's tile of 8 * kWidth "
                                           "elements along K passes 2^62");
    LAYOUT_TRY_ASSIGN(parentWarps, intList(parent, "warpsPerCTA"));
    if (auto err = checkRank(parentWarps.size(), shape); !err) return err.error();
    if (rank < 2) return makeErrorAt(parent.location, "#ttg.nvidia_mma has rank 2 or 3");
    const bool isA = opIdx == 0;
    if (!isA && isHopper(parent))
      return makeErrorAt(attr.location, "operand B of a version 3 (Hopper) MMA is read from shared "
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
    SmallVector<Factor1D, 16> factors;
    if (auto err = appendMmaTile(factors, tile, uint64_t(kWidth), order, order); !err)
      return err.error();
    appendBroadcastedDotOperand(factors, parentWarps, matrixOrder(rank, !isHopper(parent)), kDim,
                                dims::warp());
    LAYOUT_TRY_ASSIGN(full, chain(factors));
    return combineCtaCgaWithShape(full, cga, shape);
  }
  if (parent.text == "ttg.amd_mfma") return amdMfmaDotToLinearLayout(attr, parent, shape);
  if (parent.text == "ttg.amd_wmma") return amdWmmaDotToLinearLayout(attr, parent, shape);
  if (parent.text == "ttig.dpas") return intelDpasDotToLinearLayout(attr, parent, shape);
  return makeError("#ttg.dot_op with parent #" + parent.text +
                   ": the conversion of this encoding to a linear layout is not implemented yet");
}

} // namespace layout::triton::detail
