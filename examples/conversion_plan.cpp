// How does a convert_layout between two TritonGPU encodings move the data? Converts two encodings
// given as attribute text to linear layouts on the tensor shape and plans the conversion with
// layout::conversion::planConversion: none, a register permutation, intra-warp shuffle rounds, or
// a shared-memory round trip through a synthesized swizzle. Prints conversionPlanText, then where
// every register of one destination lane comes from.
//
//   ./build/examples/conversion_plan                         # the built-in pair below, 32x32 f16
//   ./build/examples/conversion_plan SRC DST 64x64 16 nvidia  # any pair: shape, elemBits, target
#include "layout/conversion/conversion_plan.h"
#include "layout/triton/encoding.h"

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

using namespace layout;

namespace {

Expected<LinearLayout> layoutOf(const std::string& text, const std::vector<int64_t>& shape) {
  auto enc = triton::parseEncoding(text); // errors carry line and column
  if (!enc) return enc.error();
  return triton::toLinearLayout(*enc, shape);
}

} // namespace

int main(int argc, char** argv) {
  // Each lane holds 1x4 of a row, 8x4 lanes per warp ...
  std::string src = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA "
                    "= [4, 1], order = [1, 0]}>";
  // ... to 2x2 per lane, 4x8 lanes: the same warp tiles, so the data only moves between lanes.
  std::string dst = "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA "
                    "= [4, 1], order = [1, 0]}>";
  std::vector<int64_t> shape = {32, 32};
  int elemBits = 16;
  std::string target = "nvidia"; // the bank model used if the plan goes through shared memory
  if (argc != 1 && argc != 6) {
    std::cerr << "usage: conversion_plan [SRC DST RxC ELEM_BITS TARGET]\n";
    return 2;
  }
  if (argc == 6) {
    src = argv[1];
    dst = argv[2];
    char* x = nullptr;
    shape = {std::strtoll(argv[3], &x, 10), *x == 'x' ? std::strtoll(x + 1, nullptr, 10) : 0};
    elemBits = std::atoi(argv[4]);
    target = argv[5];
  }

  auto srcLayout = layoutOf(src, shape);
  auto dstLayout = layoutOf(dst, shape);
  if (!srcLayout || !dstLayout) {
    std::cerr << "error: " << (!srcLayout ? srcLayout : dstLayout).error().message << "\n";
    return 1;
  }
  auto plan = conversion::planConversion(*srcLayout, *dstLayout, elemBits, target);
  if (!plan) {
    std::cerr << "error: " << plan.error().message << "\n";
    return 1;
  }
  std::cout << "src: " << src << "\ndst: " << dst << "\n\n"
            << conversion::conversionPlanText(*plan);

  // comp is a gather map: dst (register, lane, warp, block) -> the src location holding the same
  // element. Apply it to see where each register of dst lane 3 (warp 0) is read from.
  const uint64_t lane = 3;
  std::cout << "\n";
  for (uint64_t r = 0; r < uint64_t(plan->dstRegisters); ++r) {
    std::vector<uint64_t> in(size_t(plan->comp.numInDims()), 0),
        from(size_t(plan->comp.numOutDims()), 0);
    in[0] = r;
    in[1] = lane;
    plan->comp.apply(in, from);
    std::cout << "dst register " << r << " of lane " << lane << " (warp 0) <- src register "
              << from[0] << " of lane " << from[1] << " (warp " << from[2] << ")\n";
  }
  return 0;
}
