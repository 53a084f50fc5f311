// The seed 003 table helpers (see seed003_tables.h).
#include "support/seed003_tables.h"

#include "layout/triton/encoding.h"

#include "support/test_data.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace seed003 {

using layout::DimName;
using layout::LinearLayout;
namespace dims = layout::dims;

std::string readSeedFile(const std::string& name) {
  return layout_test::readDataFile("seed003/" + name);
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string joinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

std::string applyCorrections(const std::string& seed, const std::vector<Correction>& corrections) {
  std::vector<std::string> lines = splitLines(seed);
  for (const Correction& c : corrections) {
    if (c.line >= lines.size()) {
      ADD_FAILURE() << "correction for line " << c.line << " beyond the transcription";
      continue;
    }
    std::string& l = lines[c.line];
    const std::size_t at = l.find(c.seedText);
    EXPECT_NE(at, std::string::npos) << "the seed's documented typo '" << c.seedText
                                     << "' is not on line " << c.line << ": " << l;
    if (at == std::string::npos) continue;
    EXPECT_EQ(l.find(c.seedText, at + 1), std::string::npos)
        << "the seed's typo '" << c.seedText << "' is ambiguous on line " << c.line;
    l.replace(at, c.seedText.size(), c.corrected);
  }
  return joinLines(lines);
}

std::optional<LinearLayout> convert(const std::string& text, const std::vector<int64_t>& shape) {
  auto enc = layout::triton::parseEncoding(text);
  if (!enc) {
    ADD_FAILURE() << text << ": " << enc.error().message;
    return std::nullopt;
  }
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  if (!ll) {
    ADD_FAILURE() << text << ": " << ll.error().message;
    return std::nullopt;
  }
  return *ll;
}

// Row-major flat index of the element ll maps `ins` (one value per in-dim, in ll's order) to.
int64_t flatElement(const LinearLayout& ll, const std::vector<int64_t>& shape,
                    const std::vector<uint64_t>& ins) {
  std::vector<uint64_t> outs(ll.numOutDims());
  ll.apply(ins, outs);
  int64_t flat = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const int o = ll.outDimIndex(dims::standardOut(int(d)));
    const int64_t x = o < 0 ? 0 : int64_t(outs[o]);
    EXPECT_LT(x, shape[d]) << "dim" << d;
    flat = flat * shape[d] + x;
  }
  return flat;
}

std::optional<int64_t> Distribution::singleThread(const std::vector<Owner>& os,
                                                  int64_t block) const {
  if (os.size() != 1 || os[0].block != block) return std::nullopt;
  return thread(os[0]);
}

std::set<int64_t> Distribution::threads(const std::vector<Owner>& os) const {
  std::set<int64_t> t;
  for (const Owner& o : os) t.insert(thread(o));
  return t;
}

std::optional<Owner> Distribution::single(int64_t i, int64_t j) const {
  const auto& os = at(i, j);
  if (os.size() != 1 || os[0].block != 0) return std::nullopt;
  return os[0];
}

std::optional<int64_t> Distribution::singleThread(int64_t i, int64_t j) const {
  auto o = single(i, j);
  return o ? std::optional<int64_t>(thread(*o)) : std::nullopt;
}

std::optional<int64_t> Distribution::singleWarp(int64_t i, int64_t j) const {
  auto o = single(i, j);
  return o ? std::optional<int64_t>(o->warp) : std::nullopt;
}

std::optional<int64_t> Distribution::singleLane(int64_t i, int64_t j) const {
  const auto& os = at(i, j);
  if (os.size() != 1) return std::nullopt;
  return os[0].lane;
}

std::set<int64_t> Distribution::warps(int64_t r0, int64_t r1, int64_t c0, int64_t c1) const {
  std::set<int64_t> w;
  for (int64_t i = r0; i < r1; ++i)
    for (int64_t j = c0; j < c1; ++j)
      for (const Owner& o : at(i, j)) w.insert(o.warp);
  return w;
}

std::optional<Distribution> distribute(const std::string& text, const std::vector<int64_t>& shape) {
  std::optional<LinearLayout> ll = convert(text, shape);
  if (!ll) return std::nullopt;
  EXPECT_EQ(ll->numOutDims(), int(shape.size())) << text;
  for (int i = 0; i < ll->numInDims(); ++i) {
    const DimName n = ll->inDimName(i);
    EXPECT_TRUE(n == dims::reg() || n == dims::lane() || n == dims::warp() || n == dims::block())
        << text << ": unexpected in-dim " << n.str();
  }
  Distribution d;
  d.shape = shape;
  d.lanes = int64_t(ll->inDimSize(dims::lane()));
  d.registers = ll->inDimSize(dims::reg());
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  d.owners.resize(std::size_t(n));
  const int ri = ll->inDimIndex(dims::reg()), li = ll->inDimIndex(dims::lane()),
            wi = ll->inDimIndex(dims::warp()), bi = ll->inDimIndex(dims::block());
  std::vector<uint64_t> ins(ll->numInDims(), 0);
  auto set = [&ins](int idx, uint64_t v) {
    if (idx >= 0) ins[idx] = v;
  };
  for (uint64_t b = 0; b < ll->inDimSize(dims::block()); ++b)
    for (uint64_t w = 0; w < ll->inDimSize(dims::warp()); ++w)
      for (uint64_t l = 0; l < ll->inDimSize(dims::lane()); ++l)
        for (uint64_t r = 0; r < ll->inDimSize(dims::reg()); ++r) {
          set(bi, b), set(wi, w), set(li, l), set(ri, r);
          const int64_t e = flatElement(*ll, shape, ins);
          if (e >= 0 && e < n)
            d.owners[std::size_t(e)].push_back({int64_t(b), int64_t(w), int64_t(l), int64_t(r)});
        }
  for (auto& os : d.owners) std::sort(os.begin(), os.end());
  return d;
}

} // namespace seed003
