// Swizzle synthesis: the segment subspace is grown one vector at a time, each chosen outside the
// spans that would add a wavefront (see the header for why this reaches both lower bounds), and
// the parametric families are searched exhaustively for comparison.
#include "layout/smem/swizzle_synthesis.h"

#include "access_geometry.h"
#include "layout/text/layout_json.h"
#include "layout/triton/encoding.h"
#include "xor_basis.h"

#include <algorithm>
#include <bit>
#include <sstream>

namespace layout::smem {

using detail::XorBasis;
using nlohmann::ordered_json;

namespace {

struct Side {
  std::vector<uint64_t> reg, lane, warp; // packed coordinates of each register / lane / warp bit
  int laneBits = 0;
};

Expected<Side> sideOf(const LinearLayout& l, const char* what, const std::vector<DimName>& order) {
  for (int i = 0; i < l.numInDims(); ++i) {
    DimName d = l.inDimName(i);
    if (d != dims::reg() && d != dims::lane() && d != dims::warp() && d != dims::block())
      return makeError(std::string(what) + ": in-dim '" + std::string(d.str()) +
                       "' is not register, lane, warp or block");
  }
  LAYOUT_TRY_ASSIGN(t, l.transposeOuts(order));
  Side s;
  s.reg = detail::inDimImages(t, dims::reg());
  s.lane = detail::inDimImages(t, dims::lane());
  s.warp = detail::inDimImages(t, dims::warp());
  s.laneBits = static_cast<int>(s.lane.size());
  return s;
}

Expected<std::vector<uint64_t>> phaseLaneBasis(const BankInstruction& ins) {
  auto basis = detail::phaseLaneSubspace(ins);
  if (!basis)
    return makeError(ins.name + ": its phases are not cosets of one lane subspace, which the "
                                "synthesis needs (the analysis handles them)");
  return *basis;
}

int log2i(uint64_t v) {
  return std::countr_zero(v);
}

// Bits of offset inside one bank line: log2(banks * bankBytes / elemBytes).
int lineBits(const BankInstruction& ins, int elemBits) {
  return log2i(uint64_t(ins.banks) * ins.bankBytes * 8 / elemBits);
}

Expected<LinearLayout> sharedFromBasis(const std::vector<uint64_t>& basis,
                                       const std::vector<DimSize>& outs) {
  InDimBases in{dims::offset(), {}};
  for (uint64_t v : basis) {
    std::vector<uint64_t> comps;
    int shift = 0;
    for (const DimSize& d : outs) {
      int bits = log2i(d.size);
      comps.push_back(bits ? (v >> shift) & ((uint64_t{1} << bits) - 1) : 0);
      shift += bits;
    }
    in.bases.push_back(std::move(comps));
  }
  return LinearLayout::create({in}, outs);
}

// Picks a valid c minimizing the number of `avoid` spans that contain it. Candidates: the
// generators in order, then XORs of two of them (outside two proper subspaces of the span of the
// generators there is always one of those). Generators come in a row-major tile's bit order so the
// layout reads like a row swizzle: a high (row) bit XOR'd with a low (column) one.
template <typename Valid>
std::optional<uint64_t> pick(const std::vector<uint64_t>& generators, const Valid& valid,
                             const std::vector<const XorBasis*>& avoid) {
  std::optional<uint64_t> best;
  int bestCost = 1 << 30;
  auto consider = [&](uint64_t c) {
    if (c == 0 || !valid(c)) return;
    int cost = 0;
    for (const XorBasis* a : avoid) cost += a->contains(c);
    if (cost < bestCost) {
      bestCost = cost;
      best = c;
    }
  };
  const size_t n = generators.size();
  for (size_t i = 0; i < n && bestCost > 0; ++i) consider(generators[i]);
  for (size_t i = 0; i < n && bestCost > 0; ++i)
    for (size_t j = n; j-- > i + 1 && bestCost > 0;) consider(generators[i] ^ generators[j]);
  return best;
}

struct SideSpec {
  const char* name;
  Side side;
  const BankInstruction* ins;
  int vectorElements = 1;
  std::vector<uint64_t> phaseLanes; // coordinates spanned by one phase's lanes
  int lineBits = 0;
};

std::string describeBound(const char* side, int dimX, int line, int elemBits,
                          const BankInstruction& ins) {
  std::ostringstream os;
  uint64_t bytes = (uint64_t{1} << dimX) * elemBits / 8;
  os << "a " << side << " phase (" << ins.name << ") moves " << bytes << " B but one bank line is "
     << ins.banks * ins.bankBytes << " B, so it needs at least " << (uint64_t{1} << (dimX - line))
     << " wavefronts whatever the layout";
  return os.str();
}

int totalWavefronts(const BankReport& a, const BankReport& b) {
  return static_cast<int>(a.wavefronts + b.wavefronts);
}

// The row-XOR families on 2-D tiles: every (vec, perPhase, maxPhase) of Triton's swizzled_shared
// with the given order, and the member seed 004's rule picks.
void searchFamilies(const SwizzleRequest& req, const std::vector<int64_t>& shape,
                    SwizzleResult& res) {
  if (shape.size() != 2) return;
  auto evaluate = [&](int64_t vec, int64_t perPhase, int64_t maxPhase, int order0,
                      const std::string& family) -> std::optional<FamilyCandidate> {
    std::string text = "#ttg.swizzled_shared<{vec = " + std::to_string(vec) +
                       ", perPhase = " + std::to_string(perPhase) +
                       ", maxPhase = " + std::to_string(maxPhase) + ", order = [" +
                       std::to_string(order0) + ", " + std::to_string(1 - order0) + "]}>";
    auto enc = triton::parseEncoding(text);
    if (!enc) return std::nullopt;
    auto shared = triton::toLinearLayoutUncached(*enc, shape);
    if (!shared) return std::nullopt;
    auto st = analyzeBanks(SharedAccess{req.store, *shared, req.elemBits, {}}, req.storeInstruction,
                           false);
    auto ld =
        analyzeBanks(SharedAccess{req.load, *shared, req.elemBits, {}}, req.loadInstruction, false);
    if (!st || !ld) return std::nullopt;
    FamilyCandidate c;
    c.family = family;
    c.order0 = order0;
    c.parameters =
        family != "triton.swizzled_shared"
            ? "swizzleUnit=" + std::to_string(vec) + ", maxPhase=" + std::to_string(maxPhase)
            : "vec=" + std::to_string(vec) + ", perPhase=" + std::to_string(perPhase) +
                  ", maxPhase=" + std::to_string(maxPhase) + ", order=[" + std::to_string(order0) +
                  "," + std::to_string(1 - order0) + "]";
    c.encoding = text;
    c.vec = int(vec);
    c.perPhase = int(perPhase);
    c.maxPhase = int(maxPhase);
    c.shared = std::move(*shared);
    c.store = std::move(*st);
    c.load = std::move(*ld);
    return c;
  };
  std::optional<FamilyCandidate> best;
  for (int order0 = 1; order0 >= 0; --order0) {
    int64_t cols = shape[order0], rows = shape[1 - order0];
    for (int64_t vec = 1; vec <= cols; vec *= 2)
      for (int64_t maxPhase = 1; vec * maxPhase <= cols; maxPhase *= 2)
        for (int64_t perPhase = 1; perPhase * maxPhase <= rows; perPhase *= 2) {
          if (maxPhase == 1 && perPhase > 1) continue; // all the same unswizzled layout
          auto c = evaluate(vec, perPhase, maxPhase, order0, "triton.swizzled_shared");
          if (!c) continue;
          if (!best ||
              totalWavefronts(c->store, c->load) < totalWavefronts(best->store, best->load))
            best = std::move(c);
        }
  }
  if (best) res.families.push_back(std::move(*best));
  // Seed 004's family (row-major, one row per phase): its best member, then the member its rule
  // picks: swizzle unit = the wider access, max phase = min(8, columns / unit).
  std::optional<FamilyCandidate> bestSeed;
  for (int64_t unit = 1; unit <= shape[1]; unit *= 2)
    for (int64_t maxPhase = 1; unit * maxPhase <= shape[1] && maxPhase <= shape[0]; maxPhase *= 2)
      if (auto c = evaluate(unit, 1, maxPhase, 1, "seed004.xor"))
        if (!bestSeed ||
            totalWavefronts(c->store, c->load) < totalWavefronts(bestSeed->store, bestSeed->load))
          bestSeed = std::move(c);
  if (bestSeed) res.families.push_back(std::move(*bestSeed));
  int64_t unit =
      std::min<int64_t>(shape[1], std::max(res.store.vectorElements, res.load.vectorElements));
  int64_t maxPhase = std::max<int64_t>(1, std::min<int64_t>(8, shape[1] / unit));
  maxPhase = std::min<int64_t>(maxPhase, shape[0]);
  if (auto c = evaluate(unit, 1, maxPhase, 1, "seed004.rule"))
    res.families.push_back(std::move(*c));
}

// Distinct coordinates along `dim` that phase 0 of the first access touches (register 0, warp 0).
int rowsTouched(const LinearLayout& l, const BankInstruction& ins, int dim) {
  int outIdx = l.outDimIndex(dims::standardOut(dim));
  int laneIdx = l.inDimIndex(dims::lane());
  if (outIdx < 0 || laneIdx < 0 || ins.isMatrix()) return 1;
  std::vector<uint64_t> in(size_t(l.numInDims()), 0), out(size_t(l.numOutDims()), 0);
  std::vector<uint64_t> rows;
  for (int lane : ins.phases.front()) {
    in[laneIdx] = uint64_t(lane);
    l.apply(in, out);
    rows.push_back(out[outIdx]);
  }
  std::sort(rows.begin(), rows.end());
  return int(std::unique(rows.begin(), rows.end()) - rows.begin());
}

void explainFamily(FamilyCandidate& c, const SwizzleResult& res, const SwizzleRequest& req) {
  const int rowDim = c.order0 == 1 ? 0 : 1;
  auto side = [&](const char* name, const BankReport& got, const BankReport& best,
                  const LinearLayout& layout) {
    if (got.wavefronts <= best.wavefronts) return;
    std::ostringstream os;
    os << name << ": " << got.maxWays() << "-way (" << got.wavefronts << " wavefronts; "
       << best.wavefronts << " with the synthesized layout)";
    c.explanation.push_back(os.str());
    // Seed 004's two exceptions, when they are what happens here.
    const BankInstruction& ins = got.instruction;
    if (c.vec > got.vectorElements)
      c.explanation.push_back(
          std::string("  the swizzle unit (") + std::to_string(c.vec) +
          " elements) is wider than the " + name + "'s access (" +
          std::to_string(got.vectorElements) +
          "): the XOR moves whole units, so lanes that split a unit keep their relative banks "
          "(seed 004, exception 1)");
    int64_t lineUnits =
        std::max<int64_t>(1, int64_t(ins.banks) * ins.bankBytes * 8 / req.elemBits / c.vec);
    int64_t slots = std::min<int64_t>(c.maxPhase, lineUnits);
    int rows = rowsTouched(layout, ins, rowDim);
    if (rows > slots)
      c.explanation.push_back(std::string("  a ") + name + " phase touches " +
                              std::to_string(rows) +
                              " rows, but the XOR spreads rows over at most " +
                              std::to_string(slots) + " unit positions of a bank line (maxPhase " +
                              std::to_string(c.maxPhase) + ", " + std::to_string(lineUnits) +
                              " units per line): rows beyond that share banks (seed 004, "
                              "exception 2)");
  };
  side("store", c.store, res.store, req.store);
  side("load", c.load, res.load, req.load);
  if (c.explanation.empty())
    c.explanation.push_back("as good as the synthesized layout on both sides");
  else
    c.explanation.push_back(
        "the synthesized layout XORs other offset bits as well and avoids this");
}

} // namespace

int sideVectorElements(const LinearLayout& side, int capElements) {
  int r = detail::xorRank(detail::inDimImages(side, dims::reg()));
  return std::min(1 << r, capElements);
}

Expected<BankInstruction> widestInstruction(std::string_view target, AccessDirection direction,
                                            int elemBits, int maxVectorElements) {
  LAYOUT_TRY_ASSIGN(t, bankTarget(target));
  const BankInstruction* best = nullptr;
  for (const auto& ins : t.instructions) {
    if (ins.isMatrix() || ins.direction != direction) continue;
    if (ins.bytesPerLane * 8 < elemBits || !std::has_single_bit(unsigned(ins.bytesPerLane)))
      continue;
    if (ins.bytesPerLane * 8 / elemBits > maxVectorElements) continue;
    if (!best || ins.bytesPerLane > best->bytesPerLane) best = &ins;
  }
  if (!best)
    return makeError(std::string(target) + " has no " +
                     (direction == AccessDirection::Read ? "read" : "write") + " of at most " +
                     std::to_string(maxVectorElements) + " x " + std::to_string(elemBits) +
                     "-bit elements per lane");
  return *best;
}

Expected<SwizzleResult> synthesizeSwizzleForTarget(const LinearLayout& store,
                                                   const LinearLayout& load, int elemBits,
                                                   std::string_view target) {
  LAYOUT_TRY(bankTarget(target));
  const int cap = 1 << 16;
  int ownStore = sideVectorElements(store, cap), ownLoad = sideVectorElements(load, cap);
  std::optional<SwizzleRequest> bestReq;
  uint64_t bestCost = ~uint64_t{0};
  int bestWidth = 0;
  std::optional<Error> firstError;
  for (int ws = ownStore; ws >= 1; ws /= 2)
    for (int wl = ownLoad; wl >= 1; wl /= 2) {
      auto st = widestInstruction(target, AccessDirection::Write, elemBits, ws);
      auto ld = widestInstruction(target, AccessDirection::Read, elemBits, wl);
      if (!st || !ld) {
        if (!firstError) firstError = st ? ld.error() : st.error();
        continue;
      }
      // Only the exact widths: narrower instructions come with their own (ws, wl).
      if (st->bytesPerLane * 8 / elemBits != ws || ld->bytesPerLane * 8 / elemBits != wl) continue;
      SwizzleRequest req{store, load, elemBits, *st, *ld, false};
      auto r = synthesizeSwizzle(req);
      if (!r) {
        if (!firstError) firstError = r.error();
        continue;
      }
      uint64_t cost = r->store.wavefronts + r->load.wavefronts;
      if (cost < bestCost || (cost == bestCost && ws + wl > bestWidth)) {
        bestCost = cost;
        bestWidth = ws + wl;
        bestReq = req;
      }
    }
  if (!bestReq) return *firstError;
  bestReq->compareFamilies = true;
  LAYOUT_TRY_ASSIGN(res, synthesizeSwizzle(*bestReq));
  res.explanation.push_back(
      "instructions chosen for " + std::string(target) + ": " + bestReq->storeInstruction.name +
      " and " + bestReq->loadInstruction.name + ", the pair of widths with the fewest wavefronts");
  return res;
}

Expected<SwizzleResult> synthesizeSwizzle(const SwizzleRequest& req) {
  if (req.elemBits != 8 && req.elemBits != 16 && req.elemBits != 32 && req.elemBits != 64)
    return makeError("elemBits: " + std::to_string(req.elemBits) + " is not 8, 16, 32 or 64");
  LAYOUT_TRY(verifyBankInstruction(req.storeInstruction));
  LAYOUT_TRY(verifyBankInstruction(req.loadInstruction));
  const std::vector<DimName> order = req.store.outDimNames();
  // Same tensor on both sides.
  bool same = req.store.numOutDims() == req.load.numOutDims();
  for (int i = 0; same && i < req.store.numOutDims(); ++i) {
    int j = req.load.outDimIndex(req.store.outDimName(i));
    same = j >= 0 && req.load.outDimSize(j) == req.store.outDimSize(i);
  }
  if (!same) return makeError("store and load layouts cover different tensors");
  const int n = req.store.totalOutDimSizeLog2();
  if (n > 62) return makeError("the tile has 2^" + std::to_string(n) + " elements; at most 2^62");
  std::vector<DimSize> outs = req.store.outDims();
  std::vector<int64_t> shape;
  for (const DimSize& d : outs) shape.push_back(int64_t(d.size));

  // A side whose lanes n and n^1 (or n^2) hold the same elements is served in its instruction's
  // merged phases (see BankInstruction::pairMergedPhases).
  BankInstruction served[2] = {req.storeInstruction, req.loadInstruction};
  SideSpec sides[2] = {{"store", {}, &served[0], 1, {}, 0}, {"load", {}, &served[1], 1, {}, 0}};
  const LinearLayout* layouts[2] = {&req.store, &req.load};
  for (SideSpec& s : sides) {
    const BankInstruction& ins = *s.ins;
    if (ins.isMatrix())
      return makeError(std::string(s.name) + "Instruction: " + ins.name +
                       " is a matrix instruction; the synthesis searches plain vector accesses "
                       "(analyse ldmatrix / stmatrix layouts with banks.analyze)");
    LAYOUT_TRY_ASSIGN(side, sideOf(*layouts[&s - sides], s.name, order));
    s.side = std::move(side);
    bool partners = (s.side.lane.size() > 0 && s.side.lane[0] == 0) ||
                    (s.side.lane.size() > 1 && s.side.lane[1] == 0);
    served[&s - sides].phases = effectivePhases(ins, partners);
    if ((1 << s.side.laneBits) != ins.laneCount)
      return makeError(std::string(s.name) + " layout has " + std::to_string(1 << s.side.laneBits) +
                       " lanes but " + ins.name + " serves " + std::to_string(ins.laneCount));
    if (ins.bytesPerLane * 8 < req.elemBits || ins.bytesPerLane * 8 % req.elemBits != 0 ||
        !std::has_single_bit(unsigned(ins.bytesPerLane * 8 / req.elemBits)))
      return makeError(std::string(s.name) + "Instruction: " + ins.name + " moves " +
                       std::to_string(ins.bytesPerLane) +
                       " B per lane, not a power-of-two number of " + std::to_string(req.elemBits) +
                       "-bit elements");
    s.vectorElements = ins.bytesPerLane * 8 / req.elemBits;
    LAYOUT_TRY_ASSIGN(pl, phaseLaneBasis(ins));
    for (uint64_t d : pl) s.phaseLanes.push_back(detail::combine(s.side.lane, d));
    s.lineBits = lineBits(ins, req.elemBits);
  }
  // The vector: the narrower side's elements from both register spans, extended by the wider
  // side's own registers. Offsets 0 .. v-1 of the shared layout hold it.
  int wide = sides[1].vectorElements >= sides[0].vectorElements ? 1 : 0, narrow = 1 - wide;
  XorBasis regsWide, regsNarrow, both;
  for (uint64_t v : sides[wide].side.reg) regsWide.add(v, 0), both.add(v, 0);
  for (uint64_t v : sides[narrow].side.reg) regsNarrow.add(v, 0), both.add(v, 0);
  int common = regsWide.rank() + regsNarrow.rank() - both.rank();
  int kNarrow = log2i(uint64_t(sides[narrow].vectorElements)),
      kWide = log2i(uint64_t(sides[wide].vectorElements));
  if (kWide > regsWide.rank())
    return makeError(std::string(sides[wide].name) + "Instruction: " + sides[wide].ins->name +
                     " moves " + std::to_string(sides[wide].vectorElements) +
                     " elements per lane but the " + sides[wide].name + " layout gives a lane " +
                     std::to_string(1 << regsWide.rank()) + " distinct elements");
  if (kNarrow > common)
    return makeError(std::string(sides[narrow].name) + "Instruction: " + sides[narrow].ins->name +
                     " moves " + std::to_string(sides[narrow].vectorElements) +
                     " elements per lane, but only " + std::to_string(1 << common) +
                     " of a lane's elements are in registers of both layouts; no shared layout "
                     "keeps a wider vector contiguous for both sides");
  // Basis of the register-span intersection, then the wider side's extension.
  std::vector<uint64_t> vecBasis;
  {
    XorBasis chosen;
    // Elements of the intersection: vectors of the narrow span that the wide span contains.
    std::vector<uint64_t> inter;
    {
      // Enumerating the narrow span is affordable: a lane holds at most 2^16 registers here.
      std::vector<uint64_t> nb;
      XorBasis tmp;
      for (uint64_t v : sides[narrow].side.reg)
        if (tmp.add(v, 0)) nb.push_back(v);
      if (nb.size() > 16) return makeError("a lane holds more than 2^16 elements");
      for (uint64_t m = 1; m < (uint64_t{1} << nb.size()) && int(inter.size()) < common; ++m) {
        uint64_t v = detail::combine(nb, m);
        if (regsWide.contains(v) && !chosen.contains(v)) {
          chosen.add(v, 0);
          inter.push_back(v);
        }
      }
    }
    // Prefer the layouts' own register bases (in order) so the vector reads naturally.
    XorBasis interSpan;
    for (uint64_t v : inter) interSpan.add(v, 0);
    XorBasis taken;
    for (uint64_t v : sides[narrow].side.reg)
      if (int(vecBasis.size()) < kNarrow && interSpan.contains(v) && taken.add(v, 0))
        vecBasis.push_back(v);
    for (uint64_t v : inter)
      if (int(vecBasis.size()) < kNarrow && taken.add(v, 0)) vecBasis.push_back(v);
    for (uint64_t v : sides[wide].side.reg)
      if (int(vecBasis.size()) < kWide && taken.add(v, 0)) vecBasis.push_back(v);
  }
  // Phase spans X (lanes of one phase plus the side's own vector).
  XorBasis X[2];
  int dimX[2];
  for (int s = 0; s < 2; ++s) {
    for (uint64_t v : sides[s].phaseLanes) X[s].add(v, 0);
    for (int i = 0; i < log2i(uint64_t(sides[s].vectorElements)); ++i) X[s].add(vecBasis[i], 0);
    dimX[s] = X[s].rank();
  }
  // Segments: offsets at or above a side's bank line. Fill from the top: first the bits that
  // are segments for both sides, then those that are segments only for the side with the
  // shorter line.
  int lineLo = std::min(sides[0].lineBits, sides[1].lineBits);
  int lineHi = std::max(sides[0].lineBits, sides[1].lineBits);
  int segBoth = std::max(0, n - std::max(lineHi, kWide));
  int segOne = std::max(0, std::min(n, lineHi) - std::max(lineLo, kWide));
  int shortSide = sides[0].lineBits <= sides[1].lineBits ? 0 : 1;
  // Coordinate bits in row-major order: the last dim's bits first (they are the low packed bits
  // of the first dim, so list them by dim).
  std::vector<uint64_t> units;
  {
    std::vector<int> first(outs.size() + 1, 0);
    for (size_t d = 0; d < outs.size(); ++d) first[d + 1] = first[d] + log2i(outs[d].size);
    for (size_t d = outs.size(); d-- > 0;)
      for (int b = first[d]; b < first[d + 1]; ++b) units.push_back(uint64_t{1} << b);
  }
  // Every lane must start its vector at the same register, so lanes and warps may not land
  // inside their own side's vector. Rest, the span of the offsets above the wide vector K (= Kn,
  // the narrow side's vector, + Kx), is a complement of K that holds the wide side's lanes and
  // warps (Zw), and Rest + Kx holds the narrow side's (Zn). Everything else follows from Rest:
  // the segments lie in it, and the wide side's phase span X meets it in dim X - |K| whatever
  // Rest is, so Rest is chosen to meet the narrow side's X as little as possible.
  auto vectorError = [&](const SideSpec& sd, int elements) {
    return makeError(std::string("the ") + sd.name +
                     " layout's lanes or warps reach elements inside the " +
                     std::to_string(elements) +
                     "-element vector of its instruction, so lanes would need different register "
                     "orders: use a narrower instruction");
  };
  XorBasis rest, restK, restKx, narrowX = X[narrow];
  std::vector<uint64_t> restBasis;
  for (int i = 0; i < kWide; ++i) {
    restK.add(vecBasis[i], 0);
    if (i >= kNarrow) restKx.add(vecBasis[i], 0);
  }
  auto addRest = [&](uint64_t v) {
    rest.add(v, 0);
    restK.add(v, 0);
    restKx.add(v, 0);
    narrowX.add(v, 0);
    restBasis.push_back(v);
  };
  for (const auto* images : {&sides[wide].side.lane, &sides[wide].side.warp})
    for (uint64_t z : *images) {
      if (rest.contains(z)) continue;
      if (restK.contains(z)) return vectorError(sides[wide], 1 << kWide);
      addRest(z);
    }
  for (const auto* images : {&sides[narrow].side.lane, &sides[narrow].side.warp})
    for (uint64_t z : *images) {
      if (restKx.contains(z)) continue;
      // z + e for some e in Kx goes into Rest: preferably one outside the narrow X.
      std::optional<uint64_t> chosen;
      bool chosenAvoids = false;
      for (uint64_t m = 0; m < (uint64_t{1} << (kWide - kNarrow)); ++m) {
        uint64_t c = z;
        for (int i = 0; i < kWide - kNarrow; ++i)
          if (m >> i & 1) c ^= vecBasis[kNarrow + i];
        if (restK.contains(c)) continue;
        bool avoids = !narrowX.contains(c);
        if (!chosen || (avoids && !chosenAvoids)) chosen = c, chosenAvoids = avoids;
      }
      if (!chosen) return vectorError(sides[narrow], 1 << kNarrow);
      addRest(*chosen);
    }
  {
    auto outsideRestK = [&](uint64_t c) { return !restK.contains(c); };
    while (int(restBasis.size()) < n - kWide) {
      auto c = pick(units, outsideRestK, {&narrowX});
      if (!c) return makeError("internal: cannot complete the offsets above the vector");
      addRest(*c);
    }
  }
  // Segments inside Rest: first all of them (the short-line side pays for each, the other side
  // only for the high ones), then the segOne that sit below the long line are taken from what the
  // long-line side touches, so it pays as little as possible.
  std::vector<uint64_t> generators;
  for (size_t i = units.size(); i-- > 0;)
    if (rest.contains(units[i])) generators.push_back(units[i]);
  generators.insert(generators.end(), restBasis.begin(), restBasis.end());
  XorBasis seg;
  XorBasis U[2] = {X[0], X[1]}; // X + Seg
  auto inRest = [&](uint64_t c) { return rest.contains(c) && !seg.contains(c); };
  std::vector<uint64_t> segAll, segHigh, segMid; // all; above both lines; between the lines
  const std::vector<const XorBasis*> avoid =
      segOne == 0 ? std::vector<const XorBasis*>{&U[0], &U[1]}
                  : std::vector<const XorBasis*>{&U[shortSide], &U[shortSide], &U[1 - shortSide]};
  while (int(segAll.size()) < segBoth + segOne) {
    auto c = pick(generators, inRest, avoid);
    if (!c) return makeError("internal: no segment vector left");
    seg.add(*c, 0);
    U[0].add(*c, 0);
    U[1].add(*c, 0);
    segAll.push_back(*c);
  }
  {
    // Seg ∩ X_long, enumerated over combinations of segAll (a few dozen bits at most).
    const XorBasis& longX = X[1 - shortSide];
    XorBasis midSpan;
    for (uint64_t m = 1; segOne > 0 && segAll.size() <= 20 && m < (uint64_t{1} << segAll.size()) &&
                         int(segMid.size()) < segOne;
         ++m) {
      uint64_t v = detail::combine(segAll, m);
      if (longX.contains(v) && midSpan.add(v, 0)) segMid.push_back(v);
    }
    for (uint64_t v : segAll)
      if (int(segMid.size()) < segOne && midSpan.add(v, 0)) segMid.push_back(v);
    for (uint64_t v : segAll)
      if (midSpan.add(v, 0)) segHigh.push_back(v);
  }
  // Bank bits: the rest of Rest, coordinate bits first, in row-major order.
  XorBasis placed = seg;
  std::vector<uint64_t> bank;
  for (uint64_t u : units)
    if (rest.contains(u) && placed.add(u, 0)) bank.push_back(u);
  for (uint64_t v : restBasis)
    if (placed.add(v, 0)) bank.push_back(v);
  std::vector<uint64_t> basis = vecBasis;
  basis.insert(basis.end(), bank.begin(), bank.end());
  basis.insert(basis.end(), segMid.rbegin(), segMid.rend());
  basis.insert(basis.end(), segHigh.rbegin(), segHigh.rend());
  if (int(basis.size()) != n) return makeError("internal: the synthesized basis is incomplete");
  LAYOUT_TRY_ASSIGN(shared, sharedFromBasis(basis, outs));

  SwizzleResult res;
  res.shared = shared;
  LAYOUT_TRY_ASSIGN(
      st, analyzeBanks(SharedAccess{req.store, shared, req.elemBits, {}}, req.storeInstruction));
  LAYOUT_TRY_ASSIGN(
      ld, analyzeBanks(SharedAccess{req.load, shared, req.elemBits, {}}, req.loadInstruction));
  res.store = std::move(st);
  res.load = std::move(ld);
  // Lower bounds: a phase spanning 2^dim X elements needs 2^max(0, dim X - line bits) wavefronts.
  const BankReport* reps[2] = {&res.store, &res.load};
  SideBound* bounds[2] = {&res.lowerBound.store, &res.lowerBound.load};
  bool met = true;
  for (int s = 0; s < 2; ++s) {
    int excess = std::max(0, dimX[s] - sides[s].lineBits);
    bounds[s]->waysPerPhase = 1 << excess;
    uint64_t phasesTotal =
        uint64_t(reps[s]->warps) * reps[s]->accessesPerWarp * reps[s]->perPhaseMaxWays.size();
    bounds[s]->wavefronts = phasesTotal * bounds[s]->waysPerPhase;
    met = met && reps[s]->wavefronts == bounds[s]->wavefronts;
    if (excess > 0)
      res.explanation.push_back(
          describeBound(sides[s].name, dimX[s], sides[s].lineBits, req.elemBits, *sides[s].ins));
  }
  res.lowerBound.met = met;
  res.explanation.insert(
      res.explanation.begin(),
      met ? std::string("the synthesized layout meets the lower bound on both sides")
          : std::string("the synthesized layout does not meet the lower bound (store ") +
                std::to_string(res.store.wavefronts) + " vs " +
                std::to_string(res.lowerBound.store.wavefronts) + ", load " +
                std::to_string(res.load.wavefronts) + " vs " +
                std::to_string(res.lowerBound.load.wavefronts) + ")");
  if (req.compareFamilies) searchFamilies(req, shape, res);
  for (FamilyCandidate& c : res.families) explainFamily(c, res, req);
  return res;
}

Expected<LinearLayout> xorSwizzleShared(std::span<const int64_t> shape, int swizzleUnit,
                                        int maxPhase) {
  if (shape.size() != 2)
    return makeError("shape: the seed 004 swizzle works on 2-D tiles [rows, cols], got rank " +
                     std::to_string(shape.size()));
  for (size_t i = 0; i < 2; ++i)
    if (shape[i] < 1 || !std::has_single_bit(uint64_t(shape[i])))
      return makeError("shape[" + std::to_string(i) + "]: " + std::to_string(shape[i]) +
                       " is not a power of two");
  if (swizzleUnit < 1 || !std::has_single_bit(unsigned(swizzleUnit)) || swizzleUnit > shape[1])
    return makeError("swizzleUnit: " + std::to_string(swizzleUnit) +
                     " must be a power of two of at most the " + std::to_string(shape[1]) +
                     " columns");
  if (maxPhase < 1 || !std::has_single_bit(unsigned(maxPhase)) || maxPhase > shape[1] / swizzleUnit)
    return makeError("maxPhase: " + std::to_string(maxPhase) +
                     " must be a power of two of at most columns / swizzleUnit = " +
                     std::to_string(shape[1] / swizzleUnit) + " (no chunk may leave its row)");
  auto enc = triton::parseEncoding("#ttg.swizzled_shared<{vec = " + std::to_string(swizzleUnit) +
                                   ", perPhase = 1, maxPhase = " + std::to_string(maxPhase) +
                                   ", order = [1, 0]}>");
  if (!enc) return enc.error();
  return triton::toLinearLayout(*enc, shape);
}

Expected<LinearLayout> rowMajorShared(std::span<const int64_t> shape) {
  if (shape.empty()) return makeError("shape: empty");
  std::string order;
  for (size_t i = shape.size(); i-- > 0;) order += std::to_string(i) + (i ? ", " : "");
  auto enc = triton::parseEncoding(
      "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [" + order + "]}>");
  if (!enc) return enc.error();
  return triton::toLinearLayout(*enc, shape);
}

std::string swizzleResultText(const SwizzleResult& r) {
  std::ostringstream os;
  os << "shared layout (offset -> coordinates):\n" << r.shared.toString() << "\n";
  os << "lower bound   store " << r.lowerBound.store.wavefronts << " wavefronts ("
     << r.lowerBound.store.waysPerPhase << " per phase), load " << r.lowerBound.load.wavefronts
     << " (" << r.lowerBound.load.waysPerPhase
     << " per phase): " << (r.lowerBound.met ? "met" : "NOT met") << "\n";
  for (const auto& e : r.explanation) os << "  " << e << "\n";
  os << "\n== store ==\n" << bankReportText(r.store);
  os << "\n== load ==\n" << bankReportText(r.load);
  for (const auto& c : r.families) {
    os << "\n== family " << c.family << ": " << c.parameters << " ==\n";
    os << "  " << c.encoding << "\n";
    os << "  store " << c.store.wavefronts << " wavefronts (" << c.store.maxWays() << "-way), load "
       << c.load.wavefronts << " (" << c.load.maxWays() << "-way)\n";
    for (const auto& e : c.explanation) os << "  " << e << "\n";
  }
  return os.str();
}

ordered_json swizzleResultToJson(const SwizzleResult& r) {
  ordered_json j;
  j["shared"] = layoutToJson(r.shared);
  j["store"] = bankReportToJson(r.store);
  j["load"] = bankReportToJson(r.load);
  j["lowerBound"] = {{"store",
                      {{"waysPerPhase", r.lowerBound.store.waysPerPhase},
                       {"wavefronts", r.lowerBound.store.wavefronts}}},
                     {"load",
                      {{"waysPerPhase", r.lowerBound.load.waysPerPhase},
                       {"wavefronts", r.lowerBound.load.wavefronts}}},
                     {"met", r.lowerBound.met}};
  ordered_json fam = ordered_json::array();
  for (const auto& c : r.families)
    fam.push_back({{"family", c.family},
                   {"parameters", c.parameters},
                   {"encoding", c.encoding},
                   {"storeWavefronts", c.store.wavefronts},
                   {"loadWavefronts", c.load.wavefronts},
                   {"storeMaxWays", c.store.maxWays()},
                   {"loadMaxWays", c.load.maxWays()},
                   {"explanation", c.explanation}});
  j["families"] = fam;
  j["explanation"] = r.explanation;
  return j;
}

} // namespace layout::smem
