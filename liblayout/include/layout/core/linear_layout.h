// LinearLayout: a GF(2)-linear map from named input dims (hardware locations such as register,
// lane, warp, block) to named output dims (tensor coordinates), with the semantics of Triton's
// `LinearLayout` and no 64-bit limit on the total width.
//
//   using namespace layout;
//   DimName reg("register"), lane("lane"), d0("dim0"), d1("dim1");
//   LinearLayout regs = *LinearLayout::identity1D(4, reg, d1);   // 4 consecutive columns
//   LinearLayout lanes = *LinearLayout::identity1D(32, lane, d0); // 32 rows
//   LinearLayout tile = *product(regs, lanes);                   // Triton's `regs * lanes`
//   uint64_t in[2] = {3, 5}, out[2];
//   tile.apply(in, out);                                         // register 3, lane 5 -> (5, 3)
//   LinearLayout back = *tile.invert();       // (dim1, dim0) -> (register, lane)
//   std::cout << tile.toString();             // Triton's exact text
//
// Representation: each in-dim owns a run of bases; each basis is a packed bit vector over all out
// dims (out-dim 0 in the low bits, LSB first, like Triton's `getMatrix` rows). Layouts whose out
// width is at most 64 bits use one word per basis and live in inline storage; wider layouts use
// several words per basis. Every dim size is a power of two of at most 2^63.
//
// Operations whose preconditions depend on the operands (matching dims, sizes, invertibility)
// return Expected<...> with a message that names the dim and the rule; they never abort.
#pragma once

#include "layout/core/dim_name.h"
#include "layout/core/expected.h"
#include "layout/core/small_vector.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace layout {

// A dim and its size (a power of two), e.g. an out-dim or a reshape target.
struct DimSize {
  DimName name;
  uint64_t size = 1;
  friend bool operator==(const DimSize&, const DimSize&) = default;
};

// An in-dim with its bases spelled out: bases[i] is the image of input 2^i, one component per
// out-dim (in out-dim order).
struct InDimBases {
  DimName name;
  std::vector<std::vector<uint64_t>> bases;
  friend bool operator==(const InDimBases&, const InDimBases&) = default;
};

class LinearLayout {
public:
  // The largest log2 size of a single dim (values must fit in a uint64_t).
  static constexpr int kMaxDimSizeLog2 = 63;

  // The empty layout: no dims. The identity of `product`.
  LinearLayout() = default;
  static LinearLayout empty() { return LinearLayout(); }

  // Builds a layout from explicit bases and out-dim sizes (Triton's constructor with
  // `requireSurjective = false`). Validates every field.
  static Expected<LinearLayout> create(const std::vector<InDimBases>& inDims,
                                       const std::vector<DimSize>& outDims);
  // Builds a layout whose out sizes are inferred as the smallest powers of two that hold every
  // component, and which must be surjective (Triton's constructor from bases and out names).
  static Expected<LinearLayout> createSurjective(const std::vector<InDimBases>& inDims,
                                                 const std::vector<DimName>& outDimNames);

  // x -> x over `size` elements. size 0 gives the empty layout.
  static Expected<LinearLayout> identity1D(uint64_t size, DimName inDim, DimName outDim);
  // x -> stride * x; out size is size * stride.
  static Expected<LinearLayout> strided1D(uint64_t size, uint64_t stride, DimName inDim,
                                          DimName outDim);
  // x -> 0 over `size` elements, into an out-dim of `outDimSize`.
  static Expected<LinearLayout> zeros1D(uint64_t size, DimName inDim, DimName outDim,
                                        uint64_t outDimSize = 1);

  // ---- Shape ----------------------------------------------------------------------------------
  int numInDims() const { return static_cast<int>(ins_.size()); }
  int numOutDims() const { return static_cast<int>(outs_.size()); }
  DimName inDimName(int i) const { return ins_[i].name; }
  DimName outDimName(int i) const { return outs_[i].name; }
  std::vector<DimName> inDimNames() const;
  std::vector<DimName> outDimNames() const;
  // Index of a dim in order, or -1.
  int inDimIndex(DimName name) const;
  int outDimIndex(DimName name) const;
  bool hasInDim(DimName name) const { return inDimIndex(name) >= 0; }
  bool hasOutDim(DimName name) const { return outDimIndex(name) >= 0; }
  int inDimSizeLog2(int i) const { return ins_[i].numBases; }
  int outDimSizeLog2(int i) const { return outs_[i].sizeLog2; }
  uint64_t inDimSize(int i) const { return uint64_t{1} << ins_[i].numBases; }
  uint64_t outDimSize(int i) const { return uint64_t{1} << outs_[i].sizeLog2; }
  // Sum of log2 sizes: the number of input / output bits.
  int totalInDimSizeLog2() const { return totalInBits_; }
  int totalOutDimSizeLog2() const { return totalOutBits_; }
  std::vector<DimSize> outDims() const;
  std::vector<DimSize> inDimSizes() const;
  std::vector<InDimBases> inDims() const;
  // Component `outDim` of basis `i` of in-dim `inDim` (all by index).
  uint64_t basis(int inDim, int i, int outDim) const;
  std::vector<uint64_t> basis(int inDim, int i) const;

  // ---- Classification (one GF(2) elimination, computed once per layout) -----------------------
  int rank() const;
  bool isSurjective() const { return rank() == totalOutBits_; }
  bool isInjective() const { return rank() == totalInBits_; }
  bool isInvertible() const { return isSurjective() && totalInBits_ == totalOutBits_; }

  // ---- Apply ----------------------------------------------------------------------------------
  // The hot path: `ins` holds one value per in-dim in in-dim order, `outs` receives one value per
  // out-dim in out-dim order. Bits of an input beyond its dim's size are ignored. No allocation.
  void apply(std::span<const uint64_t> ins, std::span<uint64_t> outs) const;
  // Named form (Triton's `apply`): every in-dim exactly once, in any order. Like Triton, only the
  // low log2(size) bits of each value are read. Returns (outDim, value) pairs in out-dim order.
  Expected<std::vector<std::pair<DimName, uint64_t>>>
  apply(std::span<const std::pair<DimName, uint64_t>> ins) const;
  // The same without allocating: `outs` (exactly numOutDims() pairs) receives the (outDim, value)
  // pairs in out-dim order. Same errors as the named `apply`; `outs` is unspecified after one.
  Expected<void> applyNamed(std::span<const std::pair<DimName, uint64_t>> ins,
                            std::span<std::pair<DimName, uint64_t>> outs) const;
  // All inputs packed into one word (in-dim 0 in the low bits) to all outputs packed likewise.
  // Requires totalInDimSizeLog2() <= 64 and totalOutDimSizeLog2() <= 64.
  uint64_t applyPacked(uint64_t packedIns) const;

  // ---- Algebra (Triton's semantics and tie-breaks) ---------------------------------------------
  // outer(this(x)). this's out-dims must be outer's in-dims (any order), each no larger.
  Expected<LinearLayout> compose(const LinearLayout& outer) const;
  // C with this(x) == outer(C(x)): Triton's least-squares solution (free variables 0) after its
  // identity-dim heuristic. outer must reach this layout's whole image.
  Expected<LinearLayout> invertAndCompose(const LinearLayout& outer) const;
  // The inverse of an invertible layout.
  Expected<LinearLayout> invert() const;
  // Maps each output to its smallest preimage; requires a surjective layout.
  Expected<LinearLayout> pseudoinvert() const;

  // Permute dim order; `order` must name every dim once.
  Expected<LinearLayout> transposeIns(std::span<const DimName> order) const;
  Expected<LinearLayout> transposeOuts(std::span<const DimName> order) const;
  // Regroup all input (output) bits, in order, into new dims of the same total size.
  Expected<LinearLayout> reshapeIns(std::span<const DimSize> newInDims) const;
  Expected<LinearLayout> reshapeOuts(std::span<const DimSize> newOutDims) const;
  // One in- (out-) dim named like the first one; a layout without in- (out-) dims is unchanged.
  Expected<LinearLayout> flattenIns() const;
  Expected<LinearLayout> flattenOuts() const;

  // Keeps only the named dims (original order); omitted inputs read as 0.
  Expected<LinearLayout> sublayout(std::span<const DimName> inDims,
                                   std::span<const DimName> outDims) const;
  Expected<bool> sublayoutIsZero(std::span<const DimName> inDims,
                                 std::span<const DimName> outDims) const;
  // `dims` are in- and out-dims of equal sizes and the square sublayout over them is the identity
  // (after flattening both sides in their own order).
  Expected<bool> squareSublayoutIsIdentity(std::span<const DimName> dims) const;
  // The identity over `dims` with no cross terms to or from the other dims.
  Expected<bool> isTrivialOver(std::span<const DimName> dims) const;
  // The sublayout of the other dims when isTrivialOver(dims); std::nullopt otherwise.
  Expected<std::optional<LinearLayout>> quotient(std::span<const DimName> dims) const;

  // Appends other's in-dims (same out-dims and sizes required). An in-dim name present in both
  // keeps this layout's bases, as Triton's MapVector insert does.
  Expected<LinearLayout> concatIns(const LinearLayout& other) const;
  // Appends other's out-dims (same in-dims and sizes required).
  Expected<LinearLayout> concatOuts(const LinearLayout& other) const;

  // Per in-dim (in order), the mask of input bits that do not change the output: the non-pivot
  // columns of the reduced row-echelon form (pivots at the lowest column).
  std::vector<std::pair<DimName, uint64_t>> freeVariableMasks() const;
  // Triton's getNumConsecutiveInOut.
  uint64_t numConsecutiveInOut() const;

  // Sets components >= newSize of `outDim` to 0 and shrinks the dim (Triton's resizeOutDim).
  Expected<LinearLayout> resizeOutDim(DimName outDim, uint64_t newSize) const;
  // Keeps the first log2(newSize) bases of `inDim`, or (a larger size, as Triton main allows)
  // appends zero bases: the new inputs repeat the old ones (Triton's resizeInDim).
  Expected<LinearLayout> resizeInDim(DimName inDim, uint64_t newSize) const;
  // Drops the all-zero bases of `inDim`.
  Expected<LinearLayout> removeZeroBasesAlongDim(DimName inDim) const;
  // Renames an in-dim; like Triton, the renamed dim moves to the end of the in-dim order.
  Expected<LinearLayout> renameInDim(DimName oldName, DimName newName) const;

  // ---- Identity --------------------------------------------------------------------------------
  // Same in-dims (names, order, bases) and out-dims (names, order, sizes).
  // Inline: Python's == and the hash containers call it on every lookup.
  friend bool operator==(const LinearLayout& a, const LinearLayout& b) {
    // One size check and one memcmp: the shape keys stored after the bases make the word buffers
    // equal exactly when the layouts are. Equal totals come first so that both buffers split into
    // bases and keys at the same word.
    return a.totalInBits_ == b.totalInBits_ && a.totalOutBits_ == b.totalOutBits_ &&
           a.words_.size() == b.words_.size() &&
           std::memcmp(a.words_.data(), b.words_.data(), a.words_.size() * sizeof(uint64_t)) == 0;
  }
  bool equalIgnoringOutDimSizes(const LinearLayout& other) const;
  size_t hash() const;

  // Triton's LinearLayout::toString, byte for byte (it starts with a newline).
  std::string toString() const;
  // The same text written into `out`, which must hold textSizeBound() chars; returns its end.
  // For callers that keep their own buffer (the Python binding writes into one it reuses).
  //
  //   std::vector<char> buffer(l.textSizeBound());
  //   std::string_view text(buffer.data(), size_t(l.writeText(buffer.data()) - buffer.data()));
  size_t textSizeBound() const;
  char* writeText(char* out) const;

  // ---- Low-level access (for algorithms that work on packed bits) ------------------------------
  // Words per basis vector; at least 1.
  int wordsPerBasis() const { return wordsPerBasis_; }
  // Basis vector `g` in global order (in-dim 0's bases first), `wordsPerBasis()` words.
  const uint64_t* basisWords(int g) const { return words_.data() + size_t(g) * wordsPerBasis_; }
  // First global basis index of in-dim `i`, and bit offset of out-dim `i` in a basis vector.
  int inDimFirstBasis(int i) const { return ins_[i].firstBasis; }
  int outDimBitOffset(int i) const { return outs_[i].bitOffset; }

private:
  friend class LayoutBuilder;
  friend Expected<LinearLayout> product(const LinearLayout& inner, const LinearLayout& outer);

  struct InDim {
    DimName name;
    int32_t numBases = 0;
    uint32_t firstBasis = 0;
  };
  struct OutDim {
    DimName name;
    int32_t sizeLog2 = 0;
    uint32_t bitOffset = 0;
  };
  // A rank cache that copies like a value; computed on first use.
  struct RankCache {
    mutable std::atomic<int32_t> value{-1};
    RankCache() = default;
    RankCache(const RankCache& o) : value(o.value.load(std::memory_order_relaxed)) {}
    RankCache& operator=(const RankCache& o) {
      value.store(o.value.load(std::memory_order_relaxed), std::memory_order_relaxed);
      return *this;
    }
  };

  SmallVector<InDim, 4> ins_;
  SmallVector<OutDim, 4> outs_;
  // The bases, `wordsPerBasis_` words each in global order, then the shape keys: none for a
  // layout without dims, else the dim counts (in-dims in the low half) and one word per in-dim
  // and per out-dim, (name id << 32) | log2 size. The keys repeat ins_ and outs_ so that
  // operator== is one memcmp instead of a loop over each side's fields (about half its time).
  SmallVector<uint64_t, 32> words_;
  int totalInBits_ = 0;
  int totalOutBits_ = 0;
  int wordsPerBasis_ = 1;
  RankCache rank_;

  size_t numBasisWords() const { return size_t(totalInBits_) * wordsPerBasis_; }
};

// Triton's `inner * outer`: the direct sum / tiling. In- and out-dim lists merge by Triton's
// `supremum` (order-preserving union); per in-dim, inner's bases come first; outer's components
// are shifted past inner's out size. Errors when the two dim orders are inconsistent.
Expected<LinearLayout> product(const LinearLayout& inner, const LinearLayout& outer);

// C with A == B * C, or std::nullopt when B does not divide A on the left.
Expected<std::optional<LinearLayout>> divideLeft(const LinearLayout& A, const LinearLayout& B);
// C with A == C * B, or std::nullopt when B does not divide A on the right.
Expected<std::optional<LinearLayout>> divideRight(const LinearLayout& A, const LinearLayout& B);

} // namespace layout

template <> struct std::hash<layout::LinearLayout> {
  size_t operator()(const layout::LinearLayout& l) const noexcept { return l.hash(); }
};
