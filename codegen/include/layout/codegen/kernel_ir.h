// The kernel IR: one workgroup GEMM kernel as the program every subgroup runs.
//
//   auto kernel = layout::codegen::buildGemmKernel(config);   // gemm_kernel_builder.h
//   for (const Op& op : kernel->mainLoop) ...                  // loads, shuffles, DPAS
//
// The IR is small and typed. Values are per-work-item register arrays (`RegisterValue`: `count`
// elements of `elementBits` each, read as one little-endian bit string). Ops move data between
// memory and values (2D block load / store / prefetch), select registers (shuffles) and multiply
// (DPAS). Every coordinate is an affine expression of the workgroup's tile origin, the K-loop
// offset and a subgroup origin; subgroup origins are linear layouts (warp -> row, column), so
// the emitter writes them as XORs of the layout's basis vectors and the simulator applies them.
//
// Nothing in the IR names Xe registers or OpenCL types: the block-I/O ops carry an
// `intel::BlockShape`, and the matrix op carries the data type. An NVIDIA target adds its own
// memory ops (ldmatrix, cp.async) beside these; values, shuffles, loops and coordinates stay.
#pragma once

#include "layout/codegen/gemm_config.h"
#include "layout/core/linear_layout.h"
#include "layout/intel/block_io.h"
#include "layout/intel/block_load_plan.h"

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace layout::codegen {

// The kernel's global matrices.
enum class MatrixOperand { A, B, C };

// What a register value holds (for comments, reports and the register count).
enum class ValueRole { LoadResult, DpasA, DpasB, Accumulator };

struct RegisterValue {
  std::string name; // e.g. "a_load0", "b_op3", "acc5"
  ValueRole role;
  int elementBits = 0; // one element as the producing op delivers it (8, 16 or 32)
  int count = 0;       // elements per work-item
  std::string layout;  // what element i of lane l holds, for the emitted comment
};

// A subgroup origin: subgroup id (in-dim "warp") -> (row, column) of the subgroup's tile in
// memory coordinates of one operand, from liblayout's block-load plans / DPAS layout.
struct SubgroupOrigin {
  std::string name; // "a", "b", "c"
  LinearLayout layout;
};

// An index along one surface axis, in elements of the matrix's type:
//   (workgroup term) + (k-loop term) + origins[origin].row-or-column + constant.
enum class WorkgroupTerm { None, RowTile, ColumnTile }; // wg_m * tileM, wg_n * tileN
struct AxisIndex {
  WorkgroupTerm workgroup = WorkgroupTerm::None;
  bool addK = false;  // + k0, the main loop's K offset
  int origin = -1;    // index into GemmKernel::origins, or -1
  int originAxis = 0; // 0 = row, 1 = column of that origin
  int64_t constant = 0;
};

// A 2D block op on one matrix. x is divided by `xDivisor` to convert the matrix's elements into
// the op's elements (a d32 transposed load of 16-bit data: 2).
struct BlockIoOp {
  intel::BlockOp kind;
  MatrixOperand matrix;
  intel::BlockShape shape;
  AxisIndex row, column; // column = x (before xDivisor), row = y
  int xDivisor = 1;
  int value = -1; // load: destination; store: source; prefetch: -1
  std::string comment;
};

// dst = the registers `registers` of src, each `unitBits` wide (the DPAS operand register size).
struct ShuffleOp {
  int dst = -1, src = -1;
  int unitBits = 0;
  std::vector<int64_t> registers;
  std::string comment;
};

// acc = acc + a * b for one DPAS instruction (repeat count and K from the config).
struct DpasOp {
  int accumulator = -1, a = -1, b = -1;
  int64_t tileRow = 0, tileColumn = 0, kStep = 0; // which output tile / K step, for comments
};

// Sets a value to zero (accumulators before the loop).
struct ZeroOp {
  int value = -1;
};

// One half of a split work-group barrier (cl_intel_split_work_group_barrier): `arrive` signals
// that the work-item reached it and goes on; `wait` blocks until every work-item of the
// work-group has arrived. Work between the two overlaps the wait. Each arrive is followed by
// exactly one wait before the next arrive.
struct SplitBarrierOp {
  bool arrive = true; // false: wait
};

using Op = std::variant<BlockIoOp, ShuffleOp, DpasOp, ZeroOp, SplitBarrierOp>;

// A 2D NDRange: dimension 0 = workgroupsN x localSize work-items (group id 0 = the workgroup's
// tile column), dimension 1 = workgroupsM (group id 1 = its tile row); local size
// [localSize, 1]. Subgroup id = local id / 16 (get_sub_group_id), the "warp" of the layouts.
struct LaunchShape {
  int64_t workgroupsM = 0, workgroupsN = 0;
  int64_t subgroupsPerWorkgroup = 0;
  int subgroupSize = 16;
  int64_t localSize() const { return subgroupsPerWorkgroup * subgroupSize; }
};

// Static figures per subgroup (and per workgroup where named).
struct KernelReport {
  int64_t dpasPerKStep = 0;       // per subgroup
  int64_t loadsPerKStep = 0;      // A and B block loads per subgroup
  int64_t prefetchesPerKStep = 0; // per subgroup (the most any subgroup issues)
  int64_t storesPerSubgroup = 0;
  int64_t bytesLoadedPerKStep = 0; // A and B bytes per subgroup, in-bounds tile
  double bytesPerDpas = 0;
  int64_t kSteps = 0; // iterations of the main loop
  // Registers per thread (of the target's register size): the data (accumulators, one K step's
  // loads), and what the static check assumes besides: one payload register per block-I/O
  // message of a K step (its address, surface and coordinates header), one for the scalars
  // (arguments, origins, loop counter), and a margin for registers the compiler reserves.
  int64_t accumulatorGrf = 0, operandGrf = 0;
  int64_t messageGrf = 0, scalarGrf = 0, reservedGrf = 0;
  int64_t totalGrf = 0; // the sum of all of the above
  int grfAvailable = 0;
  double flops = 0; // 2 * M * N * K (a double: it can exceed 2^63)
};

struct GemmKernel {
  GemmConfig config;
  std::string name; // the OpenCL kernel name, e.g. "gemm_bf16_8x4_32x64_k32"
  LaunchShape launch;
  std::vector<RegisterValue> values;
  std::vector<SubgroupOrigin> origins;
  std::vector<Op> prologue;                    // before the K loop (zero the accumulators)
  std::vector<Op> mainLoop;                    // one K step: prefetch, loads, shuffles, DPAS
  std::vector<Op> epilogue;                    // stores
  std::string encodingA, encodingB, encodingC; // the Triton encodings the plans came from
  intel::BlockLoadPlan planA, planB;           // the operands' block-load plans
  KernelReport report;
};

// The options a runtime must build the kernel with: the register file grf_per_thread asks for
// (Level Zero: -ze-opt-large-register-file for 256; OpenCL on Intel:
// -cl-intel-256-GRF-per-thread or -cl-intel-128-GRF-per-thread). The plan JSON and the .cl header
// carry them.
struct KernelBuildOptions {
  std::string levelZero;
  std::string openCl;
};
KernelBuildOptions kernelBuildOptions(const GemmConfig& c);

// The kernel's scalar arguments after the buffers A, B and C, in the emitter's order: K, then
// width (bytes), height (rows) and pitch (bytes) of the surfaces of A, B and C.
std::array<int32_t, 10> gemmScalarArguments(const GemmConfig& c);

// The element size in bits of a matrix in memory (A, B: the input type; C: 32).
int matrixElementBits(const GemmProblem& c, MatrixOperand m);
// Rows and columns of a matrix as stored (B: K x N, or N x K with transposeB).
std::array<int64_t, 2> matrixExtent(const GemmProblem& c, MatrixOperand m);
// The 2D block-I/O surface of a matrix as the host lays it out: rows of `columns * bytes`
// bytes, widened to the 64-byte minimum and a multiple of 4 (the widening is zero padding the
// host writes), pitch rounded up to 64 bytes. The kernel takes width, height and pitch as
// arguments (and K for the loop), in the order A, B, C.
intel::Surface matrixSurface(const GemmProblem& c, MatrixOperand m);
// "A", "B", "C".
std::string_view matrixName(MatrixOperand m);

} // namespace layout::codegen
