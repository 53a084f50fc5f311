// Level-based layout compatibility (xegpu.md §6 "isCompatibleWith"): a quick accept on equal
// fields, else the coordinates every id owns must agree.
#include "layout/xegpu/compatibility.h"

#include "layout/text/internal/list_text.h"
#include "propagation_util.h"

#include <string>

namespace layout::xegpu {

using layout::detail::listText;

namespace {

using detail::Dims;

constexpr int64_t kMaxComparedElements = int64_t{1} << 24;

// Only the fields a level reads, so that the other levels' fields cannot change the answer.
XeLayout onlyLevel(const XeLayout& l, LayoutKind level) {
  XeLayout out = l;
  out.instData.clear();
  if (level == LayoutKind::Subgroup) {
    out.laneLayout.clear();
    out.laneData.clear();
  } else {
    out.sgLayout.clear();
    out.sgData.clear();
  }
  return out;
}

// What each id owns of `shape`: subgroup level, the sg_data blocks' offsets; lane level, the
// coordinate of every register.
Expected<std::vector<Dims>> owned(const XeLayout& l, std::span<const int64_t> shape,
                                  LayoutKind level, int64_t id, const char* which) {
  if (level == LayoutKind::Subgroup) {
    auto tiles = subgroupTiles(l, shape, id);
    if (!tiles) return withContext(tiles.error(), which);
    return tiles->tileOffsets;
  }
  auto coords = laneCoords(l, shape, id, std::nullopt);
  if (!coords) return withContext(coords.error(), which);
  return *coords;
}

// The partial-subgroup rule of llvm#201667's review (reverted before merging): 2-D, same
// lane_data, equal lane_layout on one dim and b's dividing a's on the other.
bool partialSubgroupMatch(const Dims& la, const Dims& lb, const Dims& da, const Dims& db) {
  if (la.size() != 2 || lb.size() != 2 || da != db) return false;
  if (la[0] == lb[0]) return la[1] % lb[1] == 0;
  if (la[1] == lb[1]) return la[0] % lb[0] == 0;
  return false;
}

} // namespace

Expected<bool> isCompatible(const XeLayout& a, const XeLayout& b, std::span<const int64_t> shape,
                            LayoutKind level, bool partialSubgroup) {
  if (a.rank() != b.rank())
    return makeError("compatible: the layouts have ranks " + std::to_string(a.rank()) + " and " +
                     std::to_string(b.rank()));
  if (level == LayoutKind::InstData) return a.effective(a.instData) == b.effective(b.instData);
  const bool sg = level == LayoutKind::Subgroup;
  const Dims& gridA = sg ? a.sgLayout : a.laneLayout;
  const Dims& gridB = sg ? b.sgLayout : b.laneLayout;
  const char* field = sg ? "sg_layout" : "lane_layout";
  if (gridA.empty() || gridB.empty())
    return makeError(std::string("compatible: ") + (gridA.empty() ? "the first" : "the second") +
                     " layout " + (gridA.empty() ? a.text : b.text) + " has no " + field +
                     " to compare at " + (sg ? "subgroup" : "lane") + " level");
  const Dims ea = a.effective(gridA), eb = b.effective(gridB);
  const Dims da = a.effective(sg ? a.sgData : a.laneData);
  const Dims db = b.effective(sg ? b.sgData : b.laneData);
  if (a.sliceEffectiveOrder() == b.sliceEffectiveOrder() && ea == eb && da == db) return true;
  if (!sg && partialSubgroup && partialSubgroupMatch(ea, eb, da, db)) return true;
  if (int64_t(shape.size()) != a.rank())
    return makeError("compatible: the shape " + listText(shape) +
                     " does not have the layouts' rank " + std::to_string(a.rank()));
  // The walk lists every owned coordinate, so the shape's size bounds the work.
  int64_t elements = 1;
  for (int64_t v : shape) {
    if (v < 1 || v > kMaxComparedElements || elements * v > kMaxComparedElements)
      return makeError("compatible: the shape " + listText(shape) + " has more than " +
                       std::to_string(kMaxComparedElements) + " elements (or a size below 1)");
    elements *= v;
  }
  const XeLayout la = onlyLevel(a, level), lb = onlyLevel(b, level);
  // Ids past a's grid would only replicate it; the grid is at most 2^31 (i32 fields), so cap
  // the walk.
  const int64_t ids = detail::productOf(gridA);
  if (ids > (int64_t{1} << 16))
    return makeError("compatible: the first layout has " + std::to_string(ids) +
                     " ids at this "
                     "level; at most 65536 are compared");
  for (int64_t id = 0; id < ids; ++id) {
    LAYOUT_TRY_ASSIGN(ca, owned(la, shape, level, id, "first layout"));
    LAYOUT_TRY_ASSIGN(cb, owned(lb, shape, level, id, "second layout"));
    if (ca != cb) return false;
  }
  return true;
}

} // namespace layout::xegpu
