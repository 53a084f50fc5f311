// What the rules in the other propagation files (propagation_setup_ops.cpp: upstream's layout
// setup; propagation_vector_ops.cpp: vector data movement) share with propagation.cpp.
#pragma once

#include "layout/xegpu/propagation.h"

namespace layout::xegpu::detail {

// One DPAS instruction of a target and element type (the RFC's tables, propagation.cpp):
// M up to maxM rows, K, N.
struct DpasInstShape {
  int64_t maxM = 8, k = 16, n = 16;
};
Expected<DpasInstShape> dpasInstShape(const std::string& target, const std::string& elementType);

} // namespace layout::xegpu::detail
