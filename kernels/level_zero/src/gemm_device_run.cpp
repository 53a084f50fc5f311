// GEMM kernels on Level Zero: launch construction, the lane-order probes, verification, rate.
#include "layout/level_zero/gemm_device_run.h"

#include "layout/codegen/opencl_emitter.h"

#include <unistd.h>

#include <filesystem>

namespace layout::level_zero {

namespace {

DeviceRequirements gemmRequirements(const codegen::GemmKernel& kernel) {
  DeviceRequirements need;
  need.arch = kernel.config.arch;
  need.dpas = true;
  need.blockIo2d = true;
  return need;
}

LevelZeroOutcome failed(std::string message) {
  LevelZeroOutcome o;
  o.status = LevelZeroStatus::Failed;
  o.message = std::move(message);
  return o;
}

} // namespace

LevelZeroLaunch gemmLaunch(const codegen::GemmKernel& kernel, const std::vector<uint8_t>& spirv,
                           kernels::GemmInputs& inputs, const GemmDeviceOptions& options) {
  LevelZeroLaunch launch;
  launch.spirv = spirv;
  launch.kernelName = kernel.name;
  launch.buildFlags = codegen::kernelBuildOptions(kernel.config).levelZero;
  launch.groupSize = {static_cast<uint32_t>(kernel.launch.localSize()), 1, 1};
  launch.groupCount = {static_cast<uint32_t>(kernel.launch.workgroupsN),
                       static_cast<uint32_t>(kernel.launch.workgroupsM), 1};
  launch.timedRepetitions = options.timedRepetitions;
  launch.allowSpills = options.allowSpills;
  launch.deviceOrdinal = options.deviceOrdinal;
  launch.requirements = gemmRequirements(kernel);
  launch.arguments = {{LevelZeroBuffer{&inputs.memory.a, false}},
                      {LevelZeroBuffer{&inputs.memory.b, false}},
                      {LevelZeroBuffer{&inputs.memory.c, true}}};
  for (int32_t v : codegen::gemmScalarArguments(kernel.config)) launch.arguments.push_back({v});
  return launch;
}

BlockLoadProbeRun runBlockLoadProbeOnLevelZero(const codegen::BlockLoadProbe& probe,
                                               const std::vector<uint8_t>& spirv,
                                               const GemmDeviceOptions& options) {
  std::vector<uint8_t> input = probe.input, output(probe.outputBytes(), 0);
  LevelZeroLaunch launch;
  launch.spirv = spirv;
  launch.kernelName = probe.kernelName;
  launch.groupSize = {16, 1, 1};
  launch.groupCount = {1, 1, 1};
  launch.timedRepetitions = 0;
  launch.deviceOrdinal = options.deviceOrdinal;
  launch.requirements.blockIo2d = true;
  launch.arguments = {{LevelZeroBuffer{&input, false}},
                      {static_cast<int32_t>(probe.surface.widthBytes)},
                      {static_cast<int32_t>(probe.surface.height)},
                      {static_cast<int32_t>(probe.surface.pitchBytes)},
                      {LevelZeroBuffer{&output, true}}};
  BlockLoadProbeRun run;
  run.outcome = runOnLevelZero(launch);
  if (run.outcome.status == LevelZeroStatus::Ran)
    if (auto ok = codegen::checkBlockLoadProbe(probe, output); !ok)
      run.mismatch = ok.error().message;
  return run;
}

GemmDeviceRun runGemmOnLevelZero(const codegen::GemmKernel& kernel,
                                 const std::vector<uint8_t>& spirv, kernels::GemmInputs& inputs,
                                 const GemmDeviceOptions& options) {
  GemmDeviceRun run;
  const auto shapes = codegen::kernelProbeShapes(kernel);
  if (!shapes.empty()) {
    // Nothing to probe without a device: say so before compiling anything.
    if (LevelZeroOutcome found = probeLevelZero(options.deviceOrdinal);
        found.status != LevelZeroStatus::Ran) {
      run.outcome = found;
      return run;
    }
    auto target = codegen::checkGemmConfig(kernel.config);
    if (!target) {
      run.outcome = failed(target.error().message);
      return run;
    }
    const auto dir = std::filesystem::temp_directory_path() /
                     ("layout-probes-" + std::to_string(static_cast<long>(getpid())));
    struct RemovedAtExit {
      std::filesystem::path path;
      ~RemovedAtExit() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
      }
    } scratch{dir};
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    for (const auto& shape : shapes) {
      auto probe = codegen::buildBlockLoadProbe(shape, target->blockIo);
      if (!probe) {
        run.outcome = failed(probe.error().message);
        return run;
      }
      auto probeSpirv = codegen::compileToSpirv(probe->source, probe->kernelName, dir.string());
      if (!probeSpirv) {
        run.outcome = failed("probe " + probe->kernelName + ": " + probeSpirv.error().message);
        return run;
      }
      BlockLoadProbeRun checked = runBlockLoadProbeOnLevelZero(*probe, *probeSpirv, options);
      if (checked.outcome.status != LevelZeroStatus::Ran) {
        run.outcome = checked.outcome;
        run.outcome.message = "probe " + probe->kernelName + ": " + run.outcome.message;
        return run;
      }
      if (!checked.mismatch.empty()) {
        run.outcome = failed(checked.mismatch);
        return run;
      }
      run.probed.push_back(intel::blockShapeName(shape));
    }
  }
  run.outcome = runOnLevelZero(gemmLaunch(kernel, spirv, inputs, options));
  if (run.outcome.status != LevelZeroStatus::Ran) return run;
  // The hardware documents no rounding mode: the bound of any faithful rounding.
  run.verification = kernels::verifyGemm(kernel.config, inputs, kernels::kFaithfulRoundingUnit);
  if (run.outcome.bestSeconds > 0)
    run.tflops = kernel.report.flops / run.outcome.bestSeconds / 1e12;
  return run;
}

} // namespace layout::level_zero
