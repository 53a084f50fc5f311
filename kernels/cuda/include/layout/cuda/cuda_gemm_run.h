// Runs an emitted NVIDIA GEMM kernel (codegen/cuda_emitter.h) on a CUDA device: NVRTC compiles
// the source for the device's architecture, the driver API loads and launches it, the result is
// verified against the exact reference (kernels/gemm_verification.h), and CUDA events time it
// beside cuBLAS (cublasGemmEx, default heuristics, same inputs, f32 output) in the same process.
//
//   auto plan = layout::codegen::buildCudaGemmPlan(config);
//   layout::cuda::CudaRunOptions opt;                 // 2 warm-ups, median of 10, cuBLAS too
//   auto run = layout::cuda::runCudaGemm(*plan, layout::codegen::emitCuda(*plan), opt);
//   if (run.status == layout::cuda::CudaStatus::NoDevice) ...   // exit 3 in layoutctl
//   run.kernel.tflops / run.cublas.tflops;
//
// Built only where CMake finds the CUDA toolkit (driver API, NVRTC, cuBLAS): the optional
// library layout_cuda. No call throws or aborts; a machine without a driver or a device gets
// NoDevice with what was found.
#pragma once

#include "layout/codegen/cuda_gemm_plan.h"
#include "layout/kernels/gemm_verification.h"

#include <cstdint>
#include <string>

namespace layout::cuda {

struct CudaRunOptions {
  int device = 0;
  int warmup = 2, repetitions = 10;
  bool flushL2 = false; // overwrite a 512 MiB buffer before each timed run (outside the timing)
  bool cublas = true;   // time cuBLAS on the same inputs
  kernels::InputKind inputs = kernels::InputKind::Random;
  uint64_t seed = 1;
  // Rows of D checked against the exact reference: 0 = every row up to 2^31 multiply-adds,
  // else 16 rows spread over M (the first and last included).
  int64_t verifyRows = 0;
};

struct CudaTiming {
  double medianMs = 0, minMs = 0, tflops = 0; // tflops from the median
};

enum class CudaStatus { Ok, NoDevice, Failed };

struct CudaRunResult {
  CudaStatus status = CudaStatus::Failed;
  std::string message; // NoDevice / Failed: what happened
  std::string deviceName;
  int computeCapability = 0; // 90 for sm_90
  std::string compileLog;
  int registers = 0, localBytes = 0; // per thread, from the loaded function (spills: local)
  CudaTiming kernel, cublas;
  bool cublasRan = false;
  double maxDifferenceFromCublas = 0; // max |ours - cuBLAS| over D
  kernels::GemmVerification verification;
  int64_t rowsVerified = 0;
};

CudaRunResult runCudaGemm(const codegen::CudaGemmPlan& plan, const std::string& source,
                          const CudaRunOptions& options);

} // namespace layout::cuda
