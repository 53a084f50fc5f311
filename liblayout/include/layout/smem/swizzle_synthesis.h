// Conflict-free shared layouts: given the layout that stores a tile and the layout that loads it,
// find an XOR swizzle (a shared layout linear over GF(2)) that gives both sides the widest vectors
// and the fewest wavefronts, prove it against the lower bound, and compare the parametric families
// compilers use (Triton's vec / perPhase / maxPhase; seed 004's swizzle unit / max phase).
//
//   using namespace layout;
//   smem::SwizzleRequest req{.store = gatherLayout, .load = mfmaReads, .elemBits = 16,
//                            .storeInstruction = *smem::bankInstruction("cdna4.ds_write_b32"),
//                            .loadInstruction = *smem::bankInstruction("cdna4.ds_read_b128")};
//   auto res = smem::synthesizeSwizzle(req);
//   res->shared;              // offset -> dims
//   res->lowerBound.met;      // true: both sides at their ideal wavefronts
//
// Method (after Triton's GenericSwizzling, Linear Layouts paper §5.4). Offsets split into the
// vector (low bits, one access of the wider side), the bank line (the bits below banks * bankBytes)
// and segments (the rest, spanning S). A phase touching the offset span P costs 2^dim(P ∩ S)
// wavefronts and at least 2^max(0, dim P - bank-line bits). Every lane must start its vector at
// the same register, so the offsets above the vector (Rest) must hold the wide side's lanes and
// warps; Rest is completed so as to meet the narrow side's P as little as possible, and S is then
// grown inside Rest one vector at a time, each outside the spans S + P of both sides while one
// exists (outside two proper subspaces there always is one). The tests compare the result with an
// exhaustive search over every legal layout of small tiles.
#pragma once

#include "layout/smem/bank_analysis.h"

#include <optional>
#include <string>
#include <vector>

namespace layout::smem {

struct SwizzleRequest {
  LinearLayout store; // register, lane[, warp] -> dims: who writes the tile
  LinearLayout load;  // register, lane[, warp] -> dims: who reads it
  int elemBits = 16;
  BankInstruction storeInstruction;
  BankInstruction loadInstruction;
  bool compareFamilies = true; // also search the parametric families (2-D tiles)
};

// The least wavefronts one side can take with any shared layout that keeps its vector.
struct SideBound {
  int waysPerPhase = 1;
  uint64_t wavefronts = 0;
};

struct LowerBound {
  SideBound store, load;
  bool met = false; // the synthesized layout reaches both
};

// A member of a parametric family and what it costs.
struct FamilyCandidate {
  // "triton.swizzled_shared" (best of vec x perPhase x maxPhase x order), "xor.unit-phase" (the
  // row-major XOR swizzle of seed 004: best swizzle unit x max phase, one row per phase), and
  // "xor.unit-phase.rule" (the member its rule picks: unit = the wider access, max phase =
  // min(8, columns / unit)). Output names only (never read back).
  std::string family;
  std::string parameters; // e.g. "vec=8, perPhase=1, maxPhase=8" / "swizzleUnit=8, maxPhase=8"
  std::string encoding;   // the #ttg.swizzled_shared text that builds it
  int vec = 1, perPhase = 1, maxPhase = 1;
  int order0 = 1; // the fastest dim
  LinearLayout shared;
  BankReport store, load;
  std::vector<std::string> explanation; // why its residual conflicts cannot be removed
};

struct SwizzleResult {
  LinearLayout shared; // the synthesized layout: offset -> dims
  BankReport store, load;
  LowerBound lowerBound;
  std::vector<FamilyCandidate> families; // the best member of each family (2-D tiles)
  std::vector<std::string> explanation;  // how the result compares, and why residue is unavoidable
};

// Errors: layouts over different shapes, instruction widths the registers cannot feed (the message
// gives the widest vector each side allows), lane counts that differ from the instructions'.
Expected<SwizzleResult> synthesizeSwizzle(const SwizzleRequest& req);

// synthesizeSwizzle with the instructions taken from `target` ("nvidia", "cdna3", "cdna4", "xe"):
// every pair of plain store / load widths the registers allow is synthesized, and the pair with
// the fewest wavefronts wins (ties: the wider accesses). The result's notes say what was chosen.
Expected<SwizzleResult> synthesizeSwizzleForTarget(const LinearLayout& store,
                                                   const LinearLayout& load, int elemBits,
                                                   std::string_view target);

// The widest plain (non-matrix) instruction of `target` in `direction` whose access fits in the
// registers `regs` (elements per lane that are contiguous both in the layout and in memory).
Expected<BankInstruction> widestInstruction(std::string_view target, AccessDirection direction,
                                            int elemBits, int maxVectorElements);

// The elements one side alone can move (its register span, capped at `capElements`).
int sideVectorElements(const LinearLayout& side, int capElements);

// Seed 004's swizzle on a row-major 2-D tile [rows, cols]: the column chunk of `swizzleUnit`
// elements is XOR'd with row % maxPhase. It is Triton's
// #ttg.swizzled_shared<{vec = swizzleUnit, perPhase = 1, maxPhase = maxPhase, order = [1, 0]}>.
// Rules: powers of two, swizzleUnit <= cols, maxPhase <= cols / swizzleUnit (no chunk leaves the
// row). maxPhase 1 is the plain row-major layout.
Expected<LinearLayout> xorSwizzleShared(std::span<const int64_t> shape, int swizzleUnit,
                                        int maxPhase);
// The unswizzled row-major shared layout of any rank (last dim fastest).
Expected<LinearLayout> rowMajorShared(std::span<const int64_t> shape);

std::string swizzleResultText(const SwizzleResult& r);
nlohmann::ordered_json swizzleResultToJson(const SwizzleResult& r);

} // namespace layout::smem
