// Internal: Level Zero structures newer than the headers this builds against (Debian 12 ships the
// 1.8 headers, from before spec 1.10's zeInitDrivers and Intel's experimental device queries). The
// layouts and values are those of the Level Zero spec and of compute-runtime's ze_intel_gpu.h; a
// driver that does not know a structure leaves it untouched, so each is asked for only when the
// driver lists its extension.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>

namespace layout::level_zero {

// zeInitDrivers (spec 1.10): initialises and enumerates the drivers of the given types at once.
inline constexpr auto kStructureInitDriverTypeDesc = static_cast<ze_structure_type_t>(0x00020021);
inline constexpr uint32_t kInitDriverTypeGpu = 0x1;
struct InitDriverTypeDesc {
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t flags;
};
using InitDriversFunction = ze_result_t (*)(uint32_t* count, ze_driver_handle_t* drivers,
                                            InitDriverTypeDesc* desc);

// ze_device_ip_version_ext_t (ZE_extension_device_ip_version, spec 1.5), chained to
// ze_device_properties_t.
inline constexpr const char* kIpVersionExtension = "ZE_extension_device_ip_version";
inline constexpr auto kStructureDeviceIpVersion = static_cast<ze_structure_type_t>(0x0001000f);
struct DeviceIpVersion {
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t ipVersion;
};

// ze_intel_device_module_dp_exp_properties_t, chained to ze_device_module_properties_t.
inline constexpr const char* kDpPropertiesExtension =
    "ZE_intel_experimental_device_module_dp_properties";
inline constexpr auto kStructureDpProperties = static_cast<ze_structure_type_t>(0x00030013);
inline constexpr uint32_t kDpFlagDpas = 0x2;
struct DpProperties {
  ze_structure_type_t stype;
  void* pNext;
  uint32_t flags;
};

// ze_intel_device_block_array_exp_properties_t, chained to ze_device_properties_t.
inline constexpr const char* kBlockArrayExtension =
    "ZE_intel_experimental_device_block_array_properties";
inline constexpr auto kStructureBlockArrayProperties = static_cast<ze_structure_type_t>(0x00030007);
inline constexpr uint32_t kBlockArrayFlagStore = 0x1, kBlockArrayFlagLoad = 0x2;
struct BlockArrayProperties {
  ze_structure_type_t stype;
  void* pNext;
  uint32_t flags;
};

} // namespace layout::level_zero
