// The NVIDIA GEMM plan against an independent model of the hardware: the PTX ISA's cp.async,
// ldmatrix (.trans) and mma.sync.m16n8k16 semantics, written here from the PTX ISA's text and
// fragment figures, run over the plan's constants the way the emitted kernel combines them
// (XORs of per-bit constants). A CTA's whole K loop is simulated on small integers and compared
// with the exact product, and the banks of every address are counted here by hand.
#include "layout/codegen/cuda_emitter.h"
#include "layout/codegen/cuda_gemm_plan.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

using layout::codegen::CudaGemmConfig;
using layout::codegen::CudaGemmPlan;
using layout::codegen::CudaOperandPlan;

template <class Bits> uint32_t xorBits(const Bits& bits, uint64_t v) {
  uint32_t o = 0;
  for (size_t b = 0; b < bits.size(); ++b)
    if (v >> b & 1) o ^= static_cast<uint32_t>(bits[b]);
  return o;
}

// The coordinate the kernel's epilogue stores accumulator register r of (lane, warp) at: the XOR
// of the plan's register, lane-bit and warp-bit constants.
std::array<int64_t, 2> epilogueCoord(const CudaGemmPlan& p, size_t r, uint64_t lane,
                                     uint64_t warp) {
  std::array<int64_t, 2> at = p.accumulatorRegister[r];
  for (int b = 0; b < 5; ++b)
    if (lane >> b & 1) {
      at[0] ^= p.accumulatorLaneBit[size_t(b)][0];
      at[1] ^= p.accumulatorLaneBit[size_t(b)][1];
    }
  for (size_t b = 0; b < p.accumulatorWarpBit.size(); ++b)
    if (warp >> b & 1) {
      at[0] ^= p.accumulatorWarpBit[b][0];
      at[1] ^= p.accumulatorWarpBit[b][1];
    }
  return at;
}

// Small integers, so every sum is exact.
int aValue(int64_t m, int64_t k) {
  return static_cast<int>((m * 7 + k * 3) % 5) - 2;
}
int bValue(int64_t k, int64_t n) {
  return static_cast<int>((k * 5 + n * 11) % 7) - 3;
}

// One CTA (tile row 0, column 0) of the kernel over K = kTiles * BK, on the PTX model.
class PtxCta {
public:
  explicit PtxCta(const CudaGemmPlan& p) : p_(p) {}

  // Returns C[BM][BN] as the epilogue stores it; `writes` counts the stores per element.
  std::vector<double> run(int kTiles, std::vector<int>& writes) {
    const auto& c = p_.config;
    const int64_t bm = c.blockTile[0], bn = c.blockTile[1], bk = c.kTile;
    const int64_t threads = p_.report.threads, warps = threads / 32;
    acc_.assign(static_cast<size_t>(threads * p_.report.accumulatorRegisters), 0.0);
    for (int kt = 0; kt < kTiles; ++kt) {
      const int64_t k0 = kt * bk;
      auto sa = copyTile(p_.a, [&](int64_t r, int64_t col) { return aValue(r, k0 + col); });
      auto sb = copyTile(p_.b, [&](int64_t r, int64_t col) {
        return c.transposeB ? bValue(k0 + col, r) : bValue(k0 + r, col);
      });
      for (int64_t w = 0; w < warps; ++w)
        for (int64_t kk = 0; kk < bk / 16; ++kk) {
          std::vector<Regs> af, bf;
          for (int64_t s = 0; s < p_.aIssuesPerK16; ++s) af.push_back(ldmatrix(p_.a, sa, w, kk, s));
          for (int64_t s = 0; s < p_.bIssuesPerK16; ++s) bf.push_back(ldmatrix(p_.b, sb, w, kk, s));
          for (const auto& m : p_.mmas) mma(w, m, af[size_t(m.aIssue)], bf[size_t(m.bIssue)]);
        }
    }
    std::vector<double> out(static_cast<size_t>(bm * bn), 0);
    writes.assign(out.size(), 0);
    for (int64_t t = 0; t < threads; ++t) {
      const uint64_t lane = uint64_t(t) % 32, warp = uint64_t(t) / 32;
      for (size_t r = 0; r < p_.accumulatorRegister.size(); ++r) {
        const auto [row, col] = epilogueCoord(p_, r, lane, warp);
        EXPECT_LT(row, bm);
        EXPECT_LT(col, bn);
        if (row >= bm || col >= bn) continue;
        out[size_t(row * bn + col)] = acc_[size_t(t) * p_.accumulatorRegister.size() + r];
        ++writes[size_t(row * bn + col)];
      }
    }
    return out;
  }

private:
  // The 4 registers of an ldmatrix.x4 per lane, each two 16-bit halves.
  using Regs = std::vector<std::array<std::array<int, 2>, 4>>;

  // cp.async as the issue describes the copy: thread t's chunk i is chunk q = t + i * threads
  // of the row-major tile, 8 elements along a row; the kernel writes it at the plan's offset.
  template <class Value> std::vector<int> copyTile(const CudaOperandPlan& op, Value value) {
    const int64_t rows = op.tile[0], cols = op.tile[1], threads = p_.report.threads;
    std::vector<int> smem(size_t(rows * cols), 0);
    std::vector<int> written(smem.size(), 0);
    for (int64_t t = 0; t < threads; ++t)
      for (size_t i = 0; i < op.copyIteration.size(); ++i) {
        const int64_t q = t + int64_t(i) * threads;
        const int64_t row = q / (cols / 8), col = q % (cols / 8) * 8;
        const uint32_t off = xorBits(op.copyThreadBit, uint64_t(t)) ^ op.copyIteration[i];
        EXPECT_LE(off + 8, smem.size()) << op.name;
        if (off + 8 > smem.size()) continue;
        for (int e = 0; e < 8; ++e) {
          smem[off + size_t(e)] = value(row, col + e);
          ++written[off + size_t(e)];
        }
      }
    for (size_t i = 0; i < written.size(); ++i)
      EXPECT_EQ(written[i], 1) << op.name << ": shared element " << i;
    return smem;
  }

  // ldmatrix.x4: address lane 8j + i gives row i of matrix j (8 consecutive 16-bit elements).
  // Without .trans lane l receives row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 of matrix j
  // in register j; with .trans, rows 2 (l % 4) and 2 (l % 4) + 1 of column l / 4.
  Regs ldmatrix(const CudaOperandPlan& op, const std::vector<int>& smem, int64_t warp, int64_t kk,
                int64_t issue) {
    std::array<uint32_t, 32> row{};
    for (uint64_t p = 0; p < 32; ++p)
      row[p] = xorBits(op.ldmatrixLaneBit, p) ^ xorBits(op.ldmatrixWarpBit, uint64_t(warp)) ^
               op.ldmatrixIssue[size_t(kk)][size_t(issue)];
    Regs regs(32);
    for (int l = 0; l < 32; ++l)
      for (int j = 0; j < 4; ++j)
        for (int h = 0; h < 2; ++h) {
          const int r = op.ldmatrixTrans ? 2 * (l % 4) + h : l / 4;
          const int c = op.ldmatrixTrans ? l / 4 : 2 * (l % 4) + h;
          regs[size_t(l)][size_t(j)][size_t(h)] = smem[row[size_t(8 * j + r)] + uint32_t(c)];
        }
    return regs;
  }

  // mma.sync.m16n8k16 (PTX fragment figures, lane l = 4 g + t): a register j half h holds
  // A[g + 8 (j & 1)][2t + h + 8 (j >> 1)]; b register j half h holds B[2t + h + 8j][g];
  // c register i is D[g + 8 (i >> 1)][2t + (i & 1)].
  void mma(int64_t warp, const layout::codegen::CudaMma& m, const Regs& a, const Regs& b) {
    int am[16][16] = {}, bm[16][8] = {};
    for (int l = 0; l < 32; ++l) {
      const int g = l / 4, t = l % 4;
      for (int j = 0; j < 4; ++j)
        for (int h = 0; h < 2; ++h)
          am[g + 8 * (j & 1)][2 * t + h + 8 * (j >> 1)] = a[size_t(l)][size_t(j)][size_t(h)];
      for (int j = 0; j < 2; ++j)
        for (int h = 0; h < 2; ++h)
          bm[2 * t + h + 8 * j][g] = b[size_t(l)][size_t(2 * m.bHalf + j)][size_t(h)];
    }
    const size_t regs = p_.accumulatorRegister.size();
    for (int l = 0; l < 32; ++l) {
      const int g = l / 4, t = l % 4;
      for (int i = 0; i < 4; ++i) {
        const int row = g + 8 * (i >> 1), col = 2 * t + (i & 1);
        double d = 0;
        for (int k = 0; k < 16; ++k) d += am[row][k] * bm[k][col];
        acc_[size_t(warp * 32 + l) * regs + size_t(m.accumulator + i)] += d;
      }
    }
  }

  const CudaGemmPlan& p_;
  std::vector<double> acc_;
};

// How many times `needle` starts in `text`.
size_t occurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

CudaGemmPlan planOf(const CudaGemmConfig& c) {
  auto p = layout::codegen::buildCudaGemmPlan(c);
  EXPECT_TRUE(p) << p.error().message;
  return p ? *p : CudaGemmPlan{};
}

std::vector<CudaGemmConfig> configs() {
  auto config = [](std::array<int64_t, 2> tile, std::array<int64_t, 2> warps, int64_t kTile,
                   int stages, bool transposeB) {
    CudaGemmConfig c;
    c.blockTile = tile;
    c.warps = warps;
    c.kTile = kTile;
    c.stages = stages;
    c.transposeB = transposeB;
    return c;
  };
  std::vector<CudaGemmConfig> v;
  v.push_back({}); // the default: 128x256x64, 2x4 warps, 3 stages
  v.push_back(config({128, 128}, {2, 2}, 32, 4, false));
  v.push_back(config({128, 128}, {2, 2}, 32, 4, true));
  CudaGemmConfig wide = config({128, 256}, {2, 4}, 64, 3, false);
  wide.dtype = layout::codegen::GemmDataType::F16;
  v.push_back(wide);
  v.push_back(config({64, 128}, {4, 1}, 64, 3, true));
  // One warp over a 32x32 tile with k_tile 64: the swizzle gives A's second copy a shared offset
  // that shares bits with the thread's, so the emitter XORs it.
  v.push_back(config({32, 32}, {1, 1}, 64, 2, false));
  return v;
}

std::string describe(const CudaGemmConfig& c) {
  return layout::codegen::cudaGemmConfigToJson(c).dump();
}

// The whole data path of one CTA: cp.async into the swizzled tiles, ldmatrix, mma.sync and the
// epilogue give exactly A x B, every element stored once.
TEST(CudaGemmPlan, OneCtaComputesTheExactProductOnThePtxModel) {
  for (const CudaGemmConfig& c : configs()) {
    const CudaGemmPlan p = planOf(c);
    if (p.report.threads == 0) continue;
    const int kTiles = 2;
    std::vector<int> writes;
    const std::vector<double> out = PtxCta(p).run(kTiles, writes);
    const int64_t bm = c.blockTile[0], bn = c.blockTile[1];
    for (int64_t i = 0; i < bm; ++i)
      for (int64_t j = 0; j < bn; ++j) {
        double want = 0;
        for (int64_t k = 0; k < kTiles * c.kTile; ++k) want += aValue(i, k) * bValue(k, j);
        ASSERT_EQ(writes[size_t(i * bn + j)], 1) << describe(c) << " at " << i << "," << j;
        ASSERT_EQ(out[size_t(i * bn + j)], want) << describe(c) << " at " << i << "," << j;
      }
  }
}

// Banks counted here from the addresses: a 16-byte access covers 4 consecutive 4-byte banks of
// 32; a phase (8 address lanes: one ldmatrix matrix, one quarter-warp of 16-byte stores) is
// conflict-free when its 8 rows cover 32 distinct banks.
int phaseWays(const std::vector<uint32_t>& elementOffsets) {
  std::map<int, std::set<uint32_t>> wordsOfBank;
  for (uint32_t off : elementOffsets)
    for (uint32_t w = 0; w < 4; ++w) {
      const uint32_t word = off * 2 / 4 + w;
      wordsOfBank[int(word % 32)].insert(word);
    }
  size_t ways = 1;
  for (const auto& [bank, words] : wordsOfBank) ways = std::max(ways, words.size());
  return int(ways);
}

TEST(CudaGemmPlan, SharedAccessesAreConflictFree) {
  for (const CudaGemmConfig& c : configs()) {
    const CudaGemmPlan p = planOf(c);
    if (p.report.threads == 0) continue;
    for (const CudaOperandPlan* op : {&p.a, &p.b}) {
      const uint64_t warps = uint64_t(p.report.threads / 32);
      for (uint64_t w = 0; w < warps; ++w)
        for (size_t kk = 0; kk < op->ldmatrixIssue.size(); ++kk)
          for (size_t s = 0; s < op->ldmatrixIssue[kk].size(); ++s)
            for (uint64_t j = 0; j < 4; ++j) {
              std::vector<uint32_t> rows;
              for (uint64_t i = 0; i < 8; ++i)
                rows.push_back(xorBits(op->ldmatrixLaneBit, 8 * j + i) ^
                               xorBits(op->ldmatrixWarpBit, w) ^ op->ldmatrixIssue[kk][s]);
              EXPECT_EQ(phaseWays(rows), 1) << describe(c) << " " << op->name << " ldmatrix";
            }
      for (uint64_t t0 = 0; t0 < uint64_t(p.report.threads); t0 += 8)
        for (size_t i = 0; i < op->copyIteration.size(); ++i) {
          std::vector<uint32_t> chunks;
          for (uint64_t t = t0; t < t0 + 8; ++t)
            chunks.push_back(xorBits(op->copyThreadBit, t) ^ op->copyIteration[i]);
          EXPECT_EQ(phaseWays(chunks), 1) << describe(c) << " " << op->name << " cp.async";
        }
      // The plan's own proofs agree: the synthesizer's and the enumeration's.
      EXPECT_EQ(op->ldmatrixIssues.wavefronts, op->ldmatrixIssues.idealWavefronts) << op->name;
      EXPECT_EQ(op->copyIssues.wavefronts, op->copyIssues.idealWavefronts) << op->name;
      EXPECT_EQ(op->ldmatrixBanks.wavefronts, op->ldmatrixBanks.idealWavefronts) << op->name;
      EXPECT_EQ(op->copyBanks.wavefronts, op->copyBanks.idealWavefronts) << op->name;
    }
  }
}

// The plain row-major tile would conflict: the swizzle is what removes the conflicts. With A's
// 128-byte rows (k_tile 64), ldmatrix's 8 rows of a matrix all start in bank 0: 8 ways.
TEST(CudaGemmPlan, TheUnswizzledTileWouldConflict) {
  std::vector<uint32_t> rows;
  for (uint32_t i = 0; i < 8; ++i) rows.push_back(i * 64); // row-major [128][64], column 0
  EXPECT_EQ(phaseWays(rows), 8);
  const CudaGemmPlan p = planOf({});
  ASSERT_GT(p.report.threads, 0);
  EXPECT_NE(p.a.sharedEncoding.find("#ttg.shared_linear"), std::string::npos);
}

TEST(CudaGemmPlan, TheEmittedSourceUsesThePlansConstants) {
  for (const CudaGemmConfig& c : configs()) {
    const CudaGemmPlan p = planOf(c);
    if (p.report.threads == 0) continue;
    const std::string src = layout::codegen::emitCuda(p);
    auto count = [&](const std::string& needle) { return occurrences(src, needle); };
    const size_t k16 = size_t(c.kTile / 16);
    EXPECT_NE(src.find("extern \"C\" __global__ void __launch_bounds__(" +
                       std::to_string(p.report.threads) + ") " + p.name + "("),
              std::string::npos);
    const std::string type(layout::codegen::dataTypeTraits(c.dtype).name);
    EXPECT_NE(src.find("mma.sync.aligned.m16n8k16.row.col.f32." + type + "." + type + ".f32"),
              std::string::npos);
    EXPECT_EQ(count("      mma16816("), p.mmas.size() * k16) << describe(c);
    // Double-buffered fragments: one k16 step's loads before the loop, then k16 per K step.
    EXPECT_EQ(count("      ldsm_x4(af["), size_t(p.aIssuesPerK16) * (k16 + 1));
    EXPECT_EQ(count(c.transposeB ? "      ldsm_x4(bf[" : "      ldsm_x4_trans(bf["),
              size_t(p.bIssuesPerK16) * (k16 + 1));
    // Every copy: the thread's source plus the plan's row and column, the thread's shared chunk
    // plus the plan's offset (XORed where the offset shares bits with the thread's), inside the
    // matrix when the row and column are below what is left.
    EXPECT_EQ(count("      cp_async16("), p.a.copyIteration.size() + p.b.copyIteration.size());
    for (const auto* op : {&p.a, &p.b}) {
      const std::string n = op->name == "A" ? "a" : "b", ld = op->name == "A" ? "lda" : "ldb";
      uint32_t threadOffsets = 0;
      for (uint32_t b : op->copyThreadBit) threadOffsets |= b;
      for (size_t i = 0; i < op->copyIteration.size(); ++i) {
        const auto [row, col] = op->copyIterationCoord[i];
        const uint32_t offset = op->copyIteration[i];
        const std::string to = offset & threadOffsets
                                   ? "s" + op->name + " + stage * " +
                                         std::to_string(op->stageElements * 2) + "u + 2u * (" + n +
                                         "CopyOff ^ " + std::to_string(offset) + "u)"
                                   : "dst + " + std::to_string(2 * offset) + "u";
        const std::string line = "cp_async16(" + to + ", src + (size_t)" + std::to_string(row) +
                                 " * " + ld + " + " + std::to_string(col) + ", " +
                                 std::to_string(row) + " < rowsLeft && " + std::to_string(col) +
                                 " < colsLeft ? 16u : 0u);";
        EXPECT_NE(src.find(line), std::string::npos) << describe(c) << "\n  " << line;
      }
    }
    // Every ldmatrix issue constant, as the emitter writes it.
    for (size_t kk = 0; kk < k16; ++kk)
      for (size_t s = 0; s < p.a.ldmatrixIssue[kk].size(); ++s)
        EXPECT_NE(src.find("ldsm_x4(af[" + std::to_string(kk % 2) + "][" + std::to_string(s) +
                           "], sA + readStage * " + std::to_string(p.a.stageElements * 2) +
                           "u + 2u * (aLdsm ^ " + std::to_string(p.a.ldmatrixIssue[kk][s]) +
                           "u));"),
                  std::string::npos)
            << kk << " " << s;
    EXPECT_NE(src.find("cp_async_wait<" + std::to_string(c.stages - 2) + ">();"),
              std::string::npos);
    // A stage's copies are issued once per K step by every warp: with 8 warps or more, the
    // second half one k16 step after the first (each guarded by its half), else unguarded.
    const int64_t warps = p.report.threads / 32;
    const std::string load = "loadStage(writeStage, (kt + " + std::to_string(c.stages - 1) +
                             ") * " + std::to_string(c.kTile) + ");";
    EXPECT_EQ(count(load), warps >= 8 ? 2u : 1u) << describe(c);
    EXPECT_EQ(count("cp_async_commit();"), warps >= 8 ? 3u : 2u) << describe(c);
    if (warps >= 8) {
      const size_t split = src.find("const bool lateCopies = warp >= " + std::to_string(warps / 2) +
                                    "u;\n    if (!lateCopies) {");
      const size_t late = src.find("    if (lateCopies) {\n      if (kt + ");
      ASSERT_NE(split, std::string::npos) << describe(c);
      ASSERT_NE(late, std::string::npos) << describe(c);
      // Between them: the first k16 step (its ldmatrix loads and mma.sync), nothing of the second.
      EXPECT_EQ(occurrences(src.substr(split, late - split), "mma16816("), p.mmas.size())
          << describe(c);
    }
    EXPECT_EQ(count("*reinterpret_cast<float2*>(d)"), p.accumulatorRegister.size() / 2);
  }
}

TEST(CudaGemmPlan, ReportAndJson) {
  CudaGemmConfig c;
  c.blockTile = {128, 128};
  c.warps = {2, 2};
  c.kTile = 32;
  c.stages = 4;
  const CudaGemmPlan p = planOf(c);
  ASSERT_GT(p.report.threads, 0);
  // 128x128 over 2x2 warps: 64x64 per warp = 4 x 8 m16n8 tiles, 128 f32 accumulators.
  EXPECT_EQ(p.report.threads, 128);
  EXPECT_EQ(p.report.accumulatorRegisters, 128);
  EXPECT_EQ(p.mmas.size(), 32u);
  EXPECT_EQ(p.report.mmaPerKStep, 64);
  EXPECT_EQ(p.report.ldmatrixPerKStep, 16);
  EXPECT_EQ(p.report.sharedBytes, 4 * (128 + 128) * 32 * 2);
  EXPECT_EQ(p.report.ctas, 32 * 32);
  const std::string text = layout::codegen::cudaGemmReportText(p);
  EXPECT_NE(text.find("conflict-free"), std::string::npos) << text;
  EXPECT_EQ(text.find("CONFLICTS"), std::string::npos) << text;
  const auto j = layout::codegen::cudaGemmPlanToJson(p);
  EXPECT_EQ(j["kernel"], p.name);
  EXPECT_EQ(j["A"]["ldmatrixBanks"]["conflictFree"], true);
  EXPECT_EQ(j["B"]["ldmatrix"], "ldmatrix.x4.trans");
  auto back = layout::codegen::cudaGemmConfigFromJson(j["config"]);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(layout::codegen::cudaGemmConfigToJson(*back), j["config"]);
}

TEST(CudaGemmPlan, RulesNameTheFieldAndTheRule) {
  auto message = [](CudaGemmConfig c) {
    auto e = layout::codegen::validateCudaGemmConfig(c);
    return e ? std::string() : e.error().message;
  };
  CudaGemmConfig c;
  c.k = 1001;
  EXPECT_NE(message(c).find("k = 1001: must be a multiple of 8"), std::string::npos);
  c = {};
  c.n = 1001;
  EXPECT_NE(message(c).find("n = 1001: must be a multiple of 8"), std::string::npos);
  c.transposeB = true; // B is N x K: rows of K
  EXPECT_EQ(message(c), "");
  c = {};
  c.dtype = layout::codegen::GemmDataType::Int8;
  EXPECT_NE(message(c).find("dtype = int8"), std::string::npos);
  c = {};
  c.arch = "sm100";
  EXPECT_NE(message(c).find("arch = sm100: expected sm80 or sm90"), std::string::npos);
  c = layout::codegen::cudaGemmDefaults("sm90");
  EXPECT_EQ(message(c), "");
  c.kTile = 32;
  EXPECT_NE(message(c).find("k_tile = 32: must be 64 on sm90"), std::string::npos);
  c = layout::codegen::cudaGemmDefaults("sm90");
  c.blockTile = {256, 128};
  EXPECT_NE(message(c).find("block_tile[0] = 256: must be 64 or 128 on sm90"), std::string::npos);
  c = layout::codegen::cudaGemmDefaults("sm90");
  c.stages = 5;
  EXPECT_NE(message(c).find("stages = 5: with this tile needs"), std::string::npos);
  c = {};
  c.stages = 9;
  EXPECT_NE(message(c).find("stages = 9: must be in [2, 8]"), std::string::npos);
  c = {};
  c.blockTile = {96, 128};
  EXPECT_NE(message(c).find("block_tile[0] = 96: must be a power of two"), std::string::npos);
  c = {};
  c.blockTile = {256, 256};
  c.warps = {2, 2};
  EXPECT_NE(message(c).find("512 accumulators per thread; at most 256"), std::string::npos);
  c = {};
  c.stages = 8;
  c.blockTile = {256, 128};
  c.warps = {4, 2};
  c.kTile = 128;
  EXPECT_NE(message(c).find("bytes of shared memory"), std::string::npos);
  c = {};
  c.m = 0;
  EXPECT_NE(message(c).find("m = 0: must be in [1, "), std::string::npos);
  EXPECT_FALSE(layout::codegen::cudaGemmConfigFromJson(nlohmann::json{{"sg_layout", 1}}));
  EXPECT_FALSE(layout::codegen::cudaGemmConfigFromJson(nlohmann::json{{"warps", 2}}));
  EXPECT_FALSE(layout::codegen::buildCudaGemmPlan(c));
}

// The sm90 plan against the PTX ISA's wgmma definitions, written here: the D fragment of
// m64nNk16 (warp w of a warpgroup, lane 4g + t, register i: row 16w + g + 8 ((i >> 1) & 1),
// column 8 (i >> 2) + 2t + (i & 1)), and the canonical 128-byte-swizzle layouts the matrix
// descriptors name: K-major 8 rows of 128 bytes per 1024-byte group, a k16 step 32 bytes into
// the row; N-major (B stored K x N, read transposed) 64 columns of N per 8 KiB TMA box (the
// leading offset), 8 rows of K per 1024 bytes, a k16 step 16 rows = 2048 bytes.
TEST(CudaGemmPlan, Sm90EpilogueAndDescriptorsFollowThePtxIsa) {
  for (bool transposeB : {false, true})
    for (auto tile : {std::array<int64_t, 2>{128, 256}, std::array<int64_t, 2>{64, 128}}) {
      CudaGemmConfig c = layout::codegen::cudaGemmDefaults("sm90");
      c.transposeB = transposeB;
      c.blockTile = tile;
      const CudaGemmPlan p = planOf(c);
      ASSERT_TRUE(p.sm90) << describe(c);
      const auto& h = p.hopper;
      EXPECT_EQ(h.consumers, tile[0] / 64);
      EXPECT_EQ(p.report.threads, 128 * (h.consumers + 1));
      const size_t regs = size_t(tile[1] / 2);
      ASSERT_EQ(p.accumulatorRegister.size(), regs);
      for (uint64_t w = 0; w < uint64_t(4 * h.consumers); ++w)
        for (uint64_t lane = 0; lane < 32; ++lane)
          for (size_t i = 0; i < regs; ++i) {
            const auto [row, col] = epilogueCoord(p, i, lane, w);
            ASSERT_EQ(row, int64_t(16 * w + lane / 4 + 8 * ((i >> 1) & 1))) << i;
            ASSERT_EQ(col, int64_t(8 * (i >> 2) + 2 * (lane % 4) + (i & 1))) << i;
          }
      EXPECT_EQ(h.rowGroupBytes, 1024);
      EXPECT_EQ(h.kStepBytes, 32);
      EXPECT_EQ(h.consumerRowBytes, tile[0] > 64 ? 64 * 128 : 0);
      EXPECT_EQ(h.bStrideBytes, 1024);
      EXPECT_EQ(h.bKStepBytes, transposeB ? 32 : 2048);
      EXPECT_EQ(h.bBoxes, transposeB ? 1 : tile[1] / 64);
      if (!transposeB) {
        EXPECT_EQ(h.bLeadingBytes, 64 * 64 * 2);
      }
      const std::string src = layout::codegen::emitCuda(p);
      EXPECT_NE(
          src.find("mbar_expect_tx(full, " + std::to_string((tile[0] + tile[1]) * 128) + "u);"),
          std::string::npos);
      EXPECT_NE(src.find(", p, 1, 1, 0, " + std::string(transposeB ? "0" : "1") + ";"),
                std::string::npos);
      for (int kk = 0; kk < 4; ++kk)
        EXPECT_NE(src.find("wgmma_desc(a + " + std::to_string(32 * kk) + "u, 16u, 1024u), " +
                           "wgmma_desc(b + " + std::to_string(kk * h.bKStepBytes) + "u, " +
                           std::to_string(h.bLeadingBytes) + "u, 1024u)"),
                  std::string::npos)
            << kk;
      EXPECT_EQ(occurrences(src, "tma_load_2d(stage"), size_t(1 + h.bBoxes));
    }
}

} // namespace
