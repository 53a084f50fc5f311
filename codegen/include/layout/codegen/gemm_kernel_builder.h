// Builds the kernel IR of a GEMM configuration from liblayout's derivations.
//
//   layout::codegen::GemmConfig config;   // 4096^3 bf16, sg_layout [8, 4], sg_data [32, 64]
//   auto kernel = layout::codegen::buildGemmKernel(config);
//   if (!kernel) report(kernel.error().message);   // names the rule the config breaks
//   std::cout << layout::codegen::kernelReportText(*kernel);
//
// Derivation. The workgroup tile is a Triton `#ttig.dpas` layout (warpsPerCTA = sg_layout,
// repCluster = sg_data / [RC, 16]) and its A / B operands are `#ttg.dot_op`s of it on the
// [tileM, k_tile] and [k_tile, tileN] tiles. intel::planBlockLoads turns each operand into block
// loads, their offsets from the subgroup origin (a warp -> coordinate layout) and the shuffles
// that cut each load's registers into DPAS operands; the DPAS instruction a shuffle feeds, and
// the output tile of every accumulator, are read off the linear layouts (register index ->
// coordinates). The accumulator is stored with 32-bit block stores of one DPAS tile each, after
// checking that the block store's per-lane order is the DPAS result layout. Cooperative
// prefetch splits the next A and B tiles into the largest legal prefetch blocks, dealt to the
// subgroups round robin.
#pragma once

#include "layout/codegen/kernel_ir.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace layout::codegen {

// Errors: an invalid configuration (validateGemmConfig's message), or a derivation that fails
// (e.g. no legal block load for an operand), with the operand named.
Expected<GemmKernel> buildGemmKernel(const GemmConfig& config);

// Human-readable plan and static report (several lines).
std::string kernelReportText(const GemmKernel& kernel);
// {"config", "kernel", "launch", "encodings", "blockLoads": {"A", "B"}, "stores", "report"}.
nlohmann::ordered_json kernelPlanToJson(const GemmKernel& kernel);

} // namespace layout::codegen
