// Hardware targets: one description per GPU target, the single vocabulary of `--target` (and of
// `gemm --arch`) across the tools, the batch protocol and the library. A description holds every
// hardware fact the modules use: the subgroup (warp, wave) size, the register file, the DPAS unit,
// the 2D block-I/O rules (read by layout/intel) and the shared-memory bank model (read by
// layout/smem). Built-in targets are JSON text read by the same parser as a user's file.
//
//   auto pvc = layout::target::hardwareTarget("pvc");
//   pvc->subgroupSize;             // 16
//   pvc->dpas->executionSize;      // 16 (N of one DPAS)
//   pvc->bankModelName();          // "xe"
//   auto mine = layout::target::hardwareTarget("@my_gpu.json");  // a user description
//   // error: "target: unknown target 'pvx' (known: pvc, bmg, arc, nvidia, cdna3, cdna4)"
//
// Built-in names: pvc (Intel Xe-HPC), bmg (Intel Xe2), arc (Intel Xe-HPG, DG2), nvidia (NVIDIA
// Volta to Hopper), cdna3 (AMD MI300), cdna4 (AMD MI350). The bank-model name "xe" is accepted as
// an alias of pvc (the batch protocol used it before targets existed).
#pragma once

#include "layout/core/expected.h"

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layout::target {

enum class Vendor { Intel, Nvidia, Amd, Other };
// "intel", "nvidia", "amd", "other".
std::string_view vendorName(Vendor v);

struct RegisterFile {
  // Bytes of one register as the ISA counts it: an Intel GRF spans the subgroup (64 B on PVC),
  // an NVIDIA or AMD register is one lane's 4 bytes.
  int registerBytes = 0;
  // The register counts a thread can be given, smallest first (Intel: 128, or 256 in large-GRF
  // mode).
  std::vector<int> registersPerThread;
};

// Intel's DPAS (XMX) unit: one instruction multiplies A [repeatCount, systolicDepth * opsPerChan]
// by B [systolicDepth * opsPerChan, executionSize].
struct DpasUnit {
  int executionSize = 16;
  int systolicDepth = 8;
  int maxRepeatCount = 8;
  std::vector<std::string> types; // "f16", "bf16", "tf32", "int8"

  bool supports(std::string_view type) const;
};

struct HardwareTarget {
  std::string name;
  Vendor vendor = Vendor::Other;
  std::string description;
  int subgroupSize = 0; // lanes of a subgroup (Intel), warp (NVIDIA), wave (AMD)
  RegisterFile registers;
  std::optional<DpasUnit> dpas;
  // The 2D block-I/O rules (layout/intel/block_io.h reads them), null when the target has none.
  std::shared_ptr<const nlohmann::json> blockIo;
  // The shared-memory bank model (layout/smem/bank_model.h reads it), null when none is known.
  std::shared_ptr<const nlohmann::json> bankModel;

  // The bank model's own name ("nvidia", "cdna3", "cdna4", "xe"; it prefixes instruction names),
  // "" without one.
  std::string bankModelName() const;
};

// The built-in targets, in a fixed order.
const std::vector<HardwareTarget>& builtinTargets();
// The built-in bank models ("nvidia", "cdna3", "cdna4", "xe"), in a fixed order; every built-in
// target's bankModel is one of them.
const std::vector<std::shared_ptr<const nlohmann::json>>& builtinBankModels();
// "pvc, bmg, arc, nvidia, cdna3, cdna4": for messages and --help.
std::string builtinTargetNames();

// A built-in target by name (or the alias "xe"), or a user description when `spec` is
// "@path.json". Errors name the spec and list the known targets.
Expected<HardwareTarget> hardwareTarget(std::string_view spec);

// A user description: {"name", "vendor", "description"?, "subgroupSize", "registerFile"?
// {"registerBytes", "registersPerThread": [..]}, "dpas"? {"executionSize", "systolicDepth",
// "maxRepeatCount", "types"}, "blockIo"? (an object, as blockIoTargetFromJson reads without
// name, subgroupSize and grfBytes, or the name of a built-in target whose rules it shares),
// "bankModel"? (an object, as the bank models are written, or the name of a built-in target or
// bank model)}. Errors name the field path and the rule.
Expected<HardwareTarget> hardwareTargetFromJson(const nlohmann::json& j);
// Reading a user description also checks its "blockIo" and "bankModel" sections with the rules
// of the modules that use them (layout/intel, layout/smem), so a description that reads (and that
// `layoutctl targets @FILE` prints) is one every tool accepts: errors name the section, the field
// path and the rule ("blockIo: surface.maxHeight: expected an integer in [1, 2147483648], got
// -1"). Those modules register their section's check here when they are linked in; each check
// returns an error for a section it refuses and nothing otherwise (also without the section).
using SectionCheck = Expected<void> (*)(const HardwareTarget&);
// Adds a check, once per function (a repeated registration is ignored). Not thread-safe: call it
// during static initialisation, as the modules do.
void registerSectionCheck(SectionCheck check);

// The description as hardwareTargetFromJson reads it (sections written out in full).
nlohmann::ordered_json hardwareTargetToJson(const HardwareTarget& t);

} // namespace layout::target
