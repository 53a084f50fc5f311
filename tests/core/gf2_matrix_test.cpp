// rrefInPlace / rrefInPlace64 against a plain bool-matrix Gauss-Jordan elimination (the naive
// model's rref: columns scanned left to right, so each pivot is its row's lowest set column), on
// random matrices of many shapes and ranks; layoutMatrix on a worked example and on random wide
// layouts.
#include "layout/core/gf2_matrix.h"
#include "layout/core/linear_layout.h"
#include "support/naive_layout.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace {

using layout::DimName;
using layout::LinearLayout;

using BoolMatrix = std::vector<std::vector<bool>>;

BoolMatrix toBools(const std::vector<uint64_t>& rows, int numRows, int words) {
  BoolMatrix m(numRows, std::vector<bool>(size_t(words) * 64, false));
  for (int r = 0; r < numRows; ++r)
    for (int c = 0; c < words * 64; ++c)
      m[r][c] = (rows[size_t(r) * words + c / 64] >> (c % 64)) & 1;
  return m;
}

// A random matrix: `rank` random rows (at most) XOR-combined into `numRows` rows, each row
// limited to `cols` columns, with density `density` of set bits in the generating rows.
std::vector<uint64_t> randomMatrix(std::mt19937_64& gen, int numRows, int words, int cols, int rank,
                                   double density) {
  auto randomRow = [&] {
    std::vector<uint64_t> row(words, 0);
    for (int c = 0; c < cols; ++c)
      if (double(gen() >> 11) * 0x1.0p-53 < density) row[c / 64] |= uint64_t{1} << (c % 64);
    return row;
  };
  std::vector<std::vector<uint64_t>> gens;
  for (int i = 0; i < rank; ++i) gens.push_back(randomRow());
  std::vector<uint64_t> rows(size_t(numRows) * words, 0);
  for (int r = 0; r < numRows; ++r)
    for (const auto& g : gens)
      if (gen() & 1)
        for (int w = 0; w < words; ++w) rows[size_t(r) * words + w] ^= g[w];
  return rows;
}

void checkAgainstNaive(std::vector<uint64_t> rows, int numRows, int words, bool use64) {
  BoolMatrix want = toBools(rows, numRows, words);
  int wantRank = naive::rref(want);
  int rank = use64 ? layout::rrefInPlace64(rows.data(), numRows)
                   : layout::rrefInPlace(rows.data(), numRows, words);
  EXPECT_EQ(rank, wantRank);
  EXPECT_TRUE(toBools(rows, numRows, words) == want) << "RREF differs";
}

TEST(Gf2Matrix, Rref64MatchesNaive) {
  constexpr uint64_t kSeed = 0x6F2;
  std::mt19937_64 gen(kSeed);
  const int shapes[] = {0, 1, 2, 5, 17, 31, 63, 64, 65, 100, 128};
  for (int c = 0; c < 600; ++c) {
    int numRows = shapes[gen() % std::size(shapes)];
    int cols = 1 + int(gen() % 64);
    int rank = int(gen() % (std::min(numRows, cols) + 2));
    double density = (gen() % 4 + 1) / 8.0;
    SCOPED_TRACE(testing::Message() << "seed " << kSeed << " case " << c << ": " << numRows
                                    << " rows, " << cols << " cols, rank <= " << rank);
    checkAgainstNaive(randomMatrix(gen, numRows, 1, cols, rank, density), numRows, 1, true);
    if (::testing::Test::HasFailure()) break;
  }
}

// Layout matrices: about one bit per row (permutations, zero rows, a few XOR cross terms), the
// case rrefInPlace64 handles with its sparse path.
TEST(Gf2Matrix, Rref64MatchesNaiveOnSparseLayoutMatrices) {
  constexpr uint64_t kSeed = 0x5A95;
  std::mt19937_64 gen(kSeed);
  for (int c = 0; c < 2000; ++c) {
    const int numRows = 1 + int(gen() % 70);
    std::vector<uint64_t> rows(numRows);
    for (auto& r : rows) {
      const int kind = int(gen() % 8);
      r = kind == 0 ? 0 : uint64_t{1} << (gen() % 64);
      if (kind == 1) r |= uint64_t{1} << (gen() % 64);
    }
    for (int k = int(gen() % 4); k > 0; --k) rows[gen() % numRows] ^= rows[gen() % numRows];
    SCOPED_TRACE(testing::Message() << "seed " << kSeed << " case " << c);
    checkAgainstNaive(rows, numRows, 1, true);
    if (::testing::Test::HasFailure()) break;
  }
}

TEST(Gf2Matrix, RrefMatchesNaiveOnMultiWordRows) {
  constexpr uint64_t kSeed = 0x6F3;
  std::mt19937_64 gen(kSeed);
  for (int c = 0; c < 200; ++c) {
    int words = 1 + int(gen() % 4);
    int cols = words == 1 ? 1 + int(gen() % 64) : (words - 1) * 64 + 1 + int(gen() % 64);
    int numRows = int(gen() % 140);
    int rank = int(gen() % (std::min(numRows, cols) + 2));
    double density = (gen() % 4 + 1) / 8.0;
    SCOPED_TRACE(testing::Message() << "seed " << kSeed << " case " << c << ": " << numRows
                                    << " rows, " << words << " words, rank <= " << rank);
    std::vector<uint64_t> m = randomMatrix(gen, numRows, words, cols, rank, density);
    checkAgainstNaive(m, numRows, words, false);
    // One-word rows: both entry points agree.
    if (words == 1) checkAgainstNaive(m, numRows, 1, true);
    if (::testing::Test::HasFailure()) break;
  }
}

TEST(Gf2Matrix, SpecialMatrices) {
  // 64 x 64 identity, reversed (anti-diagonal): RREF is the identity, rank 64.
  std::vector<uint64_t> anti(64);
  for (int r = 0; r < 64; ++r) anti[r] = uint64_t{1} << (63 - r);
  std::vector<uint64_t> expected(64);
  for (int r = 0; r < 64; ++r) expected[r] = uint64_t{1} << r;
  std::vector<uint64_t> m = anti;
  EXPECT_EQ(layout::rrefInPlace64(m.data(), 64), 64);
  EXPECT_EQ(m, expected);
  m = anti;
  EXPECT_EQ(layout::rrefInPlace(m.data(), 64, 1), 64);
  EXPECT_EQ(m, expected);
  // All ones, 64 x 64: one row of ones, then zero rows.
  std::vector<uint64_t> ones(64, ~uint64_t{0});
  EXPECT_EQ(layout::rrefInPlace64(ones.data(), 64), 1);
  EXPECT_EQ(ones[0], ~uint64_t{0});
  for (int r = 1; r < 64; ++r) EXPECT_EQ(ones[r], 0u);
  // Zero rows come last and pivots increase. Rows {0b110, 0, 0b011} by hand:
  //   column 0: pivot row 0b011 moves to the top; no other row has column 0.
  //   column 1: pivot row 0b110 moves second; clear column 1 in 0b011 -> 0b101.
  //   result {0b101, 0b110, 0}.
  std::vector<uint64_t> small = {0b110, 0, 0b011};
  EXPECT_EQ(layout::rrefInPlace64(small.data(), 3), 2);
  EXPECT_EQ(small, (std::vector<uint64_t>{0b101, 0b110, 0}));
  // No rows.
  EXPECT_EQ(layout::rrefInPlace64(nullptr, 0), 0);
  // Two words: column 64 is bit 0 of word 1. Rows {(0, 1), (1, 1)} -> {(1, 0), (0, 1)}.
  std::vector<uint64_t> two = {0, 1, 1, 1};
  EXPECT_EQ(layout::rrefInPlace(two.data(), 2, 2), 2);
  EXPECT_EQ(two, (std::vector<uint64_t>{1, 0, 0, 1}));
}

TEST(Gf2Matrix, LayoutMatrixExample) {
  // register (1,0), (2,1); lane (0,2) over [dim0 (4), dim1 (4)].
  // Columns: c0 = register bit 0, c1 = register bit 1, c2 = lane bit 0.
  // Rows: r0 = dim0 bit 0, r1 = dim0 bit 1, r2 = dim1 bit 0, r3 = dim1 bit 1.
  //   c0 = (1,0): r0.  c1 = (2,1): r1, r2.  c2 = (0,2): r3.
  // Row words: r0 = 0b001, r1 = 0b010, r2 = 0b010, r3 = 0b100.
  auto l =
      LinearLayout::create({{DimName("register"), {{1, 0}, {2, 1}}}, {DimName("lane"), {{0, 2}}}},
                           {{DimName("dim0"), 4}, {DimName("dim1"), 4}});
  ASSERT_TRUE(l.ok()) << l.error().message;
  EXPECT_EQ(layout::layoutMatrixWordsPerRow(*l), 1);
  EXPECT_EQ(layout::layoutMatrix(*l), (std::vector<uint64_t>{0b001, 0b010, 0b010, 0b100}));
  // An empty layout still has one word per row (and no rows).
  EXPECT_EQ(layout::layoutMatrixWordsPerRow(LinearLayout::empty()), 1);
  EXPECT_TRUE(layout::layoutMatrix(LinearLayout::empty()).empty());
}

TEST(Gf2Matrix, LayoutMatrixOfWideLayoutsMatchesNaive) {
  constexpr uint64_t kSeed = 0x6F4;
  std::mt19937_64 gen(kSeed);
  for (int c = 0; c < 20; ++c) {
    // In-dims of 10..40 bits (up to 120 columns), out-dims of 1..30 bits.
    naive::Layout n;
    for (const char* name : {"register", "lane", "warp"}) {
      int bits = 10 + int(gen() % 31);
      naive::Bases bases;
      for (int i = 0; i < bits; ++i) bases.push_back({});
      n.ins.push_back({name, bases});
    }
    for (const char* name : {"dim0", "dim1"})
      n.outs.push_back({name, uint64_t{1} << (1 + gen() % 30)});
    for (auto& in : n.ins)
      for (auto& b : in.second)
        for (const auto& out : n.outs) b.push_back(gen() % out.second);
    SCOPED_TRACE(testing::Message() << "seed " << kSeed << " case " << c);
    std::vector<layout::InDimBases> ins;
    for (const auto& [name, bases] : n.ins) ins.push_back({DimName(name), bases});
    std::vector<layout::DimSize> outs;
    for (const auto& [name, size] : n.outs) outs.push_back({DimName(name), size});
    auto l = LinearLayout::create(ins, outs);
    ASSERT_TRUE(l.ok()) << l.error().message;
    int cols = naive::totalInBits(n), rows = naive::totalOutBits(n);
    int words = layout::layoutMatrixWordsPerRow(*l);
    EXPECT_EQ(words, (cols + 63) / 64);
    std::vector<uint64_t> m = layout::layoutMatrix(*l);
    ASSERT_EQ(m.size(), size_t(rows) * words);
    BoolMatrix want = naive::matrix(n);
    BoolMatrix got = toBools(m, rows, words);
    for (int r = 0; r < rows; ++r) {
      for (int col = 0; col < words * 64; ++col)
        EXPECT_EQ(got[r][col], col < cols && want[r][col]) << "row " << r << " col " << col;
      if (::testing::Test::HasFailure()) return;
    }
    // Its rank is the layout's.
    EXPECT_EQ(layout::rrefInPlace(m.data(), rows, words), l->rank());
    EXPECT_EQ(l->rank(), naive::rank(n));
  }
}

} // namespace
