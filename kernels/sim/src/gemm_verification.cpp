// GEMM inputs in the kernel's memory layout, the reference product and the comparison rules.
#include "layout/kernels/gemm_verification.h"

#include "x86_features.h"

#include <nlohmann/json.hpp>

#include "layout/codegen/kernel_ir.h"
#include "layout/kernels/xe_numerics.h"

#include "layout/kernels/exact_sum.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace layout::kernels {
namespace {

using codegen::GemmDataType;
using codegen::MatrixOperand;

// SplitMix64: a small, seedable, well-mixed stream (reproducible across platforms, unlike
// std::uniform_*_distribution).
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; } // [0, 1)
};

// One input element: its bits in memory and the value the kernel computes with.
struct Element {
  uint32_t bits;
  double value;
};

Element makeElement(GemmDataType t, InputKind kind, SplitMix64& rng) {
  if (t == GemmDataType::Int8) {
    const int v = static_cast<int>(rng.next() % 256) - 128;
    return {static_cast<uint32_t>(v) & 0xffu, static_cast<double>(v)};
  }
  const float f = kind == InputKind::ExactSums
                      ? static_cast<float>(static_cast<int>(rng.next() % 5) - 2)
                      : static_cast<float>(rng.uniform() * 2 - 1);
  switch (t) {
  case GemmDataType::F16: {
    const uint16_t h = floatToHalf(f);
    return {h, halfToFloat(h)};
  }
  case GemmDataType::BF16: {
    const uint16_t h = floatToBf16(f);
    return {h, bf16ToFloat(h)};
  }
  default: {
    const float v = truncateToTf32(f);
    return {std::bit_cast<uint32_t>(v), v};
  }
  }
}

// Runs f(t) for t = 0 .. threads - 1, each on its own thread (t = 0 on this one).
template <typename F> void onThreads(int threads, F&& f) {
  std::vector<std::jthread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back([&f, t] { f(t); });
  f(0);
}

// A zeroed vector of n elements. On Linux a large one asks for huge pages first, so that zeroing
// a few hundred MiB takes a few page faults instead of one per 4 KiB.
template <typename T> std::vector<T> zeroedVector(size_t n) {
  std::vector<T> v;
  v.reserve(n);
#ifdef __linux__
  const size_t bytes = n * sizeof(T);
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t from = (reinterpret_cast<uintptr_t>(v.data()) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t to = (reinterpret_cast<uintptr_t>(v.data()) + bytes) & ~(kHuge - 1);
  if (bytes >= 2 * kHuge && to > from)
    madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE); // advice: failure is fine
#endif
  v.resize(n);
  return v;
}

std::vector<uint8_t> surfaceBuffer(const codegen::GemmProblem& c, MatrixOperand m) {
  const auto s = codegen::matrixSurface(c, m);
  return zeroedVector<uint8_t>(static_cast<size_t>(s.height * s.pitchBytes));
}

} // namespace

GemmInputs makeGemmInputs(const codegen::GemmProblem& c, InputKind kind, uint64_t seed,
                          int threads) {
  GemmInputs in;
  in.kind = kind;
  const int bytes = codegen::dataTypeTraits(c.dtype).inputBits / 8;
  in.memory.a = surfaceBuffer(c, MatrixOperand::A);
  in.memory.b = surfaceBuffer(c, MatrixOperand::B);
  in.memory.c = surfaceBuffer(c, MatrixOperand::C);
  const int64_t pitchA = codegen::matrixSurface(c, MatrixOperand::A).pitchBytes;
  const int64_t pitchB = codegen::matrixSurface(c, MatrixOperand::B).pitchBytes;
  in.a = zeroedVector<double>(static_cast<size_t>(c.m * c.k));
  in.b = zeroedVector<double>(static_cast<size_t>(c.k * c.n));
  // One draw per element: A row by row, then B row by row (K x N). SplitMix64's state after e
  // draws is seed + e * its increment, so each thread starts its rows where the stream is there.
  auto rngAt = [&](int64_t element) {
    return SplitMix64{seed + static_cast<uint64_t>(element) * 0x9e3779b97f4a7c15ull};
  };
  const int parts = std::max(
      1, std::min(gemmThreadCount(threads),
                  static_cast<int>(std::min<int64_t>(std::max(c.m, c.k), kMaxGemmThreads))));
  onThreads(parts, [&](int t) {
    const int64_t i0 = c.m * t / parts, i1 = c.m * (t + 1) / parts;
    SplitMix64 rng = rngAt(i0 * c.k);
    for (int64_t i = i0; i < i1; ++i)
      for (int64_t k = 0; k < c.k; ++k) {
        const Element e = makeElement(c.dtype, kind, rng);
        std::memcpy(&in.memory.a[static_cast<size_t>(i * pitchA + k * bytes)], &e.bits, bytes);
        in.a[static_cast<size_t>(i * c.k + k)] = e.value;
      }
    const int64_t k0 = c.k * t / parts, k1 = c.k * (t + 1) / parts;
    rng = rngAt(c.m * c.k + k0 * c.n);
    for (int64_t k = k0; k < k1; ++k)
      for (int64_t n = 0; n < c.n; ++n) {
        const Element e = makeElement(c.dtype, kind, rng);
        const int64_t at = c.transposeB ? n * pitchB + k * bytes : k * pitchB + n * bytes;
        std::memcpy(&in.memory.b[static_cast<size_t>(at)], &e.bits, bytes);
        in.b[static_cast<size_t>(k * c.n + n)] = e.value;
      }
    // Poison C (a quiet NaN / 0x7fc00000) so an element no store reaches cannot pass.
    const size_t words = in.memory.c.size() / 4;
    for (size_t w = words * t / parts, end = words * (t + 1) / parts; w < end; ++w) {
      const uint32_t poison = 0x7fc00000u;
      std::memcpy(&in.memory.c[w * 4], &poison, 4);
    }
  });
  return in;
}

namespace {

// The range of the products a_ik * b_kj: the lowest set bit any of them can have (every product is
// a multiple of 2^min) and a bound on their magnitude (below 2^max).
std::pair<int, int> productExponents(const GemmInputs& in) {
  auto range = [](const std::vector<double>& v) {
    int lo = 0, hi = -1100;
    bool any = false;
    for (double x : v) {
      if (x == 0) continue;
      int e = 0;
      std::frexp(x, &e);
      hi = std::max(hi, e);
      const int low = ExactSum::lowestBitExponent(x);
      lo = any ? std::min(lo, low) : low;
      any = true;
    }
    return std::pair{any ? lo : 0, any ? hi : 0};
  };
  const auto [aLo, aHi] = range(in.a);
  const auto [bLo, bHi] = range(in.b);
  return {aLo + bLo, aHi + bHi + 1};
}

// The outcome over a set of elements. Order-independent, so that the sets of several threads
// merge into what one pass over every element in order gives: the first mismatch is the one at
// the lowest (position in the row list, column).
struct Tally {
  int64_t checked = 0, mismatches = 0;
  double maxError = 0, maxAllowedRatio = 0;
  int64_t firstPosition = -1, firstRow = -1, firstColumn = -1;
  double firstGot = 0, firstExpected = 0;

  void fail(int64_t position, int64_t row, int64_t column, double got, double expected) {
    ++mismatches;
    if (firstPosition >= 0 &&
        (position > firstPosition || (position == firstPosition && column > firstColumn)))
      return;
    firstPosition = position;
    firstRow = row;
    firstColumn = column;
    firstGot = got;
    firstExpected = expected;
  }
  void merge(const Tally& o) {
    checked += o.checked;
    maxError = std::max(maxError, o.maxError);
    maxAllowedRatio = std::max(maxAllowedRatio, o.maxAllowedRatio);
    const int64_t before = mismatches;
    if (o.mismatches > 0)
      fail(o.firstPosition, o.firstRow, o.firstColumn, o.firstGot, o.firstExpected);
    mismatches = before + o.mismatches;
  }
};

struct Rule {
  bool isInt = false, exact = false;
  double g = 0; // gamma(K') (1 + gamma_53(K)), the bound's factor on sum |a b|
};

// One float element: the kernel's bits against the exact sum rounded to binary64 (`expected`).
// Not inlined into the vector code below (compiled for FMA): `allowed` must round as written.
__attribute__((noinline)) void checkFloat(Tally& t, const Rule& rule, int64_t position, int64_t i,
                                          int64_t j, uint32_t bits, double expected,
                                          double absSum) {
  const double got = std::bit_cast<float>(bits);
  const double err = std::fabs(got - expected);
  bool ok;
  if (rule.exact) {
    ok = got == expected; // NaN (an unwritten element) fails too
  } else {
    // |got - exact| <= |got - expected| + |expected - exact|, the latter at most half an ulp of
    // binary64.
    const double allowed = rule.g * absSum + 0x1p-53 * std::fabs(expected);
    ok = err <= allowed;
    if (allowed > 0) t.maxAllowedRatio = std::max(t.maxAllowedRatio, err / allowed);
  }
  if (!std::isnan(err)) t.maxError = std::max(t.maxError, err);
  ++t.checked;
  if (!ok) t.fail(position, i, j, got, expected);
}

void checkInt(Tally& t, int64_t position, int64_t i, int64_t j, uint32_t bits, uint32_t sum) {
  const int32_t want = static_cast<int32_t>(sum), got = static_cast<int32_t>(bits);
  ++t.checked;
  if (got != want) t.fail(position, i, j, got, want);
}

uint32_t resultBits(const GemmInputs& in, int64_t pitchC, int64_t i, int64_t j) {
  uint32_t bits;
  std::memcpy(&bits, &in.memory.c[static_cast<size_t>(i * pitchC + j * 4)], 4);
  return bits;
}

// The reference of the multiprecision accumulator (exact_sum.h), row by row: any finite inputs.
void verifyRowsExactSum(const codegen::GemmProblem& c, const GemmInputs& in, const Rule& rule,
                        int64_t pitchC, const std::vector<int64_t>& order, int threads,
                        WorkProgress* progress, std::vector<Tally>& tallies) {
  // Named, not structured bindings: clang 14 (the fuzz build) cannot capture those in lambdas.
  const auto exponents = productExponents(in);
  const int minExponent = exponents.first, maxExponent = exponents.second;
  std::atomic<size_t> next{0};
  onThreads(threads, [&](int t) {
    Tally& tally = tallies[static_cast<size_t>(t)];
    // The exact sum of each element of the row (every product of two fp16 / bf16 / tf32 values is
    // exact in binary64), rounded once to the nearest double.
    std::vector<ExactSum> sum(static_cast<size_t>(rule.isInt ? 0 : c.n),
                              ExactSum(minExponent, maxExponent));
    std::vector<double> absSum(static_cast<size_t>(c.n));
    std::vector<int64_t> isum(static_cast<size_t>(c.n));
    for (size_t position = next++; position < order.size(); position = next++) {
      const int64_t i = order[position];
      for (auto& s : sum) s.clear();
      std::fill(absSum.begin(), absSum.end(), 0.0);
      std::fill(isum.begin(), isum.end(), 0);
      for (int64_t k = 0; k < c.k; ++k) {
        const double a = in.a[static_cast<size_t>(i * c.k + k)];
        const double* brow = &in.b[static_cast<size_t>(k * c.n)];
        if (rule.isInt)
          for (int64_t j = 0; j < c.n; ++j)
            isum[j] += static_cast<int64_t>(a) * static_cast<int64_t>(brow[j]);
        else if (a != 0)
          for (int64_t j = 0; j < c.n; ++j) {
            sum[static_cast<size_t>(j)].add(a * brow[j]);
            absSum[j] += std::fabs(a * brow[j]);
          }
      }
      const int64_t p = static_cast<int64_t>(position);
      for (int64_t j = 0; j < c.n; ++j) {
        const uint32_t bits = resultBits(in, pitchC, i, j);
        if (rule.isInt)
          checkInt(tally, p, i, j, bits, static_cast<uint32_t>(isum[j]));
        else
          checkFloat(tally, rule, p, i, j, bits, sum[static_cast<size_t>(j)].rounded(), absSum[j]);
      }
      if (progress) progress->done.fetch_add(1, std::memory_order_relaxed);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The fast exact reference: column vectors of binary64.
//
// Every product p = a * b of two fp32 values is exact in binary64, a multiple of 2^minE and below
// 2^maxE in magnitude. Summing K of them in binary64 is exact when the sums stay on a grid that
// 53 bits cover (maxE + log2 K <= 53 + minE). When they do not, an accumulator T that starts at
// C = 1.5 * 2^E with 2^E >= 4 K 2^maxE stays in [2^E, 2^(E+1)) while the products are added, so
// fl(T + p) rounds p to the grid of 2^(E-52), T - fl(T + p) is exact (Sterbenz) and the remainder
// r = p - (fl(T + p) - T) is exact (Fast2Sum) with |r| <= 2^(E-53): the high parts sum exactly
// in T, the remainders go on to the next level with maxE = E - 53. After one or two such splits
// the remainders sum exactly; the parts, each a multiple of 2^minE, add up exactly in 128-bit
// integers (when the whole sum spans at most 124 bits), which are rounded as ExactSum rounds.
// The products may be fused with the additions (FMA): being exact, that changes no bit.

using v8d = double __attribute__((vector_size(64)));
using v4d = double __attribute__((vector_size(32)));
using v2d = double __attribute__((vector_size(16)));
using v8l = int64_t __attribute__((vector_size(64)));
using v4l = int64_t __attribute__((vector_size(32)));
using v2l = int64_t __attribute__((vector_size(16)));
using v16u = uint32_t __attribute__((vector_size(64)));
using v8u = uint32_t __attribute__((vector_size(32)));
using v4u = uint32_t __attribute__((vector_size(16)));

// The plan of the float reference: how many levels (1: plain sums; 2, 3: one or two splits),
// the split constants C of the split levels, and the grid of the products.
struct FloatPlan {
  int levels = 0; // 0: the inputs do not qualify
  double split[2] = {0, 0};
  int minExponent = 0;
};

// Whether every value is an fp32 value (finite), and the range of the lowest set bit and of the
// binary exponent (|x| < 2^e) of the nonzero ones.
struct ValueRange {
  bool fp32 = true, any = false;
  int lowest = 0, highest = 0;
};
ValueRange scanValues(std::span<const double> v) {
  ValueRange r;
  for (double x : v) {
    if (x == 0) continue;
    if (!std::isfinite(x) || static_cast<double>(static_cast<float>(x)) != x) {
      r.fp32 = false;
      return r;
    }
    const uint64_t bits = std::bit_cast<uint64_t>(x);
    const int field = static_cast<int>((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((uint64_t{1} << 52) - 1);
    if (field != 0) m |= uint64_t{1} << 52;
    const int e0 = (field == 0 ? 1 : field) - 1075; // x = +-m 2^e0
    const int low = e0 + std::countr_zero(m), high = e0 + std::bit_width(m);
    r.lowest = r.any ? std::min(r.lowest, low) : low;
    r.highest = r.any ? std::max(r.highest, high) : high;
    r.any = true;
  }
  return r;
}

ValueRange scanValuesOnThreads(const std::vector<double>& v, int threads) {
  std::vector<ValueRange> parts(static_cast<size_t>(threads));
  const size_t n = v.size();
  onThreads(threads, [&](int t) {
    const size_t from = n * static_cast<size_t>(t) / static_cast<size_t>(threads);
    const size_t to = n * static_cast<size_t>(t + 1) / static_cast<size_t>(threads);
    parts[static_cast<size_t>(t)] = scanValues(std::span<const double>(v.data() + from, to - from));
  });
  ValueRange r;
  for (const auto& p : parts) {
    if (!p.fp32) r.fp32 = false;
    if (!p.any) continue;
    r.lowest = r.any ? std::min(r.lowest, p.lowest) : p.lowest;
    r.highest = r.any ? std::max(r.highest, p.highest) : p.highest;
    r.any = true;
  }
  return r;
}

FloatPlan planFloat(const codegen::GemmProblem& c, const GemmInputs& in, int threads) {
  FloatPlan plan;
  const ValueRange a = scanValuesOnThreads(in.a, threads), b = scanValuesOnThreads(in.b, threads);
  if (!a.fp32 || !b.fp32) return plan;
  if (!a.any || !b.any) { // every product is zero
    plan.levels = 1;
    return plan;
  }
  const int minE = a.lowest + b.lowest, maxE = a.highest + b.highest; // |p| < 2^maxE
  const int t = std::bit_width(static_cast<uint64_t>(std::max<int64_t>(c.k, 1) - 1)); // K <= 2^t
  if (t > 40 || maxE + t - minE > 124) return plan;
  int bound = maxE, levels = 1;
  while (bound + t > 53 + minE) {
    if (levels == 3) return plan;
    const int e = bound + t + 2;
    plan.split[levels - 1] = std::ldexp(1.5, e);
    bound = e - 53;
    ++levels;
  }
  plan.levels = levels;
  plan.minExponent = minE;
  return plan;
}

// R rows x NV vectors of columns, over all K: per element the split sums (T - C), the last
// level's plain sum and sum |a b| in increasing k, written to out[(level * R + r) * NB + col]
// (level `levels` holds sum |a b|).
template <class V, class L, int R, int NV, int Levels>
inline __attribute__((always_inline)) void floatTile(const double* const* a, const double* panel,
                                                     int64_t K, const double* split, double* out) {
  constexpr int W = sizeof(V) / sizeof(double), NB = NV * W;
  constexpr int64_t kMagnitude = 0x7fffffffffffffffLL;
  V t1[R][NV], t2[R][NV], s[R][NV], m[R][NV];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v) {
      t1[r][v] = split[0] - V{};
      t2[r][v] = split[1] - V{};
      s[r][v] = V{};
      m[r][v] = V{};
    }
  for (int64_t k = 0; k < K; ++k) {
    V b[NV], bm[NV];
    for (int v = 0; v < NV; ++v) {
      std::memcpy(&b[v], panel + k * NB + v * W, sizeof(V));
      bm[v] = (V)((L)b[v] & kMagnitude);
    }
    for (int r = 0; r < R; ++r) {
      const double x = a[r][k];
      const V av = x - V{}, am = std::fabs(x) - V{};
      for (int v = 0; v < NV; ++v) {
        m[r][v] = am * bm[v] + m[r][v];
        if constexpr (Levels == 1) {
          s[r][v] = av * b[v] + s[r][v];
        } else {
          const V hi = av * b[v] + t1[r][v];
          const V q = hi - t1[r][v];
          t1[r][v] = hi;
          const V low = av * b[v] - q;
          if constexpr (Levels == 2) {
            s[r][v] = s[r][v] + low;
          } else {
            const V hi2 = t2[r][v] + low;
            const V q2 = hi2 - t2[r][v];
            t2[r][v] = hi2;
            s[r][v] = s[r][v] + (low - q2);
          }
        }
      }
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v) {
      double* o = out + r * NB + v * W;
      constexpr int64_t level = R * NB;
      V parts[4] = {t1[r][v] - split[0], t2[r][v] - split[1], s[r][v], m[r][v]};
      if constexpr (Levels == 1) {
        std::memcpy(o, &parts[2], sizeof(V));
        std::memcpy(o + level, &parts[3], sizeof(V));
      } else if constexpr (Levels == 2) {
        std::memcpy(o, &parts[0], sizeof(V));
        std::memcpy(o + level, &parts[2], sizeof(V));
        std::memcpy(o + 2 * level, &parts[3], sizeof(V));
      } else {
        for (int p = 0; p < 4; ++p) std::memcpy(o + p * level, &parts[p], sizeof(V));
      }
    }
}

// R rows x NV vectors of columns of an int8 GEMM: the sums modulo 2^32 (what the int32 result
// wraps to), out[r * NB + col].
template <class U, int R, int NV>
inline __attribute__((always_inline)) void intTile(const double* const* a, const uint32_t* panel,
                                                   int64_t K, uint32_t* out) {
  constexpr int W = sizeof(U) / sizeof(uint32_t), NB = NV * W;
  U acc[R][NV];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = U{};
  for (int64_t k = 0; k < K; ++k) {
    U b[NV];
    for (int v = 0; v < NV; ++v) std::memcpy(&b[v], panel + k * NB + v * W, sizeof(U));
    for (int r = 0; r < R; ++r) {
      const U av = static_cast<uint32_t>(static_cast<int32_t>(a[r][k])) - U{};
      for (int v = 0; v < NV; ++v) acc[r][v] += av * b[v];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v) std::memcpy(out + r * NB + v * W, &acc[r][v], sizeof(U));
}

using FloatTileFn = void (*)(const double* const*, const double*, int64_t, const double*, double*);
using IntTileFn = void (*)(const double* const*, const uint32_t*, int64_t, uint32_t*);

// The tile shapes per instruction set: rows, columns, and the kernels (float by level, int).
struct TileKernels {
  int rows = 0, columns = 0, intColumns = 0;
  FloatTileFn floatTile[3] = {};
  IntTileFn intTile = nullptr;
};

template <int Levels>
__attribute__((target("arch=x86-64-v4"))) void floatTileAvx512(const double* const* a,
                                                               const double* panel, int64_t K,
                                                               const double* split, double* out) {
  floatTile<v8d, v8l, 4, 2, Levels>(a, panel, K, split, out);
}
__attribute__((target("arch=x86-64-v4"))) void
intTileAvx512(const double* const* a, const uint32_t* panel, int64_t K, uint32_t* out) {
  intTile<v16u, 4, 2>(a, panel, K, out);
}
template <int Levels>
__attribute__((target("arch=x86-64-v3"))) void floatTileAvx2(const double* const* a,
                                                             const double* panel, int64_t K,
                                                             const double* split, double* out) {
  floatTile<v4d, v4l, 3, 1, Levels>(a, panel, K, split, out);
}
__attribute__((target("arch=x86-64-v3"))) void
intTileAvx2(const double* const* a, const uint32_t* panel, int64_t K, uint32_t* out) {
  intTile<v8u, 3, 1>(a, panel, K, out); // 3 rows: the AVX2 tile of TileKernels
}
template <int Levels>
void floatTileBase(const double* const* a, const double* panel, int64_t K, const double* split,
                   double* out) {
  floatTile<v2d, v2l, 2, 2, Levels>(a, panel, K, split, out);
}
void intTileBase(const double* const* a, const uint32_t* panel, int64_t K, uint32_t* out) {
  intTile<v4u, 2, 2>(a, panel, K, out);
}

const TileKernels& tileKernels() {
  static const TileKernels kernels = [] {
    TileKernels k;
    // LAYOUT_NO_AVX512 and LAYOUT_NO_AVX2 force the narrower kernels, so that the test suite runs
    // each of them on a machine that has all three.
    const bool avx2 = detail::x86HasV3() && !std::getenv("LAYOUT_NO_AVX2");
    const bool avx512 = avx2 && detail::x86HasV4() && !std::getenv("LAYOUT_NO_AVX512");
    if (avx512) {
      k = {4, 16, 32, {floatTileAvx512<1>, floatTileAvx512<2>, floatTileAvx512<3>}, intTileAvx512};
    } else if (avx2) {
      k = {3, 4, 8, {floatTileAvx2<1>, floatTileAvx2<2>, floatTileAvx2<3>}, intTileAvx2};
    } else {
      k = {2, 4, 8, {floatTileBase<1>, floatTileBase<2>, floatTileBase<3>}, intTileBase};
    }
    return k;
  }();
  return kernels;
}

// A binary64 multiple of 2^minExponent as an integer count of 2^minExponent.
__int128 toUnits(double x, int minExponent) {
  if (x == 0) return 0;
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  const int field = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t m = bits & ((uint64_t{1} << 52) - 1);
  if (field != 0) m |= uint64_t{1} << 52;
  const int shift = (field == 0 ? 1 : field) - 1075 - minExponent;
  const __int128 magnitude =
      shift >= 0 ? static_cast<__int128>(m) << shift : static_cast<__int128>(m >> -shift);
  return (bits >> 63) ? -magnitude : magnitude;
}

// total * 2^minExponent rounded to binary64 as ExactSum::rounded does: to 53 bits, to nearest,
// ties to even, then scaled.
double roundUnits(__int128 total, int minExponent) {
  if (total == 0) return 0.0;
  const bool negative = total < 0;
  unsigned __int128 magnitude = negative ? static_cast<unsigned __int128>(-(total + 1)) + 1
                                         : static_cast<unsigned __int128>(total);
  const uint64_t high = static_cast<uint64_t>(magnitude >> 64);
  const int bits =
      high ? 128 - std::countl_zero(high) : 64 - std::countl_zero(static_cast<uint64_t>(magnitude));
  int exponent = minExponent;
  if (bits > 53) {
    const int drop = bits - 53;
    const unsigned __int128 one = 1;
    const unsigned __int128 rest = magnitude & ((one << drop) - 1), half = one << (drop - 1);
    magnitude >>= drop;
    exponent += drop;
    if (rest > half || (rest == half && (magnitude & 1) != 0)) magnitude += 1;
  }
  const double value = std::ldexp(static_cast<double>(static_cast<uint64_t>(magnitude)), exponent);
  return negative ? -value : value;
}

// The rows a thread takes at a time: a block of A that stays in the cache while every panel of B
// passes (about 2 MiB), a multiple of the tile rows.
int64_t rowChunk(int64_t k, int tileRows) {
  const int64_t rows =
      std::clamp<int64_t>((int64_t{2} << 20) / (8 * std::max<int64_t>(k, 1)), tileRows, 256);
  return rows / tileRows * tileRows;
}

// The fast references (float: `plan`; int8: sums modulo 2^32), over chunks of rows on `threads`
// threads; each copies a panel of B's columns into a contiguous K x columns block once per chunk.
void verifyRowsVectors(const codegen::GemmProblem& c, const GemmInputs& in, const Rule& rule,
                       const FloatPlan& plan, int64_t pitchC, const std::vector<int64_t>& order,
                       int threads, WorkProgress* progress, std::vector<Tally>& tallies) {
  const TileKernels& kernels = tileKernels();
  const int R = kernels.rows;
  const int NB = rule.isInt ? kernels.intColumns : kernels.columns;
  const int levels = rule.isInt ? 0 : plan.levels;
  const int64_t K = c.k, N = c.n;
  const int64_t panels = (N + NB - 1) / NB;
  const int64_t chunk = rowChunk(K, R);
  const int64_t chunks = (static_cast<int64_t>(order.size()) + chunk - 1) / chunk;
  const std::vector<double> zeroRow(static_cast<size_t>(std::max<int64_t>(K, 1)), 0.0);
  std::atomic<int64_t> next{0};
  onThreads(threads, [&](int t) {
    Tally& tally = tallies[static_cast<size_t>(t)];
    std::vector<double> panel(rule.isInt ? 0 : static_cast<size_t>(K * NB));
    std::vector<uint32_t> intPanel(rule.isInt ? static_cast<size_t>(K * NB) : 0);
    std::vector<double> out(static_cast<size_t>((levels + 1) * R * NB));
    std::vector<uint32_t> intOut(static_cast<size_t>(R * NB));
    std::vector<const double*> rows(static_cast<size_t>(R));
    for (int64_t ch = next++; ch < chunks; ch = next++) {
      const int64_t first = ch * chunk;
      const int64_t last = std::min<int64_t>(first + chunk, static_cast<int64_t>(order.size()));
      for (int64_t p = 0; p < panels; ++p) {
        const int64_t j0 = p * NB, width = std::min<int64_t>(NB, N - j0);
        for (int64_t k = 0; k < K; ++k) {
          const double* src = &in.b[static_cast<size_t>(k * N + j0)];
          if (rule.isInt) {
            uint32_t* dst = &intPanel[static_cast<size_t>(k * NB)];
            for (int64_t j = 0; j < NB; ++j)
              dst[j] = j < width ? static_cast<uint32_t>(static_cast<int32_t>(src[j])) : 0;
          } else {
            double* dst = &panel[static_cast<size_t>(k * NB)];
            for (int64_t j = 0; j < NB; ++j) dst[j] = j < width ? src[j] : 0.0;
          }
        }
        for (int64_t block = first; block < last; block += R) {
          const int64_t count = std::min<int64_t>(R, last - block);
          for (int r = 0; r < R; ++r)
            rows[static_cast<size_t>(r)] =
                r < count ? &in.a[static_cast<size_t>(order[static_cast<size_t>(block + r)] * K)]
                          : zeroRow.data();
          if (rule.isInt) {
            kernels.intTile(rows.data(), intPanel.data(), K, intOut.data());
            for (int64_t r = 0; r < count; ++r) {
              const int64_t i = order[static_cast<size_t>(block + r)];
              for (int64_t j = 0; j < width; ++j)
                checkInt(tally, block + r, i, j0 + j, resultBits(in, pitchC, i, j0 + j),
                         intOut[static_cast<size_t>(r * NB + j)]);
            }
            continue;
          }
          kernels.floatTile[levels - 1](rows.data(), panel.data(), K, plan.split, out.data());
          const size_t level = static_cast<size_t>(R * NB);
          for (int64_t r = 0; r < count; ++r) {
            const int64_t i = order[static_cast<size_t>(block + r)];
            for (int64_t j = 0; j < width; ++j) {
              const size_t at = static_cast<size_t>(r * NB + j);
              __int128 total = 0;
              for (int l = 0; l < levels; ++l)
                total += toUnits(out[l * level + at], plan.minExponent);
              checkFloat(tally, rule, block + r, i, j0 + j, resultBits(in, pitchC, i, j0 + j),
                         roundUnits(total, plan.minExponent), out[levels * level + at]);
            }
          }
        }
      }
      if (progress) progress->done.fetch_add(last - first, std::memory_order_relaxed);
    }
  });
}

// Whether every value is an integer in int32's range (the int8 reference's fast path).
bool allInt32(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(),
                     [](double x) { return x >= -0x1p31 && x < 0x1p31 && x == std::trunc(x); });
}

} // namespace

GemmVerification verifyGemm(const codegen::GemmProblem& c, const GemmInputs& in,
                            double unitRoundoff, std::span<const int64_t> rows,
                            const VerifyOptions& options) {
  GemmVerification v;
  Rule rule;
  rule.isInt = c.dtype == GemmDataType::Int8;
  rule.exact = rule.isInt || in.kind == InputKind::ExactSums;
  const int64_t kAccumulated = (c.k + c.kTile - 1) / c.kTile * c.kTile;
  auto gamma = [](double n, double u) { return n * u / (1 - n * u); };
  // The kernel's fp32 accumulation against the exact sum; sum|ab| is rounded up for the
  // float64 additions that compute it.
  rule.g = gamma(static_cast<double>(kAccumulated), unitRoundoff) *
           (1 + gamma(static_cast<double>(c.k), 0x1p-53));
  v.rule = rule.isInt   ? "exact int32"
           : rule.exact ? "exact fp32"
                        : "|D - ref| <= gamma(" + std::to_string(kAccumulated) +
                              ") * sum|a*b| (fp32, u = 2^" +
                              std::to_string(std::ilogb(unitRoundoff)) + ", against the exact sum)";
  const int64_t pitchC = codegen::matrixSurface(c, MatrixOperand::C).pitchBytes;
  // The rows to check, in order (positions order the mismatches).
  std::vector<int64_t> order;
  const int64_t rowCount = rows.empty() ? c.m : static_cast<int64_t>(rows.size());
  for (int64_t r = 0; r < rowCount; ++r) {
    const int64_t i = rows.empty() ? r : rows[static_cast<size_t>(r)];
    if (i >= 0 && i < c.m) order.push_back(i);
  }
  if (options.progress) {
    options.progress->done = 0;
    options.progress->total = static_cast<int64_t>(order.size());
  }
  const int threads = gemmThreadCount(options.threads);
  std::vector<Tally> tallies(static_cast<size_t>(threads));
  FloatPlan plan;
  const bool vectors =
      rule.isInt ? allInt32(in.a) && allInt32(in.b) : (plan = planFloat(c, in, threads)).levels > 0;
  if (vectors && c.n > 0 && !order.empty())
    verifyRowsVectors(c, in, rule, plan, pitchC, order, threads, options.progress, tallies);
  else
    verifyRowsExactSum(c, in, rule, pitchC, order, threads, options.progress, tallies);
  Tally all;
  for (const auto& t : tallies) all.merge(t);
  v.checked = all.checked;
  v.mismatches = all.mismatches;
  v.maxError = all.maxError;
  v.maxAllowedRatio = all.maxAllowedRatio;
  if (all.mismatches > 0) {
    v.firstRow = all.firstRow;
    v.firstColumn = all.firstColumn;
    v.firstGot = all.firstGot;
    v.firstExpected = all.firstExpected;
  }
  v.passed = v.mismatches == 0;
  return v;
}

std::string GemmVerification::summary() const {
  std::ostringstream o;
  o << (passed ? "PASSED" : "FAILED") << ": " << checked << " elements, " << mismatches
    << " mismatches (" << rule << ")";
  if (maxAllowedRatio > 0)
    o << ", max error " << maxError << " = " << maxAllowedRatio << " of the bound";
  if (!passed)
    o << "; first at D[" << firstRow << "][" << firstColumn << "]: got " << firstGot
      << ", expected " << firstExpected;
  return o.str();
}

nlohmann::ordered_json gemmVerificationToJson(const GemmVerification& v) {
  nlohmann::ordered_json j{{"passed", v.passed},     {"rule", v.rule},
                           {"checked", v.checked},   {"mismatches", v.mismatches},
                           {"maxError", v.maxError}, {"maxBoundRatio", v.maxAllowedRatio}};
  if (!v.passed)
    j["first"] = {{"row", v.firstRow},
                  {"column", v.firstColumn},
                  {"got", v.firstGot},
                  {"expected", v.firstExpected}};
  return j;
}

} // namespace layout::kernels
