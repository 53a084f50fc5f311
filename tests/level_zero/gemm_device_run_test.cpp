// The GEMM launch built from the kernel IR must match the emitter's parameter order and the IR's
// NDRange; without a device a GEMM run reports NoDevice and leaves C and the verification alone.
#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/kernels/gemm_verification.h"
#include "layout/level_zero/gemm_device_run.h"

#include <gtest/gtest.h>

#include <variant>

namespace layout::level_zero {
namespace {

codegen::GemmConfig smallConfig() {
  codegen::GemmConfig c;
  c.m = 100;
  c.n = 72;
  c.k = 50;
  c.sgLayout = {2, 2};
  c.sgData = {16, 32};
  return c;
}

int32_t scalarAt(const LevelZeroLaunch& launch, size_t i) {
  return std::get<int32_t>(launch.arguments.at(i).value);
}

TEST(GemmDeviceRun, LaunchFollowsTheKernelIr) {
  const auto kernel = codegen::buildGemmKernel(smallConfig());
  ASSERT_TRUE(kernel) << kernel.error().message;
  auto inputs = kernels::makeGemmInputs(kernel->config, kernels::InputKind::Random, 1);
  const std::vector<uint8_t> spirv{1, 2, 3, 4};
  const LevelZeroLaunch launch = gemmLaunch(*kernel, spirv, inputs, {.timedRepetitions = 7});

  EXPECT_EQ(launch.spirv, spirv);
  EXPECT_EQ(launch.kernelName, kernel->name);
  EXPECT_EQ(launch.buildFlags, "-ze-opt-large-register-file"); // the default 256 GRF
  EXPECT_EQ(launch.timedRepetitions, 7);
  EXPECT_EQ(launch.groupSize,
            (std::array<uint32_t, 3>{static_cast<uint32_t>(kernel->launch.localSize()), 1, 1}));
  EXPECT_EQ(launch.groupCount,
            (std::array<uint32_t, 3>{static_cast<uint32_t>(kernel->launch.workgroupsN),
                                     static_cast<uint32_t>(kernel->launch.workgroupsM), 1}));

  // A, B, C (only C read back), K, then width / height / pitch of A, B and C.
  ASSERT_EQ(launch.arguments.size(), 13u);
  const std::vector<uint8_t>* hosts[] = {&inputs.memory.a, &inputs.memory.b, &inputs.memory.c};
  for (size_t i = 0; i < 3; ++i) {
    const auto& buffer = std::get<LevelZeroBuffer>(launch.arguments[i].value);
    EXPECT_EQ(buffer.host, hosts[i]) << "argument " << i;
    EXPECT_EQ(buffer.readBack, i == 2) << "argument " << i;
  }
  EXPECT_EQ(scalarAt(launch, 3), 50);
  size_t i = 4;
  for (auto m : {codegen::MatrixOperand::A, codegen::MatrixOperand::B, codegen::MatrixOperand::C}) {
    const auto s = codegen::matrixSurface(kernel->config, m);
    EXPECT_EQ(scalarAt(launch, i++), s.widthBytes);
    EXPECT_EQ(scalarAt(launch, i++), s.height);
    EXPECT_EQ(scalarAt(launch, i++), s.pitchBytes);
  }
}

TEST(GemmDeviceRun, DefaultRegisterFileHasNoBuildFlag) {
  auto config = smallConfig();
  config.grfPerThread = 128;
  const auto kernel = codegen::buildGemmKernel(config);
  ASSERT_TRUE(kernel) << kernel.error().message;
  auto inputs = kernels::makeGemmInputs(config, kernels::InputKind::Random, 1);
  EXPECT_EQ(gemmLaunch(*kernel, {1, 2, 3, 4}, inputs, {.timedRepetitions = 0}).buildFlags, "");
}

TEST(GemmDeviceRun, WithoutDeviceReportsNoDevice) {
  if (probeLevelZero().status == LevelZeroStatus::Ran)
    GTEST_SKIP() << "a Level Zero GPU is present";
  const auto kernel = codegen::buildGemmKernel(smallConfig());
  ASSERT_TRUE(kernel) << kernel.error().message;
  auto inputs = kernels::makeGemmInputs(kernel->config, kernels::InputKind::Random, 1);
  const auto c = inputs.memory.c;
  const GemmDeviceRun run =
      runGemmOnLevelZero(*kernel, {1, 2, 3, 4}, inputs, {.timedRepetitions = 1});
  EXPECT_EQ(run.outcome.status, LevelZeroStatus::NoDevice) << run.outcome.message;
  EXPECT_EQ(run.outcome.message, probeLevelZero().message);
  EXPECT_FALSE(run.verification.passed);
  EXPECT_EQ(run.verification.checked, 0);
  EXPECT_EQ(run.tflops, 0);
  EXPECT_EQ(inputs.memory.c, c);
}

} // namespace
} // namespace layout::level_zero
