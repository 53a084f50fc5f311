// The Level Zero entry points the runner calls, loaded at run time: the loader
// (libze_loader.so.1) is opened with dlopen on the first call instead of being linked, so that
// layoutctl and every program built on layout::level_zero start, and report "no device", on a
// machine without it. Each function below has the exact signature of its declaration in
// <level_zero/ze_api.h> (the compiler checks that) and forwards to the loader's symbol; without a
// loader it returns ZE_RESULT_ERROR_UNINITIALIZED, and levelZeroLoaderError() says why.
#include "level_zero_loader.h"

#include "layout/kernels/dynamic_library.h"

#include <level_zero/ze_api.h>

#include <cstdlib>
#include <string>

namespace layout::level_zero {

namespace {

// Opened on the first call and never closed (never destroyed): the process's Level Zero objects
// live in it until exit.
const kernels::DynamicLibrary& loader() {
  static const kernels::DynamicLibrary* const loaded = [] {
    // LAYOUT_LEVEL_ZERO_LOADER names another loader (tests use it to simulate a machine without
    // one).
    const char* path = std::getenv("LAYOUT_LEVEL_ZERO_LOADER");
    const std::string name = path && *path ? path : "libze_loader.so.1";
    return new kernels::DynamicLibrary("the Level Zero loader " + name, {name});
  }();
  return *loaded;
}

} // namespace

void* symbolOf(const char* name) {
  return loader().symbol(name);
}

std::string levelZeroLoaderError() {
  const kernels::DynamicLibrary& l = loader();
  return l.loaded() ? "" : l.loadError();
}

} // namespace layout::level_zero

#define LAYOUT_ZE_FORWARD(name, params, args)                                                      \
  extern "C" ze_result_t ZE_APICALL name params {                                                  \
    static const auto fn = reinterpret_cast<decltype(&name)>(layout::level_zero::symbolOf(#name)); \
    return fn ? fn args : ZE_RESULT_ERROR_UNINITIALIZED;                                           \
  }

LAYOUT_ZE_FORWARD(zeInit, (ze_init_flags_t flags), (flags))
LAYOUT_ZE_FORWARD(zeDriverGet, (uint32_t * pCount, ze_driver_handle_t* phDrivers),
                  (pCount, phDrivers))
LAYOUT_ZE_FORWARD(zeDriverGetApiVersion, (ze_driver_handle_t hDriver, ze_api_version_t* version),
                  (hDriver, version))
LAYOUT_ZE_FORWARD(zeDeviceGet,
                  (ze_driver_handle_t hDriver, uint32_t* pCount, ze_device_handle_t* phDevices),
                  (hDriver, pCount, phDevices))
LAYOUT_ZE_FORWARD(zeDeviceGetProperties,
                  (ze_device_handle_t hDevice, ze_device_properties_t* pDeviceProperties),
                  (hDevice, pDeviceProperties))
LAYOUT_ZE_FORWARD(zeDeviceGetCommandQueueGroupProperties,
                  (ze_device_handle_t hDevice, uint32_t* pCount,
                   ze_command_queue_group_properties_t* pCommandQueueGroupProperties),
                  (hDevice, pCount, pCommandQueueGroupProperties))
LAYOUT_ZE_FORWARD(zeContextCreate,
                  (ze_driver_handle_t hDriver, const ze_context_desc_t* desc,
                   ze_context_handle_t* phContext),
                  (hDriver, desc, phContext))
LAYOUT_ZE_FORWARD(zeContextDestroy, (ze_context_handle_t hContext), (hContext))
LAYOUT_ZE_FORWARD(zeCommandQueueCreate,
                  (ze_context_handle_t hContext, ze_device_handle_t hDevice,
                   const ze_command_queue_desc_t* desc, ze_command_queue_handle_t* phCommandQueue),
                  (hContext, hDevice, desc, phCommandQueue))
LAYOUT_ZE_FORWARD(zeCommandQueueDestroy, (ze_command_queue_handle_t hCommandQueue), (hCommandQueue))
LAYOUT_ZE_FORWARD(zeCommandQueueExecuteCommandLists,
                  (ze_command_queue_handle_t hCommandQueue, uint32_t numCommandLists,
                   ze_command_list_handle_t* phCommandLists, ze_fence_handle_t hFence),
                  (hCommandQueue, numCommandLists, phCommandLists, hFence))
LAYOUT_ZE_FORWARD(zeCommandQueueSynchronize,
                  (ze_command_queue_handle_t hCommandQueue, uint64_t timeout),
                  (hCommandQueue, timeout))
LAYOUT_ZE_FORWARD(zeCommandListCreate,
                  (ze_context_handle_t hContext, ze_device_handle_t hDevice,
                   const ze_command_list_desc_t* desc, ze_command_list_handle_t* phCommandList),
                  (hContext, hDevice, desc, phCommandList))
LAYOUT_ZE_FORWARD(zeCommandListDestroy, (ze_command_list_handle_t hCommandList), (hCommandList))
LAYOUT_ZE_FORWARD(zeCommandListClose, (ze_command_list_handle_t hCommandList), (hCommandList))
LAYOUT_ZE_FORWARD(zeCommandListReset, (ze_command_list_handle_t hCommandList), (hCommandList))
LAYOUT_ZE_FORWARD(zeCommandListAppendBarrier,
                  (ze_command_list_handle_t hCommandList, ze_event_handle_t hSignalEvent,
                   uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents),
                  (hCommandList, hSignalEvent, numWaitEvents, phWaitEvents))
LAYOUT_ZE_FORWARD(zeCommandListAppendLaunchKernel,
                  (ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                   const ze_group_count_t* pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
                   uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents),
                  (hCommandList, hKernel, pLaunchFuncArgs, hSignalEvent, numWaitEvents,
                   phWaitEvents))
LAYOUT_ZE_FORWARD(zeCommandListAppendMemoryCopy,
                  (ze_command_list_handle_t hCommandList, void* dstptr, const void* srcptr,
                   size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                   ze_event_handle_t* phWaitEvents),
                  (hCommandList, dstptr, srcptr, size, hSignalEvent, numWaitEvents, phWaitEvents))
LAYOUT_ZE_FORWARD(zeEventPoolCreate,
                  (ze_context_handle_t hContext, const ze_event_pool_desc_t* desc,
                   uint32_t numDevices, ze_device_handle_t* phDevices,
                   ze_event_pool_handle_t* phEventPool),
                  (hContext, desc, numDevices, phDevices, phEventPool))
LAYOUT_ZE_FORWARD(zeEventPoolDestroy, (ze_event_pool_handle_t hEventPool), (hEventPool))
LAYOUT_ZE_FORWARD(zeEventCreate,
                  (ze_event_pool_handle_t hEventPool, const ze_event_desc_t* desc,
                   ze_event_handle_t* phEvent),
                  (hEventPool, desc, phEvent))
LAYOUT_ZE_FORWARD(zeEventDestroy, (ze_event_handle_t hEvent), (hEvent))
LAYOUT_ZE_FORWARD(zeEventQueryKernelTimestamp,
                  (ze_event_handle_t hEvent, ze_kernel_timestamp_result_t* dstptr),
                  (hEvent, dstptr))
LAYOUT_ZE_FORWARD(zeMemAllocDevice,
                  (ze_context_handle_t hContext, const ze_device_mem_alloc_desc_t* device_desc,
                   size_t size, size_t alignment, ze_device_handle_t hDevice, void** pptr),
                  (hContext, device_desc, size, alignment, hDevice, pptr))
LAYOUT_ZE_FORWARD(zeMemAllocHost,
                  (ze_context_handle_t hContext, const ze_host_mem_alloc_desc_t* host_desc,
                   size_t size, size_t alignment, void** pptr),
                  (hContext, host_desc, size, alignment, pptr))
LAYOUT_ZE_FORWARD(zeMemFree, (ze_context_handle_t hContext, void* ptr), (hContext, ptr))
LAYOUT_ZE_FORWARD(zeModuleCreate,
                  (ze_context_handle_t hContext, ze_device_handle_t hDevice,
                   const ze_module_desc_t* desc, ze_module_handle_t* phModule,
                   ze_module_build_log_handle_t* phBuildLog),
                  (hContext, hDevice, desc, phModule, phBuildLog))
LAYOUT_ZE_FORWARD(zeModuleDestroy, (ze_module_handle_t hModule), (hModule))
LAYOUT_ZE_FORWARD(zeModuleBuildLogDestroy, (ze_module_build_log_handle_t hModuleBuildLog),
                  (hModuleBuildLog))
LAYOUT_ZE_FORWARD(zeModuleBuildLogGetString,
                  (ze_module_build_log_handle_t hModuleBuildLog, size_t* pSize, char* pBuildLog),
                  (hModuleBuildLog, pSize, pBuildLog))
LAYOUT_ZE_FORWARD(zeKernelCreate,
                  (ze_module_handle_t hModule, const ze_kernel_desc_t* desc,
                   ze_kernel_handle_t* phKernel),
                  (hModule, desc, phKernel))
LAYOUT_ZE_FORWARD(zeKernelDestroy, (ze_kernel_handle_t hKernel), (hKernel))
LAYOUT_ZE_FORWARD(zeModuleGetProperties,
                  (ze_module_handle_t hModule, ze_module_properties_t* pModuleProperties),
                  (hModule, pModuleProperties))
LAYOUT_ZE_FORWARD(zeDeviceGetComputeProperties,
                  (ze_device_handle_t hDevice, ze_device_compute_properties_t* pComputeProperties),
                  (hDevice, pComputeProperties))
LAYOUT_ZE_FORWARD(zeKernelGetProperties,
                  (ze_kernel_handle_t hKernel, ze_kernel_properties_t* pKernelProperties),
                  (hKernel, pKernelProperties))
LAYOUT_ZE_FORWARD(zeKernelSetArgumentValue,
                  (ze_kernel_handle_t hKernel, uint32_t argIndex, size_t argSize,
                   const void* pArgValue),
                  (hKernel, argIndex, argSize, pArgValue))
LAYOUT_ZE_FORWARD(zeKernelSetGroupSize,
                  (ze_kernel_handle_t hKernel, uint32_t groupSizeX, uint32_t groupSizeY,
                   uint32_t groupSizeZ),
                  (hKernel, groupSizeX, groupSizeY, groupSizeZ))
LAYOUT_ZE_FORWARD(zeDriverGetExtensionProperties,
                  (ze_driver_handle_t hDriver, uint32_t* pCount,
                   ze_driver_extension_properties_t* pExtensionProperties),
                  (hDriver, pCount, pExtensionProperties))
LAYOUT_ZE_FORWARD(zeDeviceGetModuleProperties,
                  (ze_device_handle_t hDevice, ze_device_module_properties_t* pModuleProperties),
                  (hDevice, pModuleProperties))
