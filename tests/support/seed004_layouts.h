// Layouts shared by the shared-memory tests: a 2-D layout from spelled-out bases, and seed 004's
// producer and consumer of the 32x64 f16 B tile (transcribed from the seed's Wave kernel).
#pragma once

#include "layout/core/linear_layout.h"

#include <gtest/gtest.h>

#include <vector>

namespace layout_test {

// register / lane / warp bases -> (dim0, dim1) of a rows x cols tile.
inline layout::LinearLayout make2D(std::vector<layout::InDimBases> ins, uint64_t rows,
                                   uint64_t cols) {
  auto l = layout::LinearLayout::create(ins, {layout::DimSize{layout::DimName("dim0"), rows},
                                              layout::DimSize{layout::DimName("dim1"), cols}});
  EXPECT_TRUE(l.ok()) << (l ? "" : l.error().message);
  return l ? *l : layout::LinearLayout();
}

// seed004Reads() as layout JSON, for tests that go through the text readers.
inline constexpr const char* kSeed004ReadsJson = R"({
  "inDims": [ {"name": "register", "bases": [[0, 1], [0, 2], [0, 4], [0, 32]]},
              {"name": "lane", "bases": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8], [0, 16]]},
              {"name": "warp", "bases": [[0, 0], [0, 0], [16, 0]]} ],
  "outDims": [ {"name": "dim0", "size": 32}, {"name": "dim1", "size": 64} ] })";

// Seed 004's consumer (vector.load %arg8[%42, %41]): lane l of a wave reads row l % 16 (+16 for
// thread_id_y), 8 f16 at column 8 * (l / 16) (+32 for the second k half, %45); the four waves of
// thread_id_x / 64 read the same data.
inline layout::LinearLayout seed004Reads() {
  using layout::DimName;
  return make2D({{DimName("register"), {{0, 1}, {0, 2}, {0, 4}, {0, 32}}},
                 {DimName("lane"), {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}, {0, 16}}},
                 {DimName("warp"), {{0, 0}, {0, 0}, {16, 0}}}},
                32, 64);
}

// Seed 004's producer: amdgpu.gather_to_lds of vector<2xf16> writes each wave's 64 lanes linearly
// (lane l: elements 2l, 2l+1 of two 64-wide rows); waves thread_id_x / 64 and thread_id_y pick
// rows 2, 4 and 8 (%19 = map9), the second gather rows + 16 (%25 = map11).
inline layout::LinearLayout seed004Gather() {
  using layout::DimName;
  return make2D({{DimName("register"), {{0, 1}, {16, 0}}},
                 {DimName("lane"), {{0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 0}}},
                 {DimName("warp"), {{2, 0}, {4, 0}, {8, 0}}}},
                32, 64);
}

} // namespace layout_test
