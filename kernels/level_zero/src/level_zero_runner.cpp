#include "layout/level_zero/level_zero_runner.h"

#include "level_zero_extensions.h"
#include "level_zero_loader.h"

#include <level_zero/ze_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <utility>

namespace layout::level_zero {

namespace {

// Thrown by check() inside this file only; the public functions turn it into Failed.
class LevelZeroFailure : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

void check(ze_result_t result, const std::string& call) {
  if (result != ZE_RESULT_SUCCESS)
    throw LevelZeroFailure(call + " failed (" + levelZeroResultName(static_cast<int>(result)) +
                           ")");
}

// Owns one Level Zero handle. Handles are adopted only after their create call succeeded, so a
// failed create never hands a half-made handle to Destroy.
template <typename Handle, ze_result_t (*Destroy)(Handle)> class Owned {
public:
  Owned() = default;
  explicit Owned(Handle handle) : handle_(handle) {}
  Owned(Owned&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Owned& operator=(Owned&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ~Owned() { reset(); }
  Handle get() const { return handle_; }

private:
  void reset() {
    if (handle_) Destroy(handle_); // nothing useful to do with a failed destroy
    handle_ = nullptr;
  }
  Handle handle_ = nullptr;
};

using Context = Owned<ze_context_handle_t, zeContextDestroy>;
using Module = Owned<ze_module_handle_t, zeModuleDestroy>;
using BuildLog = Owned<ze_module_build_log_handle_t, zeModuleBuildLogDestroy>;
using Kernel = Owned<ze_kernel_handle_t, zeKernelDestroy>;
using CommandQueue = Owned<ze_command_queue_handle_t, zeCommandQueueDestroy>;
using CommandList = Owned<ze_command_list_handle_t, zeCommandListDestroy>;
using EventPool = Owned<ze_event_pool_handle_t, zeEventPoolDestroy>;
using Event = Owned<ze_event_handle_t, zeEventDestroy>;

// A zeMemAlloc* allocation; freed through its context, so it must die before the context.
class Allocation {
public:
  Allocation(ze_context_handle_t context, void* pointer) : context_(context), pointer_(pointer) {}
  Allocation(Allocation&& other) noexcept
      : context_(other.context_), pointer_(std::exchange(other.pointer_, nullptr)) {}
  Allocation(const Allocation&) = delete;
  Allocation& operator=(const Allocation&) = delete;
  Allocation& operator=(Allocation&&) = delete;
  ~Allocation() {
    if (pointer_) zeMemFree(context_, pointer_);
  }
  void* get() const { return pointer_; }

private:
  ze_context_handle_t context_;
  void* pointer_;
};

std::string plural(size_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

LevelZeroOutcome outcome(LevelZeroStatus status, std::string message) {
  LevelZeroOutcome o;
  o.status = status;
  o.message = std::move(message);
  return o;
}

// The drivers, found once per process (later calls could not change the answer, and some loader
// versions rescan on each call): with zeInitDrivers (spec 1.10), which initialises only GPU
// drivers, where the loader has it, else with zeInit + zeDriverGet.
struct Drivers {
  std::string call; // the call that failed or enumerated them
  ze_result_t result = ZE_RESULT_ERROR_UNINITIALIZED;
  std::vector<ze_driver_handle_t> list;
};

const Drivers& drivers() {
  static const Drivers found = [] {
    Drivers d;
    if (const auto initDrivers = reinterpret_cast<InitDriversFunction>(symbolOf("zeInitDrivers"))) {
      d.call = "zeInitDrivers(ZE_INIT_DRIVER_TYPE_FLAG_GPU)";
      InitDriverTypeDesc desc{kStructureInitDriverTypeDesc, nullptr, kInitDriverTypeGpu};
      uint32_t count = 0;
      d.result = initDrivers(&count, nullptr, &desc);
      if (d.result == ZE_RESULT_SUCCESS && count > 0) {
        d.list.resize(count);
        d.result = initDrivers(&count, d.list.data(), &desc);
        d.list.resize(count);
      }
      return d;
    }
    d.call = "zeInit(ZE_INIT_FLAG_GPU_ONLY)";
    d.result = zeInit(ZE_INIT_FLAG_GPU_ONLY);
    if (d.result != ZE_RESULT_SUCCESS) return d;
    d.call = "zeDriverGet";
    uint32_t count = 0;
    d.result = zeDriverGet(&count, nullptr);
    if (d.result == ZE_RESULT_SUCCESS && count > 0) {
      d.list.resize(count);
      d.result = zeDriverGet(&count, d.list.data());
      d.list.resize(count);
    }
    d.call = "zeInit(ZE_INIT_FLAG_GPU_ONLY) + zeDriverGet";
    return d;
  }();
  return found;
}

struct FoundDevice {
  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  std::string name;
};

// Probe shared by probeLevelZero and runOnLevelZero; fills *found with GPU device `ordinal` (in
// driver order) when the status is Ran.
LevelZeroOutcome probe(FoundDevice* found, uint32_t ordinal) {
  const Drivers& init = drivers();
  if (std::string missing = levelZeroLoaderError(); !missing.empty())
    return outcome(LevelZeroStatus::NoDevice, "Level Zero: " + missing);
  if (init.result != ZE_RESULT_SUCCESS) {
    std::string message = "Level Zero: " + init.call + " failed (" +
                          levelZeroResultName(static_cast<int>(init.result)) + ")";
    if (init.result == ZE_RESULT_ERROR_UNINITIALIZED)
      message += ": the loader found no Level Zero GPU driver that initialises (no Intel compute "
                 "runtime installed, or no Intel GPU)";
    return outcome(LevelZeroStatus::NoDevice, std::move(message));
  }
  if (init.list.empty())
    return outcome(LevelZeroStatus::NoDevice,
                   "Level Zero: " + init.call + " succeeded but found 0 drivers");

  size_t deviceTotal = 0, gpuTotal = 0;
  for (ze_driver_handle_t driver : init.list) {
    uint32_t deviceCount = 0;
    check(zeDeviceGet(driver, &deviceCount, nullptr), "zeDeviceGet");
    std::vector<ze_device_handle_t> devices(deviceCount);
    check(zeDeviceGet(driver, &deviceCount, devices.data()), "zeDeviceGet");
    devices.resize(deviceCount);
    deviceTotal += devices.size();
    for (ze_device_handle_t device : devices) {
      ze_device_properties_t properties{};
      properties.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
      check(zeDeviceGetProperties(device, &properties), "zeDeviceGetProperties");
      if (properties.type != ZE_DEVICE_TYPE_GPU) continue;
      if (gpuTotal++ == ordinal && found) {
        found->driver = driver;
        found->device = device;
        found->name.assign(properties.name, strnlen(properties.name, sizeof properties.name));
      }
    }
  }

  std::string counts = "Level Zero (" + init.call + "): " + plural(init.list.size(), "driver") +
                       ", " + plural(deviceTotal, "device") + ", " + plural(gpuTotal, "GPU device");
  if (gpuTotal == 0) return outcome(LevelZeroStatus::NoDevice, std::move(counts));
  if (ordinal >= gpuTotal)
    return outcome(LevelZeroStatus::Failed,
                   "device ordinal " + std::to_string(ordinal) + ": there " +
                       (gpuTotal == 1 ? "is " : "are ") + counts.substr(counts.find("): ") + 3) +
                       " (ordinals 0.." + std::to_string(gpuTotal - 1) + ")");
  LevelZeroOutcome o = outcome(LevelZeroStatus::Ran, std::move(counts));
  if (found) {
    o.deviceName = found->name;
    o.message += "; using GPU " + std::to_string(ordinal) + ", " + found->name;
  }
  return o;
}

// What the device reports; the Intel queries only where the driver lists their extension (a
// driver that does not know a chained structure leaves it untouched).
DeviceCapabilities capabilities(ze_driver_handle_t driver, ze_device_handle_t device) {
  uint32_t count = 0;
  check(zeDriverGetExtensionProperties(driver, &count, nullptr), "zeDriverGetExtensionProperties");
  std::vector<ze_driver_extension_properties_t> extensions(count);
  check(zeDriverGetExtensionProperties(driver, &count, extensions.data()),
        "zeDriverGetExtensionProperties");
  extensions.resize(std::min<size_t>(count, extensions.size()));
  auto listed = [&](const char* name) {
    return std::any_of(extensions.begin(), extensions.end(),
                       [&](const auto& e) { return strncmp(e.name, name, sizeof e.name) == 0; });
  };

  DeviceCapabilities caps;
  ze_device_compute_properties_t compute{};
  compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  check(zeDeviceGetComputeProperties(device, &compute), "zeDeviceGetComputeProperties");
  for (uint32_t i = 0; i < compute.numSubGroupSizes && i < ZE_SUBGROUPSIZE_COUNT; ++i)
    caps.subgroupSizes.push_back(compute.subGroupSizes[i]);
  caps.maxWorkGroupSize = compute.maxTotalGroupSize;

  ze_device_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  DeviceIpVersion ip{kStructureDeviceIpVersion, nullptr, 0};
  BlockArrayProperties blockArray{kStructureBlockArrayProperties, nullptr, 0};
  const bool hasIp = listed(kIpVersionExtension), hasBlockArray = listed(kBlockArrayExtension);
  if (hasBlockArray) {
    blockArray.pNext = properties.pNext;
    properties.pNext = &blockArray;
  }
  if (hasIp) {
    ip.pNext = properties.pNext;
    properties.pNext = &ip;
  }
  check(zeDeviceGetProperties(device, &properties), "zeDeviceGetProperties");
  if (hasIp) caps.ipVersion = ip.ipVersion;
  if (hasBlockArray) {
    caps.blockLoad2d = (blockArray.flags & kBlockArrayFlagLoad) != 0;
    caps.blockStore2d = (blockArray.flags & kBlockArrayFlagStore) != 0;
  }

  if (listed(kDpPropertiesExtension)) {
    ze_device_module_properties_t module{};
    module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
    DpProperties dp{kStructureDpProperties, nullptr, 0};
    module.pNext = &dp;
    check(zeDeviceGetModuleProperties(device, &module), "zeDeviceGetModuleProperties");
    caps.dpas = (dp.flags & kDpFlagDpas) != 0;
  }
  return caps;
}

std::optional<std::string> invalidLaunch(const LevelZeroLaunch& launch) {
  if (launch.spirv.empty()) return "launch has no SPIR-V";
  if (launch.kernelName.empty()) return "launch has no kernel name";
  for (size_t d = 0; d < 3; ++d) {
    if (launch.groupSize[d] == 0 || launch.groupCount[d] == 0)
      return "launch has a zero group size or group count in dimension " + std::to_string(d);
  }
  if (launch.timedRepetitions < 0) return "launch has negative timedRepetitions";
  for (size_t i = 0; i < launch.arguments.size(); ++i) {
    const auto* buffer = std::get_if<LevelZeroBuffer>(&launch.arguments[i].value);
    if (buffer && (buffer->host == nullptr || buffer->host->empty()))
      return "argument " + std::to_string(i) + " is a null or empty buffer";
  }
  return std::nullopt;
}

std::string buildLogText(ze_module_build_log_handle_t log) {
  if (!log) return "";
  size_t size = 0;
  if (zeModuleBuildLogGetString(log, &size, nullptr) != ZE_RESULT_SUCCESS || size == 0) return "";
  std::string text(size, '\0');
  if (zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS) return "";
  text.resize(std::min(size, text.size()));
  while (!text.empty() && (text.back() == '\0' || text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

// Builds the module; `buildLog` receives the driver's log (warnings on success). A module that
// builds but keeps unresolved imports (an older driver leaves the 2D block and DPAS built-ins
// unresolved) is refused: it would fail or misbehave at run time.
Module buildModule(ze_context_handle_t context, ze_device_handle_t device,
                   const LevelZeroLaunch& launch, std::string& buildLog) {
  ze_module_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  desc.inputSize = launch.spirv.size();
  desc.pInputModule = launch.spirv.data();
  desc.pBuildFlags = launch.buildFlags.c_str();
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t rawLog = nullptr;
  const ze_result_t result = zeModuleCreate(context, device, &desc, &module, &rawLog);
  BuildLog log(rawLog); // valid on failure too: that is when it matters
  if (result != ZE_RESULT_SUCCESS) {
    std::string message =
        "zeModuleCreate failed (" + levelZeroResultName(static_cast<int>(result)) + ")";
    const std::string text = buildLogText(log.get());
    message += text.empty() ? "; empty build log" : "; build log:\n" + text;
    throw LevelZeroFailure(message);
  }
  Module built(module);
  buildLog = buildLogText(log.get());
  ze_module_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_MODULE_PROPERTIES;
  check(zeModuleGetProperties(built.get(), &properties), "zeModuleGetProperties");
  if (properties.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS)
    throw LevelZeroFailure(
        "the module has unresolved imports: this driver does not implement every built-in the "
        "kernel calls (the 2D block I/O and DPAS built-ins of cl_intel_subgroup_2d_block_io and "
        "cl_intel_subgroup_matrix_multiply_accumulate need a current Intel compute-runtime); "
        "update the GPU driver" +
        (buildLog.empty() ? std::string() : "; build log:\n" + buildLog));
  return built;
}

uint32_t computeQueueOrdinal(ze_device_handle_t device) {
  uint32_t count = 0;
  check(zeDeviceGetCommandQueueGroupProperties(device, &count, nullptr),
        "zeDeviceGetCommandQueueGroupProperties");
  ze_command_queue_group_properties_t blank{};
  blank.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  std::vector<ze_command_queue_group_properties_t> groups(count, blank);
  check(zeDeviceGetCommandQueueGroupProperties(device, &count, groups.data()),
        "zeDeviceGetCommandQueueGroupProperties");
  for (uint32_t i = 0; i < count && i < groups.size(); ++i) {
    if (groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) return i;
  }
  throw LevelZeroFailure("the device has no compute command queue group");
}

// Seconds per kernel-timestamp tick and the mask of valid timestamp bits; nullopt when the device
// reports no usable timer (then the host clock is used).
struct DeviceTimer {
  double secondsPerTick;
  uint64_t mask;
};

std::optional<DeviceTimer> deviceTimer(ze_driver_handle_t driver, ze_device_handle_t device) {
  ze_api_version_t version{};
  check(zeDriverGetApiVersion(driver, &version), "zeDriverGetApiVersion");
  // Since 1.2 timerResolution can be asked for in cycles per second, which is exact; the 1.0 form
  // is whole nanoseconds per cycle (83 for a 12 MHz clock, 0.4% off).
  const bool frequency = version >= ZE_API_VERSION_1_2;
  ze_device_properties_t properties{};
  properties.stype =
      frequency ? ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 : ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  check(zeDeviceGetProperties(device, &properties), "zeDeviceGetProperties");
  if (properties.timerResolution == 0) return std::nullopt;
  const uint32_t bits = properties.kernelTimestampValidBits;
  const uint64_t mask = (bits == 0 || bits >= 64) ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const double resolution = static_cast<double>(properties.timerResolution);
  return DeviceTimer{frequency ? 1.0 / resolution : resolution * 1e-9, mask};
}

struct DeviceBuffer {
  std::vector<uint8_t>* host;
  bool readBack;
  Allocation device;
  Allocation staging; // USM host memory: copies from pageable std::vector memory are not portable
};

void submit(ze_command_queue_handle_t queue, ze_command_list_handle_t list) {
  check(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr),
        "zeCommandQueueExecuteCommandLists");
  check(zeCommandQueueSynchronize(queue, UINT64_MAX), "zeCommandQueueSynchronize");
}

LevelZeroOutcome run(const LevelZeroLaunch& launch, const FoundDevice& found) {
  ze_device_handle_t device = found.device;

  // The device can run the kernel: checked and named before anything is created, instead of a
  // failure deep in zeModuleCreate or the launch.
  DeviceRequirements need = launch.requirements;
  need.workGroupSize = launch.groupSize[0] * launch.groupSize[1] * launch.groupSize[2];
  const DeviceCapabilities caps = capabilities(found.driver, device);
  std::vector<std::string> unknown;
  if (auto ok = checkDeviceRequirements(caps, need, &unknown); !ok)
    throw LevelZeroFailure(found.name + ": " + ok.error().message);

  ze_context_desc_t contextDesc{};
  contextDesc.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
  ze_context_handle_t rawContext = nullptr;
  check(zeContextCreate(found.driver, &contextDesc, &rawContext), "zeContextCreate");
  // Declared first so it is destroyed last, after everything created in it.
  Context context(rawContext);

  std::string buildLog;
  Module module = buildModule(context.get(), device, launch, buildLog);

  ze_kernel_desc_t kernelDesc{};
  kernelDesc.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC;
  kernelDesc.pKernelName = launch.kernelName.c_str();
  ze_kernel_handle_t rawKernel = nullptr;
  check(zeKernelCreate(module.get(), &kernelDesc, &rawKernel),
        "zeKernelCreate(\"" + launch.kernelName + "\")");
  Kernel kernel(rawKernel);

  // A wrong argument count is otherwise undefined behaviour in the driver, not an error.
  ze_kernel_properties_t kernelProperties{};
  kernelProperties.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  check(zeKernelGetProperties(kernel.get(), &kernelProperties), "zeKernelGetProperties");
  if (kernelProperties.numKernelArgs != launch.arguments.size())
    throw LevelZeroFailure("kernel " + launch.kernelName + " takes " +
                           plural(kernelProperties.numKernelArgs, "argument") + ", launch has " +
                           std::to_string(launch.arguments.size()));
  if (kernelProperties.spillMemSize > 0 && !launch.allowSpills)
    throw LevelZeroFailure("kernel " + launch.kernelName + " spills " +
                           std::to_string(kernelProperties.spillMemSize) +
                           " bytes of registers per thread to memory (private memory " +
                           std::to_string(kernelProperties.privateMemSize) +
                           " bytes): shrink sg_data or k_tile, or allow spills");

  const auto& size = launch.groupSize;
  check(zeKernelSetGroupSize(kernel.get(), size[0], size[1], size[2]), "zeKernelSetGroupSize");

  const uint32_t ordinal = computeQueueOrdinal(device);
  ze_command_queue_desc_t queueDesc{};
  queueDesc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  queueDesc.ordinal = ordinal;
  queueDesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  queueDesc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  ze_command_queue_handle_t rawQueue = nullptr;
  check(zeCommandQueueCreate(context.get(), device, &queueDesc, &rawQueue), "zeCommandQueueCreate");
  CommandQueue queue(rawQueue);

  ze_command_list_desc_t listDesc{};
  listDesc.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
  listDesc.commandQueueGroupOrdinal = ordinal;
  ze_command_list_handle_t rawList = nullptr;
  check(zeCommandListCreate(context.get(), device, &listDesc, &rawList), "zeCommandListCreate");
  CommandList list(rawList);

  std::vector<DeviceBuffer> buffers;
  buffers.reserve(launch.arguments.size());
  for (size_t i = 0; i < launch.arguments.size(); ++i) {
    const std::string argument = "argument " + std::to_string(i);
    const auto& value = launch.arguments[i].value;
    if (const auto* scalar = std::get_if<int32_t>(&value)) {
      check(
          zeKernelSetArgumentValue(kernel.get(), static_cast<uint32_t>(i), sizeof *scalar, scalar),
          "zeKernelSetArgumentValue(" + argument + ")");
      continue;
    }
    const LevelZeroBuffer& buffer = std::get<LevelZeroBuffer>(value);
    const size_t bytes = buffer.host->size();
    ze_device_mem_alloc_desc_t deviceDesc{};
    deviceDesc.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
    void* devicePointer = nullptr;
    check(zeMemAllocDevice(context.get(), &deviceDesc, bytes, 64, device, &devicePointer),
          "zeMemAllocDevice(" + argument + ", " + std::to_string(bytes) + " bytes)");
    Allocation deviceMemory(context.get(), devicePointer);
    ze_host_mem_alloc_desc_t hostDesc{};
    hostDesc.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
    void* stagingPointer = nullptr;
    check(zeMemAllocHost(context.get(), &hostDesc, bytes, 64, &stagingPointer),
          "zeMemAllocHost(" + argument + ", " + std::to_string(bytes) + " bytes)");
    Allocation staging(context.get(), stagingPointer);
    std::memcpy(stagingPointer, buffer.host->data(), bytes);
    check(zeKernelSetArgumentValue(kernel.get(), static_cast<uint32_t>(i), sizeof devicePointer,
                                   &devicePointer),
          "zeKernelSetArgumentValue(" + argument + ")");
    buffers.push_back({buffer.host, buffer.readBack, std::move(deviceMemory), std::move(staging)});
  }

  const ze_group_count_t groups{launch.groupCount[0], launch.groupCount[1], launch.groupCount[2]};
  auto appendLaunch = [&](ze_event_handle_t signal) {
    check(zeCommandListAppendLaunchKernel(list.get(), kernel.get(), &groups, signal, 0, nullptr),
          "zeCommandListAppendLaunchKernel");
  };
  // Commands in a regular command list may overlap; barriers keep copies, launches and the timed
  // launches apart.
  auto appendBarrier = [&] {
    check(zeCommandListAppendBarrier(list.get(), nullptr, 0, nullptr),
          "zeCommandListAppendBarrier");
  };

  // Upload, warm-up launch, read-back.
  for (const DeviceBuffer& b : buffers) {
    check(zeCommandListAppendMemoryCopy(list.get(), b.device.get(), b.staging.get(), b.host->size(),
                                        nullptr, 0, nullptr),
          "zeCommandListAppendMemoryCopy(upload)");
  }
  appendBarrier();
  appendLaunch(nullptr);
  appendBarrier();
  for (const DeviceBuffer& b : buffers) {
    if (!b.readBack) continue;
    check(zeCommandListAppendMemoryCopy(list.get(), b.staging.get(), b.device.get(), b.host->size(),
                                        nullptr, 0, nullptr),
          "zeCommandListAppendMemoryCopy(read-back)");
  }
  check(zeCommandListClose(list.get()), "zeCommandListClose");
  submit(queue.get(), list.get());
  for (const DeviceBuffer& b : buffers) {
    if (b.readBack) std::memcpy(b.host->data(), b.staging.get(), b.host->size());
  }

  LevelZeroOutcome o = outcome(LevelZeroStatus::Ran, "");
  o.deviceName = found.name;
  if (caps.ipVersion) o.ipVersion = gpuIpVersionText(decodeGpuIpVersion(*caps.ipVersion));
  o.unknownCapabilities = std::move(unknown);
  o.buildLog = std::move(buildLog);
  o.spillBytes = kernelProperties.spillMemSize;
  o.privateBytes = kernelProperties.privateMemSize;
  const int repetitions = launch.timedRepetitions;
  std::vector<double> seconds;
  seconds.reserve(static_cast<size_t>(repetitions));

  const std::optional<DeviceTimer> timer =
      repetitions > 0 ? deviceTimer(found.driver, device) : std::nullopt;
  EventPool pool;
  if (timer) {
    ze_event_pool_desc_t poolDesc{};
    poolDesc.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
    poolDesc.flags = ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP | ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
    poolDesc.count = static_cast<uint32_t>(repetitions);
    ze_event_pool_handle_t rawPool = nullptr;
    // No timestamp events on this device or driver: fall back to the host clock below.
    if (zeEventPoolCreate(context.get(), &poolDesc, 1, &device, &rawPool) == ZE_RESULT_SUCCESS)
      pool = EventPool(rawPool);
  }

  if (repetitions > 0 && pool.get()) {
    o.timingSource = "kernel timestamps";
    std::vector<Event> events;
    events.reserve(static_cast<size_t>(repetitions));
    for (int i = 0; i < repetitions; ++i) {
      ze_event_desc_t eventDesc{};
      eventDesc.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
      eventDesc.index = static_cast<uint32_t>(i);
      eventDesc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
      ze_event_handle_t rawEvent = nullptr;
      check(zeEventCreate(pool.get(), &eventDesc, &rawEvent), "zeEventCreate");
      events.emplace_back(rawEvent);
    }
    check(zeCommandListReset(list.get()), "zeCommandListReset");
    for (const Event& event : events) {
      appendLaunch(event.get());
      appendBarrier();
    }
    check(zeCommandListClose(list.get()), "zeCommandListClose");
    submit(queue.get(), list.get());
    for (const Event& event : events) {
      ze_kernel_timestamp_result_t stamp{};
      check(zeEventQueryKernelTimestamp(event.get(), &stamp), "zeEventQueryKernelTimestamp");
      // Masked subtraction handles a counter that wrapped during the launch.
      const uint64_t ticks = (stamp.global.kernelEnd - stamp.global.kernelStart) & timer->mask;
      seconds.push_back(static_cast<double>(ticks) * timer->secondsPerTick);
    }
  } else if (repetitions > 0) {
    o.timingSource = "host clock";
    check(zeCommandListReset(list.get()), "zeCommandListReset");
    appendLaunch(nullptr);
    check(zeCommandListClose(list.get()), "zeCommandListClose");
    for (int i = 0; i < repetitions; ++i) {
      const auto start = std::chrono::steady_clock::now();
      submit(queue.get(), list.get());
      const auto end = std::chrono::steady_clock::now();
      seconds.push_back(std::chrono::duration<double>(end - start).count());
    }
  }

  if (!seconds.empty()) {
    o.bestSeconds = *std::min_element(seconds.begin(), seconds.end());
    double sum = 0;
    for (double s : seconds) sum += s;
    o.meanSeconds = sum / static_cast<double>(seconds.size());
  }
  char summary[160];
  std::snprintf(summary, sizeof summary, "%d timed launches (%s): best %.3f us, mean %.3f us",
                repetitions, o.timingSource.empty() ? "none" : o.timingSource.c_str(),
                o.bestSeconds * 1e6, o.meanSeconds * 1e6);
  o.message = "ran " + launch.kernelName + " on " + found.name + "; " + summary;
  return o;
}

// Turns anything thrown on the way into Failed, so no exception leaves the public functions.
template <typename Body> LevelZeroOutcome guarded(Body&& body) {
  try {
    return body();
  } catch (const LevelZeroFailure& e) {
    return outcome(LevelZeroStatus::Failed, std::string("Level Zero: ") + e.what());
  } catch (const std::exception& e) {
    return outcome(LevelZeroStatus::Failed, std::string("Level Zero runner: ") + e.what());
  } catch (...) {
    return outcome(LevelZeroStatus::Failed, "Level Zero runner: unknown exception");
  }
}

} // namespace

LevelZeroOutcome probeLevelZero(uint32_t deviceOrdinal) {
  return guarded([&] {
    FoundDevice found;
    return probe(&found, deviceOrdinal);
  });
}

LevelZeroOutcome runOnLevelZero(const LevelZeroLaunch& launch) {
  return guarded([&] {
    if (auto problem = invalidLaunch(launch))
      return outcome(LevelZeroStatus::Failed, "Level Zero runner: " + *problem);
    FoundDevice found;
    LevelZeroOutcome probed = probe(&found, launch.deviceOrdinal);
    if (probed.status != LevelZeroStatus::Ran) return probed;
    return run(launch, found);
  });
}

std::string levelZeroResultName(int result) {
  switch (result) {
#define LAYOUT_ZE_RESULT(name)                                                                     \
  case static_cast<int>(name):                                                                     \
    return #name;
    LAYOUT_ZE_RESULT(ZE_RESULT_SUCCESS)
    LAYOUT_ZE_RESULT(ZE_RESULT_NOT_READY)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_LOST)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE)
    LAYOUT_ZE_RESULT(ZE_RESULT_EXP_ERROR_DEVICE_IS_NOT_VERTEX)
    LAYOUT_ZE_RESULT(ZE_RESULT_EXP_ERROR_VERTEX_IS_NOT_DEVICE)
    LAYOUT_ZE_RESULT(ZE_RESULT_EXP_ERROR_REMOTE_DEVICE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_NOT_AVAILABLE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE)
    LAYOUT_ZE_RESULT(ZE_RESULT_WARNING_DROPPED_DATA)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_UNINITIALIZED)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_SIZE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
    LAYOUT_ZE_RESULT(ZE_RESULT_WARNING_ACTION_REQUIRED)
    LAYOUT_ZE_RESULT(ZE_RESULT_ERROR_UNKNOWN)
#undef LAYOUT_ZE_RESULT
  default:
    break;
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08x", static_cast<unsigned>(result));
  return hex;
}

} // namespace layout::level_zero
