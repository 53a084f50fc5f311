// Runs one SPIR-V kernel on an Intel GPU through Level Zero and times it.
//
//   std::vector<uint8_t> a = ..., b = ..., c(bytesOfC);
//   layout::level_zero::LevelZeroLaunch launch;
//   launch.spirv = readFile("gemm.spv");
//   launch.kernelName = "gemm";
//   launch.buildFlags = "-ze-opt-large-register-file";
//   launch.groupSize = {16, 1, 1};
//   launch.groupCount = {n / 64, m / 32, 1};
//   launch.arguments = {{LevelZeroBuffer{&a}}, {LevelZeroBuffer{&b}},
//                       {LevelZeroBuffer{&c, /*readBack=*/true}}, {int32_t{k}}};
//   auto outcome = layout::level_zero::runOnLevelZero(launch);
//   if (outcome.status == LevelZeroStatus::Ran) use(c, outcome.bestSeconds);
//   else if (outcome.status == LevelZeroStatus::NoDevice) skip(outcome.message);
//   else fail(outcome.message);
//
// No call throws or aborts: a machine without a driver or an Intel GPU gets NoDevice with what
// was found, so callers (tests, benchmarks) can skip instead of failing. The Level Zero headers
// stay out of this header; result codes are passed as int.
#pragma once

#include "layout/level_zero/device_requirements.h"

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace layout::level_zero {

// A global-memory kernel argument. The runner owns the device copy; *host stays the caller's.
struct LevelZeroBuffer {
  std::vector<uint8_t>* host = nullptr; // copied to the device before the first launch; non-empty
  bool readBack = false;                // copied back into *host after the warm-up launch
};

// One kernel argument, in the kernel's parameter order: a buffer or a 32-bit scalar.
struct LevelZeroArgument {
  std::variant<LevelZeroBuffer, int32_t> value;
};

struct LevelZeroLaunch {
  std::vector<uint8_t> spirv; // the SPIR-V module
  std::string kernelName;
  std::string buildFlags;               // passed to zeModuleCreate
  std::array<uint32_t, 3> groupSize{};  // work-items per work-group (zeKernelSetGroupSize)
  std::array<uint32_t, 3> groupCount{}; // work-groups (ze_group_count_t)
  std::vector<LevelZeroArgument> arguments;
  // Launches timed after the warm-up launch; 0 runs the warm-up only (a correctness run).
  int timedRepetitions = 10;
  // A kernel that spills registers to memory is refused unless this is set: it runs, but far
  // below what its tiling promises, so the configuration should change.
  bool allowSpills = false;
  // What the kernel needs from the device, checked before anything is created (the work-group
  // size is taken from groupSize).
  DeviceRequirements requirements;
  // Which GPU device: its index among all GPU devices of all drivers, in driver order.
  uint32_t deviceOrdinal = 0;
};

enum class LevelZeroStatus {
  Ran,      // run: the kernel ran; probe: a GPU device is there
  NoDevice, // no driver, or no GPU device: skip, this is not an error of the caller
  Failed,   // an invalid launch or a Level Zero call that failed
};

struct LevelZeroOutcome {
  LevelZeroStatus status = LevelZeroStatus::Failed;
  // NoDevice: what was found ("zeInit(...) failed (ZE_RESULT_ERROR_UNINITIALIZED): ...",
  // "1 driver, 1 device, 0 GPU devices"). Failed: the call and its result name, plus the build
  // log when zeModuleCreate fails. Ran: a one-line summary.
  std::string message;
  std::string deviceName; // Ran: the device used (GPU `deviceOrdinal`)
  // Ran: the device's IP version ("12.60.7"; empty when the driver cannot report it), and what
  // the requirements check could not verify because the driver lacks the query.
  std::string ipVersion;
  std::vector<std::string> unknownCapabilities;
  // Ran: "kernel timestamps" (device clock around each launch) or "host clock" (includes
  // submission and synchronisation, used when the device has no timestamp events).
  std::string timingSource;
  double bestSeconds = 0; // Ran: the fastest timed launch
  double meanSeconds = 0; // Ran: the mean of the timed launches
  // Ran: what the driver reported: the build log (may be empty), the kernel's spill and private
  // memory per thread in bytes.
  std::string buildLog;
  uint32_t spillBytes = 0, privateBytes = 0;
};

// Initialises Level Zero once per process (zeInitDrivers for GPU drivers where the loader has it,
// else zeInit + zeDriverGet; the result is cached) and enumerates drivers and GPU devices without
// creating anything. An ordinal past the GPU devices found is Failed, naming how many there are.
LevelZeroOutcome probeLevelZero(uint32_t deviceOrdinal = 0);

// Probes, then on GPU device launch.deviceOrdinal: checks launch.requirements against what the
// device reports (subgroup size, work-group size, IP version, DPAS, 2D block I/O), builds the
// module, uploads every buffer, launches once (warm-up), reads back the readBack buffers, then
// launches timedRepetitions more times to time them. Read-back happens after the warm-up so that kernels that accumulate into their output
// (C += A * B) return the result of exactly one launch. A launch that is invalid whatever the
// device (no SPIR-V, no kernel name, a null or empty buffer, a zero group size or count, negative
// repetitions) is Failed even without a device, so such bugs show on every machine.
LevelZeroOutcome runOnLevelZero(const LevelZeroLaunch& launch);

// "ZE_RESULT_ERROR_UNINITIALIZED" and the like for the codes of ze_result_t, "0x..." otherwise.
std::string levelZeroResultName(int result);

} // namespace layout::level_zero
