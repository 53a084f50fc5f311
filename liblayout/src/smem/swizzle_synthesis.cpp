// Swizzle synthesis: the segment subspace is grown one vector at a time, each chosen outside the
// spans that would add a wavefront (see the header for why this reaches both lower bounds). The
// parametric families it is compared with are in swizzle_families.cpp, its report in
// swizzle_report.cpp.
#include "layout/smem/swizzle_synthesis.h"

#include "access_geometry.h"
#include "layout/core/element_bits.h"
#include "layout/text/internal/quoted_input.h"
#include "swizzle_families.h"
#include "xor_basis.h"

#include <algorithm>
#include <bit>
#include <sstream>

namespace layout::smem {

using detail::XorBasis;

namespace {

struct Side {
  std::vector<uint64_t> reg, lane, warp; // packed coordinates of each register / lane / warp bit
  int laneBits = 0;
};

Expected<Side> sideOf(const LinearLayout& l, const char* what, const std::vector<DimName>& order) {
  for (int i = 0; i < l.numInDims(); ++i) {
    DimName d = l.inDimName(i);
    if (d != dims::reg() && d != dims::lane() && d != dims::warp() && d != dims::block())
      return makeError(std::string(what) + ": in-dim " +
                       layout::detail::quoteInput(std::string(d.str())) +
                       " is not register, lane, warp or block");
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

// The request's own rules, checked before either layout is taken apart: element size, both
// instructions, one tensor on both sides, at most 2^62 elements.
Expected<void> checkRequest(const SwizzleRequest& req) {
  LAYOUT_TRY(checkElementBits(req.elemBits, "elemBits"));
  LAYOUT_TRY(verifyBankInstruction(req.storeInstruction));
  LAYOUT_TRY(verifyBankInstruction(req.loadInstruction));
  // Same tensor on both sides.
  bool same = req.store.numOutDims() == req.load.numOutDims();
  for (int i = 0; same && i < req.store.numOutDims(); ++i) {
    int j = req.load.outDimIndex(req.store.outDimName(i));
    same = j >= 0 && req.load.outDimSize(j) == req.store.outDimSize(i);
  }
  if (!same) return makeError("store and load layouts cover different tensors");
  const int n = req.store.totalOutDimSizeLog2();
  if (n > 62) return makeError("the tile has 2^" + std::to_string(n) + " elements; at most 2^62");
  return {};
}

// One side of the access (s.ins points at `ins`): its register / lane / warp images, the phases
// `ins` serves it in (merged when partner lanes hold the same elements), its vector width, the
// coordinates one phase's lanes span and its bank line.
Expected<void> describeSide(SideSpec& s, BankInstruction& ins, const LinearLayout& layout,
                            int elemBits, const std::vector<DimName>& order) {
  if (ins.isMatrix())
    return makeError(std::string(s.name) + "Instruction: " + ins.name +
                     " is a matrix instruction; the synthesis searches plain vector accesses "
                     "(analyse ldmatrix / stmatrix layouts with banks.analyze)");
  LAYOUT_TRY_ASSIGN(side, sideOf(layout, s.name, order));
  s.side = std::move(side);
  bool partners = (s.side.lane.size() > 0 && s.side.lane[0] == 0) ||
                  (s.side.lane.size() > 1 && s.side.lane[1] == 0);
  ins.phases = effectivePhases(ins, partners);
  if ((1 << s.side.laneBits) != ins.laneCount)
    return makeError(std::string(s.name) + " layout has " + std::to_string(1 << s.side.laneBits) +
                     " lanes but " + ins.name + " serves " + std::to_string(ins.laneCount));
  if (ins.bytesPerLane * 8 < elemBits || ins.bytesPerLane * 8 % elemBits != 0 ||
      !std::has_single_bit(unsigned(ins.bytesPerLane * 8 / elemBits)))
    return makeError(std::string(s.name) + "Instruction: " + ins.name + " moves " +
                     std::to_string(ins.bytesPerLane) +
                     " B per lane, not a power-of-two number of " + std::to_string(elemBits) +
                     "-bit elements");
  s.vectorElements = ins.bytesPerLane * 8 / elemBits;
  LAYOUT_TRY_ASSIGN(pl, phaseLaneBasis(ins));
  for (uint64_t d : pl) s.phaseLanes.push_back(detail::combine(s.side.lane, d));
  s.lineBits = lineBits(ins, elemBits);
  return {};
}

// The vector K at offsets 0 .. 2^kWide - 1 of the shared layout: Kn, the narrow side's
// 2^kNarrow elements, then Kx, the wide side's extension.
struct VectorPlan {
  int wide = 1, narrow = 0; // the sides with the wider and the narrower access
  int kNarrow = 0, kWide = 0;
  std::vector<uint64_t> basis; // Kn's vectors, then Kx's
};

// Elements of the register-span intersection: up to `common` independent vectors of the narrow
// span that the wide span contains.
Expected<std::vector<uint64_t>> registerIntersection(const std::vector<uint64_t>& narrowRegs,
                                                     const XorBasis& regsWide, int common) {
  XorBasis chosen;
  std::vector<uint64_t> inter;
  // Enumerating the narrow span is affordable: a lane holds at most 2^16 registers here.
  std::vector<uint64_t> nb;
  XorBasis tmp;
  for (uint64_t v : narrowRegs)
    if (tmp.add(v, 0)) nb.push_back(v);
  if (nb.size() > 16) return makeError("a lane holds more than 2^16 elements");
  for (uint64_t m = 1; m < (uint64_t{1} << nb.size()) && int(inter.size()) < common; ++m) {
    uint64_t v = detail::combine(nb, m);
    if (regsWide.contains(v) && !chosen.contains(v)) {
      chosen.add(v, 0);
      inter.push_back(v);
    }
  }
  return inter;
}

// Orders the vector's basis: Kn from the intersection, preferring the layouts' own register
// bases (in order) so the vector reads naturally, then Kx from the wide side's registers.
std::vector<uint64_t> orderVectorBasis(const std::vector<uint64_t>& inter,
                                       const std::vector<uint64_t>& narrowRegs,
                                       const std::vector<uint64_t>& wideRegs, int kNarrow,
                                       int kWide) {
  std::vector<uint64_t> vecBasis;
  XorBasis interSpan;
  for (uint64_t v : inter) interSpan.add(v, 0);
  XorBasis taken;
  for (uint64_t v : narrowRegs)
    if (int(vecBasis.size()) < kNarrow && interSpan.contains(v) && taken.add(v, 0))
      vecBasis.push_back(v);
  for (uint64_t v : inter)
    if (int(vecBasis.size()) < kNarrow && taken.add(v, 0)) vecBasis.push_back(v);
  for (uint64_t v : wideRegs)
    if (int(vecBasis.size()) < kWide && taken.add(v, 0)) vecBasis.push_back(v);
  return vecBasis;
}

// The vector: the narrower side's elements from both register spans, extended by the wider
// side's own registers. Offsets 0 .. v-1 of the shared layout hold it.
Expected<VectorPlan> chooseVector(const SideSpec (&sides)[2]) {
  VectorPlan vp;
  vp.wide = sides[1].vectorElements >= sides[0].vectorElements ? 1 : 0;
  vp.narrow = 1 - vp.wide;
  const SideSpec& wide = sides[vp.wide];
  const SideSpec& narrow = sides[vp.narrow];
  XorBasis regsWide, regsNarrow, both;
  for (uint64_t v : wide.side.reg) regsWide.add(v, 0), both.add(v, 0);
  for (uint64_t v : narrow.side.reg) regsNarrow.add(v, 0), both.add(v, 0);
  int common = regsWide.rank() + regsNarrow.rank() - both.rank();
  vp.kNarrow = log2i(uint64_t(narrow.vectorElements));
  vp.kWide = log2i(uint64_t(wide.vectorElements));
  if (vp.kWide > regsWide.rank())
    return makeError(std::string(wide.name) + "Instruction: " + wide.ins->name + " moves " +
                     std::to_string(wide.vectorElements) + " elements per lane but the " +
                     wide.name + " layout gives a lane " + std::to_string(1 << regsWide.rank()) +
                     " distinct elements");
  if (vp.kNarrow > common)
    return makeError(std::string(narrow.name) + "Instruction: " + narrow.ins->name + " moves " +
                     std::to_string(narrow.vectorElements) + " elements per lane, but only " +
                     std::to_string(1 << common) +
                     " of a lane's elements are in registers of both layouts; no shared layout "
                     "keeps a wider vector contiguous for both sides");
  // Basis of the register-span intersection, then the wider side's extension.
  LAYOUT_TRY_ASSIGN(inter, registerIntersection(narrow.side.reg, regsWide, common));
  vp.basis = orderVectorBasis(inter, narrow.side.reg, wide.side.reg, vp.kNarrow, vp.kWide);
  return vp;
}

// Each side's phase span X and its dimension.
struct PhaseSpans {
  XorBasis X[2];
  int dim[2] = {0, 0};
};

// Phase spans X (lanes of one phase plus the side's own vector).
PhaseSpans phaseSpans(const SideSpec (&sides)[2], const std::vector<uint64_t>& vecBasis) {
  PhaseSpans px;
  for (int s = 0; s < 2; ++s) {
    for (uint64_t v : sides[s].phaseLanes) px.X[s].add(v, 0);
    for (int i = 0; i < log2i(uint64_t(sides[s].vectorElements)); ++i) px.X[s].add(vecBasis[i], 0);
    px.dim[s] = px.X[s].rank();
  }
  return px;
}

// How many segment vectors there are, and for whom.
struct SegmentCounts {
  int both = 0;      // segments for both sides (above both bank lines)
  int one = 0;       // segments only for the side with the shorter line
  int shortSide = 0; // that side
};

// Segments: offsets at or above a side's bank line. Fill from the top: first the bits that
// are segments for both sides, then those that are segments only for the side with the
// shorter line.
SegmentCounts countSegments(const SideSpec (&sides)[2], int n, int kWide) {
  int lineLo = std::min(sides[0].lineBits, sides[1].lineBits);
  int lineHi = std::max(sides[0].lineBits, sides[1].lineBits);
  SegmentCounts c;
  c.both = std::max(0, n - std::max(lineHi, kWide));
  c.one = std::max(0, std::min(n, lineHi) - std::max(lineLo, kWide));
  c.shortSide = sides[0].lineBits <= sides[1].lineBits ? 0 : 1;
  return c;
}

// Coordinate bits in row-major order: the last dim's bits first (they are the low packed bits
// of the first dim, so list them by dim).
std::vector<uint64_t> rowMajorUnits(const std::vector<DimSize>& outs) {
  std::vector<uint64_t> units;
  std::vector<int> first(outs.size() + 1, 0);
  for (size_t d = 0; d < outs.size(); ++d) first[d + 1] = first[d] + log2i(outs[d].size);
  for (size_t d = outs.size(); d-- > 0;)
    for (int b = first[d]; b < first[d + 1]; ++b) units.push_back(uint64_t{1} << b);
  return units;
}

// Rest (the offsets above the vector K) as it grows, with the spans each new vector is tested
// against.
struct RestSpan {
  XorBasis rest, restK, restKx, narrowX; // Rest; Rest + K; Rest + Kx; Rest + the narrow side's X
  std::vector<uint64_t> basis;           // Rest's vectors in the order they were added
  void add(uint64_t v) {
    rest.add(v, 0);
    restK.add(v, 0);
    restKx.add(v, 0);
    narrowX.add(v, 0);
    basis.push_back(v);
  }
};

// The error for a side whose lanes or warps land inside its own `elements`-element vector.
Error vectorError(const SideSpec& sd, int elements) {
  return makeError(std::string("the ") + sd.name +
                   " layout's lanes or warps reach elements inside the " +
                   std::to_string(elements) +
                   "-element vector of its instruction, so lanes would need different register "
                   "orders: use a narrower instruction");
}

// Puts the wide side's lanes and warps (Zw) into Rest; none may fall inside K.
Expected<void> addWideLanesAndWarps(RestSpan& r, const SideSpec& wide, int kWide) {
  for (const auto* images : {&wide.side.lane, &wide.side.warp})
    for (uint64_t z : *images) {
      if (r.rest.contains(z)) continue;
      if (r.restK.contains(z)) return vectorError(wide, 1 << kWide);
      r.add(z);
    }
  return {};
}

// The z + e (e in Kx) that goes into Rest for a narrow lane or warp z: one outside Rest + K,
// preferably outside the narrow X; none when every one is inside.
std::optional<uint64_t> narrowRepresentative(const RestSpan& r, uint64_t z, const VectorPlan& vp) {
  std::optional<uint64_t> chosen;
  bool chosenAvoids = false;
  for (uint64_t m = 0; m < (uint64_t{1} << (vp.kWide - vp.kNarrow)); ++m) {
    uint64_t c = z;
    for (int i = 0; i < vp.kWide - vp.kNarrow; ++i)
      if (m >> i & 1) c ^= vp.basis[vp.kNarrow + i];
    if (r.restK.contains(c)) continue;
    bool avoids = !r.narrowX.contains(c);
    if (!chosen || (avoids && !chosenAvoids)) chosen = c, chosenAvoids = avoids;
  }
  return chosen;
}

// Puts the narrow side's lanes and warps (Zn) into Rest + Kx.
Expected<void> addNarrowLanesAndWarps(RestSpan& r, const SideSpec& narrow, const VectorPlan& vp) {
  for (const auto* images : {&narrow.side.lane, &narrow.side.warp})
    for (uint64_t z : *images) {
      if (r.restKx.contains(z)) continue;
      // z + e for some e in Kx goes into Rest: preferably one outside the narrow X.
      std::optional<uint64_t> chosen = narrowRepresentative(r, z, vp);
      if (!chosen) return vectorError(narrow, 1 << vp.kNarrow);
      r.add(*chosen);
    }
  return {};
}

// Completes Rest to `size` vectors from the coordinate bits, meeting the narrow X as little as
// possible.
Expected<void> completeRest(RestSpan& r, const std::vector<uint64_t>& units, int size) {
  auto outsideRestK = [&](uint64_t c) { return !r.restK.contains(c); };
  while (int(r.basis.size()) < size) {
    auto c = pick(units, outsideRestK, {&r.narrowX});
    if (!c) return makeError("internal: cannot complete the offsets above the vector");
    r.add(*c);
  }
  return {};
}

// Every lane must start its vector at the same register, so lanes and warps may not land
// inside their own side's vector. Rest, the span of the offsets above the wide vector K (= Kn,
// the narrow side's vector, + Kx), is a complement of K that holds the wide side's lanes and
// warps (Zw), and Rest + Kx holds the narrow side's (Zn). Everything else follows from Rest:
// the segments lie in it, and the wide side's phase span X meets it in dim X - |K| whatever
// Rest is, so Rest is chosen to meet the narrow side's X as little as possible.
Expected<RestSpan> buildRest(const SideSpec (&sides)[2], const VectorPlan& vp,
                             const XorBasis& narrowX, const std::vector<uint64_t>& units, int n) {
  RestSpan r;
  r.narrowX = narrowX;
  for (int i = 0; i < vp.kWide; ++i) {
    r.restK.add(vp.basis[i], 0);
    if (i >= vp.kNarrow) r.restKx.add(vp.basis[i], 0);
  }
  LAYOUT_TRY(addWideLanesAndWarps(r, sides[vp.wide], vp.kWide));
  LAYOUT_TRY(addNarrowLanesAndWarps(r, sides[vp.narrow], vp));
  LAYOUT_TRY(completeRest(r, units, n - vp.kWide));
  return r;
}

// The segments (Seg, inside Rest): the ones between the two bank lines and the ones above both.
struct Segments {
  XorBasis span;                   // Seg
  std::vector<uint64_t> high, mid; // above both lines; between the lines
};

// Candidate segment vectors: Rest's coordinate bits from the highest, then Rest's own basis.
std::vector<uint64_t> segmentGenerators(const std::vector<uint64_t>& units, const RestSpan& r) {
  std::vector<uint64_t> generators;
  for (size_t i = units.size(); i-- > 0;)
    if (r.rest.contains(units[i])) generators.push_back(units[i]);
  generators.insert(generators.end(), r.basis.begin(), r.basis.end());
  return generators;
}

// Picks all the segments one at a time into `seg`, each in as few of the sides' X + Seg as
// possible (the short-line side counts twice when only it pays for some of them).
Expected<std::vector<uint64_t>> pickSegments(const std::vector<uint64_t>& generators,
                                             const XorBasis& rest, const PhaseSpans& px,
                                             const SegmentCounts& counts, XorBasis& seg) {
  XorBasis U[2] = {px.X[0], px.X[1]}; // X + Seg
  auto inRest = [&](uint64_t c) { return rest.contains(c) && !seg.contains(c); };
  std::vector<uint64_t> segAll;
  const int shortSide = counts.shortSide;
  const std::vector<const XorBasis*> avoid =
      counts.one == 0
          ? std::vector<const XorBasis*>{&U[0], &U[1]}
          : std::vector<const XorBasis*>{&U[shortSide], &U[shortSide], &U[1 - shortSide]};
  while (int(segAll.size()) < counts.both + counts.one) {
    auto c = pick(generators, inRest, avoid);
    if (!c) return makeError("internal: no segment vector left");
    seg.add(*c, 0);
    U[0].add(*c, 0);
    U[1].add(*c, 0);
    segAll.push_back(*c);
  }
  return segAll;
}

// Splits the segments: the `segOne` below the long line from what the long-line side touches
// (its X), so it pays as little as possible, and the others above both lines.
void splitSegments(const std::vector<uint64_t>& segAll, const XorBasis& longX, int segOne,
                   Segments& s) {
  // Seg ∩ X_long, enumerated over combinations of segAll (a few dozen bits at most).
  XorBasis midSpan;
  for (uint64_t m = 1; segOne > 0 && segAll.size() <= 20 && m < (uint64_t{1} << segAll.size()) &&
                       int(s.mid.size()) < segOne;
       ++m) {
    uint64_t v = detail::combine(segAll, m);
    if (longX.contains(v) && midSpan.add(v, 0)) s.mid.push_back(v);
  }
  for (uint64_t v : segAll)
    if (int(s.mid.size()) < segOne && midSpan.add(v, 0)) s.mid.push_back(v);
  for (uint64_t v : segAll)
    if (midSpan.add(v, 0)) s.high.push_back(v);
}

// Segments inside Rest: first all of them (the short-line side pays for each, the other side
// only for the high ones), then the segOne that sit below the long line are taken from what the
// long-line side touches, so it pays as little as possible.
Expected<Segments> chooseSegments(const RestSpan& r, const PhaseSpans& px,
                                  const SegmentCounts& counts, const std::vector<uint64_t>& units) {
  const std::vector<uint64_t> generators = segmentGenerators(units, r);
  Segments s;
  LAYOUT_TRY_ASSIGN(segAll, pickSegments(generators, r.rest, px, counts, s.span));
  splitSegments(segAll, px.X[1 - counts.shortSide], counts.one, s);
  return s;
}

// The offset basis from the bottom: the vector, the bank bits (the rest of Rest, coordinate bits
// first, in row-major order), the segments between the lines, then those above both.
Expected<std::vector<uint64_t>> assembleBasis(const std::vector<uint64_t>& vecBasis,
                                              const std::vector<uint64_t>& units, const RestSpan& r,
                                              const Segments& s, int n) {
  XorBasis placed = s.span;
  std::vector<uint64_t> bank;
  for (uint64_t u : units)
    if (r.rest.contains(u) && placed.add(u, 0)) bank.push_back(u);
  for (uint64_t v : r.basis)
    if (placed.add(v, 0)) bank.push_back(v);
  std::vector<uint64_t> basis = vecBasis;
  basis.insert(basis.end(), bank.begin(), bank.end());
  basis.insert(basis.end(), s.mid.rbegin(), s.mid.rend());
  basis.insert(basis.end(), s.high.rbegin(), s.high.rend());
  if (int(basis.size()) != n) return makeError("internal: the synthesized basis is incomplete");
  return basis;
}

// The result's layout and both sides' bank reports on it (with the requested instructions).
Expected<SwizzleResult> analyzeSynthesized(const SwizzleRequest& req, const LinearLayout& shared) {
  SwizzleResult res;
  res.shared = shared;
  LAYOUT_TRY_ASSIGN(
      st, analyzeBanks(SharedAccess{req.store, shared, req.elemBits, {}}, req.storeInstruction));
  LAYOUT_TRY_ASSIGN(
      ld, analyzeBanks(SharedAccess{req.load, shared, req.elemBits, {}}, req.loadInstruction));
  res.store = std::move(st);
  res.load = std::move(ld);
  return res;
}

// Lower bounds: a phase spanning 2^dim X elements needs 2^max(0, dim X - line bits) wavefronts.
// Records both, whether the layout meets them, and why a side needs more than one per phase.
void addLowerBounds(SwizzleResult& res, const SideSpec (&sides)[2], const PhaseSpans& px,
                    int elemBits) {
  const BankReport* reps[2] = {&res.store, &res.load};
  SideBound* bounds[2] = {&res.lowerBound.store, &res.lowerBound.load};
  bool met = true;
  for (int s = 0; s < 2; ++s) {
    int excess = std::max(0, px.dim[s] - sides[s].lineBits);
    bounds[s]->waysPerPhase = 1 << excess;
    uint64_t phasesTotal =
        uint64_t(reps[s]->warps) * reps[s]->accessesPerWarp * reps[s]->perPhaseMaxWays.size();
    bounds[s]->wavefronts = phasesTotal * bounds[s]->waysPerPhase;
    met = met && reps[s]->wavefronts == bounds[s]->wavefronts;
    if (excess > 0)
      res.explanation.push_back(
          describeBound(sides[s].name, px.dim[s], sides[s].lineBits, elemBits, *sides[s].ins));
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
  LAYOUT_TRY(checkRequest(req));
  const std::vector<DimName> order = req.store.outDimNames();
  const int n = req.store.totalOutDimSizeLog2();
  std::vector<DimSize> outs = req.store.outDims();
  std::vector<int64_t> shape;
  for (const DimSize& d : outs) shape.push_back(int64_t(d.size));

  // A side whose lanes n and n^1 (or n^2) hold the same elements is served in its instruction's
  // merged phases (see BankInstruction::pairMergedPhases).
  BankInstruction served[2] = {req.storeInstruction, req.loadInstruction};
  SideSpec sides[2] = {{"store", {}, &served[0], 1, {}, 0}, {"load", {}, &served[1], 1, {}, 0}};
  LAYOUT_TRY(describeSide(sides[0], served[0], req.store, req.elemBits, order));
  LAYOUT_TRY(describeSide(sides[1], served[1], req.load, req.elemBits, order));

  LAYOUT_TRY_ASSIGN(vec, chooseVector(sides));
  const PhaseSpans px = phaseSpans(sides, vec.basis);
  const SegmentCounts counts = countSegments(sides, n, vec.kWide);
  const std::vector<uint64_t> units = rowMajorUnits(outs);
  LAYOUT_TRY_ASSIGN(rest, buildRest(sides, vec, px.X[vec.narrow], units, n));
  LAYOUT_TRY_ASSIGN(segments, chooseSegments(rest, px, counts, units));
  LAYOUT_TRY_ASSIGN(basis, assembleBasis(vec.basis, units, rest, segments, n));
  LAYOUT_TRY_ASSIGN(shared, sharedFromBasis(basis, outs));

  LAYOUT_TRY_ASSIGN(res, analyzeSynthesized(req, shared));
  addLowerBounds(res, sides, px, req.elemBits);
  if (req.compareFamilies) detail::searchFamilies(req, shape, res);
  for (FamilyCandidate& c : res.families) detail::explainFamily(c, res, req);
  return res;
}

} // namespace layout::smem
