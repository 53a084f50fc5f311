// The configuration of a workgroup GEMM kernel, D[M, N] = A[M, K] * B[K, N], and its rules.
//
//   layout::codegen::GemmConfig c;           // defaults: the XeGPU RFC's 4096^2 tiling
//   c.m = 1000; c.n = 1000; c.k = 1000;      //   (sg_layout [8, 4], sg_data [32, 64], k tile 32)
//   c.dtype = layout::codegen::GemmDataType::BF16;
//   if (auto e = layout::codegen::validateGemmConfig(c); !e) report(e.error().message);
//   auto j = layout::codegen::gemmConfigToJson(c);  // {"m": 1000, ..., "sg_layout": [8, 4], ...}
//
// A workgroup of sg_layout[0] x sg_layout[1] subgroups (16 work-items each) computes a
// (sg_layout[0] * sg_data[0]) x (sg_layout[1] * sg_data[1]) tile of D; each subgroup owns an
// sg_data[0] x sg_data[1] block, as `#xegpu.layout<sg_layout, sg_data, inst_data = [RC, 16]>`
// distributes it (the RFC's GEMM appendix). The main loop steps K by `k_tile`. Sizes M, N, K
// need not be multiples of the tiles: the block loads' zero fill and the stores' bounds handle
// the edges.
#pragma once

#include "layout/core/expected.h"
#include "layout/intel/block_io.h"
#include "layout/target/hardware_target.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layout::codegen {

// Input type -> accumulator type: f16/bf16/tf32 -> f32, int8 (signed) -> int32.
enum class GemmDataType { F16, BF16, Int8, TF32 };

// What one data type means for DPAS (docs/reference/intel-xe.md §3.2, SG16).
struct DataTypeTraits {
  GemmDataType type;
  std::string_view name;        // "f16", "bf16", "int8", "tf32"
  std::string_view accumulator; // "f32" or "int32"
  int inputBits;                // bits of one A/B element in memory
  int opsPerChan;               // elements per 32-bit channel: 2, 2, 4, 1
  int dpasK;                    // systolic depth 8 x opsPerChan: 16, 16, 32, 8
  std::string_view openclMad;   // the cl_intel_subgroup_matrix_multiply_accumulate built-in
};
const DataTypeTraits& dataTypeTraits(GemmDataType t);
// The K step a configuration gets when it names none: 32, and 16 for tf32 (its 32-bit operands
// take twice the registers per K, and 32 overflows 256 GRF with the RFC tiling).
int64_t defaultKTile(GemmDataType t);
// "f16", "bf16", "int8", "tf32"; nullopt for anything else.
std::optional<GemmDataType> parseGemmDataType(std::string_view name);

// What the Intel (GemmConfig) and NVIDIA (CudaGemmConfig, cuda_gemm_plan.h) GEMM configurations
// share, as the base of both: the problem D[M, N] = A[M, K] * B[K, N], its input type, how B is
// stored, and the K of one main-loop step. The matrices as the host lays them out
// (matrixSurface), the inputs and the verification (layout::kernels::makeGemmInputs, verifyGemm)
// read only these, so either configuration serves them. JSON keys: m, n, k, dtype, transpose_b,
// k_tile.
struct GemmProblem {
  int64_t m = 4096, n = 4096, k = 4096;
  GemmDataType dtype = GemmDataType::BF16;
  bool transposeB = false; // B is stored as N x K (row-major B^T)
  int64_t kTile = 32;      // the K of one main-loop step (CudaGemmConfig's default: 64)
};

struct GemmConfig : GemmProblem {
  std::string arch = "pvc"; // "pvc" or "bmg" (intel::blockIoTarget names)
  std::array<int64_t, 2> sgLayout{8, 4};
  std::array<int64_t, 2> sgData{32, 64};
  int repeatCount = 8; // DPAS M: rows of one instruction
  // Pipeline depth, as sycl-tla's `Stages`: the A and B tiles are prefetched cooperatively
  // `stages` K steps ahead of the loads that use them, the first `stages` steps in a prologue
  // (0 = no prefetch). With prefetch and more than one subgroup, a split work-group barrier
  // (arrive at the start of a K step, wait at its end) keeps the subgroups within one step of
  // each other, so the blocks one subgroup prefetched for all are in cache when the others load.
  int stages = 2;
  // Workgroup order: consecutive workgroups walk M within a group of `groupM` tile rows before
  // moving to the next column, so the B columns they share stay in L2 (1: row by row, the
  // hardware's order of group ids).
  int groupM = 1;
  int grfPerThread = 256; // 128 (default mode) or 256 (large register file)
};

// The target a configuration runs on: its description and its 2D block I/O rules.
struct GemmTarget {
  target::HardwareTarget hardware;
  intel::BlockIoTarget blockIo;
};

// Every rule, checked in order; the message names the field and the rule, e.g.
// "sg_data[1] = 40: must be a power-of-two multiple of the DPAS execution size 16".
Expected<void> validateGemmConfig(const GemmConfig& c);
// The same checks; on success the target, looked up once (a @file target is read once).
Expected<GemmTarget> checkGemmConfig(const GemmConfig& c);

// JSON form (keys: m, n, k, dtype, arch, sg_layout, sg_data, k_tile, repeat_count,
// transpose_b, stages, grf_per_thread). Missing keys keep `base`'s values; unknown
// keys are errors.
Expected<GemmConfig> gemmConfigFromJson(const nlohmann::json& j, const GemmConfig& base = {});
nlohmann::ordered_json gemmConfigToJson(const GemmConfig& c);

// Derived sizes.
inline int64_t workgroupTileM(const GemmConfig& c) {
  return c.sgLayout[0] * c.sgData[0];
}
inline int64_t workgroupTileN(const GemmConfig& c) {
  return c.sgLayout[1] * c.sgData[1];
}
inline int64_t subgroupsPerWorkgroup(const GemmConfig& c) {
  return c.sgLayout[0] * c.sgLayout[1];
}

} // namespace layout::codegen
