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

#include "layout/codegen/block_load_probe.h"
#include "layout/codegen/kernel_ir.h"
#include "layout/kernels/gemm_verification.h"
#include "layout/opencl/opencl_runner.h"

#include <string>
#include <vector>

namespace layout::opencl {

struct GemmOpenClRun {
  OpenClOutcome outcome;
  kernels::GemmVerification verification; // set when outcome.status == Ran
  std::vector<std::string> probed;        // the load shapes probed before the GEMM
};

// A block-load probe (codegen/block_load_probe.h) run behind the prelude.
struct BlockLoadProbeRun {
  OpenClOutcome outcome; // Ran: the probe kernel ran
  std::string mismatch;  // Ran: "" when the device agrees with the model, else what differs
};
BlockLoadProbeRun runBlockLoadProbeOnOpenCl(const codegen::BlockLoadProbe& probe);

// Runs `source` (the emitted text of `kernel`, or a variant of it) on `inputs`; C is read back
// into inputs.memory.c. First, one probe per transposed load shape of the kernel
// (codegen::kernelProbeShapes): a probe that disagrees with the model fails the run before the
// GEMM. Launches larger than the prelude's scratch are refused (Failed).
GemmOpenClRun runGemmOnOpenCl(const codegen::GemmKernel& kernel, const std::string& source,
                              kernels::GemmInputs& inputs);

} // namespace layout::opencl
