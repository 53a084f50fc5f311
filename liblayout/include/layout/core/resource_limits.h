// Bounds on the work and memory that one request may ask for, so that hostile or mistaken input
// (a 2^64-cell view, a 4 GiB alias expansion, `@/dev/zero`) gets an error naming the limit
// instead of a crash, a hang or an exhausted machine. docs/limits.md lists every limit.
//
//   layout::ResourceLimits limits = layout::resourceLimits();   // the process-wide values
//   limits.maxViewCells = uint64_t{1} << 24;                     // raise one
//   layout::setResourceLimits(limits);
//
//   // Tools read the LAYOUT_MAX_* environment variables once at start-up:
//   auto fromEnv = layout::resourceLimitsFromEnvironment();      // error names a bad variable
//   if (!fromEnv) { std::cerr << "error: " << fromEnv.error().message << "\n"; return 1; }
//   layout::setResourceLimits(*fromEnv);
#pragma once

#include "layout/core/expected.h"

#include <cstdint>
#include <span>
#include <string>

namespace layout {

struct ResourceLimits {
  // Bytes of one input file, `@file` argument or standard input (LAYOUT_MAX_INPUT_BYTES).
  uint64_t maxInputBytes = uint64_t{64} << 20;
  // Bytes of one `layoutctl batch` request line (LAYOUT_MAX_LINE_BYTES).
  uint64_t maxLineBytes = uint64_t{16} << 20;
  // Cells of a text view (tensor elements, and hardware positions of the hw view)
  // (LAYOUT_MAX_VIEW_CELLS, or `layoutctl show --max-cells`).
  uint64_t maxViewCells = uint64_t{1} << 22;
  // Elements of the operand tensor a block-load plan covers (LAYOUT_MAX_PLAN_ELEMENTS).
  uint64_t maxPlanElements = uint64_t{1} << 24;
  // Values (numbers, names, lists, attributes) of attribute text once aliases are expanded, per
  // attribute and per alias file (LAYOUT_MAX_ATTR_VALUES).
  uint64_t maxAttrValues = uint64_t{1} << 18;
  // In-dims plus out-dims of one layout JSON object (LAYOUT_MAX_DIMS).
  uint64_t maxDims = 4096;
};

// The limits in force for this process (the defaults above until setResourceLimits).
const ResourceLimits& resourceLimits();
void setResourceLimits(const ResourceLimits& limits);

// The defaults, each replaced by its environment variable where that is set. A variable that is
// not a positive decimal integer is an error naming it.
Expected<ResourceLimits> resourceLimitsFromEnvironment();

// The number of elements of a tensor of `shape`, or an error ("<what> has N elements; the limit
// is L (<how to raise it>)") when it exceeds `limit` or overflows 64 bits. Checked before any
// allocation proportional to the tensor.
Expected<uint64_t> boundedElementCount(std::span<const int64_t> shape, uint64_t limit,
                                       const std::string& what, const char* raiseHint);

// "2^22 (4194304)" for powers of two, else the decimal value: how messages print a limit.
std::string describeLimit(uint64_t limit);

} // namespace layout
