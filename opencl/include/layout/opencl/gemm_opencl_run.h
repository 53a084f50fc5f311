// A generated GEMM kernel on an OpenCL device (PoCL on a CPU here): the unchanged emitted OpenCL C
// behind the prelude that implements the Intel built-ins it calls (kernels/opencl_prelude.h), the
// launch from the kernel IR, and verification against the same reference as the simulator. The
// emitted text runs, so a wrong index expression in the emitter fails here, where spirv-val
// (syntax) and the simulator (the IR) would pass.
//
//   auto kernel = layout::codegen::buildGemmKernel(config);
//   auto inputs = layout::kernels::makeGemmInputs(config, InputKind::Random, 1);
//   auto run = layout::opencl::runGemmOnOpenCl(*kernel, layout::codegen::emitOpenCl(*kernel),
//                                              inputs);
//   if (run.outcome.status == OpenClStatus::NoDevice) ...   // exit 3 in layoutctl
#pragma once

#include "codegen/kernel_ir.h"
#include "kernels/gemm_verification.h"
#include "layout/opencl/opencl_runner.h"

#include <string>

namespace layout::opencl {

struct GemmOpenClRun {
  OpenClOutcome outcome;
  kernels::GemmVerification verification; // set when outcome.status == Ran
};

// Runs `source` (the emitted text of `kernel`, or a variant of it) on `inputs`; C is read back
// into inputs.memory.c. Launches larger than the prelude's scratch are refused (Failed).
GemmOpenClRun runGemmOnOpenCl(const codegen::GemmKernel& kernel, const std::string& source,
                              kernels::GemmInputs& inputs);

} // namespace layout::opencl
