// The banks view's shared grid ("banks.tensor") coloured by bank, phase and vector group, and its
// access picker, against models computed here: an element's address from the shared layout's own
// rule (row-major, seed 004's XOR swizzle, padded_shared's padding), byte = address * element
// bytes, bank = (byte / bankBytes) % banks with the bank model of liblayout's
// smem::bankInstruction; per access, the lanes' words and the ways of each bank.
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
using layout::views::BankViewOptions;
using layout::views::BankViewResult;
using layout::views::CellGrid;
namespace palette = layout::views::palette;

// Seed 004's MFMA 16x16x32 reads of the 32x64 f16 tile: registers 0-2 are 8 consecutive columns
// (one ds_read_b128 vector), register 3 is column 32 (the second issue); warps 0-3 and 4-7 read
// the same rows.
constexpr const char* kSeedReads = layout_test::kSeed004ReadsJson;

using AddressOf = std::function<uint64_t(uint64_t row, uint64_t col)>; // element address

LinearLayout parse(const char* text, std::span<const int64_t> shape) {
  auto op = layout::parseLayoutOperand(text, shape, layout::OperandKind::Distributed, "access");
  EXPECT_TRUE(op.ok()) << op.error().message;
  return op ? op->layout : LinearLayout();
}

std::pair<uint64_t, uint64_t> elementOf(const LinearLayout& access, uint64_t reg, uint64_t lane,
                                        uint64_t warp) {
  std::vector<uint64_t> in(size_t(access.numInDims()), 0), out(2);
  in[size_t(access.inDimIndex(layout::dims::reg()))] = reg;
  in[size_t(access.inDimIndex(layout::dims::lane()))] = lane;
  if (int w = access.inDimIndex(layout::dims::warp()); w >= 0) in[size_t(w)] = warp;
  access.apply(in, out);
  return {out[0], out[1]};
}

// Every cell of "banks.tensor" is labelled with the bank of its first byte and filled with that
// bank's colour: one colour per bank.
void expectBankColours(const BankViewResult& res, const AddressOf& addressOf, int elemBytes,
                       const layout::smem::BankInstruction& ins) {
  const CellGrid* g = res.scene.grid("banks.tensor");
  ASSERT_NE(g, nullptr);
  std::map<int, layout::views::Rgba> colourOf;
  std::set<int> seen;
  for (int r = 0; r < g->rows; ++r)
    for (int c = 0; c < g->cols; ++c) {
      const size_t i = size_t(g->index(r, c));
      const uint64_t byte = addressOf(uint64_t(r), uint64_t(c)) * uint64_t(elemBytes);
      const int bank = int(byte / uint64_t(ins.bankBytes) % uint64_t(ins.banks));
      ASSERT_EQ(g->labels[i], std::to_string(bank)) << "cell (" << r << ", " << c << ")";
      auto [it, fresh] = colourOf.emplace(bank, g->fill[i]);
      EXPECT_EQ(it->second, g->fill[i]) << "bank " << bank << " in two colours";
      EXPECT_EQ(g->fill[i], palette::categorical(bank, ins.banks));
      seen.insert(bank);
    }
  std::set<uint32_t> distinct;
  for (const auto& [bank, c] : colourOf)
    distinct.insert(uint32_t(c.r) << 16 | uint32_t(c.g) << 8 | c.b);
  EXPECT_EQ(distinct.size(), colourOf.size()) << "two banks share a colour";
  EXPECT_EQ(int(seen.size()), ins.banks) << "a 32x64 f16 tile fills every bank";
}

TEST(BankViewColours, SharedGridByBankFollowsTheSharedLayout) {
  auto ins = layout::smem::bankInstruction("cdna4.ds_read_b128");
  ASSERT_TRUE(ins.ok());
  BankViewOptions opt;
  opt.colorBy = "bank";
  const std::pair<const char*, AddressOf> cases[] = {
      {"", [](uint64_t r, uint64_t c) { return r * 64 + c; }},
      // The README's seed 004 swizzle: column chunk c / 8 XOR row % 8.
      {"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
       [](uint64_t r, uint64_t c) { return r * 64 + (((c / 8) ^ (r % 8)) * 8) + c % 8; }},
      // Four elements of padding after every row.
      {"#ttg.padded_shared<[64:+4] {order = [1, 0], shape = [32, 64]}>",
       [](uint64_t r, uint64_t c) { return r * 68 + c; }},
  };
  for (const auto& [shared, addressOf] : cases) {
    SCOPED_TRACE(shared);
    auto res = layout::views::bankView(kSeedReads, shared, {}, 16, "cdna4.ds_read_b128", opt);
    ASSERT_TRUE(res.ok()) << res.error().message;
    EXPECT_EQ(res->colorBy, "bank");
    expectBankColours(*res, addressOf, 2, *ins);
  }
}

// Eight-byte elements on 4-byte banks: an element spans two banks and is coloured by the first.
TEST(BankViewColours, WideElementsTakeTheirFirstBank) {
  int64_t shape[] = {16, 16};
  const char* access = "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], "
                       "warpsPerCTA = [1, 1], order = [1, 0]}>";
  auto ins = layout::smem::bankInstruction("nvidia.ld.b128");
  ASSERT_TRUE(ins.ok());
  BankViewOptions opt;
  opt.colorBy = "bank";
  auto res = layout::views::bankView(access, "", shape, 64, "nvidia.ld.b128", opt);
  ASSERT_TRUE(res.ok()) << res.error().message;
  const CellGrid* g = res->scene.grid("banks.tensor");
  ASSERT_NE(g, nullptr);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c) {
      const uint64_t byte = uint64_t(r * 16 + c) * 8;
      EXPECT_EQ(g->labels[size_t(g->index(r, c))], std::to_string(byte / 4 % 32));
    }
}

// By phase: the phase (of the instruction's lane groups) of the lane that reads the element; by
// vector: the 16-byte slot of the 256-byte bank line that the lane's vector fills. The first
// issue of warp 0 (every access of the row-major seed tile costs the same, so it is drawn) is
// outlined: lane l's registers 0-7.
TEST(BankViewColours, PhaseAndVectorOfTheLaneThatReads) {
  const LinearLayout access = parse(kSeedReads, {});
  auto ins = layout::smem::bankInstruction("cdna4.ds_read_b128");
  ASSERT_TRUE(ins.ok());
  std::map<std::pair<uint64_t, uint64_t>, int> laneOf;
  std::set<std::pair<uint64_t, uint64_t>> drawn;
  for (uint64_t w = 0; w < 8; ++w)
    for (uint64_t l = 0; l < 64; ++l)
      for (uint64_t r = 0; r < 16; ++r) {
        laneOf[elementOf(access, r, l, w)] = int(l);
        if (w == 0 && r < 8) drawn.insert(elementOf(access, r, l, w));
      }
  ASSERT_EQ(laneOf.size(), 32u * 64u);
  ASSERT_EQ(drawn.size(), 64u * 8u);
  auto phaseOf = [&](int lane) {
    for (size_t p = 0; p < ins->phases.size(); ++p)
      if (std::count(ins->phases[p].begin(), ins->phases[p].end(), lane)) return int(p);
    return -1;
  };
  for (const char* colorBy : {"phase", "vector"}) {
    SCOPED_TRACE(colorBy);
    BankViewOptions opt;
    opt.colorBy = colorBy;
    auto res = layout::views::bankView(kSeedReads, "", {}, 16, "cdna4.ds_read_b128", opt);
    ASSERT_TRUE(res.ok()) << res.error().message;
    EXPECT_EQ(res->shownAccess, 0);
    const CellGrid* g = res->scene.grid("banks.tensor");
    ASSERT_NE(g, nullptr);
    for (int r = 0; r < 32; ++r)
      for (int c = 0; c < 64; ++c) {
        const size_t i = size_t(g->index(r, c));
        const auto cell = std::pair{uint64_t(r), uint64_t(c)};
        // Row-major: the vector starts at the row's column c & ~7, byte 2 * (64 r + (c & ~7)).
        const int slot = (r * 8 + c / 8) % 16;
        const int value = std::string(colorBy) == "phase" ? phaseOf(laneOf.at(cell)) : slot;
        const std::string want =
            (std::string(colorBy) == "phase" ? "p" : "v") + std::to_string(value);
        ASSERT_EQ(g->labels[i], want) << "cell (" << r << ", " << c << ")";
        EXPECT_EQ(g->fill[i],
                  palette::categorical(value, std::string(colorBy) == "phase" ? 4 : 16));
        EXPECT_EQ((g->marks[i] & layout::views::kMarkOutline) != 0, drawn.count(cell) == 1)
            << "cell (" << r << ", " << c << ")";
      }
  }
}

// What the brute force says one access costs: lane l of warp w reads register `issue` (one
// element a lane: sizePerThread [1, 1]); nvidia.ld.b16 serves the 32 lanes in one phase.
struct AccessModel {
  std::map<int, std::map<uint64_t, std::set<int>>> banks; // bank -> word -> lanes
  uint64_t ways = 0;
};

AccessModel modelAccess(const LinearLayout& access, uint64_t warp, uint64_t issue,
                        const AddressOf& addressOf) {
  AccessModel m;
  for (uint64_t l = 0; l < 32; ++l) {
    const auto [r, c] = elementOf(access, issue, l, warp);
    const uint64_t word = addressOf(r, c) * 2 / 4;
    m.banks[int(word % 32)][word].insert(int(l));
  }
  for (const auto& [bank, words] : m.banks) m.ways = std::max<uint64_t>(m.ways, words.size());
  return m;
}

// The heat map "banks" draws the modelled access: rows = its ways, lanes per word.
void expectDrawn(const BankViewResult& res, const AccessModel& m) {
  const CellGrid* g = res.scene.grid("banks");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(uint64_t(g->rows), m.ways);
  for (const auto& [bank, words] : m.banks) {
    int w = 0;
    for (const auto& [word, lanes] : words) {
      const std::string& label = g->labels[size_t(g->index(w++, bank))];
      const std::string first = std::to_string(*lanes.begin());
      EXPECT_EQ(label.rfind(first, 0), 0u) << "bank " << bank << " word " << word << ": " << label;
    }
  }
}

// A padded tile where accesses differ: one element of padding after every 32 (a row), read with
// 2-byte loads down a column. The accesses are listed warp-major with the modelled wavefronts,
// the worst is drawn by default, and a picked one is drawn when asked.
TEST(BankViewAccesses, WorstFirstAndPickedAccessMatchTheModel) {
  int64_t shape[] = {32, 32};
  const char* text = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], "
                     "warpsPerCTA = [1, 2], order = [1, 0]}>";
  const char* shared = "#ttg.padded_shared<[32:+1] {order = [1, 0], shape = [32, 32]}>";
  const AddressOf addressOf = [](uint64_t r, uint64_t c) { return r * 33 + c; };
  const LinearLayout access = parse(text, shape);
  const uint64_t regs = access.inDimSize(layout::dims::reg()),
                 warps = access.inDimSize(layout::dims::warp());
  ASSERT_EQ(regs * warps, 32u);

  auto res = layout::views::bankView(text, shared, shape, 16, "nvidia.ld.b16");
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res->accessNote, "");
  ASSERT_EQ(res->accesses.size(), size_t(regs * warps));
  std::vector<AccessModel> models;
  uint64_t total = 0;
  std::set<uint64_t> costs;
  for (uint64_t w = 0; w < warps; ++w)
    for (uint64_t i = 0; i < regs; ++i) {
      const size_t k = size_t(w * regs + i);
      models.push_back(modelAccess(access, w, i, addressOf));
      EXPECT_EQ(res->accesses[k].warp, int(w));
      EXPECT_EQ(res->accesses[k].issue, int(i));
      EXPECT_EQ(res->accesses[k].wavefronts, models.back().ways) << "access " << k;
      total += models.back().ways;
      costs.insert(models.back().ways);
    }
  EXPECT_EQ(res->current.wavefronts, total);
  ASSERT_GE(costs.size(), 2u) << "the test needs accesses that differ";
  size_t worst = 0, best = 0;
  for (size_t k = 0; k < models.size(); ++k) {
    if (models[k].ways > models[worst].ways) worst = k;
    if (models[k].ways < models[best].ways) best = k;
  }
  EXPECT_EQ(res->shownAccess, int(worst));
  EXPECT_EQ(res->worstFirst.front(), int(worst));
  for (size_t i = 1; i < res->worstFirst.size(); ++i)
    EXPECT_GE(res->accesses[size_t(res->worstFirst[i - 1])].wavefronts,
              res->accesses[size_t(res->worstFirst[i])].wavefronts);
  expectDrawn(*res, models[worst]);

  BankViewOptions opt;
  opt.access = int(best);
  auto picked = layout::views::bankView(text, shared, shape, 16, "nvidia.ld.b16", opt);
  ASSERT_TRUE(picked.ok()) << picked.error().message;
  EXPECT_EQ(picked->shownAccess, int(best));
  expectDrawn(*picked, models[best]);
  // Out of range: the worst again.
  opt.access = 1000;
  auto out = layout::views::bankView(text, shared, shape, 16, "nvidia.ld.b16", opt);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->shownAccess, int(worst));
}

// The seed tile: 8 warps x 2 issues, every access 16 wavefronts (4 phases, 4-way), which add up
// to the analysis's 256.
TEST(BankViewAccesses, SeedTileListsEveryWarpsIssues) {
  auto res = layout::views::bankView(kSeedReads, "", {}, 16, "cdna4.ds_read_b128");
  ASSERT_TRUE(res.ok()) << res.error().message;
  ASSERT_EQ(res->accesses.size(), 16u);
  for (size_t k = 0; k < 16; ++k) {
    EXPECT_EQ(res->accesses[k].warp, int(k / 2));
    EXPECT_EQ(res->accesses[k].issue, int(k % 2));
    EXPECT_EQ(res->accesses[k].wavefronts, 16u);
    EXPECT_EQ(res->accesses[k].ways, 4);
  }
  EXPECT_EQ(res->shownAccess, 0);
  EXPECT_EQ(res->colorBy, "lane"); // the default colouring stays the tensor view's
}

TEST(BankViewColours, UnknownColouringIsAnErrorNamingTheChoices) {
  BankViewOptions opt;
  opt.colorBy = "nonsense";
  auto res = layout::views::bankView(kSeedReads, "", {}, 16, "cdna4.ds_read_b128", opt);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().message,
            "colorBy: 'nonsense' does not colour the banks view; colour by one of bank, phase, "
            "vector, register, lane, warp");
  const LinearLayout access = parse(kSeedReads, {});
  EXPECT_EQ(layout::views::bankColorByError("warp", &access), "");
  EXPECT_EQ(layout::views::bankColorByError("", &access), "");
  EXPECT_EQ(layout::views::bankColorByError("vector", nullptr), "");
  EXPECT_NE(layout::views::bankColorByError("lane", nullptr), "");
  // An in-dim colours it as the tensor view does.
  opt.colorBy = "warp";
  res = layout::views::bankView(kSeedReads, "", {}, 16, "cdna4.ds_read_b128", opt);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res->colorBy, "warp");
}

} // namespace
