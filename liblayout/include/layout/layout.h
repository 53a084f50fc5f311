/// \file
/// The front door of liblayout: one include for the whole public C++ API.
///
/// \code
///   #include <layout/layout.h>
///
///   using namespace layout;
///   // Three lanes' bases over a 2x4 tile (dim0, dim1): lane 1 -> (0, 1), lane 2 -> (0, 2),
///   // lane 4 -> (1, 0).
///   Expected<LinearLayout> l =
///       LinearLayout::create({{dims::lane(), {{0, 1}, {0, 2}, {1, 0}}}},
///                            {{dims::standardOut(0), 2}, {dims::standardOut(1), 4}});
///   if (!l) std::cerr << "error: " << l.error().message << "\n";
///   uint64_t in[1] = {5}, out[2];
///   l->apply(in, out);   // lane 5 = 4 ^ 1 selects (1, 0) ^ (0, 1): out = {1, 1}
/// \endcode
///
/// It brings, by layer (docs/architecture.md):
/// - core: the GF(2) algebra (LinearLayout, DimName, Expected), shape fitting, the layout
///   matrix, exact sizes, conversion kinds, resource limits;
/// - text: layout JSON, MLIR attribute text and MLIR files read op by op;
/// - target: the hardware targets;
/// - triton: the TritonGPU and Intel encodings, typed parameters, text views, layout operands;
/// - xegpu: the MLIR XeGPU layouts, their queries and propagation;
/// - intel: the 2D block-I/O model and the block-load planner;
/// - smem: bank models, bank analysis, swizzle synthesis;
/// - conversion: the layout-conversion planner;
/// - report: every layout of a TritonGPU IR file and what it costs (`layoutctl report`);
/// - protocol: any layout attribute by dialect, and the `layoutctl batch` op registry.
///
/// Link `layout::protocol` (CMake) or `pkg-config --libs layout`: every liblayout library. The
/// GEMM kernel generators have their own front door, layout/codegen/codegen.h.
#pragma once

#include "layout/core/bit_rows.h"
#include "layout/core/conversion_kind.h"
#include "layout/core/dim_name.h"
#include "layout/core/exact_size.h"
#include "layout/core/expected.h"
#include "layout/core/gf2_matrix.h"
#include "layout/core/linear_layout.h"
#include "layout/core/resource_limits.h"
#include "layout/core/shape_fitting.h"

#include "layout/text/layout_json.h"
#include "layout/text/mlir_attribute.h"
#include "layout/text/mlir_ops.h"

#include "layout/target/hardware_target.h"

#include "layout/triton/encoding.h"
#include "layout/triton/encoding_params.h"
#include "layout/triton/intel_dpas.h"
#include "layout/triton/intel_subgroup_2d_block.h"
#include "layout/triton/layout_operand.h"
#include "layout/triton/layout_views.h"
#include "layout/triton/linear_encoding_of.h"

#include "layout/xegpu/compatibility.h"
#include "layout/xegpu/layout_kind.h"
#include "layout/xegpu/propagation.h"
#include "layout/xegpu/propagation_json.h"
#include "layout/xegpu/reduction_layout.h"
#include "layout/xegpu/subgroup_layout_candidates.h"
#include "layout/xegpu/xegpu_layout.h"

#include "layout/intel/block_io.h"
#include "layout/intel/block_load_plan.h"

#include "layout/smem/bank_analysis.h"
#include "layout/smem/bank_model.h"
#include "layout/smem/shared_operands.h"
#include "layout/smem/swizzle_synthesis.h"

#include "layout/conversion/conversion_plan.h"

#include "layout/report/kernel_report.h"

#include "layout/protocol/batch.h"
#include "layout/protocol/layout_attribute.h"
