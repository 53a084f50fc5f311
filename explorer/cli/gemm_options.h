// Option readers of `layoutctl gemm` shared by its Intel (gemm_command.cpp) and CUDA
// (gemm_cuda_command.cpp) targets, and the CUDA target's entry.
#pragma once

#include "cli_args.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <exception>
#include <string>

namespace layoutctl {

// --NAME as a decimal integer, or `fallback` when absent (usage error otherwise).
inline int64_t intOption(const Args& args, const std::string& name, int64_t fallback) {

  auto v = args.option(name);
  if (!v) return fallback;
  try {
    size_t used = 0;
    const long long x = std::stoll(*v, &used);
    if (used == v->size()) return x;
  } catch (const std::exception&) {
  }
  throw CliExit{kUsage, "--" + name + " '" + *v + "': expected an integer"};
}

// --NAME as RxC, or `fallback` when absent.
inline std::array<int64_t, 2> pairOption(const Args& args, const std::string& name,
                                         std::array<int64_t, 2> fallback) {
  auto v = args.option(name);
  if (!v) return fallback;
  const auto dims = parseShape(*v, "--" + name);
  if (dims.size() != 2) throw CliExit{kUsage, "--" + name + " '" + *v + "': expected RxC"};
  return {dims[0], dims[1]};
}

// Refuses a run whose host buffers (`bytes`: the operands, the result and the float64 reference
// copies, as `what` lists them) exceed 8 GiB, before any is allocated.
inline void checkHostMemory(double bytes, const std::string& what) {
  constexpr double kGiB = 1 << 30, kHostLimitGiB = 8;
  if (bytes > kHostLimitGiB * kGiB)
    throw CliExit{kInvalidInput, "m, n, k: running this GEMM needs " +
                                     std::to_string(static_cast<int64_t>(bytes / kGiB)) +
                                     " GiB of host memory (" + what + "); the limit is 8 GiB"};
}

// The JSON of --config FILE (exit 1 naming the file when it does not parse).
inline nlohmann::json readConfigJson(const std::string& path) {
  try {
    return nlohmann::json::parse(readFile(path, "--config"));
  } catch (const nlohmann::json::parse_error& e) {
    throw CliExit{kInvalidInput, "--config " + path + ": " + e.what()};
  }
}

// gemm --target cuda: plans, prints and emits the NVIDIA kernel, then runs it where the build
// has the CUDA runner (exit 3 without it or without a device).
int runGemmCuda(const Args& args);

} // namespace layoutctl
