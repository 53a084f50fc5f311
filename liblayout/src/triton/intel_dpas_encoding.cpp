// Intel DPAS (#ttig.dpas, also spelled #triton_intel_gpu.dpas) accumulators and their dot
// operands, as intel-xpu-backend-for-triton's DpasEncodingAttr::verify and DPAStoLinearLayout
// (LinearLayoutConversions.cpp). See docs/reference/intel-xe.md §1.
#include "encoding_internal.h"

#include "layout/core/shape_fitting.h"

#include <algorithm>
#include <bit>
#include <set>

namespace layout::triton::detail {

namespace {

bool isPow2(int64_t x) {
  return x >= 1 && std::has_single_bit(uint64_t(x));
}

std::string show(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// Integer parameter `key` with a rule: the message names the parameter, its value and the rule.
// `rule` is Triton's DpasEncodingAttr::verify message, which ends with the value (", but was:9").
Expected<int64_t> checkedInt(const AttrValue& attr, const char* key, bool (*ok)(int64_t),
                             const char* rule) {
  LAYOUT_TRY_ASSIGN(v, intParam(attr, key));
  if (!ok(v))
    return makeErrorAt(attr.find(key)->location, std::string("'") + key +
                                                     "' = " + std::to_string(v) + ": " + rule +
                                                     ", but was:" + std::to_string(v));
  return v;
}

// warpsPerCTA / repCluster: powers of two of at most 2^20 (products of them cannot overflow).
Expected<void> checkCounts(const AttrValue& attr, const char* key, const std::vector<int64_t>& v) {
  for (int64_t x : v)
    if (!isPow2(x) || x > (int64_t{1} << 20))
      return makeErrorAt(
          attr.find(key)->location,
          std::string("'") + key + "' = " + show(v) +
              ": every entry must be a power of two in [1, 2^20] (linear layouts cannot "
              "represent " +
              std::to_string(x) + ")");
  return {};
}

// The printed per-warp shapes A, B, C of older Triton versions: accepted when they agree with the
// shapes derived from the other parameters.
Expected<void> checkDerivedShape(const AttrValue& attr, const char* key, int rank, int64_t rows,
                                 int64_t cols) {
  const AttrValue* v = attr.find(key);
  if (!v) return {};
  auto list = intList(attr, key);
  if (!list) return list.error();
  if (int(list->size()) != rank || (*list)[rank - 2] != rows || (*list)[rank - 1] != cols)
    return makeErrorAt(
        v->location, std::string("'") + key + "' = " + show(*list) +
                         " does not match the per-warp shape of operand " + key + " derived from " +
                         "repeatCount, systolicDepth, opsPerChan, executionSize and repCluster (" +
                         std::to_string(rows) + "x" + std::to_string(cols) + ")");
  return {};
}

} // namespace

Expected<IntelDpasParams> intelDpasParams(const AttrValue& attr) {
  if (auto err = checkParameterNames(EncodingKind::IntelDpas, attr); !err) return err.error();
  IntelDpasParams p;
  LAYOUT_TRY_ASSIGN(rc, checkedInt(
                            attr, "repeatCount", [](int64_t v) { return v >= 1 && v <= 8; },
                            "repeatCount must be in the range [1, 8]"));
  LAYOUT_TRY_ASSIGN(
      sd, checkedInt(
              attr, "systolicDepth", [](int64_t v) { return v == 8; }, "systolicDepth must be 8"));
  LAYOUT_TRY_ASSIGN(es, checkedInt(
                            attr, "executionSize", [](int64_t v) { return v == 16 || v == 8; },
                            "executionSize must be 16 (PVC, BMG) or 8 (ATS-M, DG2)"));
  LAYOUT_TRY_ASSIGN(opc,
                    checkedInt(
                        attr, "opsPerChan", [](int64_t v) { return v == 1 || v == 2 || v == 4; },
                        "opsPerChannel must be 1, 2 or 4"));
  LAYOUT_TRY_ASSIGN(tpw, intParam(attr, "threadsPerWarp"));
  if (!isPow2(tpw) || tpw < es || tpw > 32)
    return makeErrorAt(attr.find("threadsPerWarp")->location,
                       std::string("'threadsPerWarp' = ") + std::to_string(tpw) +
                           ": threadsPerWarp must be a power of two, at least executionSize (" +
                           std::to_string(es) + ") and at most 32");
  LAYOUT_TRY_ASSIGN(warps, intList(attr, "warpsPerCTA"));
  if (warps.size() != 2 && warps.size() != 3)
    return makeErrorAt(attr.find("warpsPerCTA")->location,
                       std::string("'warpsPerCTA' = ") + show(warps) + " has rank " +
                           std::to_string(warps.size()) + "; #ttig.dpas has rank 2 or 3");
  if (auto err = checkCounts(attr, "warpsPerCTA", warps); !err) return err.error();
  LAYOUT_TRY_ASSIGN(cluster, intList(attr, "repCluster"));
  if (cluster.size() != warps.size())
    return makeErrorAt(attr.find("repCluster")->location,
                       std::string("'repCluster' = ") + show(cluster) + " has rank " +
                           std::to_string(cluster.size()) + " but 'warpsPerCTA' has rank " +
                           std::to_string(warps.size()) + "; they must agree");
  if (auto err = checkCounts(attr, "repCluster", cluster); !err) return err.error();
  if (const AttrValue* v = attr.find("fp4KPack")) {
    LAYOUT_TRY_ASSIGN(pack, intParam(attr, "fp4KPack"));
    if (pack != 2)
      return makeErrorAt(v->location, std::string("'fp4KPack' = ") + std::to_string(pack) +
                                          ": fp4KPack must be 2");
    if (opc != 4)
      return makeErrorAt(v->location, std::string("'fp4KPack' needs opsPerChan = 4, not ") +
                                          std::to_string(opc));
    p.fp4KPack = pack;
  }
  p.repeatCount = rc, p.systolicDepth = sd, p.executionSize = es, p.opsPerChan = opc;
  p.threadsPerWarp = tpw, p.warpsPerCTA = warps, p.repCluster = cluster;
  p.rank = int(warps.size());
  const int r = p.rank;
  const int64_t k = sd * opc;
  if (auto err = checkDerivedShape(attr, "A", r, rc * cluster[r - 2], k); !err) return err.error();
  if (auto err = checkDerivedShape(attr, "B", r, k, es * cluster[r - 1]); !err) return err.error();
  if (auto err = checkDerivedShape(attr, "C", r, rc * cluster[r - 2], es * cluster[r - 1]); !err)
    return err.error();
  LAYOUT_TRY(cgaLayout(attr, r));
  return p;
}

namespace {

using Bases = std::vector<std::vector<uint64_t>>;

// DPAStoLinearLayout for operand `opIdx` (0 = A, 1 = B, 2 = C): the instruction tile over the two
// minor dims, repCluster and warps, the repetitions over the shape, then the CGA fit.
Expected<LinearLayout> dpasLayout(const AttrValue& dpas, const IntelDpasParams& p, int opIdx,
                                  std::span<const int64_t> shape) {
  const int rank = p.rank;
  if (auto err = checkRank(size_t(rank), shape); !err) return err.error();
  const int64_t rc = p.repeatCount, sd = p.systolicDepth, es = p.executionSize, opc = p.opsPerChan,
                tpw = p.threadsPerWarp;
  if (!isPow2(rc))
    return makeErrorAt(dpas.find("repeatCount")->location,
                       std::string("'repeatCount' = ") + std::to_string(rc) +
                           ": a linear layout needs a power of two here (1, 2, 4 or 8)");
  Bases regs, lanes;
  if (opIdx == 0) {
    const int64_t packed = opc == 4 ? 2 : 1; // 8-bit A travels in i16 pairs
    const int64_t cols = sd * opc / packed;
    if (cols > tpw)
      return makeErrorAt(dpas.location,
                         std::string("operand A of #ttig.dpas with opsPerChan = ") +
                             std::to_string(opc) + " has " + std::to_string(cols) +
                             " packed columns per row but threadsPerWarp is " +
                             std::to_string(tpw) +
                             "; Triton's DPAStoLinearLayout does not model this (its lane count "
                             "would exceed the " +
                             "sub-group size, intel-xpu-backend-for-triton issue #4861)");
    const int64_t rowsPerWarp = (tpw + cols - 1) / cols;
    for (int64_t o = 1; o < packed; o *= 2) regs.push_back({0, uint64_t(o)});
    for (int64_t w = 1; w < rc / rowsPerWarp; w *= 2)
      regs.push_back({uint64_t(w * rowsPerWarp), 0});
    for (int64_t t = 1; t < cols; t *= 2) lanes.push_back({0, uint64_t(packed * t)});
    for (int64_t t = cols; t < tpw; t *= 2) lanes.push_back({uint64_t(t / cols), 0});
  } else if (opIdx == 1) {
    const int64_t rowsPerWarp = tpw / es;
    for (int64_t o = 1; o < opc; o *= 2) regs.push_back({uint64_t(o), 0});
    for (int64_t r = rowsPerWarp; r < sd; r *= 2) regs.push_back({uint64_t(r * opc), 0});
    for (int64_t t = 1; t < es; t *= 2) lanes.push_back({0, uint64_t(t)});
    for (int64_t row = 1; row < rowsPerWarp; row *= 2) lanes.push_back({uint64_t(row * opc), 0});
  } else {
    const int64_t rowsPerWarp = tpw / es;
    for (int64_t r = rowsPerWarp; r < rc; r *= 2) regs.push_back({uint64_t(r), 0});
    for (int64_t t = 1; t < es; t *= 2) lanes.push_back({0, uint64_t(t)});
    for (int64_t row = 1; row < rowsPerWarp; row *= 2) lanes.push_back({uint64_t(row), 0});
  }
  const DimName dimM = dims::standardOut(rank - 2), dimN = dims::standardOut(rank - 1);
  const DimName reg = dims::reg(), lane = dims::lane(), warp = dims::warp();
  LAYOUT_TRY_ASSIGN(tile, LinearLayout::createSurjective({{reg, regs}, {lane, lanes}},
                                                         std::vector<DimName>{dimM, dimN}));
  const auto& warps = p.warpsPerCTA;
  const auto& cluster = p.repCluster;
  const uint64_t wM = uint64_t(warps[rank - 2]), wN = uint64_t(warps[rank - 1]);
  const uint64_t cM = uint64_t(cluster[rank - 2]), cN = uint64_t(cluster[rank - 1]);
  // Size-1 factors first: they fix the out-dim order [M, N] of the tile for the product.
  SmallVector<Factor1D, 16> f = {{1, reg, dimM}, {1, reg, dimN}};
  if (opIdx == 0) {
    f.push_back({cM, reg, dimM});
    f.push_back({wN, warp, dimN, /*zeros=*/true});
    f.push_back({wM, warp, dimM});
  } else if (opIdx == 1) {
    f.push_back({cN, reg, dimN});
    f.push_back({wN, warp, dimN});
    f.push_back({wM, warp, dimM, /*zeros=*/true});
  } else {
    f.push_back({cN, reg, dimN});
    f.push_back({cM, reg, dimM});
    f.push_back({wN, warp, dimN});
    f.push_back({wM, warp, dimM});
  }
  const DimName dimB = dims::standardOut(0);
  if (rank == 3) f.push_back({uint64_t(warps[0]), warp, dimB});
  // getDPASRepetitions: floor division clamped to 1; the per-warp shapes have batch extent 1.
  // Divided one factor at a time so that nothing overflows. Upstream's DPAS layouts have one CTA;
  // with CTA-layout fields the repetitions cover the shape of one CTA.
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(dpas, rank));
  const std::vector<int64_t> ctaShape = shapePerCTA(cga, shape);
  auto reps = [](int64_t size, int64_t perWarp, int64_t nWarps) {
    return uint64_t(std::max<int64_t>(1, size / perWarp / nWarps));
  };
  const int64_t k = sd * opc, sM = ctaShape[size_t(rank - 2)], sN = ctaShape[size_t(rank - 1)];
  if (opIdx == 0) {
    f.push_back({reps(sN, k, 1), reg, dimN});
    f.push_back({reps(sM, rc * int64_t(cM), int64_t(wM)), reg, dimM});
  } else if (opIdx == 1) {
    f.push_back({reps(sM, k, 1), reg, dimM});
    f.push_back({reps(sN, es * int64_t(cN), int64_t(wN)), reg, dimN});
  } else {
    f.push_back({reps(sN, es * int64_t(cN), int64_t(wN)), reg, dimN});
    f.push_back({reps(sM, rc * int64_t(cM), int64_t(wM)), reg, dimM});
  }
  if (rank == 3) f.push_back({reps(ctaShape[0], 1, warps[0]), reg, dimB});
  LAYOUT_TRY_ASSIGN(rest, productOf1D({f.data(), f.size()}));
  LAYOUT_TRY_ASSIGN(cta, product(tile, rest));
  return combineCtaCgaWithShape(cta, cga, shape);
}

} // namespace

Expected<LinearLayout> intelDpasToLinearLayout(const AttrValue& attr,
                                               std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(p, intelDpasParams(attr));
  return dpasLayout(attr, p, 2, shape);
}

// The dot-operand rules of upstream Triton's DotOperandEncodingAttr::verify for a DPAS parent:
// kWidth = opsPerChan / 2 for A (1 when opsPerChan is 1) and opsPerChan for B; A also needs
// repeatCount * (opsPerChan == 1 ? systolicDepth : 2 * systolicDepth) >= threadsPerWarp.
// DPAStoLinearLayout itself ignores kWidth.
Expected<LinearLayout> intelDpasDotToLinearLayout(const AttrValue& dot, const AttrValue& dpas,
                                                  std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(p, intelDpasParams(dpas));
  LAYOUT_TRY_ASSIGN(opIdx, intParam(dot, "opIdx"));
  if (opIdx != 0 && opIdx != 1)
    return makeErrorAt(dot.find("opIdx")->location,
                       std::string("'opIdx' = ") + std::to_string(opIdx) +
                           ": a dot operand of #ttig.dpas is operand 0 (A) or 1 (B)");
  const AttrValue* kw = dot.find("kWidth");
  int64_t kWidth = 0;
  if (kw) {
    LAYOUT_TRY_ASSIGN(v, intParam(dot, "kWidth"));
    kWidth = v;
  }
  const int64_t opc = p.opsPerChan;
  const int64_t want = opIdx == 1 ? opc : (opc == 1 ? 1 : opc / 2);
  if (kWidth != want)
    return makeErrorAt((kw ? *kw : dot).location,
                       std::string("kWidth = ") + std::to_string(kWidth) +
                           ": ttg.dot_op kWidth parameter must match the parent's opsPerChannel (" +
                           "operand " +
                           (opIdx == 0 ? "A needs opsPerChan / 2, or 1 when opsPerChan is 1"
                                       : "B needs opsPerChan") +
                           ": kWidth = " + std::to_string(want) + ")");
  if (opIdx == 0) {
    const int64_t perRow = opc == 1 ? p.systolicDepth : 2 * p.systolicDepth;
    if (p.repeatCount * perRow < p.threadsPerWarp)
      return makeErrorAt(dpas.location,
                         "operand A of #ttig.dpas needs repeatCount * (opsPerChan == 1 "
                         "? systolicDepth : 2 * systolicDepth) >= threadsPerWarp, but " +
                             std::to_string(p.repeatCount) + " * " + std::to_string(perRow) +
                             " < " + std::to_string(p.threadsPerWarp));
  }
  return dpasLayout(dpas, p, int(opIdx), shape);
}

} // namespace layout::triton::detail

namespace layout::triton {

Expected<IntelDpasParams> intelDpasParams(const Encoding& encoding) {
  const AttrValue* dpas = &encoding.attr;
  if (encoding.kind == EncodingKind::DotOperand) dpas = encoding.attr.find("parent");
  if (!dpas || dpas->kind != AttrValue::Kind::Attribute ||
      (dpas->text != "ttig.dpas" && dpas->text != "triton_intel_gpu.dpas"))
    return makeError("expected a #ttig.dpas encoding or a #ttg.dot_op of one, not " +
                     encoding.text());
  return detail::intelDpasParams(*dpas);
}

Expected<int> dotOperandIndex(const Encoding& encoding) {
  if (encoding.kind != EncodingKind::DotOperand)
    return makeError("expected a #ttg.dot_op, not " + encoding.text());
  LAYOUT_TRY_ASSIGN(opIdx, detail::intParam(encoding.attr, "opIdx"));
  return int(opIdx);
}

} // namespace layout::triton
