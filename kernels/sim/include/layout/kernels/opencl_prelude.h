// OpenCL C that emulates Intel's subgroup built-ins (cl_intel_subgroup_2d_block_io,
// cl_intel_subgroup_matrix_multiply_accumulate[_tf32], intel_sub_group_shuffle[_xor] of
// cl_intel_subgroups, cl_intel_split_work_group_barrier) and the subgroup queries in portable
// OpenCL C 2.0, so that a kernel generated for Intel Xe runs unchanged on an OpenCL device without
// subgroups (PoCL on the CPU).
//
//   layout::Expected<std::string> prelude = layout::kernels::openClIntelPrelude(kernelText);
//   if (!prelude) std::cerr << prelude.error().message << "\n";
//   std::string program = *prelude + kernelText;   // build with kOpenClPreludeBuildOptions
//   // refuse launches of more than kOpenClPreludeMaxWorkItems work-items
//
// Why: PoCL has neither subgroups nor the Intel extensions, so an emulation is the only way to
// run these kernels on a machine without an Intel GPU. It is written from the Khronos extension
// texts alone, as a model independent of the Xe simulator.
//
// Model. A subgroup is 16 consecutive work-items in local linear order, so the local size in
// dimension 0 must be a multiple of 16. Block reads, writes and prefetches need no communication:
// each work-item computes its own elements (out-of-bounds reads give 0, out-of-bounds writes are
// dropped, prefetch does nothing). The matrix multiply-accumulate and the shuffles exchange values
// through a program-scope global scratch array indexed by the global linear id, between two
// work-group barriers; so every work-item of the work-group must make those calls, and a launch may
// have at most kOpenClPreludeMaxWorkItems work-items (the scratch capacity).
//
// Numerics of the floating-point multiply-accumulate: every product is exact, even where it leaves
// the fp32 range, and each result element is acc + p[0] + p[1] + ... + p[K-1], each exact product
// added one at a time in k order with one fp32 round-to-nearest-even rounding (fma). tf32 inputs
// keep their top 10 mantissa bits (the low 13 bits are ignored). A bf16 accumulator is widened
// exactly and the fp32 result rounded once to bf16 (nearest even). Integer forms give the low 32
// bits of the exact sum.
#pragma once

#include "layout/core/expected.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace layout::kernels {

// The emulated subgroup size (the only size these built-ins define on Xe).
inline constexpr int kOpenClPreludeSubGroupSize = 16;

// The most work-items one launch may have (global size product): the scratch array holds
// kOpenClPreludeScratchWordsPerWorkItem 32-bit words for each.
inline constexpr std::size_t kOpenClPreludeMaxWorkItems = std::size_t{1} << 16;
inline constexpr std::size_t kOpenClPreludeScratchWordsPerWorkItem = 16;

// Program-scope variables and get_local_linear_id need OpenCL C 2.0.
inline constexpr std::string_view kOpenClPreludeBuildOptions = "-cl-std=CL2.0";

// The OpenCL C text to place before `kernelSource`: definitions of every Intel built-in the kernel
// names (comments are ignored) plus the subgroup queries. An error names a built-in this model
// does not know or a block shape cl_intel_subgroup_2d_block_io does not define.
Expected<std::string> openClIntelPrelude(std::string_view kernelSource);

} // namespace layout::kernels
