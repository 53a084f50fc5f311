// Which tensor elements does each lane of each subgroup hold under an XeGPU layout? Parses seed
// 000's `#xegpu.layout` for a [64, 16] tensor (the XeGPU RFC's broadcast example,
// docs/seeds.md#seed-000) and prints, per subgroup, its sg_data tile and, per lane, the tensor
// coordinate in each of its registers (register order).
//
//   ./build/examples/xegpu_lane_coordinates        # every subgroup
//   ./build/examples/xegpu_lane_coordinates 9      # subgroup 9 only
#include "layout/xegpu/xegpu_layout.h"

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

using namespace layout;

namespace {

// "[2, 16]", as the XeGPU attributes print integer lists.
std::string listText(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return "[" + s + "]";
}

int fail(const Error& e) {
  std::cerr << "error: " << e.message << "\n";
  return 1;
}

} // namespace

int main(int argc, char** argv) {
  // 4 x 8 subgroups of [16, 16] on [64, 16]: dim 0 is split over 4 subgroups, dim 1 is broadcast
  // to 8; inst_data [8, 16] cuts each subgroup's block into two 8x16 loads.
  const std::string text = "#xegpu.layout<sg_layout = [4, 8], sg_data = [16, 16], inst_data = "
                           "[8, 16], lane_layout = [1, 16], lane_data = [1, 1], order = [1, 0]>";
  const std::vector<int64_t> shape = {64, 16};
  int64_t only = -1; // the one subgroup to print, or -1 for all
  if (argc > 1) {
    char* end = nullptr;
    only = std::strtoll(argv[1], &end, 10);
    if (*end != '\0' || only < 0) {
      std::cerr << "usage: xegpu_lane_coordinates [SUBGROUP]\n";
      return 2;
    }
  }

  auto l = xegpu::parseXegpuAttr(text); // upstream's verifier runs here
  if (!l) return fail(l.error());
  std::cout << "layout: " << l->text << "\nshape: " << listText(shape) << "\n";
  // The whole distribution as one GF(2) map; zero warp bases are the broadcast subgroups.
  auto ll = xegpu::toLinearLayout(*l, shape);
  if (!ll) return fail(ll.error());
  std::cout << "linear layout (register, lane, warp, block -> dim0, dim1):" << ll->toString()
            << "\n";
  auto perLane = xegpu::distributedShape(*l, shape);
  if (!perLane) return fail(perLane.error());
  std::cout << "per-lane shape: " << listText(*perLane) << "\n";

  int64_t subgroups = 1, lanes = 1;
  for (int64_t s : l->sgLayout) subgroups *= s;
  for (int64_t s : l->laneLayout) lanes *= s;
  if (only >= subgroups) {
    std::cerr << "error: subgroup " << only << ": the layout has " << subgroups << "\n";
    return 1;
  }
  for (int64_t sg = 0; sg < subgroups; ++sg) {
    if (only >= 0 && sg != only) continue;
    // Subgroup ids are linearized by `order` (here row-major: id = 8 * row + column).
    auto grid = xegpu::delinearize(*l, sg, xegpu::Level::Subgroup);
    auto tiles = xegpu::subgroupTiles(*l, shape, sg);
    if (!grid) return fail(grid.error());
    if (!tiles) return fail(tiles.error());
    std::cout << "\nsubgroup " << sg << " (sg_layout coordinate " << listText(*grid)
              << "): sg_data " << listText(tiles->tileShape) << " at";
    for (const auto& offset : tiles->tileOffsets) std::cout << " " << listText(offset);
    std::cout << "\n";
    for (int64_t lane = 0; lane < lanes; ++lane) {
      auto coords = xegpu::laneCoords(*l, shape, lane, sg);
      if (!coords) return fail(coords.error());
      std::cout << "subgroup " << sg << ", lane " << lane << ":";
      for (const auto& c : *coords) std::cout << " " << listText(c);
      std::cout << "\n";
    }
  }
  return 0;
}
