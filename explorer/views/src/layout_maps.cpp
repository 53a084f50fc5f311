#include "layout/views/layout_maps.h"

#include <algorithm>
#include <bit>

namespace layout::views {

using layout::Expected;
using layout::LinearLayout;
using layout::makeError;

namespace {
constexpr int kMaxBits = 22; // 4M inputs or elements: enumerable in well under a second
} // namespace

Expected<TensorMap> TensorMap::build(const LinearLayout& ll) {
  if (ll.numOutDims() == 0) return makeError("the layout has no out-dims: nothing to draw");
  if (ll.totalInDimSizeLog2() > kMaxBits)
    return makeError("the layout has 2^" + std::to_string(ll.totalInDimSizeLog2()) +
                     " inputs; the explorer enumerates at most 2^" + std::to_string(kMaxBits));
  if (ll.totalOutDimSizeLog2() > kMaxBits)
    return makeError("the tensor has 2^" + std::to_string(ll.totalOutDimSizeLog2()) +
                     " elements; the explorer draws at most 2^" + std::to_string(kMaxBits));
  TensorMap m;
  m.layout_ = ll;
  int last = ll.numOutDims() - 1;
  m.cols_ = int(ll.outDimSize(last));
  m.rows_ = int((uint64_t{1} << ll.totalOutDimSizeLog2()) / uint64_t(m.cols_));

  static const std::string kDistributed[] = {"register", "lane", "warp", "block"};
  m.distributed_ = ll.numInDims() > 0;
  int shift = 0;
  for (int i = 0; i < ll.numInDims(); ++i) {
    std::string name(ll.inDimName(i).str());
    if (std::find(std::begin(kDistributed), std::end(kDistributed), name) == std::end(kDistributed))
      m.distributed_ = false;
    m.inShift_.push_back(shift);
    m.inBits_.push_back(ll.inDimSizeLog2(i));
    if (name == "register") m.registerMask_ = ((uint64_t{1} << ll.inDimSizeLog2(i)) - 1) << shift;
    shift += ll.inDimSizeLog2(i);
  }

  // Cell of every input: the layout's out-dims packed row-major (last dim fastest).
  uint64_t inputs = m.numInputs();
  m.cellOfInput_.resize(inputs);
  std::vector<int> outShift(ll.numOutDims());
  for (int d = last, s = 0; d >= 0; --d) {
    outShift[d] = s;
    s += ll.outDimSizeLog2(d);
  }
  // applyPacked packs out-dim 0 in the low bits; re-pack once per out basis instead of per
  // input by applying to each input basis and XOR-ing (the map is linear).
  std::vector<uint64_t> basisCell(ll.totalInDimSizeLog2());
  for (int b = 0; b < ll.totalInDimSizeLog2(); ++b) {
    uint64_t packedOut = ll.applyPacked(uint64_t{1} << b);
    uint64_t cell = 0;
    for (int d = 0, s = 0; d < ll.numOutDims(); ++d) {
      uint64_t v = (packedOut >> s) & ((uint64_t{1} << ll.outDimSizeLog2(d)) - 1);
      cell |= v << outShift[d];
      s += ll.outDimSizeLog2(d);
    }
    basisCell[b] = cell;
  }
  for (uint64_t in = 1; in < inputs; ++in) {
    int low = __builtin_ctzll(in);
    // in = (in with its lowest set bit cleared) ^ that bit, and the map is linear.
    m.cellOfInput_[in] = m.cellOfInput_[in & (in - 1)] ^ basisCell[low];
  }
  uint64_t cells = m.numElements();
  m.ownerStart_.assign(cells + 1, 0);
  for (uint64_t in = 0; in < inputs; ++in) ++m.ownerStart_[m.cellOfInput_[in] + 1];
  for (uint64_t c = 0; c < cells; ++c) m.ownerStart_[c + 1] += m.ownerStart_[c];
  m.ownerList_.resize(inputs);
  std::vector<uint32_t> next(m.ownerStart_.begin(), m.ownerStart_.end() - 1);
  for (uint64_t in = 0; in < inputs; ++in) m.ownerList_[next[m.cellOfInput_[in]]++] = in;
  return m;
}

std::span<const uint64_t> TensorMap::owners(uint64_t cell) const {
  return {ownerList_.data() + ownerStart_[cell], ownerStart_[cell + 1] - ownerStart_[cell]};
}

std::span<const uint64_t> TensorMap::owners(int row, int col) const {
  return owners(uint64_t(row) * cols_ + col);
}

int TensorMap::inDimIndex(const std::string& name) const {
  return layout_.inDimIndex(layout::DimName(name));
}

uint64_t TensorMap::inValue(uint64_t packedInput, const std::string& name) const {
  int i = inDimIndex(name);
  if (i < 0) return 0;
  return (packedInput >> inShift_[i]) & ((uint64_t{1} << inBits_[i]) - 1);
}

std::vector<uint64_t> TensorMap::unpack(uint64_t packedInput) const {
  std::vector<uint64_t> v(inShift_.size());
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = (packedInput >> inShift_[i]) & ((uint64_t{1} << inBits_[i]) - 1);
  return v;
}

uint64_t TensorMap::pack(std::span<const uint64_t> values) const {
  uint64_t p = 0;
  for (size_t i = 0; i < values.size() && i < inShift_.size(); ++i) p |= values[i] << inShift_[i];
  return p;
}

std::vector<uint64_t> TensorMap::coordinate(uint64_t cell) const {
  std::vector<uint64_t> c(layout_.numOutDims());
  for (int d = layout_.numOutDims() - 1; d >= 0; --d) {
    c[d] = cell & (layout_.outDimSize(d) - 1);
    cell >>= layout_.outDimSizeLog2(d);
  }
  return c;
}

std::string TensorMap::threadName(uint64_t in) const {
  // As triton-tensor-layout and layoutctl print: the thread id within the CTA (lane + warp *
  // lanes), so warp 1's lane 0 reads T32, not T0 like warp 0's.
  std::string s;
  int b = inDimIndex("block"), l = inDimIndex("lane");
  if (b >= 0 && inBits_[b] > 0) s += "B" + std::to_string(inValue(in, "block")) + ":";
  const uint64_t lanes = l >= 0 ? uint64_t{1} << inBits_[l] : 1;
  return s + "T" + std::to_string(inValue(in, "lane") + inValue(in, "warp") * lanes);
}

std::string TensorMap::cellLabel(uint64_t in) const {
  if (!distributed_) return label(in);
  return threadName(in) + "\nV" + std::to_string(inValue(in, "register"));
}

std::string TensorMap::label(uint64_t in) const {
  if (distributed_) return threadName(in) + ":" + std::to_string(inValue(in, "register"));
  // Shared layouts: offset[, block].
  int off = inDimIndex("offset"), blk = inDimIndex("block");
  if (off >= 0 && layout_.numInDims() == (blk >= 0 ? 2 : 1)) {
    std::string b =
        blk >= 0 && inBits_[blk] > 0 ? "B" + std::to_string(inValue(in, "block")) + " " : "";
    return b + "o" + std::to_string(inValue(in, "offset"));
  }
  std::string s;
  for (int i = 0; i < layout_.numInDims(); ++i) {
    if (inBits_[i] == 0) continue;
    if (!s.empty()) s += ",";
    s += std::string(layout_.inDimName(i).str()) + "=" + std::to_string(unpack(in)[i]);
  }
  return s.empty() ? "0" : s;
}

uint64_t TensorMap::threadOf(uint64_t in) const {
  return in & ~registerMask_;
}

std::optional<std::string> broadcastSummary(const TensorMap& map, uint64_t cell) {
  const auto owners = map.owners(cell);
  if (owners.size() < 2) return std::nullopt;
  const LinearLayout& ll = map.layout();
  std::string text;
  int freeBits = 0;
  for (const auto& [name, mask] : ll.freeVariableMasks()) {
    if (!mask) continue;
    const int d = ll.inDimIndex(name);
    // Triton's free variables are the columns without a pivot; they change nothing only when
    // their basis is zero (lane bases 1 and 1: lane bit 1 is "free" but moves the element).
    for (int bit = 0; bit < ll.inDimSizeLog2(d); ++bit)
      if (mask >> bit & 1)
        for (int o = 0; o < ll.numOutDims(); ++o)
          if (ll.basis(d, bit, o) != 0) return std::nullopt;
    const int n = std::popcount(mask);
    freeBits += n;
    text += std::string(text.empty() ? "" : " x ") + std::string(name.str()) + " bits " +
            binaryText(mask, ll.inDimSizeLog2(d)) + " (" + std::to_string(uint64_t{1} << n) + " " +
            std::string(name.str()) + "s)";
  }
  // Zero-image free bits span a kernel of 2^freeBits inputs: all of it when the counts match.
  if (freeBits >= 64 || owners.size() != (uint64_t{1} << freeBits)) return std::nullopt;
  return "held by every value of " + text;
}

std::string binaryText(uint64_t value, int bits) {
  bits = std::max(bits, 1);
  std::string s = "0b";
  for (int i = bits - 1; i >= 0; --i) s += ((value >> i) & 1) ? '1' : '0';
  return s;
}

std::vector<std::pair<std::string, int>> basesOf(const LinearLayout& ll, uint64_t in) {
  std::vector<std::pair<std::string, int>> out;
  int shift = 0;
  for (int i = 0; i < ll.numInDims(); ++i) {
    for (int b = 0; b < ll.inDimSizeLog2(i); ++b)
      if ((in >> (shift + b)) & 1) out.emplace_back(std::string(ll.inDimName(i).str()), b);
    shift += ll.inDimSizeLog2(i);
  }
  return out;
}

} // namespace layout::views
