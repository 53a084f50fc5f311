// MLIR XeGPU layouts (#xegpu.layout, #xegpu.slice, the older #xegpu.sg_map) as linear layouts,
// and the distribution queries of upstream's DistributeLayoutAttr (delinearizeId,
// computeDistributedCoords, computeDistributedShape).
//
//   using namespace layout::xegpu;
//   auto l = parseXegpuAttr("#xegpu.layout<sg_layout = [2, 2], sg_data = [32, 128], "
//                           "lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>");
//   int64_t shape[] = {128, 128};
//   auto tiles = subgroupTiles(*l, shape, 2);  // tileShape [32, 128], offsets [[32, 0], [96, 0]]
//   auto ll = toLinearLayout(*l, shape);
//   // error: upstream's isDistributable tests whole shapes: [128, 128] / sg_layout = [64, 64]
//   // and sg_data [32, 128] divide neither way, so "cannot distribute [128, 128] using ...".
//   int64_t wider[] = {128, 256};
//   auto ll2 = toLinearLayout(*l, wider);       // register, lane, warp, block -> dim0, dim1
//   auto regs = laneCoords(*l, wider, 3, 2);    // coordinate of every register of lane 3, sg 2
//
// Distribution (per tensor dim i, shape S, all levels as in upstream §3 of
// docs/reference/xegpu.md): a level with grid G and block B splits S into units of
// min(S, G*B); id g owns the B-block at ((u*unit + g*B) mod S) of every unit u (round-robin when
// S > G*B; sharing / broadcast when G*B > S, e.g. sg_data == S). The levels nest: subgroups
// (sg_layout, sg_data) on the tensor, then inst_data tiles inside each sg_data block, then lanes
// (lane_layout, lane_data) inside each inst_data tile. A layout without sg_layout is a subgroup
// layout: the shape is one subgroup's data. Ids are linearized by `order` (order[0] fastest,
// default row-major [rank-1, ..., 0]); every digit is taken mod its grid size, so ids past the
// grid are replicas. Slices use the root grid and order and ignore the ids of sliced dims.
//
// Register order (the `register` in-dim, laneCoords): fastest first,
//   1. the lane's elements inside one inst_data tile, row-major over the per-lane shape
//      lane_data * (tile / unit) (within a dim, the lane_data offset is the low part), as in
//      upstream §3.2; for #xegpu.sg_map the RFC's packing instead: lane_data elements first
//      (row-major), then the distribution units (row-major);
//   2. the inst_data tiles of one sg_data block, row-major;
//   3. the sg_data blocks a subgroup owns, in computeDistributedCoords' order (row-major units);
//   4. leading tensor dims beyond the layout's rank (array_length, batch), row-major, kept whole.
//
// toLinearLayout needs power-of-two sizes (GF(2)); the queries also answer other shapes.
#pragma once

#include "layout/core/expected.h"
#include "layout/core/linear_layout.h"
#include "layout/text/mlir_attribute.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace layout::xegpu {

// A parsed and verified XeGPU layout attribute; nested slices are flattened onto their root.
struct XeLayout {
  enum class Form {
    Layout, // #xegpu.layout (possibly inside #xegpu.slice)
    SgMap,  // #xegpu.sg_map<wi_layout, wi_data>: lane level only, RFC register packing
  };
  Form form = Form::Layout;
  // The root layout's fields, empty when absent (sg_map: wi_layout/wi_data are lane_*).
  std::vector<int64_t> sgLayout, sgData, instData, laneLayout, laneData, order;
  // Root dims removed by the slices, sorted; empty for a plain layout.
  std::vector<int64_t> sliceDims;
  bool isSlice = false;
  // The attribute as written, in canonical spacing (used in messages).
  std::string text;

  int rootRank() const;
  // rootRank() minus the sliced dims: the tensor rank the layout describes.
  int rank() const;
  bool isForWorkgroup() const { return !sgLayout.empty(); }
  // `order`, or [rootRank-1, ..., 0] when absent.
  std::vector<int64_t> effectiveOrder() const;
  // The order of the sliced view: effectiveOrder() without the sliced dims, renumbered 0..k-1
  // (upstream SliceAttr::getEffectiveOrderAsInt: parent order [0, 2, 1] sliced over [0] gives
  // [1, 0]). Id delinearization still uses the root order.
  std::vector<int64_t> sliceEffectiveOrder() const;
  // Root dims that are not sliced, ascending.
  std::vector<int64_t> keptDims() const;
  // A root field with the sliced positions removed (empty stays empty).
  std::vector<int64_t> effective(const std::vector<int64_t>& field) const;
};

enum class Level { Subgroup, Lane };

struct SubgroupTiles {
  std::vector<int64_t> tileShape;                // sg_data (with sliced dims removed)
  std::vector<std::vector<int64_t>> tileOffsets; // start of every tile, in register order
};

// Parses `#xegpu.layout<...>`, `#xegpu.slice<PARENT, dims = [..]>` (also the RFC's
// `#xegpu.slice<PARENT, 1>`) or `#xegpu.sg_map<wi_layout = [..], wi_data = [..]>` and verifies
// it with upstream's rules and messages.
Expected<XeLayout> parseXegpuAttr(std::string_view text, const AttrAliases& aliases = {});

// The layout of `shape` (one entry per tensor dim): in-dims register, lane, warp (subgroups),
// block (size 1); out-dims dim0..dimN-1. Fails with upstream's "cannot distribute ..." when the
// shape is not distributable (isDistributable; laneCoords and distributedShape too), and says
// why when a size is not a power of two.
Expected<LinearLayout> toLinearLayout(const XeLayout& layout, std::span<const int64_t> shape);

// The sg_data tiles subgroup `subgroupId` (in [0, idCount(Subgroup))) owns (workgroup layouts
// only). Like upstream's
// computeDistributedCoords it needs each dim to divide one way or the other, not the whole-shape
// isDistributable rule, so it also answers the RFC's examples that upstream's verifier rejects.
Expected<SubgroupTiles> subgroupTiles(const XeLayout& layout, std::span<const int64_t> shape,
                                      int64_t subgroupId);
// How many ids `level` has: the product of sg_layout (Subgroup) or lane_layout (Lane), 0 when the
// layout has no such grid.
int64_t idCount(const XeLayout& layout, Level level);
// An id in [0, idCount) (or any id >= 0 when the layout has no grid at that level), else an error
// that names `what` (an option, "--subgroup", or a batch argument, "args.subgroupId"), the value
// and the valid range: "--subgroup: 99 is outside the valid range [0, 3] (sg_layout [2, 2] has 4
// subgroups)". The queries below check their ids so ("subgroup id", "lane id"); an id past the
// grid is refused rather than wrapped.
Expected<void> checkIdInRange(const XeLayout& layout, int64_t id, Level level,
                              std::string_view what);
// upstream delinearizeId: the id's coordinate in the root grid (sg_layout or lane_layout), by
// the root order; the id must be in the grid's range (checkIdInRange).
Expected<std::vector<int64_t>> delinearize(const XeLayout& layout, int64_t id, Level level);
// The tensor coordinate of every register of lane `laneId` (of subgroup `subgroupId`, required
// for workgroup layouts and ignored otherwise), in register order. Both ids must be in their
// grid's range (checkIdInRange).
Expected<std::vector<std::vector<int64_t>>> laneCoords(const XeLayout& layout,
                                                       std::span<const int64_t> shape,
                                                       int64_t laneId,
                                                       std::optional<int64_t> subgroupId);
// The per-lane vector shape. #xegpu.layout: per dim, blocks * tiles * lane_data * units per tile
// (upstream computeDistributedShape; leading dims kept whole). #xegpu.sg_map: the RFC's
// [n_distribution_units, wi_data size].
Expected<std::vector<int64_t>> distributedShape(const XeLayout& layout,
                                                std::span<const int64_t> shape);

} // namespace layout::xegpu
