// Runs one OpenCL C kernel on the first OpenCL device and times it. The OpenCL ICD loader
// (libOpenCL.so.1) is opened at run time, so programs built on this library start, and report
// "no device", on machines without one.
//
//   std::vector<uint8_t> a = ..., c(bytesOfC);
//   layout::opencl::OpenClLaunch launch;
//   launch.source = prelude + kernelText;
//   launch.buildOptions = "-cl-std=CL2.0";
//   launch.kernelName = "gemm";
//   launch.globalSize = {64, 2, 1};
//   launch.localSize = {32, 1, 1};
//   launch.arguments = {{OpenClBuffer{&a}}, {OpenClBuffer{&c, /*readBack=*/true}}, {int32_t{k}}};
//   auto outcome = layout::opencl::runOnOpenCl(launch);
//   if (outcome.status == OpenClStatus::NoDevice) skip(outcome.message);
//
// No call throws or aborts. The OpenCL headers stay out of this header.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace layout::opencl {

// A global-memory kernel argument; *host stays the caller's and is copied in before the launch.
struct OpenClBuffer {
  std::vector<uint8_t>* host = nullptr; // non-empty
  bool readBack = false;                // copied back into *host after the first launch
};

struct OpenClArgument {
  std::variant<OpenClBuffer, int32_t> value;
};

struct OpenClLaunch {
  std::string source;
  std::string buildOptions;
  std::string kernelName;
  std::array<size_t, 3> globalSize{}; // work-items, a multiple of localSize per dimension
  std::array<size_t, 3> localSize{};
  std::vector<OpenClArgument> arguments;
  int timedRepetitions = 0; // launches timed after the first (0: a correctness run)
};

enum class OpenClStatus {
  Ran,      // the kernel ran (and was read back)
  NoDevice, // no ICD loader, no platform or no device: skip, not an error of the caller
  Failed,   // the build or a call failed (the message says which, with the build log)
};

struct OpenClOutcome {
  OpenClStatus status = OpenClStatus::Failed;
  std::string message;    // NoDevice / Failed: what happened
  std::string deviceName; // Ran: "pthread-skylake-avx512 (Portable Computing Language)"
  std::string buildLog;   // the compiler's log, when it wrote one
  double bestSeconds = 0; // the fastest timed launch (0 without timedRepetitions)
};

OpenClOutcome runOnOpenCl(const OpenClLaunch& launch);

// The first device's name and platform, or why there is none (status NoDevice).
OpenClOutcome probeOpenCl();

} // namespace layout::opencl
