#include "layout/core/resource_limits.h"

#include <bit>
#include <cstdlib>

namespace layout {

namespace {

ResourceLimits& current() {
  static ResourceLimits limits;
  return limits;
}

// A positive decimal integer of at most 19 digits, or an error naming the variable.
Expected<uint64_t> readPositive(const char* variable, const char* text) {
  std::string s(text);
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
    return makeError(std::string(variable) + ": expected a positive decimal integer, got '" +
                     s.substr(0, 40) + "'");
  uint64_t v = std::stoull(s);
  if (v == 0) return makeError(std::string(variable) + ": must be at least 1");
  return v;
}

} // namespace

const ResourceLimits& resourceLimits() {
  return current();
}

void setResourceLimits(const ResourceLimits& limits) {
  current() = limits;
}

Expected<ResourceLimits> resourceLimitsFromEnvironment() {
  ResourceLimits limits;
  struct Variable {
    const char* name;
    uint64_t ResourceLimits::*field;
  };
  static constexpr Variable kVariables[] = {
      {"LAYOUT_MAX_INPUT_BYTES", &ResourceLimits::maxInputBytes},
      {"LAYOUT_MAX_LINE_BYTES", &ResourceLimits::maxLineBytes},
      {"LAYOUT_MAX_VIEW_CELLS", &ResourceLimits::maxViewCells},
      {"LAYOUT_MAX_PLAN_ELEMENTS", &ResourceLimits::maxPlanElements},
      {"LAYOUT_MAX_ATTR_VALUES", &ResourceLimits::maxAttrValues},
      {"LAYOUT_MAX_DIMS", &ResourceLimits::maxDims},
      {"LAYOUT_MAX_JSON_DEPTH", &ResourceLimits::maxJsonDepth},
      {"LAYOUT_MAX_JSON_VALUES", &ResourceLimits::maxJsonValues},
      {"LAYOUT_MAX_LAYOUT_BITS", &ResourceLimits::maxLayoutBits},
      {"LAYOUT_MAX_DIM_NAMES", &ResourceLimits::maxDimNames},
      {"LAYOUT_MAX_DIM_NAME_BYTES", &ResourceLimits::maxDimNameBytes},
      {"LAYOUT_MAX_GEMM_MACS", &ResourceLimits::maxGemmMacs},
      {"LAYOUT_MAX_MLIR_OPS", &ResourceLimits::maxMlirOps},
      {"LAYOUT_MAX_MLIR_NESTING", &ResourceLimits::maxMlirNesting},
  };
  for (const Variable& v : kVariables) {
    const char* text = std::getenv(v.name);
    if (!text) continue;
    LAYOUT_TRY_ASSIGN(value, readPositive(v.name, text));
    limits.*v.field = value;
  }
  return limits;
}

std::string describeLimit(uint64_t limit) {
  if (std::has_single_bit(limit) && limit >= 1024)
    return "2^" + std::to_string(std::countr_zero(limit)) + " (" + std::to_string(limit) + ")";
  return std::to_string(limit);
}

Expected<uint64_t> boundedElementCount(std::span<const int64_t> shape, uint64_t limit,
                                       const std::string& what, const char* raiseHint) {
  // Multiply in 128 bits: a product over 64 bits is over every limit, and is reported as such.
  unsigned __int128 total = 1;
  bool over = false;
  for (int64_t s : shape) {
    if (s <= 0) return makeError(what + ": dim sizes must be positive, got " + std::to_string(s));
    total *= uint64_t(s);
    if (total > limit) over = true;
    if (total >> 64) break;
  }
  if (!over) return uint64_t(total);
  std::string count = (total >> 64) ? std::string("2^64 or more") : std::to_string(uint64_t(total));
  return makeError(what + " has " + count + " elements; the limit is " + describeLimit(limit) +
                   " (" + raiseHint + ")");
}

} // namespace layout
