// The operands of a bank analysis as users write them (layoutctl banks, banks.analyze): the
// access layout as distributed encoding text or layout JSON; the shared layout as shared encoding
// text, layout JSON, seed 004's (swizzle unit, max phase) or, by default, the row-major tile.
//
//   layout::smem::SharedSpec spec{.swizzleUnit = 8, .maxPhase = 8};
//   int64_t shape[] = {32, 64};
//   auto a = layout::smem::sharedAccessFromText(accessText, spec, shape, 16);
//   auto report = layout::smem::analyzeBanks(*a, *layout::smem::bankInstruction(
//                                                  "cdna4.ds_read_b128"));
#pragma once

#include "layout/smem/bank_analysis.h"

#include <span>
#include <string>
#include <string_view>

namespace layout::smem {

struct SharedSpec {
  std::string text;    // shared encoding text or layout JSON; empty: see below
  int swizzleUnit = 0; // > 0: seed 004's swizzle (xorSwizzleShared); else row-major
  int maxPhase = 1;
};

// Errors name the operand ("access", "shared") and the rule. A #ttg.padded_shared encoding
// brings its padding (SharedAccess::paddedAddress).
Expected<SharedAccess> sharedAccessFromText(std::string_view access, const SharedSpec& shared,
                                            std::span<const int64_t> shape, int elemBits);

} // namespace layout::smem
