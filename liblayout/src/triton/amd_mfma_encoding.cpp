// AMD MFMA accumulators (#ttg.amd_mfma), wave size 64.
#include "encoding_internal.h"

#include "layout/core/shape_fitting.h"

#include <bit>

namespace layout::triton::detail {

// The MFMA shapes Triton defines layouts for (the seed's older 4x4 is not one of them), with
// AMDMfmaEncodingAttr::verify's message.
Expected<void> checkMfmaInstrShape(const AttrValue& mfma, int64_t mDim, int64_t nDim) {
  if ((mDim == 32 && nDim == 32) || (mDim == 16 && nDim == 16) || (mDim == 64 && nDim == 4) ||
      (mDim == 4 && nDim == 64))
    return {};
  return makeErrorAt(mfma.find("instrShape")->location,
                     std::string("invalid (mDim, nDim) combination: (") + std::to_string(mDim) +
                         ", " + std::to_string(nDim) +
                         ") (#ttg.amd_mfma has layouts for M x N = 32x32, 16x16, 64x4 and 4x64)");
}

namespace {

// warpsPerCTA / tilesPerWarp: `rank` entries, each a power of two of at most 2^20 (so products of
// them cannot overflow).
Expected<void> checkCounts(const AttrValue& attr, const char* key, const std::vector<int64_t>& v,
                           int rank) {
  const AttrValue& where = attr.find(key) ? *attr.find(key) : attr;
  if (int(v.size()) != rank)
    return makeErrorAt(where.location,
                       std::string("'") + key + "' must have rank " + std::to_string(rank));
  for (int64_t x : v)
    if (x < 1 || x > (int64_t{1} << 20) || !std::has_single_bit(uint64_t(x)))
      return makeErrorAt(where.location, std::string("'") + key +
                                             "' entries must be powers of two in [1, 2^20], not " +
                                             std::to_string(x));
  return {};
}

} // namespace

// Triton's AMDMfmaEncodingAttr::toLinearLayout: the instruction tile (height registers along M,
// lanes along N then M; transposed swaps M and N), then tilesPerWarp and warps along N, the
// repetitions that cover the whole tensor along N, tilesPerWarp and warps along M, the batch
// warps, and finally the CGA fit. Tiles stay N-contiguous because the dot lowering expects it.
Expected<LinearLayout> amdMfmaToLinearLayout(const AttrValue& attr,
                                             std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(warps, intList(attr, "warpsPerCTA"));
  LAYOUT_TRY_ASSIGN(instr, intList(attr, "instrShape"));
  const int rank = int(warps.size());
  if (auto err = checkRank(size_t(rank), shape); !err) return err.error();
  if (rank < 2 || rank > 3) return makeErrorAt(attr.location, "#ttg.amd_mfma has rank 2 or 3");
  if (instr.size() < 2) return makeErrorAt(attr.location, "instrShape needs [M, N, K]");
  std::vector<int64_t> tilesPerWarp(rank, 1);
  if (attr.find("tilesPerWarp")) {
    LAYOUT_TRY_ASSIGN(tpw, intList(attr, "tilesPerWarp"));
    tilesPerWarp = tpw;
  }
  if (auto err = checkCounts(attr, "warpsPerCTA", warps, rank); !err) return err.error();
  if (auto err = checkCounts(attr, "tilesPerWarp", tilesPerWarp, rank); !err) return err.error();
  const AttrValue* bits = attr.find("elementBitWidth");
  const AttrValue* transposedAttr = attr.find("isTransposed");
  const bool transposed = transposedAttr && transposedAttr->boolean;
  const int64_t height = bits && bits->integer == 64 ? 1 : 4;
  const int64_t warpSize = 64, mDim = instr[0], nDim = instr[1];
  if (auto err = checkMfmaInstrShape(attr, mDim, nDim); !err) return err.error();
  const bool batch = rank == 3;
  const int mIndex = batch ? 1 : 0, nIndex = batch ? 2 : 1;
  const DimName dimM = dims::standardOut(mIndex), dimN = dims::standardOut(nIndex);
  const DimName reg = dims::reg(), lane = dims::lane(), warp = dims::warp();
  const int64_t tiles = (mDim * nDim) / (warpSize * height);

  LinearLayout tile;
  auto times = [&tile](const Expected<LinearLayout>& f) { return multiplyInto(tile, f); };
  const DimName along = transposed ? dimN : dimM, across = transposed ? dimM : dimN;
  const int64_t lanesAcross = transposed ? mDim : nDim;
  for (auto f : {LinearLayout::identity1D(uint64_t(height), reg, along),
                 LinearLayout::identity1D(uint64_t(lanesAcross), lane, across),
                 LinearLayout::identity1D(uint64_t(warpSize / lanesAcross), lane, along)})
    if (auto err = times(f); !err) return err.error();
  if (tiles > 0)
    if (auto err = times(LinearLayout::identity1D(uint64_t(tiles), reg, along)); !err)
      return err.error();
  LAYOUT_TRY_ASSIGN(t, tile.transposeOuts(std::vector<DimName>{dimN, dimM}));
  tile = std::move(t);
  const int64_t nReps = shape[nIndex] / (nDim * warps[nIndex] * tilesPerWarp[nIndex]);
  for (auto f : {LinearLayout::identity1D(uint64_t(tilesPerWarp[nIndex]), reg, dimN),
                 LinearLayout::identity1D(uint64_t(warps[nIndex]), warp, dimN),
                 LinearLayout::identity1D(uint64_t(nReps), reg, dimN),
                 LinearLayout::identity1D(uint64_t(tilesPerWarp[mIndex]), reg, dimM),
                 LinearLayout::identity1D(uint64_t(warps[mIndex]), warp, dimM)})
    if (auto err = times(f); !err) return err.error();
  if (batch) {
    const DimName dimB = dims::standardOut(0);
    for (auto f : {LinearLayout::identity1D(1, reg, dimB), LinearLayout::identity1D(1, lane, dimB),
                   LinearLayout::identity1D(uint64_t(warps[0]), warp, dimB)})
      if (auto err = times(f); !err) return err.error();
  }
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(attr, rank));
  return combineCtaCgaWithShape(tile, cga, shape);
}

} // namespace layout::triton::detail

namespace layout::triton::detail {

// Triton's mfmaDotToLinearLayout: kWidth registers along K, nonKDim lanes along non-K, the rest of
// the wave along K; repeated along K to cover the tensor (16x for the 4x64 / 64x4 instructions),
// tilesPerWarp along non-K; warps row-major over [M, N] (those landing on K are broadcast by the
// shape fit). Out order [K, nonK] during the fit.
Expected<LinearLayout> amdMfmaDotToLinearLayout(const AttrValue& dot, const AttrValue& mfma,
                                                std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(opIdx, intParam(dot, "opIdx"));
  LAYOUT_TRY_ASSIGN(kWidth, intParam(dot, "kWidth"));
  LAYOUT_TRY_ASSIGN(warps, intList(mfma, "warpsPerCTA"));
  LAYOUT_TRY_ASSIGN(instr, intList(mfma, "instrShape"));
  const int rank = int(shape.size());
  if (auto err = checkRank(warps.size(), shape); !err) return err.error();
  if (kWidth < 1)
    return makeErrorAt(dot.location, "a dot operand of #ttg.amd_mfma needs kWidth > 0");
  std::vector<int64_t> tilesPerWarp(rank, 1);
  if (mfma.find("tilesPerWarp")) {
    LAYOUT_TRY_ASSIGN(tpw, intList(mfma, "tilesPerWarp"));
    tilesPerWarp = tpw;
  }
  if (auto err = checkCounts(mfma, "warpsPerCTA", warps, rank); !err) return err.error();
  if (auto err = checkCounts(mfma, "tilesPerWarp", tilesPerWarp, rank); !err) return err.error();
  const bool batch = rank == 3;
  const int mIndex = batch ? 1 : 0, nIndex = batch ? 2 : 1;
  const int kIndex = opIdx == 0 ? rank - 1 : rank - 2, nonKIndex = opIdx == 0 ? mIndex : nIndex;
  const int64_t mDim = instr[0], nDim = instr[1], warpSize = 64;
  if (auto err = checkMfmaInstrShape(mfma, mDim, nDim); !err) return err.error();
  const int64_t nonKDim = opIdx == 0 ? mDim : nDim;
  const DimName dimK = dims::standardOut(kIndex), dimNonK = dims::standardOut(nonKIndex);
  const DimName reg = dims::reg(), lane = dims::lane();
  LinearLayout tile;
  auto times = [&tile](const Expected<LinearLayout>& f) { return multiplyInto(tile, f); };
  for (auto f : {LinearLayout::identity1D(uint64_t(kWidth), reg, dimK),
                 LinearLayout::identity1D(uint64_t(nonKDim), lane, dimNonK),
                 LinearLayout::identity1D(uint64_t(warpSize / nonKDim), lane, dimK)})
    if (auto err = times(f); !err) return err.error();
  // In 128 bits: kWidth alone may be 2^62, and the K tile a multiple of it.
  unsigned __int128 kTile = (unsigned __int128)(warpSize / nonKDim) * uint64_t(kWidth);
  if ((mDim == 64 && nDim == 4 && opIdx == 0) || (mDim == 4 && nDim == 64 && opIdx == 1)) {
    if (auto err = times(LinearLayout::identity1D(16, reg, dimK)); !err) return err.error();
    kTile *= 16;
  }
  if (shape[kIndex] > 0 && uint64_t(shape[kIndex]) > kTile)
    if (auto err =
            times(LinearLayout::identity1D(uint64_t(uint64_t(shape[kIndex]) / kTile), reg, dimK));
        !err)
      return err.error();
  if (auto err = times(LinearLayout::identity1D(uint64_t(tilesPerWarp[nonKIndex]), reg, dimNonK));
      !err)
    return err.error();
  LAYOUT_TRY_ASSIGN(t, tile.transposeOuts(std::vector<DimName>{dimK, dimNonK}));
  tile = std::move(t);
  if (batch) {
    for (auto f : {LinearLayout::identity1D(1, reg, dims::standardOut(0)),
                   LinearLayout::identity1D(1, lane, dims::standardOut(0))})
      if (auto err = times(f); !err) return err.error();
  }
  std::vector<int> warpOrder(rank);
  for (int d = 0; d < rank; ++d) warpOrder[d] = rank - 1 - d;
  LAYOUT_TRY_ASSIGN(w, identityStandardND(dims::warp(),
                                          std::vector<uint64_t>(warps.begin(), warps.end()),
                                          warpOrder));
  LAYOUT_TRY_ASSIGN(wt, w.transposeOuts(tile.outDimNames()));
  LAYOUT_TRY_ASSIGN(cta, product(tile, wt));
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(mfma, rank));
  return combineCtaCgaWithShape(cta, cga, shape);
}

} // namespace layout::triton::detail
