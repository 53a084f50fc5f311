/// \file
/// Interned dimension names. Comparing, hashing and copying a DimName is an integer operation, so
/// the algebra never compares strings on its hot paths.
///
/// \code
///   layout::DimName reg("register");
///   assert(reg == layout::DimName("register"));
///   std::cout << reg.str();   // "register"
/// \endcode
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <unordered_set>

namespace layout {

/// A dimension name, interned: a 32-bit id into a process-wide table of names.
class DimName {
public:
  /// The empty name (id 0).
  DimName() = default;
  /// Interns `name`; thread-safe. Names live for the life of the process.
  explicit DimName(std::string_view name);

  /// The name as text.
  std::string_view str() const;
  /// The interning id (0 for the empty name).
  uint32_t id() const { return id_; }

  friend bool operator==(DimName a, DimName b) { return a.id_ == b.id_; }
  /// Orders by interning id, not alphabetically: use only for containers.
  friend std::strong_ordering operator<=>(DimName a, DimName b) { return a.id_ <=> b.id_; }

private:
  uint32_t id_ = 0;
};

/// The standard names of Triton's distributed, shared and tensor dims.
namespace dims {
DimName reg();    ///< "register"
DimName lane();   ///< "lane"
DimName warp();   ///< "warp"
DimName block();  ///< "block"
DimName offset(); ///< "offset"
/// `"dim<i>"`: the name of tensor dim `i`.
DimName standardOut(int i);
} // namespace dims

/// The names seen so far, to find a duplicate in a list of dims in linear time: compared pairwise
/// while there are few (no allocation, the common case), through a hash set beyond that (a layout
/// JSON of thousands of dims).
///
/// \code
///   DimNameSet seen;
///   for (DimName n : names)
///     if (!seen.insert(n)) return makeError("duplicate dim " + std::string(n.str()));
/// \endcode
class DimNameSet {
public:
  /// False when `name` was inserted before.
  bool insert(DimName name) {
    if (count_ < kPairwise) {
      for (size_t i = 0; i < count_; ++i)
        if (few_[i] == name.id()) return false;
      few_[count_++] = name.id();
      return true;
    }
    return insertHashed(name);
  }

private:
  static constexpr size_t kPairwise = 32;
  bool insertHashed(DimName name);
  // Left uninitialised past count_, and the hash set made only when needed: this runs on every
  // layout the algebra builds.
  std::array<uint32_t, kPairwise> few_;
  size_t count_ = 0;
  std::unique_ptr<std::unordered_set<uint32_t>> many_;
};

} // namespace layout

template <> struct std::hash<layout::DimName> {
  size_t operator()(layout::DimName d) const noexcept { return std::hash<uint32_t>()(d.id()); }
};
