// Pieces the sm80 and sm90 CUDA emitters share: XORs of per-bit constants, and the epilogue that
// stores the accumulator at its layout's coordinates.
#pragma once

#include "layout/codegen/cuda_gemm_plan.h"

#include <sstream>
#include <string>
#include <vector>

namespace layout::codegen {

// "(SEL(lane, 0, 8u) ^ SEL(lane, 2, 64u))": the XOR of bits[b] for the set bits b of `var`
// ("0u" when every constant is 0).
template <class Container> std::string xorExpr(const std::string& var, const Container& bits) {
  std::string s;
  for (size_t b = 0; b < bits.size(); ++b) {
    if (bits[b] == 0) continue;
    if (!s.empty()) s += " ^ ";
    s += "SEL(" + var + ", " + std::to_string(b) + ", " + std::to_string(bits[b]) + "u)";
  }
  return s.empty() ? "0u" : "(" + s + ")";
}

// One axis (0 = row, 1 = column) of per-bit coordinates.
template <class Container> std::vector<int64_t> axis(const Container& coords, int a) {
  std::vector<int64_t> v;
  for (const TileCoord& c : coords) v.push_back(c[static_cast<size_t>(a)]);
  return v;
}

// The epilogue body: with `lane` and `warp` (the accumulator layout's warp) defined, store every
// accumulator register pair r, r + 1 (adjacent columns) as one float2 at row0 / col0 plus its
// layout coordinate, within M x N.
void emitAccumulatorStores(std::ostringstream& o, const CudaGemmPlan& p);

} // namespace layout::codegen
