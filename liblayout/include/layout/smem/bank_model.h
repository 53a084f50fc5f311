// Shared-memory / LDS / SLM bank models: how many banks an instruction sees, how wide they are,
// and which lanes of a warp (wave, subgroup) share one hardware phase. Hardware facts are data:
// built-in targets are an embedded JSON table (nvidia, cdna3, cdna4, xe) and users load their own.
//
//   using namespace layout::smem;
//   auto ins = bankInstruction("cdna4.ds_read_b128");   // 64 banks x 4 B, 4 phases of 16 lanes
//   if (!ins) std::cerr << ins.error().message << "\n";
//   for (const auto& phase : ins->phases) ...           // {0-3, 12-15, 20-27}, ...
//   auto mine = bankInstructionFromJson(nlohmann::json::parse(text));   // a user model
//
// Model. A warp issues an instruction; each lane moves `bytesPerLane` contiguous bytes (plain
// loads and stores) or, for ldmatrix / stmatrix, lane 8m + r gives the address of row r (16 B) of
// matrix m. The hardware serves the lanes phase by phase; inside a phase, lanes that touch
// different 4-byte words of one bank serialize, lanes that touch the same word do not (broadcast).
// The wavefronts of a phase are the largest number of distinct words any one bank must deliver.
#pragma once

#include "layout/core/expected.h"
#include "layout/target/hardware_target.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace layout::smem {

enum class AccessDirection { Read, Write };

struct BankInstruction {
  std::string name; // "<arch>.<instruction>", e.g. "cdna4.ds_read_b128", "nvidia.ldmatrix.x4"
  AccessDirection direction = AccessDirection::Read;
  int laneCount = 32;      // lanes of one warp / wave / subgroup
  int banks = 32;          // banks this instruction sees
  int bankBytes = 4;       // width of one bank
  int bytesPerLane = 4;    // contiguous bytes one lane (one address lane for matrices) moves
  int matrices = 0;        // ldmatrix / stmatrix: 1, 2 or 4 8x8 b16 matrices; 0 otherwise
  bool transposed = false; // ldmatrix / stmatrix .trans
  std::vector<std::vector<int>> phases; // lanes (address lanes) of each phase, in issue order
  // The phases the hardware uses instead when every lane reads what lane ^ 1 reads, or every
  // lane what lane ^ 2 reads (empty: no such merge). Measured on H100 for 64- and 128-bit loads.
  std::vector<std::vector<int>> pairMergedPhases;
  std::string basis; // where the phase groups come from: "measured: ...", "assumed: ..."

  bool isMatrix() const { return matrices > 0; }
};

struct BankTarget {
  std::string name; // "nvidia", "cdna3", "cdna4", "xe"
  std::string description;
  std::vector<BankInstruction> instructions;
};

// The built-in targets, in a fixed order.
const std::vector<BankTarget>& builtinBankTargets();
// A bank model by its own name ("nvidia", "cdna3", "cdna4", "xe"), or the bank model of a hardware
// target (layout/target/hardware_target.h: "pvc", "bmg", "arc", ..., "@file.json").
Expected<BankTarget> bankTarget(std::string_view name);
Expected<BankTarget> bankTarget(const target::HardwareTarget& hw);
// A built-in instruction by its full name "<arch>.<instruction>". The error lists the names.
Expected<BankInstruction> bankInstruction(std::string_view name);

// A user model (the same fields as bankInstructionToJson writes; "phases" may be omitted and is
// then contiguous groups of banks * bankBytes / bytesPerLane lanes). Errors name the field.
Expected<BankInstruction> bankInstructionFromJson(const nlohmann::json& j);
nlohmann::ordered_json bankInstructionToJson(const BankInstruction& ins);

// The phases that serve a request whose lanes read `sameAsPartner` (true when every lane reads
// the same address as lane ^ 1, or every lane as lane ^ 2): pairMergedPhases then, else phases.
const std::vector<std::vector<int>>& effectivePhases(const BankInstruction& ins,
                                                     bool sameAsPartner);

// Checks the invariants every analysis relies on: powers of two, phases a partition of the lanes.
Expected<void> verifyBankInstruction(const BankInstruction& ins);

} // namespace layout::smem
