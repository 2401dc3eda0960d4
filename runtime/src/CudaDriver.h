// The CUDA driver API, loaded from libcuda.so.1 at run time.
//
// Linking libcuda (even its stub) would make every program that uses the
// runtime fail to start where no driver is installed, before it could say
// why. Loading it on first use lets tileopt-run and the Python binding report
// "no CUDA driver or GPU found" and carry on or exit cleanly instead.
#ifndef TILEOPT_RUNTIME_CUDADRIVER_H
#define TILEOPT_RUNTIME_CUDADRIVER_H

#include <cuda.h>

#include <string>

namespace tileopt::cuda {

// Every driver function TileOpt calls. cuda.h maps most names to versioned
// symbols (cuMemAlloc -> cuMemAlloc_v2); the members below are spelled with
// the same macros, so they get the versioned name and signature too.
// clang-format off
#define TILEOPT_CUDA_FUNCTIONS(X)                                              \
  X(cuInit) X(cuGetErrorName) X(cuGetErrorString) X(cuDeviceGetCount)          \
  X(cuDeviceGet) X(cuDeviceGetAttribute) X(cuDevicePrimaryCtxRetain)           \
  X(cuDevicePrimaryCtxRelease) X(cuCtxGetCurrent) X(cuCtxSetCurrent)           \
  X(cuCtxPushCurrent) X(cuCtxPopCurrent) X(cuCtxGetDevice)                     \
  X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction)                 \
  X(cuFuncSetAttribute) X(cuLaunchKernel)                                      \
  X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyHtoDAsync)              \
  X(cuMemcpyDtoH) X(cuMemsetD8) X(cuStreamCreate) X(cuStreamDestroy)          \
  X(cuStreamSynchronize) X(cuStreamIsCapturing) X(cuEventCreate)               \
  X(cuEventDestroy) X(cuEventRecord) X(cuEventSynchronize)                     \
  X(cuEventElapsedTime) X(cuTensorMapEncodeTiled)                              \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)
// clang-format on

struct Driver {
#define TILEOPT_CUDA_MEMBER(fn) decltype(&::fn) fn = nullptr;
  TILEOPT_CUDA_FUNCTIONS(TILEOPT_CUDA_MEMBER)
#undef TILEOPT_CUDA_MEMBER
};

// The message every tool prints, and tests look for, when there is no GPU.
constexpr const char *kNoDeviceMessage = "no CUDA driver or GPU found";

// Loads the driver and calls cuInit once per process; thread-safe. Returns
// null when the library is missing, lacks a function, cuInit fails or there
// is no device, with `error` set to kNoDeviceMessage plus the detail.
const Driver *driver(std::string &error);

// "<call>: CUDA_ERROR_X (<description>)" for a failed driver call.
std::string describeError(const Driver &cu, const char *call, CUresult result);

} // namespace tileopt::cuda

#endif // TILEOPT_RUNTIME_CUDADRIVER_H
