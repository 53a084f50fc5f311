// The Xe functional simulator: block I/O through liblayout's reference executors, shuffles as
// register-unit copies, DPAS in the declared numerics model (see xe_simulator.h).
#include "kernels/xe_simulator.h"

#include "kernels/xe_numerics.h"

#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <span>

namespace layout::kernels {
namespace {

using codegen::GemmDataType;
constexpr int kLanes = 16;

// Register units of one DPAS instruction, per lane (lane-major, `stride` bytes apart).
struct DpasOperands {
  const uint8_t* a;
  int aStride;
  const uint8_t* b;
  int bStride;
  uint8_t* acc;
  int accStride;
};

template <typename T> T loadUnit(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T> void storeUnit(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

float decodeInput(GemmDataType t, uint32_t bits) {
  switch (t) {
  case GemmDataType::F16:
    return halfToFloat(static_cast<uint16_t>(bits));
  case GemmDataType::BF16:
    return bf16ToFloat(static_cast<uint16_t>(bits));
  case GemmDataType::TF32:
    return truncateToTf32(std::bit_cast<float>(bits));
  case GemmDataType::Int8:
    break;
  }
  return 0;
}

// D = C + A * B for one instruction: M = rc rows, N = 16 columns, K = the type's DPAS depth.
// Cloned for CPUs with FMA, where std::fma is one instruction (the default clone calls libm's
// fmaf, which doubled the simulation time).
__attribute__((target_clones("fma", "default"))) void executeDpas(GemmDataType t, int rc,
                                                                  const DpasOperands& op) {
  constexpr int kMaxK = 32;
  if (t == GemmDataType::Int8) {
    // A lane l, unit r (16 bits) = A[r][2l] | A[r][2l+1] << 8; B lane n, dword j, byte i =
    // B[4j + i][n]. Exact, wrapping like the hardware's 32-bit accumulator.
    int32_t a[8][kMaxK], b[kMaxK][kLanes];
    for (int l = 0; l < kLanes; ++l)
      for (int r = 0; r < rc; ++r) {
        const uint16_t u = loadUnit<uint16_t>(op.a + l * op.aStride + r * 2);
        a[r][2 * l] = static_cast<int8_t>(u & 0xff);
        a[r][2 * l + 1] = static_cast<int8_t>(u >> 8);
      }
    for (int n = 0; n < kLanes; ++n)
      for (int j = 0; j < 8; ++j) {
        const uint32_t d = loadUnit<uint32_t>(op.b + n * op.bStride + j * 4);
        for (int i = 0; i < 4; ++i) b[4 * j + i][n] = static_cast<int8_t>((d >> (8 * i)) & 0xff);
      }
    for (int r = 0; r < rc; ++r) {
      uint32_t acc[kLanes];
      for (int n = 0; n < kLanes; ++n)
        acc[n] = loadUnit<uint32_t>(op.acc + n * op.accStride + r * 4);
      for (int k = 0; k < 32; ++k)
        for (int n = 0; n < kLanes; ++n)
          acc[n] += static_cast<uint32_t>(a[r][k]) * static_cast<uint32_t>(b[k][n]);
      for (int n = 0; n < kLanes; ++n) storeUnit(op.acc + n * op.accStride + r * 4, acc[n]);
    }
    return;
  }
  const int depth = codegen::dataTypeTraits(t).dpasK;
  float a[8][kMaxK] = {}, b[kMaxK][kLanes];
  if (t == GemmDataType::TF32) {
    // A lane l, unit i (32 bits) = A[2i + l/8][l%8]; B lane n, dword j = B[j][n].
    for (int l = 0; l < kLanes; ++l)
      for (int i = 0; 2 * i + l / 8 < rc; ++i)
        a[2 * i + l / 8][l % 8] = decodeInput(t, loadUnit<uint32_t>(op.a + l * op.aStride + i * 4));
    for (int n = 0; n < kLanes; ++n)
      for (int j = 0; j < 8; ++j)
        b[j][n] = decodeInput(t, loadUnit<uint32_t>(op.b + n * op.bStride + j * 4));
  } else {
    // A lane l, unit r = A[r][l]; B lane n, dword j = B[2j][n] | B[2j+1][n] << 16.
    for (int l = 0; l < kLanes; ++l)
      for (int r = 0; r < rc; ++r)
        a[r][l] = decodeInput(t, loadUnit<uint16_t>(op.a + l * op.aStride + r * 2));
    for (int n = 0; n < kLanes; ++n)
      for (int j = 0; j < 8; ++j) {
        const uint32_t d = loadUnit<uint32_t>(op.b + n * op.bStride + j * 4);
        b[2 * j][n] = decodeInput(t, d & 0xffff);
        b[2 * j + 1][n] = decodeInput(t, d >> 16);
      }
  }
  for (int r = 0; r < rc; ++r) {
    float acc[kLanes];
    for (int n = 0; n < kLanes; ++n) acc[n] = loadUnit<float>(op.acc + n * op.accStride + r * 4);
    // In increasing k, one fp32 rounding per addition of the exact product: a fused multiply-add,
    // so that a product beyond the fp32 range (bf16 and tf32 have its exponents) still counts
    // exactly, as it does inside the DPAS unit.
    for (int k = 0; k < depth; ++k)
      for (int n = 0; n < kLanes; ++n) acc[n] = std::fma(a[r][k], b[k][n], acc[n]);
    for (int n = 0; n < kLanes; ++n) storeUnit(op.acc + n * op.accStride + r * 4, acc[n]);
  }
}

// Per-work-item register file of one subgroup: every value, lane-major.
struct RegisterFile {
  std::vector<std::vector<uint8_t>> bytes; // [value][lane * bytesPerLane + i]
  std::vector<int> bytesPerLane;

  explicit RegisterFile(const std::vector<codegen::RegisterValue>& values) {
    for (const auto& v : values) {
      bytesPerLane.push_back(v.count * v.elementBits / 8);
      bytes.emplace_back(static_cast<size_t>(bytesPerLane.back() * kLanes));
    }
  }
  uint8_t* lane(int value, int l) { return bytes[value].data() + l * bytesPerLane[value]; }
};

class Simulator {
public:
  Simulator(const codegen::GemmKernel& k, const intel::BlockIoTarget& target, GemmMemory& mem)
      : k_(k), target_(target), regs_(k.values) {
    for (auto m : {codegen::MatrixOperand::A, codegen::MatrixOperand::B, codegen::MatrixOperand::C})
      surfaces_[static_cast<int>(m)] = codegen::matrixSurface(k.config, m);
    buffers_ = {std::span<uint8_t>(mem.a), std::span<uint8_t>(mem.b), std::span<uint8_t>(mem.c)};
  }

  Expected<void> checkBuffers() const {
    for (int m = 0; m < 3; ++m) {
      const auto& s = surfaces_[m];
      if (static_cast<int64_t>(buffers_[m].size()) < s.height * s.pitchBytes)
        return makeError(std::string(codegen::matrixName(static_cast<codegen::MatrixOperand>(m))) +
                         " buffer: " + std::to_string(buffers_[m].size()) +
                         " bytes, the surface needs " + std::to_string(s.height * s.pitchBytes));
    }
    return {};
  }

  Expected<void> runSubgroup(int64_t wgM, int64_t wgN, int64_t sg) {
    wgM_ = wgM;
    wgN_ = wgN;
    origins_.clear();
    for (const auto& o : k_.origins) {
      const uint64_t in = static_cast<uint64_t>(sg);
      std::array<uint64_t, 2> out{};
      o.layout.apply(std::span<const uint64_t>(&in, 1), out);
      origins_.push_back({static_cast<int64_t>(out[0]), static_cast<int64_t>(out[1])});
    }
    k0_ = 0;
    arrived_ = false;
    for (const auto& op : k_.prologue)
      if (auto e = execute(op); !e) return e;
    for (k0_ = 0; k0_ < k_.config.k; k0_ += k_.config.kTile)
      for (const auto& op : k_.mainLoop)
        if (auto e = execute(op); !e) return e;
    for (const auto& op : k_.epilogue)
      if (auto e = execute(op); !e) return e;
    if (arrived_)
      return makeError("split barrier: an arrive without its wait at the end of the kernel");
    return {};
  }

  SimulationStats stats;

private:
  int64_t axis(const codegen::AxisIndex& a) const {
    int64_t v = a.constant + (a.addK ? k0_ : 0);
    if (a.workgroup == codegen::WorkgroupTerm::RowTile)
      v += wgM_ * codegen::workgroupTileM(k_.config);
    if (a.workgroup == codegen::WorkgroupTerm::ColumnTile)
      v += wgN_ * codegen::workgroupTileN(k_.config);
    if (a.origin >= 0) v += origins_[a.origin][a.originAxis];
    return v;
  }

  Expected<void> execute(const codegen::Op& op) {
    if (const auto* barrier = std::get_if<codegen::SplitBarrierOp>(&op)) {
      // Subgroups run one after another here, so the barrier orders nothing; what can be checked
      // is the pairing the extension requires: arrive, then wait, then arrive again.
      if (barrier->arrive == arrived_)
        return makeError(barrier->arrive ? "split barrier: a second arrive before the wait"
                                         : "split barrier: a wait without an arrive");
      arrived_ = barrier->arrive;
      stats.barriers += barrier->arrive;
      return {};
    }
    if (const auto* z = std::get_if<codegen::ZeroOp>(&op)) {
      std::fill(regs_.bytes[z->value].begin(), regs_.bytes[z->value].end(), 0);
    } else if (const auto* s = std::get_if<codegen::ShuffleOp>(&op)) {
      const int unit = s->unitBits / 8;
      for (int l = 0; l < kLanes; ++l) {
        const uint8_t* src = regs_.lane(s->src, l);
        uint8_t* dst = regs_.lane(s->dst, l);
        for (size_t u = 0; u < s->registers.size(); ++u)
          std::memcpy(dst + u * unit, src + s->registers[u] * unit, unit);
      }
    } else if (const auto* d = std::get_if<codegen::DpasOp>(&op)) {
      executeDpas(k_.config.dtype, k_.config.repeatCount,
                  {regs_.lane(d->a, 0), regs_.bytesPerLane[d->a], regs_.lane(d->b, 0),
                   regs_.bytesPerLane[d->b], regs_.lane(d->accumulator, 0),
                   regs_.bytesPerLane[d->accumulator]});
      ++stats.dpas;
    } else {
      return blockIo(std::get<codegen::BlockIoOp>(op));
    }
    return {};
  }

  Expected<void> blockIo(const codegen::BlockIoOp& op) {
    const int m = static_cast<int>(op.matrix);
    intel::BlockIoRequest req{op.kind, op.shape, surfaces_[m], axis(op.column) / op.xDivisor,
                              axis(op.row)};
    if (auto e = intel::validateBlockIo(target_, req); !e)
      return makeError(op.comment + " at (x " + std::to_string(req.x) + ", y " +
                       std::to_string(req.y) + "): " + e.error().message);
    if (op.kind == intel::BlockOp::Prefetch) {
      ++stats.prefetches;
      return {};
    }
    const int elemBytes = op.shape.elemBits / 8;
    if (op.kind == intel::BlockOp::Load) {
      auto lanes = intel::loadPerWorkItem(target_, req, buffers_[m]);
      if (!lanes) return withContext(lanes.error(), op.comment);
      for (int l = 0; l < kLanes; ++l) {
        uint8_t* dst = regs_.lane(op.value, l);
        const auto& elems = (*lanes)[l];
        if (static_cast<int64_t>(elems.size()) * elemBytes != regs_.bytesPerLane[op.value])
          return makeError(op.comment + ": the load gives " + std::to_string(elems.size()) +
                           " elements per lane, the IR value holds " +
                           std::to_string(regs_.bytesPerLane[op.value] / elemBytes));
        for (size_t i = 0; i < elems.size(); ++i)
          std::memcpy(dst + i * elemBytes, &elems[i], elemBytes);
      }
      ++stats.loads;
      return {};
    }
    std::vector<std::vector<uint64_t>> data(kLanes);
    const int per = regs_.bytesPerLane[op.value] / elemBytes;
    for (int l = 0; l < kLanes; ++l) {
      data[l].assign(static_cast<size_t>(per), 0);
      for (int i = 0; i < per; ++i)
        std::memcpy(&data[l][i], regs_.lane(op.value, l) + i * elemBytes, elemBytes);
    }
    if (auto e = intel::storePerWorkItem(target_, req, data, buffers_[m]); !e)
      return makeError(op.comment + ": " + e.error().message);
    ++stats.stores;
    return {};
  }

  const codegen::GemmKernel& k_;
  const intel::BlockIoTarget& target_;
  RegisterFile regs_;
  std::array<intel::Surface, 3> surfaces_;
  std::array<std::span<uint8_t>, 3> buffers_;
  std::vector<std::array<int64_t, 2>> origins_;
  int64_t wgM_ = 0, wgN_ = 0, k0_ = 0;
  bool arrived_ = false; // between a split barrier's arrive and its wait
};

} // namespace

Expected<SimulationStats> simulateGemmKernel(const codegen::GemmKernel& kernel,
                                             GemmMemory& memory) {
  const auto start = std::chrono::steady_clock::now();
  auto target = intel::blockIoTarget(kernel.config.arch);
  if (!target) return target.error();
  Simulator sim(kernel, *target, memory);
  if (auto e = sim.checkBuffers(); !e) return e.error();
  const auto& launch = kernel.launch;
  for (int64_t wgM = 0; wgM < launch.workgroupsM; ++wgM)
    for (int64_t wgN = 0; wgN < launch.workgroupsN; ++wgN) {
      for (int64_t sg = 0; sg < launch.subgroupsPerWorkgroup; ++sg) {
        if (auto e = sim.runSubgroup(wgM, wgN, sg); !e)
          return makeError("workgroup (" + std::to_string(wgM) + ", " + std::to_string(wgN) +
                           "), subgroup " + std::to_string(sg) + ": " + e.error().message);
        ++sim.stats.subgroups;
      }
      ++sim.stats.workgroups;
    }
  sim.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return sim.stats;
}

std::vector<std::vector<uint32_t>> simulateDpas(codegen::GemmDataType type, int repeatCount,
                                                const std::vector<std::vector<uint32_t>>& a,
                                                const std::vector<std::vector<uint32_t>>& b,
                                                const std::vector<std::vector<uint32_t>>& c) {
  const int aUnit = type == GemmDataType::TF32 ? 4 : 2;
  const int aUnits = type == GemmDataType::TF32 ? (repeatCount + 1) / 2 : repeatCount;
  std::vector<uint8_t> aBytes(kLanes * aUnits * aUnit), bBytes(kLanes * 32),
      acc(kLanes * repeatCount * 4);
  for (int l = 0; l < kLanes; ++l) {
    for (int i = 0; i < aUnits; ++i)
      std::memcpy(&aBytes[(l * aUnits + i) * aUnit], &a[l][i], aUnit);
    for (int j = 0; j < 8; ++j) std::memcpy(&bBytes[(l * 8 + j) * 4], &b[l][j], 4);
    for (int r = 0; r < repeatCount; ++r) std::memcpy(&acc[(l * repeatCount + r) * 4], &c[l][r], 4);
  }
  executeDpas(type, repeatCount,
              {aBytes.data(), aUnits * aUnit, bBytes.data(), 32, acc.data(), repeatCount * 4});
  std::vector<std::vector<uint32_t>> d(kLanes, std::vector<uint32_t>(repeatCount));
  for (int l = 0; l < kLanes; ++l)
    for (int r = 0; r < repeatCount; ++r) std::memcpy(&d[l][r], &acc[(l * repeatCount + r) * 4], 4);
  return d;
}

} // namespace layout::kernels
