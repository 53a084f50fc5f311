// Helpers shared by the block-load views (block_load_common.h).
#include "block_load_common.h"

#include <algorithm>
#include <utility>

namespace layout::views::detail {

namespace intel = layout::intel;

std::string coordText(int64_t r, int64_t c) {
  return "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
}

std::string subgroupList(const std::vector<int>& subgroups) {
  std::string s = subgroups.size() == 1 ? "subgroup " : "subgroups ";
  for (size_t i = 0; i < subgroups.size(); ++i) s += (i ? ", " : "") + std::to_string(subgroups[i]);
  return s;
}

std::string loadName(const intel::BlockLoad& l) {
  return intel::blockShapeName(
      {l.elemBits, l.tileWidth, l.tileHeight, l.numBlocks, l.transpose, l.vnni});
}

std::vector<LoadSlot> loadSlots(const intel::BlockIoTarget& target, const intel::BlockLoad& l,
                                int64_t rows, int64_t cols, int elemBits, int regBits) {
  if (elemBits <= 0 || elemBits % 8 != 0 || l.elemBits % elemBits != 0 || regBits <= 0) return {};
  const int64_t bytes = elemBits / 8;
  const int64_t pitch = std::max<int64_t>(64, (cols * bytes + 63) / 64 * 64);
  const intel::BlockIoRequest req{
      intel::BlockOp::Load,
      {l.elemBits, l.tileWidth, l.tileHeight, l.numBlocks, l.transpose, l.vnni},
      intel::Surface{0, pitch, rows, pitch},
      0,
      0};
  const uint64_t mask = elemBits >= 64 ? ~uint64_t{0} : (uint64_t{1} << elemBits) - 1;
  std::vector<uint8_t> mem[2];
  std::vector<std::vector<uint64_t>> lanes[2];
  std::vector<uint8_t> grf[2];
  for (int k = 0; k < 2; ++k) {
    mem[k].assign(size_t(pitch * rows), 0);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        for (int64_t b = 0; b < bytes; ++b)
          mem[k][size_t(r * pitch + c * bytes + b)] = uint8_t(uint64_t(k ? c + 1 : r + 1) >> 8 * b);
    auto perLane = intel::loadPerWorkItem(target, req, mem[k]);
    auto image = intel::loadGrfImage(target, req, mem[k]);
    if (!perLane || !image) return {};
    lanes[k] = std::move(*perLane);
    grf[k] = std::move(*image);
  }
  std::vector<LoadSlot> slots(size_t(rows * cols));
  auto slotOf = [&](uint64_t rowPlus1, uint64_t colPlus1) -> LoadSlot* {
    if (rowPlus1 == 0 || colPlus1 == 0 || int64_t(rowPlus1) > rows || int64_t(colPlus1) > cols)
      return nullptr;
    return &slots[size_t(int64_t(rowPlus1 - 1) * cols + int64_t(colPlus1 - 1))];
  };
  for (size_t lane = 0; lane < lanes[0].size() && lane < lanes[1].size(); ++lane)
    for (size_t i = 0; i < lanes[0][lane].size() && i < lanes[1][lane].size(); ++i)
      for (int p = 0; p * elemBits < l.elemBits; ++p) {
        LoadSlot* s = slotOf(lanes[0][lane][i] >> p * elemBits & mask,
                             lanes[1][lane][i] >> p * elemBits & mask);
        if (s && s->workItem < 0) {
          s->workItem = int(lane);
          s->bit = int64_t(i) * l.elemBits + p * elemBits;
          s->reg = int(s->bit / regBits);
        }
      }
  for (size_t o = 0; o + size_t(bytes) <= grf[0].size() && o + size_t(bytes) <= grf[1].size();
       o += size_t(bytes)) {
    uint64_t v[2] = {0, 0};
    for (int k = 0; k < 2; ++k)
      for (int64_t b = 0; b < bytes; ++b) v[k] |= uint64_t(grf[k][o + size_t(b)]) << 8 * b;
    if (LoadSlot* s = slotOf(v[0], v[1]); s && s->grfByte < 0) s->grfByte = int64_t(o);
  }
  return slots;
}

std::string slotText(const LoadSlot& slot, const std::string& load, const std::string& unit,
                     int grfBytes) {
  if (slot.workItem < 0) return "";
  std::string d = "\nwork-item " + std::to_string(slot.workItem) + ", register " +
                  std::to_string(slot.reg) + " of " + load + "'s result (" + unit + ")";
  if (slot.grfByte >= 0 && grfBytes > 0)
    d += "\nGRF byte " + std::to_string(slot.grfByte) + " of " + load + "'s destination (GRF " +
         std::to_string(slot.grfByte / grfBytes) + ", byte " +
         std::to_string(slot.grfByte % grfBytes) + ")";
  return d;
}

void outlineLoad(Scene& s, float x, float y, const Rect& rc, float cell, bool selected,
                 size_t index, const std::string& name, const std::vector<int>* subgroups) {
  s.rects.push_back({x, y, float(rc.cols) * cell, float(rc.rows) * cell, Rgba{0, 0, 0, 0},
                     selected ? palette::kOutline : palette::kBoundary, selected ? 2.f : 1.f});
  if (selected)
    s.texts.push_back({x + 3, y + 2, std::to_string(index) + ": " + name, palette::kText, 12});
  if (subgroups)
    s.texts.push_back(
        {x + 3, y + (selected ? 16.f : 2.f), subgroupList(*subgroups), palette::kText, 12});
}

} // namespace layout::views::detail
