// The Level Zero runner against the fake driver (fake_ze_loader.cpp, named by
// LAYOUT_LEVEL_ZERO_LOADER; ctest runs this binary once per fake). What a machine without an Intel
// GPU can show: the initialisation path, the device ordinal, that each requirement is checked
// before anything is created and named when unmet, and that a transpose-B GEMM runs its lane-order
// probe before the GEMM. The fake's zeContextCreate always fails, so a launch that passes every
// check stops there, and the message shows how far it got.
#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/codegen/opencl_emitter.h"
#include "layout/level_zero/gemm_device_run.h"
#include "layout/level_zero/level_zero_runner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace layout::level_zero {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The fake's configuration for one test; every variable is reset first.
void configure(std::vector<std::pair<const char*, const char*>> vars) {
  for (const char* name : {"FAKE_ZE_GPUS", "FAKE_ZE_NAME", "FAKE_ZE_IP", "FAKE_ZE_DPAS",
                           "FAKE_ZE_BLOCK_IO", "FAKE_ZE_SUBGROUPS", "FAKE_ZE_MAX_GROUP"})
    unsetenv(name);
  for (const auto& [name, value] : vars) setenv(name, value, 1);
}

// IP versions as compute-runtime encodes them (architecture << 22 | release << 14 | revision).
constexpr const char* kPvcC0 = "0x030f0007";  // 12.60.7
constexpr const char* kBmgG21 = "0x05004000"; // 20.1.0

struct Launch {
  std::vector<uint8_t> input{1, 2, 3, 4}, output = std::vector<uint8_t>(64, 0);
  LevelZeroLaunch launch;
  Launch(const Launch&) = delete;
  Launch() {
    launch.spirv = {1, 2, 3, 4};
    launch.kernelName = "gemm";
    launch.groupSize = {512, 1, 1};
    launch.groupCount = {1, 1, 1};
    launch.arguments = {{LevelZeroBuffer{&input}}, {LevelZeroBuffer{&output, true}}};
    launch.requirements.arch = "pvc";
    launch.requirements.dpas = true;
    launch.requirements.blockIo2d = true;
  }
};

const std::string kStoppedAtContext =
    "Level Zero: zeContextCreate failed (ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)";

TEST(FakeLevelZeroDriver, ProbeInitialisesAndSkipsTheCpuDevice) {
  const char* expected = std::getenv("FAKE_EXPECT_INIT");
  ASSERT_NE(expected, nullptr) << "run through ctest (it names the fake loader)";
  configure({});
  const LevelZeroOutcome probe = probeLevelZero();
  ASSERT_EQ(probe.status, LevelZeroStatus::Ran) << probe.message;
  EXPECT_TRUE(contains(probe.message, std::string("Level Zero (") + expected)) << probe.message;
  EXPECT_TRUE(contains(probe.message, "1 driver, 2 devices, 1 GPU device; using GPU 0, "
                                      "Fake Intel GPU 0"))
      << probe.message;
  EXPECT_EQ(probe.deviceName, "Fake Intel GPU 0");
}

TEST(FakeLevelZeroDriver, DeviceOrdinalPicksAmongGpus) {
  configure({{"FAKE_ZE_GPUS", "3"}});
  EXPECT_EQ(probeLevelZero(2).deviceName, "Fake Intel GPU 2");
  const LevelZeroOutcome past = probeLevelZero(3);
  EXPECT_EQ(past.status, LevelZeroStatus::Failed);
  EXPECT_EQ(past.message, "device ordinal 3: there are 1 driver, 4 devices, 3 GPU devices "
                          "(ordinals 0..2)");
  configure({{"FAKE_ZE_GPUS", "0"}});
  EXPECT_EQ(probeLevelZero().status, LevelZeroStatus::NoDevice);
}

TEST(FakeLevelZeroDriver, EveryRequirementIsCheckedBeforeAnythingIsCreated) {
  struct Case {
    std::vector<std::pair<const char*, const char*>> fake;
    std::string message; // what the run fails with
  };
  const std::vector<Case> cases = {
      {{{"FAKE_ZE_IP", kBmgG21}, {"FAKE_ZE_DPAS", "1"}, {"FAKE_ZE_BLOCK_IO", "1"}},
       "Level Zero: Fake Intel GPU 0: the device is IP 20.1.0 (bmg), the kernel was built for "
       "--arch pvc (IP 12.60): build it for the device's target"},
      {{{"FAKE_ZE_IP", kPvcC0}, {"FAKE_ZE_DPAS", "0"}, {"FAKE_ZE_BLOCK_IO", "1"}},
       "the device has no DPAS"},
      {{{"FAKE_ZE_IP", kPvcC0}, {"FAKE_ZE_DPAS", "1"}, {"FAKE_ZE_BLOCK_IO", "load"}},
       "the device has no 2D block stores"},
      {{{"FAKE_ZE_IP", kPvcC0}, {"FAKE_ZE_DPAS", "1"}, {"FAKE_ZE_BLOCK_IO", "0"}},
       "the device has no 2D block loads"},
      {{{"FAKE_ZE_SUBGROUPS", "8,32"}}, "the device has no subgroups of 16 (it has 8, 32)"},
      {{{"FAKE_ZE_MAX_GROUP", "256"}}, "the work-group of 512 work-items exceeds the device's 256"},
      // Everything met: the run goes on to create a context, where the fake stops it.
      {{{"FAKE_ZE_IP", kPvcC0}, {"FAKE_ZE_DPAS", "1"}, {"FAKE_ZE_BLOCK_IO", "1"}},
       kStoppedAtContext},
      // A driver without the queries: unknown is not a failure (the import check remains).
      {{}, kStoppedAtContext},
  };
  for (const Case& c : cases) {
    configure(c.fake);
    Launch l;
    const LevelZeroOutcome o = runOnLevelZero(l.launch);
    EXPECT_EQ(o.status, LevelZeroStatus::Failed);
    EXPECT_TRUE(contains(o.message, c.message))
        << "expected: " << c.message << "\ngot: " << o.message;
  }
  // The IP is compared by architecture and release only; another target names its own.
  configure({{"FAKE_ZE_IP", kBmgG21}, {"FAKE_ZE_DPAS", "1"}, {"FAKE_ZE_BLOCK_IO", "1"}});
  Launch bmg;
  bmg.launch.requirements.arch = "bmg";
  EXPECT_EQ(runOnLevelZero(bmg.launch).message, kStoppedAtContext);
  // The ordinal reaches the requirement check: GPU 1 is named.
  configure({{"FAKE_ZE_GPUS", "2"}, {"FAKE_ZE_DPAS", "0"}});
  Launch second;
  second.launch.deviceOrdinal = 1;
  EXPECT_TRUE(
      contains(runOnLevelZero(second.launch).message, "Fake Intel GPU 1: the device has no DPAS"));
}

// A transpose-B GEMM probes its transposed load first: the run stops in the probe's launch, not
// the GEMM's. A plain one goes straight to the GEMM.
TEST(FakeLevelZeroDriver, TransposeBGemmRunsTheProbeFirst) {
  if (codegen::missingSpirvTool()) {
    if (std::getenv("LAYOUT_REQUIRE_SPIRV")) FAIL() << "clang / llvm-spirv not found";
    GTEST_SKIP() << "clang / llvm-spirv not found";
  }
  configure({{"FAKE_ZE_IP", kPvcC0}, {"FAKE_ZE_DPAS", "1"}, {"FAKE_ZE_BLOCK_IO", "1"}});
  codegen::GemmConfig c;
  c.m = c.n = c.k = 64;
  c.sgLayout = {2, 2};
  c.sgData = {32, 32};
  c.transposeB = true;
  auto kernel = codegen::buildGemmKernel(c);
  ASSERT_TRUE(kernel) << kernel.error().message;
  auto inputs = kernels::makeGemmInputs(c, kernels::InputKind::Random, 1);
  const GemmDeviceRun run = runGemmOnLevelZero(*kernel, {1, 2, 3, 4}, inputs);
  EXPECT_EQ(run.outcome.status, LevelZeroStatus::Failed);
  EXPECT_EQ(run.outcome.message, "probe layout_probe_transpose_32b_32r8x1c: " + kStoppedAtContext);
  c.transposeB = false;
  kernel = codegen::buildGemmKernel(c);
  ASSERT_TRUE(kernel) << kernel.error().message;
  EXPECT_EQ(runGemmOnLevelZero(*kernel, {1, 2, 3, 4}, inputs).outcome.message, kStoppedAtContext);
}

} // namespace
} // namespace layout::level_zero
