// Internal: a GF(2) basis of 64-bit vectors that remembers, for each stored vector, which of the
// inserted generators it combines, so that membership tests also give the combination.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>

namespace layout::smem::detail {

class XorBasis {
public:
  // Adds `v` (generator mask `generators`, e.g. 1 << index); false when v is already spanned.
  bool add(uint64_t v, uint64_t generators) {
    uint64_t c = generators;
    v = reduce(v, c);
    if (v == 0) return false;
    int p = 63 - std::countl_zero(v);
    vec_[p] = v;
    combo_[p] = c;
    ++rank_;
    return true;
  }
  bool contains(uint64_t v) const {
    uint64_t c = 0;
    return reduce(v, c) == 0;
  }
  // The generators whose XOR is v, if v is spanned.
  std::optional<uint64_t> solve(uint64_t v) const {
    uint64_t c = 0;
    if (reduce(v, c) != 0) return std::nullopt;
    return c;
  }
  int rank() const { return rank_; }

private:
  uint64_t reduce(uint64_t v, uint64_t& c) const {
    while (v) {
      int p = 63 - std::countl_zero(v);
      if (!vec_[p]) return v;
      v ^= vec_[p];
      c ^= combo_[p];
    }
    return 0;
  }
  std::array<uint64_t, 64> vec_{};
  std::array<uint64_t, 64> combo_{};
  int rank_ = 0;
};

// The rank of a set of vectors.
template <typename Range> int xorRank(const Range& vs) {
  XorBasis b;
  for (uint64_t v : vs) b.add(v, 0);
  return b.rank();
}

} // namespace layout::smem::detail
