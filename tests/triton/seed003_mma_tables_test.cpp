// The MMA accumulator tables of seed 003 (docs/seeds.md (seed 003), the TritonGPU
// attribute definitions), replayed through liblayout like seed003_examples_test.cpp does for the
// blocked, slice and shared examples: each test converts the example's encoding with
// layout::triton::toLinearLayout, enumerates the layout's inputs with LinearLayout::apply, prints
// the result in the seed's own format and compares it byte for byte with the transcription in
// tests/data/seed003 (INDEX.md there gives the parameters and the seed's typos).
//
// Every number in a printed table (thread ids, warp labels) comes from the library; the seed's
// spacing, dashes and elisions are a fixed template. Where INDEX.md documents a typo in a table,
// the test applies exactly that one correction to the seed's text, after checking that the seed
// really has it there, and compares the rest byte for byte.
//
// Covered: the nvidia_mma version 2 table (seed 1302-1322) and amd_mfma examples 1, 2 and 4
// (seed 977-1010, 1016-1033, 1063-1066, 1071-1074). amd_mfma example 3 (seed 1041-1052) uses
// a 4x4 (nonKDim = 4) instruction that neither the reference nor Triton 3.6 defines, and its warp
// placement contradicts example 4 (INDEX.md, inconsistency 10): the library rejects that
// instrShape with the rule, and the last test checks the rejection.
#include "layout/core/linear_layout.h"
#include "layout/triton/encoding.h"

#include "support/seed003_tables.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using layout::DimName;
using layout::LinearLayout;
namespace dims = layout::dims;

using namespace seed003;

// ---- The seed's formats -------------------------------------------------------------------------
std::string padTo(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string rstrip(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// A number left-justified in `width` columns; "?" where the library gave no single owner (which
// then fails the comparison).
std::string cell(std::optional<int64_t> v, std::size_t width) {
  return padTo(v ? std::to_string(*v) : "?", width);
}

// ---- nvidia_mma version 2 (seed 1302-1322) ------------------------------------------------------
// "the matrix L corresponding to blockTileSize=[32,16]": warpsPerCTA [2, 2] of [16, 8] warp tiles
// (mma.16816, FP32 accumulator), shape [32, 16]; cell = thread id (lane + 32 * warp) of the single
// owner.
const char* const kNvidiaMmaV2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                                 "warpsPerCTA = [2, 2], instrShape = [16, 8]}>";

// One half of a row, columns c0..c0+7: cells left-justified in three columns, one space apart,
// trailing spaces dropped ("0   0   1   1   2   2   3   3", "100 100 101 101 ...").
std::string mmaHalf(const Distribution& d, int64_t i, int64_t c0) {
  std::string s;
  for (int64_t c = c0; c < c0 + 8; ++c) s += (c > c0 ? " " : "") + cell(d.singleThread(i, c), 3);
  return rstrip(s);
}

// The section of rows r0..r0+15 (one warp tile high): a warp label over each half, the dashes,
// then rows 0, 1, elision, 7, 8, 9, elision, 15 of the section. Rows have no closing "]" (INDEX.md
// 16). The elision line spans each half with dots as wide as that half's widest row: 30 dots, or
// 31 where the right half has three-digit ids (the "one dot" the two sections differ by).
std::vector<std::string> nvidiaMmaSection(const Distribution& d, int64_t r0) {
  std::size_t widthLeft = 0, widthRight = 0;
  for (int64_t i = r0; i < r0 + 16; ++i) {
    widthLeft = std::max(widthLeft, mmaHalf(d, i, 0).size());
    widthRight = std::max(widthRight, mmaHalf(d, i, 8).size());
  }
  // The right half starts where a row's does: after the left half's 8 padded cells and a space.
  const std::size_t rightStart = 8 * 4;
  const std::string elision =
      "[ " + padTo(std::string(widthLeft, '.'), rightStart) + std::string(widthRight, '.');
  auto row = [&](int64_t i) {
    return "[ " + padTo(mmaHalf(d, r0 + i, 0), rightStart) + mmaHalf(d, r0 + i, 8);
  };
  auto warp = [&](int64_t c) { return "warp " + cell(d.singleWarp(r0, c), 1); };
  std::vector<std::string> lines;
  if (r0 == 0) {
    lines.push_back(std::string(16, ' ') + padTo(warp(0), 32) + warp(8));
    lines.push_back("-----------------/\\-------------  ----------------/\\-------------");
  } else {
    lines.push_back(std::string(14, ' ') + padTo(warp(0), 33) + warp(8));
    lines.push_back("----------------/\\-------------   ----------------/\\-------------");
  }
  for (int64_t i : {0, 1}) lines.push_back(row(i));
  lines.push_back(elision);
  for (int64_t i : {7, 8, 9}) lines.push_back(row(i));
  lines.push_back(elision);
  lines.push_back(row(15));
  return lines;
}

// The whole table, from the library's layout for `text` on [32, 16].
std::string nvidiaMmaTable(const std::string& text) {
  auto d = distribute(text, {32, 16});
  if (!d) return "";
  std::vector<std::string> lines = nvidiaMmaSection(*d, 0);
  lines.push_back("");
  for (const std::string& l : nvidiaMmaSection(*d, 16)) lines.push_back(l);
  return joinLines(lines);
}

// Seed error (INDEX.md 16): the warp labels put "warp 2" top right and "warp 1" bottom left, but
// the seed's own numbers there are 32-63 and 64-95, the thread ids of warps 1 and 2 (version 1's
// table says "warp 1 = warp0 + 32"). Row-major warps, as the numbers show, are what the reference
// (5.2: "row-major for Ampere (v2)") and Triton 3.6 use. The test prints the library's warp of
// each block as its label and corrects exactly those two labels in the seed's text.
TEST(Seed003NvidiaMma, Version2Table) {
  EXPECT_EQ(nvidiaMmaTable(kNvidiaMmaV2),
            applyCorrections(readSeedFile("nvidia_mma_v2.txt"),
                             {{0, "warp 2", "warp 1"}, {11, "warp 1", "warp 2"}}));
  auto d = distribute(kNvidiaMmaV2, {32, 16});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->lanes, 32);
  EXPECT_EQ(d->registers, 4u); // the tensor is exactly one CTA tile: 2x2 registers per thread
  // The elided rows follow the PTX mma.16816 accumulator rule the shown rows illustrate: lane l
  // holds columns 2(l%4), 2(l%4)+1 of rows l/4 and l/4 + 8 of its warp's [16, 8] tile, warps
  // row-major.
  for (int64_t i = 0; i < 32; ++i)
    for (int64_t j = 0; j < 16; ++j) {
      const int64_t warp = 2 * (i / 16) + j / 8;
      EXPECT_EQ(d->singleThread(i, j), 32 * warp + 4 * (i % 8) + (j % 8) / 2) << i << "," << j;
    }
}

// ---- amd_mfma examples 1 and 2 (seed 977-1010, 1016-1033) ---------------------------------------
// warpsPerCTA [1, 2], MDim = NDim = D (instrShape [D, D, K] in Triton 3.6; the seed gives no
// version, which does not change the layout), shape [D, 2D]; cell = thread id (lane + 64 * warp).
std::string mfmaText(int64_t d, const std::string& warps, const std::string& tilesPerWarp = "") {
  return "#ttg.amd_mfma<{version = 3, warpsPerCTA = " + warps +
         (tilesPerWarp.empty() ? "" : ", tilesPerWarp = " + tilesPerWarp) + ", instrShape = [" +
         std::to_string(d) + ", " + std::to_string(d) + ", 8], isTransposed = false}>";
}

// One warp's half of row i, columns c0..c0+D-1: "[ " + columns 0-3, "...... ", columns D-2 and
// D-1, "]", each cell left-justified in the width the seed gives that position (`head[k]` for
// columns 0-3, `tail[k]` for the last two).
std::string mfmaHalf(const Distribution& d, int64_t i, int64_t c0, int64_t width,
                     const std::vector<std::size_t>& head, const std::vector<std::size_t>& tail) {
  std::string s = "[ ";
  for (int64_t k = 0; k < 4; ++k) s += cell(d.singleThread(i, c0 + k), head[k]);
  s += "...... ";
  for (int64_t k = 0; k < 2; ++k) s += cell(d.singleThread(i, c0 + width - 2 + k), tail[k]);
  return s + "]";
}

// The elided columns hold consecutive lanes like the shown ones: along each warp's D columns the
// thread id grows by one per column (lane l owns column l % D).
void checkElidedColumns(const Distribution& d, int64_t width) {
  for (int64_t i = 0; i < d.shape[0]; ++i)
    for (int64_t j = 0; j < d.cols(); ++j) {
      const auto first = d.singleThread(i, j - j % width);
      ASSERT_TRUE(first) << i << "," << j;
      EXPECT_EQ(d.singleThread(i, j), *first + j % width) << i << "," << j;
    }
}

// The table of example 1 (D = 32, all 32 rows of [32, 64]) or 2 (D = 16, all 16 rows of
// [16, 32]), from the library's layout for `text`. The seed pads the cells of the two examples'
// right halves differently; the widths are its template.
std::string mfmaTable(const std::string& text, int64_t dim) {
  auto d = distribute(text, {dim, 2 * dim});
  if (!d) return "";
  std::vector<std::string> lines;
  auto warp = [&](int64_t c) { return "warp " + cell(d->singleWarp(0, c), 1); };
  lines.push_back(std::string(16, ' ') + padTo(warp(0), 39) + warp(dim));
  lines.push_back(
      dim == 32 ? "-----------------/\\--------------      -----------------/\\--------------"
                : "-----------------/\\-------------      ------------------/\\---------------");
  const std::vector<std::size_t> rightHead =
      dim == 32 ? std::vector<std::size_t>{4, 4, 4, 3} : std::vector<std::size_t>{4, 4, 4, 4};
  for (int64_t i = 0; i < dim; ++i)
    lines.push_back(mfmaHalf(*d, i, 0, dim, {4, 4, 4, 3}, {4, 3}) + "      " +
                    mfmaHalf(*d, i, dim, dim, rightHead, {5, 4}));
  return joinLines(lines);
}

// Rows 4k..4k+3 hold lanes 0-31 (k even) or 32-63 (k odd) of each warp.
TEST(Seed003AmdMfma, Example1MDim32) {
  EXPECT_EQ(mfmaTable(mfmaText(32, "[1, 2]"), 32), readSeedFile("amd_mfma_example1.txt"));
  auto d = distribute(mfmaText(32, "[1, 2]"), {32, 64});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->lanes, 64);
  EXPECT_EQ(d->registers, 16u);
  checkElidedColumns(*d, 32);
}

// Rows 4k..4k+3 hold lanes 16k..16k+15 of each warp.
TEST(Seed003AmdMfma, Example2MDim16) {
  EXPECT_EQ(mfmaTable(mfmaText(16, "[1, 2]"), 16), readSeedFile("amd_mfma_example2.txt"));
  auto d = distribute(mfmaText(16, "[1, 2]"), {16, 32});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->lanes, 64);
  EXPECT_EQ(d->registers, 4u);
  checkElidedColumns(*d, 16);
}

// ---- amd_mfma example 4 (seed 1063-1066, 1071-1074) ---------------------------------------------
// "with 16 MFMA tiles and warpsPerCTA = [2, 2]": a 4x4 grid of D x D tiles, shape [4D, 4D]. Cell
// (ti, tj) = "w<warp>", the warp that computes MFMA tile (ti, tj): every element of the tile must
// have a single owner, and all of them must be in that warp. The seed gives no MDim/NDim (INDEX.md
// 11); the grid is checked for both 32x32 and 16x16 tiles.
std::string tileGrid(const std::string& text, int64_t tile) {
  auto d = distribute(text, {4 * tile, 4 * tile});
  if (!d) return "";
  std::vector<std::string> lines;
  for (int64_t ti = 0; ti < 4; ++ti) {
    std::string line;
    for (int64_t tj = 0; tj < 4; ++tj) {
      std::set<std::optional<int64_t>> warps;
      for (int64_t i = ti * tile; i < (ti + 1) * tile; ++i)
        for (int64_t j = tj * tile; j < (tj + 1) * tile; ++j) warps.insert(d->singleWarp(i, j));
      line += (tj ? " " : "") + std::string("w") +
              (warps.size() == 1 && *warps.begin() ? std::to_string(**warps.begin()) : "?");
    }
    lines.push_back(line);
  }
  return joinLines(lines);
}

TEST(Seed003AmdMfma, Example4TilesPerWarp1x1) {
  const std::string seed = readSeedFile("amd_mfma_example4a.txt");
  for (int64_t tile : {32, 16}) {
    SCOPED_TRACE(tile);
    EXPECT_EQ(tileGrid(mfmaText(tile, "[2, 2]"), tile), seed);
    // The same with tilesPerWarp spelled out as its default.
    EXPECT_EQ(tileGrid(mfmaText(tile, "[2, 2]", "[1, 1]"), tile), seed);
  }
}

TEST(Seed003AmdMfma, Example4TilesPerWarp2x2) {
  const std::string seed = readSeedFile("amd_mfma_example4b.txt");
  for (int64_t tile : {32, 16}) {
    SCOPED_TRACE(tile);
    EXPECT_EQ(tileGrid(mfmaText(tile, "[2, 2]", "[2, 2]"), tile), seed);
  }
}

// Example 3's layout: rejected with the list of shapes Triton defines, for the result layout and
// for its dot operands, through the same parse + convert path as the tables above.
TEST(Seed003AmdMfma, Example3InstrShape4x4IsRejected) {
  const std::string mfma = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [4, 4], "
                           "isTransposed = false}>";
  for (const std::string& text :
       {mfma, "#ttg.dot_op<{opIdx = 0, parent = " + mfma + ", kWidth = 4}>"}) {
    SCOPED_TRACE(text);
    // Triton's AMDMfmaEncodingAttr::verify rejects it when the attribute is parsed.
    auto enc = layout::triton::parseEncoding(text);
    ASSERT_FALSE(enc);
    EXPECT_NE(enc.error().message.find("invalid (mDim, nDim) combination: (4, 4)"),
              std::string::npos)
        << enc.error().message;
  }
}

} // namespace
