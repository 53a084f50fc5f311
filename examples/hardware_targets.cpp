// What does the library know about my GPU, and how do I describe one it does not know? Looks up
// the built-in target "pvc" (Intel Data Center GPU Max) and prints its subgroup size, register
// file, DPAS unit and shared-local-memory bank model; then reads a description of one's own from
// a JSON file (the format of docs/interchange.md §2.2 "Targets": what `layoutctl targets NAME
// --format json` prints) and uses both in the same bank analysis: 16 lanes reading 32-bit words
// 64 bytes apart.
//
//   ./build/examples/hardware_targets                       # examples/data/my_gpu_target.json
//   ./build/examples/hardware_targets path/to/target.json
//
// Every tool takes the same names: `layoutctl ... --target pvc` or `--target @my_gpu.json`, and a
// batch request's "target": "@my_gpu.json".
#include "layout/smem/bank_analysis.h"
#include "layout/smem/bank_model.h"
#include "layout/target/hardware_target.h"

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#ifndef LAYOUT_EXAMPLES_DATA_DIR
#define LAYOUT_EXAMPLES_DATA_DIR "examples/data"
#endif

using namespace layout;

namespace {

// Prints the facts the modules read from a target.
void describe(const target::HardwareTarget& t) {
  std::cout << "== " << t.name << " (" << target::vendorName(t.vendor) << "): " << t.description
            << "\n";
  std::cout << "subgroup size: " << t.subgroupSize << " lanes\n";
  std::cout << "register file: " << t.registers.registerBytes << " bytes per register;";
  for (int n : t.registers.registersPerThread) std::cout << " " << n;
  std::cout << " registers per thread\n";
  if (t.dpas) {
    // One DPAS multiplies A [repeatCount, systolicDepth * opsPerChan] by B [systolicDepth *
    // opsPerChan, executionSize]; opsPerChan is 2 for 16-bit types (a 32-bit channel holds two).
    const auto& d = *t.dpas;
    std::cout << "DPAS: executionSize " << d.executionSize << ", systolicDepth " << d.systolicDepth
              << ", maxRepeatCount " << d.maxRepeatCount << "; types";
    for (const auto& type : d.types) std::cout << " " << type;
    std::cout << "\n";
    const int k = d.systolicDepth * 2;
    std::cout << "one bf16 DPAS: A [" << d.maxRepeatCount << ", " << k << "] x B [" << k << ", "
              << d.executionSize << "] -> C [" << d.maxRepeatCount << ", " << d.executionSize
              << "]\n";
    std::cout << "supports tf32: " << (d.supports("tf32") ? "yes" : "no") << "\n";
  } else {
    std::cout << "DPAS: none\n";
  }
  std::cout << "2D block I/O: " << (t.blockIo ? "yes" : "no") << "\n";
}

// The bank model's 32-bit read, and one issue of it: lane l reads the word at byte 64 * l (a
// stride of 16 ints, the oneAPI guide's example of a bank conflict).
int strideConflict(const target::HardwareTarget& t) {
  auto banks = smem::bankTarget(t); // the target's "bankModel" section
  if (!banks) {
    std::cerr << "error: " << banks.error().message << "\n";
    return 1;
  }
  for (const smem::BankInstruction& ins : banks->instructions) {
    if (ins.direction != smem::AccessDirection::Read || ins.bytesPerLane != 4 || ins.isMatrix())
      continue;
    std::cout << "bank model " << banks->name << ": " << ins.banks << " banks x " << ins.bankBytes
              << " B, " << ins.laneCount << " lanes, " << ins.phases.size() << " phase(s) for "
              << ins.name << "\n";
    std::vector<smem::LaneAddress> addresses;
    for (int lane = 0; lane < ins.laneCount; ++lane)
      addresses.push_back({lane, uint64_t(64) * uint64_t(lane)});
    auto report = smem::analyzeByteAddresses(addresses, 4, ins);
    if (!report) {
      std::cerr << "error: " << report.error().message << "\n";
      return 1;
    }
    std::cout << "stride-64-byte read (" << ins.name << "): " << report->maxWays() << "-way, "
              << report->wavefronts << " wavefronts (ideal " << report->idealWavefronts << ")\n";
    return 0;
  }
  std::cout << "bank model " << banks->name << ": no 32-bit read\n";
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  if (argc > 2) {
    std::cerr << "usage: hardware_targets [TARGET.json]\n";
    return 2;
  }
  // 1. A built-in target by name (the list: target::builtinTargetNames()).
  auto pvc = target::hardwareTarget("pvc");
  if (!pvc) {
    std::cerr << "error: " << pvc.error().message << "\n";
    return 1;
  }
  describe(*pvc);
  if (strideConflict(*pvc) != 0) return 1;

  // A name it does not know is an error that lists the known ones.
  auto typo = target::hardwareTarget("pvx");
  std::cout << "looking up 'pvx': " << (typo ? "found?" : typo.error().message) << "\n\n";

  // 2. A description of one's own: "@" + the path of its JSON file. Reading it checks every
  //    section with the rules of the module that uses it; an error names the field path.
  const std::string path = argc == 2
                               ? std::string(argv[1])
                               : std::string(LAYOUT_EXAMPLES_DATA_DIR) + "/my_gpu_target.json";
  auto mine = target::hardwareTarget("@" + path);
  if (!mine) {
    std::cerr << "error: " << mine.error().message << "\n";
    return 1;
  }
  describe(*mine);
  return strideConflict(*mine);
}
