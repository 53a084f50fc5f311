// AMD MFMA accumulators (#ttg.amd_mfma), wave size 64.
#include "encoding_internal.h"

namespace layout::triton::detail {

// Triton's AMDMfmaEncodingAttr::toLinearLayout: the instruction tile (height registers along M,
// lanes along N then M; transposed swaps M and N), then tilesPerWarp and warps along N, the
// repetitions that cover the whole tensor along N, tilesPerWarp and warps along M, the batch
// warps, and finally the CGA fit. Tiles stay N-contiguous because the dot lowering expects it.
Expected<LinearLayout> amdMfmaToLinearLayout(const AttrValue& attr, std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(warps, intList(attr, "warpsPerCTA"));
  LAYOUT_TRY_ASSIGN(instr, intList(attr, "instrShape"));
  const int rank = int(warps.size());
  if (rank != int(shape.size()))
    return makeError("the encoding has rank " + std::to_string(rank) +
                     " but the tensor shape has rank " + std::to_string(shape.size()));
  if (rank < 2 || rank > 3) return makeError(at(attr) + "#ttg.amd_mfma has rank 2 or 3");
  if (instr.size() < 2) return makeError(at(attr) + "instrShape needs [M, N, K]");
  std::vector<int64_t> tilesPerWarp(rank, 1);
  if (attr.find("tilesPerWarp")) {
    LAYOUT_TRY_ASSIGN(tpw, intList(attr, "tilesPerWarp"));
    if (int(tpw.size()) != rank)
      return makeError(at(*attr.find("tilesPerWarp")) + "tilesPerWarp must have rank " +
                       std::to_string(rank));
    tilesPerWarp = tpw;
  }
  const AttrValue* bits = attr.find("elementBitWidth");
  const AttrValue* transposedAttr = attr.find("isTransposed");
  const bool transposed = transposedAttr && transposedAttr->boolean;
  const int64_t height = bits && bits->integer == 64 ? 1 : 4;
  const int64_t warpSize = 64, mDim = instr[0], nDim = instr[1];
  if (mDim < 1 || nDim < 1 || warpSize % nDim != 0 || warpSize % mDim != 0)
    return makeError(at(*attr.find("instrShape")) + "instrShape " + std::to_string(mDim) + "x" +
                     std::to_string(nDim) + " does not fit a wave of 64 lanes");
  const bool batch = rank == 3;
  const int mIndex = batch ? 1 : 0, nIndex = batch ? 2 : 1;
  const DimName dimM = dims::standardOut(mIndex), dimN = dims::standardOut(nIndex);
  const DimName reg = dims::reg(), lane = dims::lane(), warp = dims::warp();
  const int64_t tiles = (mDim * nDim) / (warpSize * height);

  LinearLayout tile;
  auto times = [&tile](Expected<LinearLayout> f) -> std::optional<Error> {
    if (!f) return f.error();
    auto next = product(tile, *f);
    if (!next) return next.error();
    tile = std::move(*next);
    return std::nullopt;
  };
  const DimName along = transposed ? dimN : dimM, across = transposed ? dimM : dimN;
  const int64_t lanesAcross = transposed ? mDim : nDim;
  for (auto f : {LinearLayout::identity1D(uint64_t(height), reg, along),
                 LinearLayout::identity1D(uint64_t(lanesAcross), lane, across),
                 LinearLayout::identity1D(uint64_t(warpSize / lanesAcross), lane, along)})
    if (auto err = times(f)) return *err;
  if (tiles > 0)
    if (auto err = times(LinearLayout::identity1D(uint64_t(tiles), reg, along))) return *err;
  LAYOUT_TRY_ASSIGN(t, tile.transposeOuts(std::vector<DimName>{dimN, dimM}));
  tile = std::move(t);
  const int64_t nReps = shape[nIndex] / (nDim * warps[nIndex] * tilesPerWarp[nIndex]);
  for (auto f : {LinearLayout::identity1D(uint64_t(tilesPerWarp[nIndex]), reg, dimN),
                 LinearLayout::identity1D(uint64_t(warps[nIndex]), warp, dimN),
                 LinearLayout::identity1D(uint64_t(nReps), reg, dimN),
                 LinearLayout::identity1D(uint64_t(tilesPerWarp[mIndex]), reg, dimM),
                 LinearLayout::identity1D(uint64_t(warps[mIndex]), warp, dimM)})
    if (auto err = times(f)) return *err;
  if (batch) {
    const DimName dimB = dims::standardOut(0);
    for (auto f : {LinearLayout::identity1D(1, reg, dimB), LinearLayout::identity1D(1, lane, dimB),
                   LinearLayout::identity1D(uint64_t(warps[0]), warp, dimB)})
      if (auto err = times(f)) return *err;
  }
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(attr, rank));
  return combineCtaCgaWithShape(tile, cga, shape);
}

} // namespace layout::triton::detail
