// Internal: parameter access and the per-encoding converters behind triton::toLinearLayout.
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/triton/encoding.h"
#include "layout/triton/intel_dpas.h"
#include "layout/triton/intel_subgroup_2d_block.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace layout::triton::detail {

// An error for the first parameter name that `kind` does not take (encoding_parameters.cpp).
Expected<void> checkParameterNames(EncodingKind kind, const AttrValue& attr);

// Required / optional parameters of an attribute, with type checks.
Expected<std::vector<int64_t>> intList(const AttrValue& attr, const char* key);
Expected<int64_t> intParam(const AttrValue& attr, const char* key);
Expected<std::vector<std::vector<int64_t>>> basesParam(const AttrValue& attr, const char* key);

// "'key' = [..]: every entry must be a power of two (linear layouts cannot represent x)".
Expected<void> checkPowersOfTwo(const AttrValue& attr, const char* key,
                                std::span<const int64_t> values);
// "'key' = [..] must be a permutation of 0..rank-1".
Expected<void> checkOrder(const AttrValue& attr, const char* key, std::span<const int64_t> order,
                          size_t rank);

// "the encoding has rank R but the tensor shape has rank S" unless they agree.
Expected<void> checkRank(size_t encodingRank, std::span<const int64_t> shape);

// `layout` grown (first in-dim) and broadcast to `shape`, out-dims dim0..dimN-1 in order.
Expected<LinearLayout> fitToShape(const LinearLayout& layout, std::span<const int64_t> shape);

// acc = acc * factor (Triton's `*=`), for chains of products; an error from either is returned.
Expected<void> multiplyInto(LinearLayout& acc, const Expected<LinearLayout>& factor);

// The CTA-to-tensor layout of a distributed or shared encoding (in-dim "block" -> dim0..): from
// `CGALayout = [[...]]`, from the older CTAsPerCGA / CTASplitNum / CTAOrder, or one CTA.
Expected<LinearLayout> cgaLayout(const AttrValue& attr, int rank);

// Triton's combineCtaCgaWithShape: fits a CTA layout and the CGA layout to `shape`.
Expected<LinearLayout> combineCtaCgaWithShape(const LinearLayout& cta, const LinearLayout& cga,
                                              std::span<const int64_t> shape);

// Per-CTA shape: shape[d] / min(shape[d], CTAs along d).
std::vector<int64_t> shapePerCTA(const LinearLayout& cga, std::span<const int64_t> shape);

Expected<LinearLayout> blockedToLinearLayout(const AttrValue& attr, std::span<const int64_t> shape);
Expected<LinearLayout> sliceToLinearLayout(const AttrValue& attr, std::span<const int64_t> shape);
Expected<LinearLayout> nvidiaMmaToLinearLayout(const AttrValue& attr,
                                               std::span<const int64_t> shape);
Expected<LinearLayout> dotOperandToLinearLayout(const AttrValue& attr,
                                                std::span<const int64_t> shape);
// (M, N) of an amd_mfma instruction: one Triton defines a layout for, else Triton's message.
Expected<void> checkMfmaInstrShape(const AttrValue& mfma, int64_t mDim, int64_t nDim);
Expected<LinearLayout> amdMfmaToLinearLayout(const AttrValue& attr, std::span<const int64_t> shape);
Expected<LinearLayout> amdMfmaDotToLinearLayout(const AttrValue& dot, const AttrValue& mfma,
                                                std::span<const int64_t> shape);
// Triton main's `ctaLayout = {register = [...], warp = [...]}` of #ttg.amd_wmma (register may be
// omitted; `rank` gives the rank of an empty one, default 2): the warp arrangement over WMMA
// tiles, in-dims register, warp -> dim0.., out sizes the smallest that hold the bases (it must be
// surjective onto them). nullopt when the attribute has the 3.6 parameters instead.
Expected<std::optional<LinearLayout>> wmmaCtaLayout(const AttrValue& attr);
Expected<LinearLayout> amdWmmaToLinearLayout(const AttrValue& attr, std::span<const int64_t> shape);
Expected<LinearLayout> amdWmmaDotToLinearLayout(const AttrValue& dot, const AttrValue& wmma,
                                                std::span<const int64_t> shape);
Expected<LinearLayout> linearToLinearLayout(const AttrValue& attr, std::span<const int64_t> shape);
Expected<LinearLayout> swizzledSharedToLinearLayout(const AttrValue& attr,
                                                    std::span<const int64_t> shape, bool rotating);

// #ttg.nvmma_shared: its verified parameters (errors name the parameter and the rule), and its
// conversion (Triton's nvmmaSharedToLinearLayout), in-dims offset, block.
struct NvmmaSharedParams {
  int64_t swizzlingByteWidth = 0; // 0, 32, 64 or 128
  int64_t elementBitWidth = 16;   // 4, 8, 16, 32 or 64
  bool transposed = false;
  bool fp4Padded = false;
  int rank = 2;
};
Expected<NvmmaSharedParams> nvmmaSharedParams(const AttrValue& attr);
Expected<LinearLayout> nvmmaSharedToLinearLayout(const AttrValue& attr,
                                                 std::span<const int64_t> shape);

// #ttig.subgroup_2d_block: its verified parameters and its conversion.
Expected<Subgroup2DBlockParams> subgroup2DBlockParams(const AttrValue& attr);
Expected<LinearLayout> subgroup2DBlockToLinearLayout(const AttrValue& attr,
                                                     std::span<const int64_t> shape);
// The backend prints its scalar parameters without spaces around '=' (`numBlocks=2,
// order=[1, 0], kWidth=1, threadsPerWarp=16`): MLIR's text for the attribute, from ours.
std::string subgroup2DBlockSpacing(std::string text);

// #ttg.partitioned_shared (Triton main): the inner shared layout of one piece (the tensor split
// into numPartitions * numGroups pieces along partitionDim), then in-dim `partition` choosing the
// piece within a group and more `offset` bits for the groups (partitionedSharedToLinearLayout).
Expected<LinearLayout> partitionedSharedToLinearLayout(const AttrValue& attr,
                                                       std::span<const int64_t> shape);

// #ttig.dpas (Intel DPAS, `#triton_intel_gpu.dpas`): its verified parameters (DpasEncodingAttr::
// verify; errors name the parameter and the rule), the accumulator layout (operand C) and the
// layouts of its dot operands A and B (DPAStoLinearLayout; kWidth is checked, not used).
using triton::IntelDpasParams;
Expected<IntelDpasParams> intelDpasParams(const AttrValue& attr);
Expected<LinearLayout> intelDpasToLinearLayout(const AttrValue& attr,
                                               std::span<const int64_t> shape);
Expected<LinearLayout> intelDpasDotToLinearLayout(const AttrValue& dot, const AttrValue& dpas,
                                                  std::span<const int64_t> shape);

// #ttg.padded_shared: its interval:+pad list, and its linear component fitted to the shape.
Expected<std::vector<std::pair<int64_t, int64_t>>> paddingIntervals(const AttrValue& attr);
Expected<LinearLayout> paddedLinearComponent(const AttrValue& attr);
Expected<LinearLayout> paddedSharedToLinearLayout(const AttrValue& attr,
                                                  std::span<const int64_t> shape);

// The layout stored in a #ttg.shared_linear attribute (offset, block -> dims), and its fit.
Expected<LinearLayout> storedSharedLinearLayout(const AttrValue& attr);
Expected<LinearLayout> sharedLinearToLinearLayout(const AttrValue& attr,
                                                  std::span<const int64_t> shape);

// The layout stored in a #ttg.linear attribute (register, lane, warp, block -> dims).
Expected<LinearLayout> storedLinearLayout(const AttrValue& attr);

} // namespace layout::triton::detail
