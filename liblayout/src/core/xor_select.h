// Internal: the kernel of `apply` — the XOR of the columns picked by the set bits of a word.
#pragma once

#include <cstdint>

namespace layout::detail {

// True when the CPU runs AVX-512F code and LAYOUT_NO_AVX512 is not set (checked once).
bool cpuHasAvx512();

// XOR of cols[i] over the set bits i of `selector` (i < n <= 64).
uint64_t xorSelect(const uint64_t* cols, int n, uint64_t selector);

} // namespace layout::detail
