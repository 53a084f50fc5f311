// LinearLayout's text: Triton's toString, byte for byte (layout/core/linear_layout.h).
#include "layout/core/linear_layout.h"

#include "bit_ops.h"

#include <array>
#include <charconv>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace layout {

using detail::getBits;

size_t LinearLayout::textSizeBound() const {
  // 20 digits per number.
  constexpr size_t kDigits = 20;
  size_t bound = 64, outNamesLen = 0;
  for (const OutDim& o : outs_) outNamesLen += o.name.str().size();
  bound += 2 * (2 + outNamesLen + outs_.size() * (10 + kDigits));
  for (const InDim& d : ins_)
    bound += 32 + size_t(d.numBases + 1) *
                      (d.name.str().size() + 12 + kDigits + outs_.size() * (2 + kDigits));
  return bound;
}

char* LinearLayout::writeText(char* p) const {
  // Straight into the caller's buffer: no allocation, no stream. The decimal text of 2^i (the
  // left-hand side of every basis line) comes from a table.
  static const auto powersOfTwo = [] {
    std::array<std::array<char, 21>, 64> text{};
    for (int i = 0; i < 64; ++i) {
      auto& t = text[size_t(i)];
      t[20] = char(std::to_chars(t.data(), t.data() + 20, uint64_t{1} << i).ptr - t.data());
    }
    return text;
  }();
  constexpr size_t kDigits = 20;
  SmallVector<std::string_view, 8> outNames;
  for (const OutDim& o : outs_) outNames.push_back(o.name.str());
  auto put = [&p](std::string_view text) {
    std::memcpy(p, text.data(), text.size());
    p += text.size();
  };
  auto putNumber = [&p](uint64_t v) { p = std::to_chars(p, p + kDigits, v).ptr; };
  auto putOutDims = [&] {
    put("[");
    for (size_t o = 0; o < outs_.size(); ++o) {
      if (o) put(", ");
      put(outNames[o]);
      put(" (size ");
      putNumber(uint64_t{1} << outs_[o].sizeLog2);
      put(")");
    }
    put("]");
  };
  if (ins_.empty()) {
    if (outs_.empty()) {
      put("\n(empty layout)");
    } else {
      put("\n(empty layout with out-dims ");
      putOutDims();
      put(")");
    }
    return p;
  }
  put("\n");
  for (const InDim& dim : ins_) {
    const std::string_view name = dim.name.str();
    if (dim.numBases == 0) {
      put(" - ");
      put(name);
      put(" is a size 1 dimension\n");
      continue;
    }
    put(" - ");
    for (int i = 0; i < dim.numBases; ++i) {
      if (i) put("\n   ");
      put(name);
      put("=");
      const auto& power = powersOfTwo[size_t(i)];
      put(std::string_view(power.data(), size_t(power[20])));
      put(" -> (");
      const uint64_t* v = basisWords(dim.firstBasis + i);
      for (size_t o = 0; o < outs_.size(); ++o) {
        if (o) put(", ");
        putNumber(getBits(v, outs_[o].bitOffset, outs_[o].sizeLog2));
      }
      put(")");
    }
    put("\n");
  }
  put("where out dims are: ");
  putOutDims();
  return p;
}

std::string LinearLayout::toString() const {
  // Written into a reused per-thread buffer and copied out at its length: the bound is several
  // times the text, and zero-filling a string of that size cost more than writing the text.
  // Texts beyond 64 KiB get a buffer of their own, so no thread keeps a huge one.
  constexpr size_t kReusedBytes = 64 * 1024;
  const size_t bound = textSizeBound();
  if (bound > kReusedBytes) {
    std::string text(bound, '\0');
    text.resize(size_t(writeText(text.data()) - text.data()));
    return text;
  }
  thread_local std::unique_ptr<char[]> buffer = std::make_unique<char[]>(kReusedBytes);
  return std::string(buffer.get(), writeText(buffer.get()));
}

} // namespace layout
