#include "layout/core/exact_size.h"

namespace layout {

// GCC 12 reports a false -Wmaybe-uninitialized inside cpp_int's limb storage (the value is
// constructed as 1 before the shift); the warning is about Boost's code, not this use.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
boost::multiprecision::cpp_int exactPowerOfTwo(int log2) {
  boost::multiprecision::cpp_int one = 1;
  return one << log2;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

boost::multiprecision::cpp_int totalOutDimSizeExact(const LinearLayout& layout) {
  return exactPowerOfTwo(layout.totalOutDimSizeLog2());
}

boost::multiprecision::cpp_int totalInDimSizeExact(const LinearLayout& layout) {
  return exactPowerOfTwo(layout.totalInDimSizeLog2());
}

} // namespace layout
