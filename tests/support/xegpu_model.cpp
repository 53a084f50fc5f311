// See xegpu_model.h for the rules and the sentences of the specification they come from.
#include "support/xegpu_model.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace xegpu_model {

namespace {

[[noreturn]] void fail(const std::string& message) {
  throw std::invalid_argument("xegpu_model: " + message);
}

std::string listText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

int64_t product(std::span<const int64_t> v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

// All multi-indices of `extent`, row-major (last dim fastest), like StaticTileOffsetRange with unit
// tiles. An empty extent has one (empty) index.
std::vector<Coord> rowMajor(std::span<const int64_t> extent) {
  std::vector<Coord> out;
  int64_t n = product(extent);
  if (n <= 0) return out;
  out.reserve(size_t(n));
  Coord c(extent.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    out.push_back(c);
    for (size_t d = extent.size(); d-- > 0;) {
      if (++c[d] < extent[d]) break;
      c[d] = 0;
    }
  }
  return out;
}

// ---- Parser -------------------------------------------------------------------------------------
struct Parser {
  std::string_view s;
  size_t i = 0;

  void ws() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  bool eat(std::string_view t) {
    ws();
    if (s.substr(i, t.size()) != t) return false;
    i += t.size();
    return true;
  }
  void expect(std::string_view t) {
    if (!eat(t))
      fail("expected '" + std::string(t) + "' at offset " + std::to_string(i) + " of '" +
           std::string(s) + "'");
  }
  bool peek(char c) {
    ws();
    return i < s.size() && s[i] == c;
  }
  std::string ident() {
    ws();
    size_t b = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
    if (b == i)
      fail("expected a name at offset " + std::to_string(i) + " of '" + std::string(s) + "'");
    return std::string(s.substr(b, i - b));
  }
  int64_t integer() {
    ws();
    size_t b = i;
    if (i < s.size() && s[i] == '-') ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (b == i || (i == b + 1 && s[b] == '-'))
      fail("expected an integer at offset " + std::to_string(b) + " of '" + std::string(s) + "'");
    return std::stoll(std::string(s.substr(b, i - b)));
  }
  std::vector<int64_t> list() {
    expect("[");
    std::vector<int64_t> v;
    if (eat("]")) return v;
    do v.push_back(integer());
    while (eat(","));
    expect("]");
    return v;
  }

  Params attr() {
    expect("#xegpu.");
    std::string kind = ident();
    if (kind == "slice") {
      expect("<");
      Params p = attr();
      expect(",");
      if (eat("dims")) expect("=");
      std::vector<int64_t> dims = peek('[') ? list() : std::vector<int64_t>{integer()};
      expect(">");
      p.sliceDims.push_back(dims);
      return p;
    }
    if (kind != "layout" && kind != "sg_map") fail("unknown attribute #xegpu." + kind);
    Params p;
    p.isSgMap = kind == "sg_map";
    std::vector<std::string> seen;
    expect("<");
    if (eat(">")) return p;
    do {
      std::string key = ident();
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) fail("repeated field " + key);
      seen.push_back(key);
      expect("=");
      std::vector<int64_t> v = list();
      if (v.empty()) fail("empty field " + key);
      if (kind == "sg_map") {
        if (key == "wi_layout")
          p.laneLayout = v;
        else if (key == "wi_data")
          p.laneData = v;
        else
          fail("unknown sg_map field " + key);
        continue;
      }
      if (key == "sg_layout")
        p.sgLayout = v;
      else if (key == "sg_data")
        p.sgData = v;
      else if (key == "inst_data")
        p.instData = v;
      else if (key == "lane_layout")
        p.laneLayout = v;
      else if (key == "lane_data")
        p.laneData = v;
      else if (key == "order")
        p.order = v;
      else
        fail("unknown layout field " + key);
    } while (eat(","));
    expect(">");
    return p;
  }
};

// ---- Distributability helpers (ref §1.3) --------------------------------------------------------

bool allDivide(std::span<const int64_t> a, std::span<const int64_t> b) { // a % b == 0 everywhere
  for (size_t k = 0; k < a.size(); ++k)
    if (b[k] <= 0 || a[k] % b[k] != 0) return false;
  return true;
}

// "tryDistribute(shape, layout, data, rr) returning the next shape", with ref §1.3's divisibility
// "in all dims" at once (upstream's computeShapeRatio over the whole shape). Seed 001's own
// [128, 128] / sg_layout [2, 2] / sg_data [32, 128] table fails it (round-robin on dim 0,
// broadcast on dim 1); its coordinates still follow from the §3 formulas per dim.
std::optional<Shape> tryDistribute(const Shape& shape, const std::vector<int64_t>& layout,
                                   const std::vector<int64_t>& data, bool rr, std::string* why,
                                   const char* stage) {
  Shape next = shape;
  if (!layout.empty()) {
    // "need |layout| = rank. If shape % layout == 0 in all dims, shape := shape / layout; else if
    // rr and layout % shape == 0, keep shape unchanged ...; else FAIL."
    if (layout.size() != shape.size()) {
      if (why) *why = std::string(stage) + ": layout rank differs from the shape rank";
      return std::nullopt;
    }
    if (allDivide(shape, layout)) {
      for (size_t k = 0; k < shape.size(); ++k) next[k] = shape[k] / layout[k];
    } else if (!(rr && allDivide(layout, shape))) {
      if (why)
        *why = std::string(stage) + ": shape " + listText(shape) + " vs layout " +
               listText(layout) + " divides neither way";
      return std::nullopt;
    }
  }
  if (!data.empty()) {
    // "need |data| = rank. OK if shape % data == 0, or (rr and data % shape == 0); else FAIL.
    // Then shape := data."
    if (data.size() != shape.size()) {
      if (why) *why = std::string(stage) + ": data rank differs from the shape rank";
      return std::nullopt;
    }
    if (!allDivide(next, data) && !(rr && allDivide(data, next))) {
      if (why)
        *why = std::string(stage) + ": shape " + listText(next) + " vs data " + listText(data) +
               " divides neither way";
      return std::nullopt;
    }
    next = data;
  }
  return next;
}

// Everything laneElements needs, checked once.
struct Resolved {
  std::vector<int64_t> order;                        // root effective order
  std::vector<int64_t> sgG, sgB, inst, laneG, laneB; // effective fields
};

Resolved resolve(const Params& p, std::span<const int64_t> shape) {
  std::string why;
  if (!modelApplies(p, shape, &why))
    fail("cannot model " + listText(Shape(shape.begin(), shape.end())) + " using " + toString(p) +
         ": " + why);
  Resolved r;
  r.order = rootOrder(p);
  r.sgG = effective(p, p.sgLayout);
  r.sgB = effective(p, p.sgData);
  r.inst = effective(p, p.instData);
  r.laneG = effective(p, p.laneLayout);
  r.laneB = effective(p, p.laneData);
  return r;
}

} // namespace

// ---- Text ---------------------------------------------------------------------------------------
Params parse(std::string_view text) {
  Parser ps{text};
  Params p = ps.attr();
  ps.ws();
  if (ps.i != text.size()) fail("trailing text in '" + std::string(text) + "'");
  return p;
}

std::string toString(const Params& p) {
  if (p.isSgMap)
    return "#xegpu.sg_map<wi_layout = " + listText(p.laneLayout) +
           ", wi_data = " + listText(p.laneData) + ">";
  std::string s = "#xegpu.layout<";
  bool first = true;
  auto field = [&](const char* name, const std::vector<int64_t>& v) {
    if (v.empty()) return;
    s += (first ? "" : ", ") + std::string(name) + " = " + listText(v);
    first = false;
  };
  field("sg_layout", p.sgLayout);
  field("sg_data", p.sgData);
  field("inst_data", p.instData);
  field("lane_layout", p.laneLayout);
  field("lane_data", p.laneData);
  field("order", p.order);
  s += ">";
  for (const auto& dims : p.sliceDims) s = "#xegpu.slice<" + s + ", dims = " + listText(dims) + ">";
  return s;
}

// ---- Structure ----------------------------------------------------------------------------------
int64_t rootRank(const Params& p) {
  if (!p.sgLayout.empty()) return int64_t(p.sgLayout.size());
  if (!p.instData.empty()) return int64_t(p.instData.size());
  if (!p.laneLayout.empty()) return int64_t(p.laneLayout.size());
  return 0;
}

std::vector<int64_t> flattenedSliceDims(const Params& p) {
  int64_t R = rootRank(p);
  std::vector<int64_t> remaining(size_t(std::max<int64_t>(R, 0)));
  std::iota(remaining.begin(), remaining.end(), 0);
  for (const auto& dims : p.sliceDims) {
    std::vector<int64_t> pos = dims;
    std::sort(pos.begin(), pos.end());
    for (size_t k = 0; k < pos.size(); ++k) {
      if (pos[k] < 0 || pos[k] >= int64_t(remaining.size()))
        fail("slice dim " + std::to_string(pos[k]) + " out of range in " + toString(p));
      if (k && pos[k] == pos[k - 1]) fail("repeated slice dim in " + toString(p));
    }
    for (size_t k = pos.size(); k-- > 0;) remaining.erase(remaining.begin() + pos[k]);
  }
  std::vector<int64_t> out;
  for (int64_t d = 0; d < R; ++d)
    if (std::find(remaining.begin(), remaining.end(), d) == remaining.end()) out.push_back(d);
  return out;
}

int64_t rank(const Params& p) {
  return rootRank(p) - int64_t(flattenedSliceDims(p).size());
}

std::vector<int64_t> rootOrder(const Params& p) {
  if (!p.order.empty()) return p.order;
  std::vector<int64_t> o;
  for (int64_t d = rootRank(p) - 1; d >= 0; --d) o.push_back(d);
  return o;
}

std::vector<int64_t> effective(const Params& p, const std::vector<int64_t>& rootField) {
  if (rootField.empty()) return {};
  if (int64_t(rootField.size()) != rootRank(p)) fail("field rank differs from the layout rank");
  std::vector<int64_t> sliced = flattenedSliceDims(p), out;
  for (int64_t d = 0; d < int64_t(rootField.size()); ++d)
    if (!std::binary_search(sliced.begin(), sliced.end(), d)) out.push_back(rootField[size_t(d)]);
  return out;
}

std::optional<std::string> verifyError(const Params& p) {
  auto sz = [](const std::vector<int64_t>& v) { return v.size(); };
  const bool sgL = !p.sgLayout.empty(), sgD = !p.sgData.empty(), inst = !p.instData.empty(),
             lnL = !p.laneLayout.empty(), lnD = !p.laneData.empty(), ord = !p.order.empty();
  std::optional<std::string> layoutError = [&]() -> std::optional<std::string> {
    // 1. "None of sg_layout, inst_data, lane_layout present -> accepted"
    if (!sgL && !inst && !lnL) return std::nullopt;
    if (sgL && inst && sz(p.sgLayout) != sz(p.instData))
      return "expected sg_layout and inst_data to have the same rank";
    if (sgL && lnL && sz(p.sgLayout) != sz(p.laneLayout))
      return "expected sg_layout and lane_layout to have the same rank";
    if (inst && lnL && sz(p.instData) != sz(p.laneLayout))
      return "expected inst_data and lane_layout to have the same rank, got inst_data " +
             std::to_string(sz(p.instData)) + ", lane_layout " + std::to_string(sz(p.laneLayout));
    if (sgL != sgD) return "sg_layout and sg_data must be used together";
    if (sgL && sz(p.sgData) != sz(p.sgLayout))
      return "expected sg_data and sg_layout to have the same rank";
    if (lnL != lnD) return "lane_layout and lane_data must be used together";
    if (lnL && sz(p.laneData) != sz(p.laneLayout))
      return "expected lane_data and lane_layout to have the same rank";
    if (ord && !sgL && !lnL) return "expected sg_layout/lane_layout being used with order";
    if (ord && sgL && sz(p.order) != sz(p.sgLayout))
      return "expected order and sg_layout to have the same rank";
    if (ord && lnL && sz(p.order) != sz(p.laneLayout))
      return "expected order and lane_layout to have the same rank";
    return std::nullopt;
  }();
  if (layoutError) return layoutError;
  for (const auto& dims : p.sliceDims) {
    for (size_t k = 0; k < dims.size(); ++k) {
      if (dims[k] < 0) return "invalid dim (" + std::to_string(dims[k]) + ") in slice attribute.";
      for (size_t j = 0; j < k; ++j)
        if (dims[j] == dims[k])
          return "repeated dim (" + std::to_string(dims[k]) + ") in slice attribute.";
    }
  }
  return std::nullopt;
}

bool modelApplies(const Params& p, std::span<const int64_t> shapeSpan, std::string* why) {
  if (auto e = verifyError(p)) {
    if (why) *why = *e;
    return false;
  }
  Shape shape(shapeSpan.begin(), shapeSpan.end());
  for (int64_t s : shape)
    if (s <= 0) {
      if (why) *why = "non-positive shape";
      return false;
    }
  if (rootRank(p) == 0) { // the empty layout distributes nothing
    if (!p.sliceDims.empty()) {
      if (why) *why = "slice of an empty layout";
      return false;
    }
    return true;
  }
  // Fields positive, order a permutation, slice dims in range: otherwise delinearize / flatten are
  // meaningless (the verifier checks none of this, ref §1.1 "There is no check that entries are
  // positive, that order is a permutation").
  for (const auto* f : {&p.sgLayout, &p.sgData, &p.instData, &p.laneLayout, &p.laneData})
    for (int64_t v : *f)
      if (v <= 0) {
        if (why) *why = "non-positive field entry (not modelled)";
        return false;
      }
  {
    std::vector<int64_t> o = rootOrder(p);
    std::sort(o.begin(), o.end());
    for (size_t k = 0; k < o.size(); ++k)
      if (o[k] != int64_t(k)) {
        if (why) *why = "order is not a permutation (not modelled)";
        return false;
      }
  }
  std::vector<int64_t> sliced;
  try {
    sliced = flattenedSliceDims(p);
  } catch (const std::invalid_argument& e) {
    if (why) *why = e.what();
    return false;
  }
  if (int64_t(shape.size()) < rootRank(p) - int64_t(sliced.size())) {
    if (why) *why = "shape rank below the layout rank";
    return false;
  }
  // Leading dims beyond the layout's rank are kept whole (ref §3.2, §4): check the trailing ones.
  shape.erase(shape.begin(), shape.end() - (rootRank(p) - int64_t(sliced.size())));
  std::vector<int64_t> sgB = effective(p, p.sgData), inst = effective(p, p.instData),
                       laneG = effective(p, p.laneLayout), laneB = effective(p, p.laneData);
  Shape tile = shape;
  if (!sgB.empty()) {
    for (size_t k = 0; k < sgB.size(); ++k)
      if (sgB[k] > shape[k]) {
        if (why) *why = "sg_data larger than the tensor (not modelled)";
        return false;
      }
    tile = sgB;
  }
  if (!inst.empty()) {
    for (size_t k = 0; k < inst.size(); ++k)
      if (tile[k] % inst[k] != 0) {
        if (why) *why = "inst: tile " + listText(tile) + " vs inst_data " + listText(inst);
        return false;
      }
    tile = inst;
  }
  // Lane level, per dim: "shape % layout == 0" then "shape % data == 0" (rr = false), or the 2026
  // wrap-around: "a dim whose size equals lane_data in that dim is allowed and is replicated to all
  // lanes".
  for (size_t k = 0; k < laneG.size(); ++k) {
    bool divisible = tile[k] % laneG[k] == 0 && (tile[k] / laneG[k]) % laneB[k] == 0;
    if (!divisible && tile[k] != laneB[k]) {
      if (why)
        *why = "lane: shape " + listText(tile) + " vs lane_layout " + listText(laneG) +
               " / lane_data " + listText(laneB);
      return false;
    }
  }
  return true;
}

bool isDistributable(const Params& p, std::span<const int64_t> shapeSpan, std::string* why) {
  if (auto e = verifyError(p)) {
    if (why) *why = *e;
    return false;
  }
  if (rootRank(p) == 0) return true;
  Shape shape(shapeSpan.begin(), shapeSpan.end());
  std::vector<int64_t> sliced;
  try {
    sliced = flattenedSliceDims(p);
  } catch (const std::invalid_argument& e) {
    if (why) *why = e.what();
    return false;
  }
  if (int64_t(shape.size()) != rootRank(p) - int64_t(sliced.size())) {
    if (why) *why = "expected layout rank to match tensor rank"; // ref §1.2
    return false;
  }
  // (a) sg: (shape, sg_layout, sg_data, rr = true); (b) inst: (sgShape, none, inst_data,
  // rr = false); (c) lane: (instShape, lane_layout, lane_data, rr = false) plus the wrap-around.
  std::optional<Shape> cur =
      tryDistribute(shape, effective(p, p.sgLayout), effective(p, p.sgData), true, why, "sg");
  if (!cur) return false;
  cur = tryDistribute(*cur, {}, effective(p, p.instData), false, why, "inst");
  if (!cur) return false;
  std::vector<int64_t> laneG = effective(p, p.laneLayout), laneB = effective(p, p.laneData);
  if (laneG.empty()) return true;
  const Shape& t = *cur;
  if (laneG.size() != t.size() || laneB.size() != t.size()) {
    if (why) *why = "lane: rank mismatch";
    return false;
  }
  for (size_t k = 0; k < t.size(); ++k) {
    // "a dim whose size equals lane_data in that dim is allowed and is replicated to all lanes.
    // ... Other non-divisible lane cases still fail."
    bool divisible =
        laneG[k] > 0 && laneB[k] > 0 && t[k] % laneG[k] == 0 && (t[k] / laneG[k]) % laneB[k] == 0;
    // #xegpu.sg_map: seed 000's 1-D example loads tensor_desc<16xbf16> with wi_layout [1, 16],
    // wi_data [1, 2] "into vector<1x2xbf16>": 16 lanes x 2 elements cover the 16 elements twice,
    // so more lanes than elements replicate (whole wi_data blocks) for sg_map.
    const bool sgMapReplicates = p.isSgMap && laneG[k] > 0 && laneB[k] > 0 &&
                                 (laneG[k] * laneB[k]) % t[k] == 0 && t[k] % laneB[k] == 0;
    if (!divisible && t[k] != laneB[k] && !sgMapReplicates) {
      if (why)
        *why = "lane: shape " + listText(t) + " vs lane_layout " + listText(laneG) +
               " / lane_data " + listText(laneB);
      return false;
    }
  }
  return true;
}

int64_t numSubgroups(const Params& p) {
  return product(p.sgLayout);
}
int64_t numLanes(const Params& p) {
  return product(p.laneLayout);
}

// ---- Distribution -------------------------------------------------------------------------------
std::vector<int64_t> delinearize(int64_t id, std::span<const int64_t> G,
                                 std::span<const int64_t> order) {
  if (G.size() != order.size()) fail("delinearize: |order| != |layout|");
  std::vector<int64_t> out(G.size(), 0);
  int64_t rem = id;
  for (size_t k = 0; k < order.size(); ++k) {
    int64_t d = order[k];
    out[size_t(d)] = rem % G[size_t(d)];
    if (k + 1 < order.size()) rem = rem / G[size_t(d)]; // "div skipped on the last step"
  }
  return out;
}

std::vector<Coord> blockStarts(std::span<const int64_t> shape, std::span<const int64_t> G,
                               std::span<const int64_t> B, std::span<const int64_t> id) {
  size_t r = shape.size();
  Shape unit(r), units(r);
  for (size_t i = 0; i < r; ++i) {
    unit[i] = std::min(shape[i], G[i] * B[i]);     // "unit[i] = min(shape[i], G[i] * B[i])"
    units[i] = (shape[i] + unit[i] - 1) / unit[i]; // tiles of `shape` by `unit`
  }
  std::vector<Coord> out;
  for (const Coord& u : rowMajor(units)) { // "row-major tiles ... last dim fastest"
    Coord c(r);
    for (size_t i = 0; i < r; ++i) c[i] = (u[i] * unit[i] + id[i] * B[i]) % shape[i];
    out.push_back(c);
  }
  return out;
}

std::vector<Coord> laneElements(const Params& p, std::span<const int64_t> shapeSpan,
                                int64_t subgroup, int64_t lane, RegisterOrder regOrder) {
  Shape shape(shapeSpan.begin(), shapeSpan.end());
  Resolved r = resolve(p, shape);
  if (rootRank(p) == 0) return rowMajor(shape);
  if (int64_t(shape.size()) > rank(p)) {
    // Leading dims beyond the layout's rank: "leading extra vector dims are kept whole" (ref §3.2;
    // §4 "leading rank(vec) - rank(layout) dims unchanged"). Every lane holds all of them; as in
    // the row-major per-lane vector [leading..., P...], they are the slowest register digits.
    const size_t lead = shape.size() - size_t(rank(p));
    std::vector<Coord> inner =
        laneElements(p, std::span<const int64_t>(shape).subspan(lead), subgroup, lane, regOrder);
    std::vector<Coord> out;
    for (const Coord& l : rowMajor(std::span<const int64_t>(shape).first(lead)))
      for (const Coord& e : inner) {
        Coord c = l;
        c.insert(c.end(), e.begin(), e.end());
        out.push_back(c);
      }
    return out;
  }
  const size_t rk = shape.size();

  // (a) subgroup pieces.
  std::vector<Coord> pieces{Coord(rk, 0)};
  Shape tile = shape;
  if (!r.sgG.empty()) {
    std::vector<int64_t> id = effective(p, delinearize(subgroup, p.sgLayout, r.order));
    pieces = blockStarts(shape, r.sgG, r.sgB, id);
    tile = r.sgB;
  }
  // (b) instruction tiles, row-major over tile / inst_data.
  std::vector<Coord> tiles{Coord(rk, 0)};
  Shape sub = tile;
  if (!r.inst.empty()) {
    Shape count(rk);
    for (size_t i = 0; i < rk; ++i) count[i] = tile[i] / r.inst[i];
    tiles = rowMajor(count);
    for (Coord& t : tiles)
      for (size_t i = 0; i < rk; ++i) t[i] *= r.inst[i];
    sub = r.inst;
  }
  // (c) the lane's elements inside one tile.
  std::vector<Coord> local;
  if (!r.laneG.empty()) {
    std::vector<int64_t> id = effective(p, delinearize(lane, p.laneLayout, r.order));
    const Shape& G = r.laneG;
    const Shape& B = r.laneB;
    if (regOrder == RegisterOrder::Blocks) {
      std::vector<Coord> inBlock = rowMajor(B);
      for (const Coord& s : blockStarts(sub, G, B, id))
        for (const Coord& w : inBlock) {
          Coord c(rk);
          for (size_t i = 0; i < rk; ++i) c[i] = s[i] + w[i];
          local.push_back(c);
        }
    } else {
      Shape P = computeDistributedShape(sub, G, B);
      for (const Coord& a : rowMajor(P)) {
        Coord c(rk);
        for (size_t i = 0; i < rk; ++i) {
          int64_t unit = std::min(sub[i], G[i] * B[i]);
          c[i] = ((a[i] / B[i]) * unit + id[i] * B[i]) % sub[i] + a[i] % B[i];
        }
        local.push_back(c);
      }
    }
  } else {
    local = rowMajor(sub);
  }

  std::vector<Coord> out;
  out.reserve(pieces.size() * tiles.size() * local.size());
  for (const Coord& pc : pieces)
    for (const Coord& t : tiles)
      for (const Coord& l : local) {
        Coord c(rk);
        for (size_t i = 0; i < rk; ++i) {
          c[i] = pc[i] + t[i] + l[i];
          if (c[i] < 0 || c[i] >= shape[i])
            fail("element outside the tensor for " + toString(p) + " (model bug)");
        }
        out.push_back(c);
      }
  return out;
}

int64_t numRegisters(const Params& p, std::span<const int64_t> shape) {
  return int64_t(laneElements(p, shape, 0, 0).size());
}

std::vector<std::vector<Owner>> owners(const Params& p, std::span<const int64_t> shape,
                                       RegisterOrder order, int64_t subgroups, int64_t lanes) {
  if (subgroups <= 0) subgroups = numSubgroups(p);
  if (lanes <= 0) lanes = numLanes(p);
  std::vector<std::vector<Owner>> out(size_t(product(shape)));
  for (int64_t sg = 0; sg < subgroups; ++sg)
    for (int64_t ln = 0; ln < lanes; ++ln) {
      std::vector<Coord> elems = laneElements(p, shape, sg, ln, order);
      for (size_t reg = 0; reg < elems.size(); ++reg) {
        int64_t lin = 0;
        for (size_t i = 0; i < shape.size(); ++i) lin = lin * shape[i] + elems[reg][i];
        out[size_t(lin)].push_back({sg, ln, int64_t(reg)});
      }
    }
  for (auto& v : out) std::sort(v.begin(), v.end());
  return out;
}

// ---- Shapes -------------------------------------------------------------------------------------
Shape computeDistributedShape(std::span<const int64_t> shape, std::span<const int64_t> G,
                              std::span<const int64_t> B) {
  Shape out(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    out[i] = B[i] * (shape[i] / std::min(shape[i], G[i] * B[i]));
  return out;
}

namespace {
Shape withLeading(std::span<const int64_t> shape, int64_t layoutRank, const std::vector<int64_t>& G,
                  const std::vector<int64_t>& B) {
  if (int64_t(shape.size()) < layoutRank) fail("shape rank below the layout rank");
  size_t lead = shape.size() - size_t(layoutRank);
  Shape out(shape.begin(), shape.end());
  if (G.empty()) return out;
  Shape tail = computeDistributedShape(shape.subspan(lead), G, B);
  std::copy(tail.begin(), tail.end(), out.begin() + std::ptrdiff_t(lead));
  return out;
}
} // namespace

Shape distributedShape(const Params& p, std::span<const int64_t> shape) {
  if (!p.sgLayout.empty())
    return withLeading(shape, rank(p), effective(p, p.sgLayout), effective(p, p.sgData));
  return withLeading(shape, rank(p), effective(p, p.laneLayout), effective(p, p.laneData));
}

Shape laneDistributedShape(const Params& p, std::span<const int64_t> shape) {
  return withLeading(shape, rank(p), effective(p, p.laneLayout), effective(p, p.laneData));
}

RegisterOrder registerOrderOf(const Params& p) {
  return p.isSgMap ? RegisterOrder::Blocks : RegisterOrder::VectorRowMajor;
}

Shape perLaneShape(const Params& p, std::span<const int64_t> shape) {
  if (p.isSgMap) {
    int64_t wi = product(p.laneData);
    return {numRegisters(p, shape) / wi, wi};
  }
  if (int64_t(shape.size()) < rank(p)) fail("shape rank below the layout rank");
  size_t lead = shape.size() - size_t(rank(p));
  Shape out(shape.begin(), shape.end());
  if (rootRank(p) == 0) return out;
  std::span<const int64_t> S = shape.subspan(lead);
  std::vector<int64_t> sgG = effective(p, p.sgLayout), sgB = effective(p, p.sgData),
                       inst = effective(p, p.instData), laneG = effective(p, p.laneLayout),
                       laneB = effective(p, p.laneData);
  for (size_t i = 0; i < S.size(); ++i) {
    int64_t pieces = 1, tile = S[i];
    if (!sgG.empty()) {
      pieces = S[i] / std::min(S[i], sgG[i] * sgB[i]);
      tile = sgB[i];
    }
    int64_t tiles = 1;
    if (!inst.empty()) {
      tiles = tile / inst[i];
      tile = inst[i];
    }
    int64_t lane = tile;
    if (!laneG.empty()) lane = laneB[i] * (tile / std::min(tile, laneG[i] * laneB[i]));
    out[lead + i] = pieces * tiles * lane;
  }
  return out;
}

int64_t simtVectorLength(const Params& p, std::span<const int64_t> shape, int64_t arrayLength) {
  std::vector<int64_t> G = effective(p, p.laneLayout), B = effective(p, p.laneData);
  if (G.size() != shape.size()) fail("simtVectorLength: lane_layout rank differs from the shape");
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] % (G[i] * B[i]) != 0) fail("simtVectorLength: shape not divisible");
  return product(shape) * arrayLength / product(G);
}

} // namespace xegpu_model
