// liblayout's GF(2) conversions (layout::triton::toLinearLayout) against the independent
// element-by-element models of tests/support/encoding_models.h (written from the prose of seed 003,
// no bases, no matrices), on seeded random parameters and shapes.
//
// - Distributed (blocked of rank 1-3, slices of blocked parents of rank 2-4): for every tensor
//   element, the set of (block, warp, lane, register) that the model says hold it equals the set of
//   inputs that the library's layout maps to it (found by applying the layout to every input), and
//   the hardware sizes agree.
// - Shared (swizzled_shared and amd_rotating_shared of rank 1-3): the element stored at every
//   (block, offset) agrees, and so do the offset and block counts.
//
// The parameters cover 16-, 32- and 64-lane (and other power-of-two) warps, 1-8 warps, tensors
// smaller than the layout tile (broadcast), equal to it and larger (wrap), per dim, CTA splits
// (CTAsPerCGA = CTASplitNum), broadcast CTAs (CTAsPerCGA > CTASplitNum), tensors smaller than the
// CTA split, and both spellings of the CTA layout: the legacy CTAsPerCGA / CTASplitNum / CTAOrder
// and Triton 3.6's CGALayout bases. Each case prints its seed, attribute and shape through
// SCOPED_TRACE; LAYOUT_MODEL_SEED=<n> in the environment replays the suites from another base seed.
// Coverage counters at the end of each suite make sure the generator really hits every class.
#include "support/encoding_models.h"

#include "layout/core/linear_layout.h"
#include "layout/triton/encoding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace em = encoding_model;
using layout::DimName;
using layout::LinearLayout;
namespace dims = layout::dims;

// ---- Random parameters --------------------------------------------------------------------------
// std::mt19937_64's output is fixed by the standard; reducing it with % keeps cases reproducible
// across standard libraries (unlike std::uniform_int_distribution).
struct Rng {
  std::mt19937_64 gen;
  explicit Rng(uint64_t seed) : gen(seed) {}
  int below(int n) { return int(gen() % uint64_t(n)); }           // 0 .. n-1
  int between(int lo, int hi) { return lo + below(hi - lo + 1); } // lo .. hi
  bool chance(int percent) { return below(100) < percent; }
};

uint64_t baseSeed() {
  const char* env = std::getenv("LAYOUT_MODEL_SEED");
  return env ? std::strtoull(env, nullptr, 0) : 0x5eed003u;
}

// Per-dim log2 sizes summing to `totalLog`, spread at random.
std::vector<int> spreadBits(Rng& rng, int totalLog, std::size_t rank) {
  std::vector<int> logs(rank, 0);
  for (int b = 0; b < totalLog; ++b) ++logs[rng.below(int(rank))];
  return logs;
}

em::Dims pow2s(const std::vector<int>& logs) {
  em::Dims out;
  for (int l : logs) out.push_back(1u << l);
  return out;
}

em::Dims randomPermutation(Rng& rng, std::size_t rank) {
  em::Dims p;
  for (unsigned d = 0; d < rank; ++d) p.push_back(d);
  for (std::size_t i = rank; i > 1; --i) std::swap(p[i - 1], p[rng.below(int(i))]);
  return p;
}

int log2Of(int64_t v) {
  int l = 0;
  while ((int64_t{1} << l) < v) ++l;
  return l;
}

// One CTA (empty) in ~35% of the cases; otherwise up to 8 CTAs, each dim split into a random part
// of its CTAs (the rest replicate: broadcast CTAs). `allowSplit` false: CTASplitNum all 1.
em::CTALayout randomCta(Rng& rng, std::size_t rank, bool allowSplit) {
  em::CTALayout c;
  if (rng.chance(35)) return c;
  const std::vector<int> ctaLogs = spreadBits(rng, rng.between(0, 3), rank);
  std::vector<int> splitLogs;
  for (int l : ctaLogs) splitLogs.push_back(allowSplit ? rng.between(0, l) : 0);
  c.CTAsPerCGA = pow2s(ctaLogs);
  c.CTASplitNum = pow2s(splitLogs);
  c.CTAOrder = randomPermutation(rng, rank);
  return c;
}

// ---- Attribute text -----------------------------------------------------------------------------
std::string list(const em::Dims& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string list(const em::Shape& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// The CTA layout as attribute entries (", CTAsPerCGA = ..." or ", CGALayout = ..."), or "" for one
// CTA. The CGALayout form lists the block bases the legacy form means (seed 108-124, 621): block id
// = CTA coordinates linearised in CTAOrder, fastest first; per dim the low log2(CTASplitNum) bits
// pick the piece (bases 1, 2, 4.. along the dim, in piece units), the remaining bits replicate it
// (zero bases).
std::string ctaEntries(const em::CTALayout& c, bool cgaForm) {
  if (c.CTAsPerCGA.empty()) return "";
  if (!cgaForm)
    return ", CTAsPerCGA = " + list(c.CTAsPerCGA) + ", CTASplitNum = " + list(c.CTASplitNum) +
           ", CTAOrder = " + list(c.CTAOrder);
  const std::size_t rank = c.CTAsPerCGA.size();
  std::vector<std::vector<unsigned>> bases;
  for (unsigned d : c.CTAOrder) {
    for (unsigned piece = 1; piece < c.CTASplitNum[d]; piece *= 2) {
      bases.push_back(std::vector<unsigned>(rank, 0));
      bases.back()[d] = piece;
    }
    for (unsigned rep = c.CTASplitNum[d]; rep < c.CTAsPerCGA[d]; rep *= 2)
      bases.push_back(std::vector<unsigned>(rank, 0));
  }
  if (bases.empty()) return ""; // one CTA
  std::string s = ", CGALayout = [";
  for (std::size_t i = 0; i < bases.size(); ++i) s += (i ? ", " : "") + list(bases[i]);
  return s + "]";
}

std::string blockedText(const em::Blocked& b, bool cgaForm) {
  return "#ttg.blocked<{sizePerThread = " + list(b.sizePerThread) +
         ", threadsPerWarp = " + list(b.threadsPerWarp) + ", warpsPerCTA = " + list(b.warpsPerCTA) +
         ", order = " + list(b.order) + ctaEntries(b.cta, cgaForm) + "}>";
}

std::string sharedText(const char* name, unsigned vec, unsigned perPhase, unsigned maxPhase,
                       const em::Dims& order, const em::CTALayout& cta, bool cgaForm) {
  return std::string("#ttg.") + name + "<{vec = " + std::to_string(vec) +
         ", perPhase = " + std::to_string(perPhase) + ", maxPhase = " + std::to_string(maxPhase) +
         ", order = " + list(order) + ctaEntries(cta, cgaForm) + "}>";
}

// ---- The library's answers ----------------------------------------------------------------------
std::string ownerText(const em::Owner& o) {
  return "(block " + std::to_string(o.block) + ", warp " + std::to_string(o.warp) + ", lane " +
         std::to_string(o.lane) + ", reg " + std::to_string(o.reg) + ")";
}

// The owners in `a` but not in `b` (both sorted), at most 8 of them, and how many there are.
std::string onlyIn(const std::vector<em::Owner>& a, const std::vector<em::Owner>& b) {
  std::vector<em::Owner> diff;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(diff));
  std::string s = std::to_string(diff.size()) + " {";
  for (std::size_t i = 0; i < diff.size() && i < 8; ++i) s += (i ? " " : "") + ownerText(diff[i]);
  return s + (diff.size() > 8 ? " ...}" : "}");
}

std::string coordText(const em::Coord& c) {
  return list(em::Shape(c.begin(), c.end()));
}

bool convert(const std::string& text, const em::Shape& shape, LinearLayout& out) {
  auto enc = layout::triton::parseEncoding(text);
  if (!enc) {
    ADD_FAILURE() << "parse: " << enc.error().message;
    return false;
  }
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  if (!ll) {
    ADD_FAILURE() << "toLinearLayout: " << ll.error().message;
    return false;
  }
  out = *ll;
  // Out-dims dim0..dimN-1 with the tensor's sizes, in order.
  bool ok = ll->numOutDims() == int(shape.size());
  for (std::size_t d = 0; ok && d < shape.size(); ++d)
    ok = ll->outDimName(int(d)) == dims::standardOut(int(d)) &&
         ll->outDimSize(int(d)) == uint64_t(shape[d]);
  EXPECT_TRUE(ok) << "out-dims of the library's layout do not match the shape " << list(shape);
  return ok;
}

// The element (as a coordinate) that `ll` maps `ins` to.
em::Coord applyTo(const LinearLayout& ll, const std::vector<uint64_t>& ins) {
  std::vector<uint64_t> outs(ll.numOutDims());
  ll.apply(ins, outs);
  return em::Coord(outs.begin(), outs.end());
}

// Compares the holders of every element. Returns false after reporting the first few
// disagreements.
bool compareDistributed(const em::Distributed& model, const std::string& text,
                        const em::Shape& shape) {
  LinearLayout ll;
  if (!convert(text, shape, ll)) return false;
  for (int i = 0; i < ll.numInDims(); ++i) {
    const DimName n = ll.inDimName(i);
    EXPECT_TRUE(n == dims::reg() || n == dims::lane() || n == dims::warp() || n == dims::block())
        << "unexpected in-dim " << n.str();
  }
  const em::HardwareSize want = em::hardwareSize(model, shape);
  const em::HardwareSize got{
      int64_t(ll.inDimSize(dims::block())), int64_t(ll.inDimSize(dims::warp())),
      int64_t(ll.inDimSize(dims::lane())), int64_t(ll.inDimSize(dims::reg()))};
  EXPECT_EQ(got, want) << "hardware sizes (blocks, warps, lanes, registers): library ("
                       << got.blocks << ", " << got.warps << ", " << got.lanes << ", "
                       << got.registers << "), model (" << want.blocks << ", " << want.warps << ", "
                       << want.lanes << ", " << want.registers << ")";
  if (got != want) return false;

  const std::vector<std::vector<em::Owner>> expected = em::ownerTable(model, shape);
  std::vector<std::vector<em::Owner>> actual(expected.size());
  const int bi = ll.inDimIndex(dims::block()), wi = ll.inDimIndex(dims::warp()),
            li = ll.inDimIndex(dims::lane()), ri = ll.inDimIndex(dims::reg());
  std::vector<uint64_t> ins(ll.numInDims(), 0);
  auto set = [&ins](int idx, int64_t v) {
    if (idx >= 0) ins[idx] = uint64_t(v);
  };
  for (int64_t b = 0; b < got.blocks; ++b)
    for (int64_t w = 0; w < got.warps; ++w)
      for (int64_t l = 0; l < got.lanes; ++l)
        for (int64_t r = 0; r < got.registers; ++r) {
          set(bi, b), set(wi, w), set(li, l), set(ri, r);
          const int64_t e = em::flatIndex(shape, applyTo(ll, ins));
          actual[std::size_t(e)].push_back({b, w, l, r});
        }
  int reported = 0;
  for (std::size_t e = 0; e < expected.size() && reported < 3; ++e) {
    std::sort(actual[e].begin(), actual[e].end());
    if (actual[e] == expected[e]) continue;
    ADD_FAILURE() << "element " << coordText(em::unflatIndex(shape, int64_t(e))) << ": "
                  << actual[e].size() << " owners in the library, " << expected[e].size()
                  << " in the model\n  only in the library: " << onlyIn(actual[e], expected[e])
                  << "\n  only in the model:   " << onlyIn(expected[e], actual[e]);
    ++reported;
  }
  return reported == 0;
}

template <class Enc>
bool compareShared(const Enc& model, const std::string& text, const em::Shape& shape) {
  LinearLayout ll;
  if (!convert(text, shape, ll)) return false;
  const int oi = ll.inDimIndex(dims::offset()), bi = ll.inDimIndex(dims::block());
  EXPECT_EQ(ll.numInDims(), bi < 0 ? 1 : 2);
  EXPECT_GE(oi, 0) << "no offset in-dim";
  const int64_t offsets = em::offsetsPerBlock(shape, model.cta),
                blocks = em::numBlocks(model.cta, shape.size());
  EXPECT_EQ(int64_t(ll.inDimSize(dims::offset())), offsets) << "offsets per block";
  EXPECT_EQ(int64_t(ll.inDimSize(dims::block())), blocks) << "blocks";
  if (oi < 0 || int64_t(ll.inDimSize(dims::offset())) != offsets ||
      int64_t(ll.inDimSize(dims::block())) != blocks)
    return false;
  const std::vector<em::Coord> expected = em::sharedTable(model, shape);
  std::vector<uint64_t> ins(ll.numInDims(), 0);
  int reported = 0;
  for (int64_t b = 0; b < blocks && reported < 3; ++b)
    for (int64_t o = 0; o < offsets && reported < 3; ++o) {
      ins[oi] = uint64_t(o);
      if (bi >= 0) ins[bi] = uint64_t(b);
      const em::Coord got = applyTo(ll, ins);
      const em::Coord& want = expected[std::size_t(b * offsets + o)];
      if (got == want) continue;
      ADD_FAILURE() << "block " << b << ", offset " << o << ": library " << coordText(got)
                    << ", model " << coordText(want);
      ++reported;
    }
  return reported == 0;
}

// ---- Shapes -------------------------------------------------------------------------------------
// Per dim: log2 of the CTA tile times the CTA split, plus a random delta in [-3, 2] (clamped at 1
// element), so that each dim's per-CTA piece is smaller than, equal to or larger than the tile;
// then the largest dims shrink until the tensor has at most 2^maxElementsLog elements.
em::Shape randomShape(Rng& rng, const std::vector<int>& tileLogs, const em::CTALayout& cta,
                      int maxElementsLog) {
  std::vector<int> logs;
  for (std::size_t d = 0; d < tileLogs.size(); ++d) {
    const int split = cta.CTASplitNum.empty() ? 0 : log2Of(cta.CTASplitNum[d]);
    logs.push_back(std::max(0, tileLogs[d] + split + rng.between(-3, 2)));
  }
  auto total = [&logs] {
    int t = 0;
    for (int l : logs) t += l;
    return t;
  };
  while (total() > maxElementsLog) --*std::max_element(logs.begin(), logs.end());
  em::Shape shape;
  for (int l : logs) shape.push_back(int64_t{1} << l);
  return shape;
}

// Classes of a (layout, shape) case, counted so that each suite can check its coverage.
struct Coverage {
  std::map<std::string, int> seen;
  void add(const std::string& what) { ++seen[what]; }
  void expectAtLeast(const std::string& what, int n) const {
    auto it = seen.find(what);
    EXPECT_GE(it == seen.end() ? 0 : it->second, n) << "coverage of '" << what << "'";
  }
  std::string text() const {
    std::ostringstream s;
    for (auto& [k, v] : seen) s << " " << k << "=" << v;
    return s.str();
  }
};

// Counts, per dim, whether the per-CTA piece is smaller than, equal to or larger than the tile,
// and the CTA classes.
void classify(Coverage& cov, const em::Shape& shape, const std::vector<int>& tileLogs,
              const em::CTALayout& cta) {
  bool smaller = false, equal = false, larger = false, split = false, bcastCta = false,
       tinyForSplit = false;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    int64_t pieces = 1;
    if (!cta.CTAsPerCGA.empty()) {
      pieces = std::min<int64_t>(cta.CTASplitNum[d], shape[d]);
      split |= cta.CTASplitNum[d] > 1;
      bcastCta |= cta.CTAsPerCGA[d] > cta.CTASplitNum[d];
      tinyForSplit |= shape[d] < int64_t(cta.CTASplitNum[d]);
    }
    const int64_t perCta = shape[d] / pieces, tile = int64_t{1} << tileLogs[d];
    smaller |= perCta < tile;
    equal |= perCta == tile;
    larger |= perCta > tile;
  }
  cov.add("rank" + std::to_string(shape.size()));
  if (smaller) cov.add("smaller than tile");
  if (equal) cov.add("equal to tile");
  if (larger) cov.add("larger than tile");
  if (cta.CTAsPerCGA.empty()) cov.add("one CTA");
  if (split) cov.add("CTA split");
  if (bcastCta) cov.add("broadcast CTAs");
  if (tinyForSplit) cov.add("tensor smaller than split");
}

// Hardware locations (block, warp, lane, register) of a layout on a shape, per the model.
constexpr int64_t kMaxLocations = int64_t{1} << 13;

int64_t locations(const em::Distributed& enc, const em::Shape& shape) {
  const em::HardwareSize h = em::hardwareSize(enc, shape);
  return h.blocks * h.warps * h.lanes * h.registers;
}

em::Blocked randomBlocked(Rng& rng, std::size_t rank, std::vector<int>& tileLogs) {
  em::Blocked b;
  static const int kLaneLogs[] = {5, 5, 5, 6, 6, 4, 3, 0, 2};
  const std::vector<int> spt =
      spreadBits(rng, rng.between(0, std::min<int>(4, 2 * int(rank))), rank);
  const std::vector<int> tpw = spreadBits(rng, kLaneLogs[rng.below(9)], rank);
  const std::vector<int> wpc = spreadBits(rng, rng.between(0, 3), rank);
  b.sizePerThread = pow2s(spt);
  b.threadsPerWarp = pow2s(tpw);
  b.warpsPerCTA = pow2s(wpc);
  b.order = randomPermutation(rng, rank);
  tileLogs.clear();
  for (std::size_t d = 0; d < rank; ++d) tileLogs.push_back(spt[d] + tpw[d] + wpc[d]);
  return b;
}

// ---- Suites -------------------------------------------------------------------------------------
TEST(EncodingModel, BlockedOwnersMatchLibrary) {
  Coverage cov;
  const uint64_t base = baseSeed();
  int failures = 0;
  for (uint64_t i = 0; i < 300 && failures < 5; ++i) {
    const uint64_t seed = base * 1000003u + i;
    Rng rng(seed);
    std::vector<int> tileLogs;
    em::Blocked b;
    em::Shape shape;
    bool cgaForm = false;
    do { // redrawn while the layout has too many hardware locations to enumerate quickly
      const std::size_t rank = std::size_t(rng.between(1, 3));
      b = randomBlocked(rng, rank, tileLogs);
      b.cta = randomCta(rng, rank, true);
      cgaForm = rng.chance(40);
      shape = randomShape(rng, tileLogs, b.cta, 11);
    } while (locations(b, shape) > kMaxLocations);
    const std::string text = blockedText(b, cgaForm);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + text + " on shape " + list(shape));
    classify(cov, shape, tileLogs, b.cta);
    cov.add("lanes" + std::to_string(em::lanesPerWarp(b)));
    if (cgaForm && !b.cta.CTAsPerCGA.empty()) cov.add("CGALayout form");
    if (!compareDistributed(b, text, shape)) ++failures;
  }
  ::testing::Test::RecordProperty("coverage", cov.text());
  SCOPED_TRACE("coverage:" + cov.text());
  for (const char* what : {"rank1", "rank2", "rank3", "smaller than tile", "equal to tile",
                           "larger than tile", "one CTA", "CTA split", "broadcast CTAs",
                           "CGALayout form", "lanes16", "lanes32", "lanes64"})
    cov.expectAtLeast(what, 10);
  cov.expectAtLeast("tensor smaller than split", 3);
}

// The seed's own 16-lane toy layouts (wrap/broadcast and slice examples) and the blocked examples,
// on shapes around their tiles, as fixed cases before the random ones.
TEST(EncodingModel, SeedLayoutsMatchLibrary) {
  const em::Blocked toy{{1, 1}, {4, 4}, {1, 1}, {1, 0}, {}};
  const em::Blocked ex1{{2, 2}, {8, 4}, {1, 2}, {1, 0}, {}};
  const em::Blocked ex3{{2, 2}, {8, 4}, {1, 2}, {1, 0}, {{2, 2}, {2, 2}, {1, 0}}};
  for (const em::Shape& shape :
       {em::Shape{4, 4}, em::Shape{2, 8}, em::Shape{1, 1}, em::Shape{16, 2}, em::Shape{8, 32}}) {
    SCOPED_TRACE("shape " + list(shape));
    compareDistributed(toy, blockedText(toy, false), shape);
    compareDistributed(ex1, blockedText(ex1, false), shape);
    compareDistributed(ex3, blockedText(ex3, false), shape);
    compareDistributed(ex3, blockedText(ex3, true), shape);
    for (unsigned dim : {0u, 1u}) {
      const em::Slice s{dim, toy};
      const std::string text = "#ttg.slice<{dim = " + std::to_string(dim) +
                               ", parent = " + blockedText(toy, false) + "}>";
      compareDistributed(s, text, {shape[0] * shape[1]});
    }
  }
}

TEST(EncodingModel, SliceOfBlockedOwnersMatchLibrary) {
  Coverage cov;
  const uint64_t base = baseSeed();
  int failures = 0;
  for (uint64_t i = 0; i < 200 && failures < 5; ++i) {
    const uint64_t seed = base * 1000033u + i;
    Rng rng(seed);
    em::Blocked b;
    unsigned dim = 0;
    bool cgaForm = false;
    em::CTALayout sliceCta;
    std::vector<int> sliceTileLogs;
    em::Shape shape, parentShape;
    do { // redrawn while the layout has too many hardware locations to enumerate quickly
      const std::size_t parentRank = std::size_t(rng.between(2, 4));
      std::vector<int> tileLogs;
      b = randomBlocked(rng, parentRank, tileLogs);
      b.cta = randomCta(rng, parentRank, true);
      cgaForm = rng.chance(40);
      dim = unsigned(rng.below(int(parentRank)));
      // The tensor: the parent's shape without `dim`.
      sliceCta = b.cta;
      sliceTileLogs = tileLogs;
      sliceTileLogs.erase(sliceTileLogs.begin() + dim);
      if (!sliceCta.CTAsPerCGA.empty()) {
        sliceCta.CTAsPerCGA.erase(sliceCta.CTAsPerCGA.begin() + dim);
        sliceCta.CTASplitNum.erase(sliceCta.CTASplitNum.begin() + dim);
        sliceCta.CTAOrder.clear(); // not used by randomShape / classify
      }
      shape = randomShape(rng, sliceTileLogs, sliceCta, 10);
      // The model enumerates the parent's locations (to find the registers the slice drops).
      parentShape = shape;
      parentShape.insert(parentShape.begin() + dim, 1);
    } while (locations(b, parentShape) > kMaxLocations);
    const std::string text =
        "#ttg.slice<{dim = " + std::to_string(dim) + ", parent = " + blockedText(b, cgaForm) + "}>";
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + text + " on shape " + list(shape));
    classify(cov, shape, sliceTileLogs, sliceCta);
    if (!b.cta.CTAsPerCGA.empty() && b.cta.CTAsPerCGA[dim] > 1) cov.add("CTAs along sliced dim");
    if (!compareDistributed(em::Slice{dim, b}, text, shape)) ++failures;
  }
  ::testing::Test::RecordProperty("coverage", cov.text());
  SCOPED_TRACE("coverage:" + cov.text());
  for (const char* what :
       {"rank1", "rank2", "rank3", "smaller than tile", "equal to tile", "larger than tile",
        "one CTA", "CTA split", "broadcast CTAs", "CTAs along sliced dim"})
    cov.expectAtLeast(what, 5);
}

// swizzled_shared (any CTA layout) or amd_rotating_shared (CTASplitNum all 1, as the model
// requires).
template <class Enc> void sharedSuite(const char* name, bool rotating, uint64_t salt, int cases) {
  Coverage cov;
  const uint64_t base = baseSeed();
  int failures = 0;
  for (uint64_t i = 0; i < uint64_t(cases) && failures < 5; ++i) {
    const uint64_t seed = base * salt + i;
    Rng rng(seed);
    const std::size_t rank = std::size_t(rng.between(1, 3));
    Enc enc;
    enc.vec = 1u << rng.between(0, 3);
    enc.perPhase = 1u << rng.between(0, 3);
    enc.maxPhase = 1u << rng.between(0, 3);
    enc.order = randomPermutation(rng, rank);
    enc.cta = randomCta(rng, rank, !rotating);
    const bool cgaForm = rng.chance(40);
    // Shapes of 1 to 64 per dim, at most 2^11 elements in all.
    std::vector<int> logs;
    for (std::size_t d = 0; d < rank; ++d) logs.push_back(rng.between(0, 6));
    em::Shape shape;
    int total = 0;
    for (int& l : logs) {
      l = std::min(l, 11 - total);
      total += l;
      shape.push_back(int64_t{1} << l);
    }
    const std::string text =
        sharedText(name, enc.vec, enc.perPhase, enc.maxPhase, enc.order, enc.cta, cgaForm);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + text + " on shape " + list(shape));
    if (rank >= 2) {
      const int64_t pieces =
          enc.cta.CTAsPerCGA.empty()
              ? 1
              : std::min<int64_t>(enc.cta.CTASplitNum[enc.order[0]], shape[enc.order[0]]);
      const int64_t cols = shape[enc.order[0]] / pieces;
      if (int64_t{enc.vec} * (enc.maxPhase - 1) >= cols && enc.maxPhase > 1)
        cov.add("xor wraps the columns");
      if (enc.vec > 1 && enc.maxPhase > 1) cov.add("vec > 1");
      if (enc.perPhase > 1 && enc.maxPhase > 1) cov.add("perPhase > 1");
    }
    std::vector<int> noTile(rank, 0);
    classify(cov, shape, noTile, enc.cta);
    if (!compareShared(enc, text, shape)) ++failures;
  }
  ::testing::Test::RecordProperty("coverage", cov.text());
  SCOPED_TRACE("coverage:" + cov.text());
  for (const char* what :
       {"rank1", "rank2", "rank3", "xor wraps the columns", "vec > 1", "perPhase > 1", "one CTA"})
    cov.expectAtLeast(what, 5);
  cov.expectAtLeast("broadcast CTAs", 5);
  if (!rotating) cov.expectAtLeast("CTA split", 5);
}

TEST(EncodingModel, SwizzledSharedElementsMatchLibrary) {
  sharedSuite<em::SwizzledShared>("swizzled_shared", false, 1000081u, 250);
}

TEST(EncodingModel, AmdRotatingSharedElementsMatchLibrary) {
  sharedSuite<em::AmdRotatingShared>("amd_rotating_shared", true, 1000099u, 250);
}

} // namespace
