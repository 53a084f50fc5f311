// Reference executors of 2D block loads and stores on a host buffer: the GRF image follows the
// vISA LOAD_BLOCK2D pseudo-code, the per-work-item view the OpenCL / SPIR-V one (see block_io.h).
#include "layout/intel/block_io.h"

#include "layout/core/element_bits.h"
#include <algorithm>
#include <bit>

namespace layout::intel {

namespace {

// Where each element of a block goes, in elements of the GRF image and of the per-lane arrays.
struct Geometry {
  int64_t elemBytes, width, height, blocks, subgroup;
  bool transpose, vnni;
  int64_t epd;        // elements per dword (VNNI group of rows)
  int64_t rowPitch;   // elements of a GRF row before transform interleaving, power of two
  int64_t blockSize;  // elements of one block
  int64_t blockPitch; // elements from one block to the next (GRF aligned)
  int64_t unitBytes;  // per-work-item unit D
  int64_t blockUnits; // units of one block
  int64_t slotsPerBlock;

  Geometry(const BlockIoTarget& t, const BlockShape& s)
      : elemBytes(s.elemBits / 8), width(s.tileWidth), height(s.tileHeight), blocks(s.numBlocks),
        subgroup(t.subgroupSize), transpose(s.transpose), vnni(s.vnni) {
    epd = vnni ? 4 / elemBytes : 1;
    int64_t rowLen = transpose ? height : width;
    rowPitch = static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(rowLen)));
    blockSize = rowPitch * (transpose ? width : height);
    int64_t epr = t.grfBytes / elemBytes;
    blockPitch = (blockSize + epr - 1) / epr * epr;
    // A GRF row has rowPitch units (dwords of epd rows for VNNI); wider than the subgroup, a lane
    // takes consecutive units of it (packed D); transposed d32 rows are never packed (reference
    // §3.1).
    int64_t baseBytes = vnni ? 4 : elemBytes;
    int64_t pack = transpose ? 1 : std::max<int64_t>(1, rowPitch / subgroup);
    unitBytes = pack * baseBytes;
    blockUnits = blockSize * elemBytes / unitBytes;
    slotsPerBlock = (blockUnits + subgroup - 1) / subgroup;
  }

  int64_t elementsPerUnit() const { return unitBytes / elemBytes; }
  int64_t elementsPerLane() const { return blocks * slotsPerBlock * elementsPerUnit(); }

  // Image index (elements) of block element (row y, column x) of block b.
  int64_t imageIndex(int64_t b, int64_t y, int64_t x) const {
    if (transpose) return b * blockPitch + x * rowPitch + y;
    if (vnni) return b * blockPitch + (y / epd) * epd * rowPitch + x * epd + y % epd;
    return b * blockPitch + y * rowPitch + x;
  }
};

// The surface as a host view: element (row, col) in surface coordinates.
class SurfaceView {
public:
  SurfaceView(const BlockIoRequest& r, size_t memoryBytes)
      : s_(r.surface), elemBytes_(r.shape.elemBits / 8), memoryBytes_(memoryBytes) {}

  bool inBounds(int64_t row, int64_t col) const {
    return row >= 0 && row < s_.height && col >= 0 && col < s_.widthBytes / elemBytes_;
  }
  // The byte address of an in-bounds element, or an error when it is outside the buffer.
  Expected<uint64_t> address(int64_t row, int64_t col) const {
    uint64_t offset = static_cast<uint64_t>(row) * static_cast<uint64_t>(s_.pitchBytes) +
                      static_cast<uint64_t>(col * elemBytes_);
    uint64_t size = memoryBytes_;
    if (s_.baseAddress > size || offset > size - s_.baseAddress ||
        static_cast<uint64_t>(elemBytes_) > size - s_.baseAddress - offset)
      return makeError("surface element (row " + std::to_string(row) + ", column " +
                       std::to_string(col) + ") at byte address " +
                       std::to_string(s_.baseAddress + offset) + " lies outside the " +
                       std::to_string(size) + "-byte memory buffer");
    return s_.baseAddress + offset;
  }

private:
  Surface s_;
  int64_t elemBytes_;
  size_t memoryBytes_;
};

uint64_t readLittle(const uint8_t* p, int64_t bytes) {
  uint64_t v = 0;
  for (int64_t i = 0; i < bytes; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

void writeLittle(uint8_t* p, int64_t bytes, uint64_t v) {
  for (int64_t i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

Expected<void> checkOp(const BlockIoRequest& r, BlockOp want, const char* fn) {
  if (r.op != want)
    return makeError(std::string(fn) + " needs a " + std::string(blockOpName(want)) +
                     " request, not a " + std::string(blockOpName(r.op)));
  return {};
}

// Whether Geometry is defined for a shape (sizes of an illegal shape are 0, not a crash).
bool hasGeometry(const BlockIoTarget& t, const BlockShape& s) {
  // Bounded so that the sizes cannot overflow 64 bits.
  auto pow2 = [](int v) {
    return v > 0 && v <= (1 << 16) && std::has_single_bit(static_cast<unsigned>(v));
  };
  const bool bitsOk = isElementBits(s.elemBits);
  return bitsOk && pow2(s.tileWidth) && pow2(s.tileHeight) && pow2(s.numBlocks) &&
         !(s.vnni && s.elemBits > 16) && pow2(t.subgroupSize) && t.grfBytes >= 8;
}

} // namespace

int64_t grfImageBytes(const BlockIoTarget& t, const BlockShape& s) {
  if (!hasGeometry(t, s)) return 0;
  Geometry g(t, s);
  return g.blocks * g.blockPitch * g.elemBytes;
}

int64_t elementsPerWorkItem(const BlockIoTarget& t, const BlockShape& s) {
  if (!hasGeometry(t, s)) return 0;
  return Geometry(t, s).elementsPerLane();
}

Expected<std::vector<uint8_t>> loadGrfImage(const BlockIoTarget& t, const BlockIoRequest& r,
                                            std::span<const uint8_t> memory) {
  if (auto e = checkOp(r, BlockOp::Load, "loadGrfImage"); !e) return e.error();
  if (auto e = validateBlockIo(t, r); !e) return e.error();
  Geometry g(t, r.shape);
  SurfaceView view(r, memory.size());
  std::vector<uint8_t> image(static_cast<size_t>(g.blocks * g.blockPitch * g.elemBytes), 0);
  for (int64_t b = 0; b < g.blocks; ++b)
    for (int64_t y = 0; y < g.height; ++y)
      for (int64_t x = 0; x < g.width; ++x) {
        int64_t row = r.y + y, col = r.x + b * g.width + x;
        if (!view.inBounds(row, col)) continue; // out-of-bounds reads are zero
        auto addr = view.address(row, col);
        if (!addr) return addr.error();
        uint64_t v = readLittle(memory.data() + *addr, g.elemBytes);
        writeLittle(image.data() + g.imageIndex(b, y, x) * g.elemBytes, g.elemBytes, v);
      }
  return image;
}

Expected<std::vector<std::vector<uint64_t>>>
loadPerWorkItem(const BlockIoTarget& t, const BlockIoRequest& r, std::span<const uint8_t> memory) {
  if (auto e = checkOp(r, BlockOp::Load, "loadPerWorkItem"); !e) return e.error();
  auto image = loadGrfImage(t, r, memory);
  if (!image) return image.error();
  Geometry g(t, r.shape);
  std::vector<std::vector<uint64_t>> lanes(static_cast<size_t>(g.subgroup));
  for (int64_t l = 0; l < g.subgroup; ++l) {
    std::vector<uint64_t>& out = lanes[static_cast<size_t>(l)];
    out.reserve(static_cast<size_t>(g.elementsPerLane()));
    for (int64_t b = 0; b < g.blocks; ++b)
      for (int64_t j = 0; j < g.slotsPerBlock; ++j) {
        int64_t unit = j * g.subgroup + l;
        for (int64_t k = 0; k < g.elementsPerUnit(); ++k) {
          if (unit >= g.blockUnits) { // past the block: undefined, reported as 0
            out.push_back(0);
            continue;
          }
          int64_t byte = b * g.blockPitch * g.elemBytes + unit * g.unitBytes + k * g.elemBytes;
          out.push_back(readLittle(image->data() + byte, g.elemBytes));
        }
      }
  }
  return lanes;
}

Expected<void> storePerWorkItem(const BlockIoTarget& t, const BlockIoRequest& r,
                                const std::vector<std::vector<uint64_t>>& data,
                                std::span<uint8_t> memory) {
  if (auto e = checkOp(r, BlockOp::Store, "storePerWorkItem"); !e) return e;
  if (auto e = validateBlockIo(t, r); !e) return e;
  Geometry g(t, r.shape);
  if (static_cast<int64_t>(data.size()) != g.subgroup)
    return makeError("data has " + std::to_string(data.size()) + " lanes; the subgroup has " +
                     std::to_string(g.subgroup));
  int64_t perLane = g.elementsPerLane();
  int bits = r.shape.elemBits;
  for (size_t l = 0; l < data.size(); ++l) {
    if (static_cast<int64_t>(data[l].size()) != perLane)
      return makeError("data[" + std::to_string(l) + "] has " + std::to_string(data[l].size()) +
                       " elements; a " + blockShapeName(r.shape) + " store takes " +
                       std::to_string(perLane) + " per lane");
    for (size_t i = 0; i < data[l].size(); ++i)
      if (bits < 64 && (data[l][i] >> bits) != 0)
        return makeError("data[" + std::to_string(l) + "][" + std::to_string(i) +
                         "] = " + std::to_string(data[l][i]) + " does not fit in " +
                         std::to_string(bits) + " bits");
  }

  // Lanes -> GRF image (the inverse of loadPerWorkItem), then image -> memory.
  std::vector<uint8_t> image(static_cast<size_t>(g.blocks * g.blockPitch * g.elemBytes), 0);
  for (int64_t l = 0; l < g.subgroup; ++l) {
    int64_t i = 0;
    for (int64_t b = 0; b < g.blocks; ++b)
      for (int64_t j = 0; j < g.slotsPerBlock; ++j) {
        int64_t unit = j * g.subgroup + l;
        for (int64_t k = 0; k < g.elementsPerUnit(); ++k, ++i) {
          if (unit >= g.blockUnits) continue;
          int64_t byte = b * g.blockPitch * g.elemBytes + unit * g.unitBytes + k * g.elemBytes;
          writeLittle(image.data() + byte, g.elemBytes, data[static_cast<size_t>(l)][i]);
        }
      }
  }
  // Check every address before writing any, so that an error leaves memory untouched.
  SurfaceView view(r, memory.size());
  std::vector<std::pair<uint64_t, int64_t>> writes; // (address, image element)
  for (int64_t b = 0; b < g.blocks; ++b)
    for (int64_t y = 0; y < g.height; ++y)
      for (int64_t x = 0; x < g.width; ++x) {
        int64_t row = r.y + y, col = r.x + b * g.width + x;
        if (!view.inBounds(row, col)) continue; // out-of-bounds writes are dropped
        auto addr = view.address(row, col);
        if (!addr) return addr.error();
        writes.emplace_back(*addr, g.imageIndex(b, y, x));
      }
  for (auto [addr, index] : writes)
    writeLittle(memory.data() + addr, g.elemBytes,
                readLittle(image.data() + index * g.elemBytes, g.elemBytes));
  return {};
}

} // namespace layout::intel
