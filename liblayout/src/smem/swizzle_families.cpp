// The parametric families swizzle synthesis compares its result with: Triton's swizzled_shared
// (vec / perPhase / maxPhase) and seed 004's swizzle unit / max phase, with why a member costs
// more than the synthesized layout.
#include "swizzle_families.h"

#include "layout/triton/encoding.h"
#include "layout/triton/encoding_params.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <sstream>

namespace layout::smem {

namespace {

int totalWavefronts(const BankReport& a, const BankReport& b) {
  return static_cast<int>(a.wavefronts + b.wavefronts);
}

// Distinct coordinates along `dim` that phase 0 of the first access touches (register 0, warp 0).
int rowsTouched(const LinearLayout& l, const BankInstruction& ins, int dim) {
  int outIdx = l.outDimIndex(dims::standardOut(dim));
  int laneIdx = l.inDimIndex(dims::lane());
  if (outIdx < 0 || laneIdx < 0 || ins.isMatrix()) return 1;
  std::vector<uint64_t> in(size_t(l.numInDims()), 0), out(size_t(l.numOutDims()), 0);
  std::vector<uint64_t> rows;
  for (int lane : ins.phases.front()) {
    in[laneIdx] = uint64_t(lane);
    l.apply(in, out);
    rows.push_back(out[outIdx]);
  }
  std::sort(rows.begin(), rows.end());
  return int(std::unique(rows.begin(), rows.end()) - rows.begin());
}

} // namespace

namespace detail {

// The row-XOR families on 2-D tiles: every (vec, perPhase, maxPhase) of Triton's swizzled_shared
// with the given order, and the member seed 004's rule picks.
void searchFamilies(const SwizzleRequest& req, const std::vector<int64_t>& shape,
                    SwizzleResult& res) {
  if (shape.size() != 2) return;
  auto evaluate = [&](int64_t vec, int64_t perPhase, int64_t maxPhase, int order0,
                      const std::string& family) -> std::optional<FamilyCandidate> {
    const triton::SwizzledSharedEncoding params{vec, perPhase, maxPhase, {order0, 1 - order0}, {}};
    auto enc = triton::toEncoding(params);
    if (!enc) return std::nullopt;
    const std::string& text = enc->canonical;
    auto shared = triton::toLinearLayoutUncached(*enc, shape);
    if (!shared) return std::nullopt;
    auto st = analyzeBanks(SharedAccess{req.store, *shared, req.elemBits, {}}, req.storeInstruction,
                           false);
    auto ld =
        analyzeBanks(SharedAccess{req.load, *shared, req.elemBits, {}}, req.loadInstruction, false);
    if (!st || !ld) return std::nullopt;
    FamilyCandidate c;
    c.family = family;
    c.order0 = order0;
    c.parameters =
        family != "triton.swizzled_shared"
            ? "swizzleUnit=" + std::to_string(vec) + ", maxPhase=" + std::to_string(maxPhase)
            : "vec=" + std::to_string(vec) + ", perPhase=" + std::to_string(perPhase) +
                  ", maxPhase=" + std::to_string(maxPhase) + ", order=[" + std::to_string(order0) +
                  "," + std::to_string(1 - order0) + "]";
    c.encoding = text;
    c.vec = int(vec);
    c.perPhase = int(perPhase);
    c.maxPhase = int(maxPhase);
    c.shared = std::move(*shared);
    c.store = std::move(*st);
    c.load = std::move(*ld);
    return c;
  };
  std::optional<FamilyCandidate> best;
  for (int order0 = 1; order0 >= 0; --order0) {
    int64_t cols = shape[order0], rows = shape[1 - order0];
    for (int64_t vec = 1; vec <= cols; vec *= 2)
      for (int64_t maxPhase = 1; vec * maxPhase <= cols; maxPhase *= 2)
        for (int64_t perPhase = 1; perPhase * maxPhase <= rows; perPhase *= 2) {
          if (maxPhase == 1 && perPhase > 1) continue; // all the same unswizzled layout
          auto c = evaluate(vec, perPhase, maxPhase, order0, "triton.swizzled_shared");
          if (!c) continue;
          if (!best ||
              totalWavefronts(c->store, c->load) < totalWavefronts(best->store, best->load))
            best = std::move(c);
        }
  }
  if (best) res.families.push_back(std::move(*best));
  // Seed 004's family (row-major, one row per phase): its best member, then the member its rule
  // picks: swizzle unit = the wider access, max phase = min(8, columns / unit).
  std::optional<FamilyCandidate> bestSeed;
  for (int64_t unit = 1; unit <= shape[1]; unit *= 2)
    for (int64_t maxPhase = 1; unit * maxPhase <= shape[1] && maxPhase <= shape[0]; maxPhase *= 2)
      if (auto c = evaluate(unit, 1, maxPhase, 1, "xor.unit-phase"))
        if (!bestSeed ||
            totalWavefronts(c->store, c->load) < totalWavefronts(bestSeed->store, bestSeed->load))
          bestSeed = std::move(c);
  if (bestSeed) res.families.push_back(std::move(*bestSeed));
  int64_t unit =
      std::min<int64_t>(shape[1], std::max(res.store.vectorElements, res.load.vectorElements));
  int64_t maxPhase = std::max<int64_t>(1, std::min<int64_t>(8, shape[1] / unit));
  maxPhase = std::min<int64_t>(maxPhase, shape[0]);
  if (auto c = evaluate(unit, 1, maxPhase, 1, "xor.unit-phase.rule"))
    res.families.push_back(std::move(*c));
}

void explainFamily(FamilyCandidate& c, const SwizzleResult& res, const SwizzleRequest& req) {
  const int rowDim = c.order0 == 1 ? 0 : 1;
  auto side = [&](const char* name, const BankReport& got, const BankReport& best,
                  const LinearLayout& layout) {
    if (got.wavefronts <= best.wavefronts) return;
    std::ostringstream os;
    os << name << ": " << got.maxWays() << "-way (" << got.wavefronts << " wavefronts; "
       << best.wavefronts << " with the synthesized layout)";
    c.explanation.push_back(os.str());
    // Seed 004's two exceptions, when they are what happens here.
    const BankInstruction& ins = got.instruction;
    if (c.vec > got.vectorElements)
      c.explanation.push_back(
          std::string("  the swizzle unit (") + std::to_string(c.vec) +
          " elements) is wider than the " + name + "'s access (" +
          std::to_string(got.vectorElements) +
          "): the XOR moves whole units, so lanes that split a unit keep their relative banks "
          "(seed 004, exception 1)");
    int64_t lineUnits =
        std::max<int64_t>(1, int64_t(ins.banks) * ins.bankBytes * 8 / req.elemBits / c.vec);
    int64_t slots = std::min<int64_t>(c.maxPhase, lineUnits);
    int rows = rowsTouched(layout, ins, rowDim);
    if (rows > slots)
      c.explanation.push_back(std::string("  a ") + name + " phase touches " +
                              std::to_string(rows) +
                              " rows, but the XOR spreads rows over at most " +
                              std::to_string(slots) + " unit positions of a bank line (maxPhase " +
                              std::to_string(c.maxPhase) + ", " + std::to_string(lineUnits) +
                              " units per line): rows beyond that share banks (seed 004, "
                              "exception 2)");
  };
  side("store", c.store, res.store, req.store);
  side("load", c.load, res.load, req.load);
  if (c.explanation.empty())
    c.explanation.push_back("as good as the synthesized layout on both sides");
  else
    c.explanation.push_back(
        "the synthesized layout XORs other offset bits as well and avoids this");
}

} // namespace detail

Expected<LinearLayout> xorSwizzleShared(std::span<const int64_t> shape, int swizzleUnit,
                                        int maxPhase) {
  if (shape.size() != 2)
    return makeError("shape: the seed 004 swizzle works on 2-D tiles [rows, cols], got rank " +
                     std::to_string(shape.size()));
  for (size_t i = 0; i < 2; ++i)
    if (shape[i] < 1 || !std::has_single_bit(uint64_t(shape[i])))
      return makeError("shape[" + std::to_string(i) + "]: " + std::to_string(shape[i]) +
                       " is not a power of two");
  if (swizzleUnit < 1 || !std::has_single_bit(unsigned(swizzleUnit)) || swizzleUnit > shape[1])
    return makeError("swizzleUnit: " + std::to_string(swizzleUnit) +
                     " must be a power of two of at most the " + std::to_string(shape[1]) +
                     " columns");
  if (maxPhase < 1 || !std::has_single_bit(unsigned(maxPhase)) || maxPhase > shape[1] / swizzleUnit)
    return makeError("maxPhase: " + std::to_string(maxPhase) +
                     " must be a power of two of at most columns / swizzleUnit = " +
                     std::to_string(shape[1] / swizzleUnit) + " (no chunk may leave its row)");
  auto enc =
      triton::toEncoding(triton::SwizzledSharedEncoding{swizzleUnit, 1, maxPhase, {1, 0}, {}});
  if (!enc) return enc.error();
  return triton::toLinearLayout(*enc, shape);
}

Expected<LinearLayout> rowMajorShared(std::span<const int64_t> shape) {
  if (shape.empty()) return makeError("shape: empty");
  std::vector<int64_t> order;
  for (size_t i = shape.size(); i-- > 0;) order.push_back(int64_t(i));
  auto enc = triton::toEncoding(triton::SwizzledSharedEncoding{1, 1, 1, order, {}});
  if (!enc) return enc.error();
  return triton::toLinearLayout(*enc, shape);
}

} // namespace layout::smem
