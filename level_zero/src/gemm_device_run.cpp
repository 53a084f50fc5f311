// GEMM kernels on Level Zero: launch construction, verification, rate.
#include "layout/level_zero/gemm_device_run.h"

namespace layout::level_zero {

LevelZeroLaunch gemmLaunch(const codegen::GemmKernel& kernel, const std::vector<uint8_t>& spirv,
                           kernels::GemmInputs& inputs, int timedRepetitions, bool allowSpills) {
  LevelZeroLaunch launch;
  launch.spirv = spirv;
  launch.kernelName = kernel.name;
  launch.buildFlags = codegen::kernelBuildOptions(kernel.config).levelZero;
  launch.groupSize = {static_cast<uint32_t>(kernel.launch.localSize()), 1, 1};
  launch.groupCount = {static_cast<uint32_t>(kernel.launch.workgroupsN),
                       static_cast<uint32_t>(kernel.launch.workgroupsM), 1};
  launch.timedRepetitions = timedRepetitions;
  launch.allowSpills = allowSpills;
  launch.arguments = {{LevelZeroBuffer{&inputs.memory.a, false}},
                      {LevelZeroBuffer{&inputs.memory.b, false}},
                      {LevelZeroBuffer{&inputs.memory.c, true}}};
  for (int32_t v : codegen::gemmScalarArguments(kernel.config)) launch.arguments.push_back({v});
  return launch;
}

GemmDeviceRun runGemmOnLevelZero(const codegen::GemmKernel& kernel,
                                 const std::vector<uint8_t>& spirv, kernels::GemmInputs& inputs,
                                 int timedRepetitions, bool allowSpills) {
  GemmDeviceRun run;
  run.outcome = runOnLevelZero(gemmLaunch(kernel, spirv, inputs, timedRepetitions, allowSpills));
  if (run.outcome.status != LevelZeroStatus::Ran) return run;
  // The hardware documents no rounding mode: the bound of any faithful rounding.
  run.verification = kernels::verifyGemm(kernel.config, inputs, kernels::kFaithfulRoundingUnit);
  if (run.outcome.bestSeconds > 0)
    run.tflops = kernel.report.flops / run.outcome.bestSeconds / 1e12;
  return run;
}

} // namespace layout::level_zero
