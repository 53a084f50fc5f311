// The functional simulator of the Xe instructions a GEMM kernel IR uses: it runs the program of
// every subgroup of every workgroup of the launch on host memory.
//
//   auto kernel = layout::codegen::buildGemmKernel(config);
//   layout::kernels::GemmMemory mem = ...;               // A, B, C laid out by matrixSurface
//   auto stats = layout::kernels::simulateGemmKernel(*kernel, mem);   // writes mem.c
//
// Semantics (docs/reference/intel-xe.md):
// - Block loads, stores and prefetches go through liblayout's reference executors
//   (intel::loadPerWorkItem / storePerWorkItem): padding, VNNI, transpose, array length,
//   out-of-bounds zero fill on loads, out-of-bounds elements dropped on stores. Every request is
//   first checked with intel::validateBlockIo; an illegal one stops the simulation with the
//   rule it breaks (hardware would silently misbehave, reference §5). The simulator asks the
//   reference executor once per block shape where each lane's elements come from, and then
//   moves the elements itself (the same bytes as calling it per request).
// - A value is, per work-item, a little-endian bit string; a shuffle copies register units.
// - DPAS follows the SG16 operand distribution of §3.2: C/D lane n, element r = D[r][n];
//   A (16-bit) lane l, element r = A[r][l]; A (8-bit) element r = A[r][2l] | A[r][2l+1] << 8;
//   A (tf32) element i = A[2i + l/8][l%8]; B dword j of lane n = B[opc*j .. opc*j+opc-1][n],
//   lower K in lower bits.
// - Numerics model (declared, reference §3.3): integer DPAS is exact (int32 wrap-around).
//   Floating DPAS: each product a*b is exact, even where it leaves the fp32 range (bf16 and tf32
//   have fp32's exponents), and the products are added to the accumulator one at a time in
//   increasing k, each addition of an exact product rounded once to fp32 with
//   round-to-nearest-even (a fused multiply-add); tf32 operands use only their top 10 mantissa
//   bits (the low 13 bits of the fp32 pattern are dropped). Denormals are kept.
// - Threads: subgroups run on several threads when their stores cannot meet (every store writes C
//   in the epilogue, no op loads C, and no two subgroups store to the same element of C);
//   otherwise one after another. The result, the statistics and the first error (in launch
//   order: workgroup row, column, subgroup) are the same for any thread count. After an error
//   the contents of C are unspecified.
#pragma once

#include "layout/codegen/kernel_ir.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace layout::kernels {

// The three matrices as the kernel sees them: rows of codegen::matrixSurface(config, m).
struct GemmMemory {
  std::vector<uint8_t> a, b, c;
};

struct SimulationStats {
  int64_t workgroups = 0, subgroups = 0;
  int64_t dpas = 0, loads = 0, stores = 0, prefetches = 0;
  int64_t barriers = 0; // split barriers (arrive and wait) passed, per subgroup summed
  double seconds = 0;
  int threads = 1; // threads the subgroups ran on
};

// Work done so far, for a progress display on another thread: a long operation sets `total` when
// it starts and counts `done` up to it (subgroups for the simulation, rows for the verification).
struct WorkProgress {
  std::atomic<int64_t> done{0};
  std::atomic<int64_t> total{0};
};

// The most threads simulateGemmKernel and verifyGemm use.
inline constexpr int kMaxGemmThreads = 64;
// `requested` threads, or for 0 the hardware's (std::thread::hardware_concurrency), bounded to
// 1..kMaxGemmThreads.
int gemmThreadCount(int requested);

struct SimulationOptions {
  int threads = 0;                  // 0: gemmThreadCount(0); 1: the calling thread only
  WorkProgress* progress = nullptr; // subgroups run, of the launch's
};

// Errors: an illegal block-I/O request (with the op and the rule), or buffers smaller than the
// surfaces.
Expected<SimulationStats> simulateGemmKernel(const codegen::GemmKernel& kernel, GemmMemory& memory,
                                             const SimulationOptions& options = {});

// One DPAS instruction on per-lane registers, in the simulator's model: a[lane][i] are the A
// register units (16-bit values, or 32-bit for tf32), b[lane][j] the 32-bit B dwords,
// c[lane][r] the 32-bit accumulator bits. Returns d[lane][r].
std::vector<std::vector<uint32_t>> simulateDpas(codegen::GemmDataType type, int repeatCount,
                                                const std::vector<std::vector<uint32_t>>& a,
                                                const std::vector<std::vector<uint32_t>>& b,
                                                const std::vector<std::vector<uint32_t>>& c);

} // namespace layout::kernels
