// OpenCL C for a GEMM kernel IR, with the Intel subgroup extensions, and its offline compilation
// to SPIR-V.
//
//   auto kernel = layout::codegen::buildGemmKernel(config);
//   std::string source = layout::codegen::emitOpenCl(*kernel);
//   auto spirv = layout::codegen::compileToSpirv(source, kernel->name, "/tmp/gemm");
//   if (!spirv) report(spirv.error().message);       // clang-14, llvm-spirv-14
//   if (auto e = layout::codegen::validateSpirv("/tmp/gemm/" + kernel->name + ".spv"); !e)
//     report(e.error().message);
#pragma once

#include "layout/codegen/kernel_ir.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace layout::codegen {

// The kernel as OpenCL C 2.0: `cl_intel_subgroup_2d_block_io` loads / stores / prefetches,
// `cl_intel_subgroup_matrix_multiply_accumulate[_tf32]` DPAS, required subgroup size 16.
// The built-ins are declared in the source (clang-14's opencl-c.h predates them). Arguments:
// A, B, C, K, then width (bytes), height (rows), pitch (bytes) of A, B and C.
std::string emitOpenCl(const GemmKernel& kernel);

// The OpenCL C of a one-message probe kernel `kernelName`(global uchar* source, int width, int
// height, int pitch, global uint* out): one subgroup issues the load of `shape` at (x, y) and lane
// l writes its `unitsPerLane` registers (each widened to 32 bits) to out[l * unitsPerLane + i].
// See block_load_probe.h.
std::string emitBlockLoadProbe(const intel::BlockShape& shape, const std::string& kernelName,
                               int64_t x, int64_t y, int64_t unitsPerLane);

// The shape the emitter issues a block op with: its own when OpenCL has that built-in
// (hasOpenClBlockBuiltin, codegen/opencl_block_builtins.h); for a prefetch without one, a shape
// of the same rows and row length that has one (16b_32r32x1c is issued as 16b_32r16x2c; a
// prefetch moves no data); otherwise nullopt.
std::optional<intel::BlockShape> openclBlockShape(const BlockIoOp& op);
// "intel_sub_group_2d_block_read_16b_32r16x2c" etc.: the built-in the emitter calls for an op.
std::string openclBlockBuiltinName(const BlockIoOp& op);

struct SpirvToolchain {
  std::string clang = "clang-14";
  std::string llvmSpirv = "llvm-spirv-14";
  std::string spirvVal = "spirv-val";
};

// Writes `<dir>/<kernel>.cl`, compiles it with clang (-target spir64, OpenCL C 2.0) and
// llvm-spirv into `<dir>/<kernel>.spv` and returns the module's bytes. Errors quote the tool's
// output, or say which tool is missing.
Expected<std::vector<uint8_t>> compileToSpirv(const std::string& source, const std::string& name,
                                              const std::string& dir,
                                              const SpirvToolchain& tools = {});
// Runs spirv-val (target environment OpenCL 2.2) on a module file.
Expected<void> validateSpirv(const std::string& spvPath, const SpirvToolchain& tools = {});

// Whether a program is found: a path containing '/' that is executable, or a name on PATH.
bool spirvToolAvailable(const std::string& program);
// The first of the toolchain's programs (clang, llvm-spirv, spirv-val) that is not found, or
// nullopt when all are.
std::optional<std::string> missingSpirvTool(const SpirvToolchain& tools = {});

} // namespace layout::codegen
