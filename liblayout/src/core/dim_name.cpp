#include "layout/core/dim_name.h"

#include "layout/core/resource_limits.h"

#include <algorithm>
#include <array>
#include <bit>
#include <deque>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

namespace layout {
namespace {

// Process-wide intern table. Id 0 is the empty name. Lookups by text take the shared lock; str()
// takes none: the names are reached by id through fixed chunks of views that never move, filled
// under the exclusive lock before their id is handed out, so a thread holding an id (which it got
// through the lock, or from another thread with synchronisation) reads a finished entry.
// toString and the Python bindings call str() on every name they print; a lock there cost more
// than the rest of their work.
struct InternTable {
  // Chunk 0 holds ids [0, 4096), chunk k >= 1 holds [4096 << (k - 1), 4096 << k): 21 chunks cover
  // every 32-bit id, and none is allocated before it is needed.
  static constexpr int kFirstChunkBits = 12;
  static constexpr int kChunks = 33 - kFirstChunkBits;

  std::shared_mutex mutex;
  std::deque<std::string> names;
  std::unordered_map<std::string_view, uint32_t> ids;
  std::array<std::unique_ptr<std::string_view[]>, kChunks> chunks;

  uint64_t bytes = 0; // of every name interned

  // The empty name first (id 0), then the names the library itself uses, so that a session
  // filled to its limit with names of its own still has these.
  InternTable() {
    for (std::string_view n : {"", "register", "lane", "warp", "block", "offset", "dim0", "dim1",
                               "dim2", "dim3", "dim4", "dim5", "dim6", "dim7"})
      add(n);
  }

  // Under the exclusive lock: throws LimitExceeded when `name` would pass the limits.
  void checkRoomFor(std::string_view name) const {
    const ResourceLimits& limits = resourceLimits();
    const std::string shown =
        name.size() <= 40 ? std::string(name) : std::string(name.substr(0, 40)) + "...";
    if (names.size() >= limits.maxDimNames)
      throw LimitExceeded("dim name '" + shown + "': this process has interned " +
                          std::to_string(names.size()) + " distinct dim names; the limit is " +
                          describeLimit(limits.maxDimNames) +
                          " (raise it with LAYOUT_MAX_DIM_NAMES, or start a new session)");
    if (bytes + name.size() > limits.maxDimNameBytes)
      throw LimitExceeded("dim name '" + shown + "' (" + std::to_string(name.size()) +
                          " bytes): the dim names interned by this process would take " +
                          std::to_string(bytes + name.size()) + " bytes; the limit is " +
                          describeLimit(limits.maxDimNameBytes) +
                          " (raise it with LAYOUT_MAX_DIM_NAME_BYTES, or start a new session)");
  }

  // The chunk of `id` and the index in it.
  static std::pair<int, uint32_t> slot(uint32_t id) {
    const int k = std::bit_width(id >> kFirstChunkBits);
    return {k, k == 0 ? id : id - (uint32_t{1} << (kFirstChunkBits + k - 1))};
  }

  std::string_view name(uint32_t id) const {
    const auto [k, i] = slot(id);
    return chunks[size_t(k)][i];
  }

  // Under the exclusive lock (or in the constructor).
  uint32_t add(std::string_view name) {
    const auto id = static_cast<uint32_t>(names.size());
    const auto [k, i] = slot(id);
    auto& chunk = chunks[size_t(k)];
    if (!chunk)
      chunk =
          std::make_unique<std::string_view[]>(size_t{1} << (kFirstChunkBits + std::max(k - 1, 0)));
    names.emplace_back(name);
    bytes += name.size();
    chunk[i] = names.back();
    ids.emplace(names.back(), id);
    return id;
  }
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
  t.checkRoomFor(name);
  id_ = t.add(name);
}

std::string_view DimName::str() const {
  return table().name(id_);
}

InternedDimNames internedDimNames() {
  InternTable& t = table();
  std::shared_lock lock(t.mutex);
  return {t.names.size(), t.bytes};
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
