// The #ttg.amd_wmma tables of seed 003 (docs/seeds.md (seed 003), lines 1146-1212:
// version 1, version 2, version 2 transposed), replayed through liblayout: each test converts the
// table's encoding with layout::triton::toLinearLayout, finds the holders of every element with
// LinearLayout::apply, prints the table in the seed's own format and compares it byte for byte
// with the transcription in tests/data/seed003 (INDEX.md there gives the parameters and the
// seed's errors). The seed's irregular spacing is a fixed template; every lane id, warp label and
// column label in a table comes from the library. The elided rows and columns are checked
// against the seed's rules separately.
//
// The seed's attribute text says `isTransposed`; Triton 3.6 says `isTranspose`. Both are read.
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

// amd_wmma is wave32 and its tables are rank 2.
std::optional<Distribution> distributeWave32(const std::string& text,
                                             const std::vector<int64_t>& shape) {
  auto d = distribute(text, shape);
  if (d) {
    EXPECT_EQ(shape.size(), 2u) << text;
    EXPECT_EQ(d->lanes, 32) << text << ": amd_wmma is wave32";
  }
  return d;
}

// ---- The seed's format --------------------------------------------------------------------------
// A number left-justified in two columns ("0 ", "16"); "? " where there is no single holder
// (which then fails the comparison).
std::string left2(std::optional<int64_t> v) {
  std::string s = v ? std::to_string(*v) : "?";
  if (s.size() < 2) s += ' ';
  return s;
}

std::string padTo(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

constexpr int64_t kElided = -1;

// "[0  1  2  ... 14 15]": row i at columns `cols` (kElided prints "..."), cells one space apart.
std::string laneBlock(const Distribution& d, int64_t i, const std::vector<int64_t>& cols) {
  std::string s = "[";
  for (std::size_t k = 0; k < cols.size(); ++k)
    s += (k ? " " : "") +
         (cols[k] == kElided ? std::string("...") : left2(d.singleLane(i, cols[k])));
  return s + "]";
}

// "0   |[...] [...]": the row label in four columns, then the blocks one space apart.
std::string tableRow(const Distribution& d, int64_t i,
                     const std::vector<std::vector<int64_t>>& blocks) {
  std::string s = padTo(std::to_string(i), 4) + "|";
  for (std::size_t b = 0; b < blocks.size(); ++b) s += (b ? " " : "") + laneBlock(d, i, blocks[b]);
  return s;
}

// "warp 0", or "warps 0, 1" when several warps hold the region.
std::string warpLabel(const std::set<int64_t>& warps) {
  std::string s = warps.size() == 1 ? "warp " : "warps ";
  bool first = true;
  for (int64_t w : warps) {
    s += (first ? "" : ", ") + std::to_string(w);
    first = false;
  }
  return s;
}

// The columns the seed shows of a 16-column block starting at c0: 0, 1, 2, ..., 14, 15.
std::vector<int64_t> shownColumns(int64_t c0) {
  return {c0, c0 + 1, c0 + 2, kElided, c0 + 14, c0 + 15};
}

// The seed's rules for the elided cells. Version 1: lane j%16 + 16 (i%2) (odd rows in lanes
// 16-31); version 2: lane j%16 + 16 ((i/8)%2) (rows 8-15 of each tile in lanes 16-31); transposed:
// rows and columns swap roles.
void checkAllLanes(const Distribution& d, int version, bool transposed) {
  for (int64_t i = 0; i < d.shape[0]; ++i)
    for (int64_t j = 0; j < d.shape[1]; ++j) {
      const int64_t a = transposed ? j : i, b = transposed ? i : j; // register / lane direction
      const int64_t expected = b % 16 + 16 * (version == 1 ? a % 2 : (a / 8) % 2);
      EXPECT_EQ(d.singleLane(i, j), std::optional<int64_t>(expected))
          << "element " << i << "," << j;
    }
}

// Warps row-major over 16x16 tiles, wrapping around the 2x2 warp grid.
void checkWarps(const Distribution& d) {
  for (int64_t i = 0; i < d.shape[0]; ++i)
    for (int64_t j = 0; j < d.shape[1]; ++j) {
      const auto& os = d.at(i, j);
      ASSERT_EQ(os.size(), 1u) << i << "," << j;
      EXPECT_EQ(os[0].warp, 2 * ((i / 16) % 2) + (j / 16) % 2) << i << "," << j;
    }
}

// ---- Version 1 (seed 1146-1164) -----------------------------------------------------------------
// Seed errors (INDEX.md, inconsistency 12), corrected here and nowhere else:
// - Warp labels: each label spans 32 columns, but warps hold 16-column tiles and wrap around the
//   2x2 warp grid, so columns 0-31 of rows 0-15 (and likewise 32-63) are held by warps 0 and 1,
//   and rows 16-31 by warps 2 and 3. The library prints the warps that hold each brace's columns.
// - Row labels of the lower half: "16" labels the brace line and the data rows are labelled 17-20,
//   but they are rows 16-19 (row 17 holding lanes 0-15 would break the odd-row rule).
TEST(Seed003AmdWmma, Version1Table) {
  auto d = distributeWave32(
      "#ttg.amd_wmma<{version = 1, isTransposed = false, warpsPerCTA = [2, 2]}>", {32, 64});
  ASSERT_TRUE(d);
  const std::vector<std::vector<int64_t>> blocks = {shownColumns(0), shownColumns(16),
                                                    shownColumns(32), shownColumns(48)};
  // Brace over two blocks: 41 columns, the caret in the middle.
  const std::string brace = "/" + std::string(19, '-') + "^" + std::string(19, '-') + "\\";
  std::string elision = "    |";
  for (int b = 0; b < 4; ++b) elision = padTo(elision, 6 + 21 * b) + "...";
  std::vector<std::string> lines;
  for (int64_t half : {0, 1}) {
    const int64_t r0 = 16 * half;
    const std::string left = warpLabel(d->warps(r0, r0 + 16, 0, 32));
    const std::string right = warpLabel(d->warps(r0, r0 + 16, 32, 64));
    if (half == 1) lines.push_back("");
    lines.push_back((half == 0 ? "Row |" : "    |") + std::string(18, ' ') + left +
                    std::string(36, ' ') + right);
    lines.push_back("    |" + brace + " " + brace);
    for (int64_t i : {0, 1, 2, 3}) lines.push_back(tableRow(*d, r0 + i, blocks));
    lines.push_back(elision);
    for (int64_t i : {14, 15}) lines.push_back(tableRow(*d, r0 + i, blocks));
  }
  EXPECT_EQ(joinLines(lines),
            applyCorrections(readSeedFile("amd_wmma_v1.txt"), {{0, "warp 0", "warps 0, 1"},
                                                               {0, "warp 1", "warps 0, 1"},
                                                               {10, "warp 2", "warps 2, 3"},
                                                               {10, "warp 3", "warps 2, 3"},
                                                               {11, "16  |", "    |"},
                                                               {12, "17  |", "16  |"},
                                                               {13, "18  |", "17  |"},
                                                               {14, "19  |", "18  |"},
                                                               {15, "20  |", "19  |"}}));
  checkAllLanes(*d, 1, false);
  checkWarps(*d);
}

// ---- Version 2 (seed 1168-1192) -----------------------------------------------------------------
// The seed states the shape [32, 64] but draws only columns 0-31 (INDEX.md 13); those are printed.
TEST(Seed003AmdWmma, Version2Table) {
  auto d = distributeWave32(
      "#ttg.amd_wmma<{version = 2, isTransposed = false, warpsPerCTA = [2, 2]}>", {32, 64});
  ASSERT_TRUE(d);
  const std::vector<std::vector<int64_t>> blocks = {shownColumns(0), shownColumns(16)};
  std::vector<std::string> lines;
  for (int64_t half : {0, 1}) {
    const int64_t r0 = 16 * half;
    if (half == 1) lines.push_back("    |");
    lines.push_back((half == 0 ? "Row |" : "    |") + std::string(7, ' ') +
                    warpLabel(d->warps(r0, r0 + 16, 0, 16)) + std::string(16, ' ') +
                    warpLabel(d->warps(r0, r0 + 16, 16, 32)));
    lines.push_back("    |/--------^---------\\ /---------^--------\\");
    for (int64_t i : {0, 1}) lines.push_back(tableRow(*d, r0 + i, blocks));
    lines.push_back("..  | ...                    ...");
    for (int64_t i : {6, 7, 8, 9}) lines.push_back(tableRow(*d, r0 + i, blocks));
    lines.push_back("..  | ...                  ...");
    for (int64_t i : {14, 15}) lines.push_back(tableRow(*d, r0 + i, blocks));
  }
  EXPECT_EQ(joinLines(lines), readSeedFile("amd_wmma_v2.txt"));
  checkAllLanes(*d, 2, false);
  checkWarps(*d);
}

// ---- Version 2, transposed (seed 1196-1212) -----------------------------------------------------
// Seed error (INDEX.md 14): the column header ends at "32"; the last column shown is 31.
TEST(Seed003AmdWmma, Version2TransposedTable) {
  auto d = distributeWave32(
      "#ttg.amd_wmma<{version = 2, isTransposed = true, warpsPerCTA = [2, 2]}>", {32, 64});
  ASSERT_TRUE(d);
  const std::vector<int64_t> first = {0, 1, 2, 3, 4, 5, 6, 7, 8, kElided, 15};
  const std::vector<int64_t> second = {16, 17, 18, kElided, 31};
  auto header = [](const std::vector<int64_t>& cols) {
    std::string s;
    for (std::size_t k = 0; k < cols.size(); ++k)
      s += (k ? " " : "") + (cols[k] == kElided ? std::string("...") : left2(cols[k]));
    return s;
  };
  // The second block's labels start one column early, under its '[' (the seed's spacing).
  const std::string secondHeader = header({16, 17, 18});
  const std::string columns =
      "Col>| " + header(first) + "  " + secondHeader + "  ... " + left2(second.back());
  std::vector<std::string> lines;
  for (int64_t half : {0, 1}) {
    const int64_t r0 = 16 * half;
    if (half == 1) lines.push_back("    |");
    lines.push_back("    |" + std::string(15, ' ') + warpLabel(d->warps(r0, r0 + 16, 0, 16)) +
                    std::string(21, ' ') + warpLabel(d->warps(r0, r0 + 16, 16, 32)));
    lines.push_back("    |/----------------^----------------\\ /-------^-------\\");
    if (half == 0) {
      lines.push_back(columns);
      lines.push_back("Row |");
    }
    for (int64_t i : {0, 1}) lines.push_back(tableRow(*d, r0 + i, {first, second}));
    lines.push_back("..  | ...                  ...");
    for (int64_t i : {14, 15}) lines.push_back(tableRow(*d, r0 + i, {first, second}));
  }
  EXPECT_EQ(joinLines(lines), applyCorrections(readSeedFile("amd_wmma_v2_transposed.txt"),
                                               {{2, "... 32", "... 31"}}));
  checkAllLanes(*d, 2, true);
  checkWarps(*d);
}

// Triton 3.6 spells the flag isTranspose: the same layouts.
TEST(Seed003AmdWmma, IsTransposeAndIsTransposedAgree) {
  for (int version : {1, 2})
    for (const char* flag : {"false", "true"}) {
      const std::string tail = std::string(" = ") + flag + ", warpsPerCTA = [2, 2]}>";
      const std::string v = "#ttg.amd_wmma<{version = " + std::to_string(version) + ", ";
      auto a = layout::triton::parseEncoding(v + "isTranspose" + tail);
      auto b = layout::triton::parseEncoding(v + "isTransposed" + tail);
      ASSERT_TRUE(a && b);
      const int64_t shape[] = {32, 64};
      auto la = layout::triton::toLinearLayout(*a, shape);
      auto lb = layout::triton::toLinearLayout(*b, shape);
      ASSERT_TRUE(la && lb);
      EXPECT_EQ(*la, *lb) << version << " " << flag;
    }
}

} // namespace
