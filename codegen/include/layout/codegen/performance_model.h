// A first-order performance model of a GEMM kernel on one Intel GPU: per K step, the cycles the
// DPAS of a workgroup take on one Xe core against the cycles its A and B tiles take to arrive at
// that core's share of the memory bandwidth. It brackets the fraction of DPAS peak the
// configuration can reach: without L2 reuse (every workgroup streams its tiles from memory: the
// lower bound) and with perfect L2 reuse (each operand byte read from memory once: the upper
// bound), both scaled by the cores the waves of workgroups keep busy (one workgroup per Xe core).
// It ignores latency and occupancy beyond that, the load, shuffle and barrier instructions and the
// epilogue.
//
//   auto kernel = layout::codegen::buildGemmKernel(config);
//   if (auto m = layout::codegen::predictPerformance(*kernel))
//     std::cout << m->device << ": " << m->lowerFraction << " .. " << m->upperFraction << "\n";
#pragma once

#include "layout/codegen/kernel_ir.h"

#include <optional>
#include <string>

namespace layout::codegen {

// The throughput figures of one device (docs/reference/intel-xe.md §4.4).
struct DeviceThroughput {
  std::string device; // "Intel Data Center GPU Max 1100"
  int xeCores = 0;
  double clockGHz = 0;
  double dpasFlopPerClock = 0; // bf16 / f16 DPAS FLOP per clock per Xe core
  double memoryGBps = 0;
  double peakTflops() const { return xeCores * dpasFlopPerClock * clockGHz / 1e3; }
};

// The device a built-in target's figures are taken from (pvc: Max 1100, bmg: Arc B580), or
// nullopt for targets without published figures.
std::optional<DeviceThroughput> deviceThroughput(const std::string& target);

struct PerformanceModel {
  DeviceThroughput device;
  double dpasCyclesPerKStep = 0;   // one workgroup on one Xe core
  double tileBytesPerKStep = 0;    // A and B tiles of one workgroup
  double memoryCyclesPerKStep = 0; // those bytes at the core's share of the bandwidth
  double coreUtilization = 0;      // workgroups / (waves x Xe cores): the last wave's idle cores
  double lowerFraction = 0;        // of DPAS peak, no L2 reuse
  double upperFraction = 0;        // of DPAS peak, each operand byte from memory once
};

// nullopt for types without published DPAS rates in the reference (int8, tf32) and targets
// without figures.
std::optional<PerformanceModel> predictPerformance(const GemmKernel& kernel);

} // namespace layout::codegen
