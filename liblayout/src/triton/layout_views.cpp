// triton-tensor-layout's text formats (lib/Dialect/TritonGPU/IR/Dialect.cpp, getLayoutStr).
#include "layout/triton/layout_views.h"

#include "layout/core/resource_limits.h"

#include <vector>

namespace layout::triton {
namespace {

int digits(uint64_t x) {
  return int(std::to_string(x).size());
}

std::string padded(uint64_t value, uint64_t max) {
  std::string s = std::to_string(value);
  int pad = digits(max) - int(s.size());
  return pad > 0 ? std::string(pad, ' ') + s : s;
}

// Applies `ll` with the named inputs (others 0) and returns the out values in out-dim order.
std::vector<uint64_t> applyNamed(const LinearLayout& ll,
                                 std::initializer_list<std::pair<DimName, uint64_t>> named) {
  std::vector<uint64_t> ins(ll.numInDims(), 0), outs(ll.numOutDims(), 0);
  for (auto [name, value] : named)
    if (int d = ll.inDimIndex(name); d >= 0) ins[d] = value;
  ll.apply(ins, outs);
  return outs;
}

uint64_t linearize(const std::vector<uint64_t>& coords, std::span<const int64_t> shape) {
  uint64_t index = 0;
  for (size_t d = 0; d < shape.size(); ++d) index = index * uint64_t(shape[d]) + coords[d];
  return index;
}

// The numpy-style grid of both tensor views: brackets open where trailing indices are 0, a new
// line is indented by rank minus the brackets opened on it, cells joined by `separator`.
std::string tensorGrid(const std::vector<std::string>& cells, std::span<const int64_t> shape,
                       const char* separator) {
  const int rank = int(shape.size());
  const uint64_t total = cells.size();
  std::string out;
  bool newLine = true;
  std::vector<uint64_t> idx(rank, 0);
  for (uint64_t i = 0; i < total; ++i) {
    int open = 0;
    for (int j = rank - 1; j >= 0 && idx[j] == 0; --j) {
      out += '[';
      ++open;
    }
    if (newLine) {
      out.append(size_t(rank - open), ' ');
      newLine = false;
    }
    out += cells[i];
    // Advance the index; every dim that wraps to 0 closes a bracket.
    int j = rank - 1;
    for (; j >= 0; --j) {
      if (++idx[j] < uint64_t(shape[j])) break;
      idx[j] = 0;
      out += ']';
    }
    if (idx[rank - 1] == 0) {
      out += '\n';
      newLine = true;
    } else {
      out += separator;
    }
  }
  return out;
}

constexpr const char* kRaiseCells =
    "raise it with layoutctl show --max-cells N or LAYOUT_MAX_VIEW_CELLS";
constexpr size_t kMaxViewRank = 16;

std::string shapeText(std::span<const int64_t> shape) {
  std::string s;
  for (size_t d = 0; d < shape.size(); ++d) s += (d ? "x" : "") + std::to_string(shape[d]);
  return s;
}

// The number of tensor cells a view prints, checked against the view limit before anything
// proportional to it is allocated, and the layout's out-dims against the shape (a coordinate
// outside the shape would index past the cells).
Expected<uint64_t> viewCells(const LinearLayout& ll, std::span<const int64_t> shape) {
  if (shape.empty()) return makeError("a text view needs a shape of rank 1 or more");
  if (shape.size() > kMaxViewRank)
    return makeError("the text views print tensors of rank at most " +
                     std::to_string(kMaxViewRank) + ", not " + std::to_string(shape.size()));
  if (size_t(ll.numOutDims()) != shape.size())
    return makeError("the layout has " + std::to_string(ll.numOutDims()) +
                     " out-dims but the shape has rank " + std::to_string(shape.size()));
  LAYOUT_TRY_ASSIGN(cells, boundedElementCount(shape, resourceLimits().maxViewCells,
                                               "the tensor " + shapeText(shape), kRaiseCells));
  for (size_t d = 0; d < shape.size(); ++d)
    if (ll.outDimSize(int(d)) > uint64_t(shape[d]))
      return makeError("out-dim " + std::string(ll.outDimName(int(d)).str()) + " has size " +
                       std::to_string(ll.outDimSize(int(d))) + ", larger than the shape's " +
                       std::to_string(shape[d]));
  return cells;
}

// The number of hardware positions (every combination of the listed in-dims) a view visits.
Expected<uint64_t> hardwarePositions(const LinearLayout& ll, std::initializer_list<DimName> names) {
  int bits = 0;
  for (DimName n : names)
    if (int d = ll.inDimIndex(n); d >= 0) bits += ll.inDimSizeLog2(d);
  const uint64_t limit = resourceLimits().maxViewCells;
  if (bits >= 64 || (uint64_t{1} << bits) > limit)
    return makeError("the layout has 2^" + std::to_string(bits) +
                     " hardware positions to print; the limit is " + describeLimit(limit) + " (" +
                     kRaiseCells + ")");
  return uint64_t{1} << bits;
}

} // namespace

Expected<std::string> distributedLayoutStr(const LinearLayout& ll, std::span<const int64_t> shape,
                                           bool hwView) {
  LAYOUT_TRY_ASSIGN(total, viewCells(ll, shape));
  LAYOUT_TRY(hardwarePositions(ll, {dims::reg(), dims::lane(), dims::warp(), dims::block()}));
  const uint64_t lanes = ll.inDimSize(dims::lane()), warps = ll.inDimSize(dims::warp()),
                 blocks = ll.inDimSize(dims::block()), regs = ll.inDimSize(dims::reg());
  std::vector<std::string> elements(total), threads;
  for (uint64_t b = 0; b < blocks; ++b)
    for (uint64_t w = 0; w < warps; ++w)
      for (uint64_t l = 0; l < lanes; ++l)
        for (uint64_t r = 0; r < regs; ++r) {
          std::vector<uint64_t> c = applyNamed(
              ll, {{dims::block(), b}, {dims::warp(), w}, {dims::lane(), l}, {dims::reg(), r}});
          const uint64_t t = l + w * lanes;
          std::string& cell = elements[linearize(c, shape)];
          if (!cell.empty()) cell += '|';
          int pad = digits(blocks) - digits(b) + digits(warps * lanes) - digits(t) + digits(regs) -
                    digits(r);
          cell.append(size_t(pad > 0 ? pad : 0), ' ');
          if (blocks > 1) cell += "B" + std::to_string(b) + ":";
          cell += "T" + std::to_string(t) + ":" + std::to_string(r);
          if (hwView) {
            std::string tuple = "(";
            for (size_t d = 0; d < c.size(); ++d)
              tuple += (d ? "," : "") + padded(c[d], uint64_t(shape[d]));
            threads.push_back(tuple + ")");
          }
        }
  if (!hwView) return tensorGrid(elements, shape, ", ");
  std::string out;
  for (uint64_t b = 0; b < blocks; ++b) {
    if (blocks > 1) out += "Block" + std::to_string(b) + ":\n";
    for (uint64_t w = 0; w < warps; ++w) {
      out += "Warp" + std::to_string(w) + ":\n";
      for (uint64_t r = 0; r < regs; ++r) {
        for (uint64_t l = 0; l < lanes; ++l) {
          out += threads[((b * warps + w) * lanes + l) * regs + r];
          if (l + 1 < lanes) out += ", ";
        }
        out += '\n';
      }
    }
  }
  return out;
}

Expected<std::string> sharedLayoutStr(const LinearLayout& ll, std::span<const int64_t> shape,
                                      bool hwView) {
  LAYOUT_TRY_ASSIGN(total, viewCells(ll, shape));
  const uint64_t blocks = ll.inDimSize(dims::block());
  // #ttg.partitioned_shared's separate buffers: listed one after the other within a block.
  const DimName partition("partition");
  const uint64_t partitions = ll.inDimSize(partition);
  if (blocks * partitions > total)
    return makeError("the layout has " + std::to_string(blocks * partitions) +
                     " blocks and partitions for " + std::to_string(total) + " elements");
  const uint64_t perBuffer = total / (blocks * partitions); // offsets printed per buffer
  std::vector<std::string> elements(total), offsets;
  uint64_t i = 0;
  for (uint64_t b = 0; b < blocks; ++b)
    for (uint64_t p = 0; p < partitions; ++p)
      for (uint64_t o = 0; o < perBuffer; ++o, ++i) {
        std::vector<uint64_t> c =
            applyNamed(ll, {{dims::block(), b}, {partition, p}, {dims::offset(), o}});
        std::string hw = "(", cell = "(";
        for (size_t d = 0; d < c.size(); ++d) {
          hw += (d ? "," : "") + padded(c[d], uint64_t(shape[d]));
          cell += (d ? ":" : "") + padded(c[d], uint64_t(shape[d]));
        }
        elements[i] += cell + ")";
        offsets.push_back(hw + ")");
      }
  if (!hwView) return tensorGrid(elements, shape, ",");
  std::string out;
  i = 0;
  for (uint64_t b = 0; b < blocks; ++b) {
    out += "Block: " + std::to_string(b) + ":\n";
    for (uint64_t p = 0; p < partitions; ++p) {
      if (partitions > 1) out += "Partition: " + std::to_string(p) + ":\n";
      for (uint64_t o = 0; o < perBuffer; ++o, ++i)
        out += "Offset: " + std::to_string(o) + " -> " + offsets[i] + "\n";
    }
  }
  return out;
}

Expected<std::string> layoutStr(const Encoding& encoding, const LinearLayout& ll,
                                std::span<const int64_t> shape, bool hwView) {
  return encoding.isShared() ? sharedLayoutStr(ll, shape, hwView)
                             : distributedLayoutStr(ll, shape, hwView);
}

} // namespace layout::triton
