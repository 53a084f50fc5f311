// The three levels upstream's -xegpu-propagate-layout runs at ("layout-kind=subgroup|inst|lane";
// docs/reference/xegpu.md §7): which fields of a layout a rule sets and which a comparison reads.
#pragma once

#include "layout/core/expected.h"

#include <string>

namespace layout::xegpu {

enum class LayoutKind { Subgroup, InstData, Lane };

// "subgroup", "inst" (also "inst_data") or "lane"; anything else is an error naming `field`.
inline Expected<LayoutKind> parseLayoutKind(const std::string& text, const std::string& field) {
  if (text == "subgroup") return LayoutKind::Subgroup;
  if (text == "inst" || text == "inst_data") return LayoutKind::InstData;
  if (text == "lane") return LayoutKind::Lane;
  return makeError(field + ": '" + text + "' is not a layout level (subgroup, inst or lane)");
}

} // namespace layout::xegpu
