// GEMM kernels on OpenCL through the Intel built-in prelude (gemm_opencl_run.h).
#include "layout/opencl/gemm_opencl_run.h"

#include "codegen/gemm_config.h"
#include "kernels/opencl_prelude.h"

namespace layout::opencl {

GemmOpenClRun runGemmOnOpenCl(const codegen::GemmKernel& kernel, const std::string& source,
                              kernels::GemmInputs& inputs) {
  GemmOpenClRun run;
  auto prelude = kernels::openClIntelPrelude(source);
  if (!prelude) {
    run.outcome.status = OpenClStatus::Failed;
    run.outcome.message = "prelude: " + prelude.error().message;
    return run;
  }
  const size_t local = size_t(kernel.launch.localSize());
  const size_t groupsN = size_t(kernel.launch.workgroupsN);
  const size_t groupsM = size_t(kernel.launch.workgroupsM);
  const double workItems = double(local) * double(groupsN) * double(groupsM);
  if (workItems > double(kernels::kOpenClPreludeMaxWorkItems)) {
    run.outcome.status = OpenClStatus::Failed;
    run.outcome.message = "the launch has " + std::to_string(int64_t(workItems)) +
                          " work-items, more than the " +
                          std::to_string(kernels::kOpenClPreludeMaxWorkItems) +
                          " the OpenCL prelude's subgroup emulation holds: use a smaller M or N";
    return run;
  }
  OpenClLaunch launch;
  // The prelude first, then the emitted text unchanged; #line keeps the build log's line numbers
  // those of the emitted file.
  launch.source = *prelude + "\n#line 1\n" + source;
  launch.buildOptions = std::string(kernels::kOpenClPreludeBuildOptions);
  launch.kernelName = kernel.name;
  launch.globalSize = {local * groupsN, groupsM, 1};
  launch.localSize = {local, 1, 1};
  launch.arguments = {{OpenClBuffer{&inputs.memory.a, false}},
                      {OpenClBuffer{&inputs.memory.b, false}},
                      {OpenClBuffer{&inputs.memory.c, true}}};
  for (int32_t v : codegen::gemmScalarArguments(kernel.config)) launch.arguments.push_back({v});
  run.outcome = runOnOpenCl(launch);
  if (run.outcome.status == OpenClStatus::Ran)
    run.verification = kernels::verifyGemm(kernel.config, inputs);
  return run;
}

} // namespace layout::opencl
