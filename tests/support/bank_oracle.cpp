#include "bank_oracle.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace bankoracle {

namespace {

void checkGeometry(int banks, int bankBytes) {
  if (banks <= 0 || bankBytes <= 0)
    throw std::invalid_argument("bankoracle: banks and bankBytes must be positive");
}

uint64_t dimSize(const naive::Bases& bases) {
  if (bases.size() >= 63) throw std::invalid_argument("bankoracle: in-dim too large");
  return uint64_t(1) << bases.size();
}

// Value v of a mixed-radix counter over `sizes`, least significant dim first.
std::vector<uint64_t> splitIndex(uint64_t v, const std::vector<uint64_t>& sizes) {
  std::vector<uint64_t> out;
  for (uint64_t s : sizes) {
    out.push_back(v % s);
    v /= s;
  }
  return out;
}

} // namespace

PhaseCount countPhase(const std::vector<Access>& accesses, int banks, int bankBytes) {
  checkGeometry(banks, bankBytes);
  // Distinct words per bank: a word touched by several lanes (or bytes) is one broadcast.
  std::map<uint64_t, std::set<uint64_t>> wordsPerBank;
  std::set<uint64_t> words;
  for (const Access& a : accesses) {
    if (a.bytes < 0) throw std::invalid_argument("bankoracle: negative access width");
    for (int k = 0; k < a.bytes; ++k) {
      uint64_t word = (a.byteAddress + uint64_t(k)) / uint64_t(bankBytes);
      words.insert(word);
      wordsPerBank[word % uint64_t(banks)].insert(word);
    }
  }
  PhaseCount pc;
  for (const auto& [bank, ws] : wordsPerBank) pc.ways = std::max(pc.ways, int(ws.size()));
  pc.idealWays = std::max<int>(1, int((words.size() + size_t(banks) - 1) / size_t(banks)));
  return pc;
}

std::vector<PhaseCount> countIssue(const std::vector<Access>& laneAccesses,
                                   const std::vector<std::vector<int>>& phaseLaneGroups, int banks,
                                   int bankBytes) {
  std::vector<PhaseCount> out;
  for (const std::vector<int>& group : phaseLaneGroups) {
    std::set<int> lanes(group.begin(), group.end());
    std::vector<Access> phase;
    for (const Access& a : laneAccesses)
      if (lanes.count(a.lane)) phase.push_back(a);
    out.push_back(countPhase(phase, banks, bankBytes));
  }
  return out;
}

std::vector<int> banksTouched(const Access& access, int banks, int bankBytes) {
  checkGeometry(banks, bankBytes);
  std::set<int> bs;
  for (int k = 0; k < access.bytes; ++k)
    bs.insert(int((access.byteAddress + uint64_t(k)) / uint64_t(bankBytes) % uint64_t(banks)));
  return {bs.begin(), bs.end()};
}

TileCount countTile(const naive::Layout& access, const naive::Layout& shared, int elemBits,
                    int vectorElements, const std::vector<std::vector<int>>& phaseLaneGroups,
                    int banks, int bankBytes,
                    const std::function<uint64_t(uint64_t)>& paddedAddress) {
  checkGeometry(banks, bankBytes);
  if (elemBits <= 0) throw std::invalid_argument("bankoracle: elemBits must be positive");

  // ---- Invert `shared` by enumerating every offset. Coordinates are kept in access's out order.
  const naive::Names outs = naive::outNames(access);
  std::vector<int> sharedOutPos; // position in shared's outs of each of access's out-dims
  for (const std::string& name : outs) {
    int p = naive::outIndex(shared, name);
    if (p < 0) throw std::invalid_argument("bankoracle: shared lacks out-dim " + name);
    sharedOutPos.push_back(p);
  }
  if (shared.outs.size() != outs.size())
    throw std::invalid_argument("bankoracle: shared and access have different out-dims");
  const int offsetIdx = naive::inIndex(shared, "offset");
  if (offsetIdx < 0) throw std::invalid_argument("bankoracle: shared has no offset in-dim");
  for (size_t d = 0; d < shared.ins.size(); ++d)
    if (int(d) != offsetIdx && !shared.ins[d].second.empty())
      throw std::invalid_argument("bankoracle: shared in-dim " + shared.ins[d].first +
                                  " must have size 1");
  const uint64_t numOffsets = dimSize(shared.ins[size_t(offsetIdx)].second);
  uint64_t numCoords = 1;
  for (const auto& [name, size] : shared.outs) numCoords *= size;
  if (numCoords != numOffsets)
    throw std::invalid_argument("bankoracle: shared is not a bijection (sizes differ)");
  std::map<std::vector<uint64_t>, uint64_t> offsetOf;
  for (uint64_t o = 0; o < numOffsets; ++o) {
    std::vector<uint64_t> in(shared.ins.size(), 0);
    in[size_t(offsetIdx)] = o;
    std::vector<uint64_t> sc = naive::apply(shared, in);
    std::vector<uint64_t> key;
    for (int p : sharedOutPos) key.push_back(sc[size_t(p)]);
    if (!offsetOf.emplace(key, o).second)
      throw std::invalid_argument("bankoracle: shared is not injective");
  }

  // ---- The access layout's in-dims: register, lane, and everything else as outer indices.
  const int regIdx = naive::inIndex(access, "register");
  const int laneIdx = naive::inIndex(access, "lane");
  if (regIdx < 0 || laneIdx < 0)
    throw std::invalid_argument("bankoracle: access needs register and lane in-dims");
  const uint64_t numRegs = dimSize(access.ins[size_t(regIdx)].second);
  const uint64_t numLanes = dimSize(access.ins[size_t(laneIdx)].second);
  std::vector<int> outerIdx;
  std::vector<uint64_t> outerSizes;
  uint64_t numOuter = 1;
  for (size_t d = 0; d < access.ins.size(); ++d) {
    if (int(d) == regIdx || int(d) == laneIdx) continue;
    outerIdx.push_back(int(d));
    outerSizes.push_back(dimSize(access.ins[d].second));
    numOuter *= outerSizes.back();
  }
  if (vectorElements <= 0 || numRegs % uint64_t(vectorElements) != 0)
    throw std::invalid_argument("bankoracle: vectorElements must divide the register count");
  for (const std::vector<int>& g : phaseLaneGroups)
    for (int l : g)
      if (l < 0 || uint64_t(l) >= numLanes)
        throw std::invalid_argument("bankoracle: phase lane out of range");
  const uint64_t numIssues = numRegs / uint64_t(vectorElements);

  TileCount tc;
  tc.perPhaseMaxWays.assign(phaseLaneGroups.size(), 0);
  for (uint64_t o = 0; o < numOuter; ++o) {
    std::vector<uint64_t> in(access.ins.size(), 0);
    std::vector<uint64_t> outerVals = splitIndex(o, outerSizes);
    for (size_t k = 0; k < outerIdx.size(); ++k) in[size_t(outerIdx[k])] = outerVals[k];
    for (uint64_t i = 0; i < numIssues; ++i) {
      for (size_t p = 0; p < phaseLaneGroups.size(); ++p) {
        std::vector<Access> phase;
        for (int lane : phaseLaneGroups[p]) {
          in[size_t(laneIdx)] = uint64_t(lane);
          for (int j = 0; j < vectorElements; ++j) {
            in[size_t(regIdx)] = i * uint64_t(vectorElements) + uint64_t(j);
            auto it = offsetOf.find(naive::apply(access, in));
            if (it == offsetOf.end())
              throw std::invalid_argument("bankoracle: access reaches a coordinate not in shared");
            uint64_t elem = paddedAddress ? paddedAddress(it->second) : it->second;
            // Every byte overlapping the element's bits, so sub-byte types work too.
            uint64_t firstBit = elem * uint64_t(elemBits);
            uint64_t firstByte = firstBit / 8;
            uint64_t lastByte = (firstBit + uint64_t(elemBits) - 1) / 8;
            phase.push_back({lane, firstByte, int(lastByte - firstByte + 1)});
          }
        }
        PhaseCount pc = countPhase(phase, banks, bankBytes);
        tc.perPhaseMaxWays[p] = std::max(tc.perPhaseMaxWays[p], pc.ways);
        tc.wavefronts += uint64_t(pc.ways);
        tc.idealWavefronts += uint64_t(pc.idealWays);
      }
    }
  }
  return tc;
}

std::vector<std::vector<int>>
lanesFromRanges(const std::vector<std::vector<std::pair<int, int>>>& ranges) {
  std::vector<std::vector<int>> out;
  for (const auto& group : ranges) {
    std::vector<int> lanes;
    for (auto [lo, hi] : group)
      for (int l = lo; l <= hi; ++l) lanes.push_back(l);
    out.push_back(lanes);
  }
  return out;
}

std::vector<std::vector<int>> contiguousLaneGroups(int lanes, int groupSize) {
  if (groupSize <= 0) throw std::invalid_argument("bankoracle: groupSize must be positive");
  std::vector<std::vector<int>> out;
  for (int start = 0; start < lanes; start += groupSize) {
    std::vector<int> g;
    for (int l = start; l < std::min(lanes, start + groupSize); ++l) g.push_back(l);
    out.push_back(g);
  }
  return out;
}

std::vector<std::vector<int>> cdna4DsReadB128Groups() {
  return lanesFromRanges({{{0, 3}, {12, 15}, {20, 27}},
                          {{4, 11}, {16, 19}, {28, 31}},
                          {{32, 35}, {44, 47}, {52, 59}},
                          {{36, 43}, {48, 51}, {60, 63}}});
}

std::vector<std::vector<int>> cdna3DsReadB128Groups() {
  return lanesFromRanges({{{0, 3}, {20, 23}},
                          {{4, 7}, {16, 19}},
                          {{8, 11}, {28, 31}},
                          {{12, 15}, {24, 27}},
                          {{32, 35}, {52, 55}},
                          {{36, 39}, {48, 51}},
                          {{40, 43}, {60, 63}},
                          {{44, 47}, {56, 59}}});
}

} // namespace bankoracle
