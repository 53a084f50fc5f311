/// \file
/// Sizes of layouts wider than 64 bits, exactly. A layout's total in or out size is 2^(total bits),
/// which for the wide layouts this library supports (100+ bits) does not fit in an integer type;
/// Boost.Multiprecision's cpp_int holds it.
///
/// \code
///   boost::multiprecision::cpp_int n = layout::totalOutDimSizeExact(wide);   // 2^120
///   std::string text = n.str();   // "1329227995784915872903807060280344576"
/// \endcode
#pragma once

#include "layout/core/linear_layout.h"

#include <boost/multiprecision/cpp_int.hpp>

namespace layout {

/// 2^log2 (log2 >= 0), exactly.
boost::multiprecision::cpp_int exactPowerOfTwo(int log2);

/// The product of the out-dim (in-dim) sizes, exactly.
boost::multiprecision::cpp_int totalOutDimSizeExact(const LinearLayout& layout);
boost::multiprecision::cpp_int totalInDimSizeExact(const LinearLayout& layout);

} // namespace layout
