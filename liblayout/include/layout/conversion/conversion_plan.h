// Layout-conversion planner: how to move a tensor from one distributed layout to another, the way
// Triton's convert_layout lowering decides it (Linear Layouts paper §5), with the plan spelled out.
//
//   using namespace layout;
//   auto plan = conversion::planConversion(src, dst, /*elemBits=*/16, "nvidia");
//   switch (plan->kind) { case conversion::ConversionKind::WarpShuffle: plan->rounds ... }
//   std::cout << conversion::conversionPlanText(*plan);
//
// comp = dst.invertAndCompose(src) (Triton's minimalCvtLayout before its quotients): for every dst
// hardware location, the src location holding the same element. It is a gather map (dst -> src)
// because that direction is defined under broadcast: a dst that holds an element twice takes it
// twice, a src that holds it twice offers its smallest location (invertAndCompose's tie-break).
// Classification:
//   none                  src == dst;
//   register permutation  comp is trivial over lane, warp and block (identity, no cross terms):
//                         each lane already holds what it needs, registers are renamed;
//   intra-warp shuffles   comp is trivial over warp and block: data moves between lanes of one
//                         warp in rounds; per round every lane puts one src vector on the wire and
//                         reads one lane's vector into one dst vector;
//   shared memory         otherwise: a store (src) and a load (dst) through a buffer whose XOR
//                         swizzle comes from smem::synthesizeSwizzle, with both halves' bank
//                         reports. With several blocks (CTAs) each converts its own tile in its
//                         own shared memory (the swizzle is over one CTA's tile); conversions
//                         that move data between blocks (distributed shared memory) are refused.
#pragma once

#include "layout/core/conversion_kind.h"
#include "layout/core/linear_layout.h"
#include "layout/smem/swizzle_synthesis.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layout::conversion {

// The classification (layout/core/conversion_kind.h), the planner's first step.
using layout::ConversionKind;
using layout::conversionKindName;

// One round of shuffles: every lane sends one vector and receives one. Registers are the first
// register of a vector of `vectorElements` consecutive registers. Every warp runs the same rounds.
struct ShuffleRound {
  std::vector<int> sendRegister; // per lane: the src register it puts on the wire
  std::vector<int> readLane;     // per lane: the lane it reads from
  std::vector<int> dstRegister;  // per lane: the dst register it fills (-1: idle this round)
  bool local = false;            // every lane reads itself: register moves, no shuffle issued
};

struct ConversionPlan {
  ConversionKind kind = ConversionKind::None;
  // dst (register, lane, warp, block) -> src (register, lane, warp, block).
  LinearLayout comp;
  int numLanes = 1, numWarps = 1, numBlocks = 1;
  int srcRegisters = 1, dstRegisters = 1; // per lane
  int elemBits = 16;
  // RegisterPermutation: dst register r = src register registerPermutation[r] (same lane).
  std::vector<int> registerPermutation;
  // WarpShuffle.
  int vectorElements = 1;           // consecutive registers that travel together (<= 32 bits)
  std::vector<ShuffleRound> rounds; // in order
  int shuffleRounds = 0;            // rounds that are not local
  int roundsLowerBound = 0;         // distinct dst vectors per lane: one per round at best
  // Per dst register: -1 when a round fills it, else the dst register it copies after the
  // rounds (dst broadcast: the same element in several registers of a lane).
  std::vector<int> registerCopies;
  std::optional<smem::SwizzleResult> shared; // SharedMemory
  std::vector<std::string> notes;
};

// src, dst: distributed layouts (in-dims among register, lane, warp, block; absent ones have size
// 1) over the same out-dims and sizes, with the same lane, warp and block counts. elemBits: 8, 16,
// 32 or 64. target: a bank-model target ("nvidia", "cdna3", "cdna4", "xe") for the shared-memory
// round trip. Errors name the side, the dim and the rule.
Expected<ConversionPlan> planConversion(const LinearLayout& src, const LinearLayout& dst,
                                        int elemBits, std::string_view target);

std::string conversionPlanText(const ConversionPlan& p);
nlohmann::ordered_json conversionPlanToJson(const ConversionPlan& p);

} // namespace layout::conversion
