// GEMM kernels on OpenCL through the Intel built-in prelude (gemm_opencl_run.h).
#include "layout/opencl/gemm_opencl_run.h"

#include "layout/codegen/gemm_config.h"
#include "layout/kernels/opencl_prelude.h"

namespace layout::opencl {

BlockLoadProbeRun runBlockLoadProbeOnOpenCl(const codegen::BlockLoadProbe& probe) {
  BlockLoadProbeRun run;
  auto prelude = kernels::openClIntelPrelude(probe.source);
  if (!prelude) {
    run.outcome.status = OpenClStatus::Failed;
    run.outcome.message = "prelude: " + prelude.error().message;
    return run;
  }
  std::vector<uint8_t> input = probe.input, output(probe.outputBytes(), 0);
  OpenClLaunch launch;
  launch.source = *prelude + "\n#line 1\n" + probe.source;
  launch.buildOptions = std::string(kernels::kOpenClPreludeBuildOptions);
  launch.kernelName = probe.kernelName;
  launch.globalSize = {16, 1, 1};
  launch.localSize = {16, 1, 1};
  launch.arguments = {{OpenClBuffer{&input, false}},
                      {static_cast<int32_t>(probe.surface.widthBytes)},
                      {static_cast<int32_t>(probe.surface.height)},
                      {static_cast<int32_t>(probe.surface.pitchBytes)},
                      {OpenClBuffer{&output, true}}};
  run.outcome = runOnOpenCl(launch);
  if (run.outcome.status == OpenClStatus::Ran)
    if (auto ok = codegen::checkBlockLoadProbe(probe, output); !ok)
      run.mismatch = ok.error().message;
  return run;
}

GemmOpenClRun runGemmOnOpenCl(const codegen::GemmKernel& kernel, const std::string& source,
                              kernels::GemmInputs& inputs) {
  GemmOpenClRun run;
  auto target = codegen::checkGemmConfig(kernel.config);
  if (!target) {
    run.outcome.status = OpenClStatus::Failed;
    run.outcome.message = target.error().message;
    return run;
  }
  for (const auto& shape : codegen::kernelProbeShapes(kernel)) {
    auto probe = codegen::buildBlockLoadProbe(shape, target->blockIo);
    if (!probe) {
      run.outcome.status = OpenClStatus::Failed;
      run.outcome.message = probe.error().message;
      return run;
    }
    BlockLoadProbeRun checked = runBlockLoadProbeOnOpenCl(*probe);
    if (checked.outcome.status != OpenClStatus::Ran) {
      run.outcome = checked.outcome;
      return run;
    }
    if (!checked.mismatch.empty()) {
      run.outcome.status = OpenClStatus::Failed;
      run.outcome.message = checked.mismatch;
      return run;
    }
    run.probed.push_back(intel::blockShapeName(shape));
  }
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
