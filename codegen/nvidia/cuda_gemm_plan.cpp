// The NVIDIA GEMM plan (cuda_gemm_plan.h): the configuration's rules, then the architecture's
// planner. The pieces, one job each:
//   cuda_gemm_config.cpp     defaults, rules and the JSON form of CudaGemmConfig
//   cuda_plan_layouts.*      reading layouts, the per-CTA layouts of typed Triton encodings
//   cuda_ptx_fragments.*     the PTX ISA's mma / wgmma / ldmatrix fragments, checked on layouts
//   cuda_sm80_plan.cpp       mma.sync + ldmatrix + cp.async: swizzles, offsets, bank proofs
//   cuda_sm90_plan.cpp       wgmma + TMA: nvmma_shared tiles and descriptor strides
//   cuda_gemm_plan_json.cpp  the plan as JSON; cuda_gemm_report.cpp  the plan as text
#include "layout/codegen/cuda_gemm_plan.h"

#include "cuda_gemm_planners.h"

namespace layout::codegen {

Expected<CudaGemmPlan> buildCudaGemmPlan(const CudaGemmConfig& config) {
  LAYOUT_TRY(validateCudaGemmConfig(config));
  if (config.arch == "sm90") return cuda_plan::buildSm90Plan(config);
  return cuda_plan::buildSm80Plan(config);
}

} // namespace layout::codegen
