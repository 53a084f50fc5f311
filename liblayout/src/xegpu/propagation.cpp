// Backward layout propagation through one op (xegpu.md §7 "source-from-result rules", the RFC's
// propagation section and its sg_map tables for DPAS on PVC and ARC).
#include "layout/xegpu/propagation.h"

#include "propagation_ops.h"
#include "propagation_util.h"

#include "layout/core/conversion_kind.h"
#include "layout/core/element_bits.h"
#include "layout/target/hardware_target.h"
#include "layout/text/internal/list_text.h"
#include "layout/text/internal/quoted_input.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <type_traits>
#include <variant>

namespace layout::xegpu {

using layout::detail::listText;

namespace {

using Field = std::vector<int64_t>;

int64_t product(const Field& v) {
  return std::accumulate(v.begin(), v.end(), int64_t{1}, std::multiplies<>());
}

// The size fields of a layout, for rules that treat them alike.
std::vector<Field*> sizeFields(XeLayout& l) {
  return {&l.sgLayout, &l.sgData, &l.instData, &l.laneLayout, &l.laneData};
}
std::vector<Field*> dataFields(XeLayout& l) {
  return {&l.sgData, &l.instData, &l.laneData};
}

Error opError(const std::string& op, const std::string& message) {
  return Error{op + ": " + message};
}

Expected<XeLayout> plainResult(const std::string& op, const XeLayout& r) {
  if (r.isSlice)
    return opError(op, "the result layout " + r.text +
                           " is a slice; this op propagates plain layouts only");
  return r;
}

// transposeDims(p): size fields new[i] = old[p[i]]; order newOrder[i] = p^-1[oldOrder[i]] over
// the effective order (a default order becomes explicit), kept only with sg_layout or
// lane_layout (xegpu.md §6, after llvm#205212).
Expected<XeLayout> transposeDims(const XeLayout& l, const Field& p, const std::string& op) {
  const int rank = l.rootRank();
  if (int(p.size()) != rank)
    return opError(op, "the permutation " + listText(p) + " has " + std::to_string(p.size()) +
                           " entries but the layout has rank " + std::to_string(rank));
  Field inverse(p.size(), -1);
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] < 0 || p[i] >= rank || inverse[size_t(p[i])] >= 0)
      return opError(op, "the permutation " + listText(p) + " is not a permutation of 0.." +
                             std::to_string(rank - 1));
    inverse[size_t(p[i])] = int64_t(i);
  }
  XeLayout out = l;
  for (Field* f : sizeFields(out))
    if (!f->empty()) {
      Field old = *f;
      for (size_t i = 0; i < p.size(); ++i) (*f)[i] = old[size_t(p[i])];
    }
  if (l.form == XeLayout::Form::Layout && (!l.sgLayout.empty() || !l.laneLayout.empty())) {
    const Field old = l.effectiveOrder();
    out.order.assign(old.size(), 0);
    for (size_t i = 0; i < old.size(); ++i) out.order[i] = inverse[size_t(old[i])];
  } else {
    out.order.clear();
  }
  return out;
}

Field inversePermutation(const Field& p) {
  Field inv(p.size(), 0);
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] >= 0 && size_t(p[i]) < p.size()) inv[size_t(p[i])] = int64_t(i);
  return inv;
}

// Adds root dims to the slice (given as dims of the layout's current, sliced, view).
Expected<XeLayout> sliceMore(const XeLayout& l, const Field& viewDims, const std::string& op) {
  const Field kept = l.keptDims();
  XeLayout out = l;
  for (int64_t d : viewDims) {
    if (d < 0 || d >= int64_t(kept.size()))
      return opError(op, "dim " + std::to_string(d) + " is not a dim of " + l.text);
    out.sliceDims.push_back(kept[size_t(d)]);
  }
  std::sort(out.sliceDims.begin(), out.sliceDims.end());
  if (std::adjacent_find(out.sliceDims.begin(), out.sliceDims.end()) != out.sliceDims.end())
    return opError(op, "a dim is sliced twice");
  out.isSlice = !out.sliceDims.empty();
  if (out.form == XeLayout::Form::SgMap)
    return opError(op, "an #xegpu.sg_map cannot be sliced; use #xegpu.layout");
  return out;
}

// ---- dpas ---------------------------------------------------------------------------------

struct LaneMap {
  Field layout, data;
};

// The RFC's sg_map tables ("Rules of sg_map setting for load and store on PVC and ARC"): per
// target and type class, the lane maps of A, B and C, and the DPAS shape (M rows, K, N).
struct DpasOperands {
  LaneMap a, b, c;
  int64_t k, n;
};

Expected<DpasOperands> dpasTable(const std::string& targetName, const std::string& type) {
  auto hw = target::hardwareTarget(targetName);
  if (!hw) return withContext(hw.error(), "dpas");
  if (!hw->dpas) {
    std::string names;
    for (const auto& t : target::builtinTargets())
      if (t.dpas) names += (names.empty() ? "" : ", ") + t.name;
    return makeError("dpas: target '" + hw->name +
                     "' has no DPAS unit (targets with one: " + names + ")");
  }
  // The RFC's tables cover the two DPAS widths: 16 lanes (PVC, BMG) and 8 (ARC).
  const int64_t lanes = hw->dpas->executionSize;
  if (lanes != 16 && lanes != 8)
    return makeError("dpas: target '" + hw->name + "' has executionSize " + std::to_string(lanes) +
                     "; the sg_map tables cover 16 and 8");
  const bool sixteen = lanes == 16;
  enum { Half, Tf32, Int8 } cls;
  if (type == "bf16" || type == "f16" || type == "fp16")
    cls = Half;
  else if (type == "tf32")
    cls = Tf32;
  else if (type == "i8" || type == "si8" || type == "ui8" || type == "u8" || type == "s8")
    cls = Int8;
  else
    return makeError("dpas: unsupported element type " + layout::detail::quoteInput(type) +
                     " (expected bf16, f16, tf32, i8, si8, ui8)");
  const char* unitType = cls == Half   ? (type == "bf16" ? "bf16" : "f16")
                         : cls == Tf32 ? "tf32"
                                       : "int8";
  if (!hw->dpas->supports(unitType))
    return makeError("dpas: target '" + hw->name + "' has no " + unitType + " DPAS");
  // K = systolic depth x ops per channel (32-bit channel: 2 halves, 4 bytes, 1 tf32).
  const int64_t k = hw->dpas->systolicDepth * (cls == Half ? 2 : cls == Tf32 ? 1 : 4);
  DpasOperands t;
  t.k = k;
  t.n = lanes;
  t.c = {{1, lanes}, {1, 1}};
  if (sixteen) {
    // A: 16-bit units (tf32 spreads an 8x8 tile over [2, 8] lanes); B: 32-bit VNNI units.
    t.a = cls == Half   ? LaneMap{{1, 16}, {1, 1}}
          : cls == Tf32 ? LaneMap{{2, 8}, {1, 1}}
                        : LaneMap{{1, 16}, {1, 2}};
    t.b = cls == Half   ? LaneMap{{1, 16}, {2, 1}}
          : cls == Tf32 ? LaneMap{{1, 16}, {1, 1}}
                        : LaneMap{{1, 16}, {4, 1}};
  } else {
    // ARC: every unit is 32 bits.
    t.a = cls == Half   ? LaneMap{{1, 8}, {1, 2}}
          : cls == Tf32 ? LaneMap{{1, 8}, {1, 1}}
                        : LaneMap{{1, 8}, {1, 4}};
    t.b = cls == Half   ? LaneMap{{1, 8}, {2, 1}}
          : cls == Tf32 ? LaneMap{{1, 8}, {1, 1}}
                        : LaneMap{{1, 8}, {4, 1}};
  }
  return t;
}

// ---- shape_cast ---------------------------------------------------------------------------

// Groups of consecutive dims of `fine` whose sizes multiply to each dim of `coarse`, or nullopt.
std::optional<std::vector<std::pair<int, int>>> dimGroups(const Field& coarse, const Field& fine) {
  std::vector<std::pair<int, int>> groups;
  size_t j = 0;
  for (size_t c = 0; c < coarse.size(); ++c) {
    if (j >= fine.size()) return std::nullopt;
    const size_t begin = j;
    int64_t p = fine[j++];
    while (p < coarse[c] && j < fine.size()) p *= fine[j++];
    if (p != coarse[c]) return std::nullopt;
    if (c + 1 == coarse.size()) // trailing unit dims join the last group
      while (j < fine.size() && fine[j] == 1) ++j;
    groups.push_back({int(begin), int(j)});
  }
  if (j != fine.size()) return std::nullopt;
  return groups;
}

// collapseDims per group: size fields multiplied over the group at its first dim; order drops
// the other members and is renumbered by rank (xegpu.md §6).
Expected<XeLayout> collapse(const XeLayout& r, const std::vector<std::pair<int, int>>& groups) {
  XeLayout out = r;
  for (Field* f : sizeFields(out)) {
    if (f->empty()) continue;
    Field merged;
    for (auto [b, e] : groups) {
      int64_t p = 1;
      for (int d = b; d < e; ++d) p *= (*f)[size_t(d)];
      merged.push_back(p);
    }
    *f = merged;
  }
  if (!r.order.empty()) {
    std::vector<int64_t> kept;
    for (int64_t d : r.order) {
      bool drop = false;
      for (auto [b, e] : groups)
        if (d > b && d < e) drop = true;
      if (!drop) kept.push_back(d);
    }
    // Group members must be adjacent in the order (upstream: "dimensions being collapsed must
    // be adjacent (in order)").
    for (auto [b, e] : groups) {
      if (e - b < 2) continue;
      auto pos = [&](int64_t d) {
        return std::find(r.order.begin(), r.order.end(), d) - r.order.begin();
      };
      int64_t lo = pos(b), hi = pos(b);
      for (int d = b; d < e; ++d) {
        lo = std::min<int64_t>(lo, pos(d));
        hi = std::max<int64_t>(hi, pos(d));
      }
      if (hi - lo != e - b - 1)
        return opError("shape_cast", "dimensions being collapsed must be adjacent (in order)");
    }
    Field sorted = kept;
    std::sort(sorted.begin(), sorted.end());
    out.order.clear();
    for (int64_t d : kept)
      out.order.push_back(std::lower_bound(sorted.begin(), sorted.end(), d) - sorted.begin());
  }
  return out;
}

// Splits one level (grid `g` of blocks of `data`) of a dim over `sizes` (outer to inner): data
// fills the innermost dims first, then the grid the capacity left, as a row-major reshape of
// the block structure would.
std::optional<std::pair<Field, Field>> splitLevel(const Field& sizes, int64_t data, int64_t grid) {
  Field d(sizes.size(), 1), l(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 0;) {
    const int64_t take = std::min(data, sizes[i]);
    if (take < 1 || sizes[i] % take || data % take) return std::nullopt;
    d[i] = take;
    data /= take;
  }
  if (data != 1) return std::nullopt;
  for (size_t i = sizes.size(); i-- > 0;) {
    const int64_t cap = sizes[i] / d[i];
    const int64_t take = std::min(grid, cap);
    if (take < 1 || cap % take || grid % take) return std::nullopt;
    l[i] = take;
    grid /= take;
  }
  if (grid != 1) return std::nullopt;
  return std::make_pair(d, l);
}

// expandDim per group (the inverse of collapse): each result dim's levels split over the
// source dims of its group; the order lists a group's dims innermost first where the result
// listed the group.
Expected<XeLayout> expand(const XeLayout& r, const Field& sourceShape,
                          const std::vector<std::pair<int, int>>& groups) {
  XeLayout out = r;
  const int rank = int(sourceShape.size());
  for (Field* f : sizeFields(out))
    if (!f->empty()) f->assign(size_t(rank), 1);
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto [b, e] = groups[g];
    // Levels from the outside in: subgroups over the shape, instruction tiles within sg_data,
    // lanes within the instruction tile (or sg_data). Each level's data fills the innermost
    // source dims first.
    Field sizes(sourceShape.begin() + b, sourceShape.begin() + e);
    struct LevelFields {
      const Field& grid; // empty: a tile level (inst_data), grid 1
      const Field& data;
      Field& gridOut;
      Field& dataOut;
    };
    const Field none;
    Field ignored;
    const LevelFields levels[] = {{r.sgLayout, r.sgData, out.sgLayout, out.sgData},
                                  {none, r.instData, ignored, out.instData},
                                  {r.laneLayout, r.laneData, out.laneLayout, out.laneData}};
    for (const LevelFields& level : levels) {
      if (level.data.empty()) continue;
      const int64_t grid = level.grid.empty() ? 1 : level.grid[g];
      auto split = splitLevel(sizes, level.data[g], grid);
      if (!split)
        return opError("shape_cast", "cannot split dim " + std::to_string(g) + " of " + r.text +
                                         " over the source dims " + listText(sizes));
      for (int d = b; d < e; ++d) {
        level.dataOut[size_t(d)] = split->first[size_t(d - b)];
        if (!level.grid.empty()) level.gridOut[size_t(d)] = split->second[size_t(d - b)];
      }
      sizes = split->first; // the next level lives inside one block of this one
    }
  }
  if (!r.order.empty()) {
    out.order.clear();
    for (int64_t d : r.order)
      for (int s = groups[size_t(d)].second; s-- > groups[size_t(d)].first;) out.order.push_back(s);
  }
  return out;
}

} // namespace

// ---- the rules, one per request type -------------------------------------------------------

Expected<DpasLayouts> propagate(const DpasRequest& req) {
  const XeLayout& r = req.result;
  LAYOUT_TRY_ASSIGN(t, dpasTable(req.target, req.elementType));
  if (r.isSlice || r.rootRank() != 2)
    return opError("dpas", "the result layout must be a plain rank-2 layout, not " + r.text);
  if (req.shapeA.size() != 2 || req.shapeB.size() != 2 || req.shapeA[1] != req.shapeB[0])
    return opError("dpas", "shapeA [M, K] and shapeB [K, N] must be rank 2 with the same K, got " +
                               listText(req.shapeA) + " and " + listText(req.shapeB));
  const int64_t kTotal = req.shapeA[1];
  if (!r.laneLayout.empty() && (r.laneLayout != t.c.layout || r.laneData != t.c.data))
    return opError("dpas", "the result's lane layout " + listText(r.laneLayout) + " / lane data " +
                               listText(r.laneData) + " is not the " + req.target +
                               " DPAS accumulator layout " + listText(t.c.layout) + " / " +
                               listText(t.c.data));
  XeLayout a = r, b = r;
  auto setLanes = [&](XeLayout& x, const LaneMap& m) {
    // Lane-level results (sg_map, or lane fields present) carry the table's lane maps.
    if (r.form == XeLayout::Form::SgMap || !r.laneLayout.empty()) {
      x.laneLayout = m.layout;
      x.laneData = m.data;
    }
  };
  setLanes(a, t.a);
  setLanes(b, t.b);
  if (!r.sgLayout.empty()) {
    // The RFC: same sg_layout and order; sg_data of M and N from the result, K not split.
    a.sgData = {r.sgData[0], kTotal};
    b.sgData = {kTotal, r.sgData[1]};
  }
  if (!r.instData.empty()) {
    a.instData = {r.instData[0], t.k};
    b.instData = {t.k, r.instData[1]};
  }
  LAYOUT_TRY_ASSIGN(ta, detail::verifiedText(a, "dpas operand a"));
  LAYOUT_TRY_ASSIGN(tb, detail::verifiedText(b, "dpas operand b"));
  LAYOUT_TRY_ASSIGN(tc, detail::verifiedText(r, "dpas operand c"));
  return DpasLayouts{ta, tb, tc};
}

Expected<SourceLayout> propagate(const ShapeCastRequest& req) {
  const XeLayout& r = req.result;
  const Field &src = req.sourceShape, &res = req.resultShape;
  if (product(src) != product(res) || src.empty() || res.empty())
    return opError("shape_cast", "the shapes " + listText(src) + " and " + listText(res) +
                                     " do not have the same number of elements");
  if (int(res.size()) != r.rank())
    return opError("shape_cast", "the result layout has rank " + std::to_string(r.rank()) +
                                     " but the result shape " + listText(res) + " has rank " +
                                     std::to_string(res.size()));
  // (1) Unit dims inserted: the source is the result with those dims sliced away.
  if (res.size() > src.size()) {
    Field unitDims;
    size_t j = 0;
    for (size_t i = 0; i < res.size(); ++i) {
      if (j < src.size() && res[i] == src[j] && !(res[i] == 1 && res.size() - i > src.size() - j))
        ++j;
      else if (res[i] == 1)
        unitDims.push_back(int64_t(i));
      else
        break;
    }
    if (j == src.size() && unitDims.size() == res.size() - src.size()) {
      LAYOUT_TRY_ASSIGN(s, sliceMore(r, unitDims, "shape_cast"));
      LAYOUT_TRY_ASSIGN(text, detail::verifiedText(s, "shape_cast source"));
      return SourceLayout{text};
    }
  }
  LAYOUT_TRY_ASSIGN(plain, plainResult("shape_cast", r));
  // (2) Source dims split into result dims: collapse the result's groups.
  if (auto groups = dimGroups(src, res)) {
    LAYOUT_TRY_ASSIGN(s, collapse(plain, *groups));
    LAYOUT_TRY_ASSIGN(text, detail::verifiedText(s, "shape_cast source"));
    return SourceLayout{text};
  }
  // (3) Source dims merged into result dims: expand each result dim over its group.
  if (auto groups = dimGroups(res, src)) {
    LAYOUT_TRY_ASSIGN(s, expand(plain, src, *groups));
    LAYOUT_TRY_ASSIGN(text, detail::verifiedText(s, "shape_cast source"));
    return SourceLayout{text};
  }
  return opError("shape_cast", "no layout: " + listText(src) + " -> " + listText(res) +
                                   " is neither a unit-dim expansion, a split nor a merge of dims");
}

// ---- the other ops -------------------------------------------------------------------------

Expected<SourceLayout> propagate(const BroadcastRequest& req) {
  const XeLayout& r = req.result;
  const Field &src = req.sourceShape, &res = req.resultShape;
  if (int(res.size()) != r.rank())
    return opError("broadcast", "the result layout has rank " + std::to_string(r.rank()) +
                                    " but the result shape " + listText(res) + " has rank " +
                                    std::to_string(res.size()));
  XeLayout s = r;
  Field sliceDims;
  if (!req.broadcastDims.empty()) {
    // The RFC's form: the listed result dims are new; the source is the result without them.
    sliceDims = req.broadcastDims;
    if (src.size() + sliceDims.size() != res.size())
      return opError("broadcast", "broadcastDims " + listText(sliceDims) + " do not take " +
                                      listText(res) + " to " + listText(src));
  } else {
    // Upstream: unit source dims stretched to the result get data 1; new leading dims are
    // sliced away.
    if (src.size() > res.size())
      return opError("broadcast", "the source " + listText(src) +
                                      " has more dims than the result " + listText(res));
    const size_t d = res.size() - src.size();
    Field bcast;
    for (size_t i = d; i < res.size(); ++i) {
      if (src[i - d] == 1 && res[i] != 1)
        bcast.push_back(int64_t(i));
      else if (src[i - d] != res[i])
        return opError("broadcast", listText(src) + " does not broadcast to " + listText(res));
    }
    const Field kept = s.keptDims();
    for (int64_t i : bcast)
      for (Field* f : dataFields(s))
        if (!f->empty()) (*f)[size_t(kept[size_t(i)])] = 1;
    if (d > 0) {
      bool leadingUnits = true;
      for (size_t i = 0; i < d; ++i) leadingUnits = leadingUnits && res[i] == 1;
      if (bcast.size() == d && leadingUnits) {
        sliceDims = bcast;
      } else {
        for (size_t i = 0; i < d; ++i) sliceDims.push_back(int64_t(i));
      }
    }
  }
  if (!sliceDims.empty()) {
    LAYOUT_TRY_ASSIGN(sliced, sliceMore(s, sliceDims, "broadcast"));
    s = sliced;
  }
  LAYOUT_TRY_ASSIGN(text, detail::verifiedText(s, "broadcast source"));
  return SourceLayout{text};
}

Expected<SourceLayout> propagate(const MultiReductionRequest& req) {
  const XeLayout& r = req.result;
  Field dims = req.reductionDims;
  std::sort(dims.begin(), dims.end());
  if (!r.isSlice || dims != r.sliceDims)
    return opError("multi_reduction", "the result layout must be an #xegpu.slice whose dims are "
                                      "the reduction dims " +
                                          listText(req.reductionDims) + ", not " + r.text);
  XeLayout s = r;
  s.sliceDims.clear();
  s.isSlice = false;
  LAYOUT_TRY_ASSIGN(text, detail::verifiedText(s, "multi_reduction source"));
  return SourceLayout{text};
}

Expected<SourceLayout> propagate(const TransposeRequest& req) {
  const XeLayout& r = req.result;
  LAYOUT_TRY_ASSIGN(plain, plainResult("transpose", r));
  if (req.permutation.size() != size_t(r.rootRank()))
    return opError("transpose", "the permutation " + listText(req.permutation) +
                                    " does not match the rank " + std::to_string(r.rootRank()));
  std::vector<bool> seen(req.permutation.size());
  for (int64_t p : req.permutation) {
    if (p < 0 || size_t(p) >= seen.size() || seen[size_t(p)])
      return opError("transpose",
                     "the permutation " + listText(req.permutation) + " is not a permutation");
    seen[size_t(p)] = true;
  }
  // vector.transpose: result dim i is source dim perm[i], so the source is the result
  // transposed by the inverse permutation.
  LAYOUT_TRY_ASSIGN(s, transposeDims(plain, inversePermutation(req.permutation), "transpose"));
  LAYOUT_TRY_ASSIGN(text, detail::verifiedText(s, "transpose source"));
  return SourceLayout{text};
}

Expected<SourceLayout> propagate(const BitcastRequest& req) {
  const XeLayout& r = req.result;
  const int s = req.sourceBits, res = req.resultBits;
  const std::set<int> widths = {1, 4, 8, 16, 32, 64};
  if (!widths.count(s) || !widths.count(res))
    return opError("bitcast", "sourceBits and resultBits must be element widths (1, 4, 8, 16, 32 "
                              "or 64), got " +
                                  std::to_string(s) + " and " + std::to_string(res));
  LAYOUT_TRY_ASSIGN(plain, plainResult("bitcast", r));
  XeLayout out = plain;
  const size_t inner = size_t(out.rootRank() - 1);
  for (Field* f : dataFields(out)) {
    if (f->empty()) continue;
    int64_t& v = (*f)[inner];
    if (s <= res) {
      v *= res / s;
    } else {
      if (v % (s / res))
        return opError("bitcast", "the innermost data " + std::to_string(v) + " of " + r.text +
                                      " holds no whole number of " + std::to_string(s) +
                                      "-bit source elements");
      v /= s / res;
    }
  }
  LAYOUT_TRY_ASSIGN(text, detail::verifiedText(out, "bitcast source"));
  return SourceLayout{text};
}

Expected<TensorDescLayout> propagate(const LoadNdRequest& req) {
  LAYOUT_TRY_ASSIGN(plain, plainResult("load_nd", req.result));
  const int bits = req.elementBits;
  if (!isElementBits(bits))
    return opError("load_nd",
                   "elementBits must be " + elementBitsText() + ", got " + std::to_string(bits));
  const int rank = plain.rootRank();
  XeLayout desc = plain;
  if (req.transpose) {
    if (req.packed)
      return opError("load_nd", "VNNI transformation (packed) and transpose can not be combined");
    // Which unit widths the hardware transposes is the block load's business (its validation
    // names the rule); the RFC also shows 16-bit transposes at the layout level.
    const int unit = req.transposeBitWidth ? req.transposeBitWidth : bits;
    if (req.transposeBitWidth && req.transposeBitWidth < bits)
      return opError("load_nd", "transpose_bit_width " + std::to_string(req.transposeBitWidth) +
                                    " is narrower than the " + std::to_string(bits) +
                                    "-bit elements");
    // The result holds the transposed units: unit / bits elements stacked along dim rank-2.
    const int64_t per = unit / bits;
    if (per > 1 && rank >= 2 && !plain.laneData.empty() && plain.laneData[size_t(rank - 2)] != per)
      return opError("load_nd", "with transpose_bit_width " + std::to_string(unit) + " on " +
                                    std::to_string(bits) + "-bit elements the result's lane_data[" +
                                    std::to_string(rank - 2) + "] must be " + std::to_string(per) +
                                    ", got " + listText(plain.laneData));
    LAYOUT_TRY_ASSIGN(t, transposeDims(plain, inversePermutation(*req.transpose), "load_nd"));
    desc = t;
    // Upstream gives the descriptor the transposed lane fields and keeps the consumer's order
    // attribute as it is: no order when the result has none (propagate-layout.mlir,
    // load_with_transpose_effect: lane_layout = [16, 1], lane_data = [1, 2]).
    if (plain.order.empty()) desc.order.clear();
  } else if (req.packed) {
    if (bits != 8 && bits != 16)
      return opError("load_nd", "VNNI (packed) applies to 8- and 16-bit elements only");
    const int64_t per = 32 / bits;
    if (rank < 2 || (!plain.laneData.empty() && plain.laneData[size_t(rank - 2)] != per))
      return opError("load_nd", "a packed (VNNI) load of " + std::to_string(bits) +
                                    "-bit elements needs lane_data[" + std::to_string(rank - 2) +
                                    "] = " + std::to_string(per) + ", got " +
                                    listText(plain.laneData));
  }
  LAYOUT_TRY_ASSIGN(text, detail::verifiedText(desc, "load_nd tensor_desc"));
  return TensorDescLayout{text};
}

// convert_layout: the conversion planner's classification of the two linear layouts
// (layout/core/conversion_kind.h), in the words of XeGPU.
Expected<ConvertLayoutCost> propagate(const ConvertLayoutRequest& req) {
  LAYOUT_TRY_ASSIGN(a, toLinearLayout(req.input, req.shape));
  LAYOUT_TRY_ASSIGN(b, toLinearLayout(req.result, req.shape));
  auto cls = classifyConversion(a, b);
  if (!cls) return withContext(cls.error(), "convert_layout");
  switch (cls->kind) {
  case ConversionKind::None:
    return ConvertLayoutCost{DataMovement::None};
  case ConversionKind::RegisterPermutation:
    return ConvertLayoutCost{DataMovement::Registers};
  case ConversionKind::WarpShuffle:
    return ConvertLayoutCost{DataMovement::Lanes};
  case ConversionKind::SharedMemory:
    break;
  }
  return ConvertLayoutCost{DataMovement::Subgroups};
}

std::string_view dataMovementName(DataMovement movement) {
  switch (movement) {
  case DataMovement::None:
    return "none";
  case DataMovement::Registers:
    return "registers";
  case DataMovement::Lanes:
    return "lanes";
  case DataMovement::Subgroups:
    break;
  }
  return "subgroups";
}

std::string printXegpu(const XeLayout& l) {
  auto field = [](std::string& s, const char* key, const Field& v) {
    if (v.empty()) return;
    s += (s.empty() ? "" : ", ") + std::string(key) + " = " + listText(v);
  };
  std::string body;
  if (l.form == XeLayout::Form::SgMap) {
    field(body, "wi_layout", l.laneLayout);
    field(body, "wi_data", l.laneData);
    return "#xegpu.sg_map<" + body + ">";
  }
  field(body, "sg_layout", l.sgLayout);
  field(body, "sg_data", l.sgData);
  field(body, "inst_data", l.instData);
  field(body, "lane_layout", l.laneLayout);
  field(body, "lane_data", l.laneData);
  field(body, "order", l.order);
  std::string text = "#xegpu.layout<" + body + ">";
  if (!l.sliceDims.empty())
    text = "#xegpu.slice<" + text + ", dims = " + listText(l.sliceDims) + ">";
  return text;
}

const std::vector<std::string>& propagationOps() {
  static const std::vector<std::string> ops = {
      "dpas",    "multi_reduction", "broadcast",  "shape_cast",          "transpose",
      "bitcast", "extract",         "interleave", "deinterleave",        "insert_strided_slice",
      "load_nd", "convert_layout",  "compatible", "sg_layout_candidates"};
  return ops;
}

namespace detail {

Expected<DpasInstShape> dpasInstShape(const std::string& target, const std::string& type) {
  LAYOUT_TRY_ASSIGN(t, dpasTable(target, type));
  auto hw = target::hardwareTarget(target);
  if (!hw) return withContext(hw.error(), "dpas");
  return DpasInstShape{hw->dpas->maxRepeatCount, t.k, t.n};
}

} // namespace detail

// The dispatcher: each request type to its rule, as upstream's pass visits each op.
Expected<PropagationResult> propagate(const PropagationRequest& request) {
  return std::visit(
      [](const auto& req) -> Expected<PropagationResult> {
        LAYOUT_TRY_ASSIGN(out, propagate(req));
        return PropagationResult(std::move(out));
      },
      request);
}

std::string_view opName(const PropagationRequest& request) {
  return std::visit([](const auto& req) { return std::decay_t<decltype(req)>::op; }, request);
}

} // namespace layout::xegpu
