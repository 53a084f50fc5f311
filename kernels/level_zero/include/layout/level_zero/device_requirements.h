// What a kernel needs from an Intel GPU, what a device reports, and the check between them. Pure
// functions: the runner (level_zero_runner.h) fills DeviceCapabilities from Level Zero queries.
//
//   layout::level_zero::DeviceRequirements need;
//   need.arch = "pvc";                       // the --arch the kernel was built for
//   need.dpas = need.blockIo2d = true;
//   need.workGroupSize = 512;
//   std::vector<std::string> unknown;        // what the driver could not tell
//   if (auto ok = checkDeviceRequirements(found, need, &unknown); !ok) refuse(ok.error().message);
//
// Intel's IP version (ZE_extension_device_ip_version, ze_device_ip_version_ext_t::ipVersion)
// packs architecture << 22 | release << 14 | revision (6 bits, the stepping); PVC is 12.60,
// Battlemage 20.1 (G21) and 20.2 (G31). Revisions vary between steppings and are not compared.
#pragma once

#include "layout/core/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace layout::level_zero {

struct GpuIpVersion {
  uint32_t architecture = 0, release = 0, revision = 0;
};
GpuIpVersion decodeGpuIpVersion(uint32_t ipVersion);
// "12.60.7".
std::string gpuIpVersionText(const GpuIpVersion& v);
// The (architecture, release) pairs of a target name ("pvc": 12.60; "bmg": 20.1, 20.2); empty
// for a name this table does not know (a target read from a file): then the IP is not checked.
std::vector<std::pair<uint32_t, uint32_t>> targetIpReleases(std::string_view arch);

// What the device and its driver report. nullopt: the driver lacks the query (an older driver),
// so the property is unknown rather than absent.
struct DeviceCapabilities {
  std::vector<uint32_t> subgroupSizes;
  uint32_t maxWorkGroupSize = 0;
  std::optional<uint32_t> ipVersion; // ZE_extension_device_ip_version
  std::optional<bool> dpas;          // ZE_intel_experimental_device_module_dp_properties
  std::optional<bool> blockLoad2d, blockStore2d; // ..._device_block_array_properties
};

// What a launch needs.
struct DeviceRequirements {
  std::string arch;           // the target the kernel was built for; "" = any
  uint32_t subgroupSize = 16; // intel_reqd_sub_group_size
  uint32_t workGroupSize = 0; // work-items per work-group
  bool dpas = false;          // calls the matrix multiply-accumulate built-ins
  bool blockIo2d = false;     // calls the 2D block load / store built-ins
};

// The first unmet requirement, naming it and what the device has ("the device is IP 20.1.0
// (bmg), the kernel was built for --arch pvc (IP 12.60)"). A property the driver cannot report is
// not a failure: it is named in *unknown (when given), and the unresolved-import check at module
// build time still catches a driver without the built-ins.
Expected<void> checkDeviceRequirements(const DeviceCapabilities& device,
                                       const DeviceRequirements& need,
                                       std::vector<std::string>* unknown = nullptr);

} // namespace layout::level_zero
