// The convert view's picture of a shared-memory round trip (conversion_view.h): the store's and
// the load's bank maps must show warp 0's first access as the independent bank model of
// tests/support/bank_oracle.h counts it, from the layouts applied here element by element (the
// naive model of tests/support); and a traced element's word is highlighted where that access
// moves it.
#include "layout/views/conversion_trace.h"
#include "layout/views/conversion_view.h"
#include "layout/views/layout_maps.h"

#include "support/bank_oracle.h"
#include "support/encoding_layout.h"
#include "support/naive_bridge.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace layout::views;
using layout::LinearLayout;
using layout::conversion::ConversionKind;

namespace {

const char* kMmaV2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
                     "instrShape = [16, 8]}>";
// Warps stacked over rows: the data crosses warps, through shared memory.
const char* kBlockedRows = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                           "warpsPerCTA = [4, 1], order = [1, 0]}>";

// The bytes lane l of warp 0 moves in the first access. An access moves, per lane, one aligned
// vector of `vector` elements that are consecutive in the shared tile; the first is the one
// holding register 0, and by linearity every lane moves the same registers in it (those whose
// offsets share register 0's vector on lane 0). Offsets come from the shared layout inverted by
// enumerating every offset.
std::vector<bankoracle::Access> firstAccess(const naive::Layout& side, const naive::Layout& shared,
                                            int vector, int elemBytes) {
  std::map<std::vector<uint64_t>, uint64_t> offsetOf;
  const uint64_t offsets = uint64_t{1} << shared.ins[0].second.size();
  for (uint64_t o = 0; o < offsets; ++o) offsetOf[naive::apply(shared, {o})] = o;
  const int regDim = naive::inIndex(side, "register"), laneDim = naive::inIndex(side, "lane");
  auto offset = [&](uint64_t reg, uint64_t lane) {
    std::vector<uint64_t> in(side.ins.size(), 0);
    in[size_t(regDim)] = reg;
    in[size_t(laneDim)] = lane;
    return offsetOf.at(naive::apply(side, in));
  };
  const uint64_t regs = uint64_t{1} << side.ins[size_t(regDim)].second.size();
  const uint64_t lanes = uint64_t{1} << side.ins[size_t(laneDim)].second.size();
  std::vector<uint64_t> mine;
  for (uint64_t r = 0; r < regs; ++r)
    if (offset(r, 0) / uint64_t(vector) == offset(0, 0) / uint64_t(vector)) mine.push_back(r);
  EXPECT_EQ(mine.size(), size_t(vector));
  std::vector<bankoracle::Access> out;
  for (uint64_t lane = 0; lane < lanes; ++lane)
    for (uint64_t r : mine)
      out.push_back({int(lane), offset(r, lane) * uint64_t(elemBytes), elemBytes});
  return out;
}

// MMA v2 -> blocked over rows at 64x64, f16: the plan goes through shared memory; each drawn
// phase of the store and the load has, per bank, one labelled cell per distinct 4-byte word the
// oracle finds on that bank, and as many rows as the phase's wavefronts.
TEST(ConversionView, SharedRoundTripBankMapsMatchTheBankModel) {
  const LinearLayout src = layout_test::encodingLayout(kMmaV2, {64, 64}),
                     dst = layout_test::encodingLayout(kBlockedRows, {64, 64});
  auto plan = layout::conversion::planConversion(src, dst, 16, "nvidia");
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_EQ(plan->kind, ConversionKind::SharedMemory);
  ASSERT_TRUE(plan->shared);
  auto a = TensorMap::build(src), b = TensorMap::build(dst);
  ASSERT_TRUE(a && b);
  const Scene s = conversionScene(*a, *b, *plan, ViewOptions{});
  const naive::Layout shared = layout_test::toNaive(plan->shared->shared);
  constexpr int kBanks = 32, kBankBytes = 4, kElemBytes = 2;
  for (const auto& [prefix, side, report] :
       {std::tuple{"convert.store.banks", &src, &plan->shared->store},
        std::tuple{"convert.load.banks", &dst, &plan->shared->load}}) {
    SCOPED_TRACE(prefix);
    const int vector = report->vectorElements;
    ASSERT_GT(vector, 0);
    // NVIDIA serves 128 bytes a wavefront: lanes in groups of 128 / (bytes a lane moves).
    const auto groups = bankoracle::contiguousLaneGroups(32, 128 / (vector * kElemBytes));
    const auto accesses = firstAccess(layout_test::toNaive(*side), shared, vector, kElemBytes);
    const auto counts = bankoracle::countIssue(accesses, groups, kBanks, kBankBytes);
    for (size_t p = 0; p < groups.size(); ++p) {
      const std::string id = std::string(prefix) + (p == 0 ? "" : "." + std::to_string(p));
      const CellGrid* g = s.grid(id);
      ASSERT_NE(g, nullptr) << id;
      ASSERT_EQ(g->cols, kBanks);
      EXPECT_EQ(g->rows, counts[p].ways) << id;
      std::map<int, std::set<uint64_t>> words; // bank -> distinct words of the phase
      for (const auto& acc : accesses)
        if (std::count(groups[p].begin(), groups[p].end(), acc.lane))
          for (uint64_t byte = acc.byteAddress; byte < acc.byteAddress + uint64_t(acc.bytes);
               ++byte)
            words[int(byte / kBankBytes % kBanks)].insert(byte / kBankBytes);
      for (int bank = 0; bank < kBanks; ++bank) {
        size_t labelled = 0;
        for (int row = 0; row < g->rows; ++row)
          labelled += !g->labels[size_t(g->index(row, bank))].empty();
        EXPECT_EQ(labelled, words[bank].size()) << id << " bank " << bank;
      }
    }
  }
  // The buffer's layout is written out for the user to reuse.
  bool named = false;
  for (const SceneText& t : s.texts)
    named = named || t.text.rfind("buffer layout: #ttg.shared_linear<", 0) == 0;
  EXPECT_TRUE(named);
}

// A traced element: in each phase grid of the store (load) map, the cell of the word holding it
// is highlighted exactly when the oracle's first store (load) access of warp 0 touches that word
// in that phase; the other grids stay unmarked.
TEST(ConversionView, TraceHighlightsTheElementsWordInTheBankMaps) {
  const LinearLayout src = layout_test::encodingLayout(kMmaV2, {64, 64}),
                     dst = layout_test::encodingLayout(kBlockedRows, {64, 64});
  auto plan = layout::conversion::planConversion(src, dst, 16, "nvidia");
  ASSERT_TRUE(plan && plan->shared);
  auto a = TensorMap::build(src), b = TensorMap::build(dst);
  ASSERT_TRUE(a && b);
  const naive::Layout shared = layout_test::toNaive(plan->shared->shared);
  std::map<std::vector<uint64_t>, uint64_t> offsetOf;
  for (uint64_t o = 0; o < uint64_t{1} << shared.ins[0].second.size(); ++o)
    offsetOf[naive::apply(shared, {o})] = o;
  int highlightedSomewhere = 0;
  for (const auto& [row, col] : std::vector<std::pair<int, int>>{{0, 0}, {0, 9}, {17, 42}}) {
    Scene s = conversionScene(*a, *b, *plan, ViewOptions{});
    auto t = traceElement(*plan, *a, *b, row, col, TraceSide::Source);
    ASSERT_TRUE(t) << t.error().message;
    markTrace(s, &*t, &*plan);
    const uint64_t word = offsetOf.at({uint64_t(row), uint64_t(col)}) * 2 / 4;
    for (const auto& [prefix, side, report] :
         {std::tuple{"convert.store.banks", &src, &plan->shared->store},
          std::tuple{"convert.load.banks", &dst, &plan->shared->load}}) {
      const int vector = report->vectorElements;
      const auto groups = bankoracle::contiguousLaneGroups(32, 128 / (vector * 2));
      const auto accesses = firstAccess(layout_test::toNaive(*side), shared, vector, 2);
      for (size_t p = 0; p < groups.size(); ++p) {
        const std::string id = std::string(prefix) + (p == 0 ? "" : "." + std::to_string(p));
        bool touched = false;
        for (const auto& acc : accesses)
          if (std::count(groups[p].begin(), groups[p].end(), acc.lane))
            touched = touched || (acc.byteAddress / 4 <= word &&
                                  word <= (acc.byteAddress + uint64_t(acc.bytes) - 1) / 4);
        const CellGrid* g = s.grid(id);
        ASSERT_NE(g, nullptr);
        std::vector<int> marked;
        for (int i = 0; i < g->rows * g->cols; ++i)
          if (g->marks[size_t(i)] & kMarkHighlight) marked.push_back(i);
        SCOPED_TRACE(id + " element (" + std::to_string(row) + ", " + std::to_string(col) + ")");
        if (!touched) {
          EXPECT_TRUE(marked.empty());
          continue;
        }
        ASSERT_EQ(marked.size(), 1u);
        EXPECT_EQ(marked[0] % g->cols, int(word % 32)); // the word's bank
        ++highlightedSomewhere;
      }
    }
  }
  EXPECT_GT(highlightedSomewhere, 0); // element (0, 0) is in warp 0's first store
}

} // namespace
