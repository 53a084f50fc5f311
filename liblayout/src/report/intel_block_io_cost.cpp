// Intel Xe block I/O and DPAS figures (intel_block_io_cost.h).
#include "intel_block_io_cost.h"

#include "layout/intel/block_load_plan.h"
#include "layout/triton/intel_dpas.h"
#include "layout/triton/intel_subgroup_2d_block.h"

#include <algorithm>

namespace layout::report::detail {

namespace {

int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t d : v) p *= d;
  return p;
}

std::string shapeText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// A block's [rows, columns]: a 1-D descriptor is one row.
std::vector<int64_t> asRows(std::vector<int64_t> v) {
  if (v.size() == 1) v.insert(v.begin(), 1);
  return v;
}

void checkShape(BlockIoFigures& f, const intel::BlockIoTarget& t, intel::BlockOp op,
                const intel::BlockShape& shape) {
  f.instruction = intel::blockShapeName(shape);
  if (auto ok = intel::validateBlockShape(t, op, shape); !ok) {
    f.legal = false;
    f.why = "not a legal " + std::string(intel::blockOpName(op)) + " on " + t.name + ": " +
            ok.error().message;
  }
  const int64_t elements = int64_t(shape.tileWidth) * shape.tileHeight * shape.numBlocks;
  // A prefetch fills the cache, not registers.
  f.elementsPerLane = op == intel::BlockOp::Prefetch ? 0
                      : f.legal && op == intel::BlockOp::Load
                          ? intel::elementsPerWorkItem(t, shape)
                          : elements / std::max(1, t.subgroupSize);
}

} // namespace

Expected<BlockIoFigures> xegpuBlockIo(const XegpuBlockAccess& a, const intel::BlockIoTarget& t) {
  BlockIoFigures f;
  f.arrayLength = a.arrayLength;
  f.packed = a.packed;
  f.transpose = a.transpose;
  std::vector<int64_t> sub = a.shape, tile;
  if (a.layout && a.layout->isForWorkgroup()) {
    const std::vector<int64_t> sgData = a.layout->effective(a.layout->sgData);
    const std::vector<int64_t> sgLayout = a.layout->effective(a.layout->sgLayout);
    if (!sgData.empty()) {
      sub = sgData;
    } else if (sgLayout.size() == sub.size()) {
      for (size_t i = 0; i < sub.size(); ++i) sub[i] /= std::max<int64_t>(1, sgLayout[i]);
    }
  }
  tile = a.layout && !a.layout->instData.empty() ? a.layout->effective(a.layout->instData) : sub;
  sub = asRows(sub);
  tile = asRows(tile);
  if (sub.size() != 2 || tile.size() != 2)
    return makeError("a 2D block access needs a rank-1 or rank-2 descriptor, not " +
                     shapeText(a.shape));
  // The layout's own fields may be as large as it likes: bound them like the shape.
  for (const auto* v : {&sub, &tile})
    for (int64_t d : *v)
      if (d <= 0 || d > (int64_t{1} << 30))
        return makeError("the block " + shapeText(*v) + " has a dim outside [1, 2^30]");
  if (product(tile) <= 0 || product(sub) % product(tile) != 0)
    return makeError("the instruction tile " + shapeText(tile) + " does not divide the " +
                     "subgroup's data " + shapeText(sub));
  f.tile = tile;
  f.subgroupData = sub;
  f.instructions = product(sub) / product(tile);
  intel::BlockShape shape{a.elemBits,  int(tile[1]), int(tile[0]), std::max(1, a.arrayLength),
                          a.transpose, a.packed};
  checkShape(f, t, a.op, shape);
  if (f.legal)
    f.why = std::string(a.layout && !a.layout->instData.empty() ? "inst_data"
                                                                : "the subgroup's "
                                                                  "data") +
            " " + shapeText(tile) + " per instruction";
  return f;
}

Expected<BlockIoFigures> dpasOperandBlockLoads(const triton::Encoding& operand,
                                               std::span<const int64_t> shape, int elemBits,
                                               const intel::BlockIoTarget& t) {
  LAYOUT_TRY_ASSIGN(plan, intel::planBlockLoads(operand, shape, elemBits, false, t));
  BlockIoFigures f;
  if (plan.loads.empty()) return makeError("the block-load plan has no loads");
  const intel::BlockLoad& first = plan.loads.front();
  const intel::BlockShape s{first.elemBits,  first.tileWidth, first.tileHeight,
                            first.numBlocks, first.transpose, first.vnni};
  f.instruction = intel::blockShapeName(s);
  f.tile = {first.tileHeight, first.tileWidth};
  f.arrayLength = first.numBlocks;
  f.packed = first.vnni;
  f.transpose = first.transpose;
  f.instructions = plan.numLoads;
  f.elementsPerLane = intel::elementsPerWorkItem(t, s);
  f.shuffledRegisters = plan.numShuffledRegisters;
  const bool same = std::all_of(plan.loads.begin(), plan.loads.end(), [&](const auto& l) {
    return l.tileWidth == first.tileWidth && l.tileHeight == first.tileHeight &&
           l.numBlocks == first.numBlocks && l.vnni == first.vnni && l.transpose == first.transpose;
  });
  f.why = std::string("the block-load planner: ") + std::to_string(plan.numLoads) +
          " load(s) per subgroup" + (same ? "" : " of several shapes (the first is named)") +
          ", shuffles assemble " + std::to_string(plan.numShuffledRegisters) +
          " DPAS operand registers";
  return f;
}

// A message of `shape` per instruction over a tensor whose layout `ll` gives each lane its
// registers: checked, and counted as registers / (one message's elements per lane).
static BlockIoFigures messagesOf(const LinearLayout& ll, const intel::BlockShape& shape, int lanes,
                                 const intel::BlockIoTarget& t, intel::BlockOp op,
                                 const char* why) {
  BlockIoFigures f;
  f.tile = {shape.tileHeight, shape.tileWidth};
  f.arrayLength = shape.numBlocks;
  checkShape(f, t, op, shape);
  const int64_t perMessage =
      int64_t(shape.tileHeight) * shape.tileWidth * shape.numBlocks / std::max(1, lanes);
  const int64_t registers = int64_t(ll.inDimSize(DimName("register")));
  f.instructions = perMessage > 0 ? registers / perMessage : 0;
  if (f.legal) f.why = why;
  return f;
}

Expected<BlockIoFigures> subgroup2dBlockIo(const triton::Encoding& encoding,
                                           std::span<const int64_t> shape, int elemBits,
                                           const intel::BlockIoTarget& t) {
  LAYOUT_TRY_ASSIGN(p, triton::subgroup2DBlockParams(encoding));
  LAYOUT_TRY_ASSIGN(ll, triton::toLinearLayout(encoding, shape));
  const intel::BlockShape s{
      elemBits, int(p.instrShape[1]), int(p.instrShape[0]), int(p.numBlocks), false, false};
  return messagesOf(ll, s, int(p.threadsPerWarp), t, intel::BlockOp::Load,
                    "instrShape x numBlocks per message");
}

Expected<BlockIoFigures> dpasAccumulatorBlockStores(const triton::Encoding& encoding,
                                                    std::span<const int64_t> shape, int elemBits,
                                                    const intel::BlockIoTarget& t) {
  LAYOUT_TRY_ASSIGN(p, triton::intelDpasParams(encoding));
  LAYOUT_TRY_ASSIGN(ll, triton::toLinearLayout(encoding, shape));
  const intel::BlockShape s{elemBits, int(p.executionSize), int(p.repeatCount), 1, false, false};
  return messagesOf(ll, s, t.subgroupSize, t, intel::BlockOp::Store,
                    "one DPAS accumulator tile [repeatCount, executionSize] per store");
}

std::array<int64_t, 3> dpasInstructionShape(const target::DpasUnit& unit, int repeatCount,
                                            int aBits) {
  return {repeatCount > 0 ? repeatCount : unit.maxRepeatCount, unit.executionSize,
          int64_t(unit.systolicDepth) * (aBits > 0 ? std::max(1, 32 / aBits) : 1)};
}

std::string dpasShapeText(const std::array<int64_t, 3>& shape) {
  return "[" + std::to_string(shape[0]) + ", " + std::to_string(shape[1]) + ", " +
         std::to_string(shape[2]) + "]";
}

DotFigures dpasFigures(const target::DpasUnit& unit, int repeatCount, int aBits, int64_t m,
                       int64_t n, int64_t k) {
  const auto [M, N, K] = dpasInstructionShape(unit, repeatCount, aBits);
  DotFigures d;
  d.instrShape = dpasShapeText({M, N, K});
  if (m > 0 && n > 0 && k > 0 && m % M == 0 && n % N == 0 && k % K == 0)
    d.instructions = (m / M) * (n / N) * (k / K);
  return d;
}

} // namespace layout::report::detail
