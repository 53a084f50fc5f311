// LinearLayout::hash (layout/core/linear_layout.h).
#include "layout/core/linear_layout.h"

namespace layout {

size_t LinearLayout::hash() const {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  auto mix = [&h](uint64_t v) { h = (h ^ v) * 0x100000001b3ULL + (h >> 29); };
  // The bases and the shape keys: equal layouts have equal words.
  for (uint64_t w : words_) mix(w);
  return size_t(h);
}

} // namespace layout
