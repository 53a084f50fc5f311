// How do I build a TritonGPU encoding in C++ without writing attribute text, and ask which lane
// and register hold a tensor element? Builds a #ttg.blocked, a #ttg.nvidia_mma (the accumulator
// of an mma.sync m16n8k16) and the mma's A operand (#ttg.dot_op) from the typed parameter structs
// of layout/triton/encoding_params.h, prints each as Triton's text, converts it to a linear layout
// over a tensor shape and queries it both ways:
//   forward  (register, lane, warp, block) -> (dim0, dim1)   LinearLayout::apply
//   backward (dim0, dim1) -> (register, lane, warp, block)   LinearLayout::invert, then apply
//
//   ./build/examples/typed_encodings
#include "layout/core/linear_layout.h"
#include "layout/triton/encoding.h"
#include "layout/triton/encoding_params.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

using namespace layout;
using namespace layout::triton;

namespace {

// Every fallible call returns Expected<T>: test it, and read the error's message when it failed.
template <typename T> T orDie(Expected<T> value, const std::string& what) {
  if (!value) {
    std::cerr << "error: " << what << ": " << value.error().message << "\n";
    std::exit(1);
  }
  return std::move(*value);
}

// Prints which hardware location holds each element of `elements`. `layout` must be invertible
// (every element held exactly once: the tensor shape equals the layout's tile).
void whoHolds(const std::string& name, const LinearLayout& layout,
              const std::vector<std::array<uint64_t, 2>>& elements) {
  // The inverse maps (dim0, dim1) to (register, lane, warp, block), in the in-dim order of
  // `layout`. (A layout where several lanes hold one element, a broadcast, is not invertible;
  // pseudoinvert() then gives the smallest holder.)
  LinearLayout inverse = orDie(layout.invert(), name + ": invert");
  for (const auto& e : elements) {
    std::vector<uint64_t> hw(size_t(inverse.numOutDims()));
    inverse.apply(e, hw);
    std::cout << name << ": element (" << e[0] << ", " << e[1] << ") is held by lane " << hw[1]
              << ", register " << hw[0] << " (warp " << hw[2] << ")\n";
  }
}

} // namespace

int main() {
  // ---- #ttg.blocked -------------------------------------------------------------------------
  // Each thread holds 1x4 consecutive elements of a row, a warp is 8x4 threads, one warp per CTA.
  // order = [1, 0]: dim 1 (the columns) is the fastest-varying one.
  BlockedEncoding blocked{.sizePerThread = {1, 4},
                          .threadsPerWarp = {8, 4},
                          .warpsPerCTA = {1, 1},
                          .order = {1, 0},
                          .cgaLayout = {}};
  std::cout << "blocked text: " << printEncoding(blocked) << "\n";
  // toEncoding checks Triton's rules (ranks agree, powers of two, order a permutation, ...).
  Encoding blockedEnc = orDie(toEncoding(blocked), "blocked");
  // The layout over an 8x16 tensor: exactly one warp's tile (8 rows, 4 threads x 4 = 16 columns).
  std::vector<int64_t> blockedShape = {8, 16};
  LinearLayout blockedLayout = orDie(toLinearLayout(blockedEnc, blockedShape), "blocked layout");
  std::cout << "blocked over [8, 16]:\n" << blockedLayout.toString() << "\n";

  // Forward: what does lane 23 hold in register 1? The in-dims are register, lane, warp, block.
  std::vector<uint64_t> in = {1, 23, 0, 0}, out(2);
  blockedLayout.apply(in, out);
  std::cout << "blocked: lane 23, register 1 holds element (" << out[0] << ", " << out[1] << ")\n";
  // Backward: who holds these elements?
  whoHolds("blocked", blockedLayout, {{0, 0}, {5, 13}, {7, 15}});

  // ---- #ttg.nvidia_mma (version 2: Ampere's mma.sync) --------------------------------------
  // One warp, instruction tile 16x8 (m16n8). Over a 16x16 tensor the warp repeats it twice
  // along the columns, in more registers.
  NvidiaMmaEncoding mma{.versionMajor = 2,
                        .versionMinor = 0,
                        .warpsPerCTA = {1, 1},
                        .instrShape = {16, 8},
                        .cgaLayout = {}};
  std::cout << "\nmma text: " << printEncoding(mma) << "\n";
  Encoding mmaEnc = orDie(toEncoding(mma), "nvidia_mma");
  std::vector<int64_t> tile = {16, 16};
  LinearLayout mmaLayout = orDie(toLinearLayout(mmaEnc, tile), "mma layout");
  std::cout << "mma over [16, 16]:\n" << mmaLayout.toString() << "\n";
  whoHolds("mma", mmaLayout, {{0, 0}, {9, 3}, {9, 13}});

  // ---- #ttg.dot_op: operand A (opIdx 0) of that mma ----------------------------------------
  // kWidth = 2: each thread holds pairs of 16-bit elements consecutive along K (bf16 / f16).
  DotOperandEncoding dotA{.opIdx = 0, .parent = mmaEnc, .kWidth = 2};
  std::cout << "\ndot_op A text: " << printEncoding(dotA) << "\n";
  Encoding dotAEnc = orDie(toEncoding(dotA), "dot_op");
  // A is M x K = 16 x 16: one m16n8k16 instruction's A fragment.
  LinearLayout dotALayout = orDie(toLinearLayout(dotAEnc, tile), "dot_op layout");
  std::cout << "dot_op A over [16, 16]:\n" << dotALayout.toString() << "\n";
  whoHolds("dot_op A", dotALayout, {{0, 0}, {10, 12}, {15, 15}});

  // The reader goes the other way: the parameters of a parsed encoding.
  Encoding parsed = orDie(parseEncoding(printEncoding(blocked)), "parse");
  BlockedEncoding back = orDie(blockedEncoding(parsed), "read back");
  std::cout << "\nblocked read back from its text: sizePerThread [" << back.sizePerThread[0] << ", "
            << back.sizePerThread[1] << "]\n";
  return 0;
}
