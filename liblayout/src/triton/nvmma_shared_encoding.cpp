// #ttg.nvmma_shared: the shared-memory layout of MMAv3/MMAv5 (wgmma / tcgen05) operands, written
// by TMA. Triton 3.6's nvmmaSharedToLinearLayout (LinearLayoutConversions.cpp) and
// getTMABlockShape (TMAUtilities).
#include "encoding_internal.h"

#include "layout/core/element_bits.h"
#include "layout/core/shape_fitting.h"

#include <algorithm>
#include <array>

namespace layout::triton::detail {

namespace {

// An optional boolean parameter (false when absent).
Expected<bool> boolParam(const AttrValue& attr, const char* key) {
  const AttrValue* v = attr.find(key);
  if (!v) return false;
  if (v->kind != AttrValue::Kind::Boolean)
    return makeErrorAt(v->location, std::string("'") + key + "' must be true or false, not " +
                                        kindName(v->kind));
  return v->boolean;
}

// The rank of the encoding: `rank = N` (printed by Triton when it is not 2 and there is one CTA),
// else the rank of the CGA layout's bases or of the legacy CTA lists, else 2.
Expected<int> nvmmaRank(const AttrValue& attr) {
  int fromCga = -1;
  const char* cgaKey = nullptr;
  if (const AttrValue* cga = attr.find("CGALayout"); cga && cga->kind == AttrValue::Kind::List &&
                                                     !cga->items.empty() &&
                                                     cga->items[0].kind == AttrValue::Kind::List) {
    fromCga = int(cga->items[0].items.size());
    cgaKey = "CGALayout";
  } else {
    for (const char* key : {"CTAsPerCGA", "CTASplitNum", "CTAOrder"})
      if (const AttrValue* v = attr.find(key); v && v->kind == AttrValue::Kind::List) {
        fromCga = int(v->items.size());
        cgaKey = key;
        break;
      }
  }
  if (!attr.find("rank")) return fromCga >= 0 ? fromCga : 2;
  LAYOUT_TRY_ASSIGN(rank, intParam(attr, "rank"));
  if (rank < 1 || rank > 64)
    return makeErrorAt(attr.find("rank")->location, std::string("'rank' = ") +
                                                        std::to_string(rank) +
                                                        " must be between 1 and 64");
  if (fromCga >= 0 && fromCga != rank)
    return makeErrorAt(attr.find("rank")->location,
                       std::string("'rank' = ") + std::to_string(rank) + " disagrees with '" +
                           cgaKey + "', which has rank " + std::to_string(fromCga));
  return int(rank);
}

// Triton's transposeLinearLayout: out-dim j of the result ("dim<j>") is out-dim order[j] of
// `layout`, with its size.
Expected<LinearLayout> permuteOutDims(const LinearLayout& layout, const std::vector<int>& order) {
  std::vector<InDimBases> ins = layout.inDims();
  for (InDimBases& in : ins)
    for (std::vector<uint64_t>& b : in.bases) {
      std::vector<uint64_t> permuted;
      for (int i : order) permuted.push_back(b[size_t(i)]);
      b = std::move(permuted);
    }
  std::vector<DimSize> outs;
  for (size_t j = 0; j < order.size(); ++j)
    outs.push_back({dims::standardOut(int(j)), layout.outDimSize(order[j])});
  return LinearLayout::create(ins, outs);
}

// Triton's reshapeLayout: the out coordinates flattened row-major (the last dim minor) and split
// again into `shape`, out-dims dim0..dimN-1.
Expected<LinearLayout> reshapeRowMajor(const LinearLayout& layout, std::span<const int64_t> shape) {
  std::vector<DimName> reversed = layout.outDimNames();
  std::reverse(reversed.begin(), reversed.end());
  LAYOUT_TRY_ASSIGN(minorFirst, layout.transposeOuts(reversed));
  std::vector<DimSize> newDims;
  for (int d = int(shape.size()) - 1; d >= 0; --d)
    newDims.push_back({dims::standardOut(d), uint64_t(shape[d])});
  LAYOUT_TRY_ASSIGN(reshaped, minorFirst.reshapeOuts(newDims));
  std::vector<DimName> standard;
  for (size_t d = 0; d < shape.size(); ++d) standard.push_back(dims::standardOut(int(d)));
  return reshaped.transposeOuts(standard);
}

std::vector<DimSize> namedShape(std::span<const int64_t> shape) {
  std::vector<DimSize> named;
  for (size_t d = 0; d < shape.size(); ++d)
    named.push_back({dims::standardOut(int(d)), uint64_t(shape[d])});
  return named;
}

// The 8-row core matrix (Triton's getCoreMatrixLinearLayout), out-dims (dim0 = row, dim1 = col):
// rows of max(16, swizzle bytes) bytes; row r's 16-byte chunks are XORed with
// (r / perPhase) % maxPhase. With fp4Padded every 16 offsets hold 8 real and 8 padding
// elements: the padding offsets map onto the same coordinates as the real ones. Swizzled only.
Expected<LinearLayout> coreMatrix(const NvmmaSharedParams& p) {
  if (p.swizzlingByteWidth == 0) return makeError("internal: no core matrix without a swizzle");
  const int64_t tileRows = 8,
                tileCols = 8 * std::max<int64_t>(16, p.swizzlingByteWidth) / p.elementBitWidth;
  const int64_t vec = 128 / p.elementBitWidth, perPhase = 128 / p.swizzlingByteWidth,
                maxPhase = p.swizzlingByteWidth / 16;
  InDimBases offset{dims::offset(), {}};
  for (int64_t col = 1; col < tileCols; col *= 2) {
    int64_t c = col;
    if (p.fp4Padded) c = col == 8 ? 0 : (col > 8 ? col / 2 : col);
    offset.bases.push_back({0, uint64_t(c)});
  }
  for (int64_t row = 1; row < tileRows; row *= 2) {
    int64_t col = vec * ((row / perPhase) % maxPhase);
    if (p.fp4Padded) col = col / 16 * 8 + col % 8;
    offset.bases.push_back({uint64_t(row), uint64_t(col)});
  }
  return LinearLayout::createSurjective({offset}, {dims::standardOut(0), dims::standardOut(1)});
}

} // namespace

Expected<NvmmaSharedParams> nvmmaSharedParams(const AttrValue& attr) {
  if (!attr.items.empty())
    return makeErrorAt(attr.items[0].location, "#ttg.nvmma_shared takes only named parameters "
                                               "{swizzlingByteWidth = .., transposed = .., "
                                               "elementBitWidth = .., ...}");
  if (auto err = checkParameterNames(EncodingKind::NvmmaShared, attr); !err) return err.error();
  NvmmaSharedParams p;
  LAYOUT_TRY_ASSIGN(swizzle, intParam(attr, "swizzlingByteWidth"));
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return makeErrorAt(attr.find("swizzlingByteWidth")->location,
                       std::string("'swizzlingByteWidth' = ") + std::to_string(swizzle) +
                           " must be 0, 32, 64 or 128 (bytes)");
  LAYOUT_TRY_ASSIGN(bits, intParam(attr, "elementBitWidth"));
  if (!isElementBits(bits, kElementBitsWithNibbles))
    return makeErrorAt(attr.find("elementBitWidth")->location,
                       std::string("'elementBitWidth' = ") + std::to_string(bits) + " must be " +
                           elementBitsText(kElementBitsWithNibbles) + " (bits)");
  LAYOUT_TRY_ASSIGN(transposed, boolParam(attr, "transposed"));
  LAYOUT_TRY_ASSIGN(fp4Padded, boolParam(attr, "fp4Padded"));
  LAYOUT_TRY_ASSIGN(rank, nvmmaRank(attr));
  LAYOUT_TRY(cgaLayout(attr, rank));
  p.swizzlingByteWidth = swizzle;
  p.elementBitWidth = bits;
  p.transposed = transposed;
  p.fp4Padded = fp4Padded;
  p.rank = rank;
  return p;
}

Expected<LinearLayout> nvmmaSharedToLinearLayout(const AttrValue& attr,
                                                 std::span<const int64_t> shape) {
  LAYOUT_TRY_ASSIGN(p, nvmmaSharedParams(attr));
  const int rank = p.rank;
  if (auto err = checkRank(size_t(rank), shape); !err) return err.error();
  LAYOUT_TRY_ASSIGN(cga, cgaLayout(attr, rank));
  const std::vector<int64_t> perCta = shapePerCTA(cga, shape);

  // getTMABlockShape(packedSize = true): every dim at most 256, the contiguous dim exactly one
  // swizzle row (counted in padded elements for fp4Padded, then halved back).
  std::vector<int64_t> tma = perCta;
  const int contig = p.transposed ? 0 : rank - 1;
  if (p.fp4Padded) tma[contig] *= 2;
  for (int64_t& s : tma) s = std::min<int64_t>(s, 256);
  if (p.swizzlingByteWidth != 0) {
    const int64_t contigSize = 8 * p.swizzlingByteWidth / p.elementBitWidth;
    if (tma[contig] < contigSize)
      return makeError(
          "#ttg.nvmma_shared: block shape is too small for the swizzle byte size: dim " +
          std::to_string(contig) + " of the per-CTA shape holds " +
          std::to_string(p.fp4Padded ? tma[contig] / 2 : tma[contig]) + " elements, a " +
          std::to_string(p.swizzlingByteWidth) + "-byte swizzle row of " +
          std::to_string(p.elementBitWidth) + "-bit elements needs " +
          std::to_string(p.fp4Padded ? contigSize / 2 : contigSize));
    tma[contig] = contigSize;
  }
  if (p.fp4Padded) tma[contig] /= 2;

  const DimName offset = dims::offset();
  if (p.swizzlingByteWidth == 0) {
    // No swizzle: row-major over the TMA block (the last dim fastest), then grown.
    LAYOUT_TRY_ASSIGN(
        ll, LinearLayout::identity1D(uint64_t(tma[rank - 1]), offset, dims::standardOut(rank - 1)));
    for (int d = rank - 2; d >= 0; --d)
      if (auto err = multiplyInto(
              ll, LinearLayout::identity1D(uint64_t(tma[d]), offset, dims::standardOut(d)));
          !err)
        return err.error();
    LAYOUT_TRY_ASSIGN(grown, ensureLayoutNotSmallerThan(ll, namedShape(perCta)));
    return combineCtaCgaWithShape(grown, cga, shape);
  }
  if (rank < 2)
    return makeError("#ttg.nvmma_shared: a swizzled layout (swizzlingByteWidth " +
                     std::to_string(p.swizzlingByteWidth) + ") needs a rank of at least 2");

  // The outer dims collapse into rows; the transposed form's rows and columns swap.
  std::array<int64_t, 2> collapsed{1, tma[rank - 1]};
  for (int d = 0; d + 1 < rank; ++d) {
    if (collapsed[0] > (int64_t{1} << 40) / tma[d])
      return makeError("#ttg.nvmma_shared: the TMA block is too large (over 2^40 rows)");
    collapsed[0] *= tma[d];
  }
  if (p.transposed) std::swap(collapsed[0], collapsed[1]);

  LAYOUT_TRY_ASSIGN(tile, coreMatrix(p));
  const int64_t tileRows = int64_t(tile.outDimSize(0));
  const int64_t tileCols = 8 * std::max<int64_t>(16, p.swizzlingByteWidth) / p.elementBitWidth;
  const int64_t packing = p.fp4Padded ? 2 : 1;
  if (collapsed[1] * packing < tileCols || collapsed[0] < tileRows)
    return makeError("#ttg.nvmma_shared: illegal shared layout; expected the collapsed per-CTA "
                     "shape to be at least [" +
                     std::to_string(tileRows) + ", " + std::to_string(tileCols / packing) +
                     "], got [" + std::to_string(collapsed[0]) + ", " +
                     std::to_string(collapsed[1]) + "]");
  LAYOUT_TRY_ASSIGN(rows, ensureLayoutNotSmallerThan(tile, namedShape(collapsed)));
  if (int64_t(rows.outDimSize(1)) != collapsed[1]) // Triton aborts in reshapeOuts here
    return makeError("#ttg.nvmma_shared: fp4Padded needs swizzle rows of at least 16 padded "
                     "elements; a " +
                     std::to_string(p.swizzlingByteWidth) + "-byte row of " +
                     std::to_string(p.elementBitWidth) + "-bit elements holds " +
                     std::to_string(tileCols));

  // Reshape to the N-d TMA block (its contiguous dim moved last when transposed), then move it
  // back into place.
  std::vector<int64_t> blockShape = tma;
  if (p.transposed) std::rotate(blockShape.begin(), blockShape.begin() + 1, blockShape.end());
  LAYOUT_TRY_ASSIGN(reshaped, reshapeRowMajor(rows, blockShape));
  LinearLayout ll = std::move(reshaped);
  if (p.transposed) {
    std::vector<int> order{rank - 1};
    for (int d = 0; d + 1 < rank; ++d) order.push_back(d);
    LAYOUT_TRY_ASSIGN(t, permuteOutDims(ll, order));
    ll = std::move(t);
  }
  LAYOUT_TRY_ASSIGN(grown, ensureLayoutNotSmallerThan(ll, namedShape(perCta)));
  return combineCtaCgaWithShape(grown, cga, shape);
}

} // namespace layout::triton::detail
