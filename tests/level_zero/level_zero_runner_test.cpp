// The Level Zero runner without an Intel GPU: it must say what it found and never crash. On a
// machine with a GPU the no-device assertions are skipped and the bogus module must fail instead.
#include "layout/level_zero/level_zero_runner.h"

#include <level_zero/ze_api.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace layout::level_zero {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A launch that is valid in every way the runner can check without a device.
struct DummyLaunch {
  std::vector<uint8_t> input{1, 2, 3, 4};
  std::vector<uint8_t> output = std::vector<uint8_t>(16, 0xab);
  LevelZeroLaunch launch;
  DummyLaunch(const DummyLaunch&) = delete; // launch points into this object
  DummyLaunch() {
    launch.spirv = {0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03}; // not SPIR-V
    launch.kernelName = "gemm";
    launch.buildFlags = "-ze-opt-large-register-file";
    launch.groupSize = {16, 1, 1};
    launch.groupCount = {1, 1, 1};
    launch.arguments = {
        {LevelZeroBuffer{&input}}, {LevelZeroBuffer{&output, /*readBack=*/true}}, {int32_t{4}}};
    launch.timedRepetitions = 3;
  }
};

TEST(LevelZeroRunner, ProbeReportsNoDeviceAndWhatItFound) {
  const LevelZeroOutcome probe = probeLevelZero();
  if (probe.status == LevelZeroStatus::Ran)
    GTEST_SKIP() << "a Level Zero GPU is present: " << probe.message;
  EXPECT_EQ(probe.status, LevelZeroStatus::NoDevice) << probe.message;
  EXPECT_TRUE(contains(probe.message, "Level Zero")) << probe.message;
  // Either zeInit failed (no driver) or it worked and the counts say no GPU was among the devices.
  EXPECT_TRUE(contains(probe.message, "zeInit") || contains(probe.message, "0 GPU devices"))
      << probe.message;
  EXPECT_TRUE(probe.deviceName.empty());
  EXPECT_EQ(probe.bestSeconds, 0);
}

TEST(LevelZeroRunner, ProbeIsStable) {
  const LevelZeroOutcome first = probeLevelZero(), second = probeLevelZero();
  EXPECT_EQ(first.status, second.status);
  EXPECT_EQ(first.message, second.message);
}

TEST(LevelZeroRunner, RunWithoutDeviceReportsNoDeviceAndLeavesBuffersAlone) {
  DummyLaunch dummy;
  const LevelZeroOutcome outcome = runOnLevelZero(dummy.launch);
  if (probeLevelZero().status == LevelZeroStatus::Ran) {
    // With a device the bogus module must be rejected when it is built.
    EXPECT_EQ(outcome.status, LevelZeroStatus::Failed) << outcome.message;
    EXPECT_TRUE(contains(outcome.message, "zeModuleCreate")) << outcome.message;
    return;
  }
  EXPECT_EQ(outcome.status, LevelZeroStatus::NoDevice) << outcome.message;
  EXPECT_EQ(outcome.message, probeLevelZero().message);
  EXPECT_EQ(outcome.bestSeconds, 0);
  EXPECT_EQ(outcome.meanSeconds, 0);
  EXPECT_EQ(dummy.output, std::vector<uint8_t>(16, 0xab));
}

// These are rejected before the device is looked for, so they fail the same on every machine.
TEST(LevelZeroRunner, InvalidLaunchesFailEverywhere) {
  auto failure = [](const LevelZeroLaunch& launch) {
    const LevelZeroOutcome outcome = runOnLevelZero(launch);
    EXPECT_EQ(outcome.status, LevelZeroStatus::Failed) << outcome.message;
    return outcome.message;
  };
  {
    DummyLaunch dummy;
    dummy.launch.spirv.clear();
    EXPECT_TRUE(contains(failure(dummy.launch), "SPIR-V"));
  }
  {
    DummyLaunch dummy;
    dummy.launch.kernelName.clear();
    EXPECT_TRUE(contains(failure(dummy.launch), "kernel name"));
  }
  {
    DummyLaunch dummy;
    dummy.launch.groupSize = {16, 0, 1};
    EXPECT_TRUE(contains(failure(dummy.launch), "dimension 1"));
  }
  {
    DummyLaunch dummy;
    dummy.launch.groupCount = {1, 1, 0};
    EXPECT_TRUE(contains(failure(dummy.launch), "dimension 2"));
  }
  {
    DummyLaunch dummy;
    dummy.launch.timedRepetitions = -1;
    EXPECT_TRUE(contains(failure(dummy.launch), "timedRepetitions"));
  }
  {
    DummyLaunch dummy;
    dummy.launch.arguments[1] = {LevelZeroBuffer{nullptr, true}};
    EXPECT_TRUE(contains(failure(dummy.launch), "argument 1"));
  }
  {
    DummyLaunch dummy;
    dummy.input.clear();
    EXPECT_TRUE(contains(failure(dummy.launch), "argument 0"));
  }
}

TEST(LevelZeroRunner, ResultNames) {
  EXPECT_EQ(levelZeroResultName(ZE_RESULT_SUCCESS), "ZE_RESULT_SUCCESS");
  EXPECT_EQ(levelZeroResultName(ZE_RESULT_ERROR_UNINITIALIZED), "ZE_RESULT_ERROR_UNINITIALIZED");
  EXPECT_EQ(levelZeroResultName(0x78000001), "ZE_RESULT_ERROR_UNINITIALIZED");
  EXPECT_EQ(levelZeroResultName(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE),
            "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE");
  EXPECT_EQ(levelZeroResultName(ZE_RESULT_ERROR_INVALID_KERNEL_NAME),
            "ZE_RESULT_ERROR_INVALID_KERNEL_NAME");
  EXPECT_EQ(levelZeroResultName(ZE_RESULT_ERROR_DEVICE_LOST), "ZE_RESULT_ERROR_DEVICE_LOST");
  EXPECT_EQ(levelZeroResultName(0x12345), "0x00012345");
  EXPECT_EQ(levelZeroResultName(-1), "0xffffffff");
}

} // namespace
} // namespace layout::level_zero
