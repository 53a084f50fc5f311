/// \file
/// The front door of the GEMM kernel generators (library `layout::codegen`): one include for the
/// configuration and its rules, the kernel IR and its builder, the static report and performance
/// model, the OpenCL C / SPIR-V emitter, the block-load probe, and the NVIDIA GEMM plan and its
/// CUDA C++ emitter.
///
/// \code
///   #include <layout/codegen/codegen.h>
///
///   layout::codegen::GemmConfig config;   // 4096^3 bf16, sg_layout [8, 4], sg_data [32, 64]
///   auto kernel = layout::codegen::buildGemmKernel(config);
///   if (!kernel) std::cerr << "error: " << kernel.error().message << "\n";
///   std::string source = layout::codegen::emitOpenCl(*kernel);   // OpenCL C for Intel Xe
///   std::cout << layout::codegen::kernelReportText(*kernel);
/// \endcode
///
/// The layouts themselves (encodings, block-I/O model, bank models) come from layout/layout.h;
/// the Xe simulator and the GEMM verification from the kernels library (layout/kernels/).
#pragma once

#include "layout/codegen/block_load_probe.h"
#include "layout/codegen/cuda_emitter.h"
#include "layout/codegen/cuda_gemm_plan.h"
#include "layout/codegen/gemm_config.h"
#include "layout/codegen/gemm_kernel_builder.h"
#include "layout/codegen/kernel_ir.h"
#include "layout/codegen/opencl_block_builtins.h"
#include "layout/codegen/opencl_emitter.h"
#include "layout/codegen/performance_model.h"
