// A stand-in libcuda.so.1 for machines without a GPU: device memory is host
// memory, and "kernels" are C++ functions looked up by symbol. Loaded in
// place of the real driver (LD_LIBRARY_PATH), it lets the tests drive the
// runtime and tileopt-run end to end: param binding, the dynamic shared
// memory opt-in, copies, the reference check and the timing loop. Its
// kernels: the sample artifact's row_softmax, computed the way
// tests/gpu/row_softmax.cu does (f32 in, bf16 out); tensor_map_probe,
// which shows the runtime's tensor maps, and constant_probe, which shows
// the buffer a pointer param gets (FakeDriverTest.cpp); add_f32, an
// artifact with a constant operand for tileopt-run (constants.sh). The
// extern "C" fake_cuda_* functions count allocations and copies for tests.
#include "HostBuffer.h"

#include <cuda.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

// SMs of the fake device (CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).
constexpr int kMultiprocessors = 4;

using tileopt::run::bfloat16ToFloat;
using tileopt::run::floatToBFloat16;

struct Kernel {
  const char *symbol;
  void (*run)(unsigned gridX, void **params);
  // As on a GPU: 48 KiB of shared memory in all unless the kernel opts in
  // (cuFuncSetAttribute).
  int maxDynamicShared;
};

void rowSoftmax(unsigned rows, void **params) {
  auto *x = *static_cast<const uint16_t **>(params[0]);
  auto *y = *static_cast<uint16_t **>(params[1]);
  long long cols = *static_cast<long long *>(params[2]);
  std::vector<float> row(cols);
  for (unsigned r = 0; r < rows; ++r) {
    float max = -INFINITY, sum = 0;
    for (long long c = 0; c < cols; ++c)
      max = std::fmax(max, row[c] = bfloat16ToFloat(x[r * cols + c]));
    for (long long c = 0; c < cols; ++c)
      sum += row[c] = std::exp(row[c] - max);
    for (long long c = 0; c < cols; ++c)
      y[r * cols + c] = floatToBFloat16(row[c] / sum);
  }
}

// Params (out: u64[2], map): out[0] = the map's device address, out[1] = the
// global address cuTensorMapEncodeTiled below stored in it.
void tensorMapProbe(unsigned, void **params) {
  auto *out = *static_cast<uint64_t **>(params[0]);
  uint64_t map = *static_cast<uint64_t *>(params[1]);
  out[0] = map;
  std::memcpy(&out[1], reinterpret_cast<const void *>(map), sizeof out[1]);
}

// Params (out: u64[1]): out[0] = 1. Its cubin would hold 32 KiB of static
// shared memory.
void staticSharedProbe(unsigned, void **params) {
  **static_cast<uint64_t **>(params[0]) = 1;
}

// Params (out: u8[8 + bytes], in: ptr, bytes: i64): out's first 8 bytes =
// the address `in` got, then `bytes` bytes copied from it.
void constantProbe(unsigned, void **params) {
  auto *out = *static_cast<uint8_t **>(params[0]);
  auto *in = *static_cast<const uint8_t **>(params[1]);
  long long bytes = *static_cast<long long *>(params[2]);
  std::memcpy(out, &in, sizeof in);
  std::memcpy(out + sizeof in, in, bytes);
}

// Params (x, w, y: f32[n], n: i64): y = x + w.
void addF32(unsigned, void **params) {
  auto *x = *static_cast<const float **>(params[0]);
  auto *w = *static_cast<const float **>(params[1]);
  auto *y = *static_cast<float **>(params[2]);
  long long n = *static_cast<long long *>(params[3]);
  for (long long i = 0; i < n; ++i)
    y[i] = x[i] + w[i];
}

Kernel kernels[] = {{"row_softmax", rowSoftmax, 48 * 1024},
                    {"tensor_map_probe", tensorMapProbe, 48 * 1024},
                    {"static_shared_probe", staticSharedProbe, 16 * 1024},
                    {"constant_probe", constantProbe, 48 * 1024},
                    {"add_f32", addF32, 48 * 1024}};

// What the fake_cuda_* functions report.
long liveAllocations = 0;
long hostToDeviceCopies = 0;
long copiesIntoCapture = 0;
// The stream a test says is being captured into a CUDA graph, if any.
CUstream capturedStream = nullptr;

int fakeContext, fakeModule;
thread_local std::vector<CUcontext> contextStack;

CUcontext current() {
  return contextStack.empty() ? nullptr : contextStack.back();
}

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch())
      .count();
}

} // namespace

extern "C" {

// Allocations not freed yet, and host-to-device copies made, so far.
long fake_cuda_live_allocations() { return liveAllocations; }
long fake_cuda_host_to_device_copies() { return hostToDeviceCopies; }
// Says that `stream` is being captured from now on (nullptr: none is), and
// how many copies were enqueued on a stream while it was.
void fake_cuda_capture(CUstream stream) { capturedStream = stream; }
long fake_cuda_copies_into_capture() { return copiesIntoCapture; }

CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
CUresult cuGetErrorName(CUresult r, const char **name) {
  *name = r == CUDA_ERROR_INVALID_VALUE   ? "CUDA_ERROR_INVALID_VALUE"
          : r == CUDA_ERROR_NOT_FOUND     ? "CUDA_ERROR_NOT_FOUND"
          : r == CUDA_ERROR_INVALID_IMAGE ? "CUDA_ERROR_INVALID_IMAGE"
                                          : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult, const char **text) {
  *text = "fake driver";
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *device, int) {
  *device = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                              CUdevice) {
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = 0;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = 232448;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = kMultiprocessors;
    break;
  default:
    *value = 0;
  }
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  *context = reinterpret_cast<CUcontext>(&fakeContext);
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }
CUresult cuCtxGetCurrent(CUcontext *context) {
  *context = current();
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext context) {
  if (contextStack.empty())
    contextStack.push_back(context);
  else
    contextStack.back() = context;
  return CUDA_SUCCESS;
}
CUresult cuCtxPushCurrent(CUcontext context) {
  contextStack.push_back(context);
  return CUDA_SUCCESS;
}
CUresult cuCtxPopCurrent(CUcontext *context) {
  *context = current();
  if (!contextStack.empty())
    contextStack.pop_back();
  return CUDA_SUCCESS;
}
CUresult cuCtxGetDevice(CUdevice *device) {
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  if (std::memcmp(image,
                  "\x7f"
                  "ELF",
                  4) != 0)
    return CUDA_ERROR_INVALID_IMAGE;
  *module = reinterpret_cast<CUmodule>(&fakeModule);
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }
CUresult cuModuleGetFunction(CUfunction *function, CUmodule,
                             const char *symbol) {
  for (Kernel &k : kernels) {
    if (!std::strcmp(k.symbol, symbol)) {
      *function = reinterpret_cast<CUfunction>(&k);
      return CUDA_SUCCESS;
    }
  }
  return CUDA_ERROR_NOT_FOUND;
}
// A small device: kMultiprocessors SMs that hold two blocks of any kernel.
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction,
                                                     int, size_t) {
  *blocks = 2;
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction function, CUfunction_attribute attribute,
                            int value) {
  if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    reinterpret_cast<Kernel *>(function)->maxDynamicShared = value;
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction function, unsigned gridX, unsigned, unsigned,
                        unsigned, unsigned, unsigned, unsigned sharedBytes,
                        CUstream, void **params, void **) {
  auto *kernel = reinterpret_cast<Kernel *>(function);
  // As on a GPU: more dynamic shared memory than opted in for fails, and
  // launching needs a current context.
  if (!current() || int(sharedBytes) > kernel->maxDynamicShared)
    return CUDA_ERROR_INVALID_VALUE;
  kernel->run(gridX, params);
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  *pointer = reinterpret_cast<CUdeviceptr>(
      std::aligned_alloc(256, (bytes + 255) / 256 * 256));
  liveAllocations += *pointer != 0;
  return *pointer ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
CUresult cuMemFree(CUdeviceptr pointer) {
  if (!pointer)
    return CUDA_ERROR_INVALID_VALUE;
  std::free(reinterpret_cast<void *>(pointer));
  --liveAllocations;
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD(CUdeviceptr to, const void *from, size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(to), from, bytes);
  ++hostToDeviceCopies;
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr to, const void *from, size_t bytes,
                           CUstream stream) {
  copiesIntoCapture += capturedStream && stream == capturedStream;
  return cuMemcpyHtoD(to, from, bytes);
}
// The map holds the global address, as the real one does somewhere; the
// stand-in kernels take none.
CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType,
                                cuuint32_t, void *address, const cuuint64_t *,
                                const cuuint64_t *, const cuuint32_t *,
                                const cuuint32_t *, CUtensorMapInterleave,
                                CUtensorMapSwizzle, CUtensorMapL2promotion,
                                CUtensorMapFloatOOBfill) {
  if (reinterpret_cast<uintptr_t>(address) % 16 != 0)
    return CUDA_ERROR_INVALID_VALUE;
  std::memset(map, 0, sizeof *map);
  std::memcpy(map, &address, sizeof address);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *to, CUdeviceptr from, size_t bytes) {
  std::memcpy(to, reinterpret_cast<void *>(from), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8(CUdeviceptr to, unsigned char value, size_t bytes) {
  std::memset(reinterpret_cast<void *>(to), value, bytes);
  return CUDA_SUCCESS;
}
CUresult cuStreamCreate(CUstream *stream, unsigned) {
  *stream = reinterpret_cast<CUstream>(new char);
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy(CUstream stream) {
  delete reinterpret_cast<char *>(stream);
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream stream) {
  return capturedStream && stream == capturedStream
             ? CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
             : CUDA_SUCCESS;
}
CUresult cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus *status) {
  *status = capturedStream && stream == capturedStream
                ? CU_STREAM_CAPTURE_STATUS_ACTIVE
                : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}

// An event is the host time it was recorded at.
CUresult cuEventCreate(CUevent *event, unsigned) {
  *event = reinterpret_cast<CUevent>(new double(0));
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent event) {
  delete reinterpret_cast<double *>(event);
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent event, CUstream) {
  *reinterpret_cast<double *>(event) = nowMs();
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent stop) {
  *ms = static_cast<float>(*reinterpret_cast<double *>(stop) -
                           *reinterpret_cast<double *>(start));
  return CUDA_SUCCESS;
}

} // extern "C"
