// layoutctl gemm --runner cuda: the NVIDIA GEMM plan (codegen/cuda_gemm_plan.h), its CUDA C++
// (codegen/cuda_emitter.h), and a verified, timed run beside cuBLAS where the build has the CUDA
// runner (cuda/).
#include "gemm_options.h"

#include "layout/codegen/cuda_emitter.h"
#include "layout/codegen/cuda_gemm_plan.h"
#if LAYOUT_HAVE_CUDA
#include "layout/cuda/cuda_gemm_run.h"
#endif

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

namespace layoutctl {
namespace {

namespace codegen = layout::codegen;

// The architecture's defaults (4096^3 bf16; codegen::cudaGemmDefaults), then --config, then the
// options.
codegen::CudaGemmConfig readCudaConfig(const Args& args) {
  const std::string arch = args.option("arch").value_or("sm80");
  if (arch != "sm80" && arch != "sm90")
    throw CliExit{kUsage,
                  "--arch '" + arch + "': " + runnerOption(args) + " cuda takes sm80 or sm90"};
  codegen::CudaGemmConfig c = codegen::cudaGemmDefaults(arch);
  if (auto path = args.option("config")) {
    const nlohmann::json j = readConfigJson(*path);
    auto fromFile = codegen::cudaGemmConfigFromJson(j, c);
    if (!fromFile)
      throw CliExit{kInvalidInput, "--config " + *path + ": " + fromFile.error().message};
    c = *fromFile;
  }
  c.m = intOption(args, "m", c.m);
  c.n = intOption(args, "n", c.n);
  c.k = intOption(args, "k", c.k);
  if (auto d = args.option("element-type")) {
    auto t = codegen::parseGemmDataType(*d);
    if (!t || (*t != codegen::GemmDataType::F16 && *t != codegen::GemmDataType::BF16))
      throw CliExit{kUsage, "--" + args.given("element-type") + " '" + *d +
                                "': " + runnerOption(args) + " cuda takes f16 or bf16"};
    c.dtype = *t;
  }
  if (args.option("arch")) c.arch = arch;
  c.blockTile = pairOption(args, "block-tile", c.blockTile);
  // sm90's warps follow the tile (one consumer warpgroup per 64 rows): a --warps there would be
  // silently ignored, so it is refused.
  if (c.arch == "sm90" && args.option("warps"))
    throw CliExit{kUsage, "--warps: applies to --arch sm80 only (sm90 runs one consumer "
                          "warpgroup per 64 rows of --block-tile)"};
  c.warps = pairOption(args, "warps", c.warps);
  c.kTile = intOption(args, "k-tile", c.kTile);
  auto small = [&](const char* name, int fallback) {
    const int64_t v = intOption(args, name, fallback);
    if (v < -1000 || v > 1000)
      throw CliExit{kInvalidInput,
                    std::string("--") + name + " " + std::to_string(v) + ": out of range"};
    return static_cast<int>(v);
  };
  c.stages = small("stages", c.stages);
  c.groupM = small("group-m", c.groupM);
  if (args.flag("transpose-b")) c.transposeB = true;
  return c;
}

#if LAYOUT_HAVE_CUDA
nlohmann::ordered_json timingJson(double ms, double minMs, double tflops) {
  return {{"medianMs", ms}, {"minMs", minMs}, {"tflops", tflops}};
}
#endif

} // namespace

int runGemmCuda(const Args& args) {
  const codegen::CudaGemmConfig config = readCudaConfig(args);
  auto plan = codegen::buildCudaGemmPlan(config);
  if (!plan) throw CliExit{kInvalidInput, plan.error().message};
  const std::string source = codegen::emitCuda(*plan);
  nlohmann::ordered_json out;
  out["plan"] = codegen::cudaGemmPlanToJson(*plan);
  if (!args.json()) std::cout << codegen::cudaGemmReportText(*plan);

  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  if (auto dir = args.option("emit")) {
    std::error_code ec;
    std::filesystem::create_directories(*dir, ec);
    if (ec) throw CliExit{kInvalidInput, "--emit " + *dir + ": " + ec.message()};
    const std::filesystem::path base = std::filesystem::path(*dir) / plan->name;
    writeTextFile(base.string() + ".cu", source, "--emit");
    writeTextFile(base.string() + ".plan.json", out["plan"].dump(2) + "\n", "--emit");
    files.push_back(base.string() + ".cu");
    files.push_back(base.string() + ".plan.json");
  }
  out["emitted"] = files;
  if (!args.json())
    for (const auto& f : files) std::cout << "wrote " << f.get<std::string>() << "\n";

  const std::string inputs = args.option("inputs").value_or("random");
  if (inputs != "random" && inputs != "exact")
    throw CliExit{kUsage, "--inputs '" + inputs + "': expected random or exact"};
  const int64_t reps = intOption(args, "repetitions", 10);
  if (reps < 1 || reps > 1000)
    throw CliExit{kInvalidInput,
                  "--repetitions " + std::to_string(reps) + ": must be in [1, 1000]"};
  const int64_t verifyRows = intOption(args, "verify-rows", 0);
  if (verifyRows < 0)
    throw CliExit{kInvalidInput, "--verify-rows " + std::to_string(verifyRows) + ": must be >= 0"};
  // Host memory: A, B and D in memory, and A, B as doubles for the reference.
  const double elems = static_cast<double>(config.m) * static_cast<double>(config.k) +
                       static_cast<double>(config.k) * static_cast<double>(config.n);
  const double bytes =
      10 * elems + 8 * static_cast<double>(config.m) * static_cast<double>(config.n);
  checkHostMemory(bytes, "A, B, D and the float64 reference");
#if LAYOUT_HAVE_CUDA
  layout::cuda::CudaRunOptions opt;
  opt.device = static_cast<int>(intOption(args, "device", 0));
  opt.repetitions = static_cast<int>(reps);
  opt.flushL2 = args.flag("flush-l2");
  opt.cublas = !args.flag("no-cublas");
  opt.inputs = inputs == "exact" ? layout::kernels::InputKind::ExactSums
                                 : layout::kernels::InputKind::Random;
  opt.seed = static_cast<uint64_t>(intOption(args, "seed", 1));
  opt.verifyRows = verifyRows;
  const auto run = layout::cuda::runCudaGemm(*plan, source, opt);
  if (run.status == layout::cuda::CudaStatus::NoDevice)
    throw CliExit{kNoDevice, "cuda: no device: " + run.message};
  if (run.status != layout::cuda::CudaStatus::Ok)
    throw CliExit{kInvalidInput, "cuda: " + run.message};
  out["device"] = {{"name", run.deviceName},
                   {"computeCapability", run.computeCapability},
                   {"registers", run.registers},
                   {"localBytes", run.localBytes}};
  out["timing"] = {
      {"kernel", timingJson(run.kernel.medianMs, run.kernel.minMs, run.kernel.tflops)}};
  if (run.cublasRan) {
    out["timing"]["cublas"] = timingJson(run.cublas.medianMs, run.cublas.minMs, run.cublas.tflops);
    out["timing"]["ratio"] = run.kernel.tflops / run.cublas.tflops;
    out["maxDifferenceFromCublas"] = run.maxDifferenceFromCublas;
  }
  out["verification"] = layout::kernels::gemmVerificationToJson(run.verification);
  out["verification"]["rows"] = run.rowsVerified;
  if (args.json()) {
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << "ran on " << run.deviceName << " (sm_" << run.computeCapability
              << "): " << run.registers << " registers, " << run.localBytes
              << " bytes of local memory "
              << "per thread\n";
    if (!run.compileLog.empty()) std::cout << "NVRTC log:\n" << run.compileLog << "\n";
    std::cout << "verification (" << run.rowsVerified << " of " << config.m
              << " rows): " << run.verification.summary() << "\n";
    std::cout << "kernel: " << run.kernel.medianMs << " ms (median of " << reps << "), "
              << run.kernel.tflops << " TFLOP/s\n";
    if (run.cublasRan)
      std::cout << "cuBLAS: " << run.cublas.medianMs << " ms, " << run.cublas.tflops
                << " TFLOP/s; ours / cuBLAS = " << run.kernel.tflops / run.cublas.tflops
                << "; max |ours - cuBLAS| = " << run.maxDifferenceFromCublas << "\n";
  }
  return run.verification.passed ? kOk : kInvalidInput;
#else
  if (args.json()) std::cout << out.dump(2) << "\n";
  throw CliExit{kNoDevice, "cuda: no device: this build has no CUDA support (configured without "
                           "the CUDA toolkit or with LAYOUT_CUDA=OFF); the plan and --emit files "
                           "are written"};
#endif
}

} // namespace layoutctl
