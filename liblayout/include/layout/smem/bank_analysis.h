// Bank-conflict analysis: for an access layout (register, lane, warp -> tensor coordinates), a
// shared layout (offset -> tensor coordinates) and an instruction's bank model, which lanes of each
// phase touch which banks and words, the conflict degree (ways) per phase, and the wavefronts of
// the whole tile against the ideal.
//
//   using namespace layout;
//   auto ins = smem::bankInstruction("cdna4.ds_read_b128");
//   smem::SharedAccess a{.access = mfmaReads, .shared = rowMajor32x64, .elemBits = 16};
//   auto report = smem::analyzeBanks(a, *ins);   // 4-way in every phase (seed 004)
//   std::cout << smem::bankReportText(*report);
//
// Semantics. Lane l's elements are its registers; one access of the instruction moves v =
// bytesPerLane / elemBytes elements per lane, which must be v consecutive, v-aligned offsets of
// the shared layout (the code generator may renumber registers, so any v registers whose offsets
// are consecutive qualify). A warp issues registers / v accesses, every warp issues its own.
// For ldmatrix (stmatrix) each access gives every lane 2 b16 elements of one 8x8 matrix; the
// 4 lanes of a row must hold one 16-byte row (.trans: the 8 lanes of a column). Word = byte
// address / bankBytes, bank = word mod banks. A phase takes as many wavefronts as the largest
// number of distinct words one bank serves; its ideal is ceil(distinct words / banks).
//
// Two engines give the same numbers: when both layouts are linear and the phases are cosets of
// one lane subspace, ways = 2^dim(P ∩ S), where P is the span of the offsets one phase touches and
// S the span of the offsets above one bank line (Triton's closed form); otherwise (padded shared
// layouts, explicit byte addresses, arbitrary lane groups) every access is enumerated.
#pragma once

#include "layout/core/linear_layout.h"
#include "layout/smem/bank_model.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace layout::smem {

// The layouts of one shared-memory access.
struct SharedAccess {
  LinearLayout access; // register, lane[, warp][, block] -> dim0..dimN-1
  LinearLayout shared; // offset[, block] -> dim0..dimN-1, a bijection on the tile
  int elemBits = 16;   // 8, 16, 32 or 64
  // Element address of linear offset o when the buffer is padded (#ttg.padded_shared); empty: o.
  std::function<uint64_t(uint64_t)> paddedAddress;
};

// One lane's part of a phase.
struct LaneTouch {
  int lane = 0;
  uint64_t byteAddress = 0; // first byte
  int bytes = 0;
  std::vector<int> banks; // banks touched, in address order
};

struct BankUse {
  int bank = 0;
  std::vector<uint64_t> words; // distinct word addresses (byte address / bankBytes), ascending
  std::vector<int> lanes;      // lanes that touch the bank, ascending
};

struct PhaseReport {
  int phase = 0;
  std::vector<LaneTouch> lanes; // the lanes of the phase in the phase's order
  std::vector<BankUse> banks;   // touched banks, ascending
  int ways = 1;                 // wavefronts of this phase
  int idealWays = 1;            // ceil(distinct words / banks)
};

struct BankReport {
  BankInstruction instruction;
  std::string method; // "linear" or "enumerated"
  int elemBits = 0;
  int vectorElements = 0;           // elements one lane moves per access
  int warps = 1;                    // warps that issue
  int accessesPerWarp = 1;          // instruction issues per warp
  std::vector<int> perPhaseMaxWays; // per phase index: the worst over every issue of every warp
  uint64_t wavefronts = 0;          // whole tile
  uint64_t idealWavefronts = 0;     // whole tile
  std::vector<PhaseReport> phases;  // the first issue of warp 0, phase by phase
  std::vector<std::string> notes;

  uint64_t conflictWavefronts() const { return wavefronts - idealWavefronts; }
  int maxWays() const;
};

// Analysis of a layout pair. Errors: layouts over different tensors, a shared layout that is not
// a bijection, an element width the instruction cannot move, registers that do not hold the
// vector the instruction needs (the message says the widest access the layouts allow).
// With phaseTables false, `phases` stays empty (searches that only compare totals).
Expected<BankReport> analyzeBanks(const SharedAccess& access, const BankInstruction& ins,
                                  bool phaseTables = true);

// Analysis of one issue given as explicit addresses: lane l moves `bytesPerLane` bytes from
// byteAddress (address lanes for matrices). Lanes absent from the list are inactive.
// The largest byte address an analysis takes (addresses above it are refused).
inline constexpr uint64_t kMaxByteAddress = uint64_t{1} << 48;
struct LaneAddress {
  int lane = 0;
  uint64_t byteAddress = 0;
};
Expected<BankReport> analyzeByteAddresses(std::span<const LaneAddress> addresses, int bytesPerLane,
                                          const BankInstruction& ins);

// The number of consecutive elements a lane holds at consecutive, aligned offsets (the widest
// vector the pair allows), in elements. 1 when even two elements are not adjacent.
Expected<int> maxVectorElements(const LinearLayout& access, const LinearLayout& shared);

// Reports. Text: a summary, then per phase a table of lanes and banks. CSV: one row per
// (phase, lane) with its byte address, banks and the phase's ways.
std::string bankReportText(const BankReport& r);
nlohmann::ordered_json bankReportToJson(const BankReport& r);
std::string bankReportCsv(const BankReport& r);

} // namespace layout::smem
