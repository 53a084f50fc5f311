// Internal: assembles a LinearLayout from dim shapes and packed or per-component bases. Every
// operation that makes a new layout goes through it, so the representation invariants (offsets,
// word counts, zeroed padding bits) are established in one place.
#pragma once

#include "layout/core/linear_layout.h"

#include "bit_ops.h"

#include <string>

namespace layout {

// Dim names with log2 sizes: the shape of one side of a layout.
using DimShape = SmallVector<std::pair<DimName, int>, 8>;

// "'name'" for messages.
std::string quoted(DimName d);

class LayoutBuilder {
public:
  // Validates dim names (unique, per side) and sizes (at most 2^63); bases start at zero.
  static Expected<LayoutBuilder> make(std::span<const std::pair<DimName, int>> ins,
                                      std::span<const std::pair<DimName, int>> outs);

  // make() on a default-constructed builder, in place (no Expected<LayoutBuilder> to move).
  Expected<void> init(std::span<const std::pair<DimName, int>> ins,
                      std::span<const std::pair<DimName, int>> outs);

  LinearLayout& layout() { return l_; }
  uint64_t* basis(int g) { return l_.words_.data() + size_t(g) * l_.wordsPerBasis_; }
  int words() const { return l_.wordsPerBasis_; }
  void setComponent(int g, int outDim, uint64_t value) {
    const auto& o = l_.outs_[outDim];
    uint64_t* v = basis(g);
    detail::xorBits(v, o.bitOffset, o.sizeLog2,
                    detail::getBits(v, o.bitOffset, o.sizeLog2) ^ value);
  }
  LinearLayout build() { return std::move(l_); }
  // Records the rank when the builder already knows it (as rank() would compute it).
  void knownRank(int rank) { l_.rank_.value.store(rank, std::memory_order_relaxed); }

  // Shapes of an existing layout, for builders that keep them.
  static DimShape inShape(const LinearLayout& l);
  static DimShape outShape(const LinearLayout& l);

private:
  LinearLayout l_;
};

} // namespace layout
