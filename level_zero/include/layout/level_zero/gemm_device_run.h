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

#include "codegen/kernel_ir.h"
#include "kernels/gemm_verification.h"
#include "layout/level_zero/level_zero_runner.h"

#include <cstdint>
#include <vector>

namespace layout::level_zero {

struct GemmDeviceRun {
  LevelZeroOutcome outcome;
  kernels::GemmVerification verification; // set when outcome.status == Ran
  double tflops = 0;                      // 2 M N K / best time
};

// The Level Zero launch of a kernel on `inputs` (C is read back into inputs.memory.c):
// arguments A, B, C, K, then width / height / pitch of A, B and C; global size as the IR's
// LaunchShape; the large register file when the config asks for 256 GRF.
LevelZeroLaunch gemmLaunch(const codegen::GemmKernel& kernel, const std::vector<uint8_t>& spirv,
                           kernels::GemmInputs& inputs, int timedRepetitions,
                           bool allowSpills = false);

GemmDeviceRun runGemmOnLevelZero(const codegen::GemmKernel& kernel,
                                 const std::vector<uint8_t>& spirv, kernels::GemmInputs& inputs,
                                 int timedRepetitions = 10, bool allowSpills = false);

} // namespace layout::level_zero
