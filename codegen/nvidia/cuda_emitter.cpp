// CUDA C++ of an NVIDIA GEMM plan: cp.async pipeline, ldmatrix, mma.sync, f32 epilogue.
#include "layout/codegen/cuda_emitter.h"

#include "cuda_emit_common.h"
#include "cuda_sm90_emitter.h"

#include <sstream>

namespace layout::codegen {
namespace {

void emitHelpers(std::ostringstream& o, const std::string& dtypePtx) {
  o << R"cu(#define SEL(v, bit, c) ((((v) >> (bit)) & 1u) ? (c) : 0u)

__device__ __forceinline__ unsigned smem_u32(const void* p) {
  unsigned r;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(r) : "l"(p));
  return r;
}
// 16 bytes global -> shared; bytes = 0 reads nothing from src and zero-fills (rows and columns
// past the matrix).
__device__ __forceinline__ void cp_async16(unsigned dst, const void* src, unsigned bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::);
}
template <int N> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
__device__ __forceinline__ void ldsm_x4(unsigned (&r)[4], unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ __forceinline__ void ldsm_x4_trans(unsigned (&r)[4], unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ __forceinline__ void mma16816(float& c0, float& c1, float& c2, float& c3,
                                         const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.)cu"
    << dtypePtx << "." << dtypePtx << R"cu(.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
               "{%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

)cu";
}

// Where one operand's copies come from: the tile's origin along rows and columns (the K step
// k0 is added along `kAxis`), the matrix's extents and leading dimension.
struct CopySource {
  const char* ptr;                // "A" or "B"
  std::string rowBase, colBase;   // the tile's origin ("row0", "col0" or "0")
  std::string rowLimit, colLimit; // the matrix's extents along them
  const char* ld;                 // "lda" or "ldb"
  int kAxis;                      // 0: K runs along rows (B stored K x N), 1: along columns
};

std::string plus(const std::string& base, const std::string& v) {
  return base == "0" ? v : base + " + " + v;
}

// Before the K loop: this thread's chunk in global memory at k0 = 0 and the rows and columns
// left from it to the matrix's edges. The plan checked that every copy's coordinates add to the
// thread's, so a copy is this pointer plus constants and is inside the matrix when its constant
// row and column are below what is left.
void emitCopySource(std::ostringstream& o, const CudaOperandPlan& p, const CopySource& s) {
  const std::string n = p.name == "A" ? "a" : "b";
  const std::string row = plus(s.rowBase, n + "CopyRow"), col = plus(s.colBase, n + "CopyCol");
  auto paren = [](const std::string& v) {
    return v.find(' ') == std::string::npos ? v : "(" + v + ")";
  };
  o << "  const unsigned short* " << n << "Src = " << s.ptr << " + (size_t)" << paren(row) << " * "
    << s.ld << " + " << paren(col) << ";\n"
    << "  const int " << n << "RowsLeft = " << s.rowLimit << " - " << paren(row) << ", " << n
    << "ColsLeft = " << s.colLimit << " - " << paren(col) << ";\n";
}

// The cp.async copies of one operand's stage at k0: each from the thread's pointer plus the
// copy's constant row and column, into the thread's shared chunk plus the copy's offset (XORed
// instead where the swizzle makes the offset share bits with the thread's). Out of the matrix,
// a copy reads nothing (cp.async's source size 0) and fills zeros.
void emitCopies(std::ostringstream& o, const CudaOperandPlan& p, const CopySource& s) {
  const std::string n = p.name == "A" ? "a" : "b";
  uint32_t threadOffsets = 0;
  for (uint32_t b : p.copyThreadBit) threadOffsets |= b;
  const std::string stageBase =
      "s" + p.name + " + stage * " + std::to_string(p.stageElements * 2) + "u";
  o << "    {\n"
    << "      const unsigned short* src = " << n << "Src + "
    << (s.kAxis == 0 ? std::string("(size_t)k0 * ") + s.ld : std::string("k0")) << ";\n"
    << "      const int rowsLeft = " << n << "RowsLeft" << (s.kAxis == 0 ? " - k0" : "")
    << ", colsLeft = " << n << "ColsLeft" << (s.kAxis == 1 ? " - k0" : "") << ";\n"
    << "      const unsigned dst = " << stageBase << " + 2u * " << n << "CopyOff;\n";
  for (size_t i = 0; i < p.copyIteration.size(); ++i) {
    const TileCoord c = p.copyIterationCoord[i];
    const uint32_t offset = p.copyIteration[i];
    const std::string to =
        offset & threadOffsets
            ? stageBase + " + 2u * (" + n + "CopyOff ^ " + std::to_string(offset) + "u)"
            : "dst + " + std::to_string(2 * uint64_t{offset}) + "u";
    o << "      cp_async16(" << to << ", src + (size_t)" << c[0] << " * " << s.ld << " + " << c[1]
      << ", " << c[0] << " < rowsLeft && " << c[1] << " < colsLeft ? 16u : 0u);\n";
  }
  o << "    }\n";
}

} // namespace

std::string emitCuda(const CudaGemmPlan& p) {
  if (p.sm90) return emitCudaSm90(p);
  const CudaGemmConfig& c = p.config;
  const CudaGemmReport& r = p.report;
  const int64_t k16 = c.kTile / 16;
  std::ostringstream o;
  o << "// " << p.name << ": generated by layoutctl gemm --target cuda from liblayout's layouts.\n"
    << "// accumulator: " << p.accumulatorEncoding << " over [" << c.blockTile[0] << ", "
    << c.blockTile[1] << "]\n";
  for (const CudaOperandPlan* op : {&p.a, &p.b})
    o << "// " << op->name << ": " << op->encoding << "\n//   shared [" << op->tile[0] << ", "
      << op->tile[1] << "]: " << op->sharedEncoding
      << "\n//   cp.async: " << op->copyIssues.wavefronts << " wavefronts (ideal "
      << op->copyIssues.idealWavefronts << "), "
      << (op->ldmatrixTrans ? "ldmatrix.x4.trans: " : "ldmatrix.x4: ")
      << op->ldmatrixIssues.wavefronts << " wavefronts (ideal "
      << op->ldmatrixIssues.idealWavefronts << ")\n";
  o << "// launch: " << r.ctas << " CTAs (1-D grid) x " << r.threads << " threads, "
    << r.sharedBytes << " bytes of dynamic shared memory\n\n";
  emitHelpers(o, std::string(dataTypeTraits(c.dtype).name));

  o << "extern \"C\" __global__ void __launch_bounds__(" << r.threads << ") " << p.name
    << "(const unsigned short* __restrict__ A, const unsigned short* __restrict__ B,\n"
    << "    float* __restrict__ C, int M, int N, int K, int lda, int ldb, int ldc) {\n"
    << "  extern __shared__ __align__(128) unsigned char smem[];\n"
    << "  const unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;\n"
    << "  // The CTA's tile: consecutive CTAs walk " << c.groupM
    << " tile rows of one column (B stays in L2).\n"
    << "  const int tilesM = (M + " << c.blockTile[0] << " - 1) / " << c.blockTile[0]
    << ", tilesN = (N + " << c.blockTile[1] << " - 1) / " << c.blockTile[1] << ";\n"
    << "  const int width = " << c.groupM << " * tilesN, group = (int)blockIdx.x / width;\n"
    << "  const int firstM = group * " << c.groupM << ", rowsInGroup = min(tilesM - firstM, "
    << c.groupM << ");\n"
    << "  const int tileM = firstM + ((int)blockIdx.x % width) % rowsInGroup;\n"
    << "  const int tileN = ((int)blockIdx.x % width) / rowsInGroup;\n"
    << "  const int row0 = tileM * " << c.blockTile[0] << ", col0 = tileN * " << c.blockTile[1]
    << ";\n"
    << "  const unsigned sA = smem_u32(smem), sB = sA + " << c.stages * p.a.stageElements * 2
    << "u;\n";
  for (const CudaOperandPlan* op : {&p.a, &p.b}) {
    const std::string n = op->name == "A" ? "a" : "b";
    o << "  // " << op->name
      << ": this thread's cp.async chunk (copy layout) and its shared offset "
      << "(swizzle), and its ldmatrix address lane's offset\n"
      << "  const unsigned " << n << "CopyOff = " << xorExpr("tid", op->copyThreadBit) << ";\n"
      << "  const int " << n << "CopyRow = (int)" << xorExpr("tid", axis(op->copyThreadCoord, 0))
      << ", " << n << "CopyCol = (int)" << xorExpr("tid", axis(op->copyThreadCoord, 1)) << ";\n"
      << "  const unsigned " << n << "Ldsm = " << xorExpr("lane", op->ldmatrixLaneBit) << " ^ "
      << xorExpr("warp", op->ldmatrixWarpBit) << ";\n";
  }
  o << "  float acc[" << r.accumulatorRegisters << "];\n"
    << "#pragma unroll\n"
    << "  for (int i = 0; i < " << r.accumulatorRegisters << "; ++i) acc[i] = 0.f;\n\n";

  const CopySource aSource{"A", "row0", "0", "M", "K", "lda", 1};
  const CopySource bSource = c.transposeB ? CopySource{"B", "col0", "0", "N", "K", "ldb", 1}
                                          : CopySource{"B", "0", "col0", "K", "N", "ldb", 0};
  o << "  // The copies' sources: this thread's chunk at k0 = 0 and the rows and columns left.\n";
  emitCopySource(o, p.a, aSource);
  emitCopySource(o, p.b, bSource);
  o << "\n  auto loadStage = [&](unsigned stage, int k0) {\n";
  emitCopies(o, p.a, aSource);
  emitCopies(o, p.b, bSource);
  o << "  };\n\n";

  // Fragments are double-buffered: the ldmatrix of k16 step kk + 1 (or, at a stage's last step,
  // of the next stage's first) is issued before the mma.sync of step kk, so the loads' latency
  // hides behind the multiplies.
  auto fragmentLoads = [&](int buf, const char* stage, int64_t kk) {
    for (int64_t s = 0; s < p.aIssuesPerK16; ++s)
      o << "      ldsm_x4(af[" << buf << "][" << s << "], sA + " << stage << " * "
        << p.a.stageElements * 2 << "u + 2u * (aLdsm ^ "
        << p.a.ldmatrixIssue[static_cast<size_t>(kk)][static_cast<size_t>(s)] << "u));\n";
    for (int64_t s = 0; s < p.bIssuesPerK16; ++s)
      o << "      " << (p.b.ldmatrixTrans ? "ldsm_x4_trans" : "ldsm_x4") << "(bf[" << buf << "]["
        << s << "], sB + " << stage << " * " << p.b.stageElements * 2 << "u + 2u * (bLdsm ^ "
        << p.b.ldmatrixIssue[static_cast<size_t>(kk)][static_cast<size_t>(s)] << "u));\n";
  };
  const std::string next = "+ 1 == " + std::to_string(c.stages) + "u ? 0u : ";
  o << "  // The cp.async pipeline: " << c.stages << " stages, " << c.stages - 1
    << " in flight while one is computed.\n"
    << "  const int kTiles = (K + " << c.kTile << " - 1) / " << c.kTile << ";\n"
    << "#pragma unroll\n"
    << "  for (int s = 0; s < " << c.stages - 1 << "; ++s) {\n"
    << "    if (s < kTiles) loadStage((unsigned)s, s * " << c.kTile << ");\n"
    << "    cp_async_commit();\n"
    << "  }\n"
    << "  cp_async_wait<" << c.stages - 2 << ">();\n"
    << "  __syncthreads();\n"
    << "  unsigned readStage = 0, writeStage = " << c.stages - 1 << ";\n"
    << "  unsigned af[2][" << p.aIssuesPerK16 << "][4], bf[2][" << p.bIssuesPerK16 << "][4];\n"
    << "  {\n";
  fragmentLoads(0, "readStage", 0);
  o << "  }\n"
    << "  for (int kt = 0; kt < kTiles; ++kt) {\n";
  // The stage written now was last read before the barrier of the previous step, so a warp may
  // issue its copies anywhere before the next wait. With 8 warps or more, the second half issues
  // them one k16 step later: each scheduler (warp id modulo 4) holds warps of both halves, which
  // then do their copies' integer work at different times. Measured on H100 and H200
  // (docs/benchmarks.md): Nsight Compute's shared-memory bank-conflict counters then read 0; with
  // the copies issued together they read a few hundred to a few thousand per kernel.
  const int64_t warps = r.threads / 32;
  const bool staggered = warps >= 8;
  // The copies of stage kt + stages - 1 and their commit, under `guard` when it is not empty.
  auto copies = [&](const std::string& guard) {
    const std::string indent = guard.empty() ? "    " : "      ";
    if (!guard.empty()) o << "    if (" << guard << ") {\n";
    o << indent << "if (kt + " << c.stages - 1 << " < kTiles) loadStage(writeStage, (kt + "
      << c.stages - 1 << ") * " << c.kTile << ");\n"
      << indent << "cp_async_commit();\n";
    if (!guard.empty()) o << "    }\n";
  };
  if (staggered) o << "    const bool lateCopies = warp >= " << warps / 2 << "u;\n";
  copies(staggered ? "!lateCopies" : "");
  for (int64_t kk = 0; kk < k16; ++kk) {
    const int cur = static_cast<int>(kk % 2), nxt = 1 - cur;
    if (kk == 1 && staggered) copies("lateCopies");
    o << "    {\n";
    if (kk + 1 == k16) {
      o << "      // The next stage: its copies landed (all but " << c.stages - 2
        << " groups), every warp is past this one's reads.\n"
        << "      cp_async_wait<" << c.stages - 2 << ">();\n"
        << "      __syncthreads();\n"
        << "      readStage = readStage " << next << "readStage + 1;\n"
        << "      writeStage = writeStage " << next << "writeStage + 1;\n";
      fragmentLoads(nxt, "readStage", 0);
    } else {
      fragmentLoads(nxt, "readStage", kk + 1);
    }
    for (const CudaMma& m : p.mmas)
      o << "      mma16816(acc[" << m.accumulator << "], acc[" << m.accumulator + 1 << "], acc["
        << m.accumulator + 2 << "], acc[" << m.accumulator + 3 << "], af[" << cur << "]["
        << m.aIssue << "], bf[" << cur << "][" << m.bIssue << "][" << 2 * m.bHalf << "], bf[" << cur
        << "][" << m.bIssue << "][" << 2 * m.bHalf + 1 << "]);\n";
    o << "    }\n";
  }
  o << "  }\n\n";

  o << "  // Epilogue: registers r, r + 1 (adjacent columns) stored as one float2.\n";
  emitAccumulatorStores(o, p);
  o << "}\n";
  return o.str();
}

} // namespace layout::codegen
