// Device requirements of a launch and the check against what the device reports
// (device_requirements.h).
#include "layout/level_zero/device_requirements.h"

#include <algorithm>

namespace layout::level_zero {

GpuIpVersion decodeGpuIpVersion(uint32_t ipVersion) {
  return {ipVersion >> 22, (ipVersion >> 14) & 0xFFu, ipVersion & 0x3Fu};
}

std::string gpuIpVersionText(const GpuIpVersion& v) {
  return std::to_string(v.architecture) + "." + std::to_string(v.release) + "." +
         std::to_string(v.revision);
}

std::vector<std::pair<uint32_t, uint32_t>> targetIpReleases(std::string_view arch) {
  // Xe-HPC (Data Center GPU Max); 12.61, the PVC-VG variant, has no DPAS.
  if (arch == "pvc") return {{12, 60}};
  // Xe2-HPG: Battlemage G21 (Arc B580/B570) and G31.
  if (arch == "bmg") return {{20, 1}, {20, 2}};
  return {};
}

namespace {

std::string releasesText(const std::vector<std::pair<uint32_t, uint32_t>>& releases) {
  std::string text;
  for (const auto& [architecture, release] : releases)
    text +=
        (text.empty() ? "" : " or ") + std::to_string(architecture) + "." + std::to_string(release);
  return text;
}

// The target name of an IP version, for the message ("" when unknown).
std::string targetOf(const GpuIpVersion& v) {
  for (std::string_view arch : {"pvc", "bmg"})
    for (const auto& [architecture, release] : targetIpReleases(arch))
      if (v.architecture == architecture && v.release == release) return std::string(arch);
  return "";
}

} // namespace

Expected<void> checkDeviceRequirements(const DeviceCapabilities& device,
                                       const DeviceRequirements& need,
                                       std::vector<std::string>* unknown) {
  auto note = [&](std::string what) {
    if (unknown) unknown->push_back(std::move(what));
  };
  const auto& sizes = device.subgroupSizes;
  if (std::find(sizes.begin(), sizes.end(), need.subgroupSize) == sizes.end()) {
    std::string has;
    for (uint32_t s : sizes) has += (has.empty() ? "" : ", ") + std::to_string(s);
    return makeError("the device has no subgroups of " + std::to_string(need.subgroupSize) +
                     " (it has " + (has.empty() ? std::string("none") : has) +
                     "): the kernels are written for SIMD16 DPAS (PVC, BMG)");
  }
  if (need.workGroupSize > device.maxWorkGroupSize)
    return makeError("the work-group of " + std::to_string(need.workGroupSize) +
                     " work-items exceeds the device's " + std::to_string(device.maxWorkGroupSize) +
                     " (use fewer subgroups per work-group)");
  if (const auto releases = targetIpReleases(need.arch); !releases.empty()) {
    if (!device.ipVersion) {
      note("IP version (the driver lacks ZE_extension_device_ip_version)");
    } else {
      const GpuIpVersion v = decodeGpuIpVersion(*device.ipVersion);
      const bool match = std::any_of(releases.begin(), releases.end(), [&](const auto& r) {
        return r.first == v.architecture && r.second == v.release;
      });
      if (!match) {
        const std::string other = targetOf(v);
        return makeError("the device is IP " + gpuIpVersionText(v) +
                         (other.empty() ? "" : " (" + other + ")") +
                         ", the kernel was built for --arch " + need.arch + " (IP " +
                         releasesText(releases) + "): build it for the device's target");
      }
    }
  }
  if (need.dpas) {
    if (!device.dpas)
      note("DPAS support (the driver lacks ZE_intel_experimental_device_module_dp_properties)");
    else if (!*device.dpas)
      return makeError("the device has no DPAS (ZE_intel_experimental_device_module_dp_properties "
                       "reports no ZE_INTEL_DEVICE_MODULE_EXP_FLAG_DPAS): the kernel's matrix "
                       "multiply-accumulate needs Xe-HPC or Xe2 (PVC, BMG)");
  }
  if (need.blockIo2d) {
    if (!device.blockLoad2d || !device.blockStore2d)
      note("2D block I/O support (the driver lacks "
           "ZE_intel_experimental_device_block_array_properties)");
    else if (!*device.blockLoad2d || !*device.blockStore2d)
      return makeError(std::string("the device has no 2D block ") +
                       (!*device.blockLoad2d ? "loads" : "stores") +
                       " (ZE_intel_experimental_device_block_array_properties): the kernel's "
                       "cl_intel_subgroup_2d_block_io messages need PVC or Xe2");
  }
  return {};
}

} // namespace layout::level_zero
