// blockLoadPlanText: the text form of a block-load plan (`layoutctl blockload`): the tile
// layout, one table row per load and per shuffle vector, and the subgroup offsets.
#include "layout/intel/block_load_plan.h"

#include "layout/text/internal/list_text.h"

#include <sstream>

namespace layout::intel {

namespace {

using layout::detail::joinText;
using layout::detail::listText;

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

} // namespace

std::string blockLoadPlanText(const BlockLoadPlan& plan) {
  std::ostringstream out;
  out << "Block load tile layout (memory coordinates in load slots):" << plan.tileLayout.toString()
      << "\n\n";
  out << plan.numLoads << (plan.numLoads == 1 ? " load" : " loads")
      << " per subgroup (offsets in elements, [row, col] of the memory matrix):\n";
  out << "  " << pad("load", 6) << pad("shape", 26) << pad("elemBits", 10)
      << pad("W x H x blocks", 16) << "offset\n";
  for (size_t i = 0; i < plan.loads.size(); ++i) {
    const BlockLoad& l = plan.loads[i];
    const std::string name =
        blockShapeName({l.elemBits, l.tileWidth, l.tileHeight, l.numBlocks, l.transpose, l.vnni});
    out << "  " << pad(std::to_string(i), 6) << pad(name, 26) << pad(std::to_string(l.elemBits), 10)
        << pad(std::to_string(l.tileWidth) + " x " + std::to_string(l.tileHeight) + " x " +
                   std::to_string(l.numBlocks),
               16)
        << "(" << joinText(l.offset) << ")\n";
  }
  out << "\n"
      << plan.shuffles.size() << " shuffle vectors, " << plan.numShuffledRegisters
      << " registers per work-item (" << plan.operandRegisterBits
      << "-bit DPAS registers, indices into the load's result):\n";
  out << "  " << pad("load", 6) << pad("iteration", 11) << pad("dpas", 6) << pad("lane", 6)
      << "registers\n";
  for (const Shuffle& s : plan.shuffles)
    out << "  " << pad(std::to_string(s.load), 6) << pad(std::to_string(s.iteration), 11)
        << pad(std::to_string(s.dpas), 6) << pad(s.lane ? std::to_string(*s.lane) : "all", 6)
        << listText(s.registers) << "\n";
  out << "\nSubgroup offsets (warp -> memory [row, col]):" << plan.subgroupOffset.toString()
      << "\n";
  return out.str();
}

} // namespace layout::intel
