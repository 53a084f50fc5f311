// Build a DPAS GEMM kernel from a tile configuration and check that it computes D = A * B: a
// 64x64x64 bf16 -> f32 GEMM on 2x2 subgroups of 16x32 (K step 32, PVC) is built from liblayout's
// DPAS layouts and block-load plans (codegen::buildGemmKernel), run in the Xe functional
// simulator on every subgroup of the launch (kernels::simulateGemmKernel), and verified against an
// exact reference (kernels::verifyGemm): bit for bit on small-integer inputs, within the fp32
// summation bound on random ones. Takes well under a second.
//
//   ./build/examples/gemm_build_simulate
#include "layout/codegen/gemm_config.h"
#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/kernels/gemm_verification.h"
#include "layout/kernels/xe_simulator.h"

#include <iostream>

using namespace layout;

int main() {
  codegen::GemmConfig config;
  config.m = config.n = config.k = 64;
  config.dtype = codegen::GemmDataType::BF16;
  // The workgroup tile is sg_layout * sg_data = 32x64, so 64x64 needs 2 workgroups.
  config.sgLayout = {2, 2};
  config.sgData = {16, 32};
  config.kTile = 32;
  // The builder checks every configuration rule first and names the one a config breaks.
  auto kernel = codegen::buildGemmKernel(config);
  if (!kernel) {
    std::cerr << "error: " << kernel.error().message << "\n";
    return 1;
  }
  // The plan (loads, shuffles, DPAS, stores per K step) and the static register / byte report.
  std::cout << codegen::kernelReportText(*kernel) << "\n";

  bool passed = true;
  for (auto kind : {kernels::InputKind::ExactSums, kernels::InputKind::Random}) {
    // Fresh inputs from a seed; C starts poisoned with NaN so an unwritten element fails.
    auto inputs = kernels::makeGemmInputs(config, kind, /*seed=*/1);
    auto stats = kernels::simulateGemmKernel(*kernel, inputs.memory);
    if (!stats) {
      std::cerr << "error: simulation: " << stats.error().message << "\n";
      return 1;
    }
    const auto v = kernels::verifyGemm(config, inputs);
    std::cout << (kind == kernels::InputKind::ExactSums ? "exact inputs" : "random inputs")
              << ": simulated " << stats->workgroups << " workgroups (" << stats->subgroups
              << " subgroups): " << stats->dpas << " DPAS, " << stats->loads << " loads, "
              << stats->stores << " stores\n"
              << "verification: " << v.summary() << "\n";
    passed = passed && v.passed;
  }
  return passed ? 0 : 1;
}
