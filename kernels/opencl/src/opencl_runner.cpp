// The OpenCL runner (opencl_runner.h). The ICD loader is opened with dlopen and its entry points
// are looked up into a table: linking libOpenCL would make every program built on this library
// need it, and defining the cl* names ourselves would clash with programs that do link it.
#define CL_TARGET_OPENCL_VERSION 200
#include "layout/opencl/opencl_runner.h"

#include "layout/kernels/dynamic_library.h"

#include <CL/cl.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>

namespace layout::opencl {

namespace {

// The entry points the runner calls, with the signatures of <CL/cl.h> (decltype checks them).
struct Api {
  // The loader, open for the rest of the process once every entry point resolved (never
  // closed); nullptr when it could not be opened or lacks one, and `error` says which.
  const kernels::DynamicLibrary* library = nullptr;
  std::string error;
#define LAYOUT_CL_ENTRY(name) decltype(&::name) name = nullptr;
  LAYOUT_CL_ENTRY(clGetPlatformIDs)
  LAYOUT_CL_ENTRY(clGetPlatformInfo)
  LAYOUT_CL_ENTRY(clGetDeviceIDs)
  LAYOUT_CL_ENTRY(clGetDeviceInfo)
  LAYOUT_CL_ENTRY(clCreateContext)
  LAYOUT_CL_ENTRY(clCreateCommandQueueWithProperties)
  LAYOUT_CL_ENTRY(clCreateProgramWithSource)
  LAYOUT_CL_ENTRY(clBuildProgram)
  LAYOUT_CL_ENTRY(clGetProgramBuildInfo)
  LAYOUT_CL_ENTRY(clCreateKernel)
  LAYOUT_CL_ENTRY(clSetKernelArg)
  LAYOUT_CL_ENTRY(clCreateBuffer)
  LAYOUT_CL_ENTRY(clEnqueueNDRangeKernel)
  LAYOUT_CL_ENTRY(clEnqueueReadBuffer)
  LAYOUT_CL_ENTRY(clFinish)
  LAYOUT_CL_ENTRY(clReleaseMemObject)
  LAYOUT_CL_ENTRY(clReleaseKernel)
  LAYOUT_CL_ENTRY(clReleaseProgram)
  LAYOUT_CL_ENTRY(clReleaseCommandQueue)
  LAYOUT_CL_ENTRY(clReleaseContext)
#undef LAYOUT_CL_ENTRY
};

const Api& api() {
  static const Api loaded = [] {
    Api a;
    // LAYOUT_OPENCL_LOADER names another loader (tests use it to simulate a machine without one).
    const char* path = std::getenv("LAYOUT_OPENCL_LOADER");
    const std::string name = path && *path ? path : "libOpenCL.so.1";
    auto library = std::make_unique<kernels::DynamicLibrary>("the OpenCL ICD loader " + name,
                                                             std::vector<std::string>{name});
    if (!library->loaded()) {
      a.error = library->loadError();
      return a;
    }
#define LAYOUT_CL_LOAD(name) library->resolve(a.name, #name);
    LAYOUT_CL_LOAD(clGetPlatformIDs)
    LAYOUT_CL_LOAD(clGetPlatformInfo)
    LAYOUT_CL_LOAD(clGetDeviceIDs)
    LAYOUT_CL_LOAD(clGetDeviceInfo)
    LAYOUT_CL_LOAD(clCreateContext)
    LAYOUT_CL_LOAD(clCreateCommandQueueWithProperties)
    LAYOUT_CL_LOAD(clCreateProgramWithSource)
    LAYOUT_CL_LOAD(clBuildProgram)
    LAYOUT_CL_LOAD(clGetProgramBuildInfo)
    LAYOUT_CL_LOAD(clCreateKernel)
    LAYOUT_CL_LOAD(clSetKernelArg)
    LAYOUT_CL_LOAD(clCreateBuffer)
    LAYOUT_CL_LOAD(clEnqueueNDRangeKernel)
    LAYOUT_CL_LOAD(clEnqueueReadBuffer)
    LAYOUT_CL_LOAD(clFinish)
    LAYOUT_CL_LOAD(clReleaseMemObject)
    LAYOUT_CL_LOAD(clReleaseKernel)
    LAYOUT_CL_LOAD(clReleaseProgram)
    LAYOUT_CL_LOAD(clReleaseCommandQueue)
    LAYOUT_CL_LOAD(clReleaseContext)
#undef LAYOUT_CL_LOAD
    if (!library->missingSymbol().empty()) {
      a.error = library->missingSymbolError() + " (OpenCL 2.0 needed)";
      return a; // closes the loader
    }
    a.library = library.release();
    return a;
  }();
  return loaded;
}

// Releases an OpenCL object at scope exit.
template <typename T> struct Owned {
  Owned(T o, std::function<void(T)> r) : object(o), release(std::move(r)) {}
  Owned(const Owned&) = delete; // one owner: a copy would release twice
  Owned& operator=(const Owned&) = delete;
  ~Owned() {
    if (object) release(object);
  }
  T object = nullptr;
  std::function<void(T)> release;
};

std::string platformString(cl_platform_id p, cl_platform_info what) {
  char text[256] = {};
  api().clGetPlatformInfo(p, what, sizeof text - 1, text, nullptr);
  return text;
}

std::string deviceString(cl_device_id d, cl_device_info what) {
  char text[256] = {};
  api().clGetDeviceInfo(d, what, sizeof text - 1, text, nullptr);
  return text;
}

struct Device {
  cl_device_id id = nullptr;
  std::string name;
};

// The first device of the first platform that has one.
Device firstDevice(OpenClOutcome& out) {
  const Api& cl = api();
  if (!cl.library) {
    out.status = OpenClStatus::NoDevice;
    out.message = cl.error;
    return {};
  }
  cl_uint platforms = 0;
  if (cl.clGetPlatformIDs(0, nullptr, &platforms) != CL_SUCCESS || platforms == 0) {
    out.status = OpenClStatus::NoDevice;
    out.message = "no OpenCL platform (no ICD is installed; Debian: pocl-opencl-icd)";
    return {};
  }
  std::vector<cl_platform_id> ids(platforms);
  cl.clGetPlatformIDs(platforms, ids.data(), nullptr);
  for (cl_platform_id p : ids) {
    cl_device_id d = nullptr;
    cl_uint n = 0;
    if (cl.clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, &n) == CL_SUCCESS && n > 0)
      return {d,
              deviceString(d, CL_DEVICE_NAME) + " (" + platformString(p, CL_PLATFORM_NAME) + ")"};
  }
  out.status = OpenClStatus::NoDevice;
  out.message = "no OpenCL device on " + std::to_string(platforms) + " platform(s)";
  return {};
}

OpenClOutcome failed(std::string message, std::string log = {}) {
  OpenClOutcome out;
  out.status = OpenClStatus::Failed;
  out.message = std::move(message);
  out.buildLog = std::move(log);
  return out;
}

} // namespace

OpenClOutcome probeOpenCl() {
  OpenClOutcome out;
  Device d = firstDevice(out);
  if (!d.id) return out;
  out.status = OpenClStatus::Ran;
  out.deviceName = d.name;
  return out;
}

OpenClOutcome runOnOpenCl(const OpenClLaunch& launch) {
  OpenClOutcome out;
  Device device = firstDevice(out);
  if (!device.id) return out;
  const Api& cl = api();
  cl_int err = CL_SUCCESS;
  Owned<cl_context> context{cl.clCreateContext(nullptr, 1, &device.id, nullptr, nullptr, &err),
                            cl.clReleaseContext};
  if (!context.object) return failed("clCreateContext failed (" + std::to_string(err) + ")");
  Owned<cl_command_queue> queue{
      cl.clCreateCommandQueueWithProperties(context.object, device.id, nullptr, &err),
      cl.clReleaseCommandQueue};
  if (!queue.object) return failed("clCreateCommandQueue failed (" + std::to_string(err) + ")");
  const char* text = launch.source.c_str();
  const size_t length = launch.source.size();
  Owned<cl_program> program{cl.clCreateProgramWithSource(context.object, 1, &text, &length, &err),
                            cl.clReleaseProgram};
  if (!program.object)
    return failed("clCreateProgramWithSource failed (" + std::to_string(err) + ")");
  const cl_int built = cl.clBuildProgram(program.object, 1, &device.id, launch.buildOptions.c_str(),
                                         nullptr, nullptr);
  size_t logSize = 0;
  cl.clGetProgramBuildInfo(program.object, device.id, CL_PROGRAM_BUILD_LOG, 0, nullptr, &logSize);
  std::string log(logSize, '\0');
  if (logSize > 0)
    cl.clGetProgramBuildInfo(program.object, device.id, CL_PROGRAM_BUILD_LOG, logSize, log.data(),
                             nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n' || log.back() == ' '))
    log.pop_back();
  if (built != CL_SUCCESS)
    return failed(
        "building the kernel failed on " + device.name + " (" + std::to_string(built) + ")", log);
  Owned<cl_kernel> kernel{cl.clCreateKernel(program.object, launch.kernelName.c_str(), &err),
                          cl.clReleaseKernel};
  if (!kernel.object)
    return failed("no kernel '" + launch.kernelName + "' in the program (" + std::to_string(err) +
                  ")");
  std::vector<std::unique_ptr<Owned<cl_mem>>> buffers;
  std::vector<std::pair<cl_mem, std::vector<uint8_t>*>> readBacks;
  for (size_t i = 0; i < launch.arguments.size(); ++i) {
    const auto& value = launch.arguments[i].value;
    if (const auto* b = std::get_if<OpenClBuffer>(&value)) {
      if (!b->host || b->host->empty()) return failed("argument " + std::to_string(i) + ": empty");
      auto mem = std::make_unique<Owned<cl_mem>>(
          cl.clCreateBuffer(context.object, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            b->host->size(), b->host->data(), &err),
          cl.clReleaseMemObject);
      if (!mem->object)
        return failed("clCreateBuffer of " + std::to_string(b->host->size()) + " bytes failed (" +
                      std::to_string(err) + ")");
      err = cl.clSetKernelArg(kernel.object, cl_uint(i), sizeof(cl_mem), &mem->object);
      if (b->readBack) readBacks.push_back({mem->object, b->host});
      buffers.push_back(std::move(mem));
    } else {
      const int32_t scalar = std::get<int32_t>(value);
      err = cl.clSetKernelArg(kernel.object, cl_uint(i), sizeof scalar, &scalar);
    }
    if (err != CL_SUCCESS)
      return failed("clSetKernelArg " + std::to_string(i) + " failed (" + std::to_string(err) +
                    ")");
  }
  auto enqueue = [&]() -> cl_int {
    cl_int e =
        cl.clEnqueueNDRangeKernel(queue.object, kernel.object, 3, nullptr, launch.globalSize.data(),
                                  launch.localSize.data(), 0, nullptr, nullptr);
    return e != CL_SUCCESS ? e : cl.clFinish(queue.object);
  };
  if (cl_int e = enqueue(); e != CL_SUCCESS)
    return failed("the launch failed (" + std::to_string(e) + ")", log);
  for (auto [mem, host] : readBacks)
    if (cl_int e = cl.clEnqueueReadBuffer(queue.object, mem, CL_TRUE, 0, host->size(), host->data(),
                                          0, nullptr, nullptr);
        e != CL_SUCCESS)
      return failed("reading the result back failed (" + std::to_string(e) + ")", log);
  for (int r = 0; r < launch.timedRepetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    if (cl_int e = enqueue(); e != CL_SUCCESS)
      return failed("a timed launch failed (" + std::to_string(e) + ")", log);
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r == 0 || s < out.bestSeconds) out.bestSeconds = s;
  }
  out.status = OpenClStatus::Ran;
  out.deviceName = device.name;
  out.buildLog = std::move(log);
  return out;
}

} // namespace layout::opencl
