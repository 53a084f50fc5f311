// The Xe functional simulator: block I/O through liblayout's reference executors, shuffles as
// register-unit copies, DPAS in the declared numerics model (see xe_simulator.h).
#include "layout/kernels/xe_simulator.h"

#include "x86_features.h"

#include "layout/kernels/xe_numerics.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <immintrin.h>
#include <limits>
#include <mutex>
#include <span>
#include <thread>

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

inline float decodeInput(GemmDataType t, uint32_t bits) {
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

// D = C + A * B for one instruction of `rc` rows (at most 8): M = rc rows, N = 16 columns, K = the
// type's DPAS depth. Each accumulator element takes its products in increasing k.
inline __attribute__((always_inline)) void dpasGeneric(GemmDataType t, int rc,
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
  float a[8][kMaxK], b[kMaxK][kLanes];
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

// halfToFloat on 8 halves: F16C's exact conversion, except for NaNs, whose bits halfToFloat keeps
// as they are (F16C sets the quiet bit).
__attribute__((target("avx2,fma,f16c"), always_inline)) inline __m256 halfToFloat8(__m128i h) {
  const __m256 converted = _mm256_cvtph_ps(h);
  const __m256i w = _mm256_cvtepu16_epi32(h);
  const __m256i exponent = _mm256_and_si256(w, _mm256_set1_epi32(0x7c00));
  const __m256i mantissa = _mm256_and_si256(w, _mm256_set1_epi32(0x3ff));
  const __m256i nan = _mm256_andnot_si256(_mm256_cmpeq_epi32(mantissa, _mm256_setzero_si256()),
                                          _mm256_cmpeq_epi32(exponent, _mm256_set1_epi32(0x7c00)));
  const __m256i kept = _mm256_or_si256(
      _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(w, _mm256_set1_epi32(0x8000)), 16),
                      _mm256_set1_epi32(0x7f800000)),
      _mm256_slli_epi32(mantissa, 13));
  return _mm256_blendv_ps(converted, _mm256_castsi256_ps(kept), _mm256_castsi256_ps(nan));
}

// The same for 16-bit floats (f16, bf16) and 8 rows, on the registers' own order: lane k of A
// holds A[0..7][k] (one vector of the 8 rows), lane n of B holds B[0..15][n] and lane n of the
// accumulator D[0..7][n]. Per column n, the vector of 8 rows takes a[k] * B[k][n] for k = 0..15
// in order, each with one rounding (FMA instructions, as std::fma).
__attribute__((target("avx2,fma,f16c"))) void dpasHalf8Fma(GemmDataType t, const DpasOperands& op) {
  __m256 a[16];
  alignas(32) float b[kLanes][16];
  if (t == GemmDataType::BF16) {
    for (int k = 0; k < 16; ++k)
      a[k] = _mm256_castsi256_ps(
          _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(
                                reinterpret_cast<const __m128i*>(op.a + k * op.aStride))),
                            16));
    for (int n = 0; n < kLanes; ++n)
      for (int h = 0; h < 2; ++h)
        _mm256_store_ps(b[n] + 8 * h,
                        _mm256_castsi256_ps(_mm256_slli_epi32(
                            _mm256_cvtepu16_epi32(_mm_loadu_si128(
                                reinterpret_cast<const __m128i*>(op.b + n * op.bStride + 16 * h))),
                            16)));
  } else {
    for (int k = 0; k < 16; ++k)
      a[k] = halfToFloat8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(op.a + k * op.aStride)));
    for (int n = 0; n < kLanes; ++n)
      for (int h = 0; h < 2; ++h)
        _mm256_store_ps(b[n] + 8 * h, halfToFloat8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(
                                          op.b + n * op.bStride + 16 * h))));
  }
  for (int n = 0; n < kLanes; ++n) {
    float* accumulator = reinterpret_cast<float*>(op.acc + n * op.accStride);
    __m256 d = _mm256_loadu_ps(accumulator);
    for (int k = 0; k < 16; ++k) d = _mm256_fmadd_ps(a[k], _mm256_set1_ps(b[n][k]), d);
    _mm256_storeu_ps(accumulator, d);
  }
}

// Cloned for CPUs with FMA, where std::fma is one instruction (the default clone calls libm's
// fmaf, which doubled the simulation time).
__attribute__((target_clones("fma", "default"))) void dpasGenericCloned(GemmDataType t, int rc,
                                                                        const DpasOperands& op) {
  dpasGeneric(t, rc, op);
}

void executeDpas(GemmDataType t, int rc, const DpasOperands& op) {
  // LAYOUT_NO_AVX2 forces the scalar order (the test suite runs it too).
  static const bool haveFma = detail::x86HasV3() && !std::getenv("LAYOUT_NO_AVX2");
  if (haveFma && rc == 8 && (t == GemmDataType::BF16 || t == GemmDataType::F16))
    return dpasHalf8Fma(t, op);
  dpasGenericCloned(t, rc, op);
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

uint64_t readLittle(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  std::memcpy(&v, p, static_cast<size_t>(bytes)); // x86-64 and the targets we build for: LE
  return v;
}
void writeLittle(uint8_t* p, int bytes, uint64_t v) {
  std::memcpy(p, &v, static_cast<size_t>(bytes));
}

// Where the elements of one block shape go, from the reference executor: slot s = lane * perLane
// + i (element i of lane l) holds the element (row y, column x) of the block's area (tileHeight
// rows of tileWidth * numBlocks columns) numbered y * areaWidth + x, or -1: nothing (zero). For a
// store, elementSlot[e] is the slot whose value element e receives (-1: zero).
struct BlockMap {
  intel::BlockOp kind = intel::BlockOp::Load;
  intel::BlockShape shape;
  int elemBytes = 0, areaWidth = 0, areaHeight = 0;
  int64_t perLane = 0;
  std::vector<int32_t> slotElement; // loads
  std::vector<int32_t> elementSlot; // stores; loads: the slot of each element (-1: none)
  std::vector<int32_t> zeroSlots;   // loads: the slots no element fills
  bool rowOrder = false;            // loads: no element fills two slots (elementSlot applies)
};

// A legal surface that holds the whole block area at (0, 0).
intel::Surface scratchSurface(const BlockMap& m) {
  intel::Surface s;
  s.widthBytes = (std::max<int64_t>(int64_t{m.areaWidth} * m.elemBytes, 64) + 7) / 8 * 8;
  s.height = m.areaHeight;
  s.pitchBytes = (s.widthBytes + 63) / 64 * 64;
  return s;
}

// The numbers 1.. of the area's elements (or slots) are written `bits` at a time, lowest first:
// passes until every number is covered.
int digitPasses(int64_t count, int bits) {
  int passes = 1;
  while (bits < 64 && passes * bits < 64 && (static_cast<uint64_t>(count) >> (passes * bits)) != 0)
    ++passes;
  return passes;
}
uint64_t digit(uint64_t v, int bits, int pass) {
  if (bits >= 64) return pass == 0 ? v : 0;
  return (v >> (bits * pass)) & ((uint64_t{1} << bits) - 1);
}

// The map of a load or store shape, or nothing where the reference executor does not take the
// shape on a scratch surface (the simulator then calls it per request).
std::optional<BlockMap> deriveBlockMap(const intel::BlockIoTarget& t, intel::BlockOp kind,
                                       const intel::BlockShape& shape) {
  if (t.subgroupSize != kLanes || shape.elemBits % 8 != 0 || shape.elemBits < 8 ||
      shape.elemBits > 64)
    return std::nullopt;
  BlockMap m;
  m.kind = kind;
  m.shape = shape;
  m.elemBytes = shape.elemBits / 8;
  m.areaWidth = shape.tileWidth * shape.numBlocks;
  m.areaHeight = shape.tileHeight;
  m.perLane = intel::elementsPerWorkItem(t, shape);
  const int64_t area = int64_t{m.areaWidth} * m.areaHeight;
  if (m.perLane <= 0 || area <= 0 || area >= (int64_t{1} << 30) ||
      m.perLane * kLanes >= (int64_t{1} << 30))
    return std::nullopt;
  const intel::Surface s = scratchSurface(m);
  const intel::BlockIoRequest req{kind, shape, s, 0, 0};
  if (!intel::validateBlockIo(t, req)) return std::nullopt;
  std::vector<uint8_t> memory(static_cast<size_t>(s.height * s.pitchBytes), 0);
  const int bits = shape.elemBits;
  auto at = [&](int64_t e) {
    return memory.data() + (e / m.areaWidth) * s.pitchBytes + (e % m.areaWidth) * m.elemBytes;
  };
  const int64_t slots = m.perLane * kLanes;
  if (kind == intel::BlockOp::Load) {
    std::vector<uint64_t> number(static_cast<size_t>(slots), 0);
    for (int pass = 0, n = digitPasses(area + 1, bits); pass < n; ++pass) {
      for (int64_t e = 0; e < area; ++e)
        writeLittle(at(e), m.elemBytes, digit(static_cast<uint64_t>(e + 1), bits, pass));
      auto lanes = intel::loadPerWorkItem(t, req, memory);
      if (!lanes || static_cast<int64_t>(lanes->size()) != kLanes) return std::nullopt;
      for (int l = 0; l < kLanes; ++l) {
        const auto& elems = (*lanes)[static_cast<size_t>(l)];
        if (static_cast<int64_t>(elems.size()) != m.perLane) return std::nullopt;
        for (int64_t i = 0; i < m.perLane; ++i)
          number[static_cast<size_t>(l * m.perLane + i)] |=
              bits >= 64 ? elems[i] : elems[i] << (bits * pass);
      }
    }
    m.slotElement.resize(static_cast<size_t>(slots));
    m.elementSlot.assign(static_cast<size_t>(area), -1);
    m.rowOrder = true;
    for (int64_t i = 0; i < slots; ++i) {
      const uint64_t v = number[static_cast<size_t>(i)];
      if (v > static_cast<uint64_t>(area)) return std::nullopt;
      const int32_t e = static_cast<int32_t>(v) - 1;
      m.slotElement[static_cast<size_t>(i)] = e;
      if (e < 0) {
        m.zeroSlots.push_back(static_cast<int32_t>(i));
        continue;
      }
      if (m.elementSlot[static_cast<size_t>(e)] >= 0) m.rowOrder = false;
      m.elementSlot[static_cast<size_t>(e)] = static_cast<int32_t>(i);
    }
    return m;
  }
  if (kind != intel::BlockOp::Store) return std::nullopt;
  std::vector<uint64_t> number(static_cast<size_t>(area), 0);
  for (int pass = 0, n = digitPasses(slots + 1, bits); pass < n; ++pass) {
    std::vector<std::vector<uint64_t>> data(kLanes);
    for (int l = 0; l < kLanes; ++l)
      for (int64_t i = 0; i < m.perLane; ++i)
        data[l].push_back(digit(static_cast<uint64_t>(l * m.perLane + i + 1), bits, pass));
    std::fill(memory.begin(), memory.end(), 0);
    if (!intel::storePerWorkItem(t, req, data, memory)) return std::nullopt;
    for (int64_t e = 0; e < area; ++e) {
      const uint64_t d = readLittle(at(e), m.elemBytes);
      number[static_cast<size_t>(e)] |= bits >= 64 ? d : d << (bits * pass);
    }
  }
  m.elementSlot.resize(static_cast<size_t>(area));
  for (int64_t e = 0; e < area; ++e) {
    const uint64_t v = number[static_cast<size_t>(e)];
    if (v > static_cast<uint64_t>(slots)) return std::nullopt;
    m.elementSlot[static_cast<size_t>(e)] = static_cast<int32_t>(v) - 1;
  }
  return m;
}

// What the simulator knows of one block-I/O op of the IR before running it.
struct PreparedBlockOp {
  bool shapeAndSurfaceLegal = false; // validateBlockIo passes at (0, 0): coordinates are left
  const BlockMap* map = nullptr;     // nullptr: the reference executor per request
  std::vector<int64_t> slotOffset;   // loads: each slot's byte offset in memory from the block's
                                     // top-left element, -1: zero
};

// The kernel prepared for simulation, shared (read-only) by the threads.
struct Program {
  const codegen::GemmKernel& kernel;
  const intel::BlockIoTarget& target;
  std::array<intel::Surface, 3> surfaces;
  std::array<bool, 3> bufferHoldsSurface{}; // every in-surface element lies in the buffer
  std::vector<std::unique_ptr<BlockMap>> maps;
  std::array<std::vector<PreparedBlockOp>, 3> ops; // prologue, main loop, epilogue; by op index

  Program(const codegen::GemmKernel& k, const intel::BlockIoTarget& t, const GemmMemory& mem)
      : kernel(k), target(t) {
    for (auto m : {codegen::MatrixOperand::A, codegen::MatrixOperand::B, codegen::MatrixOperand::C})
      surfaces[static_cast<int>(m)] = codegen::matrixSurface(k.config, m);
    const std::array<size_t, 3> sizes{mem.a.size(), mem.b.size(), mem.c.size()};
    for (int m = 0; m < 3; ++m) {
      const auto& s = surfaces[m];
      bufferHoldsSurface[m] = s.height >= 0 && s.pitchBytes >= s.widthBytes &&
                              s.baseAddress + static_cast<uint64_t>(s.height * s.pitchBytes) <=
                                  static_cast<uint64_t>(sizes[m]);
    }
    const std::array<const std::vector<codegen::Op>*, 3> lists{&k.prologue, &k.mainLoop,
                                                               &k.epilogue};
    for (int list = 0; list < 3; ++list)
      for (const auto& op : *lists[list]) {
        PreparedBlockOp p;
        if (const auto* b = std::get_if<codegen::BlockIoOp>(&op)) p = prepare(*b);
        ops[list].push_back(std::move(p));
      }
  }

private:
  PreparedBlockOp prepare(const codegen::BlockIoOp& op) {
    PreparedBlockOp p;
    const int m = static_cast<int>(op.matrix);
    p.shapeAndSurfaceLegal =
        bool(intel::validateBlockIo(target, {op.kind, op.shape, surfaces[m], 0, 0}));
    if (!p.shapeAndSurfaceLegal || op.kind == intel::BlockOp::Prefetch || !bufferHoldsSurface[m])
      return p;
    p.map = mapOf(op.kind, op.shape);
    if (p.map && op.kind == intel::BlockOp::Load)
      for (int32_t e : p.map->slotElement)
        p.slotOffset.push_back(e < 0 ? -1
                                     : (e / p.map->areaWidth) * surfaces[m].pitchBytes +
                                           (e % p.map->areaWidth) * p.map->elemBytes);
    return p;
  }

  const BlockMap* mapOf(intel::BlockOp kind, const intel::BlockShape& shape) {
    for (const auto& m : maps)
      if (m->kind == kind && m->shape == shape) return m.get();
    auto derived = deriveBlockMap(target, kind, shape);
    if (!derived) return nullptr;
    maps.push_back(std::make_unique<BlockMap>(std::move(*derived)));
    return maps.back().get();
  }
};

// A load of a block inside the surface, row by row of memory: element (y, x) of the area to its
// slot, and zero to the slots no element fills.
template <int Bytes>
void loadRows(uint8_t* dst, const uint8_t* base, int64_t pitch, const BlockMap& map) {
  for (int32_t s : map.zeroSlots) std::memset(dst + int64_t{s} * Bytes, 0, Bytes);
  for (int y = 0; y < map.areaHeight; ++y) {
    const uint8_t* src = base + y * pitch;
    const int32_t* slots = map.elementSlot.data() + int64_t{y} * map.areaWidth;
    for (int x = 0; x < map.areaWidth; ++x)
      if (slots[x] >= 0) std::memcpy(dst + int64_t{slots[x]} * Bytes, src + x * Bytes, Bytes);
  }
}

// Copies `Bytes`-wide elements from `base + offset[s]` (zero for -1) to dst[s].
template <int Bytes>
void gatherSlots(uint8_t* dst, const uint8_t* base, const std::vector<int64_t>& offset) {
  const size_t n = offset.size();
  for (size_t s = 0; s < n; ++s) {
    uint8_t v[Bytes] = {};
    if (offset[s] >= 0) std::memcpy(v, base + offset[s], Bytes);
    std::memcpy(dst + s * Bytes, v, Bytes);
  }
}

// Copies `units` register units of `Bytes` each: dst unit u = src unit registers[u], per lane.
template <int Bytes>
void shuffleUnits(uint8_t* dst, int dstStride, const uint8_t* src, int srcStride,
                  const std::vector<int64_t>& registers) {
  for (int l = 0; l < kLanes; ++l) {
    uint8_t* d = dst + l * dstStride;
    const uint8_t* s = src + l * srcStride;
    for (size_t u = 0; u < registers.size(); ++u)
      std::memcpy(d + u * Bytes, s + registers[u] * Bytes, Bytes);
  }
}

class Simulator {
public:
  explicit Simulator(const Program& p, GemmMemory& mem)
      : p_(p), k_(p.kernel), target_(p.target), regs_(k_.values) {
    buffers_ = {std::span<uint8_t>(mem.a), std::span<uint8_t>(mem.b), std::span<uint8_t>(mem.c)};
  }

  Expected<void> checkBuffers() const {
    for (int m = 0; m < 3; ++m) {
      const auto& s = p_.surfaces[m];
      if (static_cast<int64_t>(buffers_[m].size()) < s.height * s.pitchBytes)
        return makeError(std::string(codegen::matrixName(static_cast<codegen::MatrixOperand>(m))) +
                         " buffer: " + std::to_string(buffers_[m].size()) +
                         " bytes, the surface needs " + std::to_string(s.height * s.pitchBytes));
    }
    return {};
  }

  void setSubgroup(int64_t wgM, int64_t wgN, int64_t sg) {
    wgM_ = wgM;
    wgN_ = wgN;
    origins_.clear();
    for (const auto& o : k_.origins) {
      const uint64_t in = static_cast<uint64_t>(sg);
      std::array<uint64_t, 2> out{};
      o.layout.apply(std::span<const uint64_t>(&in, 1), out);
      origins_.push_back({static_cast<int64_t>(out[0]), static_cast<int64_t>(out[1])});
    }
  }

  Expected<void> runSubgroup(int64_t wgM, int64_t wgN, int64_t sg) {
    setSubgroup(wgM, wgN, sg);
    k0_ = 0;
    arrived_ = false;
    if (auto e = run(0, k_.prologue); !e) return e;
    for (k0_ = 0; k0_ < k_.config.k; k0_ += k_.config.kTile)
      if (auto e = run(1, k_.mainLoop); !e) return e;
    if (auto e = run(2, k_.epilogue); !e) return e;
    if (arrived_)
      return makeError("split barrier: an arrive without its wait at the end of the kernel");
    return {};
  }

  // Calls f(row, column, rows, columns) for the area of every store of the epilogue of a
  // subgroup (columns in the store's elements), where the epilogue runs (k0 past the loop).
  template <typename F> void forEachStoreArea(int64_t wgM, int64_t wgN, int64_t sg, F&& f) {
    setSubgroup(wgM, wgN, sg);
    k0_ = 0;
    while (k0_ < k_.config.k) k0_ += k_.config.kTile;
    for (const auto& op : k_.epilogue)
      if (const auto* b = std::get_if<codegen::BlockIoOp>(&op);
          b && b->kind == intel::BlockOp::Store)
        f(axis(b->row), axis(b->column) / b->xDivisor, int64_t{b->shape.tileHeight},
          int64_t{b->shape.tileWidth} * b->shape.numBlocks);
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

  Expected<void> run(int list, const std::vector<codegen::Op>& ops) {
    for (size_t i = 0; i < ops.size(); ++i)
      if (auto e = execute(ops[i], p_.ops[list][i]); !e) return e;
    return {};
  }

  Expected<void> execute(const codegen::Op& op, const PreparedBlockOp& prepared) {
    if (const auto* d = std::get_if<codegen::DpasOp>(&op)) {
      executeDpas(k_.config.dtype, k_.config.repeatCount,
                  {regs_.lane(d->a, 0), regs_.bytesPerLane[d->a], regs_.lane(d->b, 0),
                   regs_.bytesPerLane[d->b], regs_.lane(d->accumulator, 0),
                   regs_.bytesPerLane[d->accumulator]});
      ++stats.dpas;
      return {};
    }
    if (const auto* s = std::get_if<codegen::ShuffleOp>(&op)) {
      shuffle(*s);
      return {};
    }
    if (const auto* barrier = std::get_if<codegen::SplitBarrierOp>(&op)) {
      // Subgroups run independently here, so the barrier orders nothing; what can be checked
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
      return {};
    }
    return blockIo(std::get<codegen::BlockIoOp>(op), prepared);
  }

  void shuffle(const codegen::ShuffleOp& s) {
    const int unit = s.unitBits / 8;
    uint8_t* dst = regs_.lane(s.dst, 0);
    const uint8_t* src = regs_.lane(s.src, 0);
    const int dstStride = regs_.bytesPerLane[s.dst], srcStride = regs_.bytesPerLane[s.src];
    switch (unit) {
    case 2:
      return shuffleUnits<2>(dst, dstStride, src, srcStride, s.registers);
    case 4:
      return shuffleUnits<4>(dst, dstStride, src, srcStride, s.registers);
    case 8:
      return shuffleUnits<8>(dst, dstStride, src, srcStride, s.registers);
    default:
      for (int l = 0; l < kLanes; ++l)
        for (size_t u = 0; u < s.registers.size(); ++u)
          std::memcpy(regs_.lane(s.dst, l) + u * unit, regs_.lane(s.src, l) + s.registers[u] * unit,
                      unit);
    }
  }

  // validateBlockIo's checks of the coordinates (the shape and the surface passed before).
  bool coordinatesLegal(const intel::BlockIoRequest& r) const {
    constexpr int64_t lo = std::numeric_limits<int32_t>::min();
    constexpr int64_t hi = std::numeric_limits<int32_t>::max();
    const int64_t elemBytes = r.shape.elemBits / 8;
    return r.x >= lo && r.x <= hi && r.y >= lo && r.y <= hi &&
           (r.x * elemBytes) % target_.surface.xMultipleBytes == 0;
  }

  Expected<void> blockIo(const codegen::BlockIoOp& op, const PreparedBlockOp& prepared) {
    const int m = static_cast<int>(op.matrix);
    intel::BlockIoRequest req{op.kind, op.shape, p_.surfaces[m], axis(op.column) / op.xDivisor,
                              axis(op.row)};
    if (!prepared.shapeAndSurfaceLegal || !coordinatesLegal(req))
      if (auto e = intel::validateBlockIo(target_, req); !e)
        return makeError(op.comment + " at (x " + std::to_string(req.x) + ", y " +
                         std::to_string(req.y) + "): " + e.error().message);
    if (op.kind == intel::BlockOp::Prefetch) {
      ++stats.prefetches;
      return {};
    }
    const int elemBytes = op.shape.elemBits / 8;
    if (const BlockMap* map = prepared.map;
        map && map->perLane * elemBytes == regs_.bytesPerLane[op.value]) {
      mappedIo(op, *map, prepared, req);
      ++(op.kind == intel::BlockOp::Load ? stats.loads : stats.stores);
      return {};
    }
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

  // A legal load or store through its map: the elements the reference executor would move.
  void mappedIo(const codegen::BlockIoOp& op, const BlockMap& map, const PreparedBlockOp& prepared,
                const intel::BlockIoRequest& req) {
    const int m = static_cast<int>(op.matrix);
    const intel::Surface& s = p_.surfaces[m];
    const int eb = map.elemBytes;
    const int64_t widthElems = s.widthBytes / eb;
    uint8_t* memory = buffers_[m].data() + s.baseAddress;
    uint8_t* regs = regs_.lane(op.value, 0); // lane-major: slot s at regs + s * eb
    const bool inside = req.x >= 0 && req.y >= 0 && req.x + map.areaWidth <= widthElems &&
                        req.y + map.areaHeight <= s.height;
    if (op.kind == intel::BlockOp::Load) {
      if (inside && map.rowOrder) {
        const uint8_t* base = memory + req.y * s.pitchBytes + req.x * eb;
        switch (eb) {
        case 1:
          return loadRows<1>(regs, base, s.pitchBytes, map);
        case 2:
          return loadRows<2>(regs, base, s.pitchBytes, map);
        case 4:
          return loadRows<4>(regs, base, s.pitchBytes, map);
        default:
          return loadRows<8>(regs, base, s.pitchBytes, map);
        }
      }
      if (inside) {
        const uint8_t* base = memory + req.y * s.pitchBytes + req.x * eb;
        switch (eb) {
        case 1:
          return gatherSlots<1>(regs, base, prepared.slotOffset);
        case 2:
          return gatherSlots<2>(regs, base, prepared.slotOffset);
        case 4:
          return gatherSlots<4>(regs, base, prepared.slotOffset);
        default:
          return gatherSlots<8>(regs, base, prepared.slotOffset);
        }
      }
      for (size_t i = 0; i < map.slotElement.size(); ++i) {
        const int32_t e = map.slotElement[i];
        uint64_t v = 0;
        if (e >= 0) {
          const int64_t row = req.y + e / map.areaWidth, col = req.x + e % map.areaWidth;
          if (row >= 0 && row < s.height && col >= 0 && col < widthElems)
            v = readLittle(memory + row * s.pitchBytes + col * eb, eb);
        }
        writeLittle(regs + i * eb, eb, v);
      }
      return;
    }
    for (int y = 0; y < map.areaHeight; ++y) {
      const int64_t row = req.y + y;
      if (row < 0 || row >= s.height) continue; // out-of-bounds writes are dropped
      for (int x = 0; x < map.areaWidth; ++x) {
        const int64_t col = req.x + x;
        if (col < 0 || col >= widthElems) continue;
        const int32_t slot = map.elementSlot[static_cast<size_t>(y * map.areaWidth + x)];
        writeLittle(memory + row * s.pitchBytes + col * eb, eb,
                    slot < 0 ? 0 : readLittle(regs + int64_t{slot} * eb, eb));
      }
    }
  }

  const Program& p_;
  const codegen::GemmKernel& k_;
  const intel::BlockIoTarget& target_;
  RegisterFile regs_;
  std::array<std::span<uint8_t>, 3> buffers_;
  std::vector<std::array<int64_t, 2>> origins_;
  int64_t wgM_ = 0, wgN_ = 0, k0_ = 0;
  bool arrived_ = false; // between a split barrier's arrive and its wait
};

// Whether the subgroups may run in any order: C is only stored (in the epilogue, never loaded),
// A and B only read, and no element of C is stored by two subgroups.
bool subgroupsIndependent(const codegen::GemmKernel& k, Simulator& probe, const intel::Surface& c) {
  for (const auto* list : {&k.prologue, &k.mainLoop, &k.epilogue})
    for (const auto& op : *list)
      if (const auto* b = std::get_if<codegen::BlockIoOp>(&op)) {
        const bool touchesC = b->matrix == codegen::MatrixOperand::C;
        if (b->kind == intel::BlockOp::Load && touchesC) return false;
        if (b->kind == intel::BlockOp::Store &&
            (!touchesC || list != &k.epilogue || b->shape.elemBits != 32))
          return false;
      }
  const int64_t width = c.widthBytes / 4;
  if (width <= 0 || c.height <= 0) return true;
  std::vector<uint64_t> stored(static_cast<size_t>((width * c.height + 63) / 64), 0);
  const auto& launch = k.launch;
  for (int64_t wgM = 0; wgM < launch.workgroupsM; ++wgM)
    for (int64_t wgN = 0; wgN < launch.workgroupsN; ++wgN)
      for (int64_t sg = 0; sg < launch.subgroupsPerWorkgroup; ++sg) {
        std::vector<std::array<int64_t, 4>> areas; // one subgroup may store an element twice
        probe.forEachStoreArea(wgM, wgN, sg, [&](int64_t y, int64_t x, int64_t h, int64_t w) {
          const int64_t y0 = std::max<int64_t>(y, 0), y1 = std::min(y + h, c.height);
          const int64_t x0 = std::max<int64_t>(x, 0), x1 = std::min(x + w, width);
          if (y0 < y1 && x0 < x1) areas.push_back({y0, y1, x0, x1});
        });
        bool overlap = false;
        for (const auto& [y0, y1, x0, x1] : areas)
          for (int64_t y = y0; y < y1; ++y)
            for (int64_t x = x0; x < x1; ++x) {
              const int64_t e = y * width + x;
              overlap = overlap || ((stored[e / 64] >> (e % 64)) & 1);
            }
        if (overlap) return false;
        for (const auto& [y0, y1, x0, x1] : areas)
          for (int64_t y = y0; y < y1; ++y)
            for (int64_t x = x0; x < x1; ++x) {
              const int64_t e = y * width + x;
              stored[e / 64] |= uint64_t{1} << (e % 64);
            }
      }
  return true;
}

} // namespace

int gemmThreadCount(int requested) {
  if (requested <= 0) requested = static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(requested, 1, kMaxGemmThreads);
}

Expected<SimulationStats> simulateGemmKernel(const codegen::GemmKernel& kernel, GemmMemory& memory,
                                             const SimulationOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  auto target = intel::blockIoTarget(kernel.config.arch);
  if (!target) return target.error();
  const Program program(kernel, *target, memory);
  Simulator first(program, memory);
  if (auto e = first.checkBuffers(); !e) return e.error();
  const auto& launch = kernel.launch;
  const int64_t perWorkgroup = launch.subgroupsPerWorkgroup;
  const int64_t units = launch.workgroupsM * launch.workgroupsN * perWorkgroup;
  if (options.progress) {
    options.progress->done = 0;
    options.progress->total = units;
  }
  int threads = static_cast<int>(std::min<int64_t>(gemmThreadCount(options.threads), units));
  if (threads > 1 &&
      !subgroupsIndependent(kernel, first, program.surfaces[int(codegen::MatrixOperand::C)]))
    threads = 1;
  threads = std::max(threads, 1);

  // Subgroup u of the launch, in the order of a sequential run: workgroup row, column, subgroup.
  std::atomic<int64_t> next{0}, failedAt{units};
  std::mutex failure;
  std::string failureMessage;
  auto work = [&](Simulator& sim) {
    for (int64_t u = next++; u < units && u < failedAt.load(); u = next++) {
      const int64_t wg = u / perWorkgroup, sg = u % perWorkgroup;
      const int64_t wgM = wg / launch.workgroupsN, wgN = wg % launch.workgroupsN;
      if (auto e = sim.runSubgroup(wgM, wgN, sg); !e) {
        std::lock_guard lock(failure);
        if (u < failedAt) {
          failedAt = u;
          failureMessage = "workgroup (" + std::to_string(wgM) + ", " + std::to_string(wgN) +
                           "), subgroup " + std::to_string(sg) + ": " + e.error().message;
        }
        return;
      }
      if (options.progress) options.progress->done.fetch_add(1, std::memory_order_relaxed);
    }
  };
  std::vector<Simulator> sims;
  sims.reserve(static_cast<size_t>(threads));
  sims.push_back(std::move(first));
  for (int t = 1; t < threads; ++t) sims.emplace_back(program, memory);
  {
    std::vector<std::jthread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back([&, t] { work(sims[t]); });
    work(sims[0]);
  }
  if (failedAt < units) return makeError(failureMessage);
  SimulationStats stats;
  for (const auto& s : sims) {
    stats.dpas += s.stats.dpas;
    stats.loads += s.stats.loads;
    stats.stores += s.stats.stores;
    stats.prefetches += s.stats.prefetches;
    stats.barriers += s.stats.barriers;
  }
  stats.workgroups = launch.workgroupsM * launch.workgroupsN;
  stats.subgroups = units;
  stats.threads = threads;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
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
