// The PTX ISA's instruction fragments (cuda_ptx_fragments.h).
#include "cuda_ptx_fragments.h"

#include "cuda_plan_layouts.h"

namespace layout::codegen::cuda_plan {

namespace dims = layout::dims;

TileCoord ptxFragment(char operand, int reg, int lane) {
  const int64_t group = lane >> 2, t = lane & 3;
  switch (operand) {
  case 'A':
    return {group + 8 * ((reg >> 1) & 1), 2 * t + (reg & 1) + 8 * (reg >> 2)};
  case 'B':
    return {2 * t + (reg & 1) + 8 * (reg >> 1), group};
  default:
    return {group + 8 * ((reg >> 1) & 1), 2 * t + (reg & 1) + 8 * (reg >> 2)};
  }
}

std::pair<int, int> ldmatrixSource(int slot, int row, bool trans) {
  if (!trans) return {2 * slot, 4 * row};
  return {2 * slot + (row & 1), row >> 1};
}

Expected<std::map<TileCoord, int>> fragmentRegisters(const LinearLayout& ll, char operand,
                                                     int fragmentRegs, int64_t rowStep,
                                                     int64_t colStep, const std::string& what) {
  for (int r = 0; r < fragmentRegs; ++r)
    for (int lane = 0; lane < 32; ++lane)
      if (at(ll, static_cast<uint64_t>(r), static_cast<uint64_t>(lane), 0) !=
          ptxFragment(operand, r, lane))
        return Error{what + ": register " + std::to_string(r) + " of lane " + std::to_string(lane) +
                     " is not the m16n8k16 fragment's element"};
  std::map<TileCoord, int> origins;
  const uint64_t regs = ll.inDimSize(dims::reg());
  for (uint64_t r = 0; r < regs; r += static_cast<uint64_t>(fragmentRegs)) {
    const TileCoord c = at(ll, r, 0, 0);
    if (c[0] % rowStep || c[1] % colStep)
      return Error{what + ": register " + std::to_string(r) + " starts no instruction tile"};
    origins[c] = static_cast<int>(r);
  }
  return origins;
}

} // namespace layout::codegen::cuda_plan
