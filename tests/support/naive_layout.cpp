// The naive model of naive_layout.h. Each function is a direct transcription of a sentence of
// docs/reference/triton-linear-layout.md; see the comments for which one.
#include "support/naive_layout.h"

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <set>

namespace naive {

namespace {

// A column of a layout's matrix as a flat vector of bools over all out bits.
using BitVec = std::vector<bool>;

bool contains(const Names& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool isPermutationOf(const Names& order, const Names& names) {
  if (order.size() != names.size()) return false;
  std::set<std::string> a(order.begin(), order.end()), b(names.begin(), names.end());
  return a.size() == order.size() && a == b;
}

uint64_t inSize(const Layout& l, size_t d) {
  return uint64_t{1} << l.ins[d].second.size();
}

// Out size of `name`, 1 when the layout lacks it.
uint64_t outSizeOr1(const Layout& l, const std::string& name) {
  int o = outIndex(l, name);
  return o < 0 ? 1 : l.outs[o].second;
}

// Every basis of the layout in global order (in-dim by in-dim), as components.
std::vector<std::vector<uint64_t>> allBases(const Layout& l) {
  std::vector<std::vector<uint64_t>> all;
  for (const auto& in : l.ins)
    for (const auto& b : in.second) all.push_back(b);
  return all;
}

// Components (out-dim order) -> the out bits, out-dim 0 first, LSB first.
BitVec toBits(const std::vector<uint64_t>& comps, const DimSizes& outs) {
  BitVec bits;
  for (size_t o = 0; o < outs.size(); ++o) {
    int n = log2Exact(outs[o].second);
    for (int k = 0; k < n; ++k) bits.push_back((comps[o] >> k) & 1);
  }
  return bits;
}

// The inverse of toBits.
std::vector<uint64_t> fromBits(const BitVec& bits, const DimSizes& outs) {
  std::vector<uint64_t> comps(outs.size(), 0);
  size_t pos = 0;
  for (size_t o = 0; o < outs.size(); ++o) {
    int n = log2Exact(outs[o].second);
    for (int k = 0; k < n; ++k, ++pos)
      if (bits[pos]) comps[o] |= uint64_t{1} << k;
  }
  return comps;
}

// Components of `comps` (in `from`'s out-dim order) rearranged into `to`'s out-dim order by name.
// Names of `to` that `from` lacks read as 0.
std::vector<uint64_t> reorder(const std::vector<uint64_t>& comps, const DimSizes& from,
                              const DimSizes& to) {
  std::vector<uint64_t> result(to.size(), 0);
  for (size_t i = 0; i < to.size(); ++i)
    for (size_t j = 0; j < from.size(); ++j)
      if (from[j].first == to[i].first) result[i] = comps[j];
  return result;
}

void xorInto(std::vector<uint64_t>& acc, const std::vector<uint64_t>& v) {
  for (size_t i = 0; i < acc.size(); ++i) acc[i] ^= v[i];
}

// Splits global input `x` (in-dim 0 in the low bits) into one value per in-dim. Only used for
// layouts of at most 20 input bits.
std::vector<uint64_t> unpackInputs(const Layout& l, uint64_t x) {
  std::vector<uint64_t> vals;
  for (const auto& in : l.ins) {
    size_t n = in.second.size();
    vals.push_back(x & ((uint64_t{1} << n) - 1));
    x >>= n;
  }
  return vals;
}

// Values by name, in `names` order (0 for names the pairs lack).
std::vector<uint64_t> valuesFor(const Names& names, const Names& keys,
                                const std::vector<uint64_t>& vals) {
  std::vector<uint64_t> result(names.size(), 0);
  for (size_t i = 0; i < names.size(); ++i)
    for (size_t j = 0; j < keys.size(); ++j)
      if (keys[j] == names[i]) result[i] = vals[j];
  return result;
}

} // namespace

void PrintTo(const Layout& l, std::ostream* os) {
  *os << toString(l);
}

// ---- Basic queries ------------------------------------------------------------------------------

bool isPowerOfTwo(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

int log2Exact(uint64_t v) {
  if (!isPowerOfTwo(v)) std::abort();
  int k = 0;
  while ((uint64_t{1} << k) != v) ++k;
  return k;
}

int inIndex(const Layout& l, const std::string& name) {
  for (size_t i = 0; i < l.ins.size(); ++i)
    if (l.ins[i].first == name) return static_cast<int>(i);
  return -1;
}

int outIndex(const Layout& l, const std::string& name) {
  for (size_t i = 0; i < l.outs.size(); ++i)
    if (l.outs[i].first == name) return static_cast<int>(i);
  return -1;
}

Names inNames(const Layout& l) {
  Names n;
  for (const auto& in : l.ins) n.push_back(in.first);
  return n;
}

Names outNames(const Layout& l) {
  Names n;
  for (const auto& out : l.outs) n.push_back(out.first);
  return n;
}

int totalInBits(const Layout& l) {
  int n = 0;
  for (const auto& in : l.ins) n += static_cast<int>(in.second.size());
  return n;
}

int totalOutBits(const Layout& l) {
  int n = 0;
  for (const auto& out : l.outs) n += log2Exact(out.second);
  return n;
}

bool isValid(const Layout& l) {
  Names ins = inNames(l), outs = outNames(l);
  if (std::set<std::string>(ins.begin(), ins.end()).size() != ins.size()) return false;
  if (std::set<std::string>(outs.begin(), outs.end()).size() != outs.size()) return false;
  for (const auto& out : l.outs)
    if (!isPowerOfTwo(out.second)) return false;
  for (const auto& in : l.ins) {
    if (in.second.size() > 63) return false;
    for (const auto& b : in.second) {
      if (b.size() != l.outs.size()) return false;
      for (size_t o = 0; o < b.size(); ++o)
        if (b[o] >= l.outs[o].second) return false;
    }
  }
  return true;
}

// ---- Factories ----------------------------------------------------------------------------------

// "identity1D(n, in, out) = strided1D(n, 1)"; "n = 0 gives empty()".
Layout identity1D(uint64_t size, const std::string& in, const std::string& out) {
  Layout l;
  if (size == 0) return l;
  Bases bases;
  for (uint64_t v = 1; v < size; v <<= 1) bases.push_back({v});
  l.ins.push_back({in, bases});
  l.outs.push_back({out, size});
  return l;
}

Layout zeros1D(uint64_t size, const std::string& in, const std::string& out, uint64_t outSize) {
  Layout l;
  if (size == 0) return l;
  Bases bases;
  for (uint64_t v = 1; v < size; v <<= 1) bases.push_back({0});
  l.ins.push_back({in, bases});
  l.outs.push_back({out, outSize});
  return l;
}

// ---- Apply --------------------------------------------------------------------------------------

// "For each out-dim: XOR of bases[in][i][out] over the set bits i of each input."
std::vector<uint64_t> apply(const Layout& l, const std::vector<uint64_t>& ins) {
  std::vector<uint64_t> out(l.outs.size(), 0);
  for (size_t d = 0; d < l.ins.size(); ++d) {
    const Bases& bases = l.ins[d].second;
    for (size_t i = 0; i < bases.size(); ++i)
      if ((ins[d] >> i) & 1) xorInto(out, bases[i]);
  }
  return out;
}

// ---- Algebra ------------------------------------------------------------------------------------

// "Needs this.outDims == outer.inDims as sets and outSize(d) <= outer.inSize(d). Each basis is
// outer.apply-ed. Result out-dims = outer's."
std::optional<Layout> compose(const Layout& inner, const Layout& outer) {
  if (!isPermutationOf(outNames(inner), inNames(outer))) return std::nullopt;
  for (const auto& out : inner.outs) {
    int d = inIndex(outer, out.first);
    if (out.second > inSize(outer, d)) return std::nullopt;
  }
  Layout result;
  result.outs = outer.outs;
  for (const auto& in : inner.ins) {
    Bases bases;
    for (const auto& b : in.second) {
      std::vector<uint64_t> outerIns = valuesFor(inNames(outer), outNames(inner), b);
      bases.push_back(apply(outer, outerIns));
    }
    result.ins.push_back({in.first, bases});
  }
  return result;
}

// "order-preserving union; on ties the first list wins; error on inconsistent order". Merge like
// a merge of two sorted lists: take x's next name unless it also occurs (later) in y, in which case
// y's names before it must come first; take y's next name unless it occurs later in x. When both
// must wait, each list puts its own name after the other's: the orders are inconsistent.
std::optional<Names> supremum(const Names& x, const Names& y) {
  Names result;
  size_t i = 0, j = 0;
  while (true) {
    while (i < x.size() && contains(result, x[i])) ++i;
    while (j < y.size() && contains(result, y[j])) ++j;
    if (i == x.size() && j == y.size()) break;
    if (i < x.size() && j < y.size() && x[i] == y[j]) {
      result.push_back(x[i]);
      continue;
    }
    bool xFree = i < x.size() && !contains(Names(y.begin() + j, y.end()), x[i]);
    bool yFree = j < y.size() && !contains(Names(x.begin() + i, x.end()), y[j]);
    if (xFree)
      result.push_back(x[i]);
    else if (yFree)
      result.push_back(y[j]);
    else
      return std::nullopt;
  }
  return result;
}

// "Per in-dim, inner's bases come first, then outer's. Outer's components are shifted left by
// inner's log2 out size for that out-dim." Out size = product of the two (1 where absent).
std::optional<Layout> product(const Layout& inner, const Layout& outer) {
  auto ins = supremum(inNames(inner), inNames(outer));
  auto outs = supremum(outNames(inner), outNames(outer));
  if (!ins || !outs) return std::nullopt;
  Layout result;
  for (const std::string& name : *outs) {
    int bits = log2Exact(outSizeOr1(inner, name)) + log2Exact(outSizeOr1(outer, name));
    if (bits > 63) return std::nullopt;
    result.outs.push_back({name, uint64_t{1} << bits});
  }
  for (const std::string& name : *ins) {
    Bases bases;
    int di = inIndex(inner, name);
    if (di >= 0)
      for (const auto& b : inner.ins[di].second)
        bases.push_back(reorder(b, inner.outs, result.outs));
    int dout = inIndex(outer, name);
    if (dout >= 0) {
      for (const auto& b : outer.ins[dout].second) {
        std::vector<uint64_t> comps = reorder(b, outer.outs, result.outs);
        for (size_t o = 0; o < comps.size(); ++o)
          comps[o] <<= log2Exact(outSizeOr1(inner, result.outs[o].first));
        bases.push_back(comps);
      }
    }
    if (bases.size() > 63) return std::nullopt;
    result.ins.push_back({name, bases});
  }
  return result;
}

std::optional<Layout> transposeIns(const Layout& l, const Names& order) {
  if (!isPermutationOf(order, inNames(l))) return std::nullopt;
  Layout result;
  result.outs = l.outs;
  for (const std::string& name : order) result.ins.push_back(l.ins[inIndex(l, name)]);
  return result;
}

// "Outs also permute basis components."
std::optional<Layout> transposeOuts(const Layout& l, const Names& order) {
  if (!isPermutationOf(order, outNames(l))) return std::nullopt;
  Layout result;
  for (const std::string& name : order) result.outs.push_back(l.outs[outIndex(l, name)]);
  for (const auto& in : l.ins) {
    Bases bases;
    for (const auto& b : in.second) bases.push_back(reorder(b, l.outs, result.outs));
    result.ins.push_back({in.first, bases});
  }
  return result;
}

// "Concatenate all bases in in-dim order, then cut them into the new dims (sizes must be powers of
// two, equal product)."
std::optional<Layout> reshapeIns(const Layout& l, const DimSizes& newIns) {
  int total = 0;
  for (const auto& d : newIns) {
    if (!isPowerOfTwo(d.second)) return std::nullopt;
    total += log2Exact(d.second);
  }
  if (total != totalInBits(l)) return std::nullopt;
  std::vector<std::vector<uint64_t>> all = allBases(l);
  Layout result;
  result.outs = l.outs;
  size_t pos = 0;
  for (const auto& d : newIns) {
    Bases bases;
    for (int k = 0; k < log2Exact(d.second); ++k) bases.push_back(all[pos++]);
    result.ins.push_back({d.first, bases});
  }
  if (!isValid(result)) return std::nullopt;
  return result;
}

// "Flatten each basis to one integer (out-dim i shifted by the sum of log2 of the earlier sizes),
// then split by div/mod with the new sizes." Done on bit vectors so that it has no width limit.
std::optional<Layout> reshapeOuts(const Layout& l, const DimSizes& newOuts) {
  int total = 0;
  for (const auto& d : newOuts) {
    if (!isPowerOfTwo(d.second)) return std::nullopt;
    total += log2Exact(d.second);
  }
  if (total != totalOutBits(l)) return std::nullopt;
  Layout result;
  result.outs = newOuts;
  for (const auto& in : l.ins) {
    Bases bases;
    for (const auto& b : in.second) bases.push_back(fromBits(toBits(b, l.outs), newOuts));
    result.ins.push_back({in.first, bases});
  }
  if (!isValid(result)) return std::nullopt;
  return result;
}

// "Keep only these dims; omitted in-dims are treated as 0. Order follows the original, not the
// arguments. Out sizes unchanged."
Layout sublayout(const Layout& l, const Names& ins, const Names& outs) {
  Layout result;
  for (const auto& out : l.outs)
    if (contains(outs, out.first)) result.outs.push_back(out);
  for (const auto& in : l.ins) {
    if (!contains(ins, in.first)) continue;
    Bases bases;
    for (const auto& b : in.second) bases.push_back(reorder(b, l.outs, result.outs));
    result.ins.push_back({in.first, bases});
  }
  return result;
}

// "Same out-dims and sizes required. Appends other's in-dims (MapVector insert: an existing name
// keeps this layout's bases)."
std::optional<Layout> concatIns(const Layout& a, const Layout& b) {
  if (a.outs != b.outs) return std::nullopt;
  Layout result = a;
  for (const auto& in : b.ins)
    if (inIndex(result, in.first) < 0) result.ins.push_back(in);
  return result;
}

// "Same in-dims and sizes required. Components appended. Out-dims = this then other."
std::optional<Layout> concatOuts(const Layout& a, const Layout& b) {
  if (inNames(a) != inNames(b)) return std::nullopt;
  for (size_t d = 0; d < a.ins.size(); ++d)
    if (a.ins[d].second.size() != b.ins[d].second.size()) return std::nullopt;
  Layout result;
  result.outs = a.outs;
  result.outs.insert(result.outs.end(), b.outs.begin(), b.outs.end());
  for (size_t d = 0; d < a.ins.size(); ++d) {
    Bases bases;
    for (size_t i = 0; i < a.ins[d].second.size(); ++i) {
      std::vector<uint64_t> comps = a.ins[d].second[i];
      const auto& other = b.ins[d].second[i];
      comps.insert(comps.end(), other.begin(), other.end());
      bases.push_back(comps);
    }
    result.ins.push_back({a.ins[d].first, bases});
  }
  if (!isValid(result)) return std::nullopt;
  return result;
}

bool equalIgnoringOutDimSizes(const Layout& a, const Layout& b) {
  return a.ins == b.ins && outNames(a) == outNames(b);
}

// ---- Ranks and spans ----------------------------------------------------------------------------

std::vector<std::vector<bool>> matrix(const Layout& l) {
  std::vector<std::vector<uint64_t>> cols = allBases(l);
  int rows = totalOutBits(l);
  std::vector<std::vector<bool>> m(rows, std::vector<bool>(cols.size(), false));
  for (size_t c = 0; c < cols.size(); ++c) {
    BitVec bits = toBits(cols[c], l.outs);
    for (int r = 0; r < rows; ++r) m[r][c] = bits[r];
  }
  return m;
}

int rref(std::vector<std::vector<bool>>& m) {
  int rows = static_cast<int>(m.size());
  int cols = rows == 0 ? 0 : static_cast<int>(m[0].size());
  int r = 0;
  for (int c = 0; c < cols && r < rows; ++c) {
    int pivot = -1;
    for (int i = r; i < rows; ++i)
      if (m[i][c]) {
        pivot = i;
        break;
      }
    if (pivot < 0) continue;
    std::swap(m[r], m[pivot]);
    for (int i = 0; i < rows; ++i) {
      if (i == r || !m[i][c]) continue;
      for (int k = 0; k < cols; ++k) m[i][k] = m[i][k] != m[r][k];
    }
    ++r;
  }
  return r;
}

int rank(const Layout& l) {
  std::vector<std::vector<bool>> m = matrix(l);
  return rref(m);
}

// "isSurjective = rank == sum log2(outSize), isInjective = rank == sum log2(inSize),
// isInvertible = surjective && total in size == total out size".
bool isSurjective(const Layout& l) {
  return rank(l) == totalOutBits(l);
}
bool isInjective(const Layout& l) {
  return rank(l) == totalInBits(l);
}
bool isInvertible(const Layout& l) {
  return isSurjective(l) && totalInBits(l) == totalOutBits(l);
}

namespace {

Masks masksFromFlags(const Layout& l, const std::vector<bool>& isFree) {
  Masks masks;
  size_t g = 0;
  for (const auto& in : l.ins) {
    uint64_t mask = 0;
    for (size_t i = 0; i < in.second.size(); ++i, ++g)
      if (isFree[g]) mask |= uint64_t{1} << i;
    masks.push_back({in.first, mask});
  }
  return masks;
}

} // namespace

Masks freeVariableMasksBruteForce(const Layout& l) {
  std::vector<std::vector<uint64_t>> cols = allBases(l);
  if (cols.size() > 17) std::abort();
  std::vector<bool> isFree(cols.size(), false);
  for (size_t j = 0; j < cols.size(); ++j) {
    // Walk every subset of columns 0..j-1 in Gray-code order, one XOR per step.
    std::vector<uint64_t> acc(l.outs.size(), 0);
    bool found = acc == cols[j];
    for (uint64_t s = 1; !found && s < (uint64_t{1} << j); ++s) {
      int flip = __builtin_ctzll(s);
      xorInto(acc, cols[flip]);
      found = acc == cols[j];
    }
    isFree[j] = found;
  }
  return masksFromFlags(l, isFree);
}

Masks freeVariableMasksBySpan(const Layout& l) {
  std::vector<std::vector<uint64_t>> cols = allBases(l);
  int n = totalOutBits(l);
  // basis[p]: a stored vector whose lowest set bit is p.
  std::vector<std::optional<BitVec>> basis(n);
  std::vector<bool> isFree(cols.size(), false);
  for (size_t j = 0; j < cols.size(); ++j) {
    BitVec v = toBits(cols[j], l.outs);
    bool inSpan = true;
    for (int p = 0; p < n; ++p) {
      if (!v[p]) continue;
      if (!basis[p]) {
        basis[p] = v;
        inSpan = false;
        break;
      }
      for (int k = 0; k < n; ++k) v[k] = v[k] != (*basis[p])[k];
    }
    isFree[j] = inSpan;
  }
  return masksFromFlags(l, isFree);
}

// ---- Inverses -----------------------------------------------------------------------------------

bool imageContained(const Layout& a, const Layout& b) {
  if (!isPermutationOf(outNames(a), outNames(b))) return false;
  int n = totalInBits(b);
  if (n > 20) std::abort();
  std::set<std::vector<uint64_t>> image;
  for (uint64_t x = 0; x < (uint64_t{1} << n); ++x) image.insert(apply(b, unpackInputs(b, x)));
  for (const auto& in : a.ins)
    for (const auto& basis : in.second)
      if (!image.count(reorder(basis, a.outs, b.outs))) return false;
  return true;
}

bool invertAndComposeCheck(const Layout& a, const Layout& b, const Layout& c) {
  if (a.ins.size() != c.ins.size()) return false;
  for (size_t d = 0; d < a.ins.size(); ++d)
    if (a.ins[d].first != c.ins[d].first || a.ins[d].second.size() != c.ins[d].second.size())
      return false;
  if (!isPermutationOf(outNames(c), inNames(b))) return false;
  for (const auto& out : c.outs)
    if (out.second > inSize(b, inIndex(b, out.first))) return false;
  int n = totalInBits(a);
  if (n > 20) std::abort();
  for (uint64_t x = 0; x < (uint64_t{1} << n); ++x) {
    std::vector<uint64_t> in = unpackInputs(a, x);
    std::vector<uint64_t> ya = apply(a, in);
    std::vector<uint64_t> cx = apply(c, in);
    std::vector<uint64_t> yb = apply(b, valuesFor(inNames(b), outNames(c), cx));
    if (reorder(yb, b.outs, a.outs) != ya) return false;
  }
  return true;
}

std::optional<Layout> invertAndCompose(const Layout& a, const Layout& b) {
  // 1. "Transpose B's outs to A's order. Require B.outSize >= A.outSize per dim."
  auto bt = transposeOuts(b, outNames(a));
  if (!bt) return std::nullopt;
  for (size_t o = 0; o < a.outs.size(); ++o)
    if (a.outs[o].second > bt->outs[o].second) return std::nullopt;

  // 2. "Each in-dim present in both whose single-dim sublayouts are equal ignoring out sizes (since
  // #10116) maps to itself." (Triton 3.6, which made tests/data/triton_algebra_vectors.jsonl,
  // still compared the out sizes too.)
  Names identityDims;
  for (const auto& in : a.ins) {
    int d = inIndex(*bt, in.first);
    if (d >= 0 && bt->ins[d].second == in.second) identityDims.push_back(in.first);
  }

  // 3. Every remaining input bit of B, in B's order, and the image of each packed combination of
  // them (bit k of x = k-th remaining bit).
  std::vector<std::pair<int, int>> freeBits; // (B in-dim, bit)
  for (size_t d = 0; d < bt->ins.size(); ++d) {
    if (contains(identityDims, bt->ins[d].first)) continue;
    for (size_t i = 0; i < bt->ins[d].second.size(); ++i)
      freeBits.push_back({static_cast<int>(d), static_cast<int>(i)});
  }
  if (freeBits.size() > 20) std::abort();
  size_t count = size_t{1} << freeBits.size();
  std::vector<std::vector<uint64_t>> image(count, std::vector<uint64_t>(a.outs.size(), 0));
  for (size_t x = 1; x < count; ++x) {
    int low = __builtin_ctzll(x);
    image[x] = image[x & (x - 1)];
    xorInto(image[x], bt->ins[freeBits[low].first].second[freeBits[low].second]);
  }

  // The smallest x with B(x) == target, i.e. the solution that leaves the free variables 0.
  auto smallestPreimage = [&](const std::vector<uint64_t>& target) -> std::optional<size_t> {
    for (size_t x = 0; x < count; ++x)
      if (image[x] == target) return x;
    return std::nullopt;
  };

  // 4-5. C: A's in-dims in A's order -> B's in-dims in B's order at their full sizes.
  Layout c;
  for (const auto& in : b.ins) c.outs.push_back({in.first, uint64_t{1} << in.second.size()});
  for (const auto& in : a.ins) {
    Bases bases;
    bool identity = contains(identityDims, in.first);
    for (size_t i = 0; i < in.second.size(); ++i) {
      std::vector<uint64_t> comps(c.outs.size(), 0);
      if (identity) {
        comps[outIndex(c, in.first)] = uint64_t{1} << i;
      } else {
        auto x = smallestPreimage(in.second[i]);
        if (!x) return std::nullopt;
        for (size_t k = 0; k < freeBits.size(); ++k) {
          if (!((*x >> k) & 1)) continue;
          const std::string& bName = bt->ins[freeBits[k].first].first;
          comps[outIndex(c, bName)] |= uint64_t{1} << freeBits[k].second;
        }
      }
      bases.push_back(comps);
    }
    c.ins.push_back({in.first, bases});
  }
  return c;
}

// "(prod identity1D(outSize(d), d, d)).invertAndCompose(*this)".
std::optional<Layout> pseudoinvert(const Layout& l) {
  Layout id;
  for (const auto& out : l.outs) id = *product(id, identity1D(out.second, out.first, out.first));
  return invertAndCompose(id, l);
}

// ---- Text ---------------------------------------------------------------------------------------

std::string toString(const Layout& l) {
  std::string outDims = "[";
  for (size_t o = 0; o < l.outs.size(); ++o) {
    if (o > 0) outDims += ", ";
    outDims += l.outs[o].first + " (size " + std::to_string(l.outs[o].second) + ")";
  }
  outDims += "]";
  // "No bases at all: "\n(empty layout)", or "\n(empty layout with out-dims [..])"."
  if (l.ins.empty())
    return l.outs.empty() ? "\n(empty layout)" : "\n(empty layout with out-dims " + outDims + ")";
  // "Starts with "\n"."
  std::string s = "\n";
  for (const auto& [name, bases] : l.ins) {
    // "An in-dim without bases prints " - <in> is a size 1 dimension\n"."
    if (bases.empty()) {
      s += " - " + name + " is a size 1 dimension\n";
      continue;
    }
    // "first line " - <in>=1 -> (a, b)", continuation lines "\n   <in>=2 -> (...)", ..., then
    // "\n"."
    s += " - ";
    for (size_t i = 0; i < bases.size(); ++i) {
      if (i > 0) s += "\n   ";
      s += name + "=" + std::to_string(uint64_t{1} << i) + " -> (";
      for (size_t o = 0; o < bases[i].size(); ++o) {
        if (o > 0) s += ", ";
        s += std::to_string(bases[i][o]);
      }
      s += ")";
    }
    s += "\n";
  }
  // "Last line: "where out dims are: [dim0 (size N0), dim1 (size N1)]"."
  s += "where out dims are: " + outDims;
  return s;
}

} // namespace naive
