// The sm90 GEMM plan (cuda_gemm_plan.h): nvmma_shared tiles checked against TMA's 128-byte
// swizzle, the descriptor strides read off the layout, the v3 accumulator checked against
// wgmma's D fragment.
#include "cuda_gemm_planners.h"
#include "cuda_plan_layouts.h"
#include "cuda_ptx_fragments.h"

#include "layout/triton/encoding_params.h"

#include <array>
#include <string>
#include <utility>

namespace layout::codegen::cuda_plan {

namespace dims = layout::dims;

Expected<CudaGemmPlan> buildSm90Plan(const CudaGemmConfig& config) {
  CudaGemmPlan p;
  p.config = config;
  p.sm90 = true;
  CudaSm90Plan& h = p.hopper;
  const auto [bm, bn] = config.blockTile;
  h.consumers = static_cast<int>(bm / 64);
  const std::string dtype(dataTypeTraits(config.dtype).name);
  p.name = "gemm_sm90_" + dtype + "_" + std::to_string(bm) + "x" + std::to_string(bn) + "x64_s" +
           std::to_string(config.stages) + (config.transposeB ? "_bt" : "");
  // The accumulator: #ttg.nvidia_mma v3, four warps (one warpgroup) per consumer along M, one
  // m64nNk16 instruction over the CTA's N.
  triton::NvidiaMmaEncoding mma;
  mma.versionMajor = 3;
  mma.versionMinor = 0;
  mma.warpsPerCTA = {4 * h.consumers, 1};
  mma.instrShape = {16, bn, 16};
  LAYOUT_TRY_ASSIGN(accEncoding, triton::toEncoding(mma));
  p.accumulatorEncoding = accEncoding.text();
  LAYOUT_TRY_ASSIGN(acc, distributedLayout(accEncoding, bm, bn));
  p.accumulator = std::move(acc);
  // wgmma's D fragment (PTX ISA, m64nNk16, f32): warp w of the warpgroup holds rows 16w..16w+15
  // as ptxFragment's C.
  const uint64_t regs = p.accumulator.inDimSize(dims::reg());
  for (uint64_t r = 0; r < regs; ++r)
    for (uint64_t lane = 0; lane < 32; ++lane)
      for (uint64_t w = 0; w < 4; ++w) {
        TileCoord want = ptxFragment('C', static_cast<int>(r), static_cast<int>(lane));
        want[0] += static_cast<int64_t>(16 * w);
        if (at(p.accumulator, r, lane, w) != want)
          return Error{"accumulator: register " + std::to_string(r) + " of lane " +
                       std::to_string(lane) + " is not wgmma's D fragment element"};
      }
  for (uint64_t r = 0; r < regs; ++r) p.accumulatorRegister.push_back(at(p.accumulator, r, 0, 0));
  for (int b = 0; b < 5; ++b)
    p.accumulatorLaneBit[static_cast<size_t>(b)] = at(p.accumulator, 0, uint64_t{1} << b, 0);
  for (uint64_t w = 1; w < p.accumulator.inDimSize(dims::warp()); w <<= 1)
    p.accumulatorWarpBit.push_back(at(p.accumulator, 0, 0, w));

  // A's and B's tiles: #ttg.nvmma_shared with the 128-byte swizzle of 16-bit elements.
  triton::NvmmaSharedEncoding nvmma;
  nvmma.swizzlingByteWidth = 128;
  nvmma.transposed = false;
  nvmma.elementBitWidth = 16;
  LAYOUT_TRY_ASSIGN(sharedEncoding, triton::toEncoding(nvmma));
  h.sharedEncoding = sharedEncoding.text();
  h.bNMajor = !config.transposeB;
  // A is [BM, 64] (K contiguous); B is [BN, 64] (K contiguous) or, N-major, [64, BN].
  LAYOUT_TRY_ASSIGN(sa, sharedLayout(sharedEncoding, bm, 64));
  LAYOUT_TRY_ASSIGN(sb, h.bNMajor ? sharedLayout(sharedEncoding, 64, bn)
                                  : sharedLayout(sharedEncoding, bn, 64));
  h.sharedA = std::move(sa);
  h.sharedB = std::move(sb);
  // TMA's SWIZZLE_128B (CUDA driver API, cuTensorMapEncodeTiled) on boxes of 128-byte rows: the
  // 16-byte chunk c of row r lands at chunk c ^ (r % 8); a tile wider than 64 elements is several
  // boxes, one after the other. The nvmma layout must be exactly that.
  for (const LinearLayout* ll : {&h.sharedA, &h.sharedB}) {
    LAYOUT_TRY_ASSIGN(inv, ll->invert());
    const SharedOffsets off{std::move(inv)};
    const int64_t rows = static_cast<int64_t>(ll->outDimSize(0));
    const int64_t cols = static_cast<int64_t>(ll->outDimSize(1));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t want = (c / 64) * rows * 64 + r * 64 + (((c % 64) / 8) ^ (r % 8)) * 8 + c % 8;
        if (off.of({r, c}) != want)
          return Error{"nvmma_shared: element (" + std::to_string(r) + ", " + std::to_string(c) +
                       ") is not where TMA's 128-byte swizzle puts it"};
      }
    if (ll == &h.sharedA) {
      h.rowGroupBytes = 2 * off.of({8, 0});
      h.kStepBytes = 2 * off.of({0, 16});
      h.consumerRowBytes = rows > 64 ? 2 * off.of({64, 0}) : 0;
    } else if (h.bNMajor) {
      // Rows are K: 8 of them per stride, 16 per k16 step; 64 columns of N per leading step.
      h.bStrideBytes = 2 * off.of({8, 0});
      h.bKStepBytes = 2 * off.of({16, 0});
      h.bLeadingBytes = cols > 64 ? 2 * off.of({0, 64}) : 0;
    } else {
      h.bStrideBytes = 2 * off.of({8, 0});
      h.bKStepBytes = 2 * off.of({0, 16});
      h.bLeadingBytes = 16; // unused by a K-major swizzled operand (1 in the descriptor's units)
    }
  }
  h.boxA = {64, bm};
  h.boxB = h.bNMajor ? std::array<int64_t, 2>{64, 64} : std::array<int64_t, 2>{64, bn};
  h.bBoxes = h.bNMajor ? bn / 64 : 1;
  h.bytesB = bm * 64 * 2;
  h.stageBytes = (bm + bn) * 64 * 2;

  CudaGemmReport& r = p.report;
  r.threads = 128 * (h.consumers + 1);
  r.stageBytes = h.stageBytes;
  r.sharedBytes = h.stageBytes * config.stages + 2048; // + 1024-byte alignment and barriers
  r.accumulatorRegisters = static_cast<int64_t>(regs);
  r.mmaPerKStep = 4; // wgmma m64nNk16 per consumer warpgroup
  r.bytesPerKStep = h.stageBytes;
  r.kSteps = (config.k + 63) / 64;
  r.ctas = ((config.m + bm - 1) / bm) * ((config.n + bn - 1) / bn);
  r.flops = 2.0 * static_cast<double>(config.m) * static_cast<double>(config.n) *
            static_cast<double>(config.k);
  return p;
}

} // namespace layout::codegen::cuda_plan
