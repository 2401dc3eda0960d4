#include "CudaDriver.h"

#include <dlfcn.h>

#include <mutex>

namespace tileopt::cuda {

namespace {

// Expands a macro argument before quoting it: cuMemAlloc -> "cuMemAlloc_v2".
#define TILEOPT_STR(x) #x
#define TILEOPT_SYMBOL(x) TILEOPT_STR(x)

// Fills `cu`; on failure returns false with the detail in `error`.
bool load(Driver &cu, std::string &error) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    error = std::string(kNoDeviceMessage) + " (cannot load libcuda.so.1: " +
            (why ? why : "unknown reason") + ")";
    return false;
  }
  // The library stays loaded for the life of the process, like the CUDA
  // runtime's own handle: contexts and modules live inside it.
#define TILEOPT_CUDA_RESOLVE(fn)                                               \
  cu.fn = reinterpret_cast<decltype(cu.fn)>(dlsym(library, TILEOPT_SYMBOL(fn))); \
  if (!cu.fn) {                                                                \
    error = std::string(kNoDeviceMessage) + " (libcuda.so.1 lacks " +          \
            TILEOPT_SYMBOL(fn) + ": driver older than CUDA " +                 \
            std::to_string(CUDA_VERSION / 1000) + "?)";                        \
    return false;                                                              \
  }
  TILEOPT_CUDA_FUNCTIONS(TILEOPT_CUDA_RESOLVE)
#undef TILEOPT_CUDA_RESOLVE

  CUresult result = cu.cuInit(0);
  if (result != CUDA_SUCCESS) {
    error = std::string(kNoDeviceMessage) + " (" +
            describeError(cu, "cuInit", result) + ")";
    return false;
  }
  int count = 0;
  result = cu.cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS || count == 0) {
    error = std::string(kNoDeviceMessage) + " (" +
            (result != CUDA_SUCCESS
                 ? describeError(cu, "cuDeviceGetCount", result)
                 : std::string("the driver sees no device")) +
            ")";
    return false;
  }
  return true;
}

} // namespace

const Driver *driver(std::string &error) {
  static std::once_flag once;
  static Driver cu;
  static bool loaded = false;
  static std::string loadError;
  std::call_once(once, [] { loaded = load(cu, loadError); });
  if (!loaded)
    error = loadError;
  return loaded ? &cu : nullptr;
}

std::string describeError(const Driver &cu, const char *call, CUresult result) {
  const char *name = nullptr, *text = nullptr;
  cu.cuGetErrorName(result, &name);
  cu.cuGetErrorString(result, &text);
  return std::string(call) + ": " +
         (name ? name : "CUDA error " + std::to_string(int(result))) +
         (text ? std::string(" (") + text + ")" : std::string());
}

} // namespace tileopt::cuda
