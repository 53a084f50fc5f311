// Helpers of the seed 003 table tests (tests/triton/seed003_*_test.cpp): reading the transcribed
// tables in tests/data/seed003, applying the typos documented in INDEX.md, and asking the library
// which hardware locations hold each element.
#pragma once

#include "layout/core/linear_layout.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace seed003 {

// ---- Seed files ---------------------------------------------------------------------------------
// tests/data/seed003/<name>, whole (a missing file is a test failure).
std::string readSeedFile(const std::string& name);
std::vector<std::string> splitLines(const std::string& text);
std::string joinLines(const std::vector<std::string>& lines);

// One documented typo of the seed: on line `line` (0-based, of the transcription) the seed has
// `seedText` where the correct table has `corrected`. applyCorrections checks that the seed really
// has it there, once, and replaces it, so a correction can never hide anything else.
struct Correction {
  std::size_t line;
  std::string seedText;
  std::string corrected;
};
std::string applyCorrections(const std::string& seed, const std::vector<Correction>& corrections);

// ---- The library's answers ----------------------------------------------------------------------
// toLinearLayout of encoding text (a failure is reported and gives nullopt).
std::optional<layout::LinearLayout> convert(const std::string& text,
                                            const std::vector<int64_t>& shape);
// Row-major flat index of the element ll maps `ins` (one value per in-dim, in ll's order) to.
int64_t flatElement(const layout::LinearLayout& ll, const std::vector<int64_t>& shape,
                    const std::vector<uint64_t>& ins);

struct Owner {
  int64_t block = 0, warp = 0, lane = 0, reg = 0;
  friend auto operator<=>(const Owner&, const Owner&) = default;
};

// The holders of every element (row-major), found by applying the layout to every (register,
// lane, warp, block): the inverse map from coordinates to owners.
struct Distribution {
  std::vector<int64_t> shape;
  int64_t lanes = 1;      // lanes per warp: the size of the layout's lane in-dim
  uint64_t registers = 1; // the size of the layout's register in-dim
  std::vector<std::vector<Owner>> owners;

  int64_t cols() const { return shape.back(); }
  const std::vector<Owner>& at(int64_t i, int64_t j) const { return owners[i * cols() + j]; }
  int64_t thread(const Owner& o) const { return o.lane + o.warp * lanes; }
  // The thread id of the single owner among `os` (in `block`); nullopt when not exactly one.
  std::optional<int64_t> singleThread(const std::vector<Owner>& os, int64_t block = 0) const;
  std::set<int64_t> threads(const std::vector<Owner>& os) const;
  // The single owner of (i, j), in block 0; nullopt when there is not exactly one.
  std::optional<Owner> single(int64_t i, int64_t j) const;
  std::optional<int64_t> singleThread(int64_t i, int64_t j) const;
  std::optional<int64_t> singleWarp(int64_t i, int64_t j) const;
  std::optional<int64_t> singleLane(int64_t i, int64_t j) const;
  // The warps holding any element of rows [r0, r1) x columns [c0, c1).
  std::set<int64_t> warps(int64_t r0, int64_t r1, int64_t c0, int64_t c1) const;
};

std::optional<Distribution> distribute(const std::string& text, const std::vector<int64_t>& shape);

} // namespace seed003
