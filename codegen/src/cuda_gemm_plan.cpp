// The NVIDIA GEMM plan: layouts, swizzles, ldmatrix / cp.async offsets and bank proofs.
#include "codegen/cuda_gemm_plan.h"

#include "layout/smem/bank_model.h"
#include "layout/smem/swizzle_synthesis.h"
#include "layout/text/json_fields.h"
#include "layout/triton/encoding.h"
#include "layout/triton/linear_encoding_of.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <map>
#include <sstream>

namespace layout::codegen {
namespace {

namespace dims = layout::dims;

bool isPow2(int64_t v) {
  return v > 0 && std::has_single_bit(static_cast<uint64_t>(v));
}
int log2i(int64_t v) {
  return std::countr_zero(static_cast<uint64_t>(v));
}

Error configError(const std::string& message) {
  return Error{message};
}

// The PTX ISA's m16n8k16 fragments (16-bit A and B, f32 C), for lane l = 4 * group + t:
// A register i (halves of a0..a7): row group + 8 * ((i >> 1) & 1), column 2t + (i & 1) + 8 * (i >> 2)
// B register i (halves of b0..b3): row (k) 2t + (i & 1) + 8 * (i >> 1), column (n) group
// C register i (c0..c3):           row group + 8 * ((i >> 1) & 1), column 2t + (i & 1) + 8 * (i >> 2)
// The C formula is also wgmma's f32 D fragment within one warp's 16 rows (m64nNk16: registers
// 4j..4j+3 hold column group j), which for mma.sync's four registers reads (i >> 2) = 0.
TileCoord ptxFragment(char operand, int reg, int lane) {
  const int64_t group = lane >> 2, t = lane & 3;
  switch (operand) {
  case 'A':
    return {group + 8 * ((reg >> 1) & 1), 2 * t + (reg & 1) + 8 * (reg >> 2)};
  case 'B':
    return {2 * t + (reg & 1) + 8 * (reg >> 1), group};
  default:
    return {group + 8 * ((reg >> 1) & 1), 2 * t + (reg & 1) + 8 * (reg >> 2)};
  }
}

// A distributed layout's coordinate of (register, lane, warp) in its two out-dims.
TileCoord at(const LinearLayout& ll, uint64_t reg, uint64_t lane, uint64_t warp) {
  std::vector<uint64_t> in(static_cast<size_t>(ll.numInDims()), 0);
  auto set = [&](DimName name, uint64_t v) {
    if (int i = ll.inDimIndex(name); i >= 0) in[static_cast<size_t>(i)] = v;
  };
  set(dims::reg(), reg);
  set(dims::lane(), lane);
  set(dims::warp(), warp);
  uint64_t out[2] = {0, 0};
  ll.apply(in, out);
  return {static_cast<int64_t>(out[0]), static_cast<int64_t>(out[1])};
}

uint64_t sizeOf(const LinearLayout& ll, DimName name) {
  const int i = ll.inDimIndex(name);
  return i < 0 ? 1 : ll.inDimSize(i);
}

// The layout over register, lane and warp only (the block dim of one CTA dropped).
Expected<LinearLayout> perCta(const LinearLayout& ll) {
  const DimName ins[] = {dims::reg(), dims::lane(), dims::warp()};
  const DimName outs[] = {ll.outDimName(0), ll.outDimName(1)};
  return ll.sublayout(ins, outs);
}

// The same layout with its two out-dims swapped (dim0 <-> dim1), for B stored N x K.
Expected<LinearLayout> swapOutDims(const LinearLayout& ll) {
  std::vector<InDimBases> ins;
  for (const InDimBases& d : ll.inDims()) {
    InDimBases s{d.name, {}};
    for (const auto& b : d.bases) s.bases.push_back({b[1], b[0]});
    ins.push_back(std::move(s));
  }
  return LinearLayout::create(
      ins, {{ll.outDimName(0), ll.outDimSize(1)}, {ll.outDimName(1), ll.outDimSize(0)}});
}

Expected<LinearLayout> layoutOf(const std::string& text, int64_t rows, int64_t cols) {
  LAYOUT_TRY_ASSIGN(enc, triton::parseEncoding(text));
  const int64_t shape[] = {rows, cols};
  LAYOUT_TRY_ASSIGN(ll, triton::toLinearLayout(enc, shape));
  return perCta(ll);
}

// The cp.async copy of a rows x cols tile by `threads` threads, 16 bytes (8 elements) a chunk:
// chunk q = thread + i * threads of the row-major tile, 8 elements along the row.
Expected<LinearLayout> copyLayout(int64_t rows, int64_t cols, int64_t threads) {
  const int chunkBits = log2i(cols / 8), threadBits = log2i(threads);
  const int qBits = log2i(rows * cols / 8);
  auto qBasis = [&](int bit) -> std::vector<uint64_t> {
    if (bit < chunkBits) return {0, uint64_t{8} << bit};
    return {uint64_t{1} << (bit - chunkBits), 0};
  };
  InDimBases reg{dims::reg(), {{0, 1}, {0, 2}, {0, 4}}}, lane{dims::lane(), {}},
      warp{dims::warp(), {}};
  for (int bit = 0; bit < qBits; ++bit) {
    if (bit < 5)
      lane.bases.push_back(qBasis(bit));
    else if (bit < threadBits)
      warp.bases.push_back(qBasis(bit));
    else
      reg.bases.push_back(qBasis(bit));
  }
  return LinearLayout::create({reg, lane, warp}, {{DimName("dim0"), static_cast<uint64_t>(rows)},
                                                  {DimName("dim1"), static_cast<uint64_t>(cols)}});
}

// Offsets of the shared layout's inverse, checked to keep 8-element chunks contiguous.
struct SharedOffsets {
  LinearLayout inverse; // (row, col) -> offset
  uint32_t of(TileCoord c) const {
    uint64_t in[2] = {static_cast<uint64_t>(c[0]), static_cast<uint64_t>(c[1])}, out[1] = {0};
    inverse.apply(in, out);
    return static_cast<uint32_t>(out[0]);
  }
};

// ldmatrix: the (register, lane) of an operand whose element sits at column 0 of row i of the
// matrix in register slot `slot` (its two halves are registers 2 * slot, 2 * slot + 1 of the
// fragment), as PTX defines the instruction: lane 4i gets row i's columns 0-1 (half 0 is column
// 0); with .trans, stored row i column 0 goes to lane i / 2, half i % 2.
std::pair<int, int> ldmatrixSource(int slot, int row, bool trans) {
  if (!trans) return {2 * slot, 4 * row};
  return {2 * slot + (row & 1), row >> 1};
}

// Builds one operand: layouts, swizzle, offsets and bank proofs.
// fragments[kk]: the registers that start warp 0's instruction fragments of k16 step kk, in
// the order the mma list reads them (A: by row, B: by column); an ldmatrix.x4 loads
// `fragmentsPerIssue` consecutive ones.
Expected<void> planOperand(CudaOperandPlan& p, const LinearLayout& operandMN, int64_t threads,
                           const std::vector<std::vector<int>>& fragments,
                           int64_t fragmentsPerIssue) {
  // operandMN is over (M or K rows, K or N cols) as the dot operand names them; the shared tile
  // is that or its transpose.
  if (p.transposed) {
    LAYOUT_TRY_ASSIGN(swapped, swapOutDims(operandMN));
    p.operand = std::move(swapped);
  } else {
    p.operand = operandMN;
  }
  const int64_t rows = p.tile[0], cols = p.tile[1];
  p.stageElements = rows * cols;
  LAYOUT_TRY_ASSIGN(copy, copyLayout(rows, cols, threads));
  p.copy = std::move(copy);

  // ldmatrix.x4 issues: issue s of k16 step kk covers `fragmentsPerIssue` instruction fragments
  // (A: one 16x16; B: two 16x8), its four matrices in register-slot order. The tile coordinate
  // where address lane p8 of warp `warp` points:
  const int64_t k16Steps = static_cast<int64_t>(fragments.size());
  const int64_t issuesPerK16 = static_cast<int64_t>(fragments[0].size()) / fragmentsPerIssue;
  auto addressCoord = [&](int64_t kk, int64_t s, int p8, uint64_t warp) {
    // Matrix j of the issue: fragment s * fragmentsPerIssue + j / slotsPerFragment, its 32-bit
    // register slot j % slotsPerFragment.
    const int j = p8 >> 3, i = p8 & 7;
    const int slotsPerFragment = static_cast<int>(4 / fragmentsPerIssue);
    const int base = fragments[static_cast<size_t>(kk)]
                              [static_cast<size_t>(s * fragmentsPerIssue + j / slotsPerFragment)];
    const auto [reg, lane] = ldmatrixSource(j % slotsPerFragment, i, p.ldmatrixTrans);
    return at(p.operand, static_cast<uint64_t>(base | reg), static_cast<uint64_t>(lane), warp);
  };
  // Bank-wise, ldmatrix.x4 is a 16-byte read per address lane, one phase per matrix (8 lanes):
  // ld.b128's phases. Its address-lane layout (register: 8 elements of a row, then the k16 step
  // and the issue; lane: the address lane; warp) is what the synthesis balances against the
  // copy. It is linear; checked below against every address.
  const uint64_t warps = sizeOf(p.operand, dims::warp());
  InDimBases regs{dims::reg(), {{0, 1}, {0, 2}, {0, 4}}}, laneBases{dims::lane(), {}},
      warpBases{dims::warp(), {}};
  auto basis = [](TileCoord c) {
    return std::vector<uint64_t>{static_cast<uint64_t>(c[0]), static_cast<uint64_t>(c[1])};
  };
  // Every address lane's coordinate, derived once: the linearity check and the offsets read it.
  std::vector<TileCoord> addresses;
  addresses.reserve(static_cast<size_t>(warps) * static_cast<size_t>(k16Steps * issuesPerK16) * 32);
  for (uint64_t w = 0; w < warps; ++w)
    for (int64_t kk = 0; kk < k16Steps; ++kk)
      for (int64_t s = 0; s < issuesPerK16; ++s)
        for (int lane = 0; lane < 32; ++lane) addresses.push_back(addressCoord(kk, s, lane, w));
  auto addressAt = [&](int64_t kk, int64_t s, int p8, uint64_t warp) {
    return addresses[static_cast<size_t>(
        ((static_cast<int64_t>(warp) * k16Steps + kk) * issuesPerK16 + s) * 32 + p8)];
  };
  for (int64_t b = 1; b < k16Steps; b <<= 1) regs.bases.push_back(basis(addressAt(b, 0, 0, 0)));
  for (int64_t b = 1; b < issuesPerK16; b <<= 1) regs.bases.push_back(basis(addressAt(0, b, 0, 0)));
  for (int b = 1; b < 32; b <<= 1) laneBases.bases.push_back(basis(addressAt(0, 0, b, 0)));
  for (uint64_t b = 1; b < warps; b <<= 1) warpBases.bases.push_back(basis(addressAt(0, 0, 0, b)));
  LAYOUT_TRY_ASSIGN(reads, LinearLayout::create({regs, laneBases, warpBases},
                                                {{p.operand.outDimName(0), uint64_t(rows)},
                                                 {p.operand.outDimName(1), uint64_t(cols)}}));
  for (uint64_t w = 0; w < warps; ++w)
    for (int64_t kk = 0; kk < k16Steps; ++kk)
      for (int64_t s = 0; s < issuesPerK16; ++s)
        for (int lane = 0; lane < 32; ++lane)
          if (at(reads, 8 * static_cast<uint64_t>(kk + k16Steps * s), static_cast<uint64_t>(lane),
                 w) != addressAt(kk, s, lane, w))
            return Error{p.name +
                         ": ldmatrix addresses are not linear in the lane, warp and "
                         "issue (lane " +
                         std::to_string(lane) + ")"};

  LAYOUT_TRY_ASSIGN(st, smem::bankInstruction("nvidia.st.b128"));
  LAYOUT_TRY_ASSIGN(ld16, smem::bankInstruction("nvidia.ld.b128"));
  LAYOUT_TRY_ASSIGN(ld, smem::bankInstruction(p.ldmatrixTrans ? "nvidia.ldmatrix.x4.trans"
                                                              : "nvidia.ldmatrix.x4"));
  smem::SwizzleRequest req{p.copy, reads, 16, st, ld16, false};
  auto swz = smem::synthesizeSwizzle(req);
  if (!swz) return Error{p.name + ": swizzle synthesis: " + swz.error().message};
  p.shared = swz->shared;
  p.copyBanks = swz->store;
  p.ldmatrixBanks = swz->load;
  auto text = triton::linearEncodingOf(p.shared);
  p.sharedEncoding = text ? text->text() : "";
  LAYOUT_TRY_ASSIGN(inverse, p.shared.invert());
  const SharedOffsets off{std::move(inverse)};
  // One cp.async chunk and one ldmatrix row are 8 consecutive elements of a tile row.
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; c += 8)
      for (int64_t e = 0; e < 8; ++e)
        if (off.of({r, c + e}) != off.of({r, c}) + e)
          return Error{p.name + ": the synthesized shared layout splits the 16-byte chunk at (" +
                       std::to_string(r) + ", " + std::to_string(c) + ")"};

  // cp.async offsets and coordinates, per thread bit and per iteration.
  const uint64_t lanes = sizeOf(p.copy, dims::lane());
  const uint64_t iterations = sizeOf(p.copy, dims::reg()) / 8;
  auto copyCoord = [&](uint64_t thread, uint64_t iteration) {
    return at(p.copy, iteration * 8, thread % lanes, thread / lanes);
  };
  for (int bit = 0; (int64_t{1} << bit) < threads; ++bit) {
    const TileCoord c = copyCoord(uint64_t{1} << bit, 0);
    p.copyThreadCoord.push_back(c);
    p.copyThreadBit.push_back(off.of(c));
  }
  for (uint64_t i = 0; i < iterations; ++i) {
    const TileCoord c = copyCoord(0, i);
    p.copyIterationCoord.push_back(c);
    p.copyIteration.push_back(off.of(c));
  }
  // The emitter adds each iteration's row and column to the thread's (one source pointer per
  // stage, constants per copy): XOR is addition only when they share no bit with any thread's.
  uint64_t threadRows = 0, threadCols = 0;
  for (const TileCoord& c : p.copyThreadCoord) {
    threadRows |= static_cast<uint64_t>(c[0]);
    threadCols |= static_cast<uint64_t>(c[1]);
  }
  for (uint64_t i = 0; i < iterations; ++i)
    if ((static_cast<uint64_t>(p.copyIterationCoord[i][0]) & threadRows) ||
        (static_cast<uint64_t>(p.copyIterationCoord[i][1]) & threadCols))
      return Error{p.name + ": cp.async iteration " + std::to_string(i) +
                   " shares coordinate bits with the thread's chunk, so its source is not the "
                   "thread's plus a constant"};

  auto issueOffset = [&](int64_t kk, int64_t s, int p8, uint64_t warp) -> uint32_t {
    return off.of(addressAt(kk, s, p8, warp));
  };
  for (int bit = 0; bit < 5; ++bit)
    p.ldmatrixLaneBit[static_cast<size_t>(bit)] =
        issueOffset(0, 0, 1 << bit, 0) ^ issueOffset(0, 0, 0, 0);
  for (uint64_t w = 1; w < warps; w <<= 1)
    p.ldmatrixWarpBit.push_back(issueOffset(0, 0, 0, w) ^ issueOffset(0, 0, 0, 0));
  p.ldmatrixIssue.assign(static_cast<size_t>(k16Steps), {});
  for (int64_t kk = 0; kk < k16Steps; ++kk)
    for (int64_t s = 0; s < issuesPerK16; ++s)
      p.ldmatrixIssue[static_cast<size_t>(kk)].push_back(issueOffset(kk, s, 0, 0));

  // Every address the kernel computes by XOR equals the derivation's, and the banks of every
  // issue of every warp, enumerated from those addresses.
  auto xorOf = [](const auto& bits, uint64_t v) {
    uint32_t o = 0;
    for (size_t b = 0; b < bits.size(); ++b)
      if (v >> b & 1) o ^= bits[b];
    return o;
  };
  p.ldmatrixIssues.instruction = ld.name;
  for (uint64_t w = 0; w < warps; ++w)
    for (int64_t kk = 0; kk < k16Steps; ++kk)
      for (int64_t s = 0; s < issuesPerK16; ++s) {
        std::vector<smem::LaneAddress> addr;
        for (int lane = 0; lane < 32; ++lane) {
          const uint32_t emitted = xorOf(p.ldmatrixLaneBit, static_cast<uint64_t>(lane)) ^
                                   xorOf(p.ldmatrixWarpBit, w) ^
                                   p.ldmatrixIssue[static_cast<size_t>(kk)][static_cast<size_t>(s)];
          if (emitted != issueOffset(kk, s, lane, w))
            return Error{p.name +
                         ": ldmatrix offsets are not linear in the lane, warp and issue "
                         "(lane " +
                         std::to_string(lane) + ")"};
          addr.push_back({lane, uint64_t{emitted} * 2});
        }
        LAYOUT_TRY_ASSIGN(r, smem::analyzeByteAddresses(addr, 16, ld));
        ++p.ldmatrixIssues.issues;
        p.ldmatrixIssues.wavefronts += static_cast<int64_t>(r.wavefronts);
        p.ldmatrixIssues.idealWavefronts += static_cast<int64_t>(r.idealWavefronts);
        p.ldmatrixIssues.maxWays = std::max(p.ldmatrixIssues.maxWays, r.maxWays());
      }
  p.copyIssues.instruction = st.name + " (cp.async 16 B)";
  for (int64_t w = 0; w < threads / 32; ++w)
    for (uint64_t i = 0; i < iterations; ++i) {
      std::vector<smem::LaneAddress> addr;
      for (int lane = 0; lane < 32; ++lane) {
        const uint64_t t = static_cast<uint64_t>(w * 32 + lane);
        const uint32_t emitted = xorOf(p.copyThreadBit, t) ^ p.copyIteration[i];
        if (emitted != off.of(copyCoord(t, i)))
          return Error{p.name + ": cp.async offsets are not linear in the thread"};
        addr.push_back({lane, uint64_t{emitted} * 2});
      }
      LAYOUT_TRY_ASSIGN(r, smem::analyzeByteAddresses(addr, 16, st));
      ++p.copyIssues.issues;
      p.copyIssues.wavefronts += static_cast<int64_t>(r.wavefronts);
      p.copyIssues.idealWavefronts += static_cast<int64_t>(r.idealWavefronts);
      p.copyIssues.maxWays = std::max(p.copyIssues.maxWays, r.maxWays());
    }
  return {};
}

// register index of the instruction fragment at each origin (lane 0, warp 0), after checking
// that the first `fragmentRegs` registers are the PTX fragment of `operand`.
Expected<std::map<TileCoord, int>> fragmentRegisters(const LinearLayout& ll, char operand,
                                                     int fragmentRegs, int64_t rowStep,
                                                     int64_t colStep, const std::string& what) {
  for (int r = 0; r < fragmentRegs; ++r)
    for (int lane = 0; lane < 32; ++lane)
      if (at(ll, static_cast<uint64_t>(r), static_cast<uint64_t>(lane), 0) !=
          ptxFragment(operand, r, lane))
        return Error{what + ": register " + std::to_string(r) + " of lane " + std::to_string(lane) +
                     " is not the m16n8k16 fragment's element"};
  std::map<TileCoord, int> origins;
  const uint64_t regs = sizeOf(ll, dims::reg());
  for (uint64_t r = 0; r < regs; r += static_cast<uint64_t>(fragmentRegs)) {
    const TileCoord c = at(ll, r, 0, 0);
    if (c[0] % rowStep || c[1] % colStep)
      return Error{what + ": register " + std::to_string(r) + " starts no instruction tile"};
    origins[c] = static_cast<int>(r);
  }
  return origins;
}

} // namespace

CudaGemmConfig cudaGemmDefaults(std::string_view arch) {
  CudaGemmConfig c;
  c.arch = std::string(arch);
  if (arch == "sm90") {
    c.stages = 4;
    c.groupM = 16;
  }
  return c;
}

Expected<void> validateCudaGemmConfig(const CudaGemmConfig& c) {
  auto field = [](const std::string& name, int64_t v, const std::string& rule) {
    return configError(name + " = " + std::to_string(v) + ": " + rule);
  };
  if (c.arch != "sm80" && c.arch != "sm90")
    return configError("arch = " + c.arch + ": expected sm80 or sm90");
  if (c.dtype != GemmDataType::F16 && c.dtype != GemmDataType::BF16)
    return configError(std::string("dtype = ") + std::string(dataTypeTraits(c.dtype).name) +
                       ": the sm80 path takes f16 or bf16 (mma.sync.m16n8k16 -> f32)");
  constexpr int64_t kMaxExtent = int64_t{1} << 17;
  for (auto [name, v] : {std::pair{"m", c.m}, {"n", c.n}, {"k", c.k}})
    if (v < 1 || v > kMaxExtent)
      return field(name, v, "must be in [1, " + std::to_string(kMaxExtent) + "]");
  if (c.k % 8)
    return field("k", c.k, "must be a multiple of 8 (cp.async moves 16-byte chunks of rows)");
  if (!c.transposeB && c.n % 8)
    return field("n", c.n,
                 "must be a multiple of 8 (cp.async moves 16-byte chunks of B's K x N rows; "
                 "--transpose-b stores B as N x K)");
  const auto [bm, bn] = c.blockTile;
  const auto [wm, wn] = c.warps;
  if (c.arch == "sm90") {
    if (bm != 64 && bm != 128)
      return field("block_tile[0]", bm,
                   "must be 64 or 128 on sm90 (one or two consumer "
                   "warpgroups of 64 rows)");
    if (bn != 64 && bn != 128 && bn != 256)
      return field("block_tile[1]", bn, "must be 64, 128 or 256 on sm90 (wgmma's N)");
    if (c.kTile != 64)
      return field("k_tile", c.kTile,
                   "must be 64 on sm90 (one 128-byte swizzle row of 16-bit "
                   "elements)");
    if (c.stages < 2 || c.stages > 8) return field("stages", c.stages, "must be in [2, 8]");
    if (c.groupM < 1 || c.groupM > 64) return field("group_m", c.groupM, "must be in [1, 64]");
    const int64_t smemBytes = int64_t{c.stages} * (bm + bn) * 64 * 2 + 2048;
    if (smemBytes > 227 * 1024)
      return field("stages", c.stages,
                   "with this tile needs " + std::to_string(smemBytes) +
                       " bytes of shared memory; at most 232448 (227 KiB) per CTA");
    return {};
  }
  for (auto [name, v] : {std::pair{"block_tile[0]", bm}, {"block_tile[1]", bn}})
    if (!isPow2(v) || v < 16 || v > 256)
      return field(name, v, "must be a power of two in [16, 256]");
  for (auto [name, v] : {std::pair{"warps[0]", wm}, {"warps[1]", wn}})
    if (!isPow2(v) || v > 8) return field(name, v, "must be a power of two in [1, 8]");
  if (bm / wm < 16)
    return field("block_tile[0]", bm, "must give each of warps[0] warps at least 16 rows");
  if (bn / wn < 16)
    return field("block_tile[1]", bn,
                 "must give each of warps[1] warps at least 16 columns "
                 "(one ldmatrix.x4 of B feeds two n8 tiles)");
  if (!isPow2(c.kTile) || c.kTile < 32 || c.kTile > 128)
    return field("k_tile", c.kTile,
                 "must be a power of two in [32, 128] (an even number of k16 steps: the "
                 "fragments are double-buffered)");
  if (c.stages < 2 || c.stages > 8) return field("stages", c.stages, "must be in [2, 8]");
  if (c.groupM < 1 || c.groupM > 64) return field("group_m", c.groupM, "must be in [1, 64]");
  const int64_t threads = 32 * wm * wn;
  for (auto [name, v] : {std::pair{"block_tile[0]", bm}, {"block_tile[1]", bn}})
    if (v * c.kTile / 8 < threads)
      return field(name, v,
                   "too small: its k_tile slice has fewer 16-byte chunks than the " +
                       std::to_string(threads) + " threads that copy it");
  const int64_t accumulators = bm * bn / threads;
  if (accumulators > 256)
    return field("block_tile", bm * bn,
                 "elements give " + std::to_string(accumulators) +
                     " accumulators per thread; at most 256 (the register file) fit");
  const int64_t smemBytes = int64_t{c.stages} * (bm + bn) * c.kTile * 2;
  if (smemBytes > 227 * 1024)
    return field("stages", c.stages,
                 "with this tile needs " + std::to_string(smemBytes) +
                     " bytes of shared memory; at most 232448 (227 KiB, sm90) per CTA");
  return {};
}

namespace {

// The sm90 plan: nvmma_shared tiles checked against TMA's 128-byte swizzle, the descriptor
// strides read off the layout, the v3 accumulator checked against wgmma's D fragment.
Expected<CudaGemmPlan> buildSm90Plan(const CudaGemmConfig& config) {
  CudaGemmPlan p;
  p.config = config;
  p.sm90 = true;
  CudaSm90Plan& h = p.hopper;
  const auto [bm, bn] = config.blockTile;
  h.consumers = static_cast<int>(bm / 64);
  const std::string dtype(dataTypeTraits(config.dtype).name);
  p.name = "gemm_sm90_" + dtype + "_" + std::to_string(bm) + "x" + std::to_string(bn) + "x64_s" +
           std::to_string(config.stages) + (config.transposeB ? "_bt" : "");
  p.accumulatorEncoding = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [" +
                          std::to_string(4 * h.consumers) + ", 1], instrShape = [16, " +
                          std::to_string(bn) + ", 16]}>";
  LAYOUT_TRY_ASSIGN(acc, layoutOf(p.accumulatorEncoding, bm, bn));
  p.accumulator = std::move(acc);
  // wgmma's D fragment (PTX ISA, m64nNk16, f32): warp w of the warpgroup holds rows 16w..16w+15
  // as ptxFragment's C.
  const uint64_t regs = sizeOf(p.accumulator, dims::reg());
  for (uint64_t r = 0; r < regs; ++r)
    for (uint64_t lane = 0; lane < 32; ++lane)
      for (uint64_t w = 0; w < 4; ++w) {
        TileCoord want = ptxFragment('C', static_cast<int>(r), static_cast<int>(lane));
        want[0] += static_cast<int64_t>(16 * w);
        if (at(p.accumulator, r, lane, w) != want)
          return Error{"accumulator: register " + std::to_string(r) + " of lane " +
                       std::to_string(lane) + " is not wgmma's D fragment element"};
      }
  for (uint64_t r = 0; r < regs; ++r) p.accumulatorRegister.push_back(at(p.accumulator, r, 0, 0));
  for (int b = 0; b < 5; ++b)
    p.accumulatorLaneBit[static_cast<size_t>(b)] = at(p.accumulator, 0, uint64_t{1} << b, 0);
  for (uint64_t w = 1; w < sizeOf(p.accumulator, dims::warp()); w <<= 1)
    p.accumulatorWarpBit.push_back(at(p.accumulator, 0, 0, w));

  h.sharedEncoding =
      "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>";
  h.bNMajor = !config.transposeB;
  auto sharedOf = [&](int64_t rows, int64_t cols) -> Expected<LinearLayout> {
    LAYOUT_TRY_ASSIGN(enc, triton::parseEncoding(h.sharedEncoding));
    const int64_t shape[] = {rows, cols};
    LAYOUT_TRY_ASSIGN(ll, triton::toLinearLayout(enc, shape));
    const DimName ins[] = {dims::offset()};
    const DimName outs[] = {ll.outDimName(0), ll.outDimName(1)};
    return ll.sublayout(ins, outs);
  };
  // A is [BM, 64] (K contiguous); B is [BN, 64] (K contiguous) or, N-major, [64, BN].
  LAYOUT_TRY_ASSIGN(sa, sharedOf(bm, 64));
  LAYOUT_TRY_ASSIGN(sb, h.bNMajor ? sharedOf(64, bn) : sharedOf(bn, 64));
  h.sharedA = std::move(sa);
  h.sharedB = std::move(sb);
  // TMA's SWIZZLE_128B (CUDA driver API, cuTensorMapEncodeTiled) on boxes of 128-byte rows: the
  // 16-byte chunk c of row r lands at chunk c ^ (r % 8); a tile wider than 64 elements is several
  // boxes, one after the other. The nvmma layout must be exactly that.
  for (const LinearLayout* ll : {&h.sharedA, &h.sharedB}) {
    LAYOUT_TRY_ASSIGN(inv, ll->invert());
    const SharedOffsets off{std::move(inv)};
    const int64_t rows = static_cast<int64_t>(ll->outDimSize(0));
    const int64_t cols = static_cast<int64_t>(ll->outDimSize(1));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t want = (c / 64) * rows * 64 + r * 64 + (((c % 64) / 8) ^ (r % 8)) * 8 + c % 8;
        if (off.of({r, c}) != want)
          return Error{"nvmma_shared: element (" + std::to_string(r) + ", " + std::to_string(c) +
                       ") is not where TMA's 128-byte swizzle puts it"};
      }
    if (ll == &h.sharedA) {
      h.rowGroupBytes = 2 * off.of({8, 0});
      h.kStepBytes = 2 * off.of({0, 16});
      h.consumerRowBytes = rows > 64 ? 2 * off.of({64, 0}) : 0;
    } else if (h.bNMajor) {
      // Rows are K: 8 of them per stride, 16 per k16 step; 64 columns of N per leading step.
      h.bStrideBytes = 2 * off.of({8, 0});
      h.bKStepBytes = 2 * off.of({16, 0});
      h.bLeadingBytes = cols > 64 ? 2 * off.of({0, 64}) : 0;
    } else {
      h.bStrideBytes = 2 * off.of({8, 0});
      h.bKStepBytes = 2 * off.of({0, 16});
      h.bLeadingBytes = 16; // unused by a K-major swizzled operand (1 in the descriptor's units)
    }
  }
  h.boxA = {64, bm};
  h.boxB = h.bNMajor ? std::array<int64_t, 2>{64, 64} : std::array<int64_t, 2>{64, bn};
  h.bBoxes = h.bNMajor ? bn / 64 : 1;
  h.bytesB = bm * 64 * 2;
  h.stageBytes = (bm + bn) * 64 * 2;

  CudaGemmReport& r = p.report;
  r.threads = 128 * (h.consumers + 1);
  r.stageBytes = h.stageBytes;
  r.sharedBytes = h.stageBytes * config.stages + 2048; // + 1024-byte alignment and barriers
  r.accumulatorRegisters = static_cast<int64_t>(regs);
  r.mmaPerKStep = 4; // wgmma m64nNk16 per consumer warpgroup
  r.bytesPerKStep = h.stageBytes;
  r.kSteps = (config.k + 63) / 64;
  r.ctas = ((config.m + bm - 1) / bm) * ((config.n + bn - 1) / bn);
  r.flops = 2.0 * static_cast<double>(config.m) * static_cast<double>(config.n) *
            static_cast<double>(config.k);
  return p;
}

} // namespace

Expected<CudaGemmPlan> buildCudaGemmPlan(const CudaGemmConfig& config) {
  LAYOUT_TRY(validateCudaGemmConfig(config));
  if (config.arch == "sm90") return buildSm90Plan(config);
  CudaGemmPlan p;
  p.config = config;
  const auto [bm, bn] = config.blockTile;
  const auto [wm, wn] = config.warps;
  const int64_t bk = config.kTile, threads = 32 * wm * wn;
  const std::string dtype(dataTypeTraits(config.dtype).name);
  p.name = "gemm_sm80_" + dtype + "_" + std::to_string(bm) + "x" + std::to_string(bn) + "x" +
           std::to_string(bk) + "_w" + std::to_string(wm) + "x" + std::to_string(wn) + "_s" +
           std::to_string(config.stages) + (config.transposeB ? "_bt" : "");
  p.accumulatorEncoding = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [" +
                          std::to_string(wm) + ", " + std::to_string(wn) +
                          "], instrShape = [16, 8]}>";
  LAYOUT_TRY_ASSIGN(acc, layoutOf(p.accumulatorEncoding, bm, bn));
  p.accumulator = std::move(acc);
  LAYOUT_TRY_ASSIGN(accTiles, fragmentRegisters(p.accumulator, 'C', 4, 16, 8, "accumulator"));
  const uint64_t accRegs = sizeOf(p.accumulator, dims::reg());
  for (uint64_t r = 0; r < accRegs; ++r)
    p.accumulatorRegister.push_back(at(p.accumulator, r, 0, 0));
  for (int b = 0; b < 5; ++b)
    p.accumulatorLaneBit[static_cast<size_t>(b)] = at(p.accumulator, 0, uint64_t{1} << b, 0);
  for (uint64_t w = 1; w < sizeOf(p.accumulator, dims::warp()); w <<= 1)
    p.accumulatorWarpBit.push_back(at(p.accumulator, 0, 0, w));

  auto dotOp = [&](int opIdx) {
    return "#ttg.dot_op<{opIdx = " + std::to_string(opIdx) + ", parent = " + p.accumulatorEncoding +
           ", kWidth = 2}>";
  };
  p.a.name = "A";
  p.a.encoding = dotOp(0);
  p.a.tile = {bm, bk};
  p.b.name = "B";
  p.b.encoding = dotOp(1);
  p.b.transposed = config.transposeB;
  p.b.ldmatrixTrans = !config.transposeB;
  p.b.tile = config.transposeB ? std::array<int64_t, 2>{bn, bk} : std::array<int64_t, 2>{bk, bn};
  LAYOUT_TRY_ASSIGN(aLayout, layoutOf(p.a.encoding, bm, bk));
  LAYOUT_TRY_ASSIGN(bLayout, layoutOf(p.b.encoding, bk, bn));
  LAYOUT_TRY_ASSIGN(aTiles, fragmentRegisters(aLayout, 'A', 8, 16, 16, "A operand"));
  LAYOUT_TRY_ASSIGN(bTiles, fragmentRegisters(bLayout, 'B', 4, 16, 8, "B operand"));
  const int64_t k16 = bk / 16;
  // Warp 0's fragments per k16 step, by row (A) or column (B): the map is ordered by (row,
  // column), so A's come out by row within each K column and B's need a sort.
  std::vector<std::vector<int>> aFragments(static_cast<size_t>(k16)),
      bFragments(static_cast<size_t>(k16));
  std::vector<int64_t> aRows, bCols; // of k16 step 0, in that order
  for (const auto& [c, reg] : aTiles) {
    aFragments[static_cast<size_t>(c[1] / 16)].push_back(reg);
    if (c[1] == 0) aRows.push_back(c[0]);
  }
  std::map<int64_t, std::map<int64_t, int>> bByColumn; // kk -> column -> register
  for (const auto& [c, reg] : bTiles) bByColumn[c[0] / 16][c[1]] = reg;
  for (const auto& [kk, columns] : bByColumn)
    for (const auto& [col, reg] : columns) {
      bFragments[static_cast<size_t>(kk)].push_back(reg);
      if (kk == 0) bCols.push_back(col);
    }
  for (int64_t kk = 0; kk < k16; ++kk)
    if (aFragments[static_cast<size_t>(kk)].size() != aRows.size() ||
        bFragments[static_cast<size_t>(kk)].size() != bCols.size() || bCols.size() % 2)
      return Error{"operands: k16 step " + std::to_string(kk) +
                   " has a different number of instruction fragments than step 0"};
  p.aIssuesPerK16 = static_cast<int64_t>(aRows.size());
  p.bIssuesPerK16 = static_cast<int64_t>(bCols.size()) / 2;
  LAYOUT_TRY(planOperand(p.a, aLayout, threads, aFragments, 1));
  LAYOUT_TRY(planOperand(p.b, bLayout, threads, bFragments, 2));

  // One warp's mma.sync of a k16 step: each accumulator tile of warp 0, with the A fragment of
  // its rows and the B fragment of its columns.
  for (const auto& [c, reg] : accTiles) {
    const auto ai = std::find(aRows.begin(), aRows.end(), c[0]);
    const auto bi = std::find(bCols.begin(), bCols.end(), c[1]);
    if (ai == aRows.end() || bi == bCols.end())
      return Error{"accumulator: warp 0's tile at (" + std::to_string(c[0]) + ", " +
                   std::to_string(c[1]) + ") has no A or B fragment in warp 0"};
    const int bIndex = static_cast<int>(bi - bCols.begin());
    p.mmas.push_back({reg, static_cast<int>(ai - aRows.begin()), bIndex / 2, bIndex % 2});
  }

  CudaGemmReport& r = p.report;
  r.threads = threads;
  r.stageBytes = (p.a.stageElements + p.b.stageElements) * 2;
  r.sharedBytes = r.stageBytes * config.stages;
  r.accumulatorRegisters = static_cast<int64_t>(accRegs);
  r.fragmentRegisters = 4 * p.aIssuesPerK16 + 4 * p.bIssuesPerK16;
  r.mmaPerKStep = static_cast<int64_t>(p.mmas.size()) * k16;
  r.ldmatrixPerKStep = (p.aIssuesPerK16 + p.bIssuesPerK16) * k16;
  r.cpAsyncPerKStep = static_cast<int64_t>(p.a.copyIteration.size() + p.b.copyIteration.size());
  r.bytesPerKStep = r.stageBytes;
  r.kSteps = (config.k + bk - 1) / bk;
  r.ctas = ((config.m + bm - 1) / bm) * ((config.n + bn - 1) / bn);
  r.flops = 2.0 * static_cast<double>(config.m) * static_cast<double>(config.n) *
            static_cast<double>(config.k);
  return p;
}

namespace {

nlohmann::ordered_json issueBanksJson(const CudaOperandPlan::IssueBanks& b) {
  return {{"instruction", b.instruction},
          {"issues", b.issues},
          {"wavefronts", b.wavefronts},
          {"idealWavefronts", b.idealWavefronts},
          {"conflictFree", b.wavefronts == b.idealWavefronts},
          {"maxWays", b.maxWays}};
}

nlohmann::ordered_json operandJson(const CudaOperandPlan& p) {
  return {{"tile", p.tile},
          {"encoding", p.encoding},
          {"shared", p.sharedEncoding},
          {"ldmatrix", p.ldmatrixTrans ? "ldmatrix.x4.trans" : "ldmatrix.x4"},
          {"copyBanks", issueBanksJson(p.copyIssues)},
          {"ldmatrixBanks", issueBanksJson(p.ldmatrixIssues)},
          {"synthesis",
           {{"copyWavefronts", p.copyBanks.wavefronts},
            {"copyIdeal", p.copyBanks.idealWavefronts},
            {"ldmatrixWavefronts", p.ldmatrixBanks.wavefronts},
            {"ldmatrixIdeal", p.ldmatrixBanks.idealWavefronts}}},
          {"ldmatrixLaneBits", p.ldmatrixLaneBit},
          {"ldmatrixWarpBits", p.ldmatrixWarpBit},
          {"ldmatrixIssues", p.ldmatrixIssue},
          {"copyThreadBits", p.copyThreadBit},
          {"copyIterations", p.copyIteration}};
}

} // namespace

Expected<CudaGemmConfig> cudaGemmConfigFromJson(const nlohmann::json& j,
                                                const CudaGemmConfig& base) {
  if (!j.is_object()) return configError("config: expected a JSON object");
  CudaGemmConfig c = base;
  for (const auto& item : j.items()) {
    // Named copies: lambdas cannot capture structured bindings before C++20 (clang 14).
    const std::string key = item.key();
    const nlohmann::json& v = item.value();
    auto integer = [&](int64_t& out) -> Expected<void> {
      if (!v.is_number_integer()) return configError(key + ": expected an integer");
      // 2^63 and above are unsigned in JSON: as int64_t they would wrap to negative numbers.
      if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX))
        return configError(key + " = " + std::to_string(v.get<uint64_t>()) +
                           ": out of range (at most 2^63 - 1)");
      out = v.get<int64_t>();
      return {};
    };
    auto pair = [&](std::array<int64_t, 2>& out) -> Expected<void> {
      if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer())
        return configError(key + ": expected [rows, columns]");
      for (const auto& e : v)
        if (e.is_number_unsigned() && e.get<uint64_t>() > uint64_t(INT64_MAX))
          return configError(key + ": " + std::to_string(e.get<uint64_t>()) +
                             " is out of range (at most 2^63 - 1)");
      out = {v[0].get<int64_t>(), v[1].get<int64_t>()};
      return {};
    };
    if (key == "m") {
      LAYOUT_TRY(integer(c.m));
    } else if (key == "n") {
      LAYOUT_TRY(integer(c.n));
    } else if (key == "k") {
      LAYOUT_TRY(integer(c.k));
    } else if (key == "k_tile") {
      LAYOUT_TRY(integer(c.kTile));
    } else if (key == "stages" || key == "group_m") {
      int64_t x = 0;
      LAYOUT_TRY(integer(x));
      if (x < 0 || x > 1024) return configError(key + " = " + std::to_string(x) + ": out of range");
      (key == "stages" ? c.stages : c.groupM) = static_cast<int>(x);
    } else if (key == "block_tile") {
      LAYOUT_TRY(pair(c.blockTile));
    } else if (key == "warps") {
      LAYOUT_TRY(pair(c.warps));
    } else if (key == "dtype" || key == "arch") {
      if (!v.is_string()) return configError(key + ": expected a string");
      if (key == "arch") {
        c.arch = v.get<std::string>();
      } else {
        auto t = parseGemmDataType(v.get<std::string>());
        if (!t) return configError("dtype: expected f16 or bf16");
        c.dtype = *t;
      }
    } else if (key == "transpose_b") {
      if (!v.is_boolean()) return configError("transpose_b: expected true or false");
      c.transposeB = v.get<bool>();
    } else {
      return configError("config: unknown key '" + key +
                         "' (expected m, n, k, dtype, arch, block_tile, warps, k_tile, stages, "
                         "group_m, transpose_b)");
    }
  }
  return c;
}

nlohmann::ordered_json cudaGemmConfigToJson(const CudaGemmConfig& c) {
  return {{"m", c.m},
          {"n", c.n},
          {"k", c.k},
          {"dtype", std::string(dataTypeTraits(c.dtype).name)},
          {"arch", c.arch},
          {"block_tile", c.blockTile},
          {"warps", c.warps},
          {"k_tile", c.kTile},
          {"stages", c.stages},
          {"group_m", c.groupM},
          {"transpose_b", c.transposeB}};
}

nlohmann::ordered_json cudaGemmPlanToJson(const CudaGemmPlan& p) {
  const CudaGemmReport& r = p.report;
  if (p.sm90) {
    const CudaSm90Plan& h = p.hopper;
    return {
        {"config", cudaGemmConfigToJson(p.config)},
        {"kernel", p.name},
        {"launch", {{"grid", r.ctas}, {"threads", r.threads}, {"sharedBytes", r.sharedBytes}}},
        {"accumulator", p.accumulatorEncoding},
        {"shared", h.sharedEncoding},
        {"tma", {{"boxA", h.boxA}, {"boxB", h.boxB}, {"boxesB", h.bBoxes}, {"swizzle", "128B"}}},
        {"descriptor",
         {{"strideBytes", h.rowGroupBytes},
          {"kStepBytes", h.kStepBytes},
          {"consumerRowBytes", h.consumerRowBytes},
          {"bNMajor", h.bNMajor},
          {"bStrideBytes", h.bStrideBytes},
          {"bKStepBytes", h.bKStepBytes},
          {"bLeadingBytes", h.bLeadingBytes}}},
        {"report",
         {{"consumers", h.consumers},
          {"accumulatorRegisters", r.accumulatorRegisters},
          {"wgmmaPerKStep", r.mmaPerKStep},
          {"bytesPerKStep", r.bytesPerKStep},
          {"stageBytes", r.stageBytes},
          {"kSteps", r.kSteps},
          {"flops", r.flops}}}};
  }
  nlohmann::ordered_json mmas = nlohmann::ordered_json::array();
  for (const CudaMma& m : p.mmas) mmas.push_back({m.accumulator, m.aIssue, m.bIssue, m.bHalf});
  return {{"config", cudaGemmConfigToJson(p.config)},
          {"kernel", p.name},
          {"launch", {{"grid", r.ctas}, {"threads", r.threads}, {"sharedBytes", r.sharedBytes}}},
          {"accumulator", p.accumulatorEncoding},
          {"A", operandJson(p.a)},
          {"B", operandJson(p.b)},
          {"mmas", mmas},
          {"report",
           {{"accumulatorRegisters", r.accumulatorRegisters},
            {"fragmentRegisters", r.fragmentRegisters},
            {"mmaPerKStep", r.mmaPerKStep},
            {"ldmatrixPerKStep", r.ldmatrixPerKStep},
            {"cpAsyncPerKStep", r.cpAsyncPerKStep},
            {"bytesPerKStep", r.bytesPerKStep},
            {"stageBytes", r.stageBytes},
            {"kSteps", r.kSteps},
            {"flops", r.flops}}}};
}

std::string cudaGemmReportText(const CudaGemmPlan& p) {
  const CudaGemmReport& r = p.report;
  const CudaGemmConfig& c = p.config;
  std::ostringstream o;
  if (p.sm90) {
    const CudaSm90Plan& h = p.hopper;
    o << "kernel " << p.name << ": D[" << c.m << ", " << c.n << "] (f32) = A[" << c.m << ", " << c.k
      << "] * B" << (c.transposeB ? "^T[" : "[") << (c.transposeB ? c.n : c.k) << ", "
      << (c.transposeB ? c.k : c.n) << "] (" << dataTypeTraits(c.dtype).name
      << "), sm90 wgmma.mma_async.m64n" << c.blockTile[1] << "k16\n"
      << "  launch: " << r.ctas << " CTAs of " << r.threads << " threads (a producer warpgroup "
      << "issuing TMA, " << h.consumers << " consumer warpgroups), " << r.sharedBytes
      << " bytes of dynamic shared memory (" << c.stages << " stages of " << r.stageBytes
      << "), group_m " << c.groupM << "\n"
      << "  accumulator: " << p.accumulatorEncoding << " over [" << c.blockTile[0] << ", "
      << c.blockTile[1] << "], " << r.accumulatorRegisters << " f32 registers per thread\n"
      << "  A, B stages: " << h.sharedEncoding << " = TMA SWIZZLE_128B (checked), boxes ["
      << h.boxA[1] << " x " << h.boxA[0] << "] and " << h.bBoxes << " x [" << h.boxB[1] << " x "
      << h.boxB[0] << "]" << (h.bNMajor ? " (B N-major, read transposed)" : "") << "\n"
      << "  descriptors (from the layouts): A " << h.rowGroupBytes << " bytes per 8 rows, "
      << h.kStepBytes << " per k16 step; B " << h.bStrideBytes << " per 8 rows, " << h.bKStepBytes
      << " per k16 step, leading " << h.bLeadingBytes << "\n"
      << "  per BK = 64 step: " << r.mmaPerKStep << " wgmma per consumer warpgroup, "
      << r.bytesPerKStep << " bytes per CTA; " << r.kSteps << " steps\n";
    return o.str();
  }
  o << "kernel " << p.name << ": D[" << c.m << ", " << c.n << "] (f32) = A[" << c.m << ", " << c.k
    << "] * B" << (c.transposeB ? "^T[" : "[") << (c.transposeB ? c.n : c.k) << ", "
    << (c.transposeB ? c.k : c.n) << "] (" << dataTypeTraits(c.dtype).name << "), " << c.arch
    << " mma.sync.m16n8k16\n";
  o << "  launch: " << r.ctas << " CTAs of " << r.threads << " threads, " << r.sharedBytes
    << " bytes of dynamic shared memory (" << c.stages << " stages of " << r.stageBytes
    << "), group_m " << c.groupM << "\n";
  o << "  accumulator: " << p.accumulatorEncoding << " over [" << c.blockTile[0] << ", "
    << c.blockTile[1] << "], " << r.accumulatorRegisters << " f32 registers per thread\n";
  for (const CudaOperandPlan* op : {&p.a, &p.b}) {
    o << "  " << op->name << ": " << op->encoding << " on a [" << op->tile[0] << ", " << op->tile[1]
      << "] shared tile, " << (op->ldmatrixTrans ? "ldmatrix.x4.trans" : "ldmatrix.x4")
      << "\n    shared: " << op->sharedEncoding << "\n";
    auto banks = [&](const char* what, const CudaOperandPlan::IssueBanks& b) {
      o << "    " << what << ": " << b.issues << " issues (" << b.instruction << "), "
        << b.wavefronts << " wavefronts, ideal " << b.idealWavefronts
        << (b.wavefronts == b.idealWavefronts ? " (conflict-free)" : " (CONFLICTS)") << "\n";
    };
    banks("cp.async stores", op->copyIssues);
    banks("ldmatrix reads", op->ldmatrixIssues);
  }
  o << "  per BK = " << c.kTile << " step: " << r.mmaPerKStep << " mma.sync and "
    << r.ldmatrixPerKStep << " ldmatrix.x4 per warp, " << r.cpAsyncPerKStep
    << " cp.async per thread, " << r.bytesPerKStep << " bytes per CTA; " << r.kSteps << " steps\n";
  return o.str();
}

} // namespace layout::codegen
