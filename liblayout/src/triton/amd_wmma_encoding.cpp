// AMD WMMA accumulators (#ttg.amd_wmma, versions 1-3, wave32) and their dot operands.
#include "encoding_internal.h"
#include "layout/text/internal/quoted_input.h"

#include <algorithm>
#include <bit>

namespace layout::triton::detail {

namespace {

// The parameters of an #ttg.amd_wmma attribute. The attribute verifier (encoding.cpp) gives the
// precise messages; these checks only keep the conversion safe for unverified input (a dot
// operand's parent is read here directly).
struct WmmaParams {
  int64_t version = 1;
  bool transposed = false;
  std::vector<int64_t> warps;
  std::vector<int64_t> tilesPerWarp;
  int64_t mDim = 16, nDim = 16, kDim = 16;
};

bool isPow2(int64_t x) {
  return x >= 1 && std::has_single_bit(uint64_t(x));
}

Expected<WmmaParams> wmmaParams(const AttrValue& attr) {
  WmmaParams p;
  LAYOUT_TRY_ASSIGN(version, intParam(attr, "version"));
  if (version < 1 || version > 3)
    return makeErrorAt(attr.find("version")->location,
                       std::string("#ttg.amd_wmma version must be 1, 2 or 3, not ") +
                           std::to_string(version));
  p.version = version;
  // Triton 3.6 spells it isTranspose; the seed's attribute definitions spell it isTransposed.
  for (const char* key : {"isTranspose", "isTransposed"})
    if (const AttrValue* v = attr.find(key)) {
      if (v->kind != AttrValue::Kind::Boolean)
        return makeErrorAt(v->location, std::string("'") + key + "' must be true or false");
      p.transposed = v->boolean;
    }
  LAYOUT_TRY_ASSIGN(warps, intList(attr, "warpsPerCTA"));
  if (warps.size() < 2 || warps.size() > 3)
    return makeErrorAt(attr.find("warpsPerCTA")->location, "#ttg.amd_wmma has rank 2 or 3");
  p.warps = warps;
  p.tilesPerWarp.assign(warps.size(), 1);
  if (attr.find("tilesPerWarp")) {
    LAYOUT_TRY_ASSIGN(tpw, intList(attr, "tilesPerWarp"));
    if (tpw.size() != warps.size())
      return makeErrorAt(attr.find("tilesPerWarp")->location,
                         std::string("tilesPerWarp must have rank ") +
                             std::to_string(warps.size()));
    p.tilesPerWarp = tpw;
  }
  for (const auto* list : {&p.warps, &p.tilesPerWarp})
    for (int64_t x : *list)
      if (!isPow2(x))
        return makeErrorAt(attr.location,
                           std::string("warpsPerCTA and tilesPerWarp need powers of two, not ") +
                               std::to_string(x));
  if (attr.find("instrShape")) {
    LAYOUT_TRY_ASSIGN(instr, intList(attr, "instrShape"));
    if (instr.size() != 3)
      return makeErrorAt(attr.find("instrShape")->location, "instrShape needs [M, N, K]");
    p.mDim = instr[0], p.nDim = instr[1], p.kDim = instr[2];
  }
  if (p.mDim != 16 || p.nDim != 16 || !isPow2(p.kDim))
    return makeErrorAt(attr.location,
                       std::string("#ttg.amd_wmma converts 16x16xK instructions only, not ") +
                           std::to_string(p.mDim) + "x" + std::to_string(p.nDim) + "x" +
                           std::to_string(p.kDim));
  return p;
}

// One WMMA instruction's accumulator tile, out-dims (across, along) = (N, M), (M, N) when
// transposed: 16 lanes across; registers along (version 1: every other row, +2, +4, +8; versions
// 2, 3: 8 consecutive rows, and for version 3's 32-row instruction 8 more, 16 rows down); lane 16
// goes to the next row (version 1) or 8 rows down.
Expected<LinearLayout> wmmaInstructionTile(int64_t version, bool transposed, int64_t instrM,
                                           DimName dimM, DimName dimN) {
  const DimName across = transposed ? dimM : dimN, along = transposed ? dimN : dimM;
  std::vector<std::vector<uint64_t>> regs =
      version == 1 ? std::vector<std::vector<uint64_t>>{{0, 2}, {0, 4}, {0, 8}}
                   : std::vector<std::vector<uint64_t>>{{0, 1}, {0, 2}, {0, 4}};
  if (version != 1 && instrM == 32) regs.push_back({0, 16});
  InDimBases lanes{dims::lane(),
                   {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, uint64_t(version == 1 ? 1 : 8)}}};
  return LinearLayout::create({{dims::reg(), regs}, lanes},
                              {{across, 16}, {along, uint64_t(instrM)}});
}

// The tile as Triton main builds it (getTileLayout): out-dims standard, then (rank 3) a size-1
// batch dim.
Expected<LinearLayout> wmmaTile(int64_t version, bool transposed, int64_t instrM, int rank) {
  const bool batch = rank == 3;
  const DimName dimM = dims::standardOut(batch ? 1 : 0), dimN = dims::standardOut(batch ? 2 : 1);
  LAYOUT_TRY_ASSIGN(tile, wmmaInstructionTile(version, transposed, instrM, dimM, dimN));
  if (batch) {
    const DimName dimB = dims::standardOut(0);
    for (auto f : {LinearLayout::identity1D(1, dims::reg(), dimB),
                   LinearLayout::identity1D(1, dims::lane(), dimB)})
      if (auto err = multiplyInto(tile, f); !err) return err.error();
  }
  std::vector<DimName> outs;
  for (int d = 0; d < rank; ++d) outs.push_back(dims::standardOut(d));
  return tile.transposeOuts(outs);
}

// Triton main's form: what the conversions read besides ctaLayout (verified by the encoding's
// verifier; the instruction shape defaults to 16x16x16).
struct WmmaMainParams {
  int64_t version = 1;
  std::vector<int64_t> instr{16, 16, 16};
  bool transposed = false;
};

Expected<WmmaMainParams> wmmaMainParams(const AttrValue& attr) {
  WmmaMainParams p;
  LAYOUT_TRY_ASSIGN(version, intParam(attr, "version"));
  p.version = version;
  if (attr.find("instrShape")) {
    LAYOUT_TRY_ASSIGN(list, intList(attr, "instrShape"));
    p.instr = list;
  }
  for (const char* key : {"isTranspose", "isTransposed"})
    if (const AttrValue* v = attr.find(key)) p.transposed = v->boolean;
  return p;
}

// One WMMA instruction's operand tile (wmmaDotOperandToLinearLayout): kWidth registers along K,
// 16 lanes along the non-K dim, lane 16 along K (version 1: a copy of lanes 0-15, both halves hold
// the same K values; versions 2, 3: the next kWidth values of K), registers along K up to the
// instruction's K, and for a 32-row instruction a second register block along the non-K dim.
Expected<LinearLayout> wmmaOperandTile(int64_t version, int64_t kWidth, int64_t nonKDim,
                                       int64_t kDim, DimName dimK, DimName dimNonK) {
  const DimName reg = dims::reg(), lane = dims::lane();
  const int64_t kDepth = 2;
  LinearLayout tile;
  auto times = [&tile](const Expected<LinearLayout>& f) { return multiplyInto(tile, f); };
  for (auto f : {LinearLayout::identity1D(uint64_t(kWidth), reg, dimK),
                 LinearLayout::identity1D(16, lane, dimNonK),
                 version == 1 ? LinearLayout::zeros1D(uint64_t(kDepth), lane, dimK)
                              : LinearLayout::identity1D(uint64_t(kDepth), lane, dimK),
                 LinearLayout::identity1D(uint64_t(kDim / kDepth / kWidth), reg, dimK)})
    if (auto err = times(f); !err) return err.error();
  if (nonKDim / 16 > 1)
    if (auto err = times(LinearLayout::identity1D(uint64_t(nonKDim / 16), reg, dimNonK)); !err)
      return err.error();
  return tile;
}

std::vector<DimName> reversedStandardOuts(int rank) {
  std::vector<DimName> outs;
  for (int d = rank - 1; d >= 0; --d) outs.push_back(dims::standardOut(d));
  return outs;
}

} // namespace

Expected<std::optional<LinearLayout>> wmmaCtaLayout(const AttrValue& attr) {
  const AttrValue* cta = attr.find("ctaLayout");
  if (!cta) return std::optional<LinearLayout>();
  if (cta->kind != AttrValue::Kind::Dict)
    return makeErrorAt(cta->location,
                       "'ctaLayout' must be a dictionary {register = [...], warp = [...]}");
  for (const auto& [key, value] : cta->entries)
    if (key != "register" && key != "warp")
      return makeErrorAt(value.location, "'ctaLayout' has the in-dims register and warp, not " +
                                             layout::detail::quoteInput(key));
  if (!cta->find("warp"))
    return makeErrorAt(cta->location, "Expected basis of 'warp' not found in 'ctaLayout'");
  int64_t rank = 0;
  for (const char* key : {"register", "warp"}) {
    if (!cta->find(key)) continue;
    LAYOUT_TRY_ASSIGN(bases, basesParam(*cta, key));
    for (const auto& b : bases) {
      if (rank == 0) rank = int64_t(b.size());
      if (int64_t(b.size()) != rank)
        return makeErrorAt(cta->find(key)->location, std::string("'ctaLayout' ") + key +
                                                         " bases have " + std::to_string(b.size()) +
                                                         " components, others " +
                                                         std::to_string(rank));
      for (int64_t x : b)
        if (x < 0)
          return makeErrorAt(cta->find(key)->location, std::string("'ctaLayout' ") + key +
                                                           " bases must be non-negative, not " +
                                                           std::to_string(x));
    }
  }
  int64_t serialized = 2;
  if (attr.find("rank")) {
    LAYOUT_TRY_ASSIGN(r, intParam(attr, "rank"));
    serialized = r;
  }
  if (rank == 0) rank = serialized;
  if (attr.find("rank") && rank != serialized)
    return makeErrorAt(attr.find("rank")->location,
                       "'rank' = " + std::to_string(serialized) + " but the ctaLayout bases have " +
                           std::to_string(rank) +
                           " components (Serialized rank and rank deduced from LL need to match)");
  if (rank < 2 || rank > 3)
    return makeErrorAt(cta->location, "#ttg.amd_wmma has rank 2 or 3, not " + std::to_string(rank));
  std::vector<DimName> outs;
  for (int d = 0; d < rank; ++d) outs.push_back(dims::standardOut(d));
  std::vector<InDimBases> ins;
  for (const char* key : {"register", "warp"}) {
    InDimBases in{std::string(key) == "register" ? dims::reg() : dims::warp(), {}};
    if (cta->find(key)) {
      LAYOUT_TRY_ASSIGN(bases, basesParam(*cta, key));
      for (const auto& b : bases) in.bases.push_back(std::vector<uint64_t>(b.begin(), b.end()));
    }
    ins.push_back(std::move(in));
  }
  auto l = LinearLayout::createSurjective(ins, outs);
  if (!l) return makeErrorAt(cta->location, "'ctaLayout': " + l.error().message);
  return std::optional<LinearLayout>(std::move(*l));
}

// Triton's AMDWmmaEncodingAttr::toLinearLayout. The 16x16 instruction tile, out-dims [lane
// direction, register direction] (N, M; M, N when transposed):
//   version 1: registers every other row (+2, +4, +8), 16 lanes across, lane 16 -> the next row;
//   versions 2, 3: registers 8 consecutive rows, 16 lanes across, lane 16 -> 8 rows down.
// Then, like amd_mfma: tilesPerWarp and warps along N, the repetitions that cover the whole
// tensor along N, tilesPerWarp and warps along M, the batch warps, and the CGA fit (which grows M
// and the batch dim in registers).
Expected<LinearLayout> amdWmmaToLinearLayout(const AttrValue& attr,
                                             std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(ctaLayout, wmmaCtaLayout(attr));
  if (ctaLayout) {
    // Triton main: the tile times the stored warp arrangement (in units of tiles), out-dims in
    // row-major repetition order, then the CGA fit.
    const int rank = int(ctaLayout->numOutDims());
    if (auto err = checkRank(size_t(rank), shape); !err) return err.error();
    LAYOUT_TRY_ASSIGN(m, wmmaMainParams(attr));
    LAYOUT_TRY_ASSIGN(tile, wmmaTile(m.version, m.transposed, m.instr.at(0), rank));
    LAYOUT_TRY_ASSIGN(full, product(tile, *ctaLayout));
    LAYOUT_TRY_ASSIGN(ordered, full.transposeOuts(reversedStandardOuts(rank)));
    LAYOUT_TRY_ASSIGN(cga, cgaLayout(attr, rank));
    return combineCtaCgaWithShape(ordered, cga, shape);
  }
  LAYOUT_TRY_ASSIGN(p, wmmaParams(attr));
  const int rank = int(p.warps.size());
  if (auto err = checkRank(size_t(rank), shape); !err) return err.error();
  const bool batch = rank == 3;
  const int mIndex = batch ? 1 : 0, nIndex = batch ? 2 : 1;
  for (int d : {mIndex, nIndex})
    if (shape[d] != 1 && shape[d] < 16)
      return makeError("shape: dim " + std::to_string(d) + " of a #ttg.amd_wmma tensor must be 1 " +
                       "or at least 16 (the instruction tile), not " + std::to_string(shape[d]));
  const DimName dimM = dims::standardOut(mIndex), dimN = dims::standardOut(nIndex);
  const DimName reg = dims::reg(), lane = dims::lane(), warp = dims::warp();
  LAYOUT_TRY_ASSIGN(t0, wmmaInstructionTile(p.version, p.transposed, 16, dimM, dimN));
  LAYOUT_TRY_ASSIGN(tile, t0.transposeOuts(std::vector<DimName>{dimN, dimM}));
  auto times = [&tile](const Expected<LinearLayout>& f) { return multiplyInto(tile, f); };
  // Divided one factor at a time: their product may not fit in 64 bits.
  const int64_t nReps = shape[nIndex] / p.nDim / p.warps[nIndex] / p.tilesPerWarp[nIndex];
  for (auto f : {LinearLayout::identity1D(uint64_t(p.tilesPerWarp[nIndex]), reg, dimN),
                 LinearLayout::identity1D(uint64_t(p.warps[nIndex]), warp, dimN),
                 LinearLayout::identity1D(uint64_t(nReps), reg, dimN),
                 LinearLayout::identity1D(uint64_t(p.tilesPerWarp[mIndex]), reg, dimM),
                 LinearLayout::identity1D(uint64_t(p.warps[mIndex]), warp, dimM)})
    if (auto err = times(f); !err) return err.error();
  if (batch) {
    const DimName dimB = dims::standardOut(0);
    for (auto f : {LinearLayout::identity1D(1, reg, dimB), LinearLayout::identity1D(1, lane, dimB),
                   LinearLayout::identity1D(uint64_t(p.warps[0]), warp, dimB)})
      if (auto err = times(f); !err) return err.error();
  }
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(attr, rank));
  return combineCtaCgaWithShape(tile, cga, shape);
}

namespace {

// Triton main's wmmaDotOperandToLinearLayout: the operand tile (kWidth registers along K, 16 lanes
// along non-K, 2 lanes along K (version 1: zero, a copy), registers along K to the instruction's
// K, and for a 32-row instruction a second register block along non-K) times the parent's
// ctaLayout with K projected away and the all-zero registers removed; out-dims [K, non-K, batch],
// then the CGA fit.
Expected<LinearLayout> wmmaMainDotToLinearLayout(int64_t opIdx, int64_t kWidth,
                                                 const AttrValue& wmma, const LinearLayout& cta,
                                                 std::span<const int64_t> shape) {
  const int rank = int(cta.numOutDims());
  if (auto err = checkRank(size_t(rank), shape); !err) return err.error();
  LAYOUT_TRY_ASSIGN(m, wmmaMainParams(wmma));
  const int64_t version = m.version;
  const std::vector<int64_t>& instr = m.instr;
  const bool batch = rank == 3;
  const int kIndex = opIdx == 0 ? rank - 1 : rank - 2;
  const int nonKIndex = opIdx == 0 ? rank - 2 : rank - 1;
  const DimName dimK = dims::standardOut(kIndex), dimNonK = dims::standardOut(nonKIndex);
  const DimName reg = dims::reg();
  const int64_t nonKDim = opIdx == 0 ? instr[0] : instr[1], kDim = instr[2], kDepth = 2;
  if (kDim % (kDepth * kWidth) != 0)
    return makeError("kWidth " + std::to_string(kWidth) + " does not divide the instruction's K " +
                     std::to_string(kDim) + " into the 2 lane groups of #ttg.amd_wmma");
  LAYOUT_TRY_ASSIGN(tile, wmmaOperandTile(version, kWidth, nonKDim, kDim, dimK, dimNonK));
  // projectAwayOutDim(ctaLayout, K), then drop the registers that became zero.
  const int k = cta.outDimIndex(dimK);
  std::vector<InDimBases> ins;
  for (int i = 0; i < cta.numInDims(); ++i) {
    InDimBases in{cta.inDimName(i), {}};
    for (int b = 0; b < cta.inDimSizeLog2(i); ++b) {
      std::vector<uint64_t> basis = cta.basis(i, b);
      basis[k] = 0;
      const bool zero = std::all_of(basis.begin(), basis.end(), [](uint64_t x) { return x == 0; });
      if (in.name == reg && zero) continue;
      in.bases.push_back(std::move(basis));
    }
    ins.push_back(std::move(in));
  }
  std::vector<DimName> outs;
  for (int d = 0; d < rank; ++d) outs.push_back(dims::standardOut(d));
  LAYOUT_TRY_ASSIGN(projected, LinearLayout::createSurjective(ins, outs));
  // Triton's product merges the out-dim orders (the tile's [K, non-K] against dim0..); only the
  // final order below matters, so the factor is put in the tile's order first.
  std::vector<DimName> order{dimK, dimNonK};
  if (batch) order.push_back(dims::standardOut(0));
  LAYOUT_TRY_ASSIGN(aligned, projected.transposeOuts(order));
  LAYOUT_TRY_ASSIGN(full, product(tile, aligned));
  LAYOUT_TRY_ASSIGN(ordered, full.transposeOuts(order));
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(wmma, rank));
  return combineCtaCgaWithShape(ordered, cga, shape);
}

} // namespace

// Triton's wmmaDotOperandToLinearLayout: kWidth registers along K, 16 lanes along the non-K dim,
// lane 16 along K (version 1: a copy of lanes 0-15, both halves hold the same K values; versions
// 2, 3: the next kWidth values of K), registers along K up to the instruction's K. Then the
// parent's tilesPerWarp registers (non-K dims only) and its warps, row-major over the dims, those
// along K broadcast. The CGA fit grows K first, then non-K, then the batch dim.
Expected<LinearLayout> amdWmmaDotToLinearLayout(const AttrValue& dot, const AttrValue& wmma,
                                                std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(opIdx, intParam(dot, "opIdx"));
  if (opIdx != 0 && opIdx != 1)
    return makeErrorAt(dot.find("opIdx")->location,
                       std::string("'opIdx' must be 0 or 1, not ") + std::to_string(opIdx));
  const AttrValue* kw = dot.find("kWidth");
  if (!kw) return makeErrorAt(dot.location, "a dot operand of #ttg.amd_wmma needs kWidth");
  LAYOUT_TRY_ASSIGN(kWidth, intParam(dot, "kWidth"));
  if (!isPow2(kWidth))
    return makeErrorAt(
        kw->location,
        std::string("kWidth of a dot operand of #ttg.amd_wmma must be a power of two, ") + "not " +
            std::to_string(kWidth));
  LAYOUT_TRY(encodingFromAttr(wmma)); // the parent's verifier (dot operands are not verified)
  LAYOUT_TRY_ASSIGN(ctaLayout, wmmaCtaLayout(wmma));
  if (ctaLayout) return wmmaMainDotToLinearLayout(opIdx, kWidth, wmma, *ctaLayout, shape);
  LAYOUT_TRY_ASSIGN(p, wmmaParams(wmma));
  const int rank = int(shape.size());
  if (auto err = checkRank(p.warps.size(), shape); !err) return err.error();
  const bool batch = rank == 3;
  const int mIndex = batch ? 1 : 0;
  const int kIndex = opIdx == 0 ? rank - 1 : rank - 2, nonKIndex = opIdx == 0 ? mIndex : rank - 1;
  const DimName dimK = dims::standardOut(kIndex), dimNonK = dims::standardOut(nonKIndex);
  const DimName reg = dims::reg(), lane = dims::lane(), warp = dims::warp();
  const int64_t nonKDim = opIdx == 0 ? p.mDim : p.nDim;
  LAYOUT_TRY_ASSIGN(tile, wmmaOperandTile(p.version, kWidth, nonKDim, p.kDim, dimK, dimNonK));
  auto times = [&tile](const Expected<LinearLayout>& f) { return multiplyInto(tile, f); };
  if (batch) {
    const DimName dimB = dims::standardOut(0);
    for (auto f : {LinearLayout::identity1D(1, reg, dimB), LinearLayout::identity1D(1, lane, dimB)})
      if (auto err = times(f); !err) return err.error();
  }
  // The parent's CTA part, dims in row-major order, projected onto the operand: nothing along K.
  LinearLayout cta;
  auto ctaTimes = [&cta](const Expected<LinearLayout>& f) { return multiplyInto(cta, f); };
  for (int d = rank - 1; d >= 0; --d) {
    const DimName dim = dims::standardOut(d);
    const bool isK = d == kIndex;
    for (auto f : {isK ? LinearLayout::identity1D(1, reg, dim)
                       : LinearLayout::identity1D(uint64_t(p.tilesPerWarp[d]), reg, dim),
                   isK ? LinearLayout::zeros1D(uint64_t(p.warps[d]), warp, dim)
                       : LinearLayout::identity1D(uint64_t(p.warps[d]), warp, dim)})
      if (auto err = ctaTimes(f); !err) return err.error();
  }
  LAYOUT_TRY_ASSIGN(ctaT, cta.transposeOuts(tile.outDimNames()));
  LAYOUT_TRY_ASSIGN(full, product(tile, ctaT));
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(wmma, rank));
  return combineCtaCgaWithShape(full, cga, shape);
}

} // namespace layout::triton::detail
