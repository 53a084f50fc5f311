// Internal: bit-field access on packed GF(2) vectors, and an incremental XOR basis.
#pragma once

#include "layout/core/small_vector.h"

#include <bit>
#include <cstdint>
#include <cstring>

namespace layout::detail {

inline int wordsFor(int bits) {
  return bits <= 64 ? 1 : (bits + 63) / 64;
}

inline uint64_t lowMask(int len) {
  return len >= 64 ? ~uint64_t{0} : (uint64_t{1} << len) - 1;
}

// Bits [off, off + len) of a packed vector, len <= 64.
inline uint64_t getBits(const uint64_t* v, int off, int len) {
  if (len == 0) return 0;
  int w = off >> 6, b = off & 63;
  uint64_t x = v[w] >> b;
  if (b + len > 64) x |= v[w + 1] << (64 - b);
  return x & lowMask(len);
}

// XORs `val` (< 2^len) into bits [off, off + len).
inline void xorBits(uint64_t* v, int off, int len, uint64_t val) {
  if (len == 0) return;
  int w = off >> 6, b = off & 63;
  v[w] ^= val << b;
  if (b + len > 64) v[w + 1] ^= val >> (64 - b);
}

inline bool testBit(const uint64_t* v, int bit) {
  return (v[bit >> 6] >> (bit & 63)) & 1;
}
inline void flipBit(uint64_t* v, int bit) {
  v[bit >> 6] ^= uint64_t{1} << (bit & 63);
}

inline bool isZero(const uint64_t* v, int words) {
  for (int i = 0; i < words; ++i)
    if (v[i]) return false;
  return true;
}

inline void xorInto(uint64_t* dst, const uint64_t* src, int words) {
  for (int i = 0; i < words; ++i) dst[i] ^= src[i];
}

// Lowest set bit of a nonzero vector.
inline int lowestBit(const uint64_t* v, int words) {
  for (int i = 0; i < words; ++i)
    if (v[i]) return i * 64 + std::countr_zero(v[i]);
  return -1;
}

// An echelon basis of single-word vectors keyed by each vector's lowest set bit: for deciding
// rank and independence only (no combinations), reducing a vector costs one XOR per basis vector
// it meets, and layout columns (mostly unit vectors) meet almost none.
class LowBitBasis {
public:
  // Adds v unless it is a combination of the vectors added before; returns whether it was
  // independent.
  bool insert(uint64_t v) {
    while (v) {
      const int b = std::countr_zero(v);
      if (!((have_ >> b) & 1)) {
        have_ |= uint64_t{1} << b;
        byLowBit_[b] = v;
        ++rank_;
        return true;
      }
      v ^= byLowBit_[b]; // clears bit b; only higher bits can appear, so this ends
    }
    return false;
  }
  // Counted, not popcount(have_): without -mpopcnt that is a library call.
  int rank() const { return rank_; }

private:
  uint64_t have_ = 0;
  int rank_ = 0;
  // Only entries whose bit is set in have_ are read: left uninitialised.
  uint64_t byLowBit_[64];
};

// An incremental basis of a GF(2) vector space. Optionally each basis vector records which
// inserted vectors it is the sum of (`comboWords` words of mask), which is how linear systems are
// solved against the inserted vectors.
//
// Single-word vectors with at most 64 tracked inserts (every layout of up to 64 out bits) use a
// fully reduced basis indexed by pivot bit: reducing a vector is one XOR per pivot bit it has.
// Wider vectors use an echelon basis reduced in insertion order.
class XorBasis {
public:
  XorBasis(int vectorWords, int comboWords)
      : w_(vectorWords), m_(comboWords), narrow_(vectorWords == 1 && comboWords <= 1) {}

  int rank() const { return rank_; }

  // Reduces v (and its combination mask, if tracked) by the basis.
  void reduce(uint64_t* v, uint64_t* combo) const {
    if (narrow_) {
      uint64_t x = v[0], c = 0;
      for (uint64_t p = x & pivotMask_; p; p &= p - 1) {
        const int b = std::countr_zero(p);
        x ^= byPivot_[b];
        c ^= comboByPivot_[b];
      }
      v[0] = x;
      if (m_) combo[0] ^= c;
      return;
    }
    for (int i = 0; i < rank_; ++i) {
      if (!testBit(v, pivots_[i])) continue;
      xorInto(v, vecs_.data() + size_t(i) * w_, w_);
      if (m_) xorInto(combo, combos_.data() + size_t(i) * m_, m_);
    }
  }

  // Reduces v; if it stays nonzero it joins the basis. Returns whether v was independent.
  bool insert(uint64_t* v, uint64_t* combo) {
    reduce(v, combo);
    const int p = lowestBit(v, w_);
    if (p < 0) return false;
    ++rank_;
    if (narrow_) {
      const uint64_t x = v[0], c = m_ ? combo[0] : 0;
      // Keep every other basis vector free of the new pivot bit.
      for (uint64_t q = pivotMask_; q; q &= q - 1) {
        const int b = std::countr_zero(q);
        const uint64_t take = uint64_t{0} - ((byPivot_[b] >> p) & 1);
        byPivot_[b] ^= x & take;
        comboByPivot_[b] ^= c & take;
      }
      pivotMask_ |= uint64_t{1} << p;
      byPivot_[p] = x;
      comboByPivot_[p] = c;
      return true;
    }
    pivots_.push_back(p);
    size_t at = vecs_.size();
    vecs_.resize(at + w_);
    std::memcpy(vecs_.data() + at, v, sizeof(uint64_t) * w_);
    if (m_ && combo) {
      size_t cat = combos_.size();
      combos_.resize(cat + m_);
      std::memcpy(combos_.data() + cat, combo, sizeof(uint64_t) * m_);
    }
    return true;
  }

private:
  int w_, m_;
  bool narrow_;
  int rank_ = 0;
  // Narrow representation.
  uint64_t pivotMask_ = 0;
  uint64_t byPivot_[64];
  uint64_t comboByPivot_[64];
  // Wide representation.
  SmallVector<int32_t, 16> pivots_;
  SmallVector<uint64_t, 16> vecs_;
  SmallVector<uint64_t, 16> combos_;
};

} // namespace layout::detail
