// The propagation rules that live outside propagation.cpp, one file per family: vector data
// movement (extract, interleave, deinterleave, insert_strided_slice) and upstream's layout setup
// (multi_reduction and dpas at a level, subgroup-layout candidates, compatibility).
#pragma once

#include "layout/xegpu/propagation.h"

#include <optional>

namespace layout::xegpu::detail {

// One DPAS instruction of a target and element type (the RFC's tables, propagation.cpp):
// M up to maxM rows, K, N.
struct DpasInstShape {
  int64_t maxM = 8, k = 16, n = 16;
};
Expected<DpasInstShape> dpasInstShape(const std::string& target, const std::string& elementType);

Expected<OperandLayouts> propagateExtract(const PropagationRequest& req, const XeLayout& r);
Expected<OperandLayouts> propagateInterleave(const PropagationRequest& req, const XeLayout& r,
                                             bool deinterleave);
Expected<OperandLayouts> propagateInsertStridedSlice(const PropagationRequest& req,
                                                     const XeLayout& r);

// multi_reduction with `level` set: the result layout upstream sets up, and the source.
Expected<OperandLayouts> setupMultiReduction(const PropagationRequest& req,
                                             const std::optional<XeLayout>& consumer);
// dpas with numSubgroups: the subgroup layouts of a, b and c picked together.
Expected<OperandLayouts> setupDpasSubgroups(const PropagationRequest& req,
                                            const std::optional<XeLayout>& consumer);
Expected<OperandLayouts> listSubgroupLayoutCandidates(const PropagationRequest& req);
Expected<OperandLayouts> compareLayouts(const PropagationRequest& req, const XeLayout& a);

} // namespace layout::xegpu::detail
