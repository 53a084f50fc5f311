// TritonGPU layout encodings (#ttg.*), read from MLIR attribute text, verified, and converted to
// linear layouts exactly as Triton's `toLinearLayout(shape, attr)`.
//
//   auto enc = layout::triton::parseEncoding(
//       "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
//       "order = [1, 0]}>");
//   if (!enc) std::cerr << "error: " << enc.error().message << "\n";
//   int64_t shape[] = {128, 64};
//   auto ll = layout::triton::toLinearLayout(*enc, shape);   // register, lane, warp, block -> dims
//
// Converted: blocked, slice, linear, nvidia_mma (v2, v3), amd_mfma, amd_wmma (v1-v3), Intel dpas
// (#ttig.dpas), dot_op of blocked / nvidia_mma / amd_mfma / amd_wmma / dpas parents
// (distributed); swizzled_shared, nvmma_shared, amd_rotating_shared, shared_linear and
// padded_shared's linear component (shared).
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/text/mlir_attribute.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace layout::triton {

enum class EncodingKind {
  Blocked,
  Slice,
  DotOperand,
  NvidiaMma,
  AmdMfma,
  AmdWmma,
  Linear,
  SwizzledShared,
  NvmmaShared,
  AmdRotatingShared,
  PaddedShared,
  SharedLinear,
  IntelDpas,            // #ttig.dpas (Intel DPAS; #triton_intel_gpu.dpas is read as #ttig.dpas)
  IntelSubgroup2DBlock, // #ttig.subgroup_2d_block (Intel 2D block loads)
  PartitionedShared,    // #ttg.partitioned_shared (Triton main; in-dims offset, block, partition)
};

// A parsed and verified TritonGPU encoding. `#triton_gpu.` is read as `#ttg.`, and
// `#triton_intel_gpu.` as `#ttig.`.
struct Encoding {
  EncodingKind kind = EncodingKind::Blocked;
  AttrValue attr;        // with the dialect prefix normalised to "ttg."
  std::string canonical; // the attribute text in MLIR's canonical spacing (the cache key)

  bool isShared() const;
  const std::string& text() const { return canonical; }
};

// Reads and verifies one encoding. Errors give the line and column of the offending parameter
// and the rule (rank agreement, powers of two, `order` a permutation, ...).
Expected<Encoding> parseEncoding(std::string_view text, const AttrAliases& aliases = {});
// The same from an already parsed attribute.
Expected<Encoding> encodingFromAttr(const AttrValue& attr);

// Triton's toLinearLayout, cached per (encoding, shape) like Triton's dialect-level cache: a
// repeated request returns a copy of the stored layout. Thread-safe.
//
// The conversion itself: distributed encodings map (register, lane, warp, block) to the tensor
// dims dim0..dimN-1; shared encodings map (offset, block). Every dim of `shape` must be a power of
// two; the tensor may be larger than the layout's tile (registers repeat) or smaller (broadcast).
Expected<LinearLayout> toLinearLayout(const Encoding& encoding, std::span<const int64_t> shape);
// The same without the cache (for benchmarks and for callers that convert once).
Expected<LinearLayout> toLinearLayoutUncached(const Encoding& encoding,
                                              std::span<const int64_t> shape);

// #ttg.padded_shared: the memory address (in elements) of linear offset `offset`:
// offset + sum over the intervals of (offset >> log2 interval) << log2 pad. toLinearLayout returns
// the linear component (offset, block -> dims); this is the padding applied after it.
Expected<uint64_t> paddedSharedAddress(const Encoding& encoding, uint64_t offset);
// The same as a function with the intervals read once (for callers that map many offsets).
Expected<std::function<uint64_t(uint64_t)>> paddedSharedAddressMap(const Encoding& encoding);

} // namespace layout::triton
