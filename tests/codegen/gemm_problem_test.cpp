// GemmProblem (gemm_config.h): the part of a GEMM configuration the Intel GemmConfig and the NVIDIA
// CudaGemmConfig share, with each configuration's defaults, and the host-side geometry
// (matrixSurface) that either configuration gives the same way.
#include "layout/codegen/cuda_gemm_plan.h"
#include "layout/codegen/gemm_config.h"
#include "layout/codegen/kernel_ir.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace layout::codegen {
namespace {

TEST(GemmProblem, EachConfigurationKeepsItsDefaults) {
  const GemmConfig intel;
  const CudaGemmConfig cuda;
  for (const GemmProblem* p :
       {static_cast<const GemmProblem*>(&intel), static_cast<const GemmProblem*>(&cuda)}) {
    EXPECT_EQ(p->m, 4096);
    EXPECT_EQ(p->n, 4096);
    EXPECT_EQ(p->k, 4096);
    EXPECT_EQ(p->dtype, GemmDataType::BF16);
    EXPECT_FALSE(p->transposeB);
  }
  EXPECT_EQ(intel.kTile, 32);
  EXPECT_EQ(cuda.kTile, 64);
  EXPECT_EQ(cudaGemmDefaults("sm90").kTile, 64);
  EXPECT_EQ(cudaGemmConfigToJson(cuda)["k_tile"], 64);
  EXPECT_EQ(gemmConfigToJson(intel)["k_tile"], 32);
}

TEST(GemmProblem, SurfacesFollowTheProblemAlone) {
  CudaGemmConfig cuda;
  cuda.m = 1000;
  cuda.n = 24;
  cuda.k = 520;
  cuda.dtype = GemmDataType::F16;
  for (bool transposeB : {false, true}) {
    cuda.transposeB = transposeB;
    GemmConfig intel;
    static_cast<GemmProblem&>(intel) = cuda; // the shared part, as one assignment
    EXPECT_EQ(intel.kTile, 64);
    EXPECT_EQ(intel.arch, "pvc"); // the Intel-only fields keep their values
    for (MatrixOperand m : {MatrixOperand::A, MatrixOperand::B, MatrixOperand::C}) {
      const auto a = matrixSurface(cuda, m), b = matrixSurface(intel, m);
      EXPECT_EQ(a.widthBytes, b.widthBytes);
      EXPECT_EQ(a.height, b.height);
      EXPECT_EQ(a.pitchBytes, b.pitchBytes);
    }
    // B as stored: K x N, or N x K with transpose_b.
    EXPECT_EQ(matrixSurface(cuda, MatrixOperand::B).height, transposeB ? 24 : 520);
  }
}

} // namespace
} // namespace layout::codegen
