// The OpenCL 2D block I/O built-in shapes (reference §3.1, "Supported shapes", SG16).
#include "layout/codegen/opencl_block_builtins.h"

#include <initializer_list>

namespace layout::codegen {
namespace {

struct BuiltinShapes {
  intel::BlockOp op;
  int elemBits;
  bool vnni, transpose;
  int width;
  std::initializer_list<int> heights; // empty: every power of two 1..32
  std::initializer_list<int> blocks;
};

bool contains(std::initializer_list<int> list, int v) {
  for (int x : list)
    if (x == v) return true;
  return false;
}

constexpr auto kLoad = intel::BlockOp::Load;
constexpr auto kStore = intel::BlockOp::Store;
constexpr auto kPrefetch = intel::BlockOp::Prefetch;

const BuiltinShapes kTable[] = {
    {kLoad, 8, false, false, 32, {}, {1, 2}},
    {kLoad, 8, false, false, 16, {8, 16, 32}, {4}},
    {kLoad, 16, false, false, 16, {}, {1, 2}},
    {kLoad, 32, false, false, 8, {}, {1, 2}},
    {kLoad, 32, false, false, 16, {}, {1}},
    {kLoad, 8, true, false, 16, {32}, {1, 2, 4}},
    {kLoad, 16, true, false, 16, {16, 32}, {1, 2}},
    {kLoad, 32, false, true, 8, {16, 32}, {1}},
    {kStore, 8, false, false, 16, {1, 2, 4, 8}, {1}},
    {kStore, 8, false, false, 32, {1, 2, 4, 8}, {1}},
    {kStore, 16, false, false, 16, {1, 2, 4, 8}, {1}},
    {kStore, 32, false, false, 16, {1, 2, 4, 8}, {1}},
    {kPrefetch, 8, false, false, 32, {}, {1, 2}},
    {kPrefetch, 8, false, false, 16, {32}, {1, 2}},
    {kPrefetch, 8, false, false, 16, {8, 16, 32}, {4}},
    {kPrefetch, 16, false, false, 16, {}, {1, 2}},
    {kPrefetch, 32, false, false, 8, {}, {1, 2}},
    {kPrefetch, 32, false, false, 16, {}, {1}},
};

} // namespace

bool hasOpenClBlockBuiltin(intel::BlockOp op, const intel::BlockShape& s) {
  const bool powerOfTwoHeight =
      s.tileHeight >= 1 && s.tileHeight <= 32 && (s.tileHeight & (s.tileHeight - 1)) == 0;
  for (const auto& t : kTable)
    if (t.op == op && t.elemBits == s.elemBits && t.vnni == s.vnni && t.transpose == s.transpose &&
        t.width == s.tileWidth && contains(t.blocks, s.numBlocks) &&
        (t.heights.size() == 0 ? powerOfTwoHeight : contains(t.heights, s.tileHeight)))
      return true;
  return false;
}

} // namespace layout::codegen
