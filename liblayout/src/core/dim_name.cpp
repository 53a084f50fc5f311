#include "layout/core/dim_name.h"

#include <array>
#include <deque>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

namespace layout {
namespace {

// Process-wide intern table. Id 0 is the empty name. Strings live in a deque so the views stored
// as map keys stay valid as the table grows.
struct InternTable {
  std::shared_mutex mutex;
  std::deque<std::string> names{std::string()};
  std::unordered_map<std::string_view, uint32_t> ids{{std::string_view(), 0}};
};

InternTable& table() {
  static InternTable* t = new InternTable(); // never destroyed: names outlive static destructors
  return *t;
}

} // namespace

DimName::DimName(std::string_view name) {
  InternTable& t = table();
  {
    std::shared_lock lock(t.mutex);
    auto it = t.ids.find(name);
    if (it != t.ids.end()) {
      id_ = it->second;
      return;
    }
  }
  std::unique_lock lock(t.mutex);
  auto it = t.ids.find(name);
  if (it != t.ids.end()) {
    id_ = it->second;
    return;
  }
  id_ = static_cast<uint32_t>(t.names.size());
  t.names.emplace_back(name);
  t.ids.emplace(t.names.back(), id_);
}

std::string_view DimName::str() const {
  InternTable& t = table();
  std::shared_lock lock(t.mutex);
  return t.names[id_];
}

namespace dims {
DimName reg() {
  static const DimName d("register");
  return d;
}
DimName lane() {
  static const DimName d("lane");
  return d;
}
DimName warp() {
  static const DimName d("warp");
  return d;
}
DimName block() {
  static const DimName d("block");
  return d;
}
DimName offset() {
  static const DimName d("offset");
  return d;
}
DimName standardOut(int i) {
  // The encodings ask for these names many times per conversion: skip the interning lookup
  // (and its lock) for the ranks tensors have.
  static const auto common = [] {
    std::array<DimName, 8> names;
    for (int d = 0; d < 8; ++d) names[size_t(d)] = DimName("dim" + std::to_string(d));
    return names;
  }();
  if (i >= 0 && i < 8) return common[size_t(i)];
  return DimName("dim" + std::to_string(i));
}
} // namespace dims

bool DimNameSet::insertHashed(DimName name) {
  if (!many_) many_ = std::make_unique<std::unordered_set<uint32_t>>(few_.begin(), few_.end());
  return many_->insert(name.id()).second;
}

} // namespace layout
