// A generated GEMM kernel on an Intel GPU through Level Zero: the launch built from the kernel IR
// (arguments in the emitter's order, the IR's NDRange), verification of the result against the
// same reference as the simulator, and the achieved rate.
//
//   auto kernel = layout::codegen::buildGemmKernel(config);
//   auto spirv = layout::codegen::compileToSpirv(layout::codegen::emitOpenCl(*kernel), ...);
//   auto inputs = layout::kernels::makeGemmInputs(config, InputKind::Random, 1);
//   auto run = layout::level_zero::runGemmOnLevelZero(*kernel, *spirv, inputs);
//   if (run.outcome.status == LevelZeroStatus::NoDevice) ...   // exit 3 in layoutctl
#pragma once

#include "layout/codegen/block_load_probe.h"
#include "layout/codegen/kernel_ir.h"
#include "layout/kernels/gemm_verification.h"
#include "layout/level_zero/level_zero_runner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace layout::level_zero {

struct GemmDeviceRun {
  LevelZeroOutcome outcome;
  kernels::GemmVerification verification; // set when outcome.status == Ran
  double tflops = 0;                      // 2 M N K / best time
  std::vector<std::string> probed;        // the load shapes probed before the GEMM
};

struct GemmDeviceOptions {
  int timedRepetitions = 10; // launches timed after the warm-up
  bool allowSpills = false;  // run a kernel that spills registers (refused otherwise)
  uint32_t deviceOrdinal = 0;
};

// The Level Zero launch of a kernel on `inputs` (C is read back into inputs.memory.c):
// arguments A, B, C, K, then width / height / pitch of A, B and C; global size as the IR's
// LaunchShape; the large register file when the config asks for 256 GRF; the device must be the
// config's arch (IP version) with DPAS and 2D block I/O.
LevelZeroLaunch gemmLaunch(const codegen::GemmKernel& kernel, const std::vector<uint8_t>& spirv,
                           kernels::GemmInputs& inputs, const GemmDeviceOptions& options = {});

// A block-load probe (codegen/block_load_probe.h) on the device, from the probe's SPIR-V.
struct BlockLoadProbeRun {
  LevelZeroOutcome outcome; // Ran: the probe kernel ran
  std::string mismatch;     // Ran: "" when the device agrees with the model, else what differs
};
BlockLoadProbeRun runBlockLoadProbeOnLevelZero(const codegen::BlockLoadProbe& probe,
                                               const std::vector<uint8_t>& spirv,
                                               const GemmDeviceOptions& options = {});

// Runs the kernel's probes first (one per transposed load shape, codegen::kernelProbeShapes,
// compiled to SPIR-V in a temporary directory): a probe that disagrees with the model fails the
// run before the GEMM. Then the GEMM, verified against the float64 reference.
GemmDeviceRun runGemmOnLevelZero(const codegen::GemmKernel& kernel,
                                 const std::vector<uint8_t>& spirv, kernels::GemmInputs& inputs,
                                 const GemmDeviceOptions& options = {});

} // namespace layout::level_zero
