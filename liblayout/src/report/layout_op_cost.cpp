// Layout-only ops and reductions (layout_op_cost.h).
#include "layout_op_cost.h"

#include "layout/core/conversion_kind.h"

#include <algorithm>
#include <bit>
#include <functional>

namespace layout::report::detail {

namespace {

using Coords = std::vector<uint64_t>;

std::vector<uint64_t> outSizes(const LinearLayout& l) {
  std::vector<uint64_t> s;
  for (int d = 0; d < l.numOutDims(); ++d) s.push_back(l.outDimSize(d));
  return s;
}

std::string sizesText(const std::vector<uint64_t>& s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

// Row-major, dim 0 slowest. Sizes are powers of two, so the fields of the index are disjoint bit
// ranges and relinearizing is linear over GF(2).
uint64_t flatten(const Coords& c, const std::vector<uint64_t>& sizes) {
  uint64_t f = 0;
  for (size_t i = 0; i < c.size(); ++i) f = (f << std::countr_zero(sizes[i])) | c[i];
  return f;
}

Coords unflatten(uint64_t f, const std::vector<uint64_t>& sizes) {
  Coords c(sizes.size());
  for (size_t i = sizes.size(); i-- > 0;) {
    c[i] = f & (sizes[i] - 1);
    f >>= std::countr_zero(sizes[i]);
  }
  return c;
}

// `l` with every basis image sent through `map` onto out-dims dim0..dimN-1 of `sizes`, and
// `extraRegister` (if any) appended to the register bases.
Expected<LinearLayout> mapOuts(const LinearLayout& l, const std::vector<uint64_t>& sizes,
                               const std::function<Coords(const Coords&)>& map,
                               const Coords* extraRegister = nullptr) {
  std::vector<InDimBases> ins;
  for (int in = 0; in < l.numInDims(); ++in) {
    InDimBases b{l.inDimName(in), {}};
    for (int i = 0; i < l.inDimSizeLog2(in); ++i) b.bases.push_back(map(l.basis(in, i)));
    if (extraRegister && l.inDimName(in) == DimName("register")) b.bases.push_back(*extraRegister);
    ins.push_back(std::move(b));
  }
  std::vector<DimSize> outs;
  for (size_t d = 0; d < sizes.size(); ++d)
    outs.push_back({DimName("dim" + std::to_string(d)), sizes[d]});
  return LinearLayout::create(ins, outs);
}

std::string movementWhy(ConversionKind k) {
  switch (k) {
  case ConversionKind::None:
    return "every thread already holds each element of the result in the same register";
  case ConversionKind::RegisterPermutation:
    return "every thread keeps its elements; only registers are renamed";
  case ConversionKind::WarpShuffle:
    return "elements move between lanes of a warp: the result layout is not the one this op "
           "infers from its source";
  case ConversionKind::SharedMemory:
    return "elements move between warps: the result layout is not the one this op infers from "
           "its source";
  }
  return "";
}

// The rank of a set of images (the log2 of how many distinct elements they reach).
Expected<int> rankOf(std::vector<Coords> images, const std::vector<uint64_t>& sizes) {
  std::vector<DimSize> outs;
  for (size_t d = 0; d < sizes.size(); ++d)
    outs.push_back({DimName("dim" + std::to_string(d)), sizes[d]});
  LAYOUT_TRY_ASSIGN(
      l, LinearLayout::create({InDimBases{DimName("register"), std::move(images)}}, outs));
  return l.rank();
}

} // namespace

Expected<LayoutChangeFigures> layoutChange(std::string_view op, const LinearLayout& src,
                                           const LinearLayout& result,
                                           std::span<const int64_t> order, int axis) {
  const std::vector<uint64_t> s = outSizes(src), r = outSizes(result);
  const auto mismatch = [&](std::string rule) {
    return makeError(std::string(op) + ": the source " + sizesText(s) + " and result " +
                     sizesText(r) + " shapes do not fit: " + rule);
  };
  std::function<Coords(const Coords&)> map;
  Coords pairBit; // split: the result pair index, held by each thread with its element
  if (op == "tt.trans") {
    if (order.size() != r.size() || s.size() != r.size())
      return mismatch("the order has " + std::to_string(order.size()) + " entries");
    std::vector<bool> seen(r.size(), false);
    for (size_t i = 0; i < order.size(); ++i) {
      if (order[i] < 0 || size_t(order[i]) >= r.size() || seen[size_t(order[i])] ||
          s[size_t(order[i])] != r[i])
        return mismatch("order is not a permutation that takes the source to the result");
      seen[size_t(order[i])] = true;
    }
    map = [order](const Coords& c) {
      Coords out(c.size());
      for (size_t i = 0; i < c.size(); ++i) out[size_t(order[i])] = c[i];
      return out;
    };
  } else if (op == "tt.reshape") {
    uint64_t ns = 1, nr = 1;
    for (uint64_t v : s) ns *= v;
    for (uint64_t v : r) nr *= v;
    if (ns != nr) return mismatch("the element counts differ");
    map = [s, r](const Coords& c) { return unflatten(flatten(c, r), s); };
  } else if (op == "tt.broadcast") {
    if (s.size() != r.size()) return mismatch("the ranks differ");
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] != 1 && s[i] != r[i]) return mismatch("dim " + std::to_string(i) + " is not 1");
    map = [s](const Coords& c) {
      Coords out(c);
      for (size_t i = 0; i < out.size(); ++i)
        if (s[i] == 1) out[i] = 0;
      return out;
    };
  } else if (op == "tt.expand_dims") {
    if (r.size() != s.size() + 1 || axis < 0 || size_t(axis) >= r.size() || r[size_t(axis)] != 1)
      return mismatch("the result is not the source with a dim of size 1 at axis " +
                      std::to_string(axis));
    map = [axis](const Coords& c) {
      Coords out(c);
      out.erase(out.begin() + axis);
      return out;
    };
  } else if (op == "tt.join") {
    if (r.size() != s.size() + 1 || r.back() != 2 || !std::equal(s.begin(), s.end(), r.begin()))
      return mismatch("the result is not the source with a last dim of 2");
    map = [](const Coords& c) { return Coords(c.begin(), c.end() - 1); };
  } else if (op == "tt.split") {
    if (s.size() != r.size() + 1 || s.back() != 2 || !std::equal(r.begin(), r.end(), s.begin()))
      return mismatch("the source is not the result with a last dim of 2");
    map = [](const Coords& c) {
      Coords out(c);
      out.push_back(0);
      return out;
    };
    // A thread that holds an element of one result needs its pair from the source too.
    pairBit.assign(s.size(), 0);
    pairBit.back() = 1;
  } else {
    return makeError(std::string(op) + " is not a layout-only op");
  }
  LAYOUT_TRY_ASSIGN(mapped, mapOuts(result, s, map, pairBit.empty() ? nullptr : &pairBit));
  LAYOUT_TRY_ASSIGN(cls, classifyConversion(src, mapped));
  LayoutChangeFigures f;
  f.movement = cls.kind;
  f.free = cls.kind == ConversionKind::None || cls.kind == ConversionKind::RegisterPermutation;
  f.why = movementWhy(cls.kind);
  return f;
}

Expected<ReductionFigures> reductionCost(const LinearLayout& src, int axis, int elemBits,
                                         int operands) {
  if (axis < 0 || axis >= src.numOutDims())
    return makeError("tt.reduce: axis " + std::to_string(axis) + " is outside the rank " +
                     std::to_string(src.numOutDims()));
  ReductionFigures f;
  f.axis = axis;
  const std::vector<uint64_t> sizes = outSizes(src);
  std::vector<Coords> registers, kept;
  if (int reg = src.inDimIndex(DimName("register")); reg >= 0) {
    for (int i = 0; i < src.inDimSizeLog2(reg); ++i) {
      registers.push_back(src.basis(reg, i));
      kept.push_back(registers.back());
      kept.back()[size_t(axis)] = 0;
    }
  }
  // Registers that differ only along the axis fold into one partial result.
  LAYOUT_TRY_ASSIGN(all, rankOf(registers, sizes));
  LAYOUT_TRY_ASSIGN(outputs, rankOf(kept, sizes));
  f.accumulators = uint64_t{1} << outputs;
  f.inThreadElements = uint64_t{1} << (all - outputs);
  auto alongAxis = [&](const char* name) {
    int n = 0;
    if (int in = src.inDimIndex(DimName(name)); in >= 0)
      for (int i = 0; i < src.inDimSizeLog2(in); ++i) n += src.basis(in, i, axis) != 0 ? 1 : 0;
    return n;
  };
  f.laneRounds = alongAxis("lane");
  f.warpsAlongAxis = 1 << alongAxis("warp");
  const uint64_t words = uint64_t(std::max(1, elemBits / 32));
  f.shuffles = f.accumulators * uint64_t(f.laneRounds) * words * uint64_t(std::max(1, operands));
  return f;
}

} // namespace layout::report::detail
