/// \file
/// LinearLayout: a GF(2)-linear map from named input dims (hardware locations such as register,
/// lane, warp, block) to named output dims (tensor coordinates), with the semantics of Triton's
/// `LinearLayout` and no 64-bit limit on the total width.
///
/// \code
///   using namespace layout;
///   DimName reg("register"), lane("lane"), d0("dim0"), d1("dim1");
///   LinearLayout regs = *LinearLayout::identity1D(4, reg, d1);   // 4 consecutive columns
///   LinearLayout lanes = *LinearLayout::identity1D(32, lane, d0); // 32 rows
///   LinearLayout tile = *product(regs, lanes);                   // Triton's `regs * lanes`
///   uint64_t in[2] = {3, 5}, out[2];
///   tile.apply(in, out);                                         // register 3, lane 5 -> (5, 3)
///   LinearLayout back = *tile.invert();       // (dim1, dim0) -> (register, lane)
///   std::cout << tile.toString();             // Triton's exact text
/// \endcode
///
/// Semantics: input value `x` of in-dim `d` selects the bases `i` whose bit `i` is set in `x`
/// (`i < inDimSizeLog2(d)`); the output is the XOR of every selected basis of every in-dim, one
/// component per out-dim. So `apply(a ^ b) == apply(a) ^ apply(b)` and input 0 maps to 0.
///
/// Representation: each in-dim owns a run of bases; each basis is a packed bit vector over all out
/// dims (out-dim 0 in the low bits, LSB first, like Triton's `getMatrix` rows). Layouts whose out
/// width is at most 64 bits use one word per basis and live in inline storage; wider layouts use
/// several words per basis. Every dim size is a power of two of at most 2^63.
///
/// Operations whose preconditions depend on the operands (matching dims, sizes, invertibility)
/// return `Expected<...>` with a message that names the dim and the rule; they never abort. Their
/// `Requires:` lines below are checked: a call that breaks one returns that Error. Every
/// operation that builds a layout also fails when the result would exceed
/// `resourceLimits().maxLayoutBits` matrix bits or a dim would exceed 2^63 elements.
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

/// A dim and its size (a power of two), e.g. an out-dim or a reshape target.
struct DimSize {
  DimName name;
  uint64_t size = 1;
  friend bool operator==(const DimSize&, const DimSize&) = default;
};

/// An in-dim with its bases spelled out: `bases[i]` is the image of input 2^i, one component per
/// out-dim (in out-dim order).
struct InDimBases {
  DimName name;
  std::vector<std::vector<uint64_t>> bases;
  friend bool operator==(const InDimBases&, const InDimBases&) = default;
};

/// A GF(2)-linear map from named in-dims to named out-dims (see linear_layout.h). A value type:
/// every operation returns a new layout and leaves its operands unchanged.
class LinearLayout {
public:
  /// The largest log2 size of a single dim (values must fit in a uint64_t).
  static constexpr int kMaxDimSizeLog2 = 63;

  /// The empty layout: no dims. The identity of `product`.
  LinearLayout() = default;
  /// The empty layout, LinearLayout().
  static LinearLayout empty() { return LinearLayout(); }

  /// Builds a layout from explicit bases and out-dim sizes (Triton's constructor with
  /// `requireSurjective = false`). Validates every field.
  ///
  /// Requires: in-dim names distinct and out-dim names distinct; every `outDims[o].size` a power
  /// of two; at most 63 bases per in-dim; every basis with exactly `outDims.size()` components,
  /// component `o` less than `outDims[o].size`.
  ///
  /// Ensures: the dims in the given order, in-dim `d` of size 2^`inDims[d].bases.size()`, and
  /// `basis(d, i, o) == inDims[d].bases[i][o]`. The result need not be surjective.
  static Expected<LinearLayout> create(const std::vector<InDimBases>& inDims,
                                       const std::vector<DimSize>& outDims);
  /// Builds a layout whose out sizes are inferred as the smallest powers of two that hold every
  /// component, and which must be surjective (Triton's constructor from bases and out names).
  ///
  /// Requires: the requirements of create(), with out-dim `o` of size the smallest power of two
  /// above its largest component (1 when all are 0), at most 2^63; and the result surjective.
  static Expected<LinearLayout> createSurjective(const std::vector<InDimBases>& inDims,
                                                 const std::vector<DimName>& outDimNames);

  /// x -> x over `size` elements. size 0 gives the empty layout.
  ///
  /// Requires: `size` 0 or a power of two.
  static Expected<LinearLayout> identity1D(uint64_t size, DimName inDim, DimName outDim);
  /// x -> stride * x; out size is size * stride.
  ///
  /// Requires: `size` 0 (the empty layout) or a power of two; `stride` a power of two;
  /// size * stride at most 2^63.
  static Expected<LinearLayout> strided1D(uint64_t size, uint64_t stride, DimName inDim,
                                          DimName outDim);
  /// x -> 0 over `size` elements, into an out-dim of `outDimSize`.
  ///
  /// Requires: `size` 0 (the empty layout) or a power of two; `outDimSize` a power of two.
  static Expected<LinearLayout> zeros1D(uint64_t size, DimName inDim, DimName outDim,
                                        uint64_t outDimSize = 1);

  /// \name Shape
  /// Dims by index (0 to numInDims() - 1, 0 to numOutDims() - 1; an index out of range is
  /// undefined behaviour) or by name.
  ///@{

  int numInDims() const { return static_cast<int>(ins_.size()); }
  int numOutDims() const { return static_cast<int>(outs_.size()); }
  DimName inDimName(int i) const { return ins_[i].name; }
  DimName outDimName(int i) const { return outs_[i].name; }
  std::vector<DimName> inDimNames() const;
  std::vector<DimName> outDimNames() const;
  /// Index of a dim in order, or -1.
  int inDimIndex(DimName name) const;
  /// Index of a dim in order, or -1.
  int outDimIndex(DimName name) const;
  bool hasInDim(DimName name) const { return inDimIndex(name) >= 0; }
  bool hasOutDim(DimName name) const { return outDimIndex(name) >= 0; }
  int inDimSizeLog2(int i) const { return ins_[i].numBases; }
  int outDimSizeLog2(int i) const { return outs_[i].sizeLog2; }
  uint64_t inDimSize(int i) const { return uint64_t{1} << ins_[i].numBases; }
  uint64_t outDimSize(int i) const { return uint64_t{1} << outs_[i].sizeLog2; }
  /// Size of an in-dim by name; 1 for a dim the layout lacks. Triton's getInDimSize asserts that
  /// the dim exists and its callers write `hasInDim(d) ? getInDimSize(d) : 1`; a missing dim acts
  /// as size 1 in `product` too, so this returns 1 rather than an error.
  uint64_t inDimSize(DimName name) const {
    const int i = inDimIndex(name);
    return i < 0 ? 1 : inDimSize(i);
  }
  /// Size of an out-dim by name; 1 for a dim the layout lacks (as inDimSize(DimName)).
  uint64_t outDimSize(DimName name) const {
    const int i = outDimIndex(name);
    return i < 0 ? 1 : outDimSize(i);
  }
  /// Sum of log2 sizes: the number of input bits.
  int totalInDimSizeLog2() const { return totalInBits_; }
  /// Sum of log2 sizes: the number of output bits.
  int totalOutDimSizeLog2() const { return totalOutBits_; }
  std::vector<DimSize> outDims() const;
  std::vector<DimSize> inDimSizes() const;
  std::vector<InDimBases> inDims() const;
  /// Component `outDim` of basis `i` of in-dim `inDim` (all by index).
  uint64_t basis(int inDim, int i, int outDim) const;
  /// Basis `i` of in-dim `inDim`: one component per out-dim.
  std::vector<uint64_t> basis(int inDim, int i) const;
  ///@}

  /// \name Classification
  /// One GF(2) elimination, computed once per layout.
  ///@{

  /// The rank of the layout matrix: the number of linearly independent bases.
  int rank() const;
  /// Every output is reached: rank() == totalOutDimSizeLog2().
  bool isSurjective() const { return rank() == totalOutBits_; }
  /// No two inputs give the same output: rank() == totalInDimSizeLog2().
  bool isInjective() const { return rank() == totalInBits_; }
  /// Surjective with as many input bits as output bits.
  bool isInvertible() const { return isSurjective() && totalInBits_ == totalOutBits_; }
  ///@}

  /// \name Apply
  ///@{

  /// The hot path: `ins` holds one value per in-dim in in-dim order, `outs` receives one value per
  /// out-dim in out-dim order. Bits of an input beyond its dim's size are ignored. No allocation.
  ///
  /// Requires: `ins.size() == numInDims()` and `outs.size() == numOutDims()` (asserted where
  /// NDEBUG is not defined, else not checked).
  ///
  /// Ensures: `outs[o]` is the XOR, over every in-dim `d` and every set bit `i` of `ins[d]` with
  /// `i < inDimSizeLog2(d)`, of `basis(d, i, o)`; so `outs[o] < outDimSize(o)`.
  void apply(std::span<const uint64_t> ins, std::span<uint64_t> outs) const;
  /// Named form (Triton's `apply`): every in-dim exactly once, in any order. Like Triton, only the
  /// low log2(size) bits of each value are read. Returns (outDim, value) pairs in out-dim order.
  ///
  /// Requires: each in-dim named exactly once, and no other name.
  Expected<std::vector<std::pair<DimName, uint64_t>>>
  apply(std::span<const std::pair<DimName, uint64_t>> ins) const;
  /// The same without allocating: `outs` (exactly numOutDims() pairs) receives the (outDim, value)
  /// pairs in out-dim order. Same errors as the named `apply`; `outs` is unspecified after one.
  Expected<void> applyNamed(std::span<const std::pair<DimName, uint64_t>> ins,
                            std::span<std::pair<DimName, uint64_t>> outs) const;
  /// All inputs packed into one word (in-dim 0 in the low bits) to all outputs packed likewise.
  ///
  /// Requires: `totalInDimSizeLog2() <= 64` and `totalOutDimSizeLog2() <= 64` (asserted where
  /// NDEBUG is not defined, else not checked).
  uint64_t applyPacked(uint64_t packedIns) const;
  ///@}

  /// \name Algebra
  /// Triton's semantics and tie-breaks.
  ///@{

  /// outer(this(x)). this's out-dims must be outer's in-dims (any order), each no larger.
  ///
  /// Requires: the out-dim names of this layout are exactly the in-dim names of `outer` (any
  /// order), and each out-dim is no larger than `outer`'s in-dim of that name.
  ///
  /// Ensures: the result has this layout's in-dims and `outer`'s out-dims (names, order, sizes),
  /// and `result(x) == outer(this(x))` for every `x`, out-dim values passed to the in-dims of
  /// `outer` by name.
  Expected<LinearLayout> compose(const LinearLayout& outer) const;
  /// C with this(x) == outer(C(x)): Triton's least-squares solution (free variables 0) after its
  /// identity-dim heuristic. outer must reach this layout's whole image.
  ///
  /// Requires: the two layouts have the same out-dim names (any order), each out-dim of `outer`
  /// no smaller than this layout's; and every basis of this layout is in the image of `outer`.
  ///
  /// Ensures: `C` has this layout's in-dims (in order) and `outer`'s in-dims as out-dims (in
  /// `outer`'s order, full sizes), and `outer(C(x)) == this(x)` for every `x`. Where `outer` is
  /// not injective, `C` takes Triton's choice: an in-dim with the same bases on both sides maps
  /// to itself (unless that leaves the image unreachable), the rest solve with free variables 0.
  Expected<LinearLayout> invertAndCompose(const LinearLayout& outer) const;
  /// The inverse of an invertible layout.
  ///
  /// Requires: isInvertible().
  ///
  /// Ensures: the result maps this layout's out-dims to its in-dims (the same names, orders and
  /// sizes), with `inverse(this(x)) == x` and `this(inverse(y)) == y`.
  Expected<LinearLayout> invert() const;
  /// Maps each output to one of its preimages (Triton's pseudoinvert); requires a surjective
  /// layout.
  ///
  /// Requires: isSurjective().
  ///
  /// Ensures: the result `P` maps this layout's out-dims to its in-dims, with `this(P(y)) == y`
  /// for every `y`. `P` is `I.invertAndCompose(*this)` for the identity `I` on this layout's
  /// out-dims, so it picks among the preimages as invertAndCompose() does.
  Expected<LinearLayout> pseudoinvert() const;

  /// Permutes the in-dim order.
  ///
  /// Requires: `order` names every in-dim exactly once.
  ///
  /// Ensures: the same map, with the in-dims (and their bases) in `order`.
  Expected<LinearLayout> transposeIns(std::span<const DimName> order) const;
  /// Permutes the out-dim order.
  ///
  /// Requires: `order` names every out-dim exactly once.
  ///
  /// Ensures: the same map, with the out-dims (and each basis's components) in `order`.
  Expected<LinearLayout> transposeOuts(std::span<const DimName> order) const;
  /// Regroups all input bits, in order, into new dims of the same total size.
  ///
  /// Requires: every new size a power of two, the sizes multiplying to
  /// 2^totalInDimSizeLog2(), the names distinct.
  ///
  /// Ensures: the bases keep their global order (in-dim 0's first): the input with flattened
  /// index `k` (in-dim 0 in the low bits) maps to what input `k` mapped to before.
  Expected<LinearLayout> reshapeIns(std::span<const DimSize> newInDims) const;
  /// Regroups all output bits, in order, into new dims of the same total size.
  ///
  /// Requires: every new size a power of two, the sizes multiplying to
  /// 2^totalOutDimSizeLog2(), the names distinct.
  ///
  /// Ensures: every output keeps its flattened index (out-dim 0 in the low bits).
  Expected<LinearLayout> reshapeOuts(std::span<const DimSize> newOutDims) const;
  /// One in-dim named like the first one; a layout without in-dims is unchanged.
  ///
  /// Requires: totalInDimSizeLog2() at most 63.
  Expected<LinearLayout> flattenIns() const;
  /// One out-dim named like the first one; a layout without out-dims is unchanged.
  ///
  /// Requires: totalOutDimSizeLog2() at most 63.
  Expected<LinearLayout> flattenOuts() const;

  /// Keeps only the named dims (original order); omitted inputs read as 0.
  ///
  /// Requires: every name in `inDims` is an in-dim and every name in `outDims` an out-dim.
  Expected<LinearLayout> sublayout(std::span<const DimName> inDims,
                                   std::span<const DimName> outDims) const;
  /// Whether sublayout(inDims, outDims) maps everything to 0 (true when `outDims` is empty).
  Expected<bool> sublayoutIsZero(std::span<const DimName> inDims,
                                 std::span<const DimName> outDims) const;
  /// `dims` are in- and out-dims of equal sizes and the square sublayout over them is the identity
  /// (after flattening both sides in their own order).
  ///
  /// Requires: every name in `dims` is both an in-dim and an out-dim (true when `dims` is empty).
  Expected<bool> squareSublayoutIsIdentity(std::span<const DimName> dims) const;
  /// The identity over `dims` with no cross terms to or from the other dims.
  Expected<bool> isTrivialOver(std::span<const DimName> dims) const;
  /// The sublayout of the other dims when isTrivialOver(dims); std::nullopt otherwise (also when
  /// a name in `dims` is not an in-dim, as in Triton).
  Expected<std::optional<LinearLayout>> quotient(std::span<const DimName> dims) const;

  /// Appends other's in-dims (same out-dims and sizes required). An in-dim name present in both
  /// keeps this layout's bases, as Triton's MapVector insert does.
  ///
  /// Requires: both layouts have the same out-dims (names, order and sizes).
  Expected<LinearLayout> concatIns(const LinearLayout& other) const;
  /// Appends other's out-dims (same in-dims and sizes required).
  ///
  /// Requires: both layouts have the same in-dims (names, order and sizes) and no out-dim name in
  /// common.
  Expected<LinearLayout> concatOuts(const LinearLayout& other) const;

  /// Per in-dim (in order), the mask of input bits that do not change the output: the non-pivot
  /// columns of the reduced row-echelon form (pivots at the lowest column).
  std::vector<std::pair<DimName, uint64_t>> freeVariableMasks() const;
  /// Triton's getNumConsecutiveInOut.
  uint64_t numConsecutiveInOut() const;

  /// Sets components >= newSize of `outDim` to 0 and shrinks the dim (Triton's resizeOutDim).
  ///
  /// Requires: `outDim` is an out-dim; `newSize` a power of two no larger than its size.
  Expected<LinearLayout> resizeOutDim(DimName outDim, uint64_t newSize) const;
  /// Keeps the first log2(newSize) bases of `inDim`, or (a larger size, as Triton main allows)
  /// appends zero bases: the new inputs repeat the old ones (Triton's resizeInDim).
  ///
  /// Requires: `inDim` is an in-dim; `newSize` a power of two.
  Expected<LinearLayout> resizeInDim(DimName inDim, uint64_t newSize) const;
  /// Drops the all-zero bases of `inDim`.
  ///
  /// Requires: `inDim` is an in-dim.
  Expected<LinearLayout> removeZeroBasesAlongDim(DimName inDim) const;
  /// Renames an in-dim; like Triton, the renamed dim moves to the end of the in-dim order.
  ///
  /// Requires: `oldName` is an in-dim and `newName` is not another one.
  Expected<LinearLayout> renameInDim(DimName oldName, DimName newName) const;
  ///@}

  /// \name Identity
  ///@{

  /// Same in-dims (names, order, bases) and out-dims (names, order, sizes).
  // Inline: Python's == and the hash containers call it on every lookup.
  friend bool operator==(const LinearLayout& a, const LinearLayout& b) {
    // One size check and one memcmp: the shape keys stored after the bases make the word buffers
    // equal exactly when the layouts are. Equal totals come first so that both buffers split into
    // bases and keys at the same word.
    return a.totalInBits_ == b.totalInBits_ && a.totalOutBits_ == b.totalOutBits_ &&
           a.words_.size() == b.words_.size() &&
           std::memcmp(a.words_.data(), b.words_.data(), a.words_.size() * sizeof(uint64_t)) == 0;
  }
  /// Same in-dims (names, order, sizes), out-dim names in the same order, and the same bases
  /// component by component, whatever the out-dim sizes (Triton's equalIgnoringOutDimSizes).
  bool equalIgnoringOutDimSizes(const LinearLayout& other) const;
  /// A hash consistent with `operator==` (std::hash uses it).
  size_t hash() const;

  /// Triton's LinearLayout::toString, byte for byte (it starts with a newline).
  std::string toString() const;
  /// An upper bound of the length of toString(), for writeText().
  size_t textSizeBound() const;
  /// The toString() text written into `out`, which must hold textSizeBound() chars; returns its
  /// end. For callers that keep their own buffer (the Python binding writes into one it reuses).
  ///
  /// \code
  ///   std::vector<char> buffer(l.textSizeBound());
  ///   std::string_view text(buffer.data(), size_t(l.writeText(buffer.data()) - buffer.data()));
  /// \endcode
  char* writeText(char* out) const;
  ///@}

  /// \name Low-level access
  /// For algorithms that work on packed bits.
  ///@{

  /// Words per basis vector; at least 1.
  int wordsPerBasis() const { return wordsPerBasis_; }
  /// Basis vector `g` in global order (in-dim 0's bases first), `wordsPerBasis()` words.
  const uint64_t* basisWords(int g) const { return words_.data() + size_t(g) * wordsPerBasis_; }
  /// First global basis index of in-dim `i`.
  int inDimFirstBasis(int i) const { return ins_[i].firstBasis; }
  /// Bit offset of out-dim `i` in a basis vector.
  int outDimBitOffset(int i) const { return outs_[i].bitOffset; }
  ///@}

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

/// Triton's `inner * outer`: the direct sum / tiling. In- and out-dim lists merge by Triton's
/// `supremum` (order-preserving union); per in-dim, inner's bases come first; outer's components
/// are shifted past inner's out size. Errors when the two dim orders are inconsistent.
///
/// Requires: the in-dims the two layouts share appear in the same relative order in both, and so
/// do the shared out-dims.
///
/// Ensures: every dim's size is the product of its sizes in the two layouts (1 where absent).
/// With each in-dim's input split as `x = xi + innerSize * xo` (`innerSize`: the size of that
/// in-dim in `inner`), out-dim `o` of the result is `inner(xi)[o] + innerOutSize(o) *
/// outer(xo)[o]`, where `innerOutSize(o)` is the size of out-dim `o` in `inner`. The empty layout
/// is the identity on both sides.
Expected<LinearLayout> product(const LinearLayout& inner, const LinearLayout& outer);

/// C with A == B * C, or std::nullopt when B does not divide A on the left.
///
/// Ensures: a result `C` has A's dims in A's order, each of A's size divided by B's, and
/// `product(B, C) == A`. std::nullopt when B has a dim that A lacks or that is larger than A's,
/// or when A is not such a product.
Expected<std::optional<LinearLayout>> divideLeft(const LinearLayout& A, const LinearLayout& B);
/// C with A == C * B, or std::nullopt when B does not divide A on the right.
///
/// Ensures: a result `C` has A's dims in A's order, each of A's size divided by B's, and
/// `product(C, B) == A`. std::nullopt when B has a dim that A lacks or that is larger than A's,
/// or when A is not such a product.
Expected<std::optional<LinearLayout>> divideRight(const LinearLayout& A, const LinearLayout& B);

} // namespace layout

template <> struct std::hash<layout::LinearLayout> {
  size_t operator()(const layout::LinearLayout& l) const noexcept { return l.hash(); }
};
