// #ttg.nvmma_shared: verifier errors, and an element-by-element model of the TMA/wgmma shared
// layout written from the prose (docs/reference/triton-linear-layout.md §5.3 and the seed's
// NVMMASharedEncodingAttr description), independent of the library's conversion code.
#include "layout/triton/encoding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace {

using layout::LinearLayout;

std::string errorOf(const std::string& text) {
  auto enc = layout::triton::parseEncoding(text);
  if (enc) return "(parsed)";
  return enc.error().message;
}

std::string nvmma(const std::string& body) {
  return "#ttg.nvmma_shared<{" + body + "}>";
}

TEST(NvmmaShared, VerifierRejectsBadSwizzle) {
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = 48, transposed = false, elementBitWidth = 16")),
            "line 1, column 41: 'swizzlingByteWidth' = 48 must be 0, 32, 64 or 128 (bytes)");
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = 16, transposed = false, elementBitWidth = 16")),
            "line 1, column 41: 'swizzlingByteWidth' = 16 must be 0, 32, 64 or 128 (bytes)");
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = -128, transposed = false, elementBitWidth = 16")),
            "line 1, column 41: 'swizzlingByteWidth' = -128 must be 0, 32, 64 or 128 (bytes)");
}

TEST(NvmmaShared, VerifierRejectsBadElementBitWidth) {
  for (int bits : {0, 1, 2, 12, 128}) {
    const std::string text = nvmma("swizzlingByteWidth = 128, transposed = false, "
                                   "elementBitWidth = " +
                                   std::to_string(bits));
    EXPECT_EQ(errorOf(text), "line 1, column 84: 'elementBitWidth' = " + std::to_string(bits) +
                                 " must be 4, 8, 16, 32 or 64 (bits)")
        << text;
  }
}

TEST(NvmmaShared, VerifierRejectsWrongTypesAndKeys) {
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = 128, transposed = 1, elementBitWidth = 16")),
            "line 1, column 59: 'transposed' must be true or false, not an integer");
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, "
                          "fp4Padded = \"yes\"")),
            "line 1, column 100: 'fp4Padded' must be true or false, not a string");
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = true, transposed = false, elementBitWidth = 16")),
            "line 1, column 41: 'swizzlingByteWidth' must be an integer, not a boolean");
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = 128, transposed = false, elementBitWidth = [16]")),
            "line 1, column 84: 'elementBitWidth' must be an integer, not a list");
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = 128, transposed = false")),
            "line 1, column 1: #ttg.nvmma_shared needs the parameter 'elementBitWidth'");
  EXPECT_EQ(errorOf(nvmma("transposed = false, elementBitWidth = 16")),
            "line 1, column 1: #ttg.nvmma_shared needs the parameter 'swizzlingByteWidth'");
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = 128, transpose = true, elementBitWidth = 16")),
            "line 1, column 58: unexpected key: transpose (#ttg.nvmma_shared takes "
            "swizzlingByteWidth, transposed, elementBitWidth, fp4Padded, rank and the CGA layout)");
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, "
                          "rank = 3, CGALayout = [[1, 0]]")),
            "line 1, column 95: 'rank' = 3 disagrees with 'CGALayout', which has rank 2");
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, "
                          "rank = 0")),
            "line 1, column 95: 'rank' = 0 must be between 1 and 64");
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, "
                          "CGALayout = [[1, 0, 0], [0, 1]]")),
            "line 1, column 112: CGALayout basis 1 has 2 components; the encoding has rank 3");
  // transposed and fp4Padded default to false, as in Triton's parser.
  EXPECT_EQ(errorOf(nvmma("swizzlingByteWidth = 128, elementBitWidth = 16")), "(parsed)");
}

// Shape-dependent rules of the conversion are errors too, never crashes.
TEST(NvmmaShared, ConversionErrors) {
  auto convert = [](const std::string& text, std::vector<int64_t> shape) -> std::string {
    auto enc = layout::triton::parseEncoding(text);
    if (!enc) return "parse: " + enc.error().message;
    auto ll = layout::triton::toLinearLayout(*enc, shape);
    return ll ? "(converted)" : ll.error().message;
  };
  const std::string sw128 = nvmma("swizzlingByteWidth = 128, transposed = false, "
                                  "elementBitWidth = 16");
  EXPECT_EQ(convert(sw128, {8, 32}),
            "#ttg.nvmma_shared: block shape is too small for the swizzle byte size: dim 1 of the "
            "per-CTA shape holds 32 elements, a 128-byte swizzle row of 16-bit elements needs 64");
  EXPECT_EQ(convert(sw128, {4, 64}),
            "#ttg.nvmma_shared: illegal shared layout; expected the collapsed per-CTA shape to be "
            "at least [8, 64], got [4, 64]");
  EXPECT_EQ(convert(sw128, {int64_t{1} << 40, 64}), "(converted)");
  EXPECT_EQ(convert(sw128, {int64_t{1} << 40, int64_t{1} << 40}),
            "in-dim 'offset': size 2^80 exceeds the limit of 2^63");
  EXPECT_EQ(convert(nvmma("swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, "
                          "rank = 9"),
                    {256, 256, 256, 256, 256, 256, 256, 256, 64}),
            "#ttg.nvmma_shared: the TMA block is too large (over 2^40 rows)");
  EXPECT_EQ(convert(sw128, {2, 64, 64}), "the encoding has rank 2 but the tensor shape has rank 3");
  EXPECT_EQ(convert(nvmma("swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, "
                          "rank = 1"),
                    {64}),
            "#ttg.nvmma_shared: a swizzled layout (swizzlingByteWidth 64) needs a rank of at "
            "least 2");
  EXPECT_EQ(convert(nvmma("swizzlingByteWidth = 32, transposed = false, elementBitWidth = 32, "
                          "fp4Padded = true"),
                    {8, 64}),
            "#ttg.nvmma_shared: fp4Padded needs swizzle rows of at least 16 padded elements; a "
            "32-byte row of 32-bit elements holds 8");
  // Rank 3 transposed: the collapsed rows are the last dim (Triton aborts the same way).
  EXPECT_EQ(convert(nvmma("swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16, "
                          "rank = 3"),
                    {64, 8, 2}),
            "#ttg.nvmma_shared: illegal shared layout; expected the collapsed per-CTA shape to be "
            "at least [8, 64], got [2, 512]");
  EXPECT_EQ(convert(nvmma("swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, "
                          "rank = 1"),
                    {64}),
            "(converted)");
}

// ---- The model ----------------------------------------------------------------------------------
//
// TMA copies a box of the (per-CTA) tensor into shared memory. The box is the tensor clamped to
// 256 along every dim; with a swizzle of S bytes its contiguous dim is exactly one S-byte row
// (8·S/bits elements). Inside the box, rows (the collapsed non-contiguous dims, row-major) are S
// bytes apart, and the 16-byte chunk index inside the row is XORed with the row's phase: the
// address bits 7.. of the row start, i.e. (row / (128/S)) % (S/16). Swizzle 0 stores the box
// row-major unswizzled. Boxes follow one another: for a swizzled layout the box index runs along
// dim0 first, then dim1, ...; for swizzle 0 along the last dim first. `transposed` makes dim0 the
// contiguous dim (rank 2 here). With fp4Padded each 16-byte chunk holds 8 bytes of data followed
// by 8 bytes of padding (offsets count padded bytes), and the box is measured in padded bytes.
struct Model {
  int64_t swizzle = 0, bits = 16;
  bool transposed = false, fp4 = false;
  std::vector<int64_t> shape; // per CTA

  std::vector<int64_t> box() const {
    std::vector<int64_t> b = shape;
    const size_t contig = transposed ? 0 : shape.size() - 1;
    if (fp4) b[contig] *= 2;
    for (int64_t& s : b) s = std::min<int64_t>(s, 256);
    if (swizzle) b[contig] = 8 * swizzle / bits;
    if (fp4) b[contig] /= 2; // real elements
    return b;
  }

  // The shared-memory offset (in elements; padded elements for fp4Padded) of element `coord`.
  int64_t offset(const std::vector<int64_t>& coord) const {
    const std::vector<int64_t> b = box();
    const int rank = int(shape.size());
    const int contig = transposed ? 0 : rank - 1;
    // Index inside the box, and the box number.
    std::vector<int64_t> in(rank), blk(rank), nblk(rank);
    for (int d = 0; d < rank; ++d) {
      in[d] = coord[d] % b[d];
      blk[d] = coord[d] / b[d];
      nblk[d] = shape[d] / b[d];
    }
    int64_t boxIndex = 0;
    if (swizzle) {
      for (int d = rank - 1; d >= 0; --d) boxIndex = boxIndex * nblk[d] + blk[d];
    } else {
      for (int d = 0; d < rank; ++d) boxIndex = boxIndex * nblk[d] + blk[d];
    }
    int64_t boxElems = 1; // offsets per box
    for (int d = 0; d < rank; ++d) boxElems *= b[d];
    if (fp4 && swizzle) boxElems *= 2;

    if (!swizzle) {
      int64_t inBox = 0;
      for (int d = 0; d < rank; ++d) inBox = inBox * b[d] + in[d];
      return boxIndex * boxElems + inBox;
    }
    // Row = the other dims row-major, col = the contiguous dim.
    int64_t row = 0;
    for (int d = 0; d < rank; ++d)
      if (d != contig) row = row * b[d] + in[d];
    int64_t col = in[contig];
    if (fp4) col = col / 8 * 16 + col % 8; // 8 data bytes, then 8 padding bytes
    const int64_t bitAddr = row * swizzle * 8 + col * bits;
    const int64_t phase = (row / (128 / swizzle)) % (swizzle / 16);
    const int64_t swizzled = bitAddr ^ (phase << 7); // chunk (16 bytes = 128 bits) ^= phase
    return boxIndex * boxElems + swizzled / bits;
  }
};

std::vector<int64_t> applyLayout(const LinearLayout& ll, uint64_t offset, uint64_t block) {
  std::vector<uint64_t> ins(ll.numInDims(), 0), outs(ll.numOutDims(), 0);
  ins[ll.inDimIndex(layout::dims::offset())] = offset;
  if (int b = ll.inDimIndex(layout::dims::block()); b >= 0) ins[b] = block;
  ll.apply(ins, outs);
  return std::vector<int64_t>(outs.begin(), outs.end());
}

// Every element of `shape` (one CTA): the layout's inverse gives the model's offset (block 0);
// for fp4Padded (not injective), the layout maps the model's offset, and the padding offset 8
// bytes after it, back to the element.
void checkAgainstModel(const Model& m) {
  std::string text =
      "#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(m.swizzle) +
      ", transposed = " + (m.transposed ? "true" : "false") +
      ", elementBitWidth = " + std::to_string(m.bits) + (m.fp4 ? ", fp4Padded = true" : "") +
      (m.shape.size() != 2 ? ", rank = " + std::to_string(m.shape.size()) : "") + "}>";
  SCOPED_TRACE(text);
  auto enc = layout::triton::parseEncoding(text);
  ASSERT_TRUE(enc) << enc.error().message;
  auto ll = layout::triton::toLinearLayout(*enc, m.shape);
  ASSERT_TRUE(ll) << ll.error().message;
  const bool injective = !(m.fp4 && m.swizzle);
  std::optional<LinearLayout> inverse;
  if (injective) {
    auto inv = ll->invert();
    ASSERT_TRUE(inv) << inv.error().message;
    inverse = *inv;
  }
  const int rank = int(m.shape.size());
  int64_t total = 1;
  for (int64_t s : m.shape) total *= s;
  int mismatches = 0;
  for (int64_t flat = 0; flat < total && mismatches < 5; ++flat) {
    std::vector<int64_t> coord(rank);
    for (int64_t d = rank - 1, rest = flat; d >= 0; --d) {
      coord[d] = rest % m.shape[d];
      rest /= m.shape[d];
    }
    const int64_t want = m.offset(coord);
    if (inverse) {
      std::vector<uint64_t> ins(coord.begin(), coord.end()), outs(inverse->numOutDims(), 0);
      inverse->apply(ins, outs);
      const int64_t got = int64_t(outs[inverse->outDimIndex(layout::dims::offset())]);
      if (got != want) ++mismatches;
      EXPECT_EQ(got, want) << "element " << ::testing::PrintToString(coord);
    } else {
      const auto back = applyLayout(*ll, uint64_t(want), 0);
      const auto pad = applyLayout(*ll, uint64_t(want + 8), 0);
      if (back != coord || pad != coord) ++mismatches;
      EXPECT_EQ(back, coord) << "offset " << want;
      EXPECT_EQ(pad, coord) << "padding offset " << want + 8;
    }
  }
}

TEST(NvmmaShared, ElementsMatchSwizzleModel) {
  for (int64_t bits : {8, 16, 32, 64})
    for (int64_t swizzle : {0, 32, 64, 128})
      for (bool transposed : {false, true}) {
        const int64_t row = swizzle ? 8 * swizzle / bits : 8;
        for (auto [contigMul, rows] : {std::pair<int64_t, int64_t>{1, 8}, {2, 32}, {4, 16}}) {
          Model m{swizzle, bits, transposed, false, {}};
          m.shape = transposed ? std::vector<int64_t>{row * contigMul, rows}
                               : std::vector<int64_t>{rows, row * contigMul};
          checkAgainstModel(m);
        }
      }
}

TEST(NvmmaShared, ElementsMatchModelBeyondOneBox) {
  // More than 256 rows (several boxes along the row dim) and several boxes along the columns.
  checkAgainstModel({128, 16, false, false, {512, 128}});
  checkAgainstModel({64, 8, true, false, {128, 512}});
  checkAgainstModel({0, 16, false, false, {512, 512}});
  checkAgainstModel({0, 32, true, false, {1024, 4}});
  checkAgainstModel({32, 64, false, false, {1024, 16}});
}

TEST(NvmmaShared, ElementsMatchModelRank3AndNarrowTypes) {
  // Leading dims collapse into rows (row-major), even when the first is smaller than 8.
  checkAgainstModel({128, 16, false, false, {2, 4, 64}});
  checkAgainstModel({32, 8, false, false, {4, 64, 32}});
  checkAgainstModel({64, 32, false, false, {2, 8, 32}});
  checkAgainstModel({0, 16, false, false, {2, 8, 16}});
  // 4-bit elements: 32 to a 16-byte chunk.
  checkAgainstModel({128, 4, false, false, {16, 512}});
  checkAgainstModel({64, 4, true, false, {256, 16}});
}

TEST(NvmmaShared, ElementsMatchModelFp4Padded) {
  checkAgainstModel({128, 8, false, true, {8, 64}});
  checkAgainstModel({128, 8, true, true, {64, 16}});
  checkAgainstModel({64, 8, false, true, {32, 128}});
  checkAgainstModel({32, 8, true, true, {16, 8}});
  checkAgainstModel({0, 8, false, true, {16, 128}});
}

// Two CTAs split dim0: block b holds rows [b·R, (b+1)·R), laid out like one CTA's tensor.
TEST(NvmmaShared, CtasSplitTheTensor) {
  auto enc = layout::triton::parseEncoding(
      "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, "
      "CGALayout = [[1, 0]]}>");
  ASSERT_TRUE(enc) << enc.error().message;
  const std::vector<int64_t> shape = {64, 64};
  auto ll = layout::triton::toLinearLayout(*enc, shape);
  ASSERT_TRUE(ll) << ll.error().message;
  const Model perCta{64, 16, false, false, {32, 64}};
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t j = 0; j < 64; ++j) {
      const int64_t off = perCta.offset({i % 32, j});
      ASSERT_EQ(applyLayout(*ll, uint64_t(off), uint64_t(i / 32)), (std::vector<int64_t>{i, j}));
    }
}

// Combinations that tests/data/triton_encoding_vectors.jsonl lacks (swizzle 0 and 32 transposed,
// 64 and 128 not transposed, rank 3 and 4, transposed rank 3, dims over 256, fp4Padded with
// elementBitWidth 16, elementBitWidth 4, CTAs along the contiguous dim), as Triton 3.6.0 converted
// them on the device machine (through memdesc_reshape, like tests/triton_oracle).
struct TritonCase {
  const char* params;
  std::vector<int64_t> shape;
  std::vector<std::vector<uint64_t>> offset, block;
};

const std::vector<TritonCase> kTritonCases = {
    {"swizzlingByteWidth = 0, transposed = true, elementBitWidth = 16",
     {64, 32},
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}},
     {}},
    {"swizzlingByteWidth = 0, transposed = true, elementBitWidth = 16",
     {512, 8},
     {{0, 1},
      {0, 2},
      {0, 4},
      {1, 0},
      {2, 0},
      {4, 0},
      {8, 0},
      {16, 0},
      {32, 0},
      {64, 0},
      {128, 0},
      {256, 0}},
     {}},
    {"swizzlingByteWidth = 0, transposed = true, elementBitWidth = 32, rank = 3",
     {4, 2, 8},
     {{0, 0, 1}, {0, 0, 2}, {0, 0, 4}, {0, 1, 0}, {1, 0, 0}, {2, 0, 0}},
     {}},
    {"swizzlingByteWidth = 0, transposed = true, elementBitWidth = 16, rank = 3",
     {1024, 2, 4},
     {{0, 0, 1},
      {0, 0, 2},
      {0, 1, 0},
      {1, 0, 0},
      {2, 0, 0},
      {4, 0, 0},
      {8, 0, 0},
      {16, 0, 0},
      {32, 0, 0},
      {64, 0, 0},
      {128, 0, 0},
      {256, 0, 0},
      {512, 0, 0}},
     {}},
    {"swizzlingByteWidth = 32, transposed = true, elementBitWidth = 16",
     {16, 16},
     {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 1}, {0, 2}, {8, 4}, {0, 8}},
     {}},
    {"swizzlingByteWidth = 32, transposed = true, elementBitWidth = 64",
     {4, 32},
     {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {2, 4}, {0, 8}, {0, 16}},
     {}},
    {"swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16",
     {16, 64},
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 8}, {2, 16}, {4, 32}, {8, 0}},
     {}},
    {"swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16",
     {32, 32},
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 8}, {4, 16}, {8, 0}, {16, 0}},
     {}},
    {"swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16, rank = 3",
     {64, 4, 8},
     {{1, 0, 0},
      {2, 0, 0},
      {4, 0, 0},
      {8, 0, 0},
      {16, 0, 0},
      {32, 0, 0},
      {8, 0, 4},
      {16, 1, 0},
      {32, 2, 0},
      {0, 0, 1},
      {0, 0, 2}},
     {}},
    {"swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8, rank = 3",
     {32, 2, 8},
     {{1, 0, 0},
      {2, 0, 0},
      {4, 0, 0},
      {8, 0, 0},
      {16, 0, 0},
      {0, 0, 2},
      {0, 0, 4},
      {16, 1, 0},
      {0, 0, 1}},
     {}},
    {"swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 4",
     {2, 2, 4, 64},
     {{0, 0, 0, 1},
      {0, 0, 0, 2},
      {0, 0, 0, 4},
      {0, 0, 0, 8},
      {0, 0, 0, 16},
      {0, 0, 0, 32},
      {0, 0, 1, 8},
      {0, 0, 2, 16},
      {0, 1, 0, 32},
      {1, 0, 0, 0}},
     {}},
    {"swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3",
     {4, 2, 64},
     {{0, 0, 1},
      {0, 0, 2},
      {0, 0, 4},
      {0, 0, 8},
      {0, 0, 16},
      {0, 0, 32},
      {0, 1, 8},
      {1, 0, 16},
      {2, 0, 32}},
     {}},
    {"swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8, fp4Padded = true",
     {64, 16},
     {{1, 0}, {2, 0}, {4, 0}, {0, 0}, {8, 0}, {16, 0}, {32, 0}, {8, 1}, {16, 2}, {32, 4}, {0, 8}},
     {}},
    {"swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true, rank = "
     "3",
     {2, 4, 64},
     {{0, 0, 1},
      {0, 0, 2},
      {0, 0, 4},
      {0, 0, 0},
      {0, 0, 8},
      {0, 0, 16},
      {0, 0, 32},
      {0, 1, 8},
      {0, 2, 16},
      {1, 0, 32}},
     {}},
    {"swizzlingByteWidth = 0, transposed = true, elementBitWidth = 8, fp4Padded = true",
     {256, 8},
     {{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {64, 0}, {128, 0}},
     {}},
    {"swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, fp4Padded = true",
     {8, 64},
     {{0, 1}, {0, 2}, {0, 4}, {0, 0}, {0, 8}, {1, 0}, {2, 0}, {4, 8}, {0, 16}, {0, 32}},
     {}},
    {"swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16, CGALayout = [[1, 0]]",
     {128, 16},
     {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {8, 1}, {16, 2}, {32, 4}, {0, 8}},
     {{64, 0}}},
    {"swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0]]",
     {16, 64},
     {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 8}, {2, 16}, {4, 32}, {8, 0}},
     {{0, 0}}},
    {"swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16",
     {1024, 64},
     {{0, 1},
      {0, 2},
      {0, 4},
      {0, 8},
      {0, 16},
      {0, 32},
      {1, 8},
      {2, 16},
      {4, 32},
      {8, 0},
      {16, 0},
      {32, 0},
      {64, 0},
      {128, 0},
      {256, 0},
      {512, 0}},
     {}},
    {"swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16",
     {64, 1024},
     {{1, 0},
      {2, 0},
      {4, 0},
      {8, 0},
      {16, 0},
      {32, 0},
      {8, 1},
      {16, 2},
      {32, 4},
      {0, 8},
      {0, 16},
      {0, 32},
      {0, 64},
      {0, 128},
      {0, 256},
      {0, 512}},
     {}},
    {"swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16",
     {512, 512},
     {{1, 0},
      {2, 0},
      {4, 0},
      {8, 0},
      {16, 0},
      {0, 1},
      {8, 2},
      {16, 4},
      {0, 8},
      {0, 16},
      {0, 32},
      {0, 64},
      {0, 128},
      {32, 0},
      {64, 0},
      {128, 0},
      {256, 0},
      {0, 256}},
     {}},
    {"swizzlingByteWidth = 128, transposed = false, elementBitWidth = 4",
     {16, 256},
     {{0, 1},
      {0, 2},
      {0, 4},
      {0, 8},
      {0, 16},
      {0, 32},
      {0, 64},
      {0, 128},
      {1, 32},
      {2, 64},
      {4, 128},
      {8, 0}},
     {}},
    {"swizzlingByteWidth = 128, transposed = true, elementBitWidth = 4",
     {256, 16},
     {{1, 0},
      {2, 0},
      {4, 0},
      {8, 0},
      {16, 0},
      {32, 0},
      {64, 0},
      {128, 0},
      {32, 1},
      {64, 2},
      {128, 4},
      {0, 8}},
     {}},
};

TEST(NvmmaShared, MatchesTritonOnMoreCombinations) {
  for (const TritonCase& c : kTritonCases) {
    const std::string text = nvmma(c.params);
    SCOPED_TRACE(text + " on " + ::testing::PrintToString(c.shape));
    auto enc = layout::triton::parseEncoding(text);
    ASSERT_TRUE(enc) << enc.error().message;
    auto ll = layout::triton::toLinearLayout(*enc, c.shape);
    ASSERT_TRUE(ll) << ll.error().message;
    std::vector<layout::DimSize> outs;
    for (size_t d = 0; d < c.shape.size(); ++d)
      outs.push_back({layout::dims::standardOut(int(d)), uint64_t(c.shape[d])});
    auto want = LinearLayout::create(
        {{layout::dims::offset(), c.offset}, {layout::dims::block(), c.block}}, outs);
    ASSERT_TRUE(want) << want.error().message;
    EXPECT_EQ(*ll, *want) << ll->toString();
  }
}

} // namespace
