// The layout-conversion planner (layout/conversion/conversion_plan.h): classification of
// comp = dst.invertAndCompose(src) as Triton's minimalCvtLayout does, and the explicit plan of each
// kind. Every plan is checked here against the layouts before it is returned.
//
// Shuffle rounds (intra-warp). Write comp on the (register, lane) bits of one warp as
//   src register = A r + B l,  src lane = C r + D l   (r, l: a dst register and lane),
// after taking off the low register bits that are the identity on both sides (the vector, which
// travels as one value of at most 32 bits). Pick a linear Phi (lane -> dst register) and, where
// src broadcasts, a linear Psi (lane -> a src kernel vector: another location of the same
// element). Round t serves dst register t + Phi l on lane l; its source lane is
// s(l) = C t + M l with M = C Phi + D + Psi_lane, and the register it needs is A t + N l with
// N = A Phi + B + Psi_reg. When ker M is inside ker N every sender is asked for one register
// only, so a round is one shuffle. First choice: M = identity (solve C Phi + Psi_lane = I + D
// column by column), which makes the rounds with C t = 0 local register moves - the most any
// schedule can have. Otherwise Phi maps the lanes dst broadcasts to comp's kernel (M = N = 0
// there) and M is built injective on the other lanes, column by column, from D and the columns
// C e_i and the src kernel's lanes (greedy is exact here: failure does not depend on earlier
// choices). t runs over a complement of the dst registers that repeat an element (dst broadcast;
// those are copied afterwards), so the rounds meet the lower bound of one dst vector per lane
// per round. If no such Phi exists (src broadcast the search cannot use), a greedy scheduler
// that tries the src copies of each element builds the rounds instead (noted in the plan).
#include "layout/conversion/conversion_plan.h"

#include "layout/core/element_bits.h"

#include <algorithm>
#include <array>
#include <bit>

namespace layout::conversion {

namespace {

// A span over GF(2) with payloads that follow the same row operations: the key is reduced (each
// row's pivot is its lowest bit; rows are applied in insertion order), the payloads accumulate.
struct Span {
  struct Row {
    uint64_t key = 0, a = 0, b = 0;
  };
  std::vector<Row> rows;

  Row reduce(Row v) const {
    for (const Row& r : rows)
      if ((v.key >> std::countr_zero(r.key)) & 1) {
        v.key ^= r.key;
        v.a ^= r.a;
        v.b ^= r.b;
      }
    return v;
  }
  // Adds v (reduced); returns false when v's key was already in the span (v is then reduced).
  bool insert(Row& v) {
    v = reduce(v);
    if (v.key == 0) return false;
    rows.push_back(v);
    return true;
  }
};

// Bits `first..first+count` of v.
uint64_t bitsOf(uint64_t v, int first, int count) {
  return count == 0 ? 0
                    : (v >> first) & ((count >= 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1));
}

// The image of x under the map whose column i is cols[i].
uint64_t applyCols(const std::vector<uint64_t>& cols, uint64_t x) {
  uint64_t y = 0;
  for (size_t i = 0; i < cols.size(); ++i)
    if ((x >> i) & 1) y ^= cols[i];
  return y;
}

// A basis of the kernel of the map with columns `cols` (each vector a bit mask over the columns).
std::vector<uint64_t> kernelBasis(const std::vector<uint64_t>& cols) {
  Span s;
  std::vector<uint64_t> kernel;
  for (size_t i = 0; i < cols.size(); ++i) {
    Span::Row r{cols[i], uint64_t{1} << i, 0};
    if (!s.insert(r)) kernel.push_back(r.a);
  }
  return kernel;
}

// Per dst in-bit (register, lane, warp, block order), the packed src location of comp.
std::vector<uint64_t> compColumns(const LinearLayout& comp) {
  std::vector<uint64_t> cols(comp.totalInDimSizeLog2());
  for (int g = 0; g < comp.totalInDimSizeLog2(); ++g) cols[g] = comp.basisWords(g)[0];
  return cols;
}

struct Geometry {
  int nrS = 0, nrD = 0, nl = 0, nw = 0, nb = 0;
};

// The element (tensor coordinates packed) at register r, lane l of warp 0, block 0.
uint64_t elementAt(const LinearLayout& l, uint64_t reg, uint64_t lane) {
  return l.applyPacked(reg | (lane << l.inDimSizeLog2(0)));
}

// Checks every round against the layouts: the sender's register holds what the reader stores.
bool roundsCorrect(const ConversionPlan& p, const LinearLayout& src, const LinearLayout& dst) {
  std::vector<std::vector<char>> filled(p.numLanes, std::vector<char>(p.dstRegisters, 0));
  for (const ShuffleRound& round : p.rounds)
    for (int l = 0; l < p.numLanes; ++l) {
      int from = round.readLane[l], sreg = round.sendRegister[from], dreg = round.dstRegister[l];
      if (dreg < 0) continue; // idle this round
      if (sreg < 0) return false;
      for (int e = 0; e < p.vectorElements; ++e) {
        if (elementAt(src, sreg + e, from) != elementAt(dst, dreg + e, l)) return false;
        filled[l][dreg + e] = 1;
      }
    }
  for (int l = 0; l < p.numLanes; ++l)
    for (int r = 0; r < p.dstRegisters; ++r) {
      int from = p.registerCopies[r];
      if (from < 0 ? !filled[l][r]
                   : !filled[l][from] || elementAt(dst, r, l) != elementAt(dst, from, l))
        return false;
    }
  return true;
}

// One CTA's tile of `side` (register, lane, warp -> dims): the tensor bits that src's block bases
// select are dropped. They must be single bits that no register, lane or warp reaches.
Expected<LinearLayout> ctaTile(const LinearLayout& src, const LinearLayout& side,
                               const char* name) {
  const int block = src.inDimIndex(dims::block());
  uint64_t mask = 0;
  for (int i = 0; i < src.inDimSizeLog2(block); ++i) {
    uint64_t v = src.basisWords(src.inDimFirstBasis(block) + i)[0];
    if (std::popcount(v) > 1)
      return makeError("src: block basis " + std::to_string(i) +
                       " is not a single tensor bit; per-CTA tiles are not modelled for it");
    mask |= v;
  }
  if (mask == 0) return side;
  std::vector<DimSize> outDims = side.outDims();
  for (int d = 0; d < side.numOutDims(); ++d)
    outDims[d].size >>=
        std::popcount(bitsOf(mask, side.outDimBitOffset(d), side.outDimSizeLog2(d)));
  std::vector<InDimBases> ins = side.inDims();
  for (int i = 0, g = 0; i < side.numInDims(); ++i)
    for (size_t b = 0; b < ins[i].bases.size(); ++b, ++g) {
      if (side.basisWords(g)[0] & mask)
        return makeError(std::string(name) + ": " + std::string(side.inDimName(i).str()) + " " +
                         std::to_string(b) +
                         " reaches a tensor bit the blocks split; per-CTA tiles are not separable");
      for (int d = 0; d < side.numOutDims(); ++d) {
        uint64_t dimMask = bitsOf(mask, side.outDimBitOffset(d), side.outDimSizeLog2(d));
        uint64_t v = ins[i].bases[b][d], packed = 0;
        for (int bit = 0, out = 0; bit < side.outDimSizeLog2(d); ++bit)
          if (!((dimMask >> bit) & 1)) packed |= ((v >> bit) & 1) << out++;
        ins[i].bases[b][d] = packed;
      }
    }
  return LinearLayout::create(ins, outDims);
}

// The vector: low register bits that are the identity and that no other column touches (at most
// one 32-bit value on the wire). Returns its number of bits.
int vectorBits(const ConversionPlan& p, const Geometry& g, const std::vector<uint64_t>& cols) {
  const int wireElems = p.elemBits >= 32 ? 1 : 32 / p.elemBits;
  int k = 0;
  while (k < g.nrD && k < g.nrS && (1 << (k + 1)) <= wireElems) {
    bool ok = cols[k] == (uint64_t{1} << k);
    for (int i = 0; ok && i < g.nrD + g.nl; ++i)
      if (i != k && ((cols[i] >> k) & 1)) ok = false;
    if (!ok) break;
    ++k;
  }
  return k;
}

// comp on one warp's (register, lane) bits with the vector taken off, and the dst registers the
// rounds fill.
struct WarpComp {
  int k = 0;                    // vector bits
  int nr = 0, nrs = 0, nl = 0;  // dst and src register bits above the vector; lane bits
  std::vector<uint64_t> cR, cL; // comp's columns of those dst register bits and of the lane bits
  Span regKernel;               // dst registers that repeat an element (dst broadcast)
  std::vector<int> tBasis;      // register bits spanning T, a complement of regKernel

  uint64_t laneOf(uint64_t v) const { return bitsOf(v, nrs, nl); }
  uint64_t regOf(uint64_t v) const { return bitsOf(v, 0, nrs); }
  uint64_t canonicalReg(uint64_t r) const { return regKernel.reduce({r, 0, 0}).key; }
};

// comp's columns above the vector, cR (A over C, per dst register bit) and cL (B over D, per lane
// bit), and the dst broadcast registers with their complement T.
WarpComp warpComp(const Geometry& g, const std::vector<uint64_t>& cols, int k) {
  WarpComp w;
  w.k = k;
  w.nr = g.nrD - k;
  w.nrs = g.nrS - k;
  w.nl = g.nl;
  w.cR.resize(w.nr);
  w.cL.resize(g.nl);
  for (int i = 0; i < w.nr; ++i) w.cR[i] = cols[k + i] >> k;
  for (int j = 0; j < g.nl; ++j) w.cL[j] = cols[g.nrD + j] >> k;
  // Dst registers that repeat an element (dst broadcast): fill a complement T, copy the rest.
  for (uint64_t v : kernelBasis(w.cR)) {
    Span::Row r{v, 0, 0};
    w.regKernel.insert(r);
  }
  uint64_t pivotMask = 0;
  for (const auto& r : w.regKernel.rows) pivotMask |= r.key & (~r.key + 1);
  for (int i = 0; i < w.nr; ++i)
    if (!((pivotMask >> i) & 1)) w.tBasis.push_back(i);
  return w;
}

// The lanes dst broadcasts and what they force on Phi.
struct BroadcastLanes {
  Span laneMap;       // key: dst lane vector; a: Phi (dst register in T); b: Psi (src location)
  uint64_t lanes = 0; // the lane bits those rows pivot on
};

// Lane directions dst broadcasts (with some register offset): comp(x, u) = 0. Lane bits first.
BroadcastLanes dstBroadcastLanes(const WarpComp& w) {
  std::vector<uint64_t> laneFirst(w.nl + w.nr);
  for (int j = 0; j < w.nl; ++j) laneFirst[j] = w.cL[j];
  for (int i = 0; i < w.nr; ++i) laneFirst[w.nl + i] = w.cR[i];
  Span kernelEch;
  for (uint64_t v : kernelBasis(laneFirst)) {
    Span::Row r{v, 0, 0};
    kernelEch.insert(r);
  }
  BroadcastLanes b;
  for (const auto& r : kernelEch.rows) {
    uint64_t u = bitsOf(r.key, 0, w.nl);
    if (u == 0) continue;
    Span::Row row{u, w.canonicalReg(r.key >> w.nl), 0};
    b.laneMap.insert(row);
    b.lanes |= u & (~u + 1);
  }
  return b;
}

// src's kernel on one warp (register bits above the vector, lanes): other src locations of the
// same element.
std::vector<uint64_t> srcKernelBasis(const LinearLayout& src, const Geometry& g, int k) {
  std::vector<uint64_t> srcCols;
  for (int i = k; i < g.nrS; ++i) srcCols.push_back(src.basisWords(i)[0]);
  for (int j = 0; j < g.nl; ++j) srcCols.push_back(src.basisWords(g.nrS + j)[0]);
  return kernelBasis(srcCols);
}

// Generators that move a lane's source: dst registers of T, and the src kernel (other src
// locations of the same element, vector bits excluded).
Span sourceMoves(const WarpComp& w, const std::vector<uint64_t>& srcKernel) {
  Span gens;
  for (int i : w.tBasis) {
    Span::Row r{w.laneOf(w.cR[i]), uint64_t{1} << i, 0};
    gens.insert(r);
  }
  for (uint64_t v : srcKernel) {
    Span::Row r{w.laneOf(v), 0, v};
    gens.insert(r);
  }
  return gens;
}

// First choice, M = identity on every lane: solves C Phi + Psi_lane = I + D column by column
// into `choice`. False when some lane bit has no solution.
bool identityLaneChoice(const WarpComp& w, const Span& gens, std::vector<Span::Row>& choice) {
  for (int j = 0; j < w.nl; ++j) {
    Span::Row want = gens.reduce({(uint64_t{1} << j) ^ w.laneOf(w.cL[j]), 0, 0});
    if (want.key != 0) return false;
    choice.push_back({uint64_t{1} << j, want.a, want.b});
  }
  return true;
}

// Otherwise M zero on the broadcast lanes and injective on the others, built column by column
// into `choice` from D and the generators. False when no such M exists.
bool injectiveLaneChoice(const WarpComp& w, const Span& gens, uint64_t broadcastLanes,
                         std::vector<Span::Row>& choice) {
  std::vector<int> freeLaneBits;
  for (int j = 0; j < w.nl; ++j)
    if (!((broadcastLanes >> j) & 1)) freeLaneBits.push_back(j);
  choice.clear();
  Span images;
  for (int j : freeLaneBits) {
    Span::Row img{w.laneOf(w.cL[j]), 0, 0};
    if (images.reduce(img).key == 0) {
      bool found = false;
      for (const auto& gr : gens.rows) {
        Span::Row trial{img.key ^ gr.key, gr.a, gr.b};
        if (images.reduce(trial).key != 0) {
          img = trial;
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    choice.push_back({uint64_t{1} << j, img.a, img.b});
    images.insert(img);
  }
  return true;
}

// The dst registers (above the vector) the rounds fill: T's values, one per round.
std::vector<uint64_t> roundRegisters(const WarpComp& w) {
  std::vector<uint64_t> tValues;
  for (uint64_t t = 0; t < (uint64_t{1} << w.nr); ++t)
    if (w.canonicalReg(t) == t) tValues.push_back(t);
  return tValues;
}

// The lower bound on rounds, and the dst registers copied afterwards from the one in T that
// holds the same element.
void planRegisterCopies(ConversionPlan& p, const WarpComp& w, int roundsLowerBound) {
  p.roundsLowerBound = roundsLowerBound;
  p.registerCopies.assign(p.dstRegisters, -1);
  for (int r = 0; r < p.dstRegisters; ++r) {
    uint64_t hi = uint64_t(r) >> w.k, canon = w.canonicalReg(hi);
    if (canon != hi)
      p.registerCopies[r] = int((canon << w.k) | (uint64_t(r) & (p.vectorElements - 1)));
  }
}

// A round in which no lane has been given anything yet.
ShuffleRound emptyRound(int lanes) {
  return ShuffleRound{std::vector<int>(lanes, -1), std::vector<int>(lanes, -1),
                      std::vector<int>(lanes, -1), false};
}

// The linear rounds: round t serves dst register t + Phi l on lane l from lane C t + M l.
// False (the rounds so far kept) when a sender would be asked for two registers in one round.
bool linearRounds(ConversionPlan& p, const WarpComp& w, const Span& laneMap,
                  const std::vector<uint64_t>& tValues, int lanes) {
  for (uint64_t t : tValues) {
    ShuffleRound round = emptyRound(lanes);
    for (int l = 0; l < lanes; ++l) {
      Span::Row m = laneMap.reduce({uint64_t(l), 0, 0});
      uint64_t r = t ^ m.a;
      uint64_t s = applyCols(w.cR, r) ^ applyCols(w.cL, uint64_t(l)) ^ m.b;
      int from = int(w.laneOf(s)), sreg = int(w.regOf(s) << w.k);
      round.readLane[l] = from;
      round.dstRegister[l] = int(r << w.k);
      if (round.sendRegister[from] >= 0 && round.sendRegister[from] != sreg) return false;
      round.sendRegister[from] = sreg;
    }
    p.rounds.push_back(std::move(round));
  }
  return true;
}

// A lane nobody reads still puts something on the wire: register 0.
void sendZeroWhereUnread(ShuffleRound& round) {
  for (int& s : round.sendRegister)
    if (s < 0) s = 0;
}

// Gives lane l one of its pending dst registers in `round`: the first (a bounded look-ahead
// keeps a round linear in the lanes) that some src copy can send without its sender being asked
// for a second register. False when none fits this round.
bool takeGreedy(ShuffleRound& round, std::vector<uint64_t>& mine, int l, const WarpComp& w,
                const std::vector<uint64_t>& srcKernel) {
  for (size_t idx = 0; idx < mine.size() && idx < 64; ++idx) {
    uint64_t base = applyCols(w.cR, mine[idx]) ^ applyCols(w.cL, uint64_t(l));
    for (uint64_t c = 0; c < (uint64_t{1} << srcKernel.size()); ++c) {
      uint64_t s = base ^ applyCols(srcKernel, c);
      int from = int(w.laneOf(s)), sreg = int(w.regOf(s) << w.k);
      if (round.sendRegister[from] >= 0 && round.sendRegister[from] != sreg) continue;
      round.sendRegister[from] = sreg;
      round.readLane[l] = from;
      round.dstRegister[l] = int(mine[idx] << w.k);
      mine.erase(mine.begin() + idx);
      return true;
    }
  }
  return false;
}

// Greedy rounds over every src location of each element, replacing any linear ones: for when
// no linear schedule fits (src broadcast the search cannot use).
void greedyRounds(ConversionPlan& p, const WarpComp& w, const std::vector<uint64_t>& srcKernelAll,
                  const std::vector<uint64_t>& tValues, int lanes) {
  p.rounds.clear();
  p.notes.push_back("no linear shuffle schedule fits (src broadcast); greedy rounds over "
                    "every src copy of each element");
  std::vector<uint64_t> srcKernel = srcKernelAll;
  if (srcKernel.size() > 6) srcKernel.resize(6); // 64 alternatives are plenty
  std::vector<std::vector<uint64_t>> pending(lanes, tValues);
  size_t left = size_t(lanes) * tValues.size();
  while (left > 0) {
    ShuffleRound round = emptyRound(lanes);
    for (int l = 0; l < lanes; ++l)
      if (takeGreedy(round, pending[l], l, w, srcKernel)) --left;
    // Lanes with nothing to fill this round read themselves and store nothing.
    for (int l = 0; l < lanes; ++l)
      if (round.readLane[l] < 0) round.readLane[l] = l;
    sendZeroWhereUnread(round);
    p.rounds.push_back(std::move(round));
  }
}

// Marks the rounds in which every lane reads itself as local, counts the others as shuffles, and
// notes when no round shuffles or the rounds meet the lower bound.
void summarizeRounds(ConversionPlan& p, int lanes) {
  for (auto& round : p.rounds) {
    round.local = true;
    for (int l = 0; l < lanes; ++l)
      if (round.readLane[l] != l) round.local = false;
    if (!round.local) ++p.shuffleRounds;
  }
  if (p.shuffleRounds == 0)
    p.notes.push_back("every round is local: each lane already holds its elements (src "
                      "broadcast), registers move without shuffles");
  if (int(p.rounds.size()) == p.roundsLowerBound)
    p.notes.push_back(std::to_string(p.rounds.size()) +
                      " rounds: the lower bound (one dst vector per lane per round)");
}

// The shuffle plan. `cols`: comp's columns; src/dst normalized.
void planShuffles(ConversionPlan& p, const Geometry& g, const std::vector<uint64_t>& cols,
                  const LinearLayout& src, const LinearLayout& dst) {
  const int lanes = 1 << g.nl;
  const int k = vectorBits(p, g, cols);
  p.vectorElements = 1 << k;
  const WarpComp w = warpComp(g, cols, k);
  BroadcastLanes broadcast = dstBroadcastLanes(w);
  const std::vector<uint64_t> srcKernel = srcKernelBasis(src, g, k);
  const Span gens = sourceMoves(w, srcKernel);

  // Phi, Psi: first M = identity on every lane (the rounds with C t = 0 are then local), else M
  // zero on the broadcast lanes and injective on the others.
  Span& laneMap = broadcast.laneMap;
  std::vector<Span::Row> choice;
  bool linear = true;
  if (identityLaneChoice(w, gens, choice))
    laneMap = Span{};
  else
    linear = injectiveLaneChoice(w, gens, broadcast.lanes, choice);

  const std::vector<uint64_t> tValues = roundRegisters(w);
  planRegisterCopies(p, w, int(tValues.size()));
  if (linear) {
    for (Span::Row& c : choice) laneMap.insert(c);
    linear = linearRounds(p, w, laneMap, tValues, lanes);
  }
  if (linear) {
    for (auto& round : p.rounds) sendZeroWhereUnread(round);
    linear = roundsCorrect(p, src, dst);
  }
  if (!linear) greedyRounds(p, w, srcKernel, tValues, lanes);
  summarizeRounds(p, lanes);
}

// The sizes the planner handles: at most 62 hardware and tensor bits a side, and registers and
// lanes few enough to spell the plan out per register and lane.
Expected<void> checkPlannable(const LinearLayout& src, const LinearLayout& dst) {
  for (auto [l, side] : {std::pair{&src, "src"}, std::pair{&dst, "dst"}})
    if (l->totalInDimSizeLog2() > 62 || l->totalOutDimSizeLog2() > 62)
      return makeError(std::string(side) + ": " + std::to_string(l->totalInDimSizeLog2()) +
                       " hardware bits and " + std::to_string(l->totalOutDimSizeLog2()) +
                       " tensor bits; the planner handles at most 62 of each");

  // Plans are spelled out per register and lane: keep them enumerable.
  for (auto [l, side] : {std::pair{&src, "src"}, std::pair{&dst, "dst"}}) {
    if (l->inDimSizeLog2(0) > 20)
      return makeError(std::string(side) + ": " + std::to_string(l->inDimSize(0)) +
                       " registers per lane; the planner spells out at most 2^20");
    if (l->inDimSizeLog2(1) > 10)
      return makeError(std::string(side) + ": " + std::to_string(l->inDimSize(1)) +
                       " lanes; the planner handles at most 1024");
    if (l->inDimSizeLog2(2) > 20 || l->inDimSizeLog2(3) > 20)
      return makeError(std::string(side) + ": " + std::to_string(l->inDimSize(2)) + " warps, " +
                       std::to_string(l->inDimSize(3)) + " blocks; the planner handles 2^20 each");
    if (l->inDimSizeLog2(0) + l->inDimSizeLog2(1) > 18)
      return makeError(std::string(side) + ": " + std::to_string(l->inDimSize(0)) +
                       " registers x " + std::to_string(l->inDimSize(1)) +
                       " lanes; the planner spells out at most 2^18 per warp");
  }
  return {};
}

// Notes each side's broadcast (free variables) and what the plan does about it.
void noteBroadcasts(ConversionPlan& p, const LinearLayout& src, const LinearLayout& dst) {
  for (auto [free, side] :
       {std::pair{src.freeVariableMasks(), "src"}, std::pair{dst.freeVariableMasks(), "dst"}}) {
    std::string bits;
    for (auto& [name, mask] : free)
      if (mask)
        bits +=
            (bits.empty() ? "" : ", ") + std::string(name.str()) + " mask " + std::to_string(mask);
    if (!bits.empty())
      p.notes.push_back(std::string(side) + " broadcasts (" + bits + "): " +
                        (std::string(side) == "src"
                             ? "each element is taken from its smallest src location"
                             : "repeated dst locations receive copies of one element"));
  }
}

// The conversion through shared memory: each CTA's tile is stored by src and loaded by dst with
// the synthesized swizzle for `target`.
Expected<void> planThroughShared(ConversionPlan& p, const LinearLayout& src,
                                 const LinearLayout& dst, int elemBits, std::string_view target) {
  const std::array<DimName, 1> blockOnly = {dims::block()};
  LAYOUT_TRY_ASSIGN(sameBlock, p.comp.isTrivialOver(blockOnly));
  if (!sameBlock)
    return makeError("dst: the conversion moves data between blocks (CTAs of a cluster); "
                     "distributed shared memory is not modelled");
  const std::array<DimName, 3> rlw = {dims::reg(), dims::lane(), dims::warp()};
  const std::vector<DimName> outs = src.outDimNames();
  LAYOUT_TRY_ASSIGN(storeFull, src.sublayout(rlw, outs));
  LAYOUT_TRY_ASSIGN(loadFull, dst.sublayout(rlw, outs));
  // Each CTA converts its own tile in its own shared memory.
  LAYOUT_TRY_ASSIGN(storeTile, ctaTile(src, storeFull, "src"));
  LAYOUT_TRY_ASSIGN(loadTile, ctaTile(src, loadFull, "dst"));
  if (p.numBlocks > 1)
    p.notes.push_back(std::to_string(p.numBlocks) +
                      " blocks: each CTA converts its own tile through its own shared memory; the "
                      "shared layout is over one CTA's tile (the tensor without the bits the "
                      "blocks split)");
  // Duplicate registers (zero bases) hold nothing new: stored and loaded once, copied in registers.
  LAYOUT_TRY_ASSIGN(store, storeTile.removeZeroBasesAlongDim(dims::reg()));
  LAYOUT_TRY_ASSIGN(load, loadTile.removeZeroBasesAlongDim(dims::reg()));
  auto found = smem::synthesizeSwizzleForTarget(store, load, elemBits, target);
  if (!found) return withContext(found.error(), "shared memory");
  p.shared = std::move(*found);
  return {};
}

} // namespace

Expected<ConversionPlan> planConversion(const LinearLayout& srcIn, const LinearLayout& dstIn,
                                        int elemBits, std::string_view target) {
  LAYOUT_TRY(checkElementBits(elemBits, "elemBits"));
  if (auto t = smem::bankTarget(target); !t) return withContext(t.error(), "target");
  LAYOUT_TRY_ASSIGN(cls, classifyConversion(srcIn, dstIn));
  const LinearLayout& src = cls.src;
  const LinearLayout& dst = cls.dst;
  LAYOUT_TRY(checkPlannable(src, dst));

  ConversionPlan p;
  p.elemBits = elemBits;
  Geometry g{src.inDimSizeLog2(0), dst.inDimSizeLog2(0), src.inDimSizeLog2(1), src.inDimSizeLog2(2),
             src.inDimSizeLog2(3)};
  p.numLanes = 1 << g.nl;
  p.numWarps = 1 << g.nw;
  p.numBlocks = 1 << g.nb;
  p.srcRegisters = 1 << g.nrS;
  p.dstRegisters = 1 << g.nrD;
  p.comp = std::move(cls.comp);
  noteBroadcasts(p, src, dst);

  p.kind = cls.kind;
  if (p.kind == ConversionKind::None) return p;
  const std::vector<uint64_t> cols = compColumns(p.comp);
  if (p.kind == ConversionKind::RegisterPermutation) {
    p.registerPermutation.resize(p.dstRegisters);
    for (int r = 0; r < p.dstRegisters; ++r) {
      uint64_t s = 0;
      for (int i = 0; i < g.nrD; ++i)
        if ((r >> i) & 1) s ^= cols[i];
      p.registerPermutation[r] = int(s);
    }
    return p;
  }
  if (p.kind == ConversionKind::WarpShuffle) {
    planShuffles(p, g, cols, src, dst);
    if (p.elemBits == 64) p.notes.push_back("64-bit elements: each round is two 32-bit shuffles");
    if (!roundsCorrect(p, src, dst))
      return makeError("internal: the shuffle rounds do not deliver dst's elements");
    return p;
  }
  LAYOUT_TRY(planThroughShared(p, src, dst, elemBits, target));
  return p;
}

} // namespace layout::conversion
