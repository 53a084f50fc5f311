// The front door alone: <layout/layout.h> is the only include, and it is enough to build a layout
// from bases, apply it, invert it and check every value against the bases by hand (an output is
// the XOR of the bases its input bits select). Prints "front door: N checks passed"; exit 1 on a
// mismatch. Built in the tree (ctest layout_front_door) and against the installed package
// (tests/package/downstream_test.sh).
#include <layout/layout.h>

#include <cstdint>
#include <iostream>
#include <string>

namespace {

int checks = 0, failures = 0;

void expect(bool ok, const std::string& what) {
  ++checks;
  if (!ok) {
    ++failures;
    std::cerr << "FAIL " << what << "\n";
  }
}

} // namespace

int main() {
  using namespace layout;

  // layout.h's own usage example (its header comment).
  Expected<LinearLayout> l =
      LinearLayout::create({{dims::lane(), {{0, 1}, {0, 2}, {1, 0}}}},
                           {{dims::standardOut(0), 2}, {dims::standardOut(1), 4}});
  if (!l) {
    std::cerr << "error: " << l.error().message << "\n";
    return 1;
  }
  uint64_t in[1] = {5}, out[2];
  l->apply(in, out); // lane 5 = 4 ^ 1 selects (1, 0) ^ (0, 1): out = {1, 1}
  expect(out[0] == 1 && out[1] == 1, "lane 5 -> (1, 1)");

  // (register, lane) -> (dim0 of 4, dim1 of 8), with an XOR swizzle in lane 4's basis:
  //   register 1 -> (0, 1)   register 2 -> (0, 2)
  //   lane 1 -> (0, 4)       lane 2 -> (1, 0)      lane 4 -> (2, 3)
  Expected<LinearLayout> tile = LinearLayout::create(
      {{dims::reg(), {{0, 1}, {0, 2}}}, {dims::lane(), {{0, 4}, {1, 0}, {2, 3}}}},
      {{dims::standardOut(0), 4}, {dims::standardOut(1), 8}});
  if (!tile) {
    std::cerr << "error: " << tile.error().message << "\n";
    return 1;
  }
  expect(tile->numInDims() == 2 && tile->numOutDims() == 2, "two in-dims, two out-dims");
  expect(tile->inDimSize(0) == 4 && tile->inDimSize(1) == 8, "in sizes 4 and 8");

  // Each row: register, lane, and the output derived by hand from the bases above.
  struct Case {
    uint64_t reg, lane, dim0, dim1;
    const char* why;
  };
  const Case cases[] = {
      {0, 0, 0, 0, "nothing selected: (0, 0)"},
      {3, 0, 0, 3, "register 3 = 1 ^ 2: (0, 1) ^ (0, 2) = (0, 3)"},
      {0, 5, 2, 7, "lane 5 = 1 ^ 4: (0, 4) ^ (2, 3) = (2, 7)"},
      {3, 6, 3, 0, "register 3, lane 6 = 2 ^ 4: (0, 3) ^ (1, 0) ^ (2, 3) = (3, 0)"},
      {1, 7, 3, 6, "register 1, lane 7: (0, 1) ^ (0, 4) ^ (1, 0) ^ (2, 3) = (3, 6)"},
      {5, 0, 0, 1, "register 5: bit 2 is past the dim's size 4 and is ignored: (0, 1)"},
  };
  for (const Case& c : cases) {
    uint64_t ins[2] = {c.reg, c.lane}, outs[2] = {99, 99};
    tile->apply(ins, outs);
    expect(outs[0] == c.dim0 && outs[1] == c.dim1, c.why);
    // The named form gives the same values, the in-dims in any order.
    const std::pair<DimName, uint64_t> named[] = {{dims::lane(), c.lane}, {dims::reg(), c.reg}};
    auto r = tile->apply(named);
    expect(r && (*r)[0].second == c.dim0 && (*r)[1].second == c.dim1,
           std::string("named apply: ") + c.why);
  }

  // Packed as bits (dim0 in bits 0-1, dim1 in bits 2-4) the five bases are 4, 8, 16, 1 and 14:
  // 14 = 8 ^ 4 ^ 2, so they span all five output bits. Five in bits, five out bits: invertible.
  expect(tile->rank() == 5 && tile->isInvertible(), "rank 5, invertible");
  Expected<LinearLayout> inverse = tile->invert();
  if (!inverse) {
    std::cerr << "error: " << inverse.error().message << "\n";
    return 1;
  }
  uint64_t coord[2] = {3, 0}, loc[2];
  inverse->apply(coord, loc);
  expect(loc[0] == 3 && loc[1] == 6, "(3, 0) is held by register 3 of lane 6");
  for (uint64_t reg = 0; reg < 4; ++reg)
    for (uint64_t lane = 0; lane < 8; ++lane) {
      uint64_t ins[2] = {reg, lane}, outs[2], back[2];
      tile->apply(ins, outs);
      inverse->apply(outs, back);
      expect(back[0] == reg && back[1] == lane,
             "invert(apply(" + std::to_string(reg) + ", " + std::to_string(lane) + "))");
    }

  if (failures) {
    std::cerr << "front door: " << failures << " of " << checks << " checks failed\n";
    return 1;
  }
  std::cout << "front door: " << checks << " checks passed\n";
  return 0;
}
