// NVRTC + driver API + cuBLAS run of an emitted NVIDIA GEMM kernel, verified and timed.
#include "layout/cuda/cuda_gemm_run.h"

#include "layout/codegen/kernel_ir.h"
#include "layout/kernels/dynamic_library.h"

#include <cublas_v2.h>
#include <cuda.h>
#include <nvrtc.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace layout::cuda {
namespace {

// The driver, NVRTC and cuBLAS are opened at run time, not linked: layoutctl starts on machines
// without them (this one has the toolkit's headers but no driver) and says what is missing.
// cuda.h and cublas_v2.h map names such as cuMemAlloc to their current ABI (cuMemAlloc_v2); the
// macros below expand them the same way for the member and the symbol looked up.
#define LAYOUT_CUDA_DRIVER(X)                                                                      \
  X(cuGetErrorName)                                                                                \
  X(cuGetErrorString)                                                                              \
  X(cuInit)                                                                                        \
  X(cuDeviceGetCount)                                                                              \
  X(cuDeviceGet)                                                                                   \
  X(cuDeviceGetName)                                                                               \
  X(cuDeviceGetAttribute)                                                                          \
  X(cuDevicePrimaryCtxRetain)                                                                      \
  X(cuDevicePrimaryCtxRelease)                                                                     \
  X(cuCtxSetCurrent)                                                                               \
  X(cuCtxSynchronize)                                                                              \
  X(cuMemAlloc)                                                                                    \
  X(cuMemFree)                                                                                     \
  X(cuMemcpyHtoD)                                                                                  \
  X(cuMemcpyDtoH)                                                                                  \
  X(cuMemsetD32)                                                                                   \
  X(cuModuleLoadData)                                                                              \
  X(cuModuleUnload)                                                                                \
  X(cuModuleGetFunction)                                                                           \
  X(cuFuncGetAttribute)                                                                            \
  X(cuFuncSetAttribute)                                                                            \
  X(cuLaunchKernel)                                                                                \
  X(cuEventCreate)                                                                                 \
  X(cuEventDestroy)                                                                                \
  X(cuEventRecord)                                                                                 \
  X(cuEventSynchronize)                                                                            \
  X(cuEventElapsedTime)                                                                            \
  X(cuTensorMapEncodeTiled)
#define LAYOUT_CUDA_NVRTC(X)                                                                       \
  X(nvrtcGetErrorString)                                                                           \
  X(nvrtcCreateProgram)                                                                            \
  X(nvrtcCompileProgram)                                                                           \
  X(nvrtcGetProgramLogSize)                                                                        \
  X(nvrtcGetProgramLog)                                                                            \
  X(nvrtcDestroyProgram)                                                                           \
  X(nvrtcGetCUBINSize)                                                                             \
  X(nvrtcGetCUBIN)
#define LAYOUT_CUDA_CUBLAS(X)                                                                      \
  X(cublasCreate)                                                                                  \
  X(cublasDestroy)
#define LAYOUT_CUDA_STR2(x) #x
#define LAYOUT_CUDA_STR(x) LAYOUT_CUDA_STR2(x)
#define LAYOUT_CUDA_MEMBER(fn) decltype(&::fn) fn = nullptr;
// A missing entry point is remembered by the library (missingSymbol, missingSymbolError).
#define LAYOUT_CUDA_LOAD(fn) library.resolve(fn, LAYOUT_CUDA_STR(fn));

// The library `name` (as messages call it) from the first of `files` that opens: in the toolkit's
// directory (found at configure time), then on the loader's path.
kernels::DynamicLibrary openLibrary(const char* name, std::initializer_list<const char*> files) {
  std::vector<std::string> paths;
  for (const char* file : files) {
    paths.push_back(std::string(LAYOUT_CUDA_LIBRARY_DIR) + "/" + file);
    paths.push_back(file);
  }
  return kernels::DynamicLibrary(name, std::move(paths));
}

struct DriverApi {
  LAYOUT_CUDA_DRIVER(LAYOUT_CUDA_MEMBER)
  explicit DriverApi(kernels::DynamicLibrary& library) { LAYOUT_CUDA_DRIVER(LAYOUT_CUDA_LOAD) }
};
struct NvrtcApi {
  LAYOUT_CUDA_NVRTC(LAYOUT_CUDA_MEMBER)
  explicit NvrtcApi(kernels::DynamicLibrary& library) { LAYOUT_CUDA_NVRTC(LAYOUT_CUDA_LOAD) }
};
struct CublasApi {
  LAYOUT_CUDA_CUBLAS(LAYOUT_CUDA_MEMBER)
  // C++ overloads cublasGemmEx; the C entry point is this one.
  using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                    int, const void*, const void*, cudaDataType_t, int, const void*,
                                    cudaDataType_t, int, const void*, void*, cudaDataType_t, int,
                                    cublasComputeType_t, cublasGemmAlgo_t);
  GemmEx cublasGemmEx = nullptr;
  explicit CublasApi(kernels::DynamicLibrary& library) {
    LAYOUT_CUDA_CUBLAS(LAYOUT_CUDA_LOAD)
    library.resolve(cublasGemmEx, "cublasGemmEx");
  }
};

// The APIs run() opened, for the helpers below (one run at a time: layoutctl's).
const DriverApi* cu = nullptr;
const NvrtcApi* rtc = nullptr;
const CublasApi* blasApi = nullptr;

// Internal control flow only: every failure becomes a CudaRunResult in runCudaGemm.
struct Failure {
  CudaStatus status;
  std::string message;
};

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  cu->cuGetErrorName(r, &name);
  cu->cuGetErrorString(r, &text);
  throw Failure{CudaStatus::Failed,
                std::string(what) + " failed (" + (name ? name : "?") + "): " + (text ? text : "")};
}

void checkNvrtc(nvrtcResult r, const char* what, const std::string& log = {}) {
  if (r != NVRTC_SUCCESS)
    throw Failure{CudaStatus::Failed, std::string(what) +
                                          " failed: " + rtc->nvrtcGetErrorString(r) +
                                          (log.empty() ? "" : "\n" + log)};
}

void checkCublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw Failure{CudaStatus::Failed,
                  std::string(what) + " failed: cuBLAS status " + std::to_string(int(s))};
}

struct DeviceBuffer {
  CUdeviceptr ptr = 0;
  explicit DeviceBuffer(size_t bytes) {
    check(cu->cuMemAlloc(&ptr, std::max<size_t>(bytes, 4)), "cuMemAlloc");
  }
  ~DeviceBuffer() {
    if (ptr) cu->cuMemFree(ptr);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

struct PrimaryContext {
  CUdevice device = 0;
  CUcontext context = nullptr;
  explicit PrimaryContext(CUdevice d) : device(d) {
    check(cu->cuDevicePrimaryCtxRetain(&context, d), "cuDevicePrimaryCtxRetain");
    check(cu->cuCtxSetCurrent(context), "cuCtxSetCurrent");
  }
  ~PrimaryContext() {
    if (context) cu->cuDevicePrimaryCtxRelease(device);
  }
};

struct Module {
  CUmodule module = nullptr;
  ~Module() {
    if (module) cu->cuModuleUnload(module);
  }
};

struct Events {
  CUevent start = nullptr, stop = nullptr;
  Events() {
    check(cu->cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
    check(cu->cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  }
  ~Events() {
    if (start) cu->cuEventDestroy(start);
    if (stop) cu->cuEventDestroy(stop);
  }
};

struct Cublas {
  cublasHandle_t handle = nullptr;
  Cublas() { checkCublas(blasApi->cublasCreate(&handle), "cublasCreate"); }
  ~Cublas() {
    if (handle) blasApi->cublasDestroy(handle);
  }
};

// Compiles for the device's own architecture (sm_XY) straight to a cubin.
std::vector<char> compile(const std::string& source, const std::string& name, int cc,
                          bool archSpecific, std::string& log) {
  nvrtcProgram prog = nullptr;
  checkNvrtc(
      rtc->nvrtcCreateProgram(&prog, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr),
      "nvrtcCreateProgram");
  // wgmma and setmaxnreg exist only in the architecture-specific target (sm_90a).
  const std::string arch =
      "--gpu-architecture=sm_" + std::to_string(cc) + (archSpecific ? "a" : "");
  const char* options[] = {arch.c_str(), "--std=c++17"};
  const nvrtcResult compiled = rtc->nvrtcCompileProgram(prog, 2, options);
  size_t logSize = 0;
  rtc->nvrtcGetProgramLogSize(prog, &logSize);
  log.assign(logSize, '\0');
  if (logSize) rtc->nvrtcGetProgramLog(prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (compiled != NVRTC_SUCCESS) {
    rtc->nvrtcDestroyProgram(&prog);
    checkNvrtc(compiled, "nvrtcCompileProgram", log);
  }
  size_t size = 0;
  checkNvrtc(rtc->nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
  std::vector<char> cubin(size);
  checkNvrtc(rtc->nvrtcGetCUBIN(prog, cubin.data()), "nvrtcGetCUBIN");
  rtc->nvrtcDestroyProgram(&prog);
  return cubin;
}

CudaTiming timeRuns(const std::function<void()>& launch, const CudaRunOptions& o, double flops,
                    CUdeviceptr flush, size_t flushBytes) {
  Events ev;
  for (int i = 0; i < o.warmup; ++i) launch();
  check(cu->cuCtxSynchronize(), "warm-up");
  std::vector<double> ms;
  for (int i = 0; i < std::max(1, o.repetitions); ++i) {
    if (flush) check(cu->cuMemsetD32(flush, static_cast<unsigned>(i), flushBytes / 4), "L2 flush");
    check(cu->cuEventRecord(ev.start, nullptr), "cuEventRecord");
    launch();
    check(cu->cuEventRecord(ev.stop, nullptr), "cuEventRecord");
    check(cu->cuEventSynchronize(ev.stop), "cuEventSynchronize");
    float t = 0;
    check(cu->cuEventElapsedTime(&t, ev.start, ev.stop), "cuEventElapsedTime");
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  CudaTiming r;
  r.medianMs = ms[ms.size() / 2];
  r.minMs = ms.front();
  r.tflops = flops / (r.medianMs * 1e-3) / 1e12;
  return r;
}

// Device `index`, once the driver is up: its name, compute capability and shared-memory limit go
// into `res`. Refuses a device the plan cannot run on.
CUdevice openDevice(const codegen::CudaGemmPlan& plan, int index, CudaRunResult& res) {
  int count = 0;
  check(cu->cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (count == 0) throw Failure{CudaStatus::NoDevice, "no CUDA device"};
  if (index < 0 || index >= count)
    throw Failure{CudaStatus::Failed, "--device " + std::to_string(index) + ": there are " +
                                          std::to_string(count) + " CUDA devices"};
  CUdevice dev = 0;
  check(cu->cuDeviceGet(&dev, index), "cuDeviceGet");
  char name[256] = {};
  check(cu->cuDeviceGetName(name, sizeof name, dev), "cuDeviceGetName");
  res.deviceName = name;
  int major = 0, minor = 0, smemOptin = 0;
  check(cu->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "cc");
  check(cu->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "cc");
  check(cu->cuDeviceGetAttribute(&smemOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                 dev),
        "shared memory");
  res.computeCapability = major * 10 + minor;
  if (res.computeCapability < 80)
    throw Failure{CudaStatus::Failed, res.deviceName + " is sm_" +
                                          std::to_string(res.computeCapability) +
                                          "; the sm80 path needs sm_80 or newer"};
  if (plan.report.sharedBytes > smemOptin)
    throw Failure{CudaStatus::Failed, "the kernel needs " +
                                          std::to_string(plan.report.sharedBytes) +
                                          " bytes of shared memory; " + res.deviceName +
                                          " allows " + std::to_string(smemOptin)};
  return dev;
}

// The kernel compiled by NVRTC for the device, loaded into `mod`, its registers and local bytes
// in `res`, and its dynamic shared memory allowed.
CUfunction loadKernel(const codegen::CudaGemmPlan& plan, const std::string& source, Module& mod,
                      CudaRunResult& res) {
  if (plan.sm90 && res.computeCapability != 90)
    throw Failure{CudaStatus::Failed, res.deviceName + " is sm_" +
                                          std::to_string(res.computeCapability) +
                                          "; the sm90 path (wgmma) needs an sm_90 device"};
  const std::vector<char> cubin =
      compile(source, plan.name, res.computeCapability, plan.sm90, res.compileLog);
  check(cu->cuModuleLoadData(&mod.module, cubin.data()), "cuModuleLoadData");
  CUfunction fn = nullptr;
  check(cu->cuModuleGetFunction(&fn, mod.module, plan.name.c_str()), "cuModuleGetFunction");
  check(cu->cuFuncGetAttribute(&res.registers, CU_FUNC_ATTRIBUTE_NUM_REGS, fn), "registers");
  check(cu->cuFuncGetAttribute(&res.localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn), "local");
  check(cu->cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               static_cast<int>(plan.report.sharedBytes)),
        "cuFuncSetAttribute");
  return fn;
}

// sm90: the TMA descriptors of A and B, in the plan's boxes with the 128-byte swizzle that writes
// the nvmma_shared layouts; rows and columns past the matrix read as zeros. `lda`, `ldb` are in
// elements.
void encodeOperandMaps(const codegen::CudaGemmPlan& plan, CUdeviceptr a, CUdeviceptr b, int lda,
                       int ldb, CUtensorMap& tmA, CUtensorMap& tmB) {
  const codegen::CudaGemmConfig& c = plan.config;
  const CUtensorMapDataType type = c.dtype == codegen::GemmDataType::BF16
                                       ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                       : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  auto encode = [&](CUtensorMap& map, CUdeviceptr ptr, int64_t inner, int64_t rows, int ld,
                    std::array<int64_t, 2> box, const char* what) {
    const cuuint64_t dims[2] = {static_cast<cuuint64_t>(inner), static_cast<cuuint64_t>(rows)};
    const cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld) * 2};
    const cuuint32_t boxDims[2] = {static_cast<cuuint32_t>(box[0]),
                                   static_cast<cuuint32_t>(box[1])};
    const cuuint32_t elementStrides[2] = {1, 1};
    check(cu->cuTensorMapEncodeTiled(&map, type, 2, reinterpret_cast<void*>(ptr), dims, strides,
                                     boxDims, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                     CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          what);
  };
  encode(tmA, a, c.k, c.m, lda, plan.hopper.boxA, "cuTensorMapEncodeTiled (A)");
  // B: N x K (K innermost) with transpose_b, else K x N (N innermost).
  if (c.transposeB)
    encode(tmB, b, c.k, c.n, ldb, plan.hopper.boxB, "cuTensorMapEncodeTiled (B)");
  else
    encode(tmB, b, c.n, c.k, ldb, plan.hopper.boxB, "cuTensorMapEncodeTiled (B)");
}

// The rows of D checked against the exact reference: `requested` rows when given, else every row
// when small, else 16 rows spread over M (the first and last included).
std::vector<int64_t> verifiedRows(const codegen::CudaGemmConfig& c, int64_t requested) {
  const double work =
      static_cast<double>(c.m) * static_cast<double>(c.n) * static_cast<double>(c.k);
  const int64_t want = requested > 0          ? std::min(requested, c.m)
                       : work <= 2147483648.0 ? c.m
                                              : std::min<int64_t>(16, c.m);
  std::vector<int64_t> rows;
  for (int64_t i = 0; i < want; ++i)
    rows.push_back(want == c.m ? i : (want == 1 ? 0 : i * (c.m - 1) / (want - 1)));
  return rows;
}

// Row-major A, B and D as the kernel reads and writes them, with their leading dimensions in
// elements.
struct DeviceOperands {
  DeviceBuffer a, b, d;
  int lda, ldb, ldc;
};

// cublasGemmEx on the same inputs: its largest difference from our D (`ours`, as copied back) and
// its timing go into `res`.
void compareWithCublas(const codegen::CudaGemmPlan& plan, const CudaRunOptions& o,
                       const DeviceOperands& ops, const std::vector<uint8_t>& ours,
                       CUdeviceptr flush, size_t flushBytes, CudaRunResult& res) {
  const codegen::CudaGemmConfig& c = plan.config;
  const int M = static_cast<int>(c.m), N = static_cast<int>(c.n), K = static_cast<int>(c.k);
  Cublas blas;
  DeviceBuffer d2(ours.size());
  const float alpha = 1, beta = 0;
  const cudaDataType_t type = c.dtype == codegen::GemmDataType::BF16 ? CUDA_R_16BF : CUDA_R_16F;
  // Row-major D = A B is column-major D^T = B^T A^T: B (K x N row-major) is column-major
  // N x K, used as is; B stored N x K (transpose_b) is column-major K x N, transposed.
  auto gemm = [&] {
    checkCublas(blasApi->cublasGemmEx(blas.handle, c.transposeB ? CUBLAS_OP_T : CUBLAS_OP_N,
                                      CUBLAS_OP_N, N, M, K, &alpha,
                                      reinterpret_cast<const void*>(ops.b.ptr), type, ops.ldb,
                                      reinterpret_cast<const void*>(ops.a.ptr), type, ops.lda,
                                      &beta, reinterpret_cast<void*>(d2.ptr), CUDA_R_32F, ops.ldc,
                                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                "cublasGemmEx");
  };
  gemm();
  check(cu->cuCtxSynchronize(), "cuBLAS");
  std::vector<float> mine(ours.size() / 4), theirs(mine.size());
  std::memcpy(mine.data(), ours.data(), ours.size());
  check(cu->cuMemcpyDtoH(theirs.data(), d2.ptr, ours.size()), "copy cuBLAS D");
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      const size_t at = static_cast<size_t>(i * ops.ldc + j);
      res.maxDifferenceFromCublas =
          std::max(res.maxDifferenceFromCublas, std::fabs(double(mine[at]) - double(theirs[at])));
    }
  res.cublas = timeRuns(gemm, o, plan.report.flops, flush, flushBytes);
  res.cublasRan = true;
}

CudaRunResult run(const codegen::CudaGemmPlan& plan, const std::string& source,
                  const CudaRunOptions& o) {
  CudaRunResult res;
  kernels::DynamicLibrary driverLibrary =
      openLibrary("the CUDA driver", {"libcuda.so.1", "libcuda.so"});
  if (!driverLibrary.loaded())
    throw Failure{CudaStatus::NoDevice, "no CUDA driver (" + driverLibrary.attempts() + ")"};
  const DriverApi driver(driverLibrary);
  if (!driverLibrary.missingSymbol().empty())
    throw Failure{CudaStatus::NoDevice, driverLibrary.missingSymbolError()};
  cu = &driver;
  if (CUresult r = cu->cuInit(0); r != CUDA_SUCCESS) {
    const char* text = nullptr;
    cu->cuGetErrorString(r, &text);
    throw Failure{CudaStatus::NoDevice, std::string("cuInit failed: ") + (text ? text : "")};
  }
  const CUdevice dev = openDevice(plan, o.device, res);
  kernels::DynamicLibrary nvrtcLibrary =
      openLibrary("NVRTC", {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"});
  if (!nvrtcLibrary.loaded())
    throw Failure{CudaStatus::Failed, "no NVRTC (" + nvrtcLibrary.attempts() + ")"};
  const NvrtcApi nvrtc(nvrtcLibrary);
  if (!nvrtcLibrary.missingSymbol().empty())
    throw Failure{CudaStatus::Failed, nvrtcLibrary.missingSymbolError()};
  rtc = &nvrtc;
  std::unique_ptr<kernels::DynamicLibrary> cublasLibrary;
  std::unique_ptr<CublasApi> cublasApi;
  if (o.cublas) {
    cublasLibrary = std::make_unique<kernels::DynamicLibrary>(
        openLibrary("cuBLAS", {"libcublas.so", "libcublas.so.13", "libcublas.so.12"}));
    if (!cublasLibrary->loaded())
      throw Failure{CudaStatus::Failed,
                    "no cuBLAS (" + cublasLibrary->attempts() + "); --no-cublas runs without it"};
    cublasApi = std::make_unique<CublasApi>(*cublasLibrary);
    if (!cublasLibrary->missingSymbol().empty())
      throw Failure{CudaStatus::Failed, cublasLibrary->missingSymbolError()};
    blasApi = cublasApi.get();
  }
  PrimaryContext ctx(dev);
  Module mod;
  const CUfunction fn = loadKernel(plan, source, mod, res);

  // Inputs in the layout the verification reads: rows padded to 64 bytes (16-byte aligned).
  // The configuration is a codegen::GemmProblem: the inputs, surfaces and verification take it.
  const codegen::CudaGemmConfig& c = plan.config;
  kernels::GemmInputs in = kernels::makeGemmInputs(c, o.inputs, o.seed);
  auto pitch = [&](codegen::MatrixOperand m, int elementBytes) {
    return static_cast<int>(codegen::matrixSurface(c, m).pitchBytes / elementBytes);
  };
  DeviceOperands ops{DeviceBuffer(in.memory.a.size()),    DeviceBuffer(in.memory.b.size()),
                     DeviceBuffer(in.memory.c.size()),    pitch(codegen::MatrixOperand::A, 2),
                     pitch(codegen::MatrixOperand::B, 2), pitch(codegen::MatrixOperand::C, 4)};
  check(cu->cuMemcpyHtoD(ops.a.ptr, in.memory.a.data(), in.memory.a.size()), "copy A");
  check(cu->cuMemcpyHtoD(ops.b.ptr, in.memory.b.data(), in.memory.b.size()), "copy B");
  check(cu->cuMemcpyHtoD(ops.d.ptr, in.memory.c.data(), in.memory.c.size()), "copy C (poison)");

  int M = static_cast<int>(c.m), N = static_cast<int>(c.n), K = static_cast<int>(c.k);
  std::vector<void*> args = {&ops.a.ptr, &ops.b.ptr, &ops.d.ptr, &M,      &N,
                             &K,         &ops.lda,   &ops.ldb,   &ops.ldc};
  CUtensorMap tmA{}, tmB{};
  if (plan.sm90) {
    encodeOperandMaps(plan, ops.a.ptr, ops.b.ptr, ops.lda, ops.ldb, tmA, tmB);
    args = {&tmA, &tmB, &ops.d.ptr, &M, &N, &K, &ops.ldc};
  }
  auto launch = [&] {
    check(cu->cuLaunchKernel(fn, static_cast<unsigned>(plan.report.ctas), 1, 1,
                             static_cast<unsigned>(plan.report.threads), 1, 1,
                             static_cast<unsigned>(plan.report.sharedBytes), nullptr, args.data(),
                             nullptr),
          "cuLaunchKernel");
  };
  launch();
  check(cu->cuCtxSynchronize(), "the kernel");
  check(cu->cuMemcpyDtoH(in.memory.c.data(), ops.d.ptr, in.memory.c.size()), "copy D");

  const std::vector<int64_t> rows = verifiedRows(c, o.verifyRows);
  res.rowsVerified = static_cast<int64_t>(rows.size());
  res.verification = kernels::verifyGemm(c, in, kernels::kFaithfulRoundingUnit, rows);

  const size_t flushBytes = o.flushL2 ? size_t{512} << 20 : 0;
  std::unique_ptr<DeviceBuffer> flush;
  if (flushBytes) flush = std::make_unique<DeviceBuffer>(flushBytes);
  res.kernel = timeRuns(launch, o, plan.report.flops, flush ? flush->ptr : 0, flushBytes);
  if (o.cublas)
    compareWithCublas(plan, o, ops, in.memory.c, flush ? flush->ptr : 0, flushBytes, res);
  res.status = CudaStatus::Ok;
  return res;
}

} // namespace

CudaRunResult runCudaGemm(const codegen::CudaGemmPlan& plan, const std::string& source,
                          const CudaRunOptions& options) {
  try {
    return run(plan, source, options);
  } catch (const Failure& f) {
    CudaRunResult r;
    r.status = f.status;
    r.message = f.message;
    return r;
  } catch (const std::exception& e) {
    CudaRunResult r;
    r.status = CudaStatus::Failed;
    r.message = e.what();
    return r;
  }
}

} // namespace layout::cuda
