// The convert view's element trace (conversion_trace.h) against the layouts themselves: every
// (register, lane, warp, block) of each side is applied here to find who holds each element, and
// each traced step must deliver, from the src location it names, the element the dst location
// holds, by the plan's own rounds, permutation or shared tile.
#include "layout/views/conversion_trace.h"
#include "layout/views/conversion_view.h"
#include "layout/views/layout_maps.h"
#include "layout/views/views.h"

#include "layout/triton/encoding.h"

#include "support/encoding_layout.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

using namespace layout::views;
using layout::DimName;
using layout::LinearLayout;
using layout::conversion::ConversionKind;
using layout::conversion::ConversionPlan;
using layout_test::encodingLayout;

namespace {

const char* kMmaV2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
                     "instrShape = [16, 8]}>";
// Same warp tiles as kMmaV2 (warp 0 -> column 8, warp 1 -> row 16): data stays in the warp.
const char* kBlockedSameWarps = "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], "
                                "warpsPerCTA = [2, 2], order = [1, 0]}>";
// Warps stacked over rows: data crosses warps, through shared memory.
const char* kBlockedRows = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                           "warpsPerCTA = [4, 1], order = [1, 0]}>";

LinearLayout basesLayout(std::vector<layout::InDimBases> ins, uint64_t rows, uint64_t cols) {
  auto ll = LinearLayout::create(ins, {{DimName("dim0"), rows}, {DimName("dim1"), cols}});
  EXPECT_TRUE(ll) << ll.error().message;
  return *ll;
}

using Loc = std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>; // register, lane, warp, block
using Elem = std::pair<uint64_t, uint64_t>;                     // (row, col) of a 2-D tensor

// One side applied location by location, by in-dim name (absent dims have size 1).
struct Side {
  LinearLayout ll;
  uint64_t lanes = 1;
  std::map<Elem, std::set<Loc>> holders;

  explicit Side(LinearLayout l) : ll(std::move(l)) {
    auto size = [&](const char* n) {
      return ll.hasInDim(DimName(n)) ? ll.inDimSize(DimName(n)) : uint64_t{1};
    };
    lanes = size("lane");
    for (uint64_t b = 0; b < size("block"); ++b)
      for (uint64_t w = 0; w < size("warp"); ++w)
        for (uint64_t l = 0; l < lanes; ++l)
          for (uint64_t r = 0; r < size("register"); ++r)
            holders[at({r, l, w, b})].insert({r, l, w, b});
  }

  Elem at(const Loc& loc) const {
    std::vector<uint64_t> in(size_t(ll.numInDims())), out(size_t(ll.numOutDims()));
    for (int i = 0; i < ll.numInDims(); ++i) {
      const std::string_view n = ll.inDimName(i).str();
      in[size_t(i)] = n == "register" ? std::get<0>(loc)
                      : n == "lane"   ? std::get<1>(loc)
                      : n == "warp"   ? std::get<2>(loc)
                                      : std::get<3>(loc);
    }
    ll.apply(in, out);
    return {out[size_t(ll.outDimIndex(DimName("dim0")))],
            out[size_t(ll.outDimIndex(DimName("dim1")))]};
  }

  // triton-tensor-layout's name of a location: T<lane + warp * lanes>:<register>, after
  // "B<block>:" when there are several blocks.
  std::string label(const Loc& loc) const {
    const bool blocks = ll.hasInDim(DimName("block")) && ll.inDimSize(DimName("block")) > 1;
    return (blocks ? "B" + std::to_string(std::get<3>(loc)) + ":" : std::string()) + "T" +
           std::to_string(std::get<1>(loc) + std::get<2>(loc) * lanes) + ":" +
           std::to_string(std::get<0>(loc));
  }
};

Loc locOf(const TraceLocation& l) {
  return {l.reg, l.lane, l.warp, l.block};
}

struct Planned {
  Side src, dst;
  ConversionPlan plan;
  TensorMap srcMap, dstMap;
};

Planned plan(const LinearLayout& src, const LinearLayout& dst, int elemBits) {
  auto p = layout::conversion::planConversion(src, dst, elemBits, "nvidia");
  EXPECT_TRUE(p) << p.error().message;
  auto a = TensorMap::build(src), b = TensorMap::build(dst);
  EXPECT_TRUE(a && b);
  return {Side(src), Side(dst), *p, std::move(*a), std::move(*b)};
}

// The round that fills dst register `reg` (the first of its vector) of `lane`, found by scanning
// the plan's rounds; -1 when none or more than one does.
int fillingRound(const ConversionPlan& p, uint64_t lane, uint64_t reg) {
  int found = -1;
  for (size_t k = 0; k < p.rounds.size(); ++k)
    if (p.rounds[k].dstRegister[lane] == int(reg)) {
      if (found >= 0) return -1;
      found = int(k);
    }
  return found;
}

// Every cell, from both sides: the owners are the layouts' holders, each step carries the element
// from a src location that holds it to the dst location, by the plan's own data.
void checkEveryCell(const Planned& c, ConversionKind kind) {
  ASSERT_EQ(c.plan.kind, kind);
  const ConversionTracer tracer(c.plan, c.srcMap, c.dstMap);
  size_t moved = 0;
  for (const auto& [elem, holders] : c.src.holders) {
    const auto [row, col] = elem;
    for (TraceSide side : {TraceSide::Source, TraceSide::Destination}) {
      auto t = tracer.trace(int(row), int(col), side);
      ASSERT_TRUE(t) << t.error().message;
      EXPECT_EQ(t->side, side);
      std::set<Loc> sources, dests;
      for (const TraceLocation& s : t->sources) {
        sources.insert(locOf(s));
        EXPECT_EQ(s.label, c.src.label(locOf(s)));
        EXPECT_EQ(s.label, c.srcMap.label(s.input));
      }
      EXPECT_EQ(sources, holders) << "(" << row << ", " << col << ")";
      for (const TraceMove& m : t->moves) {
        const Loc to = locOf(m.to), from = locOf(m.from);
        dests.insert(to);
        EXPECT_EQ(m.to.label, c.dst.label(to));
        EXPECT_EQ(m.from.label, c.src.label(from));
        EXPECT_EQ(m.to.label, c.dstMap.label(m.to.input));
        EXPECT_EQ(m.from.label, c.srcMap.label(m.from.input));
        // The step's source holds the element the dst location holds.
        EXPECT_EQ(c.src.at(from), elem) << m.step.text;
        EXPECT_EQ(c.dst.at(to), elem) << m.step.text;
        const auto& [r, lane, warp, block] = to;
        switch (kind) {
        case ConversionKind::None:
          EXPECT_EQ(from, to);
          EXPECT_EQ(m.step.kind, TraceStepKind::None);
          break;
        case ConversionKind::RegisterPermutation:
          EXPECT_EQ(from, Loc(uint64_t(c.plan.registerPermutation[r]), lane, warp, block));
          EXPECT_EQ(m.step.kind,
                    std::get<0>(from) == r ? TraceStepKind::None : TraceStepKind::RegisterMove);
          break;
        case ConversionKind::WarpShuffle: {
          const int copy = c.plan.registerCopies[r];
          const uint64_t filled = copy >= 0 ? uint64_t(copy) : r;
          const uint64_t v = uint64_t(c.plan.vectorElements), first = filled / v * v;
          const int k = fillingRound(c.plan, lane, first);
          ASSERT_GE(k, 0) << "lane " << lane << " register " << first;
          const auto& round = c.plan.rounds[size_t(k)];
          const int sender = round.readLane[lane];
          EXPECT_EQ(m.step.round, k);
          EXPECT_EQ(m.step.sendLane, sender);
          EXPECT_EQ(m.step.sendRegister, round.sendRegister[size_t(sender)]);
          EXPECT_EQ(m.step.copiedFrom, copy >= 0 ? copy : -1);
          EXPECT_EQ(from, Loc(uint64_t(round.sendRegister[size_t(sender)]) + filled - first,
                              uint64_t(sender), warp, block));
          EXPECT_EQ(m.step.kind, uint64_t(sender) == lane ? TraceStepKind::RegisterMove
                                                          : TraceStepKind::Shuffle);
          moved += uint64_t(sender) != lane;
          break;
        }
        case ConversionKind::SharedMemory: {
          EXPECT_EQ(m.step.kind, TraceStepKind::SharedMemory);
          EXPECT_TRUE(holders.count(from));
          ASSERT_TRUE(c.plan.shared);
          EXPECT_EQ(m.step.storeInstruction, c.plan.shared->store.instruction.name);
          EXPECT_EQ(m.step.loadInstruction, c.plan.shared->load.instruction.name);
          // The offset holds the element in the plan's shared tile.
          ASSERT_TRUE(m.step.offset);
          std::vector<uint64_t> in = {*m.step.offset}, out(2);
          c.plan.shared->shared.apply(in, out);
          EXPECT_EQ(Elem(out[0], out[1]), elem) << m.step.text;
          EXPECT_NE(m.step.text.find(c.plan.shared->store.instruction.name), std::string::npos);
          break;
        }
        }
      }
      EXPECT_EQ(dests, c.dst.holders.at(elem)) << "(" << row << ", " << col << ")";
      ASSERT_FALSE(t->moves.empty());
      // The summary names the first dst location and where it comes from.
      const TraceMove& m0 = t->moves[0];
      EXPECT_EQ(t->summary.rfind("src " + m0.from.label + " -> dst " + m0.to.label + ", ", 0), 0u)
          << t->summary;
      EXPECT_EQ(t->summary, tracer.summary(uint64_t(row) * uint64_t(c.srcMap.cols()) + col));
    }
  }
  if (kind == ConversionKind::WarpShuffle) {
    EXPECT_GT(moved, 0u) << "no element crossed lanes";
  }
}

} // namespace

TEST(ConversionTrace, MmaToBlockedInsideWarpsFollowsTheShuffleRounds) {
  Planned c =
      plan(encodingLayout(kMmaV2, {64, 64}), encodingLayout(kBlockedSameWarps, {64, 64}), 16);
  checkEveryCell(c, ConversionKind::WarpShuffle);
}

TEST(ConversionTrace, MmaToBlockedAcrossWarpsGoesThroughSharedMemory) {
  Planned c = plan(encodingLayout(kMmaV2, {64, 64}), encodingLayout(kBlockedRows, {64, 64}), 16);
  checkEveryCell(c, ConversionKind::SharedMemory);
  // f32 as well: the element width changes the instructions and the bytes.
  Planned f = plan(encodingLayout(kMmaV2, {64, 64}), encodingLayout(kBlockedRows, {64, 64}), 32);
  checkEveryCell(f, ConversionKind::SharedMemory);
}

TEST(ConversionTrace, RegisterPermutationAndNone) {
  // Same lanes, registers swapped: dst register 0 is src register 1.
  const LinearLayout src = basesLayout(
      {{DimName("register"), {{0, 1}, {1, 0}}}, {DimName("lane"), {{0, 2}, {0, 4}, {2, 0}}}}, 4, 8);
  const LinearLayout dst = basesLayout(
      {{DimName("register"), {{1, 0}, {0, 1}}}, {DimName("lane"), {{0, 2}, {0, 4}, {2, 0}}}}, 4, 8);
  checkEveryCell(plan(src, dst, 16), ConversionKind::RegisterPermutation);
  checkEveryCell(plan(src, src, 16), ConversionKind::None);
  // Two blocks: the labels say which ("B1:T3:0").
  const LinearLayout srcBlocks = basesLayout({{DimName("register"), {{0, 1}, {1, 0}}},
                                              {DimName("lane"), {{0, 2}, {0, 4}, {2, 0}}},
                                              {DimName("block"), {{4, 0}}}},
                                             8, 8);
  const LinearLayout dstBlocks = basesLayout({{DimName("register"), {{1, 0}, {0, 1}}},
                                              {DimName("lane"), {{0, 2}, {0, 4}, {2, 0}}},
                                              {DimName("block"), {{4, 0}}}},
                                             8, 8);
  Planned b = plan(srcBlocks, dstBlocks, 16);
  checkEveryCell(b, ConversionKind::RegisterPermutation);
  auto t = traceElement(b.plan, b.srcMap, b.dstMap, 5, 0, TraceSide::Source);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->sources.at(0).label.rfind("B1:T", 0), 0u) << t->sources.at(0).label;
}

TEST(ConversionTrace, BroadcastOnEitherSide) {
  // dst holds every element twice (register bit 1 is free): the second copy is copied after the
  // rounds; src holds every element twice (lane bit 2 is free): a round may read either copy.
  const LinearLayout plain = basesLayout(
      {{DimName("register"), {{0, 1}}}, {DimName("lane"), {{0, 2}, {0, 4}, {1, 0}, {2, 0}}}}, 4, 8);
  const LinearLayout dstBroadcast =
      basesLayout({{DimName("register"), {{1, 0}, {0, 0}}},
                   {DimName("lane"), {{0, 1}, {0, 2}, {0, 4}, {2, 0}}}},
                  4, 8);
  Planned d = plan(plain, dstBroadcast, 16);
  checkEveryCell(d, ConversionKind::WarpShuffle);
  auto t = traceElement(d.plan, d.srcMap, d.dstMap, 1, 3, TraceSide::Source);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->moves.size(), 2u);
  EXPECT_NE(t->summary.find("(+1 dst)"), std::string::npos) << t->summary;
  int copied = 0;
  for (const TraceMove& m : t->moves) copied += m.step.copiedFrom >= 0;
  EXPECT_EQ(copied, 1);

  const LinearLayout srcBroadcast =
      basesLayout({{DimName("register"), {{0, 1}, {1, 0}}},
                   {DimName("lane"), {{0, 2}, {0, 4}, {0, 0}, {2, 0}}}},
                  4, 8);
  const LinearLayout dst = basesLayout(
      {{DimName("register"), {{1, 0}}}, {DimName("lane"), {{0, 1}, {0, 2}, {0, 4}, {2, 0}}}}, 4, 8);
  Planned s = plan(srcBroadcast, dst, 16);
  ASSERT_NE(s.plan.kind, ConversionKind::None);
  checkEveryCell(s, s.plan.kind);
  auto u = traceElement(s.plan, s.srcMap, s.dstMap, 2, 5, TraceSide::Destination);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->sources.size(), 2u);
}

// The report's form: the clicked side, the element, owners with their from and step.
TEST(ConversionTrace, JsonNamesOwnersAndSteps) {
  Planned c =
      plan(encodingLayout(kMmaV2, {64, 64}), encodingLayout(kBlockedSameWarps, {64, 64}), 16);
  auto t = traceElement(c.plan, c.srcMap, c.dstMap, 17, 42, TraceSide::Destination);
  ASSERT_TRUE(t);
  const auto j = traceToJson(*t);
  EXPECT_EQ(j["side"], "dst");
  EXPECT_EQ(j["grid"], "convert.dst");
  EXPECT_EQ(j["element"], nlohmann::ordered_json::array({17, 42}));
  EXPECT_EQ(j["kind"], "warpShuffle");
  ASSERT_EQ(j["destinations"].size(), c.dst.holders.at({17, 42}).size());
  ASSERT_EQ(j["sources"].size(), c.src.holders.at({17, 42}).size());
  const auto& d = j["destinations"][0];
  auto loc = [](const nlohmann::ordered_json& l) {
    return Loc(l["register"].get<uint64_t>(), l["lane"].get<uint64_t>(), l["warp"].get<uint64_t>(),
               l["block"].get<uint64_t>());
  };
  const Loc to = loc(d), from = loc(d["from"]);
  EXPECT_EQ(c.dst.at(to), Elem(17, 42));
  EXPECT_EQ(c.src.at(from), Elem(17, 42));
  EXPECT_EQ(d["label"], c.dst.label(to));
  const std::string kind = d["step"]["kind"];
  EXPECT_TRUE(kind == "shuffle" || kind == "registerMove") << kind;
  EXPECT_EQ(d["step"]["sendLane"].get<uint64_t>(), std::get<1>(from));
  EXPECT_EQ(j["text"], t->summary);
  // Outside the tensor: an error, not a trace.
  EXPECT_FALSE(traceElement(c.plan, c.srcMap, c.dstMap, 64, 0, TraceSide::Source));
}

// Marked in the scene: the element on both sides, the round's sender and receiver; cleared again.
TEST(ConversionTrace, MarksTheElementAndItsRound) {
  Planned c =
      plan(encodingLayout(kMmaV2, {64, 64}), encodingLayout(kBlockedSameWarps, {64, 64}), 16);
  Scene s = conversionScene(c.srcMap, c.dstMap, c.plan, {});
  auto t = traceElement(c.plan, c.srcMap, c.dstMap, 5, 9, TraceSide::Source);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->moves.size(), 1u);
  const TraceMove& m = t->moves[0];
  ASSERT_EQ(m.step.kind, TraceStepKind::Shuffle) << m.step.text;
  markTrace(s, &*t);
  for (const char* id : {"convert.src", "convert.dst"}) {
    const CellGrid* g = s.grid(id);
    ASSERT_TRUE(g);
    EXPECT_EQ(countMarked(*g, kMarkHighlight), 1) << id;
    EXPECT_TRUE(g->marks[size_t(g->index(5, 9))] & kMarkHighlight) << id;
    // The tooltip text: the same summary on both sides.
    EXPECT_EQ(g->details[size_t(g->index(5, 9))], t->summary);
  }
  const CellGrid* round = s.grid("convert.round." + std::to_string(m.step.round));
  ASSERT_TRUE(round);
  EXPECT_EQ(countMarked(*round, kMarkHighlight), 2);
  EXPECT_TRUE(round->marks[size_t(round->index(0, std::get<1>(locOf(m.from))))] & kMarkHighlight);
  EXPECT_TRUE(round->marks[size_t(round->index(2, int(m.to.lane)))] & kMarkHighlight);
  markTrace(s, nullptr);
  for (const CellGrid& g : s.grids) EXPECT_EQ(countMarked(g, kMarkHighlight), 0) << g.id;
}
