// The sm90 branch of emitCuda (cuda_emitter.h): TMA + mbarrier + wgmma.mma_async.
#pragma once

#include "layout/codegen/cuda_gemm_plan.h"

#include <string>

namespace layout::codegen {

std::string emitCudaSm90(const CudaGemmPlan& plan);

} // namespace layout::codegen
