// layoutctl targets: the hardware targets every --target (and gemm --arch) takes, with the facts
// each description holds (layout/target/hardware_target.h).
#include "commands.h"

#include "layout/target/hardware_target.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace layoutctl {

namespace {

namespace target = layout::target;

void printText(const target::HardwareTarget& t) {
  std::cout << t.name << " (" << target::vendorName(t.vendor) << ")";
  if (!t.description.empty()) std::cout << ": " << t.description;
  std::cout << "\n  subgroup size " << t.subgroupSize;
  if (t.registers.registerBytes > 0) {
    std::cout << "; registers of " << t.registers.registerBytes << " B, ";
    for (size_t i = 0; i < t.registers.registersPerThread.size(); ++i)
      std::cout << (i ? " or " : "") << t.registers.registersPerThread[i];
    std::cout << " per thread";
  }
  std::cout << "\n";
  if (t.dpas) {
    std::cout << "  DPAS: execution size " << t.dpas->executionSize << ", systolic depth "
              << t.dpas->systolicDepth << ", repeat count up to " << t.dpas->maxRepeatCount
              << ", types";
    for (const std::string& ty : t.dpas->types) std::cout << " " << ty;
    std::cout << "\n";
  }
  std::cout << "  2D block I/O: " << (t.blockIo ? "yes" : "no") << "\n";
  std::cout << "  bank model: " << (t.bankModel ? t.bankModelName() : "none") << "\n";
}

int runTargets(const Args& args) {
  if (args.positionals().size() > 1)
    throw CliExit{kUsage, "targets takes at most one target (a name or @file.json)"};
  std::vector<target::HardwareTarget> shown;
  if (args.positionals().empty()) {
    shown = target::builtinTargets();
  } else {
    const std::string& spec = args.positionals()[0];
    auto t = target::hardwareTarget(spec);
    if (!t) throw CliExit{spec.rfind('@', 0) == 0 ? kInvalidInput : kUsage, t.error().message};
    shown.push_back(std::move(*t));
  }
  if (args.json()) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& t : shown) out.push_back(target::hardwareTargetToJson(t));
    std::cout << (args.positionals().empty() ? out : out[0]).dump() << "\n";
    return kOk;
  }
  for (size_t i = 0; i < shown.size(); ++i) {
    if (i) std::cout << "\n";
    printText(shown[i]);
  }
  return kOk;
}

} // namespace

void addTargetsCommand(std::vector<Command>& commands) {
  commands.push_back(
      {"targets",
       "targets [NAME|@FILE] [--format text|json]",
       "The hardware targets that --target (and gemm --arch) take everywhere: " +
           target::builtinTargetNames() +
           ", or @file.json with a user description (the JSON that --format json prints: name, "
           "vendor, subgroupSize, registerFile, dpas, blockIo, bankModel). Each shows its "
           "subgroup (warp, wave) size, register file, DPAS unit, whether it has 2D block I/O, "
           "and its shared-memory bank model. The alias xe (the Intel SLM bank model's name) "
           "means pvc.",
       "layoutctl targets pvc --format json",
       {},
       runTargets});
}

} // namespace layoutctl
