// GEMM kernel IR from a configuration: every offset, origin and shuffle comes from liblayout's
// DPAS layouts and block-load plans (see gemm_kernel_builder.h for the derivation).
#include "layout/codegen/gemm_kernel_builder.h"

#include "layout/codegen/opencl_block_builtins.h"

#include "layout/intel/block_load_plan.h"
#include "layout/target/hardware_target.h"
#include "layout/triton/encoding.h"
#include "layout/triton/encoding_params.h"

#include <bit>
#include <cstring>
#include <map>

namespace layout::codegen {
namespace {

// The static register check's assumptions beyond the data (KernelReport): scalars fit one
// register; about 16 registers are kept for what the compiler reserves (IGC's own temporaries,
// the stack pointer and spill headroom), as sycl-tla's tilings leave.
constexpr int64_t kScalarGrf = 1;
constexpr int64_t kCompilerReservedGrf = 16;

using intel::BlockOp;
using intel::BlockShape;

// The accumulator's #ttig.dpas: the target's DPAS unit, the workgroup's subgroup grid, and the
// subgroup tile in DPAS instructions (repCluster).
triton::IntelDpasEncoding dpasEncoding(const GemmConfig& c, const target::HardwareTarget& hw) {
  triton::IntelDpasEncoding d;
  d.repeatCount = c.repeatCount;
  d.systolicDepth = hw.dpas->systolicDepth;
  d.executionSize = hw.dpas->executionSize;
  d.opsPerChan = dataTypeTraits(c.dtype).opsPerChan;
  d.threadsPerWarp = hw.subgroupSize;
  d.warpsPerCTA = {c.sgLayout[0], c.sgLayout[1]};
  d.repCluster = {c.sgData[0] / c.repeatCount, c.sgData[1] / hw.dpas->executionSize};
  return d;
}

// Operand opIdx of the DPAS, with kWidth as Triton's verifier requires: A opsPerChan / 2 (1 for
// tf32), B opsPerChan.
triton::DotOperandEncoding dotOperand(const GemmConfig& c, const triton::Encoding& dpas,
                                      int opIdx) {
  const int opc = dataTypeTraits(c.dtype).opsPerChan;
  return {opIdx, dpas, opIdx == 1 ? opc : std::max(1, opc / 2)};
}

// (row, column) of register `reg` of lane 0 in subgroup 0: the origin of the DPAS instruction
// whose first register it is.
std::array<int64_t, 2> registerOrigin(const LinearLayout& ll, int64_t reg) {
  const std::pair<DimName, uint64_t> ins[] = {{dims::reg(), static_cast<uint64_t>(reg)},
                                              {dims::lane(), 0},
                                              {dims::warp(), 0},
                                              {dims::block(), 0}};
  auto out = ll.apply(ins);
  return {static_cast<int64_t>((*out)[0].second), static_cast<int64_t>((*out)[1].second)};
}

// The per-lane unit the OpenCL built-in delivers: VNNI and transposed loads give dwords; a row
// wider than the subgroup gives W / lanes consecutive elements per lane (8-bit W = 32: ushort).
int loadUnitBits(const BlockShape& s, int lanes) {
  if (s.vnni || s.transpose) return 32;
  return s.elemBits * std::max(1, s.tileWidth / lanes);
}

std::string shapeComment(const BlockShape& s) {
  return intel::blockShapeName(s);
}

struct Builder {
  const GemmConfig& c;
  const DataTypeTraits& traits;
  const target::HardwareTarget& hw;
  const intel::BlockIoTarget& target;
  const int lanes; // subgroup size
  const int n;     // DPAS execution size: N of one instruction
  GemmKernel k;

  int addValue(std::string name, ValueRole role, int bits, int count, std::string layout) {
    k.values.push_back({std::move(name), role, bits, count, std::move(layout)});
    return static_cast<int>(k.values.size()) - 1;
  }
  int addOrigin(std::string name, LinearLayout ll) {
    k.origins.push_back({std::move(name), std::move(ll)});
    return static_cast<int>(k.origins.size()) - 1;
  }

  // Loads and shuffles of one operand; returns the operand value of each DPAS instruction, keyed
  // by (tile along M or N, K step).
  Expected<std::map<std::pair<int64_t, int64_t>, int>>
  operand(MatrixOperand which, const triton::Encoding& enc, std::span<const int64_t> shape) {
    const bool isA = which == MatrixOperand::A;
    const bool transposed = !isA && c.transposeB;
    const std::string opName = isA ? "a" : "b";
    auto plan = intel::planBlockLoads(enc, shape, traits.inputBits, transposed, target);
    if (!plan)
      return makeError("operand " + std::string(matrixName(which)) + ": " + plan.error().message);
    auto ll = triton::toLinearLayout(enc, shape);
    if (!ll)
      return makeError("operand " + std::string(matrixName(which)) + ": " + ll.error().message);
    (isA ? k.planA : k.planB) = *plan;
    const int origin = addOrigin(opName, plan->subgroupOffset);

    // Memory coordinates: A is (m, k); B is (k, n), or (n, k) when stored transposed.
    const bool kIsColumn = isA || transposed;
    const WorkgroupTerm tileTerm = isA ? WorkgroupTerm::RowTile : WorkgroupTerm::ColumnTile;
    std::vector<int> loadValues;
    for (size_t j = 0; j < plan->loads.size(); ++j) {
      const auto& l = plan->loads[j];
      BlockShape s{l.elemBits, l.tileWidth, l.tileHeight, l.numBlocks, l.transpose, l.vnni};
      if (!hasOpenClBlockBuiltin(BlockOp::Load, s))
        return makeError("operand " + std::string(matrixName(which)) + ": the planned load " +
                         intel::blockShapeName(s) +
                         " has no cl_intel_subgroup_2d_block_io built-in");
      const int unit = loadUnitBits(s, lanes);
      const int64_t bits = intel::elementsPerWorkItem(target, s) * s.elemBits;
      const int value =
          addValue(opName + "_load" + std::to_string(j), ValueRole::LoadResult, unit,
                   static_cast<int>(bits / unit),
                   shapeComment(s) + " at " + (isA ? "A" : "B") + " tile offset (" +
                       std::to_string(l.offset[0]) + ", " + std::to_string(l.offset[1]) +
                       "); per-lane order of intel::loadPerWorkItem");
      loadValues.push_back(value);
      BlockIoOp op;
      op.kind = BlockOp::Load;
      op.matrix = which;
      op.shape = s;
      op.row = {kIsColumn ? tileTerm : WorkgroupTerm::None, !kIsColumn, origin, 0, l.offset[0]};
      op.column = {kIsColumn ? WorkgroupTerm::None : tileTerm, kIsColumn, origin, 1, l.offset[1]};
      op.xDivisor = l.elemBits / traits.inputBits;
      op.value = value;
      op.comment =
          std::string(matrixName(which)) + " load " + std::to_string(j) + ": " + shapeComment(s);
      k.mainLoop.push_back(op);
    }

    // One DPAS instruction's operand registers per lane: A is RC x K, B is K x N, over the lanes
    // (N = lanes: validateGemmConfig checks it).
    const int64_t regsPerInstr = isA ? c.repeatCount * traits.dpasK / lanes : traits.dpasK;
    std::map<std::pair<int64_t, int64_t>, int> operands;
    for (const auto& sh : plan->shuffles) {
      if (sh.lane)
        return makeError("operand " + std::string(matrixName(which)) +
                         ": the block-load plan needs lane-dependent shuffles, which this "
                         "emitter does not generate");
      const auto o = registerOrigin(*ll, sh.dpas * regsPerInstr);
      const int64_t tile = isA ? o[0] / c.repeatCount : o[1] / n;
      const int64_t kStep = (isA ? o[1] : o[0]) / traits.dpasK;
      const int value = addValue(
          opName + "_op" + std::to_string(sh.dpas), isA ? ValueRole::DpasA : ValueRole::DpasB,
          plan->operandRegisterBits, static_cast<int>(sh.registers.size()),
          std::string(isA ? "DPAS A of rows " : "DPAS B (VNNI) of columns ") +
              std::to_string(isA ? o[0] : o[1]) + "+, K step " + std::to_string(kStep));
      ShuffleOp op;
      op.dst = value;
      op.src = loadValues.at(sh.load);
      op.unitBits = plan->operandRegisterBits;
      op.registers = sh.registers;
      op.comment =
          "DPAS instruction " + std::to_string(sh.dpas) + " of the " + opName + " operand layout";
      k.mainLoop.push_back(op);
      operands[{tile, kStep}] = value;
    }
    k.report.loadsPerKStep += static_cast<int64_t>(plan->loads.size());
    for (const auto& l : plan->loads)
      k.report.bytesLoadedPerKStep +=
          int64_t{l.tileWidth} * l.tileHeight * l.numBlocks * l.elemBits / 8;
    return operands;
  }

  // Checks that a 32-bit RC x N block store takes its data in the accumulator's layout: lane l,
  // element r of the store (the order intel::loadPerWorkItem gives for the same shape) must be
  // the accumulator register r of lane l.
  Expected<void> checkStoreMatchesAccumulator(const BlockShape& store, const LinearLayout& c) {
    const int64_t rows = store.tileHeight, cols = store.tileWidth;
    intel::Surface surf{0, 64, rows, 64};
    std::vector<uint8_t> memory(static_cast<size_t>(rows * 64));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t col = 0; col < cols; ++col) {
        const uint32_t id = static_cast<uint32_t>(r * cols + col);
        std::memcpy(&memory[static_cast<size_t>(r * 64 + col * 4)], &id, 4);
      }
    intel::BlockIoRequest req{BlockOp::Load, store, surf, 0, 0};
    auto perLane = intel::loadPerWorkItem(target, req, memory);
    if (!perLane) return perLane.error();
    for (int lane = 0; lane < lanes; ++lane)
      for (int64_t r = 0; r < rows; ++r) {
        const std::pair<DimName, uint64_t> ins[] = {{dims::reg(), static_cast<uint64_t>(r)},
                                                    {dims::lane(), static_cast<uint64_t>(lane)},
                                                    {dims::warp(), 0},
                                                    {dims::block(), 0}};
        auto out = c.apply(ins);
        const uint64_t expect = (*out)[0].second * cols + (*out)[1].second;
        if ((*perLane)[lane][r] != expect)
          return makeError("the accumulator layout does not match the per-lane order of the " +
                           intel::blockShapeName(store) + " block store (lane " +
                           std::to_string(lane) + ", register " + std::to_string(r) + ")");
      }
    return {};
  }

  // Prefetch of the tile `rows x cols` (memory coordinates) that the loop reads `distance` K
  // steps ahead, and in the prologue the tiles of the first `distance` steps: the largest legal
  // prefetch block that still gives every subgroup a block of its own (no two subgroups fetch the
  // same block; the largest legal one when the tile has fewer blocks than subgroups), the blocks
  // dealt to subgroups round robin.
  // Subgroup s takes blocks s, s + S, s + 2S, ...; block b's (row, column) is linear in b's bits
  // (row-major over a power-of-two grid), so it is origin(s) XOR a constant per issue.
  void prefetch(MatrixOperand which, int64_t rows, int64_t cols, bool kIsColumn) {
    const int bits = traits.inputBits;
    BlockShape best{};
    auto area = [](const BlockShape& s) {
      return int64_t{s.tileWidth} * s.numBlocks * s.tileHeight;
    };
    const int64_t sgs = subgroupsPerWorkgroup(c);
    for (bool distinct : {true, false}) {
      for (int w : {32, 16, 8})
        for (int nb : {4, 2, 1})
          for (int64_t h = std::min<int64_t>(rows, 32); h >= 1; h /= 2) {
            BlockShape s{bits, w, static_cast<int>(h), nb, false, false};
            const bool tiles = rows % h == 0 && cols % (int64_t{w} * nb) == 0;
            if (distinct && (!tiles || rows / h * (cols / (int64_t{w} * nb)) < sgs)) continue;
            if (int64_t{w} * nb <= cols && area(s) > area(best) &&
                hasOpenClBlockBuiltin(BlockOp::Prefetch, s) &&
                intel::validateBlockShape(target, BlockOp::Prefetch, s))
              best = s;
          }
      if (best.elemBits != 0) break;
    }
    if (best.elemBits == 0) return; // no legal prefetch shape: prefetch nothing
    const int64_t blockWidth = int64_t{best.tileWidth} * best.numBlocks;
    const int64_t gridRows = rows / best.tileHeight, gridCols = cols / blockWidth;
    const int64_t blocks = gridRows * gridCols;
    auto blockOrigin = [&](int64_t b) {
      return std::vector<uint64_t>{static_cast<uint64_t>(b / gridCols * best.tileHeight),
                                   static_cast<uint64_t>(b % gridCols * blockWidth)};
    };
    InDimBases warp{dims::warp(), {}};
    for (int64_t bit = 1; bit < sgs; bit *= 2)
      warp.bases.push_back(bit < blocks ? blockOrigin(bit) : std::vector<uint64_t>{0, 0});
    auto ll = LinearLayout::create({warp}, {{dims::standardOut(0), std::bit_ceil(uint64_t(rows))},
                                            {dims::standardOut(1), std::bit_ceil(uint64_t(cols))}});
    if (!ll) return;
    const std::string name = std::string(which == MatrixOperand::A ? "a" : "b") + "_prefetch";
    const int origin = addOrigin(name, *ll);
    const WorkgroupTerm tileTerm =
        which == MatrixOperand::A ? WorkgroupTerm::RowTile : WorkgroupTerm::ColumnTile;
    // One op per round of blocks; `step` K steps after k0 (in the loop: addK), or after K offset 0
    // (the prologue).
    auto emit = [&](std::vector<Op>& list, int64_t first, int64_t step, bool inLoop) {
      const auto o = blockOrigin(first);
      const int64_t kOffset = step * c.kTile;
      BlockIoOp op;
      op.kind = BlockOp::Prefetch;
      op.matrix = which;
      op.shape = best;
      op.row = {kIsColumn ? tileTerm : WorkgroupTerm::None, !kIsColumn && inLoop, origin, 0,
                static_cast<int64_t>(o[0]) + (kIsColumn ? 0 : kOffset)};
      op.column = {kIsColumn ? WorkgroupTerm::None : tileTerm, kIsColumn && inLoop, origin, 1,
                   static_cast<int64_t>(o[1]) + (kIsColumn ? kOffset : 0)};
      op.comment = "cooperative prefetch of the " + std::string(matrixName(which)) + " tile " +
                   (inLoop ? std::to_string(step) + " K step(s) ahead"
                           : "of K step " + std::to_string(step) + " (prologue)") +
                   ": " + std::to_string(blocks) + " blocks of " + intel::blockShapeName(best) +
                   " over " + std::to_string(sgs) + " subgroups";
      list.push_back(op);
    };
    int64_t issued = 0;
    for (int64_t first = 0; first < blocks; first += sgs, ++issued)
      emit(k.mainLoop, first, c.stages, true);
    for (int64_t step = 0; step < c.stages; ++step)
      for (int64_t first = 0; first < blocks; first += sgs) emit(k.prologue, first, step, false);
    k.report.prefetchesPerKStep += issued;
  }
};

} // namespace

namespace {

// What to change when a configuration needs too many registers: the largest smaller K step that
// fits, if any (found by building it), else a smaller sg_data; and 256 GRF where it has fewer.
std::string registerHint(const GemmConfig& c) {
  std::string hint;
  for (GemmConfig smaller = c; smaller.kTile / 2 >= dataTypeTraits(c.dtype).dpasK;) {
    smaller.kTile /= 2;
    if (auto k = buildGemmKernel(smaller)) {
      hint = "k_tile = " + std::to_string(smaller.kTile) + " fits (" +
             std::to_string(k->report.totalGrf) + " GRF)";
      break;
    }
  }
  if (hint.empty()) hint = "shrink sg_data";
  return hint + (c.grfPerThread < 256 ? ", or use grf_per_thread = 256" : "");
}

} // namespace

Expected<GemmKernel> buildGemmKernel(const GemmConfig& c) {
  LAYOUT_TRY_ASSIGN(resolved, checkGemmConfig(c));
  const target::HardwareTarget* hw = &resolved.hardware;
  const intel::BlockIoTarget* target = &resolved.blockIo;
  const auto& traits = dataTypeTraits(c.dtype);
  const int lanes = hw->subgroupSize, n = hw->dpas->executionSize;
  Builder b{c, traits, *hw, *target, lanes, n, {}};
  GemmKernel& k = b.k;
  k.config = c;
  k.name = "gemm_" + std::string(traits.name) + "_" + std::to_string(c.sgLayout[0]) + "x" +
           std::to_string(c.sgLayout[1]) + "_" + std::to_string(c.sgData[0]) + "x" +
           std::to_string(c.sgData[1]) + "_k" + std::to_string(c.kTile) +
           (c.repeatCount != 8 ? "_rc" + std::to_string(c.repeatCount) : "") +
           (c.groupM > 1 ? "_g" + std::to_string(c.groupM) : "") + (c.transposeB ? "_bt" : "");
  const int64_t tileM = workgroupTileM(c), tileN = workgroupTileN(c);
  k.launch = {(c.m + tileM - 1) / tileM, (c.n + tileN - 1) / tileN, subgroupsPerWorkgroup(c),
              lanes};

  // The encodings, built from values (layout/triton/encoding_params.h) and verified.
  auto encC = triton::toEncoding(dpasEncoding(c, *hw));
  if (!encC) return withContext(encC.error(), "accumulator encoding");
  auto encA = triton::toEncoding(dotOperand(c, *encC, 0));
  if (!encA) return withContext(encA.error(), "operand A encoding");
  auto encB = triton::toEncoding(dotOperand(c, *encC, 1));
  if (!encB) return withContext(encB.error(), "operand B encoding");
  k.encodingA = encA->canonical;
  k.encodingB = encB->canonical;
  k.encodingC = encC->canonical;
  const int64_t shapeA[] = {tileM, c.kTile}, shapeB[] = {c.kTile, tileN}, shapeC[] = {tileM, tileN};
  auto llC = triton::toLinearLayout(*encC, shapeC);
  if (!llC) return withContext(llC.error(), "accumulator layout");

  // Accumulators: one value per DPAS output tile, zeroed before the loop.
  const int64_t accTiles = static_cast<int64_t>(llC->inDimSize(dims::reg())) / c.repeatCount;
  std::map<std::pair<int64_t, int64_t>, int> acc;
  std::vector<std::array<int64_t, 2>> accOrigin;
  for (int64_t t = 0; t < accTiles; ++t) {
    const auto o = registerOrigin(*llC, t * c.repeatCount);
    const int v = b.addValue("acc" + std::to_string(t), ValueRole::Accumulator, 32, c.repeatCount,
                             "lane n, element r = D[" + std::to_string(o[0]) + " + r][" +
                                 std::to_string(o[1]) + " + n] of the subgroup tile");
    acc[{o[0] / c.repeatCount, o[1] / n}] = v;
    accOrigin.push_back(o);
    k.prologue.push_back(ZeroOp{v});
  }

  // Prefetch first, so it is in flight while this step's loads wait.
  if (c.stages > 0) {
    b.prefetch(MatrixOperand::A, tileM, c.kTile, true);
    if (c.transposeB)
      b.prefetch(MatrixOperand::B, tileN, c.kTile, true);
    else
      b.prefetch(MatrixOperand::B, c.kTile, tileN, false);
  }
  auto aOps = b.operand(MatrixOperand::A, *encA, shapeA);
  if (!aOps) return aOps.error();
  auto bOps = b.operand(MatrixOperand::B, *encB, shapeB);
  if (!bOps) return bOps.error();

  // DPAS: for each K step, every output tile (Triton's order: k outermost).
  const int64_t mTiles = c.sgData[0] / c.repeatCount, nTiles = c.sgData[1] / n;
  const int64_t kSteps = c.kTile / traits.dpasK;
  for (int64_t s = 0; s < kSteps; ++s)
    for (int64_t mt = 0; mt < mTiles; ++mt)
      for (int64_t nt = 0; nt < nTiles; ++nt) {
        auto a = aOps->find({mt, s}), bv = bOps->find({nt, s}), d = acc.find({mt, nt});
        if (a == aOps->end() || bv == bOps->end() || d == acc.end())
          return makeError("internal: the operand plans do not cover DPAS tile (" +
                           std::to_string(mt) + ", " + std::to_string(nt) + ") at K step " +
                           std::to_string(s));
        k.mainLoop.push_back(
            DpasOp{d->second, a->second, bv->second, mt * c.repeatCount, nt * n, s});
      }

  // A split barrier around the K step keeps the subgroups within one step of each other, so the
  // blocks each prefetched for the whole work-group are in cache when the others load them
  // (sycl-tla's main loop does the same). Without cooperative prefetch there is nothing to share.
  if (c.stages > 0 && k.launch.subgroupsPerWorkgroup > 1) {
    k.mainLoop.insert(k.mainLoop.begin(), SplitBarrierOp{true});
    k.mainLoop.push_back(SplitBarrierOp{false});
  }

  // Epilogue: one RC x N 32-bit block store per accumulator, at the subgroup's C origin.
  auto warpC = llC->sublayout(std::vector<DimName>{dims::warp()}, llC->outDimNames());
  if (!warpC) return warpC.error();
  const int originC = b.addOrigin("c", *warpC);
  const BlockShape store{32, n, c.repeatCount, 1, false, false};
  if (auto e = intel::validateBlockShape(*target, BlockOp::Store, store); !e) return e.error();
  if (!hasOpenClBlockBuiltin(BlockOp::Store, store))
    return makeError("the accumulator store " + intel::blockShapeName(store) +
                     " has no cl_intel_subgroup_2d_block_io built-in");
  if (auto e = b.checkStoreMatchesAccumulator(store, *llC); !e) return e.error();
  for (int64_t t = 0; t < accTiles; ++t) {
    BlockIoOp op;
    op.kind = BlockOp::Store;
    op.matrix = MatrixOperand::C;
    op.shape = store;
    op.row = {WorkgroupTerm::RowTile, false, originC, 0, accOrigin[t][0]};
    op.column = {WorkgroupTerm::ColumnTile, false, originC, 1, accOrigin[t][1]};
    op.value = acc.at({accOrigin[t][0] / c.repeatCount, accOrigin[t][1] / n});
    op.comment = "D tile (" + std::to_string(accOrigin[t][0]) + ", " +
                 std::to_string(accOrigin[t][1]) +
                 ") of the subgroup: " + intel::blockShapeName(store);
    k.epilogue.push_back(op);
  }

  // Static report.
  KernelReport& r = k.report;
  r.dpasPerKStep = mTiles * nTiles * kSteps;
  r.storesPerSubgroup = accTiles;
  r.bytesPerDpas = static_cast<double>(r.bytesLoadedPerKStep) / static_cast<double>(r.dpasPerKStep);
  r.kSteps = (c.k + c.kTile - 1) / c.kTile;
  const int64_t grfBytes = hw->registers.registerBytes;
  auto grfOf = [&](ValueRole role) {
    int64_t bytes = 0;
    for (const auto& v : k.values)
      if (v.role == role) bytes += int64_t{v.count} * v.elementBits / 8 * lanes;
    return (bytes + grfBytes - 1) / grfBytes;
  };
  // Shuffled operands are register renames of the load results (the compiler folds the
  // shufflevectors, reference §2.4), so the live data is accumulators + one K step's loads.
  r.accumulatorGrf = grfOf(ValueRole::Accumulator);
  r.operandGrf = grfOf(ValueRole::LoadResult);
  r.messageGrf = r.loadsPerKStep + r.prefetchesPerKStep;
  r.scalarGrf = kScalarGrf;
  r.reservedGrf = kCompilerReservedGrf;
  r.totalGrf = r.accumulatorGrf + r.operandGrf + r.messageGrf + r.scalarGrf + r.reservedGrf;
  r.grfAvailable = c.grfPerThread;
  r.flops = 2.0 * static_cast<double>(c.m) * static_cast<double>(c.n) * static_cast<double>(c.k);
  if (r.totalGrf > c.grfPerThread)
    return makeError("registers: the subgroup tile needs " + std::to_string(r.totalGrf) + " GRF (" +
                     std::to_string(r.accumulatorGrf) + " accumulators + " +
                     std::to_string(r.operandGrf) + " operands of one K step + " +
                     std::to_string(r.messageGrf) + " block-I/O payloads + " +
                     std::to_string(r.scalarGrf) + " scalars + " + std::to_string(r.reservedGrf) +
                     " reserved for the compiler), more than the " +
                     std::to_string(c.grfPerThread) + " of grf_per_thread: " + registerHint(c));
  return std::move(k);
}

} // namespace layout::codegen
