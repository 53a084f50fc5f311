// Element-by-element models of the TritonGPU encodings; see encoding_models.h for the seed
// sentences each one implements. Plain loops over tensor positions, no bases, no matrices.
#include "encoding_models.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <tuple>

namespace encoding_model {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("encoding_model: " + what);
}

bool isPow2(int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

void requirePow2(const Dims& v, const char* what) {
  for (unsigned x : v)
    if (!isPow2(x)) fail(std::string(what) + " entries must be powers of two");
}

void requireRank(const Dims& v, std::size_t rank, const char* what) {
  if (v.size() != rank) fail(std::string(what) + " has the wrong rank");
}

void requirePermutation(const Dims& order, std::size_t rank, const char* what) {
  requireRank(order, rank, what);
  std::vector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d]) fail(std::string(what) + " is not a permutation");
    seen[d] = true;
  }
}

int64_t product(const Shape& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

int64_t product(const Dims& v) {
  int64_t p = 1;
  for (unsigned x : v) p *= x;
  return p;
}

// c linearised over `sizes`, order[0] fastest.
int64_t linearize(const Coord& c, const Shape& sizes, const Dims& order) {
  int64_t idx = 0, mult = 1;
  for (unsigned d : order) {
    idx += c[d] * mult;
    mult *= sizes[d];
  }
  return idx;
}

Coord delinearize(int64_t idx, const Shape& sizes, const Dims& order) {
  Coord c(sizes.size(), 0);
  for (unsigned d : order) {
    c[d] = idx % sizes[d];
    idx /= sizes[d];
  }
  return c;
}

Shape toShape(const Dims& v) {
  return Shape(v.begin(), v.end());
}

Dims rowMajor(std::size_t rank) {
  Dims o;
  for (std::size_t i = rank; i-- > 0;) o.push_back(static_cast<unsigned>(i));
  return o;
}

void checkShape(const Shape& shape, std::size_t rank) {
  if (shape.size() != rank) fail("tensor shape has the wrong rank");
  for (int64_t s : shape)
    if (!isPow2(s)) fail("tensor shape entries must be powers of two");
}

// ---- CTAs ---------------------------------------------------------------------------------------
struct Cta {
  Shape ctas;   // CTAsPerCGA
  Shape split;  // CTASplitNum
  Dims order;   // CTAOrder
  Shape pieces; // min(split, shape): distinct pieces of the tensor along each dim
  Shape perCta; // shape / pieces
};

Cta makeCta(const CTALayout& l, const Shape& shape) {
  const std::size_t rank = shape.size();
  Cta c;
  if (l.CTAsPerCGA.empty() && l.CTASplitNum.empty() && l.CTAOrder.empty()) {
    c.ctas.assign(rank, 1);
    c.split.assign(rank, 1);
    c.order = rowMajor(rank);
  } else {
    requireRank(l.CTAsPerCGA, rank, "CTAsPerCGA");
    requireRank(l.CTASplitNum, rank, "CTASplitNum");
    requirePermutation(l.CTAOrder, rank, "CTAOrder");
    requirePow2(l.CTAsPerCGA, "CTAsPerCGA");
    requirePow2(l.CTASplitNum, "CTASplitNum");
    for (std::size_t d = 0; d < rank; ++d)
      if (l.CTASplitNum[d] > l.CTAsPerCGA[d]) fail("CTASplitNum exceeds CTAsPerCGA");
    c.ctas = toShape(l.CTAsPerCGA);
    c.split = toShape(l.CTASplitNum);
    c.order = l.CTAOrder;
  }
  for (std::size_t d = 0; d < rank; ++d) {
    c.pieces.push_back(std::min(c.split[d], shape[d]));
    c.perCta.push_back(shape[d] / c.pieces.back());
  }
  return c;
}

// Block ids of the CTAs that hold the piece with index `piece` (per dim).
std::vector<int64_t> blocksHolding(const Cta& c, const Coord& piece) {
  std::vector<int64_t> out;
  const int64_t n = product(c.ctas);
  for (int64_t b = 0; b < n; ++b) {
    Coord cc = delinearize(b, c.ctas, c.order);
    bool match = true;
    for (std::size_t d = 0; d < cc.size(); ++d)
      if (cc[d] % c.pieces[d] != piece[d]) match = false;
    if (match) out.push_back(b);
  }
  return out;
}

// ---- Distributed: one rep of one CTA ------------------------------------------------------------
// `tile` is the extent one rep of a CTA covers per dim; place() says who holds tile position `pos`
// in rep `rep` (of `reps` per dim). The block is filled in by the caller.
struct Tile {
  Shape tile;
  std::vector<bool> fullShapeReps; // per dim: reps counted over the whole tensor (empty: none)
  int64_t lanes = 1;
  int64_t warps = 1;
  int64_t regsPerRep = 1;
  std::function<Owner(const Coord& pos, const Coord& rep, const Coord& reps)> place;
};

Tile makeTile(const Blocked& b, std::size_t rank) {
  requireRank(b.sizePerThread, rank, "sizePerThread");
  requireRank(b.threadsPerWarp, rank, "threadsPerWarp");
  requireRank(b.warpsPerCTA, rank, "warpsPerCTA");
  requirePermutation(b.order, rank, "order");
  requirePow2(b.sizePerThread, "sizePerThread");
  requirePow2(b.threadsPerWarp, "threadsPerWarp");
  requirePow2(b.warpsPerCTA, "warpsPerCTA");
  Tile t;
  for (std::size_t d = 0; d < rank; ++d)
    t.tile.push_back(int64_t{b.sizePerThread[d]} * b.threadsPerWarp[d] * b.warpsPerCTA[d]);
  t.lanes = product(b.threadsPerWarp);
  t.warps = product(b.warpsPerCTA);
  t.regsPerRep = product(b.sizePerThread);
  const Shape spt = toShape(b.sizePerThread), tpw = toShape(b.threadsPerWarp),
              wpc = toShape(b.warpsPerCTA);
  const Dims order = b.order;
  t.place = [=](const Coord& pos, const Coord& rep, const Coord& reps) {
    const std::size_t r = pos.size();
    Coord s(r), l(r), w(r);
    for (std::size_t d = 0; d < r; ++d) {
      s[d] = pos[d] % spt[d];            // element within the thread's sizePerThread block
      l[d] = (pos[d] / spt[d]) % tpw[d]; // lane coordinate
      w[d] = pos[d] / (spt[d] * tpw[d]); // warp coordinate
    }
    Owner o;
    o.reg = linearize(s, spt, order) + product(spt) * linearize(rep, reps, order);
    o.lane = linearize(l, tpw, order);
    o.warp = linearize(w, wpc, order);
    return o;
  };
  return t;
}

Tile makeTile(const NvidiaMma& m, std::size_t rank) {
  if (rank != 2 && rank != 3) fail("nvidia_mma needs rank 2 or 3");
  requireRank(m.warpsPerCTA, rank, "warpsPerCTA");
  requireRank(m.instrShape, rank, "instrShape");
  requirePow2(m.warpsPerCTA, "warpsPerCTA");
  requirePow2(m.instrShape, "instrShape");
  const std::size_t M = rank - 2, N = rank - 1;
  if (m.instrShape[M] < 8 || m.instrShape[N] < 8) fail("nvidia_mma instrShape must be >= 8");
  if (rank == 3 && m.instrShape[0] != 1) fail("nvidia_mma batch instrShape must be 1");
  Tile t;
  for (std::size_t d = 0; d < rank; ++d)
    t.tile.push_back(int64_t{m.instrShape[d]} * m.warpsPerCTA[d]);
  t.lanes = 32;
  t.warps = product(m.warpsPerCTA);
  const int64_t im = m.instrShape[M], in = m.instrShape[N];
  t.regsPerRep = 2 * (im / 8) * (in / 8);
  const Shape instr = toShape(m.instrShape), wpc = toShape(m.warpsPerCTA);
  const Dims rm = rowMajor(rank);
  const int64_t regsPerRep = t.regsPerRep;
  t.place = [=](const Coord& pos, const Coord& rep, const Coord& reps) {
    const int64_t row = pos[M] % im, col = pos[N] % in;
    Coord w(pos.size());
    for (std::size_t d = 0; d < pos.size(); ++d) w[d] = pos[d] / instr[d];
    Owner o;
    // mma.16816 FP32 accumulator: groupID = lane / 4 is the row, lane % 4 picks a column pair;
    // c0, c1 in rows 0-7 and c2, c3 eight rows lower (then further 8x8 blocks).
    o.lane = (row % 8) * 4 + (col / 2) % 4;
    o.reg =
        col % 2 + 2 * (row / 8) + 2 * (im / 8) * (col / 8) + regsPerRep * linearize(rep, reps, rm);
    o.warp = linearize(w, wpc, rm);
    return o;
  };
  return t;
}

Tile makeTile(const AmdMfma& m, std::size_t rank) {
  if (rank != 2 && rank != 3) fail("amd_mfma needs rank 2 or 3");
  requireRank(m.warpsPerCTA, rank, "warpsPerCTA");
  requirePow2(m.warpsPerCTA, "warpsPerCTA");
  Dims tpw = m.tilesPerWarp.empty() ? Dims(rank, 1) : m.tilesPerWarp;
  requireRank(tpw, rank, "tilesPerWarp");
  requirePow2(tpw, "tilesPerWarp");
  if (m.MDim != m.NDim || (m.MDim != 32 && m.MDim != 16))
    fail("amd_mfma needs MDim == NDim, 16 or 32");
  const std::size_t M = rank - 2, N = rank - 1;
  if (rank == 3 && tpw[0] != 1) fail("amd_mfma batch tilesPerWarp must be 1");
  const int64_t D = m.MDim;                  // tile edge
  const int64_t K = 64 / D;                  // lane groups stacked along the register dim
  const int64_t perLane = 4 * (D / (4 * K)); // registers per tile: 16 (32x32) or 4 (16x16)
  const int64_t WM = m.warpsPerCTA[M], WN = m.warpsPerCTA[N];
  const int64_t TM = tpw[M], TN = tpw[N];
  Tile t;
  t.tile.assign(rank, 1);
  t.tile[M] = D * TM * WM;
  t.tile[N] = D * TN * WN;
  if (rank == 3) t.tile[0] = m.warpsPerCTA[0];
  t.lanes = 64;
  t.warps = product(m.warpsPerCTA);
  t.regsPerRep = perLane * TM * TN;
  t.fullShapeReps.assign(rank, false);
  t.fullShapeReps[N] = m.nRepsOverWholeTensor;
  const bool transposed = m.isTransposed;
  t.place = [=](const Coord& pos, const Coord& rep, const Coord& reps) {
    const int64_t mIn = pos[M] % D, nIn = pos[N] % D;
    const int64_t tm = pos[M] / D, tn = pos[N] / D; // tile index within the rep
    const int64_t tileM = tm % TM, wm = tm / TM, tileN = tn % TN, wn = tn / TN;
    const int64_t wb = pos.size() == 3 ? pos[0] : 0;
    // Inside a tile: 4 consecutive rows per lane, D lanes across the columns, the K lane groups
    // below each other, then the next 4*K rows in the next registers. Transposed: swap roles.
    const int64_t a = transposed ? nIn : mIn; // register direction
    const int64_t b = transposed ? mIn : nIn; // lane direction
    Owner o;
    o.lane = b + D * ((a / 4) % K);
    const int64_t local = a % 4 + 4 * (a / (4 * K));
    const int64_t repB = pos.size() == 3 ? rep[0] : 0;
    o.reg = local +
            perLane * (tileN + TN * (rep[N] + reps[N] * (tileM + TM * (rep[M] + reps[M] * repB))));
    o.warp = wn + WN * (wm + WM * wb);
    return o;
  };
  return t;
}

Tile makeTile(const AmdWmma& w, std::size_t rank) {
  if (rank != 2 && rank != 3) fail("amd_wmma needs rank 2 or 3");
  if (w.version != 1 && w.version != 2) fail("amd_wmma version must be 1 or 2");
  requireRank(w.warpsPerCTA, rank, "warpsPerCTA");
  requirePow2(w.warpsPerCTA, "warpsPerCTA");
  const std::size_t M = rank - 2, N = rank - 1;
  Tile t;
  t.tile.assign(rank, 1);
  t.tile[M] = 16 * int64_t{w.warpsPerCTA[M]};
  t.tile[N] = 16 * int64_t{w.warpsPerCTA[N]};
  if (rank == 3) t.tile[0] = w.warpsPerCTA[0];
  t.lanes = 32;
  t.warps = product(w.warpsPerCTA);
  t.regsPerRep = 8;
  t.fullShapeReps.assign(rank, false);
  t.fullShapeReps[N] = w.nRepsOverWholeTensor;
  const Shape wpc = toShape(w.warpsPerCTA);
  const Dims rm = rowMajor(rank);
  const bool transposed = w.isTransposed;
  const unsigned version = w.version;
  t.place = [=](const Coord& pos, const Coord& rep, const Coord& reps) {
    const int64_t mIn = pos[M] % 16, nIn = pos[N] % 16;
    const int64_t a = transposed ? nIn : mIn; // register direction
    const int64_t b = transposed ? mIn : nIn; // lane direction
    Coord wc(pos.size());
    for (std::size_t d = 0; d < pos.size(); ++d) wc[d] = d == M || d == N ? pos[d] / 16 : pos[d];
    Owner o;
    if (version == 1) { // even rows: lanes 0-15, odd rows: lanes 16-31
      o.lane = b + 16 * (a % 2);
      o.reg = a / 2;
    } else { // rows 0-7: lanes 0-15, rows 8-15: lanes 16-31
      o.lane = b + 16 * (a / 8);
      o.reg = a % 8;
    }
    o.reg += 8 * linearize(rep, reps, rm);
    o.warp = linearize(wc, wpc, rm);
    return o;
  };
  return t;
}

// Number of reps along dim d: the per-CTA piece divided by the tile, or, where the encoding
// counts its reps over the whole tensor, the whole tensor divided by the tile (at least 1).
int64_t repCount(const Tile& t, std::size_t d, int64_t perCta, int64_t whole) {
  const bool full = !t.fullShapeReps.empty() && t.fullShapeReps[d];
  return std::max<int64_t>(1, (full ? whole : perCta) / t.tile[d]);
}

// Wrap / broadcast of one dim. The layout spans extent = tile * reps along the dim (at least the
// per-CTA piece). Wrap around: per-CTA index x sits at tile position x % tile of rep x / tile.
// Broadcast: every q < extent with q % perCta == x holds it (tile position q % tile, rep
// q / tile); this also covers reps beyond the piece when reps are counted over the whole tensor.
struct DimPlacement {
  std::vector<std::pair<int64_t, int64_t>> posRep;
  int64_t reps = 1;
};

DimPlacement placeDim(int64_t x, int64_t perCta, int64_t tile, int64_t reps) {
  DimPlacement p;
  p.reps = reps;
  for (int64_t q = x; q < tile * reps; q += perCta) p.posRep.push_back({q % tile, q / tile});
  return p;
}

std::vector<Owner> tileOwners(const Tile& t, const Shape& shape, const CTALayout& ctaLayout,
                              const Coord& element) {
  const std::size_t rank = shape.size();
  if (element.size() != rank) fail("element has the wrong rank");
  for (std::size_t d = 0; d < rank; ++d)
    if (element[d] < 0 || element[d] >= shape[d]) fail("element outside the tensor");
  const Cta cta = makeCta(ctaLayout, shape);
  Coord piece(rank), reps(rank);
  std::vector<DimPlacement> dims;
  for (std::size_t d = 0; d < rank; ++d) {
    piece[d] = element[d] / cta.perCta[d];
    reps[d] = repCount(t, d, cta.perCta[d], shape[d]);
    dims.push_back(placeDim(element[d] % cta.perCta[d], cta.perCta[d], t.tile[d], reps[d]));
  }
  const std::vector<int64_t> blocks = blocksHolding(cta, piece);
  std::vector<Owner> out;
  // Cartesian product of the per-dim (position, rep) choices.
  std::vector<std::size_t> pick(rank, 0);
  while (true) {
    Coord pos(rank), rep(rank);
    for (std::size_t d = 0; d < rank; ++d) std::tie(pos[d], rep[d]) = dims[d].posRep[pick[d]];
    Owner o = t.place(pos, rep, reps);
    for (int64_t b : blocks) {
      o.block = b;
      out.push_back(o);
    }
    std::size_t d = 0;
    while (d < rank && ++pick[d] == dims[d].posRep.size()) pick[d++] = 0;
    if (d == rank) break;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

HardwareSize tileHardwareSize(const Tile& t, const Shape& shape, const CTALayout& ctaLayout) {
  const Cta cta = makeCta(ctaLayout, shape);
  HardwareSize h;
  h.blocks = product(cta.ctas);
  h.warps = t.warps;
  h.lanes = t.lanes;
  h.registers = t.regsPerRep;
  for (std::size_t d = 0; d < shape.size(); ++d)
    h.registers *= repCount(t, d, cta.perCta[d], shape[d]);
  return h;
}

std::size_t rankOf(const SliceParent& p) {
  return std::visit(
      [](const auto& e) -> std::size_t {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, Blocked>)
          return e.order.size();
        else
          return e.warpsPerCTA.size();
      },
      p);
}

Tile tileOf(const SliceParent& p, std::size_t rank) {
  return std::visit([&](const auto& e) { return makeTile(e, rank); }, p);
}

const CTALayout& ctaOf(const SliceParent& p) {
  return std::visit([](const auto& e) -> const CTALayout& { return e.cta; }, p);
}

// ---- Slice --------------------------------------------------------------------------------------
Shape sliceParentShape(const Slice& s, const Shape& shape) {
  const std::size_t prank = rankOf(s.parent);
  if (shape.size() + 1 != prank) fail("slice: tensor rank must be the parent's rank - 1");
  if (s.dim >= prank) fail("slice: dim out of range");
  Shape ps = shape;
  ps.insert(ps.begin() + s.dim, 1);
  return ps;
}

Coord sliceParentCoord(const Slice& s, const Coord& c) {
  Coord pc = c;
  pc.insert(pc.begin() + s.dim, 0);
  return pc;
}

std::vector<Coord> tileHardwareTable(const Tile& t, const Shape& shape, const CTALayout& cta);

// Register bits that never change the element a thread holds in the parent: the slice drops them.
int64_t sliceDroppedRegisterBits(const Slice& s, const Shape& parentShape) {
  const Tile t = tileOf(s.parent, parentShape.size());
  const HardwareSize h = tileHardwareSize(t, parentShape, ctaOf(s.parent));
  const std::vector<Coord> hw = tileHardwareTable(t, parentShape, ctaOf(s.parent));
  int64_t mask = 0;
  for (int64_t bit = 1; bit < h.registers; bit <<= 1) {
    bool dup = true;
    for (std::size_t i = 0; i < hw.size() && dup; ++i)
      if ((static_cast<int64_t>(i) % h.registers & bit) == 0 && hw[i] != hw[i + bit]) dup = false;
    if (dup) mask |= bit;
  }
  return mask;
}

int64_t dropBits(int64_t v, int64_t mask) {
  int64_t out = 0, outBit = 1;
  for (int64_t bit = 1; bit <= v; bit <<= 1) {
    if (mask & bit) continue;
    if (v & bit) out |= outBit;
    outBit <<= 1;
  }
  return out;
}

int popcount(int64_t v) {
  int n = 0;
  for (; v; v &= v - 1) ++n;
  return n;
}

std::vector<Owner> sliceOwners(const Slice& s, const Shape& shape, const Coord& element,
                               int64_t droppedMask) {
  const Shape ps = sliceParentShape(s, shape);
  std::vector<Owner> out =
      tileOwners(tileOf(s.parent, ps.size()), ps, ctaOf(s.parent), sliceParentCoord(s, element));
  for (Owner& o : out) o.reg = dropBits(o.reg, droppedMask);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void checkElement(const Shape& shape, const Coord& c) {
  if (c.size() != shape.size()) fail("element has the wrong rank");
  for (std::size_t d = 0; d < c.size(); ++d)
    if (c[d] < 0 || c[d] >= shape[d]) fail("element outside the tensor");
}

std::vector<Coord> tableFromOwners(const std::vector<std::vector<Owner>>& table,
                                   const HardwareSize& h, const Shape& shape) {
  const int64_t n = h.blocks * h.warps * h.lanes * h.registers;
  std::vector<Coord> hw(static_cast<std::size_t>(n));
  for (std::size_t e = 0; e < table.size(); ++e) {
    for (const Owner& o : table[e]) {
      if (o.block >= h.blocks || o.warp >= h.warps || o.lane >= h.lanes || o.reg >= h.registers)
        throw std::logic_error("encoding_model: owner outside the hardware size");
      const int64_t i = ((o.block * h.warps + o.warp) * h.lanes + o.lane) * h.registers + o.reg;
      Coord& slot = hw[static_cast<std::size_t>(i)];
      if (!slot.empty()) throw std::logic_error("encoding_model: two elements in one location");
      slot = unflatIndex(shape, static_cast<int64_t>(e));
    }
  }
  for (const Coord& c : hw)
    if (c.empty()) throw std::logic_error("encoding_model: a hardware location holds nothing");
  return hw;
}

std::vector<Coord> tileHardwareTable(const Tile& t, const Shape& shape, const CTALayout& cta) {
  std::vector<std::vector<Owner>> table;
  const int64_t n = product(shape);
  for (int64_t e = 0; e < n; ++e) table.push_back(tileOwners(t, shape, cta, unflatIndex(shape, e)));
  return tableFromOwners(table, tileHardwareSize(t, shape, cta), shape);
}

// ---- Shared -------------------------------------------------------------------------------------
template <class Enc>
Coord swizzledElement(const Enc& enc, const Shape& shape, int64_t offset, int64_t block,
                      bool rotating) {
  const std::size_t rank = shape.size();
  if (rank == 0) fail("shared encodings need rank >= 1");
  checkShape(shape, rank);
  requirePermutation(enc.order, rank, "order");
  if (!isPow2(enc.vec) || !isPow2(enc.perPhase) || !isPow2(enc.maxPhase))
    fail("vec, perPhase and maxPhase must be powers of two");
  const Cta cta = makeCta(enc.cta, shape);
  if (rotating)
    for (int64_t s : cta.split)
      if (s != 1) fail("amd_rotating_shared: CTASplitNum must be all 1");
  if (offset < 0 || offset >= product(cta.perCta)) fail("offset outside the block");
  if (block < 0 || block >= product(cta.ctas)) fail("block out of range");
  // Offsets enumerate the CTA's piece in `order`, order[0] fastest.
  Coord local = delinearize(offset, cta.perCta, enc.order);
  if (rank >= 2) {
    const unsigned col = enc.order[0], row = enc.order[1];
    const int64_t r = local[row];
    int64_t phase = (r / enc.perPhase) % enc.maxPhase;
    if (rotating) phase ^= (r / (int64_t{enc.perPhase} * enc.maxPhase)) % enc.maxPhase;
    local[col] ^= (int64_t{enc.vec} * phase) % cta.perCta[col];
  }
  const Coord cc = delinearize(block, cta.ctas, cta.order);
  Coord out(rank);
  for (std::size_t d = 0; d < rank; ++d)
    out[d] = (cc[d] % cta.pieces[d]) * cta.perCta[d] + local[d];
  return out;
}

template <class Enc> std::vector<Coord> sharedTableOf(const Enc& enc, const Shape& shape) {
  const int64_t per = offsetsPerBlock(shape, enc.cta), blocks = numBlocks(enc.cta, shape.size());
  std::vector<Coord> out;
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t o = 0; o < per; ++o) out.push_back(elementAtOffset(enc, shape, o, b));
  return out;
}

int64_t paddedLocation(const PaddedShared& enc, int64_t i) {
  int64_t loc = i;
  for (auto [interval, pad] : enc.intervalPads) loc += (i / interval) * pad;
  return loc;
}

void checkPadded(const PaddedShared& enc, const Shape& shape) {
  checkShape(shape, shape.size());
  requirePermutation(enc.order, shape.size(), "order");
  if (enc.intervalPads.empty()) fail("padded_shared needs at least one interval:pad pair");
  for (auto [interval, pad] : enc.intervalPads)
    if (!isPow2(interval) || !isPow2(pad))
      fail("padded_shared intervals and pads are powers of two");
}

} // namespace

// ---- Public -------------------------------------------------------------------------------------
int64_t flatIndex(const Shape& shape, const Coord& c) {
  return linearize(c, shape, rowMajor(shape.size()));
}

Coord unflatIndex(const Shape& shape, int64_t flat) {
  return delinearize(flat, shape, rowMajor(shape.size()));
}

int64_t lanesPerWarp(const Distributed& enc) {
  return std::visit(
      [](const auto& e) -> int64_t {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, Blocked>)
          return product(e.threadsPerWarp);
        else if constexpr (std::is_same_v<T, NvidiaMma>)
          return 32;
        else if constexpr (std::is_same_v<T, AmdMfma>)
          return 64;
        else if constexpr (std::is_same_v<T, AmdWmma>)
          return 32;
        else
          return lanesPerWarp(std::visit([](const auto& p) { return Distributed(p); }, e.parent));
      },
      enc);
}

HardwareSize hardwareSize(const Distributed& enc, const Shape& shape) {
  if (const Slice* s = std::get_if<Slice>(&enc)) {
    const Shape ps = sliceParentShape(*s, shape);
    checkShape(ps, ps.size());
    HardwareSize h = tileHardwareSize(tileOf(s->parent, ps.size()), ps, ctaOf(s->parent));
    h.registers >>= popcount(sliceDroppedRegisterBits(*s, ps));
    return h;
  }
  checkShape(shape, shape.size());
  return std::visit(
      [&](const auto& e) -> HardwareSize {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, Slice>)
          return {};
        else
          return tileHardwareSize(makeTile(e, shape.size()), shape, e.cta);
      },
      enc);
}

std::vector<Owner> owners(const Distributed& enc, const Shape& shape, const Coord& element) {
  checkElement(shape, element);
  if (const Slice* s = std::get_if<Slice>(&enc)) {
    const Shape ps = sliceParentShape(*s, shape);
    checkShape(ps, ps.size());
    return sliceOwners(*s, shape, element, sliceDroppedRegisterBits(*s, ps));
  }
  checkShape(shape, shape.size());
  return std::visit(
      [&](const auto& e) -> std::vector<Owner> {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, Slice>)
          return {};
        else
          return tileOwners(makeTile(e, shape.size()), shape, e.cta, element);
      },
      enc);
}

std::vector<std::vector<Owner>> ownerTable(const Distributed& enc, const Shape& shape) {
  std::vector<std::vector<Owner>> table;
  const int64_t n = product(shape);
  if (const Slice* s = std::get_if<Slice>(&enc)) {
    const Shape ps = sliceParentShape(*s, shape);
    checkShape(ps, ps.size());
    const int64_t mask = sliceDroppedRegisterBits(*s, ps);
    for (int64_t e = 0; e < n; ++e)
      table.push_back(sliceOwners(*s, shape, unflatIndex(shape, e), mask));
    return table;
  }
  for (int64_t e = 0; e < n; ++e) table.push_back(owners(enc, shape, unflatIndex(shape, e)));
  return table;
}

std::vector<Coord> hardwareTable(const Distributed& enc, const Shape& shape) {
  return tableFromOwners(ownerTable(enc, shape), hardwareSize(enc, shape), shape);
}

int64_t offsetsPerBlock(const Shape& shape, const CTALayout& cta) {
  return product(makeCta(cta, shape).perCta);
}

int64_t numBlocks(const CTALayout& cta, std::size_t rank) {
  return product(makeCta(cta, Shape(rank, 1)).ctas);
}

Coord elementAtOffset(const SwizzledShared& enc, const Shape& shape, int64_t offset,
                      int64_t block) {
  return swizzledElement(enc, shape, offset, block, false);
}

Coord elementAtOffset(const AmdRotatingShared& enc, const Shape& shape, int64_t offset,
                      int64_t block) {
  return swizzledElement(enc, shape, offset, block, true);
}

std::vector<Coord> sharedTable(const SwizzledShared& enc, const Shape& shape) {
  return sharedTableOf(enc, shape);
}

std::vector<Coord> sharedTable(const AmdRotatingShared& enc, const Shape& shape) {
  return sharedTableOf(enc, shape);
}

int64_t paddedOffset(const PaddedShared& enc, const Shape& shape, const Coord& element) {
  checkPadded(enc, shape);
  checkElement(shape, element);
  return paddedLocation(enc, linearize(element, shape, enc.order));
}

std::optional<Coord> elementAtPaddedOffset(const PaddedShared& enc, const Shape& shape,
                                           int64_t location) {
  checkPadded(enc, shape);
  // Locations grow with the element index, so walk until we reach or pass `location`.
  const int64_t n = product(shape);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t loc = paddedLocation(enc, i);
    if (loc == location) return delinearize(i, shape, enc.order);
    if (loc > location) break;
  }
  return std::nullopt;
}

} // namespace encoding_model
