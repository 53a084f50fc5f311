// Internal: an access layout seen through a shared layout. Every hardware bit (register, lane,
// warp) becomes the element offset it reaches, and an instruction splits the registers into the
// vector one access moves and the accesses a warp issues. Shared by the bank analysis and the
// swizzle synthesis.
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/smem/bank_model.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace layout::smem::detail {

// Offsets reached by each input bit of the access layout (T = shared^-1 ∘ access).
struct AccessGeometry {
  int offsetBits = 0;         // log2 of the tile's element count
  std::vector<uint64_t> reg;  // register bit i -> element offset
  std::vector<uint64_t> lane; // lane bit i -> element offset
  std::vector<uint64_t> warp; // warp bit i -> element offset
};

// The images of in-dim `name`'s bits as packed coordinate words (out width at most 64 bits);
// empty when the layout has no such dim.
std::vector<uint64_t> inDimImages(const LinearLayout& l, DimName name);

// Checks the dims (access: register, lane[, warp][, block of size 1]; shared: offset[, block of
// size 1]; equal tensor dims) and that the shared layout is a bijection.
Expected<AccessGeometry> accessGeometry(const LinearLayout& access, const LinearLayout& shared);

// How one instruction uses a warp's registers.
struct IssuePlan {
  int vectorElements = 1;                // elements per lane per access (per matrix row pair)
  std::vector<uint64_t> phaseRegisters;  // register combos inside one phase (vector / pair)
  std::vector<uint64_t> matrixRegisters; // register combos that pick the matrix (phase index)
  std::vector<uint64_t> issueRegisters;  // register combos that pick the access
};

// Register combos are masks over register bits. Errors say what the registers would have to hold.
Expected<IssuePlan> planIssues(const AccessGeometry& g, const BankInstruction& ins, int elemBits);

// When every phase of `ins` is a coset of one lane subspace: that subspace's basis (lane-index
// XOR differences); std::nullopt otherwise (arbitrary lane groups).
std::optional<std::vector<uint64_t>> phaseLaneSubspace(const BankInstruction& ins);

// Largest 2^k such that offsets 1 .. 2^k - 1 are all reached by registers.
int contiguousRegisterElements(const std::vector<uint64_t>& regOffsets);

// XOR of the images of the bits set in `mask`.
inline uint64_t combine(const std::vector<uint64_t>& images, uint64_t mask) {
  uint64_t v = 0;
  for (size_t i = 0; i < images.size(); ++i)
    if (mask >> i & 1) v ^= images[i];
  return v;
}

} // namespace layout::smem::detail
