// The text report of an NVIDIA GEMM plan (cudaGemmReportText, cuda_gemm_plan.h): layouts,
// swizzles, bank proofs and the static counts.
#include "layout/codegen/cuda_gemm_plan.h"

#include <sstream>
#include <string>

namespace layout::codegen {

std::string cudaGemmReportText(const CudaGemmPlan& p) {
  const CudaGemmReport& r = p.report;
  const CudaGemmConfig& c = p.config;
  std::ostringstream o;
  if (p.sm90) {
    const CudaSm90Plan& h = p.hopper;
    o << "kernel " << p.name << ": D[" << c.m << ", " << c.n << "] (f32) = A[" << c.m << ", " << c.k
      << "] * B" << (c.transposeB ? "^T[" : "[") << (c.transposeB ? c.n : c.k) << ", "
      << (c.transposeB ? c.k : c.n) << "] (" << dataTypeTraits(c.dtype).name
      << "), sm90 wgmma.mma_async.m64n" << c.blockTile[1] << "k16\n"
      << "  launch: " << r.ctas << " CTAs of " << r.threads << " threads (a producer warpgroup "
      << "issuing TMA, " << h.consumers << " consumer warpgroups), " << r.sharedBytes
      << " bytes of dynamic shared memory (" << c.stages << " stages of " << r.stageBytes
      << "), group_m " << c.groupM << "\n"
      << "  accumulator: " << p.accumulatorEncoding << " over [" << c.blockTile[0] << ", "
      << c.blockTile[1] << "], " << r.accumulatorRegisters << " f32 registers per thread\n"
      << "  A, B stages: " << h.sharedEncoding << " = TMA SWIZZLE_128B (checked), boxes ["
      << h.boxA[1] << " x " << h.boxA[0] << "] and " << h.bBoxes << " x [" << h.boxB[1] << " x "
      << h.boxB[0] << "]" << (h.bNMajor ? " (B N-major, read transposed)" : "") << "\n"
      << "  descriptors (from the layouts): A " << h.rowGroupBytes << " bytes per 8 rows, "
      << h.kStepBytes << " per k16 step; B " << h.bStrideBytes << " per 8 rows, " << h.bKStepBytes
      << " per k16 step, leading " << h.bLeadingBytes << "\n"
      << "  per BK = 64 step: " << r.mmaPerKStep << " wgmma per consumer warpgroup, "
      << r.bytesPerKStep << " bytes per CTA; " << r.kSteps << " steps\n";
    return o.str();
  }
  o << "kernel " << p.name << ": D[" << c.m << ", " << c.n << "] (f32) = A[" << c.m << ", " << c.k
    << "] * B" << (c.transposeB ? "^T[" : "[") << (c.transposeB ? c.n : c.k) << ", "
    << (c.transposeB ? c.k : c.n) << "] (" << dataTypeTraits(c.dtype).name << "), " << c.arch
    << " mma.sync.m16n8k16\n";
  o << "  launch: " << r.ctas << " CTAs of " << r.threads << " threads, " << r.sharedBytes
    << " bytes of dynamic shared memory (" << c.stages << " stages of " << r.stageBytes
    << "), group_m " << c.groupM << "\n";
  o << "  accumulator: " << p.accumulatorEncoding << " over [" << c.blockTile[0] << ", "
    << c.blockTile[1] << "], " << r.accumulatorRegisters << " f32 registers per thread\n";
  for (const CudaOperandPlan* op : {&p.a, &p.b}) {
    o << "  " << op->name << ": " << op->encoding << " on a [" << op->tile[0] << ", " << op->tile[1]
      << "] shared tile, " << (op->ldmatrixTrans ? "ldmatrix.x4.trans" : "ldmatrix.x4")
      << "\n    shared: " << op->sharedEncoding << "\n";
    auto banks = [&](const char* what, const CudaOperandPlan::IssueBanks& b) {
      o << "    " << what << ": " << b.issues << " issues (" << b.instruction << "), "
        << b.wavefronts << " wavefronts, ideal " << b.idealWavefronts
        << (b.wavefronts == b.idealWavefronts ? " (conflict-free)" : " (CONFLICTS)") << "\n";
    };
    banks("cp.async stores", op->copyIssues);
    banks("ldmatrix reads", op->ldmatrixIssues);
  }
  o << "  per BK = " << c.kTile << " step: " << r.mmaPerKStep << " mma.sync and "
    << r.ldmatrixPerKStep << " ldmatrix.x4 per warp, " << r.cpAsyncPerKStep
    << " cp.async per thread, " << r.bytesPerKStep << " bytes per CTA; " << r.kSteps << " steps\n";
  return o.str();
}

} // namespace layout::codegen
