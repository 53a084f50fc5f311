// layoutctl gemm: build a DPAS GEMM kernel from a tile configuration, print its plan and static
// report, verify it in the Xe simulator (or run it through Level Zero), and write the OpenCL C,
// the SPIR-V and the plan JSON.
#include "commands.h"
#include "gemm_options.h"

#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/codegen/opencl_emitter.h"
#include "layout/intel/block_io.h"
#include "layout/kernels/gemm_verification.h"
#include "layout/kernels/xe_simulator.h"
#if LAYOUT_HAVE_LEVEL_ZERO
#include "layout/level_zero/gemm_device_run.h"
#endif
#if LAYOUT_HAVE_OPENCL
#include "layout/opencl/gemm_opencl_run.h"
#endif

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

namespace layoutctl {
namespace {

namespace codegen = layout::codegen;
namespace kernels = layout::kernels;
#if LAYOUT_HAVE_LEVEL_ZERO
namespace level_zero = layout::level_zero;
#endif

// Defaults (512^3, the RFC's workgroup tiling), then --config, then the individual options.
codegen::GemmConfig readConfig(const Args& args) {
  codegen::GemmConfig c;
  c.m = c.n = c.k = 512;
  bool kTileGiven = args.option("k-tile").has_value();
  if (auto path = args.option("config")) {
    const nlohmann::json j = readConfigJson(*path);
    auto fromFile = codegen::gemmConfigFromJson(j, c);
    if (!fromFile)
      throw CliExit{kInvalidInput, "--config " + *path + ": " + fromFile.error().message};
    c = *fromFile;
    kTileGiven = kTileGiven || (j.is_object() && j.contains("k_tile"));
  }
  c.m = intOption(args, "m", c.m);
  c.n = intOption(args, "n", c.n);
  c.k = intOption(args, "k", c.k);
  if (auto d = args.option("element-type")) {
    auto t = codegen::parseGemmDataType(*d);
    if (!t)
      throw CliExit{kUsage, "--" + args.given("element-type") + " '" + *d +
                                "': expected one of f16, bf16, int8, tf32"};
    c.dtype = *t;
  }
  // An unknown target is a usage error (2), like --element-type and --runner; a known target without
  // what the kernels need (DPAS, 2D block I/O) breaks a configuration rule: invalid input (1).
  if (args.option("arch")) c.arch = targetOption(args, "arch", c.arch);
  c.sgLayout = pairOption(args, "sg-layout", c.sgLayout);
  c.sgData = pairOption(args, "sg-data", c.sgData);
  // The K step follows the type unless one is named (tf32: 16).
  c.kTile = kTileGiven ? intOption(args, "k-tile", c.kTile) : codegen::defaultKTile(c.dtype);
  c.repeatCount = static_cast<int>(intOption(args, "repeat-count", c.repeatCount));
  c.stages = static_cast<int>(intOption(args, "stages", c.stages));
  c.groupM = static_cast<int>(intOption(args, "group-m", c.groupM));
  c.grfPerThread = static_cast<int>(intOption(args, "grf", c.grfPerThread));
  if (args.flag("transpose-b")) c.transposeB = true;
  return c;
}

// Writes <dir>/<kernel>.cl, .spv (validated) and .plan.json; returns the SPIR-V.
std::vector<uint8_t> emitFiles(const codegen::GemmKernel& k, const std::string& dir,
                               nlohmann::ordered_json& files) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw CliExit{kInvalidInput, "--emit " + dir + ": " + ec.message()};
  const std::filesystem::path base = std::filesystem::path(dir) / k.name;
  writeTextFile(base.string() + ".plan.json", codegen::kernelPlanToJson(k).dump(2) + "\n",
                "--emit");
  files.push_back(base.string() + ".plan.json");
  const std::string source = codegen::emitOpenCl(k);
  auto spirv = codegen::compileToSpirv(source, k.name, dir);
  files.push_back(base.string() + ".cl");
  if (!spirv) throw CliExit{kInvalidInput, "SPIR-V: " + spirv.error().message};
  if (auto e = codegen::validateSpirv(base.string() + ".spv"); !e)
    throw CliExit{kInvalidInput, "spirv-val: " + e.error().message};
  files.push_back(base.string() + ".spv");
  return *spirv;
}

#if LAYOUT_HAVE_LEVEL_ZERO
// --runner level-zero: runs the kernel on the first GPU device; exit 3 without one.
kernels::GemmVerification runOnDevice(const Args& args, const codegen::GemmKernel& kernel,
                                      std::vector<uint8_t>& spirv, nlohmann::ordered_json& files,
                                      kernels::GemmInputs& in, nlohmann::ordered_json& out) {
  const auto ordinal = intOption(args, "device", 0);
  if (ordinal < 0 || ordinal > 255)
    throw CliExit{kInvalidInput, "--device " + std::to_string(ordinal) +
                                     ": must be a GPU device ordinal in 0..255"};
  level_zero::GemmDeviceOptions options;
  options.timedRepetitions = static_cast<int>(intOption(args, "repetitions", 10));
  options.allowSpills = args.flag("allow-spills");
  options.deviceOrdinal = static_cast<uint32_t>(ordinal);
  const auto probe = level_zero::probeLevelZero(options.deviceOrdinal);
  if (probe.status != level_zero::LevelZeroStatus::Ran)
    throw CliExit{probe.status == level_zero::LevelZeroStatus::NoDevice ? kNoDevice : kInvalidInput,
                  "level-zero: " +
                      std::string(probe.status == level_zero::LevelZeroStatus::NoDevice
                                      ? "no device: "
                                      : "") +
                      probe.message};
  if (spirv.empty()) {
    const auto dir = std::filesystem::temp_directory_path() / ("layoutctl-" + kernel.name);
    spirv = emitFiles(kernel, dir.string(), files);
  }
  const auto run = level_zero::runGemmOnLevelZero(kernel, spirv, in, options);
  if (run.outcome.status == level_zero::LevelZeroStatus::NoDevice)
    throw CliExit{kNoDevice, "level-zero: no device: " + run.outcome.message};
  if (run.outcome.status == level_zero::LevelZeroStatus::Failed)
    throw CliExit{kInvalidInput, "level-zero: " + run.outcome.message};
  out["device"] = {{"name", run.outcome.deviceName},
                   {"ipVersion", run.outcome.ipVersion},
                   {"unverified", run.outcome.unknownCapabilities},
                   {"probed", run.probed},
                   {"spillBytes", run.outcome.spillBytes},
                   {"privateBytes", run.outcome.privateBytes},
                   {"buildLog", run.outcome.buildLog},
                   {"bestSeconds", run.outcome.bestSeconds},
                   {"meanSeconds", run.outcome.meanSeconds},
                   {"timing", run.outcome.timingSource},
                   {"tflops", run.tflops}};
  if (!args.json()) {
    for (const auto& shape : run.probed)
      std::cout << "probe: the device's " << shape
                << " load has the lane order the kernel assumes\n";
    for (const auto& what : run.outcome.unknownCapabilities)
      std::cout << "warning: not verified, the driver cannot report it: " << what << "\n";
    std::cout << "kernel: " << run.outcome.spillBytes << " bytes spilled, "
              << run.outcome.privateBytes << " bytes of private memory per thread\n";
    if (!run.outcome.buildLog.empty()) std::cout << "build log:\n" << run.outcome.buildLog << "\n";
  }
  if (!args.json())
    std::cout << "ran on " << run.outcome.deviceName << ": best " << run.outcome.bestSeconds * 1e3
              << " ms, mean " << run.outcome.meanSeconds * 1e3 << " ms ("
              << run.outcome.timingSource << "), " << run.tflops << " TFLOP/s\n";
  return run.verification;
}
#endif

#if LAYOUT_HAVE_OPENCL
// --runner opencl: the emitted OpenCL C behind the Intel built-in prelude on the first OpenCL
// device (PoCL on a CPU); exit 3 without one.
kernels::GemmVerification runOnOpenCl(const Args& args, const codegen::GemmKernel& kernel,
                                      kernels::GemmInputs& in, nlohmann::ordered_json& out) {
  const auto run = layout::opencl::runGemmOnOpenCl(kernel, codegen::emitOpenCl(kernel), in);
  if (run.outcome.status == layout::opencl::OpenClStatus::NoDevice)
    throw CliExit{kNoDevice, "opencl: no device: " + run.outcome.message};
  if (run.outcome.status == layout::opencl::OpenClStatus::Failed)
    throw CliExit{
        kInvalidInput,
        "opencl: " + run.outcome.message +
            (run.outcome.buildLog.empty() ? "" : "\nbuild log:\n" + run.outcome.buildLog)};
  out["device"] = {{"name", run.outcome.deviceName}, {"api", "opencl"}, {"probed", run.probed}};
  if (!args.json())
    for (const auto& shape : run.probed)
      std::cout << "probe: the device's " << shape
                << " load has the lane order the kernel assumes\n";
  if (!args.json())
    std::cout << "ran the emitted OpenCL C on " << run.outcome.deviceName
              << " (Intel built-ins emulated by the prelude)\n";
  return run.verification;
}
#endif

// A progress line on standard error while the inputs are made, the kernel simulated and the
// result verified: the phase, a bar, the share done, the time so far and an estimate of the time
// left, redrawn five times a second. Only where standard error is a terminal (never in a pipe or
// a file), and not with --quiet; the line is erased when the run ends.
class ProgressLine {
public:
  explicit ProgressLine(bool enabled) {
    if (enabled) thread_ = std::jthread([this](std::stop_token stop) { loop(stop); });
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() { finish(); }

  // From now on the line shows `work` as `name` (nullptr: the name alone).
  void phase(const char* name, const kernels::WorkProgress* work) {
    std::lock_guard lock(mutex_);
    name_ = name;
    work_ = work;
    start_ = std::chrono::steady_clock::now();
  }
  // Stops redrawing and erases the line.
  void finish() {
    if (!thread_.joinable()) return;
    thread_.request_stop();
    wake_.notify_all();
    thread_.join();
    std::cerr << "\r\033[K" << std::flush;
  }

private:
  void loop(std::stop_token stop) {
    std::unique_lock lock(mutex_);
    while (!stop.stop_requested()) {
      draw();
      wake_.wait_for(lock, stop, std::chrono::milliseconds(200), [] { return false; });
    }
  }
  static std::string seconds(double s) {
    std::ostringstream o;
    o.setf(std::ios::fixed);
    o.precision(s < 10 ? 1 : 0);
    o << s << " s";
    return o.str();
  }
  void draw() const {
    if (!name_) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::ostringstream line;
    line << "\r" << name_;
    const int64_t total = work_ ? work_->total.load() : 0;
    if (total > 0) {
      const double f = std::clamp(static_cast<double>(work_->done.load()) / total, 0.0, 1.0);
      constexpr int kWidth = 30;
      const int filled = static_cast<int>(f * kWidth);
      line << " [" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] "
           << static_cast<int>(f * 100) << "%, " << seconds(elapsed);
      if (f > 0.02 && f < 1) line << ", " << roughDuration(elapsed * (1 - f) / f) << " left";
    } else {
      line << ", " << seconds(elapsed);
    }
    line << "\033[K";
    std::cerr << line.str() << std::flush;
  }

  std::mutex mutex_;
  std::condition_variable_any wake_;
  const char* name_ = nullptr;
  const kernels::WorkProgress* work_ = nullptr;
  std::chrono::steady_clock::time_point start_;
  std::jthread thread_; // last: stops before the members it reads go
};

// Writes what is printed so far (the plan, the report, the emitted files) before the long part of
// the run, so that a run killed midway leaves it; a failed write ends the run now.
void flushPlan() {
  std::cout.flush();
  if (!std::cout)
    throw CliExit{kInvalidInput,
                  std::string("writing to standard output failed (") + std::strerror(errno) + ")"};
}

int runGemm(const Args& args) {
  const std::string where = args.option("runner").value_or("sim");
  if (where == "cuda") return runGemmCuda(args);
  if (where != "sim" && where != "level-zero" && where != "opencl")
    throw CliExit{kUsage, runnerOption(args) + " '" + where +
                              "': expected sim, opencl, level-zero or cuda"};
  for (const char* cudaOnly : {"block-tile", "warps", "verify-rows"})
    if (args.option(cudaOnly))
      throw CliExit{kUsage,
                    std::string("--") + cudaOnly + ": only with " + runnerOption(args) + " cuda"};
  const std::string inputs = args.option("inputs").value_or("random");
  if (inputs != "random" && inputs != "exact")
    throw CliExit{kUsage, "--inputs '" + inputs + "': expected random or exact"};
  const uint64_t seed = static_cast<uint64_t>(intOption(args, "seed", 1));
  uint64_t maxMacs = layout::resourceLimits().maxGemmMacs;
  if (auto v = args.option("max-macs")) maxMacs = positiveCount(*v, "max-macs");
  int threadOption = 0; // hardware threads
  if (auto v = args.option("threads"))
    threadOption = static_cast<int>(
        std::min<uint64_t>(positiveCount(*v, "threads"), kernels::kMaxGemmThreads));
  const int threads = kernels::gemmThreadCount(threadOption);
  const bool showProgress = !args.flag("quiet") && isatty(STDERR_FILENO) == 1;
  const codegen::GemmConfig config = readConfig(args);

  auto kernel = codegen::buildGemmKernel(config);
  if (!kernel) throw CliExit{kInvalidInput, kernel.error().message};
  nlohmann::ordered_json out;
  out["plan"] = codegen::kernelPlanToJson(*kernel);
  if (!args.json()) std::cout << codegen::kernelReportText(*kernel);

  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  std::vector<uint8_t> spirv;
  if (auto dir = args.option("emit")) spirv = emitFiles(*kernel, *dir, files);
  out["emitted"] = files;
  if (!args.json())
    for (const auto& f : files) std::cout << "wrote " << f.get<std::string>() << "\n";

  // Host memory of a run: the three surfaces and A, B as doubles for the reference.
  double bytes = 8.0 * (static_cast<double>(config.m) * static_cast<double>(config.k) +
                        static_cast<double>(config.k) * static_cast<double>(config.n));
  for (auto m : {codegen::MatrixOperand::A, codegen::MatrixOperand::B, codegen::MatrixOperand::C}) {
    const auto s = codegen::matrixSurface(config, m);
    bytes += static_cast<double>(s.height) * static_cast<double>(s.pitchBytes);
  }
  checkHostMemory(bytes, "A, B, C and the float64 reference");
  // The host simulation and its exact verification cost M x N x K multiply-adds each.
  const uint64_t macs =
      where == "sim" ? checkSimulationWork(config.m, config.n, config.k, maxMacs, threads) : 0;
  flushPlan();
  kernels::WorkProgress simulated, verified; // outlive the progress line that reads them
  ProgressLine progress(showProgress);
  if (showProgress && where == "sim")
    std::cerr << "simulating and verifying " << macs << " multiply-adds on " << threads
              << (threads == 1 ? " thread, " : " threads, ")
              << roughDuration(static_cast<double>(macs) /
                               (kSimulatedMacsPerThreadSecond * threads))
              << "\n";
  progress.phase("making the inputs", nullptr);
  auto in = kernels::makeGemmInputs(
      config, inputs == "exact" ? kernels::InputKind::ExactSums : kernels::InputKind::Random, seed,
      threadOption);
  kernels::GemmVerification verification;
  if (where == "sim") {
    progress.phase("simulating", &simulated);
    auto stats = kernels::simulateGemmKernel(*kernel, in.memory, {threadOption, &simulated});
    if (!stats) throw CliExit{kInvalidInput, "simulation: " + stats.error().message};
    progress.phase("verifying", &verified);
    verification = kernels::verifyGemm(config, in, kernels::kRoundToNearestUnit, {},
                                       {threadOption, &verified});
    progress.finish();
    out["simulation"] = {{"workgroups", stats->workgroups},
                         {"subgroups", stats->subgroups},
                         {"dpas", stats->dpas},
                         {"loads", stats->loads},
                         {"stores", stats->stores},
                         {"prefetches", stats->prefetches},
                         {"seconds", stats->seconds},
                         {"threads", stats->threads}};
    if (!args.json())
      std::cout << "simulated " << stats->workgroups << " workgroups (" << stats->subgroups
                << " subgroups): " << stats->dpas << " DPAS, " << stats->loads << " loads, "
                << stats->stores << " stores, " << stats->prefetches << " prefetches in "
                << stats->seconds << " s\n";
  } else if (where == "opencl") {
    progress.phase("running", nullptr);
#if LAYOUT_HAVE_OPENCL
    verification = runOnOpenCl(args, *kernel, in, out);
#else
    throw CliExit{kNoDevice, "opencl: no device: this build has no OpenCL support (configured "
                             "with LAYOUT_OPENCL=OFF or without the OpenCL headers)"};
#endif
  } else {
    progress.phase("running", nullptr);
#if LAYOUT_HAVE_LEVEL_ZERO
    verification = runOnDevice(args, *kernel, spirv, files, in, out);
#else
    throw CliExit{kNoDevice,
                  "level-zero: no device: Level Zero: this build has no Level Zero "
                  "support (configured with LAYOUT_LEVEL_ZERO=OFF or without libze-dev)"};
#endif
  }
  progress.finish();
  out["verification"] = kernels::gemmVerificationToJson(verification);
  if (args.json())
    std::cout << out.dump(2) << "\n";
  else
    std::cout << "verification: " << verification.summary() << "\n";
  return verification.passed ? kOk : kInvalidInput;
}

// The options, in the order of the usage line. --element-type names a type and --runner the
// runtime, as everywhere (--dtype and --target, their first spellings, work too; --target names
// hardware in the other subcommands, --arch here).
std::vector<Option> gemmOptions() {
  std::vector<Option> options = {
      {"m"}, {"n"}, {"k"}, {"element-type", {"dtype"}}, {"runner", {"target"}}};
  for (const char* name :
       {"emit", "config", "arch", "sg-layout", "sg-data", "k-tile", "repeat-count", "stages",
        "group-m", "grf", "inputs", "seed", "repetitions", "device", "block-tile", "warps",
        "verify-rows", "max-macs", "threads"})
    options.push_back({name});
  for (const char* name : {"transpose-b", "allow-spills", "flush-l2", "no-cublas", "quiet"})
    options.push_back({name, {}, /*flag=*/true});
  return options;
}

} // namespace

void addGemmCommand(std::vector<Command>& commands) {
  commands.push_back(
      {"gemm",
       "gemm [--m M] [--n N] [--k K] [--element-type f16|bf16|int8|tf32] "
       "[--runner sim|opencl|level-zero|cuda] "
       "[--emit DIR] [--config FILE] [--arch " +
           targetChoices() +
           "] [--sg-layout RxC] [--sg-data RxC] "
           "[--k-tile K] [--repeat-count 1|2|4|8] [--transpose-b] [--stages S] "
           "[--group-m G] "
           "[--grf 128|256] [--inputs random|exact] [--seed S] [--repetitions R] [--allow-spills] "
           "[--device N] [--block-tile RxC] [--warps RxC] [--verify-rows R] [--flush-l2] "
           "[--no-cublas] [--max-macs N] [--threads T] [--quiet] "
           "[--format "
           "text|json]",
       "Builds a DPAS GEMM kernel D = A * B (f16/bf16/tf32 -> f32, int8 -> int32) for a workgroup "
       "tiling (--sg-layout, --sg-data as in the XeGPU RFC; default 8x4 subgroups of 32x64, K step "
       "32, M = N = K = 512) from liblayout's DPAS layouts and block-load plans, prints the plan "
       "and the static report, then runs it on fresh inputs (--seed) and verifies the result "
       "against a float64 / exact-integer reference: int8 bit for bit, --inputs exact (small "
       "integers) bit for bit, --inputs random within the fp32 summation bound. --runner sim "
       "(default) runs the Xe functional simulator; --runner opencl runs the emitted OpenCL C "
       "unchanged on the first OpenCL device (PoCL on a CPU) behind a prelude that implements the "
       "Intel built-ins it calls (at most 65536 work-items; exit 3 without an OpenCL device); "
       "--runner level-zero runs the SPIR-V on an "
       "Intel GPU and reports time and TFLOP/s (exit 3 when Level Zero finds no device or the "
       "build has no Level Zero support). --group-m G: consecutive workgroups walk G tile rows of "
       "one column before the next (B stays in L2; default 1, row by row). --runner level-zero, "
       "on GPU device --device N (default 0, counting the GPU devices of all drivers), "
       "before running, checks the device (subgroups of 16, the work-group size, the IP version "
       "of --arch, DPAS and 2D block I/O where the driver reports them), runs a one-message probe "
       "of each transposed load shape the kernel uses (--transpose-b: transpose_32b_32r8x1c) and "
       "refuses to go on when the device's lane order differs from the model, refuses a module "
       "with unresolved imports (a driver without the built-ins) and a kernel that spills "
       "registers (unless --allow-spills), and prints the spill and private memory sizes and the "
       "build log; --runner opencl runs the same probes. --stages S: prefetch S K steps ahead "
       "(default 2, 0..8; 0 = no prefetch), with a split work-group barrier around each K step "
       "when several subgroups share the prefetch. --arch "
       "(default pvc) is the hardware target, as --target of the other subcommands: one with DPAS "
       "over 16 lanes and 2D block I/O (pvc, bmg, or a target file). --emit "
       "DIR writes DIR/<kernel>.cl, .spv (clang-14 + llvm-spirv-14, checked by spirv-val) and "
       ".plan.json. --config FILE: a JSON object with any of m, n, k, dtype, arch, sg_layout, "
       "sg_data, k_tile, repeat_count, transpose_b, stages, group_m, grf_per_thread; "
       "options "
       "given on the command line win. Exit 1 when the configuration breaks a rule (the message "
       "names it) or the result does not verify. --runner cuda builds the NVIDIA kernel instead "
       "(--arch sm80, the default: mma.sync.m16n8k16 f16/bf16 -> f32 fed by ldmatrix from "
       "shared tiles that swizzle synthesis makes conflict-free for cp.async and ldmatrix; "
       "default 4096^3 bf16, --block-tile 128x256 over --warps 2x4, --k-tile 64, --stages 3, "
       "--group-m 8. --arch sm90: wgmma.mma_async on 128B-swizzled shared tiles filled by TMA, "
       "a producer warpgroup and one consumer warpgroup per 64 rows on an mbarrier pipeline; "
       "default --block-tile 128x256, --k-tile 64, --stages 4, --group-m 16; --warps does not "
       "apply), prints the plan with the bank proofs, writes "
       "DIR/<kernel>.cu and .plan.json with --emit, then compiles it with NVRTC and runs it on "
       "CUDA device --device N: verified against the exact reference (every row up to 2^31 "
       "multiply-adds, else 16 rows, or --verify-rows R), timed with CUDA events (median of "
       "--repetitions, default 10; --flush-l2 overwrites 512 MiB before each run) beside "
       "cuBLAS's cublasGemmEx on the same inputs (--no-cublas skips it). Exit 3 when the build "
       "has no CUDA runner or there is no device. Long runs: the plan and the report are written "
       "(and flushed) before the simulation starts; --runner sim refuses a GEMM of more than 2^34 "
       "M x N x K multiply-adds before allocating anything (exit 1, with an estimate of its time; "
       "--max-macs N or LAYOUT_MAX_GEMM_MACS=N raises the limit; 2048^3 is 2^33, a few seconds "
       "on two cores); inputs, simulation and verification run on --threads T threads (default: "
       "the hardware's, at most 64; any count gives the same result); on a terminal a progress "
       "line on standard error shows the phase, the share done and the time left (--quiet: "
       "none; never in a pipe or a file).",
       // Also in the older spellings, which scripts match.
       "layoutctl gemm --m 1000 --n 1000 --k 1000 --element-type bf16 --runner sim --emit out/\n"
       "  layoutctl gemm --m 1000 --n 1000 --k 1000 --dtype bf16 --target sim --emit out/   # the "
       "same, older spellings",
       gemmOptions(), runGemm});
}

} // namespace layoutctl
