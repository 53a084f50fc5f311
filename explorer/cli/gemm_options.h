// Option readers of `layoutctl gemm` shared by its Intel (gemm_command.cpp) and CUDA
// (gemm_cuda_command.cpp) targets, and the CUDA target's entry.
#pragma once

#include "cli_args.h"

#include "layout/core/resource_limits.h"
#include "layout/text/internal/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <string>

namespace layoutctl {

// --runner as messages name it: as given (--runner, or --target, its first spelling), and as
// scripts have always matched it (--target) when it was not given.
inline std::string runnerOption(const Args& args) {
  return "--" + (args.option("runner") ? args.given("runner") : std::string("target"));
}

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

// "about 40 s", "about 12 min", "about 3 h": a rough duration for messages.
inline std::string roughDuration(double seconds) {
  auto about = [](double v, const char* unit) {
    return "about " + std::to_string(std::max<int64_t>(1, std::llround(v))) + " " + unit;
  };
  if (seconds < 120) return about(seconds, "s");
  if (seconds < 2 * 3600) return about(seconds / 60, "min");
  return about(seconds / 3600, "h");
}

// Multiply-adds per second and thread of a host simulation together with its exact verification
// (bf16 on a 2-core x86-64 with AVX-512, measured while other work shared it: 2^33 in 1.7-2 s,
// 2^34 in 3.4 s on 2 threads, 2^33 in 2 s on one);
// the estimates in messages and on the progress line use it.
inline constexpr double kSimulatedMacsPerThreadSecond = 2.5e9;

// Refuses a host simulation of more than `limit` multiply-adds (M x N x K; LAYOUT_MAX_GEMM_MACS or
// --max-macs N raise it), before anything is allocated. Returns the multiply-adds.
inline uint64_t checkSimulationWork(int64_t m, int64_t n, int64_t k, uint64_t limit, int threads) {
  const unsigned __int128 macs = static_cast<unsigned __int128>(std::max<int64_t>(m, 0)) *
                                 static_cast<unsigned __int128>(std::max<int64_t>(n, 0)) *
                                 static_cast<unsigned __int128>(std::max<int64_t>(k, 0));
  if (macs <= limit) return static_cast<uint64_t>(macs);
  const std::string count =
      (macs >> 64) != 0 ? std::string("2^64 or more") : std::to_string(static_cast<uint64_t>(macs));
  const double seconds = static_cast<double>(macs) / (kSimulatedMacsPerThreadSecond * threads);
  throw CliExit{kInvalidInput, "m, n, k: simulating this GEMM takes " + count + " multiply-adds (" +
                                   std::to_string(m) + "x" + std::to_string(n) + "x" +
                                   std::to_string(k) + ", " + roughDuration(seconds) + " on " +
                                   std::to_string(threads) +
                                   (threads == 1 ? " thread" : " threads") +
                                   " here); the limit is " + layout::describeLimit(limit) +
                                   " (raise it with --max-macs N or LAYOUT_MAX_GEMM_MACS)"};
}

// The JSON of --config FILE (exit 1 naming the file when it does not parse, or nests or counts
// past the JSON limits).
inline nlohmann::json readConfigJson(const std::string& path) {
  auto j = layout::detail::parseJsonText(readFile(path, "--config"));
  if (!j) throw CliExit{kInvalidInput, "--config " + path + ": " + j.error().message};
  return std::move(*j);
}

// gemm --runner cuda: plans, prints and emits the NVIDIA kernel, then runs it where the build
// has the CUDA runner (exit 3 without it or without a device).
int runGemmCuda(const Args& args);

} // namespace layoutctl
