// planBlockLoads: DPAS operand -> 2D block loads + shuffle vectors
// (layout/intel/block_load_plan.h).
//
// The search works in memory coordinates (elements). One DPAS instruction's operand is a dense
// R0 x C0 rectangle; further register bases that double it along one dim ("chains") can join the
// same load. Every (rows, cols) the chains allow is tried, largest first, with every block shape
// that validateBlockShape accepts; a shape is kept only if the reference executor delivers each
// DPAS register of each work-item to that work-item, in one piece (no cross-lane moves). The
// executor is probed on a surface whose elements hold their own row / column, so the lane
// mapping of the hardware model is never restated here.
#include "layout/intel/block_load_plan.h"

#include "layout/core/element_bits.h"
#include "layout/core/resource_limits.h"

#include "layout/triton/intel_dpas.h"

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace layout::intel {

namespace {

struct Coord {
  int64_t r = 0, c = 0;
  bool zero() const { return r == 0 && c == 0; }
};

enum class Mode { Plain, Vnni, Transpose };

bool isPow2(int64_t x) {
  return x > 0 && (x & (x - 1)) == 0;
}
int log2i(int64_t x) {
  return std::countr_zero(static_cast<uint64_t>(x));
}

// Where the executor puts each element of an R x C (elements) tile: pos[lane][r * C + c] is the
// bit offset in the lane's result (elements concatenated, low bits first), or -1.
struct Probe {
  int64_t rows = 0, cols = 0;
  std::vector<std::vector<int32_t>> pos;
};

// Tile columns (in operand elements) covered by a load shape.
int64_t shapeCols(const BlockShape& s, int elemBits) {
  return int64_t{s.tileWidth} * s.numBlocks * s.elemBits / elemBits;
}

Expected<std::shared_ptr<const Probe>> probeShape(const BlockIoTarget& t, const BlockShape& s,
                                                  int elemBits) {
  // Keyed on the target's whole description (a probe depends on every rule of it), then the
  // shape; a lookup compares the target in place, without copying it.
  using ShapeKey = std::tuple<int, int, int, int, int, bool, bool>;
  static std::mutex mutex;
  static std::map<BlockIoTarget, std::map<ShapeKey, std::shared_ptr<const Probe>>> cache;
  const ShapeKey key{elemBits,    s.elemBits,  s.tileWidth, s.tileHeight,
                     s.numBlocks, s.transpose, s.vnni};
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto target = cache.find(t); target != cache.end())
      if (auto it = target->second.find(key); it != target->second.end()) return it->second;
  }
  const int64_t rows = s.tileHeight, cols = shapeCols(s, elemBits);
  const int64_t elemBytes = elemBits / 8;
  int64_t width = std::max<int64_t>(t.surface.minWidthBytes, cols * elemBytes);
  width = (width + 63) / 64 * 64;
  const int64_t perRow = width / elemBytes;
  // Two surfaces: element (r, c) holds r + 1, then c + 1 (0 marks padding / undefined slots).
  std::vector<uint8_t> mem[2];
  for (int k = 0; k < 2; ++k) {
    mem[k].assign(static_cast<size_t>(width * rows), 0);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < perRow; ++c) {
        const uint64_t v = static_cast<uint64_t>(k == 0 ? r + 1 : c + 1);
        for (int64_t b = 0; b < elemBytes; ++b)
          mem[k][static_cast<size_t>(r * width + c * elemBytes + b)] = uint8_t(v >> (8 * b));
      }
  }
  BlockIoRequest req{BlockOp::Load, s, Surface{0, width, rows, width}, 0, 0};
  auto byRow = loadPerWorkItem(t, req, mem[0]);
  if (!byRow) return byRow.error();
  auto byCol = loadPerWorkItem(t, req, mem[1]);
  if (!byCol) return byCol.error();
  auto p = std::make_shared<Probe>();
  p->rows = rows, p->cols = cols;
  p->pos.assign(byRow->size(), std::vector<int32_t>(static_cast<size_t>(rows * cols), -1));
  const uint64_t mask = elemBits == 64 ? ~uint64_t{0} : (uint64_t{1} << elemBits) - 1;
  for (size_t lane = 0; lane < byRow->size(); ++lane)
    for (size_t i = 0; i < (*byRow)[lane].size(); ++i)
      for (int q = 0; q * elemBits < s.elemBits; ++q) {
        const int64_t r = int64_t(((*byRow)[lane][i] >> (q * elemBits)) & mask) - 1;
        const int64_t c = int64_t(((*byCol)[lane][i] >> (q * elemBits)) & mask) - 1;
        if (r < 0 || c < 0 || r >= rows || c >= cols) continue;
        int32_t& slot = p->pos[lane][static_cast<size_t>(r * cols + c)];
        if (slot < 0) slot = static_cast<int32_t>(i * s.elemBits + q * elemBits);
      }
  std::lock_guard<std::mutex> lock(mutex);
  return cache[t].emplace(key, std::move(p)).first->second;
}

struct Operand {
  int elemBits = 0, unitBits = 0, lanes = 0;
  int64_t instrElems = 0;             // operand elements per lane per DPAS instruction
  int64_t rows0 = 0, cols0 = 0;       // one instruction's tile (memory coordinates)
  std::vector<std::vector<Coord>> at; // at[lane][e]: element e of one instruction
  std::vector<Coord> rest;            // register bases beyond one instruction
};

// Per iteration offset, per lane: the operand registers (units) of the load result, or nullopt
// when some register is not delivered whole to its own lane.
std::optional<std::vector<std::vector<std::vector<int64_t>>>>
matchTile(const Probe& p, const Operand& op, const std::vector<Coord>& iterOffsets) {
  const int64_t k = op.unitBits / op.elemBits, units = op.instrElems / k;
  std::vector<std::vector<std::vector<int64_t>>> out(iterOffsets.size());
  for (size_t it = 0; it < iterOffsets.size(); ++it) {
    out[it].assign(static_cast<size_t>(op.lanes), std::vector<int64_t>(static_cast<size_t>(units)));
    for (int l = 0; l < op.lanes; ++l)
      for (int64_t u = 0; u < units; ++u) {
        int64_t base = -1;
        for (int64_t q = 0; q < k; ++q) {
          const Coord e = op.at[l][static_cast<size_t>(u * k + q)];
          const int64_t r = e.r ^ iterOffsets[it].r, c = e.c ^ iterOffsets[it].c;
          if (r >= p.rows || c >= p.cols) return std::nullopt;
          const int32_t bit = p.pos[l][static_cast<size_t>(r * p.cols + c)];
          if (bit < 0) return std::nullopt;
          if (q == 0) {
            if (bit % op.unitBits != 0) return std::nullopt;
            base = bit;
          } else if (bit != base + q * op.elemBits) {
            return std::nullopt;
          }
        }
        out[it][static_cast<size_t>(l)][static_cast<size_t>(u)] = base / op.unitBits;
      }
  }
  return out;
}

std::vector<BlockShape> candidateShapes(Mode mode, int64_t rows, int64_t cols, int elemBits,
                                        int unitBits) {
  std::vector<BlockShape> out;
  auto add = [&](int loadBits, bool transpose, bool vnni) {
    const int64_t width = cols * elemBits / loadBits;
    for (int nb = 1; nb <= 4; nb *= 2)
      if (width % nb == 0 && width / nb >= 1 && rows <= (int64_t{1} << 20) && width <= 1 << 20)
        out.push_back({loadBits, int(width / nb), int(rows), nb, transpose, vnni});
  };
  switch (mode) {
  case Mode::Plain:
    add(elemBits, false, false);
    if (unitBits != elemBits) add(unitBits, false, false);
    break;
  case Mode::Vnni:
    if (elemBits < 32) add(elemBits, false, true);
    break;
  case Mode::Transpose:
    if (elemBits <= 32) add(32, true, false);
    break;
  }
  return out;
}

Coord memCoord(const LinearLayout& ll, int inDim, int i, int d0, int d1, bool transposed) {
  const int64_t a = int64_t(ll.basis(inDim, i, d0)), b = int64_t(ll.basis(inDim, i, d1));
  return transposed ? Coord{b, a} : Coord{a, b};
}

Expected<Operand> describeOperand(const LinearLayout& ll, int opIdx,
                                  const triton::IntelDpasParams& p, int elemBits, bool transposed,
                                  int lanes) {
  Operand op;
  op.elemBits = elemBits, op.lanes = lanes;
  op.unitBits = opIdx == 0 && elemBits != 32 ? 16 : 32;
  const int64_t k = p.systolicDepth * p.opsPerChan;
  const int64_t tileElems = opIdx == 0 ? p.repeatCount * k : k * p.executionSize;
  if (tileElems % lanes != 0 || !isPow2(tileElems / lanes) ||
      (tileElems / lanes) * elemBits % op.unitBits != 0)
    return makeError("one DPAS instruction's operand (" + std::to_string(tileElems) +
                     " elements) does not give each of the " + std::to_string(lanes) +
                     " work-items whole " + std::to_string(op.unitBits) + "-bit registers");
  op.instrElems = tileElems / lanes;
  const int reg = ll.inDimIndex(dims::reg()), lane = ll.inDimIndex(dims::lane());
  const int d0 = ll.outDimIndex(dims::standardOut(0)), d1 = ll.outDimIndex(dims::standardOut(1));
  if (reg < 0 || lane < 0 || d0 < 0 || d1 < 0 || ll.inDimSize(lane) != uint64_t(lanes))
    return makeError("the operand layout must map register and " + std::to_string(lanes) +
                     " lanes to dim0, dim1");
  const int instrBits = log2i(op.instrElems);
  if (ll.inDimSizeLog2(reg) < instrBits)
    return makeError("the tensor holds fewer than one DPAS instruction's registers per work-item");
  std::vector<Coord> regB, laneB;
  for (int i = 0; i < instrBits; ++i) regB.push_back(memCoord(ll, reg, i, d0, d1, transposed));
  for (int i = 0; i < ll.inDimSizeLog2(lane); ++i)
    laneB.push_back(memCoord(ll, lane, i, d0, d1, transposed));
  for (int i = instrBits; i < ll.inDimSizeLog2(reg); ++i)
    op.rest.push_back(memCoord(ll, reg, i, d0, d1, transposed));
  op.at.assign(static_cast<size_t>(lanes), std::vector<Coord>(static_cast<size_t>(op.instrElems)));
  int64_t maxR = 0, maxC = 0;
  for (int l = 0; l < lanes; ++l)
    for (int64_t e = 0; e < op.instrElems; ++e) {
      Coord x;
      for (int b = 0; b < instrBits; ++b)
        if (e >> b & 1) x.r ^= regB[b].r, x.c ^= regB[b].c;
      for (size_t b = 0; b < laneB.size(); ++b)
        if (l >> b & 1) x.r ^= laneB[b].r, x.c ^= laneB[b].c;
      op.at[l][static_cast<size_t>(e)] = x;
      maxR = std::max(maxR, x.r), maxC = std::max(maxC, x.c);
    }
  op.rows0 = maxR + 1, op.cols0 = maxC + 1;
  // The instruction must cover a dense rectangle exactly once (no broadcast lanes or registers).
  bool dense = isPow2(op.rows0) && isPow2(op.cols0) &&
               op.rows0 * op.cols0 == op.instrElems * lanes && op.rows0 <= 4096 && op.cols0 <= 4096;
  if (dense) {
    std::vector<char> seen(static_cast<size_t>(op.rows0 * op.cols0), 0);
    for (const auto& laneAt : op.at)
      for (const Coord& x : laneAt) {
        char& s = seen[static_cast<size_t>(x.r * op.cols0 + x.c)];
        if (s) dense = false;
        s = 1;
      }
  }
  if (!dense)
    return makeError("the tensor shape is smaller than one DPAS instruction's operand (its "
                     "registers or lanes are broadcast); block loads need whole instructions");
  return op;
}

struct Choice {
  Mode mode{};
  BlockShape shape;
  int64_t rows = 0, cols = 0;
  std::vector<size_t> iterIdx; // indices into Operand::rest
  std::vector<std::vector<std::vector<int64_t>>> regs;
};

std::vector<Coord> offsetsOf(const Operand& op, const std::vector<size_t>& idx) {
  std::vector<Coord> out(size_t{1} << idx.size());
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t b = 0; b < idx.size(); ++b)
      if (i >> b & 1) out[i].r ^= op.rest[idx[b]].r, out[i].c ^= op.rest[idx[b]].c;
  return out;
}

Expected<Choice> chooseTile(const Operand& op, int opIdx, bool transposed,
                            const BlockIoTarget& target) {
  // Chains: rest[] indices that double the tile along dim0 / dim1, in order.
  std::vector<size_t> chain[2], zeros;
  for (size_t i = 0; i < op.rest.size(); ++i)
    if (op.rest[i].zero()) zeros.push_back(i);
  for (int d = 0; d < 2; ++d) {
    int64_t ext = d == 0 ? op.rows0 : op.cols0;
    for (bool grown = true; grown;) {
      grown = false;
      for (size_t i = 0; i < op.rest.size(); ++i) {
        const Coord x = op.rest[i];
        if ((d == 0 && x.r == ext && x.c == 0) || (d == 1 && x.c == ext && x.r == 0)) {
          chain[d].push_back(i), ext *= 2, grown = true;
          break;
        }
      }
    }
  }
  std::vector<std::pair<size_t, size_t>> sizes;
  for (size_t a = 0; a <= chain[0].size(); ++a)
    for (size_t b = 0; b <= chain[1].size(); ++b) sizes.push_back({a, b});
  std::stable_sort(sizes.begin(), sizes.end(), [](auto x, auto y) {
    return x.first + x.second != y.first + y.second ? x.first + x.second > y.first + y.second
                                                    : x.first > y.first;
  });
  std::vector<Mode> modes;
  if (transposed)
    modes = {Mode::Transpose};
  else if (opIdx == 1)
    modes = {Mode::Vnni, Mode::Plain};
  else
    modes = {Mode::Plain};
  for (auto [a, b] : sizes) {
    Choice c;
    c.rows = op.rows0 << a, c.cols = op.cols0 << b;
    c.iterIdx = zeros;
    c.iterIdx.insert(c.iterIdx.end(), chain[0].begin(), chain[0].begin() + long(a));
    c.iterIdx.insert(c.iterIdx.end(), chain[1].begin(), chain[1].begin() + long(b));
    std::sort(c.iterIdx.begin(), c.iterIdx.end());
    const std::vector<Coord> offs = offsetsOf(op, c.iterIdx);
    for (Mode m : modes)
      for (const BlockShape& s : candidateShapes(m, c.rows, c.cols, op.elemBits, op.unitBits)) {
        if (!validateBlockShape(target, BlockOp::Load, s)) continue;
        auto probe = probeShape(target, s, op.elemBits);
        if (!probe) continue;
        auto regs = matchTile(**probe, op, offs);
        if (!regs) continue;
        c.mode = m, c.shape = s, c.regs = std::move(*regs);
        return c;
      }
  }
  return makeError(std::string("no legal 2D block load on '") + target.name +
                   "' gives each work-item its own DPAS " + (opIdx == 0 ? "A" : "B") +
                   " registers whole (" + std::to_string(op.elemBits) + "-bit elements" +
                   (transposed ? ", transposed in memory" : "") +
                   "); the operand needs a cross-lane shuffle or another layout");
}

} // namespace

Expected<BlockLoadPlan> planBlockLoads(const triton::Encoding& operand,
                                       std::span<const int64_t> shape, int elemBits,
                                       bool transposedInMemory, const BlockIoTarget& target) {
  const AttrValue* parent = operand.attr.find("parent");
  if (operand.kind != triton::EncodingKind::DotOperand || !parent ||
      parent->kind != AttrValue::Kind::Attribute ||
      (parent->text != "ttig.dpas" && parent->text != "triton_intel_gpu.dpas"))
    return makeError("block-load planning needs a #ttg.dot_op whose parent is a #ttig.dpas, not " +
                     operand.text());
  if (shape.size() != 2)
    return makeError("block-load planning needs a rank-2 tensor shape, not rank " +
                     std::to_string(shape.size()));
  // Probing candidate loads works on buffers of the operand's size: bound it first.
  LAYOUT_TRY(boundedElementCount(shape, resourceLimits().maxPlanElements,
                                 "the operand tensor " + std::to_string(shape[0]) + "x" +
                                     std::to_string(shape[1]),
                                 "raise it with LAYOUT_MAX_PLAN_ELEMENTS"));
  LAYOUT_TRY_ASSIGN(opIdx, triton::dotOperandIndex(operand));
  LAYOUT_TRY_ASSIGN(p, triton::intelDpasParams(operand));
  if (p.rank != 2) return makeError("block-load planning needs a rank-2 #ttig.dpas");
  if (p.fp4KPack != 0) return makeError("block-load planning does not support fp4KPack operands");
  if (!isElementBits(elemBits, kBlockLoadElementBits))
    return makeError("elemBits must be " + elementBitsText(kBlockLoadElementBits) + ", not " +
                     std::to_string(elemBits));
  if (elemBits * p.opsPerChan != 32)
    return makeError("elemBits " + std::to_string(elemBits) + " does not match the parent's " +
                     "opsPerChan = " + std::to_string(p.opsPerChan) +
                     " (a DPAS channel is 32 bits: 8-bit x 4, 16-bit x 2, 32-bit x 1)");
  if (p.threadsPerWarp != target.subgroupSize)
    return makeError("threadsPerWarp = " + std::to_string(p.threadsPerWarp) + " but 2D block " +
                     "loads on '" + target.name + "' serve subgroups of " +
                     std::to_string(target.subgroupSize));
  LAYOUT_TRY_ASSIGN(ll, triton::toLinearLayout(operand, shape));
  LAYOUT_TRY_ASSIGN(
      op, describeOperand(ll, int(opIdx), p, elemBits, transposedInMemory, target.subgroupSize));
  LAYOUT_TRY_ASSIGN(choice, chooseTile(op, int(opIdx), transposedInMemory, target));

  std::vector<size_t> loadIdx;
  for (size_t i = 0; i < op.rest.size(); ++i)
    if (!std::binary_search(choice.iterIdx.begin(), choice.iterIdx.end(), i)) loadIdx.push_back(i);

  // A plan is listed load by load; beyond 2^12 loads per subgroup the tensor is not a tile.
  if (loadIdx.size() > 12)
    return makeError("the plan would need 2^" + std::to_string(loadIdx.size()) +
                     " block loads per subgroup (at most 4096 are listed); use a smaller shape");

  BlockLoadPlan plan;
  plan.operandRegisterBits = op.unitBits;
  // Slots (the seed's tile-layout unit): the dword of a VNNI or transposed load, the lane unit of a
  // plain row wider than the subgroup.
  const BlockShape& s = choice.shape;
  int64_t fr = 1, fc = 1;
  if (s.vnni)
    fr = 32 / elemBits;
  else if (s.transpose)
    fc = 32 / elemBits;
  else
    fc = (s.elemBits / elemBits) * std::max<int64_t>(1, s.tileWidth / target.subgroupSize);
  auto slot = [&](Coord x) {
    return std::vector<uint64_t>{uint64_t(x.r / fr), uint64_t(x.c / fc)};
  };
  InDimBases offsetDim{dims::offset(), {}}, iterDim{DimName("iteration"), {}},
      loadDim{DimName("load"), {}};
  for (int64_t x = 1; x < op.cols0 / fc; x *= 2) offsetDim.bases.push_back({0, uint64_t(x)});
  for (int64_t x = 1; x < op.rows0 / fr; x *= 2) offsetDim.bases.push_back({uint64_t(x), 0});
  for (size_t i : choice.iterIdx) iterDim.bases.push_back(slot(op.rest[i]));
  for (size_t i : loadIdx) loadDim.bases.push_back(slot(op.rest[i]));
  const int64_t memRows = transposedInMemory ? shape[1] : shape[0];
  const int64_t memCols = transposedInMemory ? shape[0] : shape[1];
  const bool oneLoad = loadIdx.empty();
  LAYOUT_TRY_ASSIGN(
      tile, LinearLayout::create(
                {offsetDim, iterDim, loadDim},
                {{dims::standardOut(0), uint64_t((oneLoad ? choice.rows : memRows) / fr)},
                 {dims::standardOut(1), uint64_t((oneLoad ? choice.cols : memCols) / fc)}}));
  plan.tileLayout = std::move(tile);

  const std::vector<Coord> loadOffsets = offsetsOf(op, loadIdx);
  for (const Coord& o : loadOffsets)
    plan.loads.push_back(
        {s.elemBits, s.tileWidth, s.tileHeight, s.numBlocks, s.transpose, s.vnni, {o.r, o.c}});
  plan.numLoads = int(plan.loads.size());

  for (size_t j = 0; j < loadOffsets.size(); ++j)
    for (size_t it = 0; it < choice.regs.size(); ++it) {
      int64_t dpas = 0;
      for (size_t b = 0; b < choice.iterIdx.size(); ++b)
        if (it >> b & 1) dpas |= int64_t{1} << choice.iterIdx[b];
      for (size_t b = 0; b < loadIdx.size(); ++b)
        if (j >> b & 1) dpas |= int64_t{1} << loadIdx[b];
      const auto& perLane = choice.regs[it];
      const bool uniform = std::all_of(perLane.begin(), perLane.end(),
                                       [&](const auto& v) { return v == perLane[0]; });
      if (uniform) {
        plan.shuffles.push_back({int(j), int64_t(it), dpas, std::nullopt, perLane[0]});
      } else {
        for (size_t l = 0; l < perLane.size(); ++l)
          plan.shuffles.push_back({int(j), int64_t(it), dpas, int(l), perLane[l]});
      }
      plan.numShuffledRegisters += int(perLane[0].size());
    }

  // Subgroup (warp) offsets, in memory coordinates.
  const int warp = ll.inDimIndex(dims::warp());
  const int d0 = ll.outDimIndex(dims::standardOut(0)), d1 = ll.outDimIndex(dims::standardOut(1));
  InDimBases warpDim{dims::warp(), {}};
  for (int i = 0; warp >= 0 && i < ll.inDimSizeLog2(warp); ++i) {
    const Coord x = memCoord(ll, warp, i, d0, d1, transposedInMemory);
    warpDim.bases.push_back({uint64_t(x.r), uint64_t(x.c)});
  }
  LAYOUT_TRY_ASSIGN(sg,
                    LinearLayout::create({warpDim}, {{dims::standardOut(0), uint64_t(memRows)},
                                                     {dims::standardOut(1), uint64_t(memCols)}}));
  plan.subgroupOffset = std::move(sg);
  return plan;
}

} // namespace layout::intel
