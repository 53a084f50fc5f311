// A brute-force model of shared-memory (LDS/SLM) bank conflicts, used by the tests as an oracle.
// It is written only from the prose of docs/reference/banks-swizzles-visualizers.md (section 3)
// and seed 004, shares no code with liblayout and includes no layout/ header, so it cannot
// inherit liblayout's misunderstandings. Everything is enumerated byte by byte; nothing assumes
// that a vector is contiguous or that a layout is linear beyond what naive::apply computes.
//
// Model: byte a lies in word a / bankBytes, bank word mod banks. Inside one phase, lanes that
// touch the same word share it (broadcast); the phase takes as many wavefronts ("ways") as the
// largest number of distinct words any one bank must deliver, at least 1. The ideal is
// ceil(distinct words / banks), at least 1.
//
//   std::vector<bankoracle::Access> acc;
//   for (int l = 0; l < 32; ++l) acc.push_back({l, uint64_t(l) * 128, 4});
//   bankoracle::countPhase(acc, 32, 4).ways;   // 32: every lane hits bank 0
#pragma once

#include "naive_layout.h"

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace bankoracle {

// One lane touching `bytes` consecutive bytes starting at byteAddress.
struct Access {
  int lane = 0;
  uint64_t byteAddress = 0;
  int bytes = 0;
};

struct PhaseCount {
  int ways = 1;
  int idealWays = 1;
};

// Counts one phase: every byte of every access is enumerated. Lanes are irrelevant here.
PhaseCount countPhase(const std::vector<Access>& accesses, int banks, int bankBytes);

// Explicit-address mode: phase p holds the accesses whose lane is in phaseLaneGroups[p]; lanes
// in no group are inactive. A lane may own several accesses. One result per group.
std::vector<PhaseCount> countIssue(const std::vector<Access>& laneAccesses,
                                   const std::vector<std::vector<int>>& phaseLaneGroups, int banks,
                                   int bankBytes);

// Sorted, distinct banks one access touches (for "thread 1 reads banks 36..39" style checks).
std::vector<int> banksTouched(const Access& access, int banks, int bankBytes);

struct TileCount {
  std::vector<int> perPhaseMaxWays; // max over warps/blocks and issues, one per phase group
  uint64_t wavefronts = 0;          // sum of ways over warps/blocks, issues and phases
  uint64_t idealWavefronts = 0;     // sum of idealWays over the same
};

// Tile mode. `access` has in-dims "register" and "lane", plus any others (warp, block, ...) that
// are all enumerated like extra warp indices; its out-dims are the tensor dims. `shared` maps
// "offset" (other in-dims must have size 1) bijectively onto the same out-dims (matched by
// name); it is inverted by enumerating every offset. Element e at offset o starts at bit
// (paddedAddress ? paddedAddress(o) : o) * elemBits and touches every byte that overlaps its
// bits (so sub-byte elements also work).
// Issue i of a warp accesses registers i*vectorElements + j, j < vectorElements, of every lane
// together; each phase group then contributes, per lane, the bytes of all those elements.
// Throws std::invalid_argument on malformed input (non-bijective shared, unknown coordinates,
// lanes out of range, vectorElements not dividing the register count, ...).
TileCount countTile(const naive::Layout& access, const naive::Layout& shared, int elemBits,
                    int vectorElements, const std::vector<std::vector<int>>& phaseLaneGroups,
                    int banks, int bankBytes,
                    const std::function<uint64_t(uint64_t)>& paddedAddress = {});

// Phase groups written as inclusive lane ranges: {{{0, 3}, {12, 15}}, ...} -> {{0,1,2,3,12,...}}.
std::vector<std::vector<int>>
lanesFromRanges(const std::vector<std::vector<std::pair<int, int>>>& ranges);

// `lanes` lanes cut into consecutive groups of groupSize (NVIDIA half/quarter warps, CDNA3
// ds_write_b128, ...).
std::vector<std::vector<int>> contiguousLaneGroups(int lanes, int groupSize);

// Phase tables transcribed from the reference, section 3.3.
// CDNA4 (gfx950) ds_read_b128, HipKittens Table 5: 4 groups of 16 lanes.
std::vector<std::vector<int>> cdna4DsReadB128Groups();
// CDNA3 (gfx942) ds_read_b128 (= CDNA4 ds_read_b96): 8 groups of 8 lanes.
std::vector<std::vector<int>> cdna3DsReadB128Groups();

} // namespace bankoracle
