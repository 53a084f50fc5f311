// The accumulator epilogue both CUDA emitters write.
#include "cuda_emit_common.h"

namespace layout::codegen {

void emitAccumulatorStores(std::ostringstream& o, const CudaGemmPlan& p) {
  o << "  // Register r of this lane and warp is at the accumulator layout's coordinate: register\n"
    << "  // part XOR lane part XOR warp part.\n"
    << "  const int cRow = (int)(" << xorExpr("lane", axis(p.accumulatorLaneBit, 0)) << " ^ "
    << xorExpr("warp", axis(p.accumulatorWarpBit, 0)) << ");\n"
    << "  const int cCol = (int)(" << xorExpr("lane", axis(p.accumulatorLaneBit, 1)) << " ^ "
    << xorExpr("warp", axis(p.accumulatorWarpBit, 1)) << ");\n";
  for (size_t reg = 0; reg < p.accumulatorRegister.size(); reg += 2) {
    const TileCoord at = p.accumulatorRegister[reg];
    o << "  {\n    const int r = row0 + (cRow ^ " << at[0] << "), c = col0 + (cCol ^ " << at[1]
      << ");\n"
      << "    if (r < M) {\n"
      << "      float* d = C + (size_t)r * ldc + c;\n"
      << "      if (c + 1 < N) *reinterpret_cast<float2*>(d) = make_float2(acc[" << reg << "], acc["
      << reg + 1 << "]);\n"
      << "      else if (c < N) d[0] = acc[" << reg << "];\n"
      << "    }\n  }\n";
  }
}

} // namespace layout::codegen
