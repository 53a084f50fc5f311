// The sm80 GEMM plan (cuda_gemm_plan.h): the nvidia_mma v2 accumulator and its dot operands,
// cp.async copies, the synthesized swizzles, ldmatrix offsets and the bank proofs of every issue.
#include "cuda_gemm_planners.h"
#include "cuda_plan_layouts.h"
#include "cuda_ptx_fragments.h"

#include "layout/smem/bank_model.h"
#include "layout/smem/swizzle_synthesis.h"
#include "layout/triton/encoding_params.h"
#include "layout/triton/linear_encoding_of.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace layout::codegen::cuda_plan {
namespace {

namespace dims = layout::dims;

int log2i(int64_t v) {
  return std::countr_zero(static_cast<uint64_t>(v));
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

// Adds the banks of one issue (16 bytes per address lane) to the operand's totals.
Expected<void> countIssue(CudaOperandPlan::IssueBanks& total,
                          const std::vector<smem::LaneAddress>& addresses,
                          const smem::BankInstruction& instruction) {
  LAYOUT_TRY_ASSIGN(r, smem::analyzeByteAddresses(addresses, 16, instruction));
  ++total.issues;
  total.wavefronts += static_cast<int64_t>(r.wavefronts);
  total.idealWavefronts += static_cast<int64_t>(r.idealWavefronts);
  total.maxWays = std::max(total.maxWays, r.maxWays());
  return {};
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
  const uint64_t warps = p.operand.inDimSize(dims::warp());
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
  const uint64_t lanes = p.copy.inDimSize(dims::lane());
  const uint64_t iterations = p.copy.inDimSize(dims::reg()) / 8;
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
        LAYOUT_TRY(countIssue(p.ldmatrixIssues, addr, ld));
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
      LAYOUT_TRY(countIssue(p.copyIssues, addr, st));
    }
  return {};
}

} // namespace

Expected<CudaGemmPlan> buildSm80Plan(const CudaGemmConfig& config) {
  CudaGemmPlan p;
  p.config = config;
  const auto [bm, bn] = config.blockTile;
  const auto [wm, wn] = config.warps;
  const int64_t bk = config.kTile, threads = 32 * wm * wn;
  const std::string dtype(dataTypeTraits(config.dtype).name);
  p.name = "gemm_sm80_" + dtype + "_" + std::to_string(bm) + "x" + std::to_string(bn) + "x" +
           std::to_string(bk) + "_w" + std::to_string(wm) + "x" + std::to_string(wn) + "_s" +
           std::to_string(config.stages) + (config.transposeB ? "_bt" : "");
  // The accumulator: #ttg.nvidia_mma v2 over the warps, m16n8 instruction tiles.
  triton::NvidiaMmaEncoding mma;
  mma.versionMajor = 2;
  mma.versionMinor = 0;
  mma.warpsPerCTA = {wm, wn};
  mma.instrShape = {16, 8};
  LAYOUT_TRY_ASSIGN(accEncoding, triton::toEncoding(mma));
  p.accumulatorEncoding = accEncoding.text();
  LAYOUT_TRY_ASSIGN(acc, distributedLayout(accEncoding, bm, bn));
  p.accumulator = std::move(acc);
  LAYOUT_TRY_ASSIGN(accTiles, fragmentRegisters(p.accumulator, 'C', 4, 16, 8, "accumulator"));
  const uint64_t accRegs = p.accumulator.inDimSize(dims::reg());
  for (uint64_t r = 0; r < accRegs; ++r)
    p.accumulatorRegister.push_back(at(p.accumulator, r, 0, 0));
  for (int b = 0; b < 5; ++b)
    p.accumulatorLaneBit[static_cast<size_t>(b)] = at(p.accumulator, 0, uint64_t{1} << b, 0);
  for (uint64_t w = 1; w < p.accumulator.inDimSize(dims::warp()); w <<= 1)
    p.accumulatorWarpBit.push_back(at(p.accumulator, 0, 0, w));

  // A and B: the accumulator's #ttg.dot_op operands, two 16-bit elements per 32-bit register.
  auto dotOp = [&](int64_t opIdx) {
    triton::DotOperandEncoding operand;
    operand.opIdx = opIdx;
    operand.parent = accEncoding;
    operand.kWidth = 2;
    return triton::toEncoding(operand);
  };
  LAYOUT_TRY_ASSIGN(aEncoding, dotOp(0));
  LAYOUT_TRY_ASSIGN(bEncoding, dotOp(1));
  p.a.name = "A";
  p.a.encoding = aEncoding.text();
  p.a.tile = {bm, bk};
  p.b.name = "B";
  p.b.encoding = bEncoding.text();
  p.b.transposed = config.transposeB;
  p.b.ldmatrixTrans = !config.transposeB;
  p.b.tile = config.transposeB ? std::array<int64_t, 2>{bn, bk} : std::array<int64_t, 2>{bk, bn};
  LAYOUT_TRY_ASSIGN(aLayout, distributedLayout(aEncoding, bm, bk));
  LAYOUT_TRY_ASSIGN(bLayout, distributedLayout(bEncoding, bk, bn));
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

} // namespace layout::codegen::cuda_plan
