// Uses the installed package: parses two TritonGPU encodings, converts them to linear layouts,
// composes one with the inverse of the other, and plans the conversion between them.
#include "layout/conversion/conversion_plan.h"
#include "layout/triton/encoding.h"

#include <cstdint>
#include <iostream>

int main() {
  const int64_t shape[] = {32, 32};
  auto src = layout::triton::parseEncoding("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp "
                                           "= [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>");
  auto dst = layout::triton::parseEncoding("#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp "
                                           "= [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>");
  if (!src || !dst) {
    std::cerr << "error: " << (src ? dst.error() : src.error()).message << "\n";
    return 1;
  }
  auto a = layout::triton::toLinearLayout(*src, shape);
  auto b = layout::triton::toLinearLayout(*dst, shape);
  if (!a || !b) {
    std::cerr << "error: " << (a ? b.error() : a.error()).message << "\n";
    return 1;
  }
  // C with a(x) == b(C(x)): where each source register, lane and warp goes.
  auto c = a->invertAndCompose(*b);
  if (!c) {
    std::cerr << "error: " << c.error().message << "\n";
    return 1;
  }
  std::cout << "invertAndCompose:" << c->toString() << "\n";
  auto plan = layout::conversion::planConversion(*a, *b, /*elemBits=*/16, "nvidia");
  if (!plan) {
    std::cerr << "error: " << plan.error().message << "\n";
    return 1;
  }
  std::cout << layout::conversion::conversionPlanText(*plan);
  return 0;
}
