/// \file
/// Wide bit rows for the C++ API: the layout matrix and the free input bits of a layout as
/// boost::dynamic_bitset, whatever the number of bits (a layout past 64 input bits has rows no
/// machine word holds). The algebra keeps its packed 64-bit words; these are copies for callers.
///
/// \code
///   std::vector<layout::BitRow> m = layout::layoutMatrixRows(l);  // one row per output bit
///   bool hit = m[r][c];                                           // out bit r depends on in bit c
///   layout::BitRow free = layout::freeInputBits(l);               // in bits that change nothing
///   std::cout << free.count() << " free bits\n";
/// \endcode
#pragma once

#include <boost/dynamic_bitset.hpp>

#include <cstdint>
#include <vector>

namespace layout {

class LinearLayout;

/// Bit i is index i: to_string() prints the highest bit first, as dynamic_bitset does.
using BitRow = boost::dynamic_bitset<uint64_t>;

/// Triton's getMatrix without its 64-bit limit: one row per output bit (out-dim by out-dim, LSB
/// first), one column per input bit (in-dim by in-dim, LSB first); the same bits as layoutMatrix
/// (layout/core/gf2_matrix.h) returns packed.
std::vector<BitRow> layoutMatrixRows(const LinearLayout& l);

/// One bit per input bit (in-dim by in-dim, LSB first): set where the bit does not change the
/// output (the non-pivot columns; freeVariableMasks per in-dim, concatenated).
BitRow freeInputBits(const LinearLayout& l);

} // namespace layout
