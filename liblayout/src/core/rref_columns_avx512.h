// Internal: the AVX-512 (BW, VBMI, GFNI) Gauss-Jordan kernel behind rrefInPlace64.
#pragma once

#include <cstdint>

namespace layout::detail {

// True when rrefColumnsAvx512 was compiled in, the CPU runs it and LAYOUT_NO_AVX512 is not set.
bool cpuHasAvx512Gf2();

// rrefInPlace64 for numRows <= 64: the reduced row-echelon form with lowest-bit pivots, zero rows
// last; returns the rank. Call only when cpuHasAvx512Gf2().
int rrefColumnsAvx512(uint64_t* rows, int numRows);

} // namespace layout::detail
