// Typed TritonGPU encodings: one parameter struct per encoding, with a builder (toEncoding: the
// verified Encoding, built from values, no attribute text parsed), a printer (printEncoding:
// MLIR's canonical text) and a reader (from a parsed Encoding). Programs that make encodings
// (the GEMM kernel builder, swizzle synthesis) build them from these structs.
//
//   using namespace layout::triton;
//   BlockedEncoding blocked{.sizePerThread = {1, 4}, .threadsPerWarp = {8, 4},
//                           .warpsPerCTA = {4, 1}, .order = {1, 0}};
//   printEncoding(blocked);   // "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4],
//                             //   warpsPerCTA = [4, 1], order = [1, 0]}>"
//   auto enc = toEncoding(blocked);                   // Expected<Encoding>, Triton's rules checked
//   auto ll = toLinearLayout(*enc, std::vector<int64_t>{128, 64});
//   auto back = blockedEncoding(*parseEncoding(text)); // the parameters of parsed text
//
// Parameters that Triton prints only when set (CGA layout, tilesPerWarp, kWidth, ...) are left
// out of the text when empty or 0. The CGA layout is Triton 3.6's CGALayout (the bases of "block"
// over the dims); readers turn the older CTAsPerCGA / CTASplitNum / CTAOrder into the same bases.
#pragma once

#include "layout/core/expected.h"
#include "layout/triton/encoding.h"
#include "layout/triton/intel_dpas.h"
#include "layout/triton/intel_subgroup_2d_block.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace layout::triton {

using Bases = std::vector<std::vector<int64_t>>;

// #ttg.blocked
struct BlockedEncoding {
  std::vector<int64_t> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  Bases cgaLayout; // empty: one CTA
};
// #ttg.slice: the parent with dim `dim` removed.
struct SliceEncoding {
  int64_t dim = 0;
  Encoding parent;
};
// #ttg.dot_op: operand opIdx (0: A, 1: B) of an MMA-like parent.
struct DotOperandEncoding {
  int64_t opIdx = 0;
  Encoding parent;
  int64_t kWidth = 0; // 0: absent
};
// #ttg.nvidia_mma
struct NvidiaMmaEncoding {
  int64_t versionMajor = 2, versionMinor = 0;
  std::vector<int64_t> warpsPerCTA, instrShape;
  Bases cgaLayout;
};
// #ttg.amd_mfma
struct AmdMfmaEncoding {
  int64_t version = 3;
  std::vector<int64_t> warpsPerCTA, instrShape;
  bool isTransposed = false;
  std::vector<int64_t> tilesPerWarp; // empty: absent
  int64_t elementBitWidth = 0;       // 0: absent
  Bases cgaLayout;
};
// #ttg.amd_wmma, in Triton 3.6's form (warpsPerCTA, tilesPerWarp) or Triton main's
// (ctaLayout = {register = [...], warp = [...]}, the warp arrangement over WMMA tiles).
struct AmdWmmaEncoding {
  int64_t version = 1;
  bool isTranspose = false;
  std::vector<int64_t> warpsPerCTA;
  std::vector<int64_t> tilesPerWarp, instrShape; // empty: absent
  Bases cgaLayout;
  bool hasCtaLayout = false; // Triton main's form: the two below instead of warpsPerCTA
  Bases ctaRegisters, ctaWarps;
  int64_t rank = 0; // 0: absent (Triton main prints no rank)
};
// #ttg.linear: the bases of each hardware in-dim over the tensor dims.
struct LinearEncoding {
  Bases registers, lanes, warps, blocks;
};
// #ttg.swizzled_shared
struct SwizzledSharedEncoding {
  int64_t vec = 1, perPhase = 1, maxPhase = 1;
  std::vector<int64_t> order;
  Bases cgaLayout;
};
// #ttg.amd_rotating_shared (the swizzled parameters, rotated per block of rows)
struct AmdRotatingSharedEncoding {
  int64_t vec = 1, perPhase = 1, maxPhase = 1;
  std::vector<int64_t> order;
  Bases cgaLayout;
};
// #ttg.nvmma_shared
struct NvmmaSharedEncoding {
  int64_t swizzlingByteWidth = 0;
  bool transposed = false;
  int64_t elementBitWidth = 16;
  bool fp4Padded = false;
  int64_t rank = 0; // 0: absent (2)
  Bases cgaLayout;
};
// #ttg.padded_shared: [interval:+pad, ...] then either {order, shape} or the linear component's
// {offset, block} bases.
struct PaddedSharedEncoding {
  std::vector<std::pair<int64_t, int64_t>> intervalPaddings;
  std::vector<int64_t> order, shape; // the order/shape form (when offsetBases is empty)
  Bases offsetBases, blockBases;     // the linear form
};
// #ttg.shared_linear
struct SharedLinearEncoding {
  Bases offset, block;
  int64_t alignment = 0; // 0: absent
};
// #ttig.dpas: IntelDpasParams (layout/triton/intel_dpas.h).
using IntelDpasEncoding = IntelDpasParams;
// #ttg.partitioned_shared (Triton main): a shared layout split into numPartitions buffers.
struct PartitionedSharedEncoding {
  int64_t numPartitions = 2, numGroups = 1, partitionDim = 0;
  Encoding partitionLayout;
};
// #ttig.subgroup_2d_block: Subgroup2DBlockParams (layout/triton/intel_subgroup_2d_block.h) and the
// CGA layout.
struct Subgroup2DBlockEncoding {
  Subgroup2DBlockParams params;
  Bases cgaLayout;
};

// Builders: the encoding, verified with Triton's rules (errors as parseEncoding gives them).
Expected<Encoding> toEncoding(const BlockedEncoding& e);
Expected<Encoding> toEncoding(const SliceEncoding& e);
Expected<Encoding> toEncoding(const DotOperandEncoding& e);
Expected<Encoding> toEncoding(const NvidiaMmaEncoding& e);
Expected<Encoding> toEncoding(const AmdMfmaEncoding& e);
Expected<Encoding> toEncoding(const AmdWmmaEncoding& e);
Expected<Encoding> toEncoding(const LinearEncoding& e);
Expected<Encoding> toEncoding(const SwizzledSharedEncoding& e);
Expected<Encoding> toEncoding(const AmdRotatingSharedEncoding& e);
Expected<Encoding> toEncoding(const NvmmaSharedEncoding& e);
Expected<Encoding> toEncoding(const PaddedSharedEncoding& e);
Expected<Encoding> toEncoding(const SharedLinearEncoding& e);
Expected<Encoding> toEncoding(const IntelDpasEncoding& e);
Expected<Encoding> toEncoding(const Subgroup2DBlockEncoding& e);
Expected<Encoding> toEncoding(const PartitionedSharedEncoding& e);

// Printers: MLIR's canonical text (not verified; toEncoding checks the rules).
std::string printEncoding(const BlockedEncoding& e);
std::string printEncoding(const SliceEncoding& e);
std::string printEncoding(const DotOperandEncoding& e);
std::string printEncoding(const NvidiaMmaEncoding& e);
std::string printEncoding(const AmdMfmaEncoding& e);
std::string printEncoding(const AmdWmmaEncoding& e);
std::string printEncoding(const LinearEncoding& e);
std::string printEncoding(const SwizzledSharedEncoding& e);
std::string printEncoding(const AmdRotatingSharedEncoding& e);
std::string printEncoding(const NvmmaSharedEncoding& e);
std::string printEncoding(const PaddedSharedEncoding& e);
std::string printEncoding(const SharedLinearEncoding& e);
std::string printEncoding(const IntelDpasEncoding& e);
// As the Intel backend prints it: `numBlocks=2, order=[1, 0], kWidth=1, threadsPerWarp=16`.
std::string printEncoding(const Subgroup2DBlockEncoding& e);
std::string printEncoding(const PartitionedSharedEncoding& e);

// Readers: the parameters of a parsed encoding of that kind (an error names the kind it is).
Expected<BlockedEncoding> blockedEncoding(const Encoding& e);
Expected<SliceEncoding> sliceEncoding(const Encoding& e);
Expected<DotOperandEncoding> dotOperandEncoding(const Encoding& e);
Expected<NvidiaMmaEncoding> nvidiaMmaEncoding(const Encoding& e);
Expected<AmdMfmaEncoding> amdMfmaEncoding(const Encoding& e);
Expected<AmdWmmaEncoding> amdWmmaEncoding(const Encoding& e);
Expected<LinearEncoding> linearEncoding(const Encoding& e);
Expected<SwizzledSharedEncoding> swizzledSharedEncoding(const Encoding& e);
Expected<AmdRotatingSharedEncoding> amdRotatingSharedEncoding(const Encoding& e);
Expected<NvmmaSharedEncoding> nvmmaSharedEncoding(const Encoding& e);
Expected<PaddedSharedEncoding> paddedSharedEncoding(const Encoding& e);
Expected<SharedLinearEncoding> sharedLinearEncoding(const Encoding& e);
Expected<IntelDpasEncoding> intelDpasEncoding(const Encoding& e);
Expected<Subgroup2DBlockEncoding> subgroup2DBlockEncoding(const Encoding& e);
Expected<PartitionedSharedEncoding> partitionedSharedEncoding(const Encoding& e);

} // namespace layout::triton
