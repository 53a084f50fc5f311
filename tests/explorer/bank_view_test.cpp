// The bank heat map against a brute-force model written from the README's bank semantics: byte
// address = shared address of the element * element bytes, word = byte / bankBytes, bank = word
// mod banks; per phase, the ways of a bank = its distinct words. The shared addresses come from
// the README's own descriptions (row-major, seed 004's XOR rule, padded_shared's padding).
#include "layout/views/bank_view.h"

#include "layout/smem/bank_model.h"
#include "layout/triton/layout_operand.h"

#include "support/seed004_layouts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace {

using layout::LinearLayout;
using layout::views::CellGrid;

// Seed 004's MFMA 16x16x32 reads of the 32x64 f16 tile (the README's `layoutctl banks` default).
constexpr const char* kSeedReads = layout_test::kSeed004ReadsJson;

using AddressOf = std::function<uint64_t(uint64_t row, uint64_t col)>; // element address

// One phase of the model: bank -> (word -> lanes).
using PhaseModel = std::map<int, std::map<uint64_t, std::set<int>>>;

// The first issue of warp 0: lane l moves registers 0 .. v-1 (the layouts here keep those
// contiguous), starting at its lowest address.
std::vector<PhaseModel> bruteForce(const LinearLayout& access, const AddressOf& addressOf,
                                   int elemBits, const layout::smem::BankInstruction& ins) {
  const int elemBytes = elemBits / 8, v = ins.bytesPerLane / elemBytes;
  std::vector<PhaseModel> out;
  for (const auto& lanes : ins.phases) {
    PhaseModel m;
    for (int lane : lanes) {
      std::vector<uint64_t> addrs;
      for (int r = 0; r < v; ++r) {
        // Every other in-dim (warp, block) at 0.
        std::vector<uint64_t> in(size_t(access.numInDims()), 0), out(2);
        in[size_t(access.inDimIndex(layout::dims::reg()))] = uint64_t(r);
        in[size_t(access.inDimIndex(layout::dims::lane()))] = uint64_t(lane);
        access.apply(in, out);
        addrs.push_back(addressOf(out[0], out[1]));
      }
      std::sort(addrs.begin(), addrs.end());
      EXPECT_EQ(addrs.back() - addrs.front(), uint64_t(v - 1)) << "lane " << lane;
      const uint64_t b0 = addrs.front() * elemBytes, b1 = b0 + uint64_t(ins.bytesPerLane);
      for (uint64_t w = b0 / ins.bankBytes; w <= (b1 - 1) / ins.bankBytes; ++w)
        m[int(w % uint64_t(ins.banks))][w].insert(lane);
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::string expectedLabel(const std::set<int>& lanes) {
  auto it = lanes.begin();
  if (lanes.size() == 1) return std::to_string(*it);
  if (lanes.size() == 2) return std::to_string(*it) + "," + std::to_string(*std::next(it));
  return std::to_string(*it) + "+" + std::to_string(lanes.size() - 1);
}

std::string gridId(const std::string& prefix, size_t p) {
  return prefix + "banks" + (p == 0 ? "" : "." + std::to_string(p));
}

// Checks the side's grids cell by cell against the model; returns the largest ways seen.
int checkSide(const layout::views::BankViewResult& res, const std::string& prefix,
              const std::vector<PhaseModel>& model, int banks) {
  int worst = 0;
  for (size_t p = 0; p < model.size(); ++p) {
    SCOPED_TRACE(gridId(prefix, p));
    const CellGrid* g = res.scene.grid(gridId(prefix, p));
    EXPECT_NE(g, nullptr);
    if (!g) continue;
    EXPECT_EQ(g->cols, banks);
    EXPECT_GE(g->cellW, 24);
    int rows = 1;
    for (const auto& [bank, words] : model[p]) rows = std::max(rows, int(words.size()));
    EXPECT_EQ(g->rows, rows);
    for (int b = 0; b < banks; ++b) {
      auto it = model[p].find(b);
      const int ways = it == model[p].end() ? 0 : int(it->second.size());
      worst = std::max(worst, ways);
      EXPECT_EQ(g->fill[size_t(g->index(0, b))], layout::views::palette::heat(ways, res.heatMax))
          << "bank " << b;
      EXPECT_EQ((g->marks[size_t(g->index(0, b))] & layout::views::kMarkConflict) != 0, ways > 1)
          << "bank " << b;
      int w = 0;
      if (it != model[p].end()) {
        for (const auto& [word, lanes] : it->second) {
          EXPECT_EQ(g->labels[size_t(g->index(w++, b))], expectedLabel(lanes))
              << "bank " << b << " word " << word;
        }
      }
      for (; w < g->rows; ++w) EXPECT_EQ(g->labels[size_t(g->index(w, b))], "") << "bank " << b;
    }
  }
  return worst;
}

bool hasText(const layout::views::Scene& s, const std::string& needle) {
  for (const auto& t : s.texts)
    if (t.text.find(needle) != std::string::npos) return true;
  return false;
}

LinearLayout seedAccess() {
  auto op = layout::parseLayoutOperand(kSeedReads, {}, layout::OperandKind::Distributed, "access");
  EXPECT_TRUE(op.ok());
  return op->layout;
}

// The README's `layoutctl banks` example: row-major 32x64 f16 read by ds_read_b128, 4-way.
TEST(BankView, RowMajorSeedTileMatchesTheBruteForceModel) {
  auto res = layout::views::bankView(kSeedReads, "", {}, 16, "cdna4.ds_read_b128");
  ASSERT_TRUE(res.ok()) << res.error().message;
  auto ins = layout::smem::bankInstruction("cdna4.ds_read_b128");
  ASSERT_TRUE(ins.ok());
  auto model = bruteForce(
      seedAccess(), [](uint64_t r, uint64_t c) { return r * 64 + c; }, 16, *ins);
  ASSERT_EQ(model.size(), 4u);
  EXPECT_EQ(checkSide(*res, "", model, 64), 4);
  EXPECT_EQ(res->scene.grid("banks.4"), nullptr);
  EXPECT_EQ(res->current.maxWays(), 4);
  EXPECT_TRUE(hasText(res->scene, "row-major: 4-way, 256 wavefronts (ideal 64)"));
  // Conflicts are drawn: some bank of phase 0 serves four words.
  EXPECT_EQ(res->scene.grid("banks")->rows, 4);
}

// The README's conflict-free seed 004 swizzle (swizzle unit 8, max phase 8): column chunk
// c / 8 XOR row % 8; lane 1 lands on banks 36-39.
TEST(BankView, XorSwizzledSeedTileIsConflictFree) {
  auto res = layout::views::bankView(
      kSeedReads, "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", {},
      16, "cdna4.ds_read_b128");
  ASSERT_TRUE(res.ok()) << res.error().message;
  auto ins = layout::smem::bankInstruction("cdna4.ds_read_b128");
  auto model = bruteForce(
      seedAccess(),
      [](uint64_t r, uint64_t c) { return r * 64 + (((c / 8) ^ (r % 8)) * 8) + c % 8; }, 16, *ins);
  EXPECT_EQ(checkSide(*res, "", model, 64), 1);
  const CellGrid* g = res->scene.grid("banks");
  ASSERT_NE(g, nullptr);
  for (int b = 36; b < 40; ++b) EXPECT_EQ(g->labels[size_t(g->index(0, b))], "1") << b;
  EXPECT_EQ(res->current.wavefronts, res->current.idealWavefronts);
  for (uint8_t m : g->marks) EXPECT_EQ(m & layout::views::kMarkConflict, 0);
}

// Half the XOR swizzle (max phase 4): rows r and r + 4 of a phase share banks, 2-way.
TEST(BankView, PartialSwizzleIsTwoWay) {
  auto res = layout::views::bankView(
      kSeedReads, "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>", {},
      16, "cdna4.ds_read_b128");
  ASSERT_TRUE(res.ok()) << res.error().message;
  auto ins = layout::smem::bankInstruction("cdna4.ds_read_b128");
  auto model = bruteForce(
      seedAccess(),
      [](uint64_t r, uint64_t c) { return r * 64 + (((c / 8) ^ (r % 4)) * 8) + c % 8; }, 16, *ins);
  EXPECT_EQ(checkSide(*res, "", model, 64), 2);
  EXPECT_EQ(res->current.maxWays(), 2);
}

// The synthesized side: its grids agree with the model over the returned layout, and no bank
// serves more words than the phase's ideal.
TEST(BankView, SynthesizedSwizzleHasNoConflicts) {
  auto res = layout::views::bankView(kSeedReads, "", {}, 16, "cdna4.ds_read_b128");
  ASSERT_TRUE(res.ok()) << res.error().message;
  ASSERT_TRUE(res->swizzledShared.has_value()) << res->swizzleNote;
  ASSERT_TRUE(res->swizzled.has_value());
  const LinearLayout& shared = *res->swizzledShared;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> offsetOf;
  for (uint64_t o = 0; o < shared.inDimSize(0); ++o) {
    std::vector<uint64_t> in = {o}, out(2);
    shared.apply(in, out);
    offsetOf[{out[0], out[1]}] = o;
  }
  ASSERT_EQ(offsetOf.size(), 32u * 64u);
  auto ins = layout::smem::bankInstruction("cdna4.ds_read_b128");
  auto model = bruteForce(
      seedAccess(),
      [&](uint64_t r, uint64_t c) {
        return offsetOf.at({r, c});
      },
      16, *ins);
  checkSide(*res, "swizzled.", model, 64);
  for (const PhaseModel& m : model) {
    size_t words = 0, ways = 0;
    for (const auto& [bank, ws] : m) words += ws.size(), ways = std::max(ways, ws.size());
    EXPECT_LE(ways, (words + 63) / 64);
  }
  EXPECT_EQ(res->swizzled->wavefronts, 64u);
  EXPECT_EQ(res->swizzled->wavefronts, res->swizzled->idealWavefronts);
  EXPECT_TRUE(hasText(res->scene, "synthesized swizzle: 1-way, 64 wavefronts (ideal 64)"));
  // Same heat scale on both sides: the row-major side's 4 ways are the maximum.
  EXPECT_EQ(res->heatMax, 4);
}

// The README's padded example: 64x64 f16 stored by st.b128 into #ttg.padded_shared<[64:+4]>,
// element address o + (o / 64) * 4 for row-major offset o.
TEST(BankView, PaddedSharedUsesThePaddedAddresses) {
  int64_t shape[] = {64, 64};
  const char* access = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                       "warpsPerCTA = [4, 1], order = [1, 0]}>";
  auto res = layout::views::bankView(
      access, "#ttg.padded_shared<[64:+4] {order = [1, 0], shape = [64, 64]}>", shape, 16,
      "nvidia.st.b128");
  ASSERT_TRUE(res.ok()) << res.error().message;
  auto op = layout::parseLayoutOperand(access, shape, layout::OperandKind::Distributed, "access");
  ASSERT_TRUE(op.ok());
  auto ins = layout::smem::bankInstruction("nvidia.st.b128");
  auto model = bruteForce(
      op->layout,
      [](uint64_t r, uint64_t c) {
        const uint64_t o = r * 64 + c;
        return o + (o / 64) * 4;
      },
      16, *ins);
  checkSide(*res, "", model, 32);
  EXPECT_TRUE(hasText(res->scene, "#ttg.padded_shared: "));
}

TEST(BankView, PhasesAreCappedWithANote) {
  layout::views::BankViewOptions opt;
  opt.maxPhases = 2;
  auto res = layout::views::bankView(kSeedReads, "", {}, 16, "cdna4.ds_read_b128", opt);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_NE(res->scene.grid("banks.1"), nullptr);
  EXPECT_EQ(res->scene.grid("banks.2"), nullptr);
  EXPECT_NE(res->scene.grid("swizzled.banks.1"), nullptr);
  EXPECT_EQ(res->scene.grid("swizzled.banks.2"), nullptr);
  EXPECT_TRUE(hasText(res->scene, "... 2 more phases"));
  EXPECT_GT(res->scene.width, 0);
  EXPECT_GT(res->scene.height, 0);
}

TEST(BankView, ErrorsNameTheField) {
  int64_t shape[] = {32, 64};
  auto a = layout::views::bankView("#ttg.blocked<{oops}>", "", shape, 16, "cdna4.ds_read_b128");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message.rfind("access: ", 0), 0u) << a.error().message;
  auto s = layout::views::bankView(kSeedReads, "#ttg.swizzled_shared<{vec = 3}>", {}, 16,
                                   "cdna4.ds_read_b128");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message.rfind("shared: ", 0), 0u) << s.error().message;
  auto i = layout::views::bankView(kSeedReads, "", {}, 16, "cdna4.ds_read_b1024");
  ASSERT_FALSE(i.ok());
  EXPECT_EQ(i.error().message.rfind("instruction: unknown instruction", 0), 0u)
      << i.error().message;
  auto j = layout::views::bankView(kSeedReads, "", {}, 16, "{\"name\": 3}");
  ASSERT_FALSE(j.ok());
  EXPECT_EQ(j.error().message.rfind("instruction: ", 0), 0u) << j.error().message;
  // Issue 31: a bank model as JSON is read by the library's bounded reader: nesting past its
  // depth limit is refused before parsing (nlohmann's parser used to take any depth).
  const std::string deep = "{\"name\": " + std::string(300, '[') + std::string(300, ']') + "}";
  auto d = layout::views::bankView(kSeedReads, "", {}, 16, deep);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message.rfind("instruction: JSON nested more than 256 levels deep", 0), 0u)
      << d.error().message;
  auto m = layout::views::bankView(kSeedReads, "", {}, 16, "{\"name\": ");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().message.rfind("instruction: malformed JSON: ", 0), 0u) << m.error().message;
  auto e = layout::views::bankView(kSeedReads, "", {}, 12, "cdna4.ds_read_b128");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message.rfind("elemBits: ", 0), 0u) << e.error().message;
}

} // namespace
