/// \file
/// Element widths in bits: the one rule every op that moves tensor elements applies to its
/// element size, and the one message it prints when the size breaks it.
///
/// \code
///   LAYOUT_TRY_ASSIGN(bits, layout::checkElementBits(12, "elemBits"));
///   // error: "elemBits: 12 is not 8, 16, 32 or 64"
///   layout::checkElementBits(4, "--elem-bits", layout::kElementBitsWithNibbles);   // 4
/// \endcode
#pragma once

#include "layout/core/expected.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace layout {

/// Whole-byte elements: the widths of every op that moves elements.
inline constexpr int kElementBits[] = {8, 16, 32, 64};
/// With 4-bit elements (fp4): shared-memory encodings and MMA operands.
inline constexpr int kElementBitsWithNibbles[] = {4, 8, 16, 32, 64};
/// The 2D block loads that feed DPAS operands (no 64-bit VNNI).
inline constexpr int kBlockLoadElementBits[] = {8, 16, 32};

/// Whether `bits` is one of `allowed`.
inline bool isElementBits(int64_t bits, std::span<const int> allowed = kElementBits) {
  return std::find(allowed.begin(), allowed.end(), bits) != allowed.end();
}

/// `allowed` as the messages list it: "8, 16, 32 or 64".
std::string elementBitsText(std::span<const int> allowed = kElementBits);

/// `bits` when it is one of `allowed`; else the error "<field>: <bits> is not 8, 16, 32 or 64"
/// (the list is `allowed`).
Expected<int> checkElementBits(int64_t bits, std::string_view field,
                               std::span<const int> allowed = kElementBits);

} // namespace layout
