// A fake Level Zero loader: a shared library that a test points the runner at instead of
// libze_loader.so.1. No machine this project is tested on has an Intel GPU, so without it the
// runner's device enumeration and capability checks (device type, extensions, IP version, DPAS,
// 2D block I/O, subgroup and work-group sizes, compute queue) would never run. It implements only
// the entry points those checks call, with the exact signatures of Debian 12's <level_zero/ze_api.h>
// (Level Zero 1.8 headers); every other symbol is absent. zeContextCreate always fails with
// ZE_RESULT_ERROR_UNSUPPORTED_FEATURE: nothing ever runs here.
//
// One driver; zeDeviceGet lists a CPU device first (a program must skip it), then the GPUs.
// Configuration, read with getenv at every call (so one test may change it between calls); unset
// and empty are the same:
//   FAKE_ZE_GPUS       number of GPU devices (default 1, 0 allowed, at most 15)
//   FAKE_ZE_NAME       GPU name prefix (default "Fake Intel GPU"); GPU i is "<prefix> <i>"
//   FAKE_ZE_IP         IP version (strtoul base 0, e.g. 0x030f0007); unset: no
//                      ZE_extension_device_ip_version, and ze_device_ip_version_ext_t is ignored
//   FAKE_ZE_DPAS       "0" (DP4A only) or "1" (DP4A and DPAS); unset: no
//                      ZE_intel_experimental_device_module_dp_properties
//   FAKE_ZE_BLOCK_IO   "0", "1" (2D block load and store) or "load"; unset: no
//                      ZE_intel_experimental_device_block_array_properties
//   FAKE_ZE_SUBGROUPS  comma-separated subgroup sizes (default "16,32", at most 8)
//   FAKE_ZE_MAX_GROUP  maxTotalGroupSize (default 1024)
// Built with -DFAKE_ZE_NO_INIT_DRIVERS it lacks zeInitDrivers (Level Zero 1.10), so a program must
// fall back to zeInit + zeDriverGet.
#include <level_zero/ze_api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr uint32_t kMaxGpus = 15;

// Handles are the addresses of these objects; device 0 is the CPU, device i > 0 is GPU i - 1.
struct FakeObject {
  int unused;
};
FakeObject driverObject;
FakeObject deviceObjects[1 + kMaxGpus];
std::atomic<bool> initCalled{false};

ze_driver_handle_t driverHandle() {
  return reinterpret_cast<ze_driver_handle_t>(&driverObject);
}
ze_device_handle_t deviceHandle(uint32_t i) {
  return reinterpret_cast<ze_device_handle_t>(&deviceObjects[i]);
}

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}
uint32_t envNumber(const char* name, uint32_t fallback) {
  const char* value = env(name);
  return value ? static_cast<uint32_t>(std::strtoul(value, nullptr, 0)) : fallback;
}
uint32_t gpuCount() {
  return std::min(envNumber("FAKE_ZE_GPUS", 1), kMaxGpus);
}

// The device index of a handle listed by zeDeviceGet now, or -1.
int deviceIndex(ze_device_handle_t device) {
  for (uint32_t i = 0; i <= gpuCount(); ++i)
    if (device == deviceHandle(i)) return static_cast<int>(i);
  return -1;
}

ze_result_t checkDriver(ze_driver_handle_t driver) {
  if (!driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return driver == driverHandle() ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}
ze_result_t checkDevice(ze_device_handle_t device, const void* out) {
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (deviceIndex(device) < 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return out ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_NULL_POINTER;
}

// The two-call protocol: count only when *pCount is 0 or out is null, else fill min(*pCount,
// available) entries with fill(entry, index).
template <class T, class Fill>
ze_result_t listOut(uint32_t* pCount, T* out, uint32_t available, Fill fill) {
  if (!pCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*pCount == 0 || !out) {
    *pCount = available;
    return ZE_RESULT_SUCCESS;
  }
  *pCount = std::min(*pCount, available);
  for (uint32_t i = 0; i < *pCount; ++i) fill(out[i], i);
  return ZE_RESULT_SUCCESS;
}

// The head of every struct in a pNext chain, and the extension structs the fake answers.
struct ChainLink {
  ze_structure_type_t stype;
  void* pNext;
};
struct IpVersionExt { // ze_device_ip_version_ext_t
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t ipVersion;
};
struct IntelFlagsExt { // block array (0x00030007) and DP (0x00030013) properties
  ze_structure_type_t stype;
  void* pNext;
  uint32_t flags;
};
constexpr uint32_t kIpVersionStype = 0x1000f;
constexpr uint32_t kBlockArrayStype = 0x00030007;
constexpr uint32_t kDpStype = 0x00030013;

// Calls visit(link, stype) for every struct in the chain starting at next.
template <class Visit> void walkChain(void* next, Visit visit) {
  for (auto* link = static_cast<ChainLink*>(next); link;
       link = static_cast<ChainLink*>(link->pNext))
    visit(link, static_cast<uint32_t>(link->stype));
}

} // namespace

extern "C" {

ZE_APIEXPORT ze_result_t ZE_APICALL zeInit(ze_init_flags_t flags) {
  (void)flags;
  initCalled = true;
  return ZE_RESULT_SUCCESS;
}

#ifndef FAKE_ZE_NO_INIT_DRIVERS
// Not in the 1.8 header: the Level Zero 1.10 layout of ze_init_driver_type_desc_t.
struct ze_init_driver_type_desc_t {
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t flags;
};

// Callers declare their own copy of the struct, so clang's -fsanitize=function would flag every
// call as one through a pointer of another type.
#if defined(__clang__)
__attribute__((no_sanitize("function")))
#endif
ZE_APIEXPORT ze_result_t ZE_APICALL
zeInitDrivers(uint32_t* pCount, ze_driver_handle_t* phDrivers, ze_init_driver_type_desc_t* desc) {
  if (!pCount || !desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (static_cast<uint32_t>(desc->stype) != 0x00020021) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  const uint32_t drivers = (desc->flags & 0x1) ? 1 : 0; // ZE_INIT_DRIVER_TYPE_FLAG_GPU
  return listOut(pCount, phDrivers, drivers,
                 [](ze_driver_handle_t& out, uint32_t) { out = driverHandle(); });
}
#endif

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGet(uint32_t* pCount, ze_driver_handle_t* phDrivers) {
  if (!initCalled) return ZE_RESULT_ERROR_UNINITIALIZED;
  return listOut(pCount, phDrivers, 1,
                 [](ze_driver_handle_t& out, uint32_t) { out = driverHandle(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGetApiVersion(ze_driver_handle_t hDriver,
                                                          ze_api_version_t* version) {
  if (ze_result_t result = checkDriver(hDriver)) return result;
  if (!version) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *version = ZE_API_VERSION_CURRENT;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDriverGetExtensionProperties(ze_driver_handle_t hDriver, uint32_t* pCount,
                               ze_driver_extension_properties_t* pExtensionProperties) {
  if (ze_result_t result = checkDriver(hDriver)) return result;
  const char* names[3];
  uint32_t count = 0;
  if (env("FAKE_ZE_IP")) names[count++] = "ZE_extension_device_ip_version";
  if (env("FAKE_ZE_DPAS")) names[count++] = "ZE_intel_experimental_device_module_dp_properties";
  if (env("FAKE_ZE_BLOCK_IO"))
    names[count++] = "ZE_intel_experimental_device_block_array_properties";
  return listOut(pCount, pExtensionProperties, count,
                 [&](ze_driver_extension_properties_t& out, uint32_t i) {
                   std::snprintf(out.name, sizeof out.name, "%s", names[i]);
                   out.version = ZE_MAKE_VERSION(1, 0);
                 });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGet(ze_driver_handle_t hDriver, uint32_t* pCount,
                                                ze_device_handle_t* phDevices) {
  if (ze_result_t result = checkDriver(hDriver)) return result;
  return listOut(pCount, phDevices, 1 + gpuCount(),
                 [](ze_device_handle_t& out, uint32_t i) { out = deviceHandle(i); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetProperties(ze_device_handle_t hDevice, ze_device_properties_t* pDeviceProperties) {
  if (ze_result_t result = checkDevice(hDevice, pDeviceProperties)) return result;
  const int index = deviceIndex(hDevice);
  ze_device_properties_t& p = *pDeviceProperties;
  p.type = index == 0 ? ZE_DEVICE_TYPE_CPU : ZE_DEVICE_TYPE_GPU;
  p.vendorId = 0x8086;
  p.deviceId = 0xf000 + static_cast<uint32_t>(index);
  p.flags = 0;
  p.subdeviceId = 0;
  p.coreClockRate = 1600;
  p.maxMemAllocSize = uint64_t{4} << 30;
  p.maxHardwareContexts = 64;
  p.maxCommandQueuePriority = 0;
  p.numThreadsPerEU = 8;
  p.physicalEUSimdWidth = 16;
  p.numEUsPerSubslice = 8;
  p.numSubslicesPerSlice = 4;
  p.numSlices = 1;
  p.timerResolution = 1;
  p.timestampValidBits = 64;
  p.kernelTimestampValidBits = 32;
  std::memset(p.uuid.id, 0, sizeof p.uuid.id);
  p.uuid.id[0] = static_cast<uint8_t>(index);
  const char* prefix = env("FAKE_ZE_NAME") ? env("FAKE_ZE_NAME") : "Fake Intel GPU";
  if (index == 0)
    std::snprintf(p.name, sizeof p.name, "Fake CPU");
  else
    std::snprintf(p.name, sizeof p.name, "%s %d", prefix, index - 1);
  const char* ip = env("FAKE_ZE_IP");
  const char* blockIo = env("FAKE_ZE_BLOCK_IO");
  walkChain(p.pNext, [&](ChainLink* link, uint32_t stype) {
    if (stype == kIpVersionStype && ip)
      reinterpret_cast<IpVersionExt*>(link)->ipVersion =
          static_cast<uint32_t>(std::strtoul(ip, nullptr, 0));
    if (stype == kBlockArrayStype && blockIo)
      reinterpret_cast<IntelFlagsExt*>(link)->flags = std::strcmp(blockIo, "1") == 0      ? 0x3u
                                                      : std::strcmp(blockIo, "load") == 0 ? 0x2u
                                                                                          : 0x0u;
  });
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetModuleProperties(
    ze_device_handle_t hDevice, ze_device_module_properties_t* pModuleProperties) {
  if (ze_result_t result = checkDevice(hDevice, pModuleProperties)) return result;
  ze_device_module_properties_t& p = *pModuleProperties;
  p.spirvVersionSupported = ZE_MAKE_VERSION(1, 4);
  p.flags = ZE_DEVICE_MODULE_FLAG_FP16 | ZE_DEVICE_MODULE_FLAG_FP64 |
            ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS | ZE_DEVICE_MODULE_FLAG_DP4A;
  const ze_device_fp_flags_t fp =
      ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN | ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST |
      ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO | ZE_DEVICE_FP_FLAG_ROUND_TO_INF | ZE_DEVICE_FP_FLAG_FMA;
  p.fp16flags = fp;
  p.fp32flags = fp | ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
  p.fp64flags = fp | ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
  p.maxArgumentsSize = 2048;
  p.printfBufferSize = 4 << 20;
  std::memset(&p.nativeKernelSupported, 0, sizeof p.nativeKernelSupported);
  const char* dpas = env("FAKE_ZE_DPAS");
  walkChain(p.pNext, [&](ChainLink* link, uint32_t stype) {
    if (stype == kDpStype && dpas)
      reinterpret_cast<IntelFlagsExt*>(link)->flags = std::strcmp(dpas, "1") == 0 ? 0x3u : 0x1u;
  });
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetComputeProperties(
    ze_device_handle_t hDevice, ze_device_compute_properties_t* pComputeProperties) {
  if (ze_result_t result = checkDevice(hDevice, pComputeProperties)) return result;
  ze_device_compute_properties_t& p = *pComputeProperties;
  p.maxTotalGroupSize = envNumber("FAKE_ZE_MAX_GROUP", 1024);
  p.maxGroupSizeX = p.maxGroupSizeY = p.maxGroupSizeZ = 1024;
  p.maxGroupCountX = p.maxGroupCountY = p.maxGroupCountZ = UINT32_MAX;
  p.maxSharedLocalMemory = 64 * 1024;
  const char* sizes = env("FAKE_ZE_SUBGROUPS") ? env("FAKE_ZE_SUBGROUPS") : "16,32";
  p.numSubGroupSizes = 0;
  for (const char* s = sizes; *s && p.numSubGroupSizes < ZE_SUBGROUPSIZE_COUNT;) {
    char* end = nullptr;
    const unsigned long size = std::strtoul(s, &end, 0);
    if (end == s) break;
    p.subGroupSizes[p.numSubGroupSizes++] = static_cast<uint32_t>(size);
    if (*end != ',') break;
    s = end + 1;
  }
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetCommandQueueGroupProperties(
    ze_device_handle_t hDevice, uint32_t* pCount,
    ze_command_queue_group_properties_t* pCommandQueueGroupProperties) {
  if (ze_result_t result = checkDevice(hDevice, pCount)) return result;
  return listOut(pCount, pCommandQueueGroupProperties, 1,
                 [](ze_command_queue_group_properties_t& out, uint32_t) {
                   out.flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE;
                   out.maxMemoryFillPatternSize = 128;
                   out.numQueues = 1;
                 });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextCreate(ze_driver_handle_t hDriver,
                                                    const ze_context_desc_t* desc,
                                                    ze_context_handle_t* phContext) {
  (void)hDriver;
  (void)desc;
  (void)phContext;
  return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

} // extern "C"
