// LinearLayout: construction, queries, apply, and the unary and compositional operations.
// Product lives in layout_product.cpp, division in layout_division.cpp, the text in
// linear_layout_print.cpp and the hash in linear_layout_hash.cpp.
#include "layout/core/linear_layout.h"

#include "layout/core/resource_limits.h"

#include "bit_ops.h"
#include "layout_builder.h"
#include "xor_select.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>

namespace layout {

using detail::getBits;
using detail::wordsFor;

std::string quoted(DimName d) {
  return "'" + std::string(d.str()) + "'";
}

namespace {

bool isPowerOf2(uint64_t x) {
  return x != 0 && (x & (x - 1)) == 0;
}
int log2Exact(uint64_t x) {
  return std::countr_zero(x);
}

std::string dimList(std::span<const DimName> names) {
  std::string s = "[";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + quoted(names[i]);
  return s + "]";
}

// Checks that `order` names each of `names` exactly once.
Expected<void> checkPermutation(std::span<const DimName> order, const std::vector<DimName>& names,
                                const char* what) {
  if (order.size() != names.size() ||
      !std::is_permutation(order.begin(), order.end(), names.begin()))
    return makeError(std::string(what) + " order " + dimList(order) +
                     " must name each of the layout's " + what + "-dims " + dimList(names) +
                     " exactly once");
  return {};
}

// Validates that every name exists among `names`.
Expected<void> checkSubset(std::span<const DimName> subset, const std::vector<DimName>& names,
                           const char* what) {
  for (DimName d : subset)
    if (std::find(names.begin(), names.end(), d) == names.end())
      return makeError(std::string(what) + "-dim " + quoted(d) + " is not in the layout's " + what +
                       "-dims " + dimList(names));
  return {};
}

Expected<DimShape> log2Shape(std::span<const DimSize> dims, const char* what) {
  DimShape out;
  for (const DimSize& d : dims) {
    if (!isPowerOf2(d.size))
      return makeError(std::string(what) + "-dim " + quoted(d.name) + ": size " +
                       std::to_string(d.size) + " is not a power of two");
    out.push_back({d.name, log2Exact(d.size)});
  }
  return out;
}

} // namespace

// ---- LayoutBuilder ------------------------------------------------------------------------------

Expected<LayoutBuilder> LayoutBuilder::make(std::span<const std::pair<DimName, int>> ins,
                                            std::span<const std::pair<DimName, int>> outs) {
  LayoutBuilder b;
  LAYOUT_TRY(b.init(ins, outs));
  return b;
}

Expected<void> LayoutBuilder::init(std::span<const std::pair<DimName, int>> ins,
                                   std::span<const std::pair<DimName, int>> outs) {
  LinearLayout& l = l_;
  // Duplicate names: pairwise for the few dims layouts have (no set to build; this runs on every
  // layout the algebra makes), through DimNameSet for long lists (thousands of dims from JSON).
  auto firstDuplicate = [](std::span<const std::pair<DimName, int>> dims) -> const DimName* {
    if (dims.size() <= 8) {
      for (size_t i = 1; i < dims.size(); ++i)
        for (size_t j = 0; j < i; ++j)
          if (dims[j].first == dims[i].first) return &dims[i].first;
      return nullptr;
    }
    DimNameSet seen;
    for (const auto& d : dims)
      if (!seen.insert(d.first)) return &d.first;
    return nullptr;
  };
  if (const DimName* d = firstDuplicate(outs)) return makeError("duplicate out-dim " + quoted(*d));
  if (const DimName* d = firstDuplicate(ins)) return makeError("duplicate in-dim " + quoted(*d));
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i].second < 0 || outs[i].second > LinearLayout::kMaxDimSizeLog2)
      return makeError("out-dim " + quoted(outs[i].first) + ": size 2^" +
                       std::to_string(outs[i].second) + " exceeds the limit of 2^63");
    l.outs_.push_back({outs[i].first, outs[i].second, uint32_t(l.totalOutBits_)});
    l.totalOutBits_ += outs[i].second;
  }
  for (size_t i = 0; i < ins.size(); ++i) {
    if (ins[i].second < 0 || ins[i].second > LinearLayout::kMaxDimSizeLog2)
      return makeError("in-dim " + quoted(ins[i].first) + ": size 2^" +
                       std::to_string(ins[i].second) + " exceeds the limit of 2^63");
    l.ins_.push_back({ins[i].first, ins[i].second, uint32_t(l.totalInBits_)});
    l.totalInBits_ += ins[i].second;
  }
  l.wordsPerBasis_ = wordsFor(l.totalOutBits_);
  // The bases start at zero; the shape keys follow them (see LinearLayout::words_).
  const size_t basisWords = l.numBasisWords();
  // Refused before allocating: a wide result (invertAndCompose of two layouts of thousands of
  // dims) would otherwise take gigabytes.
  if (const uint64_t limit = resourceLimits().maxLayoutBits; basisWords * 64 > limit)
    return makeError("the layout would have " + std::to_string(l.totalInBits_) + " in bits x " +
                     std::to_string(l.totalOutBits_) + " out bits (" +
                     std::to_string(basisWords * 64) + " matrix bits); the limit is " +
                     describeLimit(limit) + " (raise it with LAYOUT_MAX_LAYOUT_BITS)");
  const size_t keys = ins.empty() && outs.empty() ? 0 : 1 + ins.size() + outs.size();
  l.words_.resize(basisWords + keys);
  if (keys) {
    uint64_t* key = l.words_.data() + basisWords;
    *key++ = uint64_t(ins.size()) | (uint64_t(outs.size()) << 32);
    for (const auto& [name, log2] : ins) *key++ = (uint64_t(name.id()) << 32) | uint64_t(log2);
    for (const auto& [name, log2] : outs) *key++ = (uint64_t(name.id()) << 32) | uint64_t(log2);
  }
  return {};
}

DimShape LayoutBuilder::inShape(const LinearLayout& l) {
  DimShape s;
  for (int i = 0; i < l.numInDims(); ++i) s.push_back({l.inDimName(i), l.inDimSizeLog2(i)});
  return s;
}

DimShape LayoutBuilder::outShape(const LinearLayout& l) {
  DimShape s;
  for (int i = 0; i < l.numOutDims(); ++i) s.push_back({l.outDimName(i), l.outDimSizeLog2(i)});
  return s;
}

// ---- Construction -------------------------------------------------------------------------------

namespace {

// The error for the first component of `basis` (basis `i` of in-dim `d`) that is not less than its
// out-dim's size.
Error componentTooLarge(const InDimBases& d, size_t i, std::span<const uint64_t> basis,
                        std::span<const DimSize> outDims) {
  size_t o = 0;
  while (basis[o] < outDims[o].size) ++o;
  return makeError("in-dim " + quoted(d.name) + " basis " + std::to_string(i) + ": component " +
                   std::to_string(basis[o]) + " for out-dim " + quoted(outDims[o].name) +
                   " must be less than its size " + std::to_string(outDims[o].size));
}

Error wrongComponentCount(const InDimBases& d, size_t i, size_t numOut) {
  return makeError("in-dim " + quoted(d.name) + " basis " + std::to_string(i) + " has " +
                   std::to_string(d.bases[i].size()) + " components; expected one per out-dim (" +
                   std::to_string(numOut) + ")");
}

// The out-dim count as a compile-time constant for the per-basis loops: f(integral_constant<N>)
// with N = numOut for 1 to kUnrolledOutDims out-dims, N = 0 (counted at run time) otherwise.
constexpr size_t kUnrolledOutDims = 4;
template <typename F> auto withOutDimCount(size_t numOut, F&& f) {
  switch (numOut) {
  case 1:
    return f(std::integral_constant<size_t, 1>());
  case 2:
    return f(std::integral_constant<size_t, 2>());
  case 3:
    return f(std::integral_constant<size_t, 3>());
  case 4:
    return f(std::integral_constant<size_t, kUnrolledOutDims>());
  default:
    return f(std::integral_constant<size_t, 0>());
  }
}

// The bases of a layout of one word per basis, N out-dims (0: up to 8, counted at run time, so
// that the usual counts get unrolled loops with the shifts in registers). Each basis is gathered
// in a register and stored once; the range check is one OR of the components shifted right by
// their sizes, named only when it fails. `unitCover` collects the unit bases, as rank() starts.
template <size_t N>
Expected<void> packOneWordBases(std::span<const InDimBases> inDims,
                                std::span<const DimSize> outDims, const uint64_t* flat,
                                bool rangesKnown, const DimShape& outShape, const LinearLayout& l,
                                uint64_t* bits, uint64_t& unitCover) {
  const size_t numOut = N ? N : outDims.size();
  std::array<int, 8> offset{}, sizeLog2{};
  for (size_t o = 0; o < numOut; ++o) {
    offset[o] = l.outDimBitOffset(int(o)) & 63; // a size-1 dim's components are 0
    sizeLog2[o] = outShape[o].second;
  }
  for (const InDimBases& d : inDims) {
    for (size_t i = 0; i < d.bases.size(); ++i) {
      const uint64_t* c = flat ? flat : d.bases[i].data();
      if (flat)
        flat += numOut;
      else if (d.bases[i].size() != numOut)
        return wrongComponentCount(d, i, numOut);
      uint64_t word = 0, outOfRange = 0;
      for (size_t o = 0; o < numOut; ++o) {
        outOfRange |= c[o] >> sizeLog2[o];
        word |= c[o] << offset[o];
      }
      if (!rangesKnown && outOfRange) return componentTooLarge(d, i, d.bases[i], outDims);
      *bits++ = word;
      unitCover |= (word & (word - 1)) == 0 ? word : 0;
    }
  }
  return {};
}

// LinearLayout::create over spans. createSurjective passes inferred sizes without a vector, with
// `rangesKnown` (every component is below the size inferred from it) and, for layouts of one word
// per basis, `flat`: every basis's components in order, their counts checked. Bits start at zero,
// so each component is XORed in place; the builder is filled in place and moved once into the
// result.
Expected<LinearLayout> createFromBases(std::span<const InDimBases> inDims,
                                       std::span<const DimSize> outDims, const uint64_t* flat,
                                       bool rangesKnown) {
  DimShape outShape;
  for (const DimSize& d : outDims) {
    if (!isPowerOf2(d.size))
      return makeError("out-dim " + quoted(d.name) + ": size " + std::to_string(d.size) +
                       " is not a power of two");
    outShape.push_back({d.name, log2Exact(d.size)});
  }
  DimShape inShape;
  for (const InDimBases& d : inDims) {
    if (d.bases.size() > size_t(LinearLayout::kMaxDimSizeLog2))
      return makeError("in-dim " + quoted(d.name) + ": " + std::to_string(d.bases.size()) +
                       " bases exceed the limit of 63 (size 2^63)");
    inShape.push_back({d.name, int(d.bases.size())});
  }
  LayoutBuilder b;
  LAYOUT_TRY(b.init(inShape, outShape));
  const size_t numOut = outDims.size();
  if (b.words() == 1 && numOut <= 8) {
    // One word per basis and a few out-dims: nearly every layout.
    uint64_t unitCover = 0;
    auto pack = [&](auto n) {
      return packOneWordBases<decltype(n)::value>(inDims, outDims, flat, rangesKnown, outShape,
                                                  b.layout(), b.basis(0), unitCover);
    };
    Expected<void> packed = withOutDimCount(numOut, pack);
    if (!packed) return packed.error();
    const int outBits = b.layout().totalOutDimSizeLog2();
    if (unitCover == detail::lowMask(outBits)) b.knownRank(outBits);
  } else {
    int g = 0;
    for (const InDimBases& d : inDims) {
      for (size_t i = 0; i < d.bases.size(); ++i, ++g) {
        const auto& basis = d.bases[i];
        if (basis.size() != numOut) return wrongComponentCount(d, i, numOut);
        for (size_t o = 0; o < numOut; ++o)
          if (basis[o] >= outDims[o].size) return componentTooLarge(d, i, basis, outDims);
        for (size_t o = 0; o < numOut; ++o)
          detail::xorBits(b.basis(g), b.layout().outDimBitOffset(int(o)), outShape[o].second,
                          basis[o]);
      }
    }
  }
  // Built in place in the result: one move of the layout, not two.
  return Expected<LinearLayout>(std::move(b.layout()));
}

} // namespace

Expected<LinearLayout> LinearLayout::create(const std::vector<InDimBases>& inDims,
                                            const std::vector<DimSize>& outDims) {
  return createFromBases(inDims, outDims, nullptr, false);
}

namespace {

constexpr size_t kFlatOutDims = kUnrolledOutDims, kFlatBases = 64;

// For createSurjective: copies every basis's N components into `dst` in order and ORs them per
// out-dim into `all` (registers, N fixed). False when a basis has another count or there are
// more than kFlatBases bases (the general path then answers, errors included).
template <size_t N>
bool gatherComponents(const std::vector<InDimBases>& inDims, uint64_t* dst, uint64_t* all) {
  if constexpr (N == 0) {
    return false; // no out-dims, or more than kFlatOutDims
  } else {
    std::array<uint64_t, N> acc{};
    size_t numBases = 0;
    for (const InDimBases& d : inDims) {
      numBases += d.bases.size();
      if (numBases > kFlatBases) return false;
      for (const auto& basis : d.bases) {
        if (basis.size() != N) return false;
        for (size_t o = 0; o < N; ++o) acc[o] |= dst[o] = basis[o];
        dst += N;
      }
    }
    std::copy(acc.begin(), acc.end(), all);
    return true;
  }
}

} // namespace

Expected<LinearLayout> LinearLayout::createSurjective(const std::vector<InDimBases>& inDims,
                                                      const std::vector<DimName>& outDimNames) {
  // Triton's NextPowerOf2 of the largest component: the smallest power of two strictly greater
  // than it, the same as that of the OR of all the components.
  auto sizeAbove = [](uint64_t all) { return std::max<uint64_t>(1, std::bit_floor(all) << 1); };
  SmallVector<DimSize, 8> outs;
  uint64_t tooLarge = 0;
  // The usual layout (up to four out-dims, at most 64 bases, each with one component per out-dim):
  // one pass ORs the components per out-dim and copies them into `flat`, which the build then
  // reads instead of chasing the bases' vectors again.
  const size_t numOut = outDimNames.size();
  std::array<uint64_t, kFlatOutDims * kFlatBases> flat;
  std::array<uint64_t, kFlatOutDims> all{};
  const bool gathered = withOutDimCount(numOut, [&](auto n) {
    return gatherComponents<decltype(n)::value>(inDims, flat.data(), all.data());
  });
  bool useFlat = false;
  if (gathered) {
    int outBits = 0;
    for (size_t o = 0; o < numOut; ++o) {
      tooLarge |= all[o];
      outs.push_back({outDimNames[o], sizeAbove(all[o])});
      outBits += std::countr_zero(outs.back().size);
    }
    // More than one word per basis takes createFromBases' general path, which reads the bases.
    useFlat = outBits <= 64;
  } else {
    // Two out-dims per pass over the bases: half the pointer chasing for the usual 2D layouts.
    for (size_t o = 0; o < numOut; o += 2) {
      uint64_t all0 = 0, all1 = 0;
      for (const InDimBases& d : inDims)
        for (const auto& basis : d.bases) {
          if (o < basis.size()) all0 |= basis[o];
          if (o + 1 < basis.size()) all1 |= basis[o + 1];
        }
      tooLarge |= all0 | all1;
      outs.push_back({outDimNames[o], sizeAbove(all0)});
      if (o + 1 < numOut) outs.push_back({outDimNames[o + 1], sizeAbove(all1)});
    }
  }
  auto firstTooLarge = [&]() -> Expected<void> {
    if (tooLarge >> kMaxDimSizeLog2)
      // Name the first such component, in the order Triton meets them.
      for (const InDimBases& d : inDims)
        for (const auto& basis : d.bases)
          for (size_t o = 0; o < basis.size() && o < outs.size(); ++o)
            if (basis[o] >= (uint64_t{1} << kMaxDimSizeLog2))
              return makeError("in-dim " + quoted(d.name) + ": component " +
                               std::to_string(basis[o]) + " needs an out-dim larger than 2^63");
    return {};
  };
  // One result object returned on every path (named return value: the layout is not moved).
  Expected<void> sizes = firstTooLarge();
  Expected<LinearLayout> l =
      sizes ? createFromBases(inDims, std::span<const DimSize>(outs.data(), outs.size()),
                              useFlat ? flat.data() : nullptr, true)
            : Expected<LinearLayout>(sizes.error());
  if (l && !l->isSurjective())
    l = makeError("layout is not surjective onto its inferred out-dim sizes (rank " +
                  std::to_string(l->rank()) + " < " + std::to_string(l->totalOutDimSizeLog2()) +
                  " out bits)");
  return l;
}

Expected<LinearLayout> LinearLayout::identity1D(uint64_t size, DimName inDim, DimName outDim) {
  return strided1D(size, 1, inDim, outDim);
}

Expected<LinearLayout> LinearLayout::strided1D(uint64_t size, uint64_t stride, DimName inDim,
                                               DimName outDim) {
  if (size == 0) return empty();
  if (!isPowerOf2(size))
    return makeError("size " + std::to_string(size) + " is not a power of two");
  if (!isPowerOf2(stride))
    return makeError("stride " + std::to_string(stride) +
                     " is not a power of two (the out size, size * stride, must be one)");
  int n = log2Exact(size), s = log2Exact(stride);
  if (n + s > kMaxDimSizeLog2)
    return makeError("out size " + std::to_string(size) + " * " + std::to_string(stride) +
                     " exceeds the limit of 2^63");
  std::pair<DimName, int> in[] = {{inDim, n}}, out[] = {{outDim, n + s}};
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(in, out));
  for (int i = 0; i < n; ++i) detail::flipBit(b.basis(i), i + s);
  return b.build();
}

Expected<LinearLayout> LinearLayout::zeros1D(uint64_t size, DimName inDim, DimName outDim,
                                             uint64_t outDimSize) {
  if (size == 0) return empty();
  if (!isPowerOf2(size))
    return makeError("size " + std::to_string(size) + " is not a power of two");
  if (!isPowerOf2(outDimSize))
    return makeError("outDimSize " + std::to_string(outDimSize) + " is not a power of two");
  std::pair<DimName, int> in[] = {{inDim, log2Exact(size)}},
                          out[] = {{outDim, log2Exact(outDimSize)}};
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(in, out));
  return b.build();
}

// ---- Queries ------------------------------------------------------------------------------------

std::vector<DimName> LinearLayout::inDimNames() const {
  std::vector<DimName> v;
  for (const InDim& d : ins_) v.push_back(d.name);
  return v;
}

std::vector<DimName> LinearLayout::outDimNames() const {
  std::vector<DimName> v;
  for (const OutDim& d : outs_) v.push_back(d.name);
  return v;
}

int LinearLayout::inDimIndex(DimName name) const {
  for (size_t i = 0; i < ins_.size(); ++i)
    if (ins_[i].name == name) return int(i);
  return -1;
}

int LinearLayout::outDimIndex(DimName name) const {
  for (size_t i = 0; i < outs_.size(); ++i)
    if (outs_[i].name == name) return int(i);
  return -1;
}

std::vector<DimSize> LinearLayout::outDims() const {
  std::vector<DimSize> v;
  for (int i = 0; i < numOutDims(); ++i) v.push_back({outs_[i].name, outDimSize(i)});
  return v;
}

std::vector<DimSize> LinearLayout::inDimSizes() const {
  std::vector<DimSize> v;
  for (int i = 0; i < numInDims(); ++i) v.push_back({ins_[i].name, inDimSize(i)});
  return v;
}

uint64_t LinearLayout::basis(int inDim, int i, int outDim) const {
  const OutDim& o = outs_[outDim];
  return getBits(basisWords(ins_[inDim].firstBasis + i), o.bitOffset, o.sizeLog2);
}

std::vector<uint64_t> LinearLayout::basis(int inDim, int i) const {
  std::vector<uint64_t> v;
  for (int o = 0; o < numOutDims(); ++o) v.push_back(basis(inDim, i, o));
  return v;
}

std::vector<InDimBases> LinearLayout::inDims() const {
  std::vector<InDimBases> v;
  for (int d = 0; d < numInDims(); ++d) {
    InDimBases b{ins_[d].name, {}};
    for (int i = 0; i < ins_[d].numBases; ++i) b.bases.push_back(basis(d, i));
    v.push_back(std::move(b));
  }
  return v;
}

int LinearLayout::rank() const {
  int r = rank_.value.load(std::memory_order_relaxed);
  if (r >= 0) return r;
  if (wordsPerBasis_ == 1) {
    // Most layouts are surjective through unit columns alone (each basis one out bit): then the
    // rank is the out width, with no elimination.
    const uint64_t* cols = words_.data();
    uint64_t unitCover = 0;
    for (int g = 0; g < totalInBits_; ++g) {
      const uint64_t c = cols[g];
      unitCover |= (c & (c - 1)) == 0 ? c : 0;
    }
    if (unitCover == detail::lowMask(totalOutBits_)) {
      rank_.value.store(totalOutBits_, std::memory_order_relaxed);
      return totalOutBits_;
    }
    detail::LowBitBasis basis;
    for (int g = 0; g < totalInBits_ && basis.rank() < totalOutBits_; ++g) basis.insert(cols[g]);
    r = basis.rank();
  } else {
    detail::XorBasis xb(wordsPerBasis_, 0);
    SmallVector<uint64_t, 8> v;
    v.resize(wordsPerBasis_);
    for (int g = 0; g < totalInBits_; ++g) {
      std::copy_n(basisWords(g), wordsPerBasis_, v.data());
      xb.insert(v.data(), nullptr);
      if (xb.rank() == totalOutBits_) break;
    }
    r = xb.rank();
  }
  rank_.value.store(r, std::memory_order_relaxed);
  return r;
}

// ---- Apply --------------------------------------------------------------------------------------

void LinearLayout::apply(std::span<const uint64_t> ins, std::span<uint64_t> outs) const {
  assert(ins.size() == ins_.size() && outs.size() == outs_.size());
  if (wordsPerBasis_ == 1 && totalInBits_ <= 64) {
    // Gather every input bit into one word, apply, and cut the result into out-dims. Sizes are
    // below 2^64 and offsets below 64 wherever a size is not 1, so the masks need no branches.
    const InDim* in = ins_.data();
    uint64_t packed = 0;
    for (size_t d = 0; d < ins_.size(); ++d)
      packed |= (ins[d] & ((uint64_t{1} << in[d].numBases) - 1)) << (in[d].firstBasis & 63);
    const uint64_t acc = applyPacked(packed);
    const OutDim* out = outs_.data();
    for (size_t o = 0; o < outs_.size(); ++o)
      outs[o] = (acc >> (out[o].bitOffset & 63)) & ((uint64_t{1} << out[o].sizeLog2) - 1);
    return;
  }
  if (wordsPerBasis_ == 1) {
    uint64_t acc = 0;
    for (size_t d = 0; d < ins_.size(); ++d) {
      const uint64_t* col = words_.data() + ins_[d].firstBasis;
      for (uint64_t x = ins[d] & detail::lowMask(ins_[d].numBases); x; x &= x - 1)
        acc ^= col[std::countr_zero(x)];
    }
    for (size_t o = 0; o < outs_.size(); ++o)
      outs[o] = getBits(&acc, outs_[o].bitOffset, outs_[o].sizeLog2);
    return;
  }
  SmallVector<uint64_t, 8> acc;
  acc.resize(wordsPerBasis_);
  for (size_t d = 0; d < ins_.size(); ++d)
    for (uint64_t x = ins[d] & detail::lowMask(ins_[d].numBases); x; x &= x - 1)
      detail::xorInto(acc.data(), basisWords(ins_[d].firstBasis + std::countr_zero(x)),
                      wordsPerBasis_);
  for (size_t o = 0; o < outs_.size(); ++o)
    outs[o] = getBits(acc.data(), outs_[o].bitOffset, outs_[o].sizeLog2);
}

Expected<void> LinearLayout::applyNamed(std::span<const std::pair<DimName, uint64_t>> ins,
                                        std::span<std::pair<DimName, uint64_t>> outs) const {
  if (outs.size() != outs_.size())
    return makeError("applyNamed: the output buffer holds " + std::to_string(outs.size()) +
                     " pairs; expected one per out-dim (" + std::to_string(outs_.size()) + ")");
  const size_t numIns = ins_.size();
  const InDim* dims = ins_.data();
  if (wordsPerBasis_ == 1 && totalInBits_ <= 64 && numIns <= 64) {
    // Pack as we look the names up (a few dims: a linear scan beats any map), tracking which
    // dims were seen in a bit mask; then one packed apply.
    uint64_t packed = 0, seen = 0;
    for (const auto& [name, value] : ins) {
      size_t d = 0;
      while (d < numIns && dims[d].name != name) ++d;
      if (d == numIns)
        return makeError("apply: " + quoted(name) + " is not an in-dim of the layout");
      if ((seen >> d) & 1) return makeError("apply: in-dim " + quoted(name) + " is given twice");
      seen |= uint64_t{1} << d;
      packed |= (value & ((uint64_t{1} << dims[d].numBases) - 1)) << (dims[d].firstBasis & 63);
    }
    if (seen != detail::lowMask(int(numIns)))
      return makeError("apply: no value for in-dim " + quoted(dims[std::countr_one(seen)].name));
    const uint64_t acc = applyPacked(packed);
    const OutDim* out = outs_.data();
    for (size_t o = 0; o < outs_.size(); ++o)
      outs[o] = {out[o].name,
                 (acc >> (out[o].bitOffset & 63)) & ((uint64_t{1} << out[o].sizeLog2) - 1)};
    return {};
  }
  SmallVector<uint64_t, 8> values;
  values.resize(numIns);
  SmallVector<bool, 8> seen;
  seen.resize(numIns);
  for (const auto& [name, value] : ins) {
    int d = inDimIndex(name);
    if (d < 0) return makeError("apply: " + quoted(name) + " is not an in-dim of the layout");
    if (seen[d]) return makeError("apply: in-dim " + quoted(name) + " is given twice");
    seen[d] = true;
    values[d] = value;
  }
  for (size_t d = 0; d < numIns; ++d)
    if (!seen[d]) return makeError("apply: no value for in-dim " + quoted(dims[d].name));
  SmallVector<uint64_t, 8> outValues;
  outValues.resize(outs_.size());
  apply(std::span<const uint64_t>(values.data(), values.size()),
        std::span<uint64_t>(outValues.data(), outValues.size()));
  for (size_t o = 0; o < outs_.size(); ++o) outs[o] = {outs_[o].name, outValues[o]};
  return {};
}

Expected<std::vector<std::pair<DimName, uint64_t>>>
LinearLayout::apply(std::span<const std::pair<DimName, uint64_t>> ins) const {
  std::vector<std::pair<DimName, uint64_t>> result(outs_.size());
  LAYOUT_TRY(applyNamed(ins, result));
  return result;
}

uint64_t LinearLayout::applyPacked(uint64_t packedIns) const {
  assert(totalInBits_ <= 64 && totalOutBits_ <= 64);
  return detail::xorSelect(words_.data(), totalInBits_, packedIns);
}

// ---- Composition and inversion ------------------------------------------------------------------

Expected<LinearLayout> LinearLayout::compose(const LinearLayout& outer) const {
  if (numOutDims() != outer.numInDims())
    return makeError("compose: this layout's out-dims " + dimList(outDimNames()) +
                     " must be the outer layout's in-dims " + dimList(outer.inDimNames()));
  // For each of our out bits, the outer layout's basis it selects.
  SmallVector<int32_t, 64> columnOf;
  for (const OutDim& o : outs_) {
    int d = outer.inDimIndex(o.name);
    if (d < 0)
      return makeError("compose: out-dim " + quoted(o.name) + " is not an in-dim of the outer " +
                       "layout " + dimList(outer.inDimNames()));
    if (o.sizeLog2 > outer.ins_[d].numBases)
      return makeError("compose: out-dim " + quoted(o.name) + " (size " +
                       std::to_string(uint64_t{1} << o.sizeLog2) +
                       ") is larger than the outer layout's in-dim (size " +
                       std::to_string(outer.inDimSize(d)) + ")");
    for (int j = 0; j < o.sizeLog2; ++j) columnOf.push_back(int32_t(outer.ins_[d].firstBasis + j));
  }
  LAYOUT_TRY_ASSIGN(
      b, LayoutBuilder::make(LayoutBuilder::inShape(*this), LayoutBuilder::outShape(outer)));
  const int w = outer.wordsPerBasis_;
  for (int g = 0; g < totalInBits_; ++g) {
    const uint64_t* src = basisWords(g);
    uint64_t* dst = b.basis(g);
    for (int wi = 0; wi < wordsPerBasis_; ++wi)
      for (uint64_t x = src[wi]; x; x &= x - 1)
        detail::xorInto(dst, outer.basisWords(columnOf[wi * 64 + std::countr_zero(x)]), w);
  }
  return b.build();
}

namespace {

// Bases of in-dim `d` of `a` equal those of in-dim `e` of `b` component by component, where b's
// out-dims are in a's order (Triton's equalIgnoringOutDimSizes on single-dim sublayouts).
bool sameBasesIgnoringSizes(const LinearLayout& a, int d, const LinearLayout& b, int e) {
  if (a.inDimSizeLog2(d) != b.inDimSizeLog2(e)) return false;
  for (int i = 0; i < a.inDimSizeLog2(d); ++i)
    for (int o = 0; o < a.numOutDims(); ++o)
      if (a.basis(d, i, o) != b.basis(e, i, o)) return false;
  return true;
}

} // namespace

Expected<LinearLayout> LinearLayout::invertAndCompose(const LinearLayout& outer) const {
  const LinearLayout& A = *this;
  // B's out-dims, matched to A's by name (Triton transposes B's outs to A's order).
  SmallVector<int32_t, 8> bOut;
  bool sameOrder = A.numOutDims() == outer.numOutDims();
  for (int o = 0; o < A.numOutDims() && sameOrder; ++o) {
    bOut.push_back(outer.outDimIndex(A.outs_[o].name));
    sameOrder = bOut.back() >= 0;
  }
  if (!sameOrder)
    return makeError("invertAndCompose: the two layouts must have the same out-dims: this layout "
                     "has " +
                     dimList(A.outDimNames()) + ", the outer layout " +
                     dimList(outer.outDimNames()));
  for (int o = 0; o < A.numOutDims(); ++o)
    if (outer.outs_[bOut[o]].sizeLog2 < A.outs_[o].sizeLog2)
      return makeError("invertAndCompose: out-dim " + quoted(A.outs_[o].name) + " of the outer " +
                       "layout (size " + std::to_string(outer.outDimSize(bOut[o])) +
                       ") is smaller than this layout's (size " + std::to_string(A.outDimSize(o)) +
                       ")");
  // B with its out-dims in A's order; a copy only when the orders differ.
  std::optional<LinearLayout> reordered;
  for (int o = 0; o < A.numOutDims(); ++o)
    if (bOut[o] != o) {
      LAYOUT_TRY_ASSIGN(t, outer.transposeOuts(A.outDimNames()));
      reordered = std::move(t);
      break;
    }
  const LinearLayout& B = reordered ? *reordered : outer;

  // Triton's heuristic first; without it only where the heuristic leaves A's image unreachable.
  for (bool useHeuristic : {true, false}) {
    // Triton's heuristic: an in-dim with the same bases on both sides maps to itself.
    SmallVector<int32_t, 8> identityIn; // per A in-dim: B's in-dim index, or -1
    SmallVector<bool, 8> bIdentity;
    bIdentity.resize(B.numInDims());
    bool anyIdentity = false;
    for (int d = 0; d < A.numInDims(); ++d) {
      int e = B.inDimIndex(A.ins_[d].name);
      bool same = useHeuristic && e >= 0 && sameBasesIgnoringSizes(A, d, B, e);
      identityIn.push_back(same ? e : -1);
      if (same) bIdentity[e] = anyIdentity = true;
    }

    // The result: A's in-dims in A's order, B's in-dims (full sizes) as out-dims in B's order.
    DimShape ins = LayoutBuilder::inShape(A), outs = LayoutBuilder::inShape(B);
    LAYOUT_TRY_ASSIGN(c, LayoutBuilder::make(ins, outs));
    const LinearLayout& C = c.layout();

    // Least squares over the remaining dims: insert B's columns into an echelon basis that records
    // which columns make up each basis vector, then express every column of A through it. Only
    // independent ("pivot") columns ever enter a combination and free variables stay 0: exactly the
    // solution Triton reads off the RREF of [B | A]. Combination bit k is B's k-th non-identity
    // column; resultBit maps it to its bit in the result's out-dims.
    SmallVector<int32_t, 64> resultBit;
    for (int e = 0; e < B.numInDims(); ++e)
      if (!bIdentity[e])
        for (int i = 0; i < B.ins_[e].numBases; ++i)
          resultBit.push_back(int32_t(C.outs_[e].bitOffset + i));
    const int w = B.wordsPerBasis_, m = detail::wordsFor(int(resultBit.size()));
    detail::XorBasis xb(w, m);
    SmallVector<uint64_t, 8> v, combo;
    v.resize(w);
    combo.resize(m);
    for (int e = 0, k = 0; e < B.numInDims(); ++e) {
      if (bIdentity[e]) continue;
      for (int i = 0; i < B.ins_[e].numBases; ++i, ++k) {
        std::copy_n(B.basisWords(B.ins_[e].firstBasis + i), w, v.data());
        std::fill_n(combo.data(), m, 0);
        detail::flipBit(combo.data(), k);
        xb.insert(v.data(), combo.data());
      }
    }
    const bool sameOutPacking =
        std::equal(A.outs_.begin(), A.outs_.end(), B.outs_.begin(),
                   [](const OutDim& x, const OutDim& y) { return x.sizeLog2 == y.sizeLog2; });
    bool unreachable = false;
    for (int d = 0; d < A.numInDims() && !unreachable; ++d) {
      for (int i = 0; i < A.ins_[d].numBases; ++i) {
        const int g = A.ins_[d].firstBasis + i;
        if (identityIn[d] >= 0) {
          detail::flipBit(c.basis(g), C.outs_[identityIn[d]].bitOffset + i);
          continue;
        }
        // A's column, packed with B's out sizes.
        if (sameOutPacking) {
          std::copy_n(A.basisWords(g), w, v.data());
        } else {
          std::fill_n(v.data(), w, 0);
          for (int o = 0; o < A.numOutDims(); ++o)
            detail::xorBits(v.data(), B.outs_[o].bitOffset, B.outs_[o].sizeLog2, A.basis(d, i, o));
        }
        std::fill_n(combo.data(), m, 0);
        xb.reduce(v.data(), combo.data());
        if (!detail::isZero(v.data(), w)) {
          // Triton's heuristic can claim a dim that the rest of A needs; Triton aborts there.
          // Plain least squares over every dim still finds the solution when one exists.
          if (anyIdentity) {
            unreachable = true;
            break;
          }
          std::string vec;
          for (int o = 0; o < A.numOutDims(); ++o)
            vec += (o ? ", " : "") + std::to_string(A.basis(d, i, o));
          return makeError(
              "invertAndCompose: the outer layout does not cover this layout's image: " +
              quoted(A.ins_[d].name) + "=" + std::to_string(uint64_t{1} << i) + " -> (" + vec +
              ") is not reachable");
        }
        if (!anyIdentity) {
          std::copy_n(combo.data(), m, c.basis(g)); // combination bits are the result's out bits
          continue;
        }
        for (int wi = 0; wi < m; ++wi)
          for (uint64_t x = combo[wi]; x; x &= x - 1)
            detail::flipBit(c.basis(g), resultBit[wi * 64 + std::countr_zero(x)]);
      }
    }
    if (unreachable) continue;
    return c.build();
  }
  return makeError("invertAndCompose: internal error: no solution after the fallback");
}

Expected<LinearLayout> LinearLayout::pseudoinvert() const {
  if (!isSurjective())
    return makeError("pseudoinvert: the layout is not surjective (rank " + std::to_string(rank()) +
                     " < " + std::to_string(totalOutBits_) + " out bits)");
  DimShape shape = LayoutBuilder::outShape(*this);
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(shape, shape));
  for (int g = 0; g < totalOutBits_; ++g) detail::flipBit(b.basis(g), g);
  return b.build().invertAndCompose(*this);
}

Expected<LinearLayout> LinearLayout::invert() const {
  if (!isInvertible())
    return makeError("invert: the layout is not invertible (rank " + std::to_string(rank()) + ", " +
                     std::to_string(totalInBits_) + " in bits, " + std::to_string(totalOutBits_) +
                     " out bits)");
  return pseudoinvert();
}

// ---- Dim order and shape ------------------------------------------------------------------------

Expected<LinearLayout> LinearLayout::transposeIns(std::span<const DimName> order) const {
  if (auto err = checkPermutation(order, inDimNames(), "in"); !err)
    return withContext(err.error(), "transposeIns");
  DimShape shape;
  for (DimName n : order) shape.push_back({n, ins_[inDimIndex(n)].numBases});
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(shape, LayoutBuilder::outShape(*this)));
  int g = 0;
  for (DimName n : order) {
    const InDim& d = ins_[inDimIndex(n)];
    for (int i = 0; i < d.numBases; ++i, ++g)
      std::copy_n(basisWords(d.firstBasis + i), wordsPerBasis_, b.basis(g));
  }
  return b.build();
}

Expected<LinearLayout> LinearLayout::transposeOuts(std::span<const DimName> order) const {
  if (auto err = checkPermutation(order, outDimNames(), "out"); !err)
    return withContext(err.error(), "transposeOuts");
  DimShape shape;
  SmallVector<int32_t, 8> from;
  for (DimName n : order) {
    from.push_back(outDimIndex(n));
    shape.push_back({n, outs_[from.back()].sizeLog2});
  }
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(LayoutBuilder::inShape(*this), shape));
  const LinearLayout& r = b.layout();
  for (int g = 0; g < totalInBits_; ++g)
    for (size_t o = 0; o < order.size(); ++o) {
      const OutDim& src = outs_[from[o]];
      detail::xorBits(b.basis(g), r.outs_[o].bitOffset, src.sizeLog2,
                      getBits(basisWords(g), src.bitOffset, src.sizeLog2));
    }
  return b.build();
}

Expected<LinearLayout> LinearLayout::reshapeIns(std::span<const DimSize> newInDims) const {
  auto shape = log2Shape(newInDims, "reshapeIns: in");
  if (!shape) return shape.error();
  int total = 0;
  for (auto& [n, s] : *shape) total += s;
  if (total != totalInBits_)
    return makeError("reshapeIns: the new in-dims hold 2^" + std::to_string(total) +
                     " elements but the layout's in-dims hold 2^" + std::to_string(totalInBits_));
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(*shape, LayoutBuilder::outShape(*this)));
  // Bases keep their global order: only the grouping into dims changes.
  std::copy_n(words_.data(), numBasisWords(), b.basis(0));
  return b.build();
}

Expected<LinearLayout> LinearLayout::reshapeOuts(std::span<const DimSize> newOutDims) const {
  auto shape = log2Shape(newOutDims, "reshapeOuts: out");
  if (!shape) return shape.error();
  int total = 0;
  for (auto& [n, s] : *shape) total += s;
  if (total != totalOutBits_)
    return makeError("reshapeOuts: the new out-dims hold 2^" + std::to_string(total) +
                     " elements but the layout's out-dims hold 2^" + std::to_string(totalOutBits_));
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(LayoutBuilder::inShape(*this), *shape));
  // Out bits are packed in order, so the flattened index of every basis is unchanged.
  std::copy_n(words_.data(), numBasisWords(), b.basis(0));
  return b.build();
}

Expected<LinearLayout> LinearLayout::flattenIns() const {
  if (ins_.empty()) return *this; // Triton: reshapeIns({}), the layout unchanged
  if (totalInBits_ > kMaxDimSizeLog2)
    return makeError("flattenIns: the flattened in-dim would have 2^" +
                     std::to_string(totalInBits_) + " elements, over the limit of 2^63");
  DimSize d{ins_[0].name, uint64_t{1} << totalInBits_};
  return reshapeIns(std::span<const DimSize>(&d, 1));
}

Expected<LinearLayout> LinearLayout::flattenOuts() const {
  if (outs_.empty()) return *this; // Triton: reshapeOuts({}), the layout unchanged
  if (totalOutBits_ > kMaxDimSizeLog2)
    return makeError("flattenOuts: the flattened out-dim would have 2^" +
                     std::to_string(totalOutBits_) + " elements, over the limit of 2^63");
  DimSize d{outs_[0].name, uint64_t{1} << totalOutBits_};
  return reshapeOuts(std::span<const DimSize>(&d, 1));
}

// ---- Sublayouts ---------------------------------------------------------------------------------

Expected<LinearLayout> LinearLayout::sublayout(std::span<const DimName> inDims,
                                               std::span<const DimName> outDims) const {
  if (auto err = checkSubset(inDims, inDimNames(), "in"); !err)
    return withContext(err.error(), "sublayout");
  if (auto err = checkSubset(outDims, outDimNames(), "out"); !err)
    return withContext(err.error(), "sublayout");
  auto contains = [](std::span<const DimName> s, DimName n) {
    return std::find(s.begin(), s.end(), n) != s.end();
  };
  DimShape inShape, outShape;
  SmallVector<int32_t, 8> keptIns, keptOuts;
  for (int d = 0; d < numInDims(); ++d)
    if (contains(inDims, ins_[d].name)) {
      keptIns.push_back(d);
      inShape.push_back({ins_[d].name, ins_[d].numBases});
    }
  for (int o = 0; o < numOutDims(); ++o)
    if (contains(outDims, outs_[o].name)) {
      keptOuts.push_back(o);
      outShape.push_back({outs_[o].name, outs_[o].sizeLog2});
    }
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(inShape, outShape));
  const LinearLayout& r = b.layout();
  int g = 0;
  for (int32_t d : keptIns)
    for (int i = 0; i < ins_[d].numBases; ++i, ++g)
      for (size_t k = 0; k < keptOuts.size(); ++k) {
        const OutDim& src = outs_[keptOuts[k]];
        detail::xorBits(b.basis(g), r.outs_[k].bitOffset, src.sizeLog2,
                        getBits(basisWords(ins_[d].firstBasis + i), src.bitOffset, src.sizeLog2));
      }
  return b.build();
}

Expected<bool> LinearLayout::sublayoutIsZero(std::span<const DimName> inDims,
                                             std::span<const DimName> outDims) const {
  // Triton checks each named out-dim; with none, nothing is looked up and the answer is true.
  if (outDims.empty()) return true;
  LAYOUT_TRY_ASSIGN(s, sublayout(inDims, outDims));
  return std::all_of(s.words_.data(), s.words_.data() + s.numBasisWords(),
                     [](uint64_t w) { return w == 0; });
}

Expected<bool> LinearLayout::squareSublayoutIsIdentity(std::span<const DimName> dims) const {
  if (dims.empty()) return true;
  if (auto err = checkSubset(dims, inDimNames(), "in"); !err)
    return withContext(err.error(), "squareSublayoutIsIdentity");
  if (auto err = checkSubset(dims, outDimNames(), "out"); !err)
    return withContext(err.error(), "squareSublayoutIsIdentity");
  for (DimName n : dims)
    if (inDimSize(n) != outDimSize(n)) return false;
  LAYOUT_TRY_ASSIGN(s, sublayout(dims, dims));
  // Flattened on both sides, basis g must be 2^g: basis vector g is the unit vector e_g.
  for (int g = 0; g < s.totalInBits_; ++g) {
    const uint64_t* v = s.basisWords(g);
    for (int wi = 0; wi < s.wordsPerBasis_; ++wi) {
      uint64_t expect = (g >> 6) == wi ? uint64_t{1} << (g & 63) : 0;
      if (v[wi] != expect) return false;
    }
  }
  return true;
}

Expected<bool> LinearLayout::isTrivialOver(std::span<const DimName> dims) const {
  LAYOUT_TRY_ASSIGN(square, squareSublayoutIsIdentity(dims));
  if (!square) return false;
  auto others = [&](const std::vector<DimName>& all) {
    std::vector<DimName> rest;
    for (DimName n : all)
      if (std::find(dims.begin(), dims.end(), n) == dims.end()) rest.push_back(n);
    return rest;
  };
  std::vector<DimName> restIns = others(inDimNames()), restOuts = others(outDimNames());
  LAYOUT_TRY_ASSIGN(z1, sublayoutIsZero(restIns, dims));
  LAYOUT_TRY_ASSIGN(z2, sublayoutIsZero(dims, restOuts));
  return z1 && z2;
}

Expected<std::optional<LinearLayout>> LinearLayout::quotient(std::span<const DimName> dims) const {
  // Triton: a dim that is not an in-dim cannot be divided out (no quotient, not an error).
  for (DimName n : dims)
    if (!hasInDim(n)) return std::optional<LinearLayout>();
  LAYOUT_TRY_ASSIGN(trivial, isTrivialOver(dims));
  if (!trivial) return std::optional<LinearLayout>();
  std::vector<DimName> restIns, restOuts;
  for (DimName n : inDimNames())
    if (std::find(dims.begin(), dims.end(), n) == dims.end()) restIns.push_back(n);
  for (DimName n : outDimNames())
    if (std::find(dims.begin(), dims.end(), n) == dims.end()) restOuts.push_back(n);
  LAYOUT_TRY_ASSIGN(s, sublayout(restIns, restOuts));
  return std::optional<LinearLayout>(std::move(s));
}

// ---- Concatenation ------------------------------------------------------------------------------

Expected<LinearLayout> LinearLayout::concatIns(const LinearLayout& other) const {
  if (!(outs_.size() == other.outs_.size() &&
        std::equal(outs_.begin(), outs_.end(), other.outs_.begin(),
                   [](const OutDim& a, const OutDim& b) {
                     return a.name == b.name && a.sizeLog2 == b.sizeLog2;
                   })))
    return makeError("concatIns: the layouts must have the same out-dims in the same order and of "
                     "the same sizes");
  DimShape shape = LayoutBuilder::inShape(*this);
  SmallVector<int32_t, 8> appended;
  for (int d = 0; d < other.numInDims(); ++d)
    if (!hasInDim(other.ins_[d].name)) {
      appended.push_back(d);
      shape.push_back({other.ins_[d].name, other.ins_[d].numBases});
    }
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(shape, LayoutBuilder::outShape(*this)));
  std::copy_n(words_.data(), numBasisWords(), b.basis(0));
  int g = totalInBits_;
  for (int32_t d : appended)
    for (int i = 0; i < other.ins_[d].numBases; ++i, ++g)
      std::copy_n(other.basisWords(other.ins_[d].firstBasis + i), wordsPerBasis_, b.basis(g));
  return b.build();
}

Expected<LinearLayout> LinearLayout::concatOuts(const LinearLayout& other) const {
  if (!(ins_.size() == other.ins_.size() && std::equal(ins_.begin(), ins_.end(), other.ins_.begin(),
                                                       [](const InDim& a, const InDim& b) {
                                                         return a.name == b.name &&
                                                                a.numBases == b.numBases;
                                                       })))
    return makeError("concatOuts: the layouts must have the same in-dims in the same order and of "
                     "the same sizes");
  DimShape shape = LayoutBuilder::outShape(*this);
  for (auto& s : LayoutBuilder::outShape(other)) shape.push_back(s);
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(LayoutBuilder::inShape(*this), shape));
  for (int g = 0; g < totalInBits_; ++g) {
    for (int o = 0; o < numOutDims(); ++o)
      detail::xorBits(b.basis(g), outs_[o].bitOffset, outs_[o].sizeLog2,
                      getBits(basisWords(g), outs_[o].bitOffset, outs_[o].sizeLog2));
    for (int o = 0; o < other.numOutDims(); ++o)
      detail::xorBits(
          b.basis(g), totalOutBits_ + other.outs_[o].bitOffset, other.outs_[o].sizeLog2,
          getBits(other.basisWords(g), other.outs_[o].bitOffset, other.outs_[o].sizeLog2));
  }
  return b.build();
}

// ---- Free variables and vectorisation -----------------------------------------------------------

std::vector<std::pair<DimName, uint64_t>> LinearLayout::freeVariableMasks() const {
  // A column is a pivot of the RREF (lowest-column pivots) iff it is independent of the columns
  // before it; the others are free.
  std::vector<std::pair<DimName, uint64_t>> masks;
  masks.reserve(ins_.size());
  if (wordsPerBasis_ == 1) {
    detail::LowBitBasis basis;
    const uint64_t* cols = words_.data();
    for (const InDim& d : ins_) {
      uint64_t mask = 0;
      for (int i = 0; i < d.numBases; ++i)
        if (!basis.insert(cols[d.firstBasis + i])) mask |= uint64_t{1} << i;
      masks.push_back({d.name, mask});
    }
    return masks;
  }
  detail::XorBasis xb(wordsPerBasis_, 0);
  SmallVector<uint64_t, 8> v;
  v.resize(wordsPerBasis_);
  for (const InDim& d : ins_) {
    uint64_t mask = 0;
    for (int i = 0; i < d.numBases; ++i) {
      std::copy_n(basisWords(d.firstBasis + i), wordsPerBasis_, v.data());
      if (!xb.insert(v.data(), nullptr)) mask |= uint64_t{1} << i;
    }
    masks.push_back({d.name, mask});
  }
  return masks;
}

uint64_t LinearLayout::numConsecutiveInOut() const {
  if (ins_.empty() || outs_.empty()) return 1;
  const InDim& first = ins_[0];
  int consecutive = 0;
  for (; consecutive < first.numBases; ++consecutive) {
    if (basis(0, consecutive, 0) != uint64_t{1} << consecutive) break;
    bool othersZero = true;
    for (int o = 1; o < numOutDims(); ++o) othersZero &= basis(0, consecutive, o) == 0;
    if (!othersZero) break;
  }
  uint64_t otherBits = 0;
  for (int d = 0; d < numInDims(); ++d)
    for (int i = d == 0 ? consecutive : 0; i < ins_[d].numBases; ++i) otherBits |= basis(d, i, 0);
  // Triton uses 31 (the int32 width) when nothing else touches the first out-dim; our values are
  // 64-bit, so the cap is 63 (identical results for every layout Triton can represent).
  int trailingZeros = otherBits ? std::countr_zero(otherBits) : 63;
  return uint64_t{1} << std::min(consecutive, trailingZeros);
}

// ---- Resizing and renaming ----------------------------------------------------------------------

Expected<LinearLayout> LinearLayout::resizeOutDim(DimName outDim, uint64_t newSize) const {
  int o = outDimIndex(outDim);
  if (o < 0) return makeError("resizeOutDim: " + quoted(outDim) + " is not an out-dim");
  if (!isPowerOf2(newSize) || newSize > outDimSize(o))
    return makeError("resizeOutDim: new size " + std::to_string(newSize) + " of " + quoted(outDim) +
                     " must be a power of two no larger than " + std::to_string(outDimSize(o)));
  DimShape shape = LayoutBuilder::outShape(*this);
  shape[o].second = log2Exact(newSize);
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(LayoutBuilder::inShape(*this), shape));
  for (int d = 0, g = 0; d < numInDims(); ++d)
    for (int i = 0; i < ins_[d].numBases; ++i, ++g)
      for (int k = 0; k < numOutDims(); ++k) {
        uint64_t c = basis(d, i, k);
        if (k == o && c >= newSize) c = 0; // Triton zeroes the component, it does not mask it
        b.setComponent(g, k, c);
      }
  return b.build();
}

Expected<LinearLayout> LinearLayout::resizeInDim(DimName inDim, uint64_t newSize) const {
  int d = inDimIndex(inDim);
  if (d < 0) return makeError("resizeInDim: " + quoted(inDim) + " is not an in-dim");
  if (!isPowerOf2(newSize))
    return makeError("resizeInDim: new size " + std::to_string(newSize) + " of " + quoted(inDim) +
                     " must be a power of two");
  // Shrinking drops the most significant bases; growing (Triton main) appends zero bases, so the
  // new inputs are broadcast.
  DimShape shape = LayoutBuilder::inShape(*this);
  shape[d].second = log2Exact(newSize);
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(shape, LayoutBuilder::outShape(*this)));
  int g = 0;
  for (int e = 0; e < numInDims(); ++e)
    for (int i = 0; i < shape[e].second; ++i, ++g)
      if (i < ins_[e].numBases)
        std::copy_n(basisWords(ins_[e].firstBasis + i), wordsPerBasis_, b.basis(g));
  return b.build();
}

Expected<LinearLayout> LinearLayout::removeZeroBasesAlongDim(DimName inDim) const {
  int d = inDimIndex(inDim);
  if (d < 0) return makeError("removeZeroBasesAlongDim: " + quoted(inDim) + " is not an in-dim");
  SmallVector<int32_t, 64> keep;
  for (int g = 0; g < totalInBits_; ++g)
    if (g < int(ins_[d].firstBasis) || g >= int(ins_[d].firstBasis + ins_[d].numBases) ||
        !detail::isZero(basisWords(g), wordsPerBasis_))
      keep.push_back(g);
  DimShape shape = LayoutBuilder::inShape(*this);
  shape[d].second -= totalInBits_ - int(keep.size());
  LAYOUT_TRY_ASSIGN(b, LayoutBuilder::make(shape, LayoutBuilder::outShape(*this)));
  for (size_t k = 0; k < keep.size(); ++k)
    std::copy_n(basisWords(keep[k]), wordsPerBasis_, b.basis(int(k)));
  return b.build();
}

Expected<LinearLayout> LinearLayout::renameInDim(DimName oldName, DimName newName) const {
  int d = inDimIndex(oldName);
  if (d < 0) return makeError("renameInDim: " + quoted(oldName) + " is not an in-dim");
  if (newName != oldName && hasInDim(newName))
    return makeError("renameInDim: " + quoted(newName) + " is already an in-dim");
  std::vector<DimName> order;
  for (int e = 0; e < numInDims(); ++e)
    if (e != d) order.push_back(ins_[e].name);
  order.push_back(oldName);
  LAYOUT_TRY_ASSIGN(moved, transposeIns(order));
  moved.ins_.back().name = newName;
  return moved;
}

// ---- Identity -----------------------------------------------------------------------------------

bool LinearLayout::equalIgnoringOutDimSizes(const LinearLayout& other) const {
  if (ins_.size() != other.ins_.size() || outs_.size() != other.outs_.size()) return false;
  for (int d = 0; d < numInDims(); ++d)
    if (ins_[d].name != other.ins_[d].name || ins_[d].numBases != other.ins_[d].numBases)
      return false;
  for (int o = 0; o < numOutDims(); ++o)
    if (outs_[o].name != other.outs_[o].name) return false;
  for (int d = 0; d < numInDims(); ++d)
    if (!sameBasesIgnoringSizes(*this, d, other, d)) return false;
  return true;
}

} // namespace layout
