// Wide bit rows (layout/core/bit_rows.h) on a layout of 150 input bits over 120 output bits, which
// no 64-bit word holds. Independent references: the matrix from applying the layout to each unit
// input (one input bit set), and the free bits from a Gaussian elimination written here over
// the columns (a column is free when it is a sum of the columns before it).
#include "layout/core/bit_rows.h"
#include "layout/core/linear_layout.h"

#include <gtest/gtest.h>

#include <random>

namespace layout {
namespace {

// Three in-dims of 50 bits onto two out-dims of 60 bits; every fifth basis repeats an earlier
// one or is zero, so some input bits are free.
LinearLayout wideLayout() {
  std::mt19937_64 rng(11);
  const uint64_t mask60 = (uint64_t{1} << 60) - 1;
  std::vector<InDimBases> ins;
  std::vector<std::vector<uint64_t>> all;
  for (const char* name : {"register", "lane", "warp"}) {
    InDimBases d{DimName(name), {}};
    for (int b = 0; b < 50; ++b) {
      std::vector<uint64_t> basis{rng() & mask60, rng() & mask60};
      if (b % 5 == 4) basis = b % 10 == 4 ? all[rng() % all.size()] : std::vector<uint64_t>{0, 0};
      all.push_back(basis);
      d.bases.push_back(basis);
    }
    ins.push_back(std::move(d));
  }
  auto l = LinearLayout::create(
      ins, {{DimName("dim0"), uint64_t{1} << 60}, {DimName("dim1"), uint64_t{1} << 60}});
  EXPECT_TRUE(l) << (l ? "" : l.error().message);
  return *l;
}

TEST(BitRows, MatrixOfAWideLayout) {
  const LinearLayout l = wideLayout();
  const std::vector<BitRow> rows = layoutMatrixRows(l);
  ASSERT_EQ(rows.size(), 120u);
  for (const BitRow& r : rows) ASSERT_EQ(r.size(), 150u);
  for (int c = 0; c < 150; ++c) {
    uint64_t in[3] = {0, 0, 0};
    in[c / 50] = uint64_t{1} << (c % 50);
    uint64_t out[2];
    l.apply(in, out);
    for (int r = 0; r < 120; ++r)
      ASSERT_EQ(rows[size_t(r)][size_t(c)], bool((out[r / 60] >> (r % 60)) & 1))
          << "row " << r << " column " << c;
  }
}

TEST(BitRows, FreeInputBitsOfAWideLayout) {
  const LinearLayout l = wideLayout();
  const std::vector<BitRow> rows = layoutMatrixRows(l);
  // Columns as bitsets over the 120 rows; a column is free when it reduces to zero against the
  // pivots of the columns before it.
  std::vector<BitRow> pivots;
  BitRow want(150);
  for (size_t c = 0; c < 150; ++c) {
    BitRow col(120);
    for (size_t r = 0; r < 120; ++r) col[r] = rows[r][c];
    for (const BitRow& p : pivots)
      if (col[p.find_first()]) col ^= p;
    if (col.none()) {
      want.set(c);
      continue;
    }
    // Keep the basis reduced at the new pivot so later columns reduce in one pass.
    for (BitRow& p : pivots)
      if (p[col.find_first()]) p ^= col;
    pivots.push_back(col);
  }
  EXPECT_EQ(freeInputBits(l), want);
  EXPECT_GT(want.count(), 10u); // the repeated and zero bases
  EXPECT_EQ(150 - want.count(), pivots.size());
}

} // namespace
} // namespace layout
