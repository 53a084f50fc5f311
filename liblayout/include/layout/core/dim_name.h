// Interned dimension names. Comparing, hashing and copying a DimName is an integer operation, so
// the algebra never compares strings on its hot paths.
//
//   layout::DimName reg("register");
//   assert(reg == layout::DimName("register"));
//   std::cout << reg.str();   // "register"
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <string_view>

namespace layout {

class DimName {
public:
  // The empty name (id 0).
  DimName() = default;
  // Interns `name`; thread-safe. Names live for the life of the process.
  explicit DimName(std::string_view name);

  std::string_view str() const;
  uint32_t id() const { return id_; }

  friend bool operator==(DimName a, DimName b) { return a.id_ == b.id_; }
  // Orders by interning id, not alphabetically: use only for containers.
  friend std::strong_ordering operator<=>(DimName a, DimName b) { return a.id_ <=> b.id_; }

private:
  uint32_t id_ = 0;
};

// The standard names of Triton's distributed, shared and tensor dims.
namespace dims {
DimName reg();    // "register"
DimName lane();   // "lane"
DimName warp();   // "warp"
DimName block();  // "block"
DimName offset(); // "offset"
// "dim<i>"
DimName standardOut(int i);
} // namespace dims

} // namespace layout

template <> struct std::hash<layout::DimName> {
  size_t operator()(layout::DimName d) const noexcept { return std::hash<uint32_t>()(d.id()); }
};
