// Benchmarks of the layout algebra on realistic sizes (issue 2's targets, on this 2-core machine):
//   apply <= 10 ns, compose <= 300 ns, product <= 300 ns, invertAndCompose <= 1 us,
//   RREF of a 64x64 GF(2) matrix <= 200 ns; a 128-in-bit invertAndCompose is measured.
//
//   ./build/benchmarks/layout_benchmarks --benchmark_min_time=0.2
#include "layout/core/gf2_matrix.h"
#include "layout/core/linear_layout.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>

using namespace layout;

namespace {

DimName kReg("register"), kLane("lane"), kWarp("warp"), kD0("dim0"), kD1("dim1");

LinearLayout id(uint64_t n, DimName in, DimName out) {
  return *LinearLayout::identity1D(n, in, out);
}
LinearLayout mul(const LinearLayout& a, const LinearLayout& b) {
  return *product(a, b);
}

// A 64x64 DPAS accumulator-like layout (12 in bits): each of 16 lanes holds an 8-row column of an
// 8x16 tile; registers repeat the tile 8x along M and 2x along N; 2 subgroups split N.
LinearLayout dpasAccumulator64x64() {
  LinearLayout tile = mul(id(8, kReg, kD0), id(16, kLane, kD1));
  LinearLayout reps = mul(id(8, kReg, kD0), id(2, kReg, kD1));
  LinearLayout warps = id(2, kWarp, kD1);
  return *mul(mul(tile, reps), warps).transposeOuts(std::vector<DimName>{kD0, kD1});
}

// The same tensor held transposed: lanes along dim0, registers along dim1.
LinearLayout transposedAccumulator64x64() {
  LinearLayout l = mul(mul(id(16, kLane, kD0), id(8, kReg, kD1)), id(4, kReg, kD0));
  l = mul(l, id(4, kReg, kD1));
  l = mul(l, id(2, kWarp, kD1));
  return *l.transposeIns(std::vector<DimName>{kReg, kLane, kWarp})
              ->transposeOuts(std::vector<DimName>{kD0, kD1});
}

// A 20-in-bit blocked-like layout over a 1024x1024 tensor.
LinearLayout blocked20() {
  LinearLayout l = mul(mul(id(4, kReg, kD1), id(8, kLane, kD1)), id(4, kLane, kD0));
  l = mul(l, mul(id(8, kWarp, kD1), id(4, kWarp, kD0)));
  l = mul(l, mul(id(4, kReg, kD1), id(64, kReg, kD0)));
  return *l.transposeOuts(std::vector<DimName>{kD0, kD1});
}

// A random invertible map over the out-dims of `l` (XOR-mixing of unit vectors).
LinearLayout randomInvertibleOn(const LinearLayout& l, uint64_t seed, DimName prefixIn) {
  std::mt19937_64 rng(seed);
  const int n = l.totalOutDimSizeLog2();
  std::vector<uint64_t> cols(n);
  for (int i = 0; i < n; ++i) cols[i] = uint64_t{1} << i;
  for (int k = 0; k < 4 * n; ++k) {
    int a = int(rng() % n), b = int(rng() % n);
    if (a != b) cols[a] ^= cols[b];
  }
  std::vector<InDimBases> ins;
  std::vector<DimSize> outs = l.outDims();
  int bit = 0;
  for (int o = 0; o < l.numOutDims(); ++o) {
    InDimBases d{DimName(std::string(prefixIn.str()) + std::to_string(o)), {}};
    for (int i = 0; i < l.outDimSizeLog2(o); ++i, ++bit) {
      std::vector<uint64_t> comps;
      int off = 0;
      for (int p = 0; p < l.numOutDims(); ++p) {
        comps.push_back((cols[bit] >> off) & (l.outDimSize(p) - 1));
        off += l.outDimSizeLog2(p);
      }
      d.bases.push_back(comps);
    }
    ins.push_back(d);
  }
  return *LinearLayout::create(ins, outs);
}

// A square random invertible layout of `bitsPerDim` x `numDims` in bits (wide: > 64 bits).
LinearLayout wideInvertible(int numDims, int bitsPerDim, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<DimSize> outs;
  for (int o = 0; o < numDims; ++o)
    outs.push_back({DimName("o" + std::to_string(o)), uint64_t{1} << bitsPerDim});
  const int n = numDims * bitsPerDim;
  // Unit vectors, XOR-mixed: column c is a set of out bits.
  std::vector<std::vector<bool>> cols(n, std::vector<bool>(n));
  for (int i = 0; i < n; ++i) cols[i][i] = true;
  for (int k = 0; k < 3 * n; ++k) {
    int a = int(rng() % n), b = int(rng() % n);
    if (a == b) continue;
    for (int r = 0; r < n; ++r) cols[a][r] = cols[a][r] ^ cols[b][r];
  }
  std::vector<InDimBases> ins;
  for (int d = 0; d < numDims; ++d) {
    InDimBases dim{DimName("i" + std::to_string(d)), {}};
    for (int i = 0; i < bitsPerDim; ++i) {
      const auto& col = cols[d * bitsPerDim + i];
      std::vector<uint64_t> comps(numDims, 0);
      for (int r = 0; r < n; ++r)
        if (col[r]) comps[r / bitsPerDim] |= uint64_t{1} << (r % bitsPerDim);
      dim.bases.push_back(comps);
    }
    ins.push_back(dim);
  }
  return *LinearLayout::create(ins, outs);
}

void BM_Apply_DpasAccumulator(benchmark::State& state) {
  LinearLayout l = dpasAccumulator64x64();
  uint64_t in[3] = {0, 0, 0}, out[2];
  uint64_t i = 0;
  for (auto _ : state) {
    in[0] = i & 63;
    in[1] = (i >> 6) & 15;
    in[2] = (i >> 10) & 1;
    l.apply(in, out);
    benchmark::DoNotOptimize(out);
    ++i;
  }
}
BENCHMARK(BM_Apply_DpasAccumulator);

void BM_Apply_Blocked20(benchmark::State& state) {
  LinearLayout l = blocked20();
  uint64_t in[3] = {0, 0, 0}, out[2];
  uint64_t i = 0;
  for (auto _ : state) {
    in[0] = i & 1023;
    in[1] = (i >> 3) & 31;
    in[2] = (i >> 5) & 31;
    l.apply(in, out);
    benchmark::DoNotOptimize(out);
    ++i;
  }
}
BENCHMARK(BM_Apply_Blocked20);

void BM_ApplyPacked_Blocked20(benchmark::State& state) {
  LinearLayout l = blocked20();
  uint64_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(l.applyPacked(i));
    i += 0x9e3779b9;
  }
}
BENCHMARK(BM_ApplyPacked_Blocked20);

void BM_Compose(benchmark::State& state, LinearLayout (*make)()) {
  LinearLayout l = make();
  LinearLayout outer = randomInvertibleOn(l, 7, DimName("dim"));
  // outer's in-dims are named dim0, dim1: the out-dims of l.
  for (auto _ : state) benchmark::DoNotOptimize(l.compose(outer));
}
BENCHMARK_CAPTURE(BM_Compose, DpasAccumulator, dpasAccumulator64x64);
BENCHMARK_CAPTURE(BM_Compose, Blocked20, blocked20);

void BM_Product(benchmark::State& state, LinearLayout (*make)()) {
  LinearLayout l = make();
  LinearLayout regs = *l.sublayout(std::vector<DimName>{kReg}, l.outDimNames());
  LinearLayout rest = *l.sublayout(std::vector<DimName>{kLane, kWarp}, l.outDimNames());
  for (auto _ : state) benchmark::DoNotOptimize(product(regs, rest));
}
BENCHMARK_CAPTURE(BM_Product, DpasAccumulator, dpasAccumulator64x64);
BENCHMARK_CAPTURE(BM_Product, Blocked20, blocked20);

void BM_InvertAndCompose_DpasToTransposed(benchmark::State& state) {
  LinearLayout a = dpasAccumulator64x64(), b = transposedAccumulator64x64();
  for (auto _ : state) benchmark::DoNotOptimize(a.invertAndCompose(b));
}
BENCHMARK(BM_InvertAndCompose_DpasToTransposed);

void BM_InvertAndCompose_Blocked20(benchmark::State& state) {
  LinearLayout a = blocked20();
  // Same in-dim names, different bases: no identity shortcut for register/lane/warp.
  LinearLayout b = *a.transposeOuts(std::vector<DimName>{kD1, kD0})
                        ->reshapeOuts(std::vector<DimSize>{{kD0, 1024}, {kD1, 1024}});
  for (auto _ : state) benchmark::DoNotOptimize(a.invertAndCompose(b));
}
BENCHMARK(BM_InvertAndCompose_Blocked20);

void BM_InvertAndCompose_Wide128(benchmark::State& state) {
  LinearLayout a = wideInvertible(4, 32, 11), b = wideInvertible(4, 32, 12);
  for (auto _ : state) benchmark::DoNotOptimize(a.invertAndCompose(b));
}
BENCHMARK(BM_InvertAndCompose_Wide128);

void BM_Rref64x64(benchmark::State& state) {
  std::mt19937_64 rng(3);
  uint64_t original[64], rows[64];
  for (auto& r : original) r = rng();
  for (auto _ : state) {
    std::copy(std::begin(original), std::end(original), rows);
    benchmark::DoNotOptimize(rrefInPlace64(rows, 64));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Rref64x64);

// The matrix of a 64-bit layout (a permutation of unit columns with a few XOR cross terms, as
// swizzles and broadcasts make): the common case in a compiler.
void BM_Rref64x64_LayoutMatrix(benchmark::State& state) {
  std::mt19937_64 rng(5);
  uint64_t original[64], rows[64];
  std::vector<int> perm(64);
  for (int i = 0; i < 64; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  for (int i = 0; i < 64; ++i) original[i] = uint64_t{1} << perm[i];
  for (int k = 0; k < 8; ++k) original[rng() % 64] ^= uint64_t{1} << (rng() % 64);
  for (auto _ : state) {
    std::copy(std::begin(original), std::end(original), rows);
    benchmark::DoNotOptimize(rrefInPlace64(rows, 64));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Rref64x64_LayoutMatrix);

// ---- Hot operations (issue 19 goals, on the DPAS accumulator and Blocked 20 layouts) -----------
// apply with named inputs <= 25 ns, toString <= 400 ns, operator== (equal) <= 8 ns,
// freeVariableMasks <= 100 ns, construction from bases <= 120 ns.

// Triton's apply call shape: one (name, value) pair per in-dim, in the layout's in-dim order.
std::vector<std::pair<DimName, uint64_t>> namedInputs(const LinearLayout& l, uint64_t i) {
  std::vector<std::pair<DimName, uint64_t>> ins;
  for (int d = 0; d < l.numInDims(); ++d) ins.push_back({l.inDimName(d), i & (l.inDimSize(d) - 1)});
  return ins;
}

// The fastest public path that takes the named call shape: results into a caller buffer.
void BM_ApplyNamed(benchmark::State& state, LinearLayout (*make)()) {
  LinearLayout l = make();
  auto ins = namedInputs(l, 0);
  std::vector<std::pair<DimName, uint64_t>> outs(size_t(l.numOutDims()));
  uint64_t i = 0;
  for (auto _ : state) {
    for (auto& p : ins) p.second = i;
    benchmark::DoNotOptimize(l.applyNamed(ins, outs));
    benchmark::DoNotOptimize(outs.data());
    i += 0x9e3779b9;
  }
}
BENCHMARK_CAPTURE(BM_ApplyNamed, DpasAcc64, dpasAccumulator64x64);
BENCHMARK_CAPTURE(BM_ApplyNamed, Blocked20, blocked20);

// The allocating form (returns a vector of pairs, like Triton's SmallVector result).
void BM_ApplyNamedVector(benchmark::State& state, LinearLayout (*make)()) {
  LinearLayout l = make();
  auto ins = namedInputs(l, 0);
  uint64_t i = 0;
  for (auto _ : state) {
    for (auto& p : ins) p.second = i;
    benchmark::DoNotOptimize(l.apply(ins));
    i += 0x9e3779b9;
  }
}
BENCHMARK_CAPTURE(BM_ApplyNamedVector, DpasAcc64, dpasAccumulator64x64);
BENCHMARK_CAPTURE(BM_ApplyNamedVector, Blocked20, blocked20);

void BM_ToString(benchmark::State& state, LinearLayout (*make)()) {
  LinearLayout l = make();
  for (auto _ : state) benchmark::DoNotOptimize(l.toString());
}
BENCHMARK_CAPTURE(BM_ToString, DpasAcc64, dpasAccumulator64x64);
BENCHMARK_CAPTURE(BM_ToString, Blocked20, blocked20);

// Two separately built, equal layouts (no shared storage).
void BM_EqualLayouts(benchmark::State& state, LinearLayout (*make)()) {
  LinearLayout a = make(), b = make();
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    benchmark::DoNotOptimize(a == b);
  }
}
BENCHMARK_CAPTURE(BM_EqualLayouts, DpasAcc64, dpasAccumulator64x64);
BENCHMARK_CAPTURE(BM_EqualLayouts, Blocked20, blocked20);

void BM_FreeVariableMasks(benchmark::State& state, LinearLayout (*make)()) {
  const LinearLayout l = make();
  for (auto _ : state) benchmark::DoNotOptimize(l.freeVariableMasks());
}
BENCHMARK_CAPTURE(BM_FreeVariableMasks, DpasAcc64, dpasAccumulator64x64);
BENCHMARK_CAPTURE(BM_FreeVariableMasks, Blocked20, blocked20);

// LinearLayout::create from the layout's own bases and out sizes (validation included).
void BM_CreateFromBases(benchmark::State& state, LinearLayout (*make)()) {
  const LinearLayout l = make();
  const std::vector<InDimBases> ins = l.inDims();
  const std::vector<DimSize> outs = l.outDims();
  for (auto _ : state) benchmark::DoNotOptimize(LinearLayout::create(ins, outs));
}
BENCHMARK_CAPTURE(BM_CreateFromBases, DpasAcc64, dpasAccumulator64x64);
BENCHMARK_CAPTURE(BM_CreateFromBases, Blocked20, blocked20);

// LinearLayout::createSurjective (out sizes inferred, surjectivity checked).
void BM_CreateSurjective(benchmark::State& state, LinearLayout (*make)()) {
  const LinearLayout l = make();
  const std::vector<InDimBases> ins = l.inDims();
  const std::vector<DimName> outs = l.outDimNames();
  for (auto _ : state) benchmark::DoNotOptimize(LinearLayout::createSurjective(ins, outs));
}
BENCHMARK_CAPTURE(BM_CreateSurjective, DpasAcc64, dpasAccumulator64x64);
BENCHMARK_CAPTURE(BM_CreateSurjective, Blocked20, blocked20);

} // namespace
