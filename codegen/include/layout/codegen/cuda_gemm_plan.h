// The NVIDIA GEMM plan (sm80 path: mma.sync.m16n8k16 fed by ldmatrix from shared memory filled
// by cp.async), derived from liblayout's layouts: every offset, swizzle and fragment mapping the
// CUDA emitter writes (cuda_emitter.h) is a number of this plan.
//
//   layout::codegen::CudaGemmConfig c;                // 4096^3 bf16, 128x256x64 tile, 2x4 warps
//   auto plan = layout::codegen::buildCudaGemmPlan(c);
//   if (!plan) report(plan.error().message);          // names the field and the rule
//   plan->a.shared;                                   // the synthesized swizzle of A's tile
//   plan->a.ldmatrixBanks.wavefronts == plan->a.ldmatrixBanks.idealWavefronts;   // no conflict
//
// Derivation.
// - The block tile's accumulator is `#ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = warps,
//   instrShape = [16, 8]}>` over [BM, BN]; A and B are its `#ttg.dot_op`s (kWidth 2) over
//   [BM, BK] and [BK, BN]. Their first registers must be the PTX m16n8k16 fragments (checked);
//   the registers beyond are the instruction tiles, read off the layouts (register -> coordinate).
// - cp.async copies 16-byte chunks: thread t's chunk i is q = t + i * threads of the row-major
//   tile (the copy layout). Swizzle synthesis (smem::synthesizeSwizzle) picks the shared layout
//   for the pair (copy layout with st.b128 banks, operand layout with ldmatrix banks), so both
//   sides meet their lower bound; the plan then checks that 8 consecutive elements stay
//   contiguous (one cp.async chunk, one ldmatrix row).
// - ldmatrix.x4: address lane p = 8j + i names row i of matrix j. The element at its column 0 is
//   the one PTX hands to lane 4i (half 0) of register j, or with .trans to lane i/2 (half i%2);
//   the operand layout gives that element's coordinate, the inverse shared layout its offset.
//   Offsets are GF(2)-linear in the lane, warp and tile bits, so the emitter writes them as XORs
//   of per-bit constants (checked against every lane).
// - The epilogue stores accumulator register r of lane l, warp w at the accumulator layout's
//   coordinate, again an XOR of per-register, per-lane-bit and per-warp-bit constants.
#pragma once

#include "layout/codegen/gemm_config.h"
#include "layout/core/expected.h"
#include "layout/core/linear_layout.h"
#include "layout/smem/bank_analysis.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace layout::codegen {

// The problem (GemmProblem, gemm_config.h: m, n, k; dtype f16 or bf16 inputs with an f32
// accumulator and C; transposeB: B stored N x K, row-major B^T, read by ldmatrix without .trans;
// kTile: BK, the K of one pipeline stage, 64 here) and the NVIDIA kernel's shape.
struct CudaGemmConfig : GemmProblem {
  CudaGemmConfig() { kTile = 64; }
  std::string arch = "sm80"; // sm80: mma.sync + ldmatrix + cp.async (runs on sm90)
  // The defaults are the fastest of a sweep on H200 (docs/benchmarks.md): 64x64 per warp.
  std::array<int64_t, 2> blockTile{128, 256}; // BM x BN of one CTA
  std::array<int64_t, 2> warps{2, 4};         // warpsPerCTA of the accumulator layout
  int stages = 3;                             // cp.async pipeline depth (stages in flight)
  int groupM = 8; // consecutive CTAs walk groupM tile rows of a column (L2 reuse)
};

// An architecture's defaults, the fastest of a sweep on H200 (docs/benchmarks.md): sm80 as the
// struct's initialisers; sm90 128x256 x 64 with 4 stages and group_m 16.
CudaGemmConfig cudaGemmDefaults(std::string_view arch);

// Every rule; the message names the field and the rule ("k = 1001: must be a multiple of 8
// (cp.async moves 16-byte chunks of A's rows)").
Expected<void> validateCudaGemmConfig(const CudaGemmConfig& c);
// JSON form (keys: m, n, k, dtype, arch, block_tile, warps, k_tile, stages, group_m,
// transpose_b); missing keys keep `base`'s values, unknown keys are errors.
Expected<CudaGemmConfig> cudaGemmConfigFromJson(const nlohmann::json& j,
                                                const CudaGemmConfig& base = {});
nlohmann::ordered_json cudaGemmConfigToJson(const CudaGemmConfig& c);

// A coordinate in an operand's shared tile: (row, column), the column contiguous.
using TileCoord = std::array<int64_t, 2>;

// One operand (A or B) between global memory, shared memory and the mma fragments.
struct CudaOperandPlan {
  std::string name;              // "A", "B"
  std::array<int64_t, 2> tile{}; // shared tile rows x columns (A: BM x BK; B: BK x BN or BN x BK)
  bool transposed = false;       // the tile is the dot operand's transpose (B stored N x K)
  std::string encoding;          // the #ttg.dot_op text of the operand
  LinearLayout operand;          // register, lane, warp -> (tile row, tile column)
  LinearLayout copy;             // register, lane, warp -> (tile row, tile column) of cp.async
  LinearLayout shared;           // offset -> (tile row, tile column): the synthesized swizzle
  std::string sharedEncoding;    // shared as #ttg.shared_linear text
  bool ldmatrixTrans = false;    // B stored K x N: ldmatrix .trans
  int64_t stageElements = 0;     // elements of one stage's tile

  // cp.async: chunk i of thread t is at offset XOR_b(copyThreadBit[b] if t has bit b) ^
  // copyIteration[i], tile coordinate XOR_b(copyThreadCoord[b]) ^ copyIterationCoord[i].
  std::vector<uint32_t> copyThreadBit, copyIteration;
  std::vector<TileCoord> copyThreadCoord, copyIterationCoord;
  // ldmatrix.x4: issue s of a k16 step kk reads at offset XOR of ldmatrixLaneBit[b] (address
  // lane bit b), ldmatrixWarpBit[b] (warp bit b) and ldmatrixIssue[kk][s].
  std::array<uint32_t, 5> ldmatrixLaneBit{};
  std::vector<uint32_t> ldmatrixWarpBit;
  std::vector<std::vector<uint32_t>> ldmatrixIssue;

  // Bank proofs: the synthesizer's reports over the whole tile (layouts), and the enumeration
  // of the exact addresses the kernel issues (every warp, every issue).
  smem::BankReport copyBanks, ldmatrixBanks;
  struct IssueBanks {
    std::string instruction;
    int64_t issues = 0, wavefronts = 0, idealWavefronts = 0;
    int maxWays = 0;
  } copyIssues, ldmatrixIssues;
};

// One mma.sync of a warp's k16 step: D = A x B + D over accumulator registers acc..acc+3.
struct CudaMma {
  int accumulator = 0; // first of the 4 registers (c0..c3), a register index of the layout
  int aIssue = 0;      // the ldmatrix.x4 of A that loaded a0..a3
  int bIssue = 0;      // the ldmatrix.x4 of B that loaded b0, b1 ...
  int bHalf = 0;       // ... as its registers 2 * bHalf, 2 * bHalf + 1
};

struct CudaGemmReport {
  int64_t threads = 0, sharedBytes = 0, stageBytes = 0;
  int64_t accumulatorRegisters = 0; // f32 per thread
  int64_t fragmentRegisters = 0;    // 32-bit A and B fragment registers of one k16 step
  int64_t mmaPerKStep = 0;          // per warp, per BK
  int64_t ldmatrixPerKStep = 0;     // per warp
  int64_t cpAsyncPerKStep = 0;      // per thread
  int64_t bytesPerKStep = 0;        // A and B bytes per CTA per BK
  int64_t kSteps = 0;
  int64_t ctas = 0;
  double flops = 0;
};

// The sm90 path (arch sm90): TMA fills `#ttg.nvmma_shared` tiles (128-byte swizzle), a producer
// warpgroup and `consumers` consumer warpgroups meet at mbarriers, wgmma.mma_async reads the
// tiles through matrix descriptors, and the accumulator is `#ttg.nvidia_mma` v3.
struct CudaSm90Plan {
  int consumers = 2;                     // consumer warpgroups, 64 rows of the CTA tile each
  std::string sharedEncoding;            // the nvmma_shared text of A's and B's tiles
  LinearLayout sharedA, sharedB;         // offset -> tile coordinates: TMA's SWIZZLE_128B (checked)
  std::array<int64_t, 2> boxA{}, boxB{}; // TMA boxes {inner elements, rows}
  int64_t stageBytes = 0;                // one stage: A's box then B's, each 1024-byte aligned
  int64_t bytesB = 0;                    // offset of B's boxes in a stage
  int64_t rowGroupBytes = 0;    // A's descriptor stride byte offset: 8 rows (the layout's row 8)
  int64_t kStepBytes = 0;       // A's descriptor start step per k16 (the layout's column 16)
  int64_t consumerRowBytes = 0; // A offset of consumer warpgroup 1 (the layout's row 64)
  // B stored K x N (no transpose_b) is N-major: its stage is BN / 64 TMA boxes of [64 k, 64 n],
  // the nvmma_shared layout over [64, BN], and wgmma reads it transposed (tnspB) through a
  // descriptor whose leading offset steps 64 columns of N and whose start steps 16 rows of K.
  bool bNMajor = false;
  int64_t bBoxes = 1;        // TMA boxes per B stage
  int64_t bLeadingBytes = 0; // B's descriptor leading byte offset (N-major: 64 columns of N)
  int64_t bStrideBytes = 0;  // B's descriptor stride byte offset (8 rows)
  int64_t bKStepBytes = 0;   // B's descriptor start step per k16
};

struct CudaGemmPlan {
  CudaGemmConfig config;
  bool sm90 = false;
  CudaSm90Plan hopper; // arch sm90 only
  std::string name;    // e.g. "gemm_sm80_bf16_128x128x32_w2x2_s4"
  std::string accumulatorEncoding;
  LinearLayout accumulator; // register, lane, warp -> (row, column) of the block tile
  // Accumulator coordinates: register r alone, lane bit b, warp bit b (XOR them).
  std::vector<TileCoord> accumulatorRegister;
  std::array<TileCoord, 5> accumulatorLaneBit{};
  std::vector<TileCoord> accumulatorWarpBit;
  CudaOperandPlan a, b;
  int64_t aIssuesPerK16 = 0, bIssuesPerK16 = 0;
  std::vector<CudaMma> mmas; // one k16 step of a warp (the same for every kk)
  CudaGemmReport report;
};

// Errors: the configuration's rule, or a derivation that fails (a layout whose fragment is not
// the instruction's, a swizzle that splits a 16-byte chunk), naming the operand.
Expected<CudaGemmPlan> buildCudaGemmPlan(const CudaGemmConfig& config);

// Text: the layouts, swizzles, bank proofs and the static report. JSON: the same, for --emit.
std::string cudaGemmReportText(const CudaGemmPlan& plan);
nlohmann::ordered_json cudaGemmPlanToJson(const CudaGemmPlan& plan);

} // namespace layout::codegen
