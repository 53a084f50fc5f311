// Legality of a 2D block I/O shape and request against a target's limits; the first violated
// rule is reported, naming the field and the limit.
#include "layout/intel/block_io.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <limits>

namespace layout::intel {

namespace {

std::string str(int64_t v) {
  return std::to_string(v);
}

std::string opWithArticle(BlockOp op) {
  return std::string("a ") + std::string(blockOpName(op));
}

Expected<void> positivePow2(int64_t v, const char* field) {
  if (v <= 0 || !std::has_single_bit(static_cast<uint64_t>(v)))
    return makeError(std::string(field) + " " + str(v) + " is not a positive power of two");
  return {};
}

// "32- or 64-bit" from the element rules that have a feature.
template <typename Has> std::string sizesWith(const BlockIoTarget& t, Has has) {
  std::vector<int> bits;
  for (const BlockElementRule& e : t.elements)
    if (has(e)) bits.push_back(e.elemBits);
  if (bits.empty()) return "no";
  std::string out;
  for (size_t i = 0; i < bits.size(); ++i) {
    if (i) out += i + 1 == bits.size() ? "- or " : "-, ";
    out += str(bits[i]);
  }
  return out + "-bit";
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

} // namespace

std::string blockShapeName(const BlockShape& s) {
  std::string prefix = s.transpose ? "transpose_" : s.vnni ? "transform_" : "";
  return prefix + str(s.elemBits) + "b_" + str(s.tileHeight) + "r" + str(s.tileWidth) + "x" +
         str(s.numBlocks) + "c";
}

Expected<void> validateBlockShape(const BlockIoTarget& t, BlockOp op, const BlockShape& s) {
  const BlockElementRule* e = t.element(s.elemBits);
  if (!e) {
    std::string legal;
    for (const BlockElementRule& r : t.elements)
      legal += (legal.empty() ? "" : ", ") + str(r.elemBits);
    return makeError("elemBits " + str(s.elemBits) + " is not a supported element size on " +
                     t.name + " (" + legal + ")");
  }
  if (auto err = positivePow2(s.tileWidth, "tileWidth"); !err) return err;
  if (auto err = positivePow2(s.tileHeight, "tileHeight"); !err) return err;
  if (auto err = positivePow2(s.numBlocks, "numBlocks"); !err) return err;

  std::string bits = str(s.elemBits) + "-bit";
  if (s.transpose && s.vnni) return makeError("transpose and vnni are mutually exclusive");
  // Both rearrange the register result, which a store or prefetch does not have.
  if (s.transpose && op != BlockOp::Load)
    return makeError("transpose applies to loads only, not to " + opWithArticle(op));
  if (s.vnni && op != BlockOp::Load)
    return makeError("vnni applies to loads only, not to " + opWithArticle(op));
  if (s.transpose && !e->transpose)
    return makeError("transpose needs " + sizesWith(t, [](auto& r) { return bool(r.transpose); }) +
                     " elements, not " + bits + " ones");
  if (s.vnni && !e->vnni)
    return makeError("vnni needs " + sizesWith(t, [](auto& r) { return bool(r.vnni); }) +
                     " elements, not " + bits + " ones");

  if (s.tileWidth < e->minTileWidth)
    return makeError("tileWidth " + str(s.tileWidth) + " is below the minimum " +
                     str(e->minTileWidth) + " for " + bits + " elements");
  int oi = static_cast<int>(op);
  if (s.tileHeight > t.maxTileHeight[oi])
    return makeError("tileHeight " + str(s.tileHeight) + " exceeds the " +
                     str(t.maxTileHeight[oi]) + "-row limit of " + opWithArticle(op));
  if (s.numBlocks > e->maxBlocks[oi])
    return makeError("numBlocks " + str(s.numBlocks) + " exceeds the limit of " +
                     str(e->maxBlocks[oi]) + " for " + opWithArticle(op) + " of " + bits +
                     " elements");
  int64_t rowBytes = int64_t{s.elemBits} * s.tileWidth * s.numBlocks / 8;
  if (rowBytes > t.maxRowBytes[oi])
    return makeError("tileWidth " + str(s.tileWidth) +
                     (s.numBlocks > 1 ? " x numBlocks " + str(s.numBlocks) : std::string()) +
                     " x " + bits + " = " + str(rowBytes) + " bytes exceeds the " +
                     str(t.maxRowBytes[oi]) + "-byte row limit of " + opWithArticle(op));
  // The address payload's own width field (binds where the row limit is wider, e.g. 256-byte
  // prefetch rows).
  if (s.tileWidth > e->maxTileWidth)
    return makeError("tileWidth " + str(s.tileWidth) + " exceeds the maximum " +
                     str(e->maxTileWidth) + " for " + bits + " elements");

  if (s.transpose) {
    const BlockTransposeRule& r = *e->transpose;
    if (s.numBlocks > r.maxBlocks)
      return makeError("numBlocks " + str(s.numBlocks) + " exceeds the limit of " +
                       str(r.maxBlocks) + " for a transposed load");
    if (s.tileWidth > r.maxTileWidth)
      return makeError("tileWidth " + str(s.tileWidth) + " exceeds the maximum " +
                       str(r.maxTileWidth) + " of a transposed " + bits + " load");
    if (r.requiredTileHeight && s.tileHeight != r.requiredTileHeight)
      return makeError("tileHeight " + str(s.tileHeight) + " must be " + str(r.requiredTileHeight) +
                       " for a transposed " + bits + " load");
  }
  if (s.vnni && s.tileHeight < e->vnni->minTileHeight)
    return makeError("tileHeight " + str(s.tileHeight) + " is below the minimum " +
                     str(e->vnni->minTileHeight) + " of a VNNI " + bits + " load");
  return {};
}

Expected<void> validateBlockIo(const BlockIoTarget& t, const BlockIoRequest& r) {
  if (auto err = validateBlockShape(t, r.op, r.shape); !err) return err;
  const BlockSurfaceRule& rule = t.surface;
  const Surface& s = r.surface;
  int64_t elemBytes = r.shape.elemBits / 8;

  if (s.baseAddress % static_cast<uint64_t>(rule.baseAlignmentBytes) != 0)
    return makeError("surface.baseAddress " + hex(s.baseAddress) + " is not " +
                     str(rule.baseAlignmentBytes) + "-byte aligned");
  if (s.widthBytes < rule.minWidthBytes)
    return makeError("surface.widthBytes " + str(s.widthBytes) + " is below the minimum " +
                     str(rule.minWidthBytes));
  if (s.widthBytes > rule.maxWidthBytes)
    return makeError("surface.widthBytes " + str(s.widthBytes) + " exceeds the maximum " +
                     str(rule.maxWidthBytes));
  int64_t widthMultiple = std::max(rule.widthMultipleBytes, elemBytes);
  if (s.widthBytes % widthMultiple != 0)
    return makeError("surface.widthBytes " + str(s.widthBytes) + " is not a multiple of " +
                     str(widthMultiple) + " (the larger of " + str(rule.widthMultipleBytes) +
                     " and the element size)");
  if (s.height < 1) return makeError("surface.height " + str(s.height) + " must be at least 1");
  if (s.height > rule.maxHeight)
    return makeError("surface.height " + str(s.height) + " exceeds the maximum " +
                     str(rule.maxHeight));
  if (s.pitchBytes < rule.minPitchBytes)
    return makeError("surface.pitchBytes " + str(s.pitchBytes) + " is below the minimum " +
                     str(rule.minPitchBytes));
  if (s.pitchBytes > rule.maxPitchBytes)
    return makeError("surface.pitchBytes " + str(s.pitchBytes) + " exceeds the maximum " +
                     str(rule.maxPitchBytes));
  if (s.pitchBytes % rule.pitchMultipleBytes != 0)
    return makeError("surface.pitchBytes " + str(s.pitchBytes) + " is not a multiple of " +
                     str(rule.pitchMultipleBytes));
  if (s.pitchBytes < s.widthBytes)
    return makeError("surface.pitchBytes " + str(s.pitchBytes) + " is below surface.widthBytes " +
                     str(s.widthBytes));

  // The instruction's block coordinates are signed 32-bit.
  constexpr int64_t lo = std::numeric_limits<int32_t>::min();
  constexpr int64_t hi = std::numeric_limits<int32_t>::max();
  if (r.x < lo || r.x > hi)
    return makeError("x " + str(r.x) + " is outside the signed 32-bit coordinate range");
  if (r.y < lo || r.y > hi)
    return makeError("y " + str(r.y) + " is outside the signed 32-bit coordinate range");
  if ((r.x * elemBytes) % rule.xMultipleBytes != 0)
    return makeError("x " + str(r.x) + " x " + str(r.shape.elemBits) +
                     "-bit = " + str(r.x * elemBytes) + " bytes is not a multiple of " +
                     str(rule.xMultipleBytes) + " bytes");
  return {};
}

} // namespace layout::intel
