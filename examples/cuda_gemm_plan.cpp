// What does the NVIDIA GEMM kernel built from these layouts look like, and is its shared memory
// free of bank conflicts? Builds the sm80 plan (mma.sync m16n8k16 fed by ldmatrix from shared
// memory filled by cp.async) for one configuration, prints its key facts (tiles, the layouts'
// encodings, the synthesized swizzles and their bank-conflict proofs, the launch), and writes the
// CUDA C++ source. No GPU is needed: the plan and the text are pure computation (compile the file
// with nvcc or NVRTC, or run it with `layoutctl gemm --runner cuda` on a machine with one).
//
//   ./build/examples/cuda_gemm_plan [OUT.cu]   # default: ./<kernel name>.cu
#include "layout/codegen/cuda_gemm_plan.h"
#include "layout/codegen/cuda_emitter.h"

#include <fstream>
#include <iostream>
#include <string>

using namespace layout;
using namespace layout::codegen;

namespace {

void printOperand(const CudaOperandPlan& op) {
  std::cout << "operand " << op.name << ": shared tile " << op.tile[0] << " x " << op.tile[1]
            << (op.transposed ? " (transposed)" : "") << ", " << op.stageElements
            << " elements per stage\n";
  std::cout << "  register layout: " << op.encoding << "\n";
  // The swizzle: the shared layout (offset -> tile coordinate) that swizzle synthesis picked so
  // that both the cp.async stores and the ldmatrix loads meet their bank lower bound.
  std::cout << "  shared layout:   " << op.sharedEncoding << "\n";
  // The proofs: every address the kernel issues, enumerated warp by warp. wavefronts == ideal
  // means no bank conflict anywhere.
  for (const auto* issues : {&op.copyIssues, &op.ldmatrixIssues})
    std::cout << "  " << issues->instruction << ": " << issues->issues << " issues, "
              << issues->wavefronts << " wavefronts (ideal " << issues->idealWavefronts << "), "
              << issues->maxWays << "-way at worst\n";
  std::cout << "  ldmatrix" << (op.ldmatrixTrans ? ".trans" : "")
            << " conflict wavefronts: " << op.ldmatrixBanks.conflictWavefronts()
            << ", cp.async conflict wavefronts: " << op.copyBanks.conflictWavefronts() << "\n";
}

} // namespace

int main(int argc, char** argv) {
  // 1. The configuration: every field has a default (cuda_gemm_plan.h); set the ones you need.
  CudaGemmConfig config;
  config.m = 1024;
  config.n = 1024;
  config.k = 512;
  config.dtype = GemmDataType::BF16; // A and B bf16, f32 accumulator and C
  config.arch = "sm80";              // mma.sync + ldmatrix + cp.async
  config.blockTile = {128, 128};     // BM x BN of one CTA
  config.warps = {2, 2};             // warpsPerCTA of the accumulator layout: 64 x 64 per warp
  config.kTile = 32;                 // BK of one pipeline stage
  config.stages = 4;                 // cp.async stages in flight

  // 2. The plan: every layout, swizzle, offset and register index of the kernel. A configuration
  //    that breaks a rule is an error naming the field and the rule.
  auto plan = buildCudaGemmPlan(config);
  if (!plan) {
    std::cerr << "error: " << plan.error().message << "\n";
    return 1;
  }
  const CudaGemmReport& r = plan->report;
  std::cout << "kernel: " << plan->name << "\n";
  std::cout << "accumulator: " << plan->accumulatorEncoding << "\n";
  std::cout << "launch: " << r.ctas << " CTAs x " << r.threads << " threads, " << r.sharedBytes
            << " bytes of shared memory (" << config.stages << " stages of " << r.stageBytes
            << " bytes)\n";
  std::cout << "per thread: " << r.accumulatorRegisters << " f32 accumulators, "
            << r.fragmentRegisters << " fragment registers per k16 step\n";
  std::cout << "per warp and BK step: " << r.mmaPerKStep << " mma.sync, " << r.ldmatrixPerKStep
            << " ldmatrix.x4; per thread: " << r.cpAsyncPerKStep << " cp.async; " << r.kSteps
            << " BK steps\n";
  printOperand(plan->a);
  printOperand(plan->b);
  // The whole report (layouts, per-bit offsets, bank tables): cudaGemmReportText(*plan).

  // 3. The CUDA source: one extern "C" __global__ function named plan->name.
  const std::string path = argc > 1 ? argv[1] : plan->name + ".cu";
  std::ofstream out(path);
  out << emitCuda(*plan);
  if (!out.flush()) {
    std::cerr << "error: cannot write " << path << "\n";
    return 1;
  }
  std::cout << "wrote " << path << "\n";
  return 0;
}
