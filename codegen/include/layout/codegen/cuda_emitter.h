// CUDA C++ (with inline PTX) of an NVIDIA GEMM plan (cuda_gemm_plan.h): one __global__ function,
// extern "C", compiled by NVRTC or nvcc without any include.
//
//   auto plan = layout::codegen::buildCudaGemmPlan(config);
//   std::string source = layout::codegen::emitCuda(*plan);   // kernel plan->name
//
// The kernel: D[M, N] (f32, row stride ldc) = A[M, K] (row stride lda) * B, with B stored K x N
// (row stride ldb) or, with transpose_b, N x K. Arguments (sm80): (A, B, C, M, N, K, lda, ldb,
// ldc), strides in elements, rows 16-byte aligned; (sm90): (tmA, tmB, C, M, N, K, ldc), A and B
// as CUtensorMaps (K innermost, boxes plan.hopper.boxA / boxB, SWIZZLE_128B) passed by value. Launch: a 1-D grid of plan.report.ctas CTAs of
// plan.report.threads threads and plan.report.sharedBytes bytes of dynamic shared memory.
// Every shared offset, coordinate and register index is a constant of the plan, written as XORs
// of per-bit constants (the layouts are linear over GF(2)); the loops over tiles are unrolled
// by the emitter, so each ldmatrix and mma.sync names its registers.
#pragma once

#include "layout/codegen/cuda_gemm_plan.h"

#include <string>

namespace layout::codegen {

std::string emitCuda(const CudaGemmPlan& plan);

} // namespace layout::codegen
