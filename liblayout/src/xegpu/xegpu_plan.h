// The distribution plan of an XeGPU layout on a shape: per tensor dim, the grid, block and unit
// of each level (subgroup, inst_data, lane), after upstream's distributability check. The
// queries and toLinearLayout both read it, so they agree by construction on the levels and
// differ only in how they combine them (integers vs GF(2) bases).
#pragma once

#include "layout/xegpu/xegpu_layout.h"

#include <cstdint>
#include <span>
#include <vector>

namespace layout::xegpu::detail {

// One tensor dim. Coordinates: ((u*unit + g*block) mod size) per level, nested.
struct DimPlan {
  int64_t size = 1; // the tensor dim S
  int rootDim = -1; // root layout dim; -1 for a leading dim kept whole
  // Subgroup level (a subgroup layout has one subgroup owning the whole dim).
  int64_t sgGrid = 1, sgBlock = 1, sgUnit = 1;
  int64_t inst = 1; // inst_data tile inside an sg block (= sgBlock when absent)
  // Lane level inside one inst tile (no lane_layout: one lane owning the tile).
  int64_t laneGrid = 1, laneBlock = 1, laneUnit = 1;

  int64_t blocks() const { return size / sgUnit; }      // sg blocks per subgroup
  int64_t tiles() const { return sgBlock / inst; }      // inst tiles per sg block
  int64_t laneUnits() const { return inst / laneUnit; } // lane blocks per tile
};

struct Plan {
  std::vector<DimPlan> dims; // one per tensor dim
  XeLayout layout;           // sg_map on fewer dims: the leading dims turned into slices
};

// One mixed-radix digit of the register index: value v adds v * stride to `dim`.
struct Digit {
  int dim;
  int64_t radix;
  int64_t stride;
};

// Validates the shape against the layout (ranks, size limits, divisibility). With
// `upstreamRule`, the subgroup stage is upstream's isDistributable, which tests the whole shape
// at once (all dims divisible one way, or all the other way); without it, each dim on its own,
// which is all the per-dim formulas need (upstream's computeDistributedCoords checks nothing).
Expected<Plan> planDistribution(const XeLayout& layout, std::span<const int64_t> shape,
                                bool upstreamRule = true);
// The register digits, fastest first (the order documented in xegpu_layout.h).
std::vector<Digit> registerDigits(const Plan& plan);
// upstream delinearizeId over `grid` by `order`, every digit mod its grid size.
std::vector<int64_t> delinearizeGrid(const std::vector<int64_t>& grid,
                                     const std::vector<int64_t>& order, int64_t id);

} // namespace layout::xegpu::detail
