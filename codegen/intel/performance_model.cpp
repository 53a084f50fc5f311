// The first-order performance model (performance_model.h).
#include "layout/codegen/performance_model.h"

#include <algorithm>
#include <cmath>

namespace layout::codegen {

std::optional<DeviceThroughput> deviceThroughput(const std::string& target) {
  // docs/reference/intel-xe.md §4.4: 56 Xe cores x 4096 FLOP/clk x 1.55 GHz = 355.53 TF, 1228.8
  // GB/s; 20 Xe2 cores x 2048 FLOP/clk x 2.85 GHz = 116.74 TF, 456 GB/s.
  if (target == "pvc")
    return DeviceThroughput{"Intel Data Center GPU Max 1100", 56, 1.55, 4096, 1228.8};
  if (target == "bmg") return DeviceThroughput{"Intel Arc B580", 20, 2.85, 2048, 456};
  return std::nullopt;
}

std::optional<PerformanceModel> predictPerformance(const GemmKernel& k) {
  const GemmConfig& c = k.config;
  if (c.dtype != GemmDataType::BF16 && c.dtype != GemmDataType::F16) return std::nullopt;
  auto device = deviceThroughput(c.arch);
  if (!device) return std::nullopt;
  PerformanceModel m;
  m.device = *device;
  const auto& traits = dataTypeTraits(c.dtype);
  const double dpasFlop = 2.0 * c.repeatCount * k.launch.subgroupSize * traits.dpasK;
  m.dpasCyclesPerKStep = static_cast<double>(k.launch.subgroupsPerWorkgroup) *
                         static_cast<double>(k.report.dpasPerKStep) * dpasFlop /
                         device->dpasFlopPerClock;
  const double tileM = static_cast<double>(c.sgLayout[0] * c.sgData[0]);
  const double tileN = static_cast<double>(c.sgLayout[1] * c.sgData[1]);
  m.tileBytesPerKStep = (tileM + tileN) * static_cast<double>(c.kTile) * traits.inputBits / 8;
  const double bytesPerCoreClock = device->memoryGBps / device->xeCores / device->clockGHz;
  m.memoryCyclesPerKStep = m.tileBytesPerKStep / bytesPerCoreClock;
  // One workgroup per Xe core: the last wave of workgroups leaves cores idle.
  const double workgroups = static_cast<double>(k.launch.workgroupsM * k.launch.workgroupsN);
  const double waves = std::ceil(workgroups / device->xeCores);
  m.coreUtilization = workgroups / (waves * device->xeCores);
  m.lowerFraction = m.coreUtilization * m.dpasCyclesPerKStep /
                    std::max(m.dpasCyclesPerKStep, m.memoryCyclesPerKStep);
  // Perfect reuse: A, B and D cross the memory bus once for the whole GEMM.
  const double md = static_cast<double>(c.m), nd = static_cast<double>(c.n),
               kd = static_cast<double>(c.k);
  const double bytes = (md * kd + kd * nd) * traits.inputBits / 8 + md * nd * 4;
  const double memorySeconds = bytes / (device->memoryGBps * 1e9);
  const double computeSeconds = 2 * md * nd * kd / (device->peakTflops() * 1e12);
  m.upperFraction =
      std::max(m.lowerFraction,
               computeSeconds / std::max(computeSeconds / m.coreUtilization, memorySeconds));
  return m;
}

} // namespace layout::codegen
