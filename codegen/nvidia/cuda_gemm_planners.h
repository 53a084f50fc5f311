// Internal: the two NVIDIA GEMM planners behind buildCudaGemmPlan (cuda_gemm_plan.h), each for
// a configuration validateCudaGemmConfig accepted.
#pragma once

#include "layout/codegen/cuda_gemm_plan.h"
#include "layout/core/expected.h"

namespace layout::codegen::cuda_plan {

// arch sm80: mma.sync.m16n8k16 fed by ldmatrix from cp.async tiles (cuda_sm80_plan.cpp).
Expected<CudaGemmPlan> buildSm80Plan(const CudaGemmConfig& config);
// arch sm90: TMA into nvmma_shared tiles, wgmma.mma_async (cuda_sm90_plan.cpp).
Expected<CudaGemmPlan> buildSm90Plan(const CudaGemmConfig& config);

} // namespace layout::codegen::cuda_plan
