// The C ABI of include/tileopt/runtime.h over Manifest and the CUDA driver.
#include "tileopt/runtime.h"

#include "CudaDriver.h"
#include "Manifest.h"
#include "TensorMap.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>

using tileopt::Manifest;
using tileopt::cuda::describeError;
using tileopt::cuda::Driver;

// The manifest's tensor maps encoded for one set of buffer addresses: the
// host copy stays alive for the asynchronous copy to the device.
struct EncodedTensorMaps {
  std::vector<CUtensorMap> host;
  CUdeviceptr device = 0;
};

struct tileopt_artifact {
  Manifest manifest;
  const Driver *cu = nullptr;
  CUcontext context = nullptr;
  CUdevice device = 0;
  bool retainedPrimaryContext = false;
  std::map<std::string, CUmodule> modules; // by cubin file name
  std::vector<CUfunction> functions;       // one per manifest kernel
  // The device copies of the constant buffers, uploaded at load: one per
  // manifest buffer, 0 for buffers of other roles (the caller's).
  std::vector<CUdeviceptr> constants;
  // Tensor maps by the addresses of the buffers they describe (in the order
  // of manifest.tensorMaps). A map is a function of its buffer's address and
  // the manifest alone, so an entry stays valid for as long as the artifact
  // lives, even when that memory is freed and handed out again. A cache:
  // launches, which take the artifact as const, fill it.
  mutable std::mutex tensorMapsLock;
  mutable std::map<std::vector<uint64_t>, EncodedTensorMaps> tensorMaps;
};

namespace {

thread_local std::string lastError;

tileopt_status fail(tileopt_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

// Reads the whole file in one read of its size (constants' files may hold
// gigabytes of weights: no copy through a stream buffer).
bool readFile(const std::string &path, std::string &out, std::string &error) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    error = "cannot read \"" + path + "\": " + std::strerror(errno);
    return false;
  }
  std::streamoff size = in.tellg();
  if (size >= 0) {
    out.resize(static_cast<size_t>(size));
    in.seekg(0);
    in.read(out.data(), size);
  }
  if (size < 0 || !in || in.gcount() != size) {
    error = "cannot read \"" + path + "\": read error";
    return false;
  }
  return true;
}

// Reads the file of each constant buffer (each file once) into `files`, by
// the manifest's file name, and checks that it holds the buffer's bytes.
tileopt_status readConstants(const Manifest &m, const std::string &dir,
                             const std::string &manifestPath,
                             std::map<std::string, std::string> &files) {
  std::string error;
  for (size_t i = 0; i < m.buffers.size(); ++i) {
    const tileopt::BufferDesc &b = m.buffers[i];
    if (b.role != TILEOPT_CONSTANT)
      continue;
    std::string where =
        manifestPath + ": buffers[" + std::to_string(i) + "].data";
    std::string path = dir + "/" + b.data.file;
    auto found = files.find(b.data.file);
    if (found == files.end()) {
      found = files.emplace(b.data.file, std::string()).first;
      if (!readFile(path, found->second, error))
        return fail(TILEOPT_ERROR_IO, where + ".file: " + error);
    }
    uint64_t size = found->second.size();
    if (b.data.offset > size || size - b.data.offset < b.sizeBytes)
      return fail(TILEOPT_ERROR_IO,
                  where + ": \"" + path + "\" holds " + std::to_string(size) +
                      " bytes, too few for constant buffer \"" + b.name +
                      "\" (bytes " + std::to_string(b.data.offset) + " to " +
                      std::to_string(b.data.offset + b.sizeBytes) + ")");
  }
  return TILEOPT_OK;
}

// Allocates each constant buffer on the device and copies its bytes in,
// then waits for the copies, so that launches on any stream (one that does
// not wait for the legacy default stream too) see them.
tileopt_status
uploadConstants(tileopt_artifact &a,
                const std::map<std::string, std::string> &files) {
  const Driver &cu = *a.cu;
  const Manifest &m = a.manifest;
  for (size_t i = 0; i < m.buffers.size(); ++i) {
    const tileopt::BufferDesc &b = m.buffers[i];
    if (b.role != TILEOPT_CONSTANT)
      continue;
    if (a.constants.empty()) // only artifacts with constants have slots
      a.constants.assign(m.buffers.size(), 0);
    std::string where = "constant buffer \"" + b.name + "\": ";
    CUresult r = cu.cuMemAlloc(&a.constants[i], b.sizeBytes);
    if (r != CUDA_SUCCESS) {
      a.constants[i] = 0;
      return fail(TILEOPT_ERROR_CUDA,
                  where + std::to_string(b.sizeBytes) +
                      " bytes: " + describeError(cu, "cuMemAlloc", r));
    }
    const std::string &bytes = files.at(b.data.file);
    r = cu.cuMemcpyHtoD(a.constants[i], bytes.data() + b.data.offset,
                        b.sizeBytes);
    if (r != CUDA_SUCCESS)
      return fail(TILEOPT_ERROR_CUDA,
                  where + describeError(cu, "cuMemcpyHtoD", r));
  }
  // A copy from pageable memory may return before its DMA ends.
  CUresult r =
      a.constants.empty() ? CUDA_SUCCESS : cu.cuStreamSynchronize(nullptr);
  if (r != CUDA_SUCCESS)
    return fail(TILEOPT_ERROR_CUDA,
                "uploading the constant buffers: " +
                    describeError(cu, "cuStreamSynchronize", r));
  return TILEOPT_OK;
}

// Makes the artifact's context current for the life of the scope when the
// calling thread has another one (or none) current.
class ContextScope {
public:
  explicit ContextScope(const tileopt_artifact &a) : cu(*a.cu) {
    CUcontext current = nullptr;
    cu.cuCtxGetCurrent(&current);
    if (current != a.context)
      pushed = cu.cuCtxPushCurrent(a.context) == CUDA_SUCCESS;
  }
  ~ContextScope() {
    CUcontext popped;
    if (pushed)
      cu.cuCtxPopCurrent(&popped);
  }
  ContextScope(const ContextScope &) = delete;
  ContextScope &operator=(const ContextScope &) = delete;

private:
  const Driver &cu;
  bool pushed = false;
};

// Adopts the thread's current context, or retains device 0's primary one,
// the context the CUDA runtime (and so PyTorch) would use.
tileopt_status attachContext(tileopt_artifact &a) {
  const Driver &cu = *a.cu;
  CUresult r = cu.cuCtxGetCurrent(&a.context);
  if (r != CUDA_SUCCESS)
    return fail(TILEOPT_ERROR_CUDA, describeError(cu, "cuCtxGetCurrent", r));
  if (a.context) {
    r = cu.cuCtxGetDevice(&a.device);
    return r == CUDA_SUCCESS ? TILEOPT_OK
                             : fail(TILEOPT_ERROR_CUDA,
                                    describeError(cu, "cuCtxGetDevice", r));
  }
  if ((r = cu.cuDeviceGet(&a.device, 0)) != CUDA_SUCCESS)
    return fail(TILEOPT_ERROR_CUDA, describeError(cu, "cuDeviceGet", r));
  if ((r = cu.cuDevicePrimaryCtxRetain(&a.context, a.device)) != CUDA_SUCCESS)
    return fail(TILEOPT_ERROR_CUDA,
                describeError(cu, "cuDevicePrimaryCtxRetain", r));
  a.retainedPrimaryContext = true;
  if ((r = cu.cuCtxSetCurrent(a.context)) != CUDA_SUCCESS)
    return fail(TILEOPT_ERROR_CUDA, describeError(cu, "cuCtxSetCurrent", r));
  return TILEOPT_OK;
}

// A cubin for sm_XY runs on devices X.Z with Z >= Y; an sm_XYa/f one only
// on X.Y. Checked up front because the driver's own complaint
// (CUDA_ERROR_NO_BINARY_FOR_GPU) does not say which side is wrong.
tileopt_status checkArch(const tileopt_artifact &a) {
  const Driver &cu = *a.cu;
  int major = 0, minor = 0;
  CUresult r = cu.cuDeviceGetAttribute(
      &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, a.device);
  if (r == CUDA_SUCCESS)
    r = cu.cuDeviceGetAttribute(
        &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, a.device);
  if (r != CUDA_SUCCESS)
    return fail(TILEOPT_ERROR_CUDA,
                describeError(cu, "cuDeviceGetAttribute", r));
  const Manifest &m = a.manifest;
  bool runs = major == m.archMajor &&
              (m.archSpecific ? minor == m.archMinor : minor >= m.archMinor);
  if (!runs)
    return fail(TILEOPT_ERROR_UNSUPPORTED_DEVICE,
                "the artifact targets " + m.arch + " but device " +
                    std::to_string(a.device) + " is sm_" +
                    std::to_string(major) + std::to_string(minor));
  return TILEOPT_OK;
}

// A kernel whose blocks wait for each other (manifest "grid_sync") hangs
// unless all of its blocks are resident at once: each of its launches must
// fit the device's SMs times the blocks one SM holds of it.
tileopt_status checkResident(const tileopt_artifact &a, size_t kernel,
                             CUfunction function) {
  const Driver &cu = *a.cu;
  const tileopt::KernelDesc &k = a.manifest.kernels[kernel];
  int perSM = 0, sms = 0;
  CUresult r = cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(
      &perSM, function, static_cast<int>(k.block[0] * k.block[1] * k.block[2]),
      k.dynamicSharedBytes);
  if (r != CUDA_SUCCESS)
    return fail(
        TILEOPT_ERROR_CUDA,
        describeError(cu, "cuOccupancyMaxActiveBlocksPerMultiprocessor", r));
  if ((r = cu.cuDeviceGetAttribute(&sms,
                                   CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                   a.device)) != CUDA_SUCCESS)
    return fail(TILEOPT_ERROR_CUDA,
                describeError(cu, "cuDeviceGetAttribute", r));
  uint64_t resident = uint64_t(perSM) * uint64_t(sms);
  for (size_t l = 0; l < a.manifest.launches.size(); ++l) {
    const tileopt::LaunchDesc &launch = a.manifest.launches[l];
    if (static_cast<size_t>(launch.kernel) != kernel)
      continue;
    uint64_t blocks =
        uint64_t(launch.grid[0]) * launch.grid[1] * launch.grid[2];
    if (blocks > resident)
      return fail(TILEOPT_ERROR_UNSUPPORTED_DEVICE,
                  "launches[" + std::to_string(l) + "] of \"" + k.name +
                      "\": its " + std::to_string(blocks) +
                      " blocks wait for each other (grid_sync) but device " +
                      std::to_string(a.device) + " holds at most " +
                      std::to_string(resident) + " of them at once (" +
                      std::to_string(perSM) + " per SM on " +
                      std::to_string(sms) + " SMs)");
  }
  return TILEOPT_OK;
}

tileopt_status loadKernels(tileopt_artifact &a,
                           const std::map<std::string, std::string> &cubins,
                           const std::string &dir) {
  const Driver &cu = *a.cu;
  for (const auto &[file, image] : cubins) {
    CUmodule module;
    CUresult r = cu.cuModuleLoadData(&module, image.data());
    if (r != CUDA_SUCCESS)
      return fail(TILEOPT_ERROR_CUDA,
                  "loading \"" + dir + "/" + file +
                      "\": " + describeError(cu, "cuModuleLoadData", r));
    a.modules[file] = module;
  }
  for (size_t i = 0; i < a.manifest.kernels.size(); ++i) {
    const tileopt::KernelDesc &k = a.manifest.kernels[i];
    std::string where =
        "kernels[" + std::to_string(i) + "] \"" + k.name + "\": ";
    CUfunction function;
    CUresult r = cu.cuModuleGetFunction(&function, a.modules.at(k.cubin),
                                        k.symbol.c_str());
    if (r != CUDA_SUCCESS)
      return fail(TILEOPT_ERROR_CUDA,
                  where + "symbol \"" + k.symbol + "\" in \"" + k.cubin +
                      "\": " + describeError(cu, "cuModuleGetFunction", r));
    // Beyond 48 KiB of static and dynamic shared memory together, a kernel
    // must opt in to its dynamic shared memory: by default the driver allows
    // 48 KiB less the static bytes.
    if (k.staticSharedBytes + k.dynamicSharedBytes > 48 * 1024) {
      r = cu.cuFuncSetAttribute(function,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                static_cast<int>(k.dynamicSharedBytes));
      if (r != CUDA_SUCCESS) {
        int optIn = 0;
        cu.cuDeviceGetAttribute(
            &optIn, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            a.device);
        return fail(TILEOPT_ERROR_CUDA,
                    where + std::to_string(k.dynamicSharedBytes) +
                        " bytes of dynamic shared memory (the device allows " +
                        std::to_string(optIn) + " per block): " +
                        describeError(cu, "cuFuncSetAttribute", r));
      }
    }
    a.functions.push_back(function);
    if (k.gridSync) {
      if (tileopt_status s = checkResident(a, i, function); s != TILEOPT_OK)
        return s;
    }
  }
  return TILEOPT_OK;
}

// Copies `maps` to the device before the launches on `stream` read them: on
// `stream` itself, or, while `stream` is being captured into a CUDA graph,
// once and at once, on a stream of its own, rather than as a copy from
// pageable host memory inside the graph; the maps are kept for the life of
// the artifact, so every replay finds them. (The cuMemAlloc before this is
// a call that capture may refuse outside its relaxed mode: tileopt's own
// CUDA graphs are captured with capture_error_mode="relaxed".)
CUresult uploadTensorMaps(const Driver &cu, const EncodedTensorMaps &maps,
                          size_t bytes, CUstream stream) {
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  CUresult r = cu.cuStreamIsCapturing(stream, &capture);
  if (r != CUDA_SUCCESS)
    return r;
  if (capture == CU_STREAM_CAPTURE_STATUS_NONE)
    return cu.cuMemcpyHtoDAsync(maps.device, maps.host.data(), bytes, stream);
  CUstream own = nullptr;
  r = cu.cuStreamCreate(&own, CU_STREAM_NON_BLOCKING);
  if (r != CUDA_SUCCESS)
    return r;
  r = cu.cuMemcpyHtoDAsync(maps.device, maps.host.data(), bytes, own);
  CUresult synchronized = cu.cuStreamSynchronize(own);
  cu.cuStreamDestroy(own);
  return r != CUDA_SUCCESS ? r : synchronized;
}

// The device address of the artifact's tensor maps encoded for the
// buffers at `buffers`: encoded, copied to the device on `stream` and kept
// the first time these addresses come.
tileopt_status tensorMapsFor(const tileopt_artifact &a, const uint64_t *buffers,
                             CUstream stream, CUdeviceptr &out) {
  const Manifest &m = a.manifest;
  const Driver &cu = *a.cu;
  std::vector<uint64_t> key;
  for (const tileopt::TensorMapDesc &map : m.tensorMaps)
    key.push_back(buffers[map.buffer]);
  std::lock_guard<std::mutex> lock(a.tensorMapsLock);
  auto found = a.tensorMaps.find(key);
  if (found != a.tensorMaps.end()) {
    out = found->second.device;
    return TILEOPT_OK;
  }
  EncodedTensorMaps maps;
  maps.host.resize(m.tensorMaps.size());
  for (size_t t = 0; t < m.tensorMaps.size(); ++t) {
    const tileopt::TensorMapDesc &map = m.tensorMaps[t];
    const tileopt::BufferDesc &buffer = m.buffers[map.buffer];
    std::string what = "tensor map " + std::to_string(t) + " of buffer \"" +
                       buffer.name + "\"";
    if (key[t] % tileopt::kTensorMapAddressAlignment != 0)
      return fail(TILEOPT_ERROR_INVALID_ARGUMENT,
                  what + ": the buffer's address " + std::to_string(key[t]) +
                      " is not " +
                      std::to_string(tileopt::kTensorMapAddressAlignment) +
                      "-byte aligned, as TMA needs");
    tileopt::TensorMapEncoding e = tileopt::tensorMapEncoding(map, buffer);
    CUresult r = cu.cuTensorMapEncodeTiled(
        &maps.host[t], e.dataType, e.rank, reinterpret_cast<void *>(key[t]),
        e.globalDim, e.globalStrides, e.boxDim, e.elementStrides,
        CU_TENSOR_MAP_INTERLEAVE_NONE, e.swizzle,
        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
      return fail(TILEOPT_ERROR_CUDA,
                  what + ": " + describeError(cu, "cuTensorMapEncodeTiled", r));
  }
  size_t bytes = maps.host.size() * sizeof(CUtensorMap);
  CUresult r = cu.cuMemAlloc(&maps.device, bytes);
  if (r != CUDA_SUCCESS)
    return fail(TILEOPT_ERROR_CUDA,
                "tensor maps: " + describeError(cu, "cuMemAlloc", r));
  r = uploadTensorMaps(cu, maps, bytes, stream);
  if (r != CUDA_SUCCESS) {
    cu.cuMemFree(maps.device);
    return fail(TILEOPT_ERROR_CUDA,
                "tensor maps: " + describeError(cu, "uploading them", r));
  }
  out = maps.device;
  a.tensorMaps.emplace(std::move(key), std::move(maps));
  return TILEOPT_OK;
}

} // namespace

extern "C" {

const char *tileopt_last_error(void) { return lastError.c_str(); }

tileopt_status tileopt_artifact_load(const char *dir, tileopt_artifact **out) {
  if (!dir || !out)
    return fail(TILEOPT_ERROR_INVALID_ARGUMENT,
                "tileopt_artifact_load: dir and out must not be null");
  *out = nullptr;
  std::string manifestPath = std::string(dir) + "/manifest.json";
  std::string text, error;
  if (!readFile(manifestPath, text, error))
    return fail(TILEOPT_ERROR_IO, error);

  auto artifact = std::make_unique<tileopt_artifact>();
  if (!tileopt::parseManifest(text, artifact->manifest, error))
    return fail(TILEOPT_ERROR_MANIFEST, manifestPath + ": " + error);

  // Read every cubin before touching the driver, so an incomplete artifact
  // is reported the same way with and without a GPU.
  std::map<std::string, std::string> cubins;
  for (size_t i = 0; i < artifact->manifest.kernels.size(); ++i) {
    const std::string &file = artifact->manifest.kernels[i].cubin;
    if (cubins.count(file))
      continue;
    if (!readFile(std::string(dir) + "/" + file, cubins[file], error))
      return fail(TILEOPT_ERROR_IO, manifestPath + ": kernels[" +
                                        std::to_string(i) +
                                        "].cubin: " + error);
  }
  std::map<std::string, std::string> constantFiles;
  if (tileopt_status s =
          readConstants(artifact->manifest, dir, manifestPath, constantFiles);
      s != TILEOPT_OK)
    return s;

  artifact->cu = tileopt::cuda::driver(error);
  if (!artifact->cu)
    return fail(TILEOPT_ERROR_NO_DEVICE, error);
  tileopt_status status = attachContext(*artifact);
  if (status == TILEOPT_OK)
    status = checkArch(*artifact);
  if (status == TILEOPT_OK) {
    ContextScope scope(*artifact);
    status = loadKernels(*artifact, cubins, dir);
    if (status == TILEOPT_OK)
      status = uploadConstants(*artifact, constantFiles);
  }
  if (status != TILEOPT_OK) {
    tileopt_artifact_destroy(artifact.release());
    return status;
  }
  *out = artifact.release();
  return TILEOPT_OK;
}

void tileopt_artifact_destroy(tileopt_artifact *artifact) {
  if (!artifact)
    return;
  if (artifact->context) {
    {
      ContextScope scope(*artifact);
      for (const auto &entry : artifact->modules)
        artifact->cu->cuModuleUnload(entry.second);
      for (const auto &entry : artifact->tensorMaps)
        artifact->cu->cuMemFree(entry.second.device);
      for (CUdeviceptr constant : artifact->constants)
        if (constant)
          artifact->cu->cuMemFree(constant);
    }
    if (artifact->retainedPrimaryContext)
      artifact->cu->cuDevicePrimaryCtxRelease(artifact->device);
  }
  delete artifact;
}

int32_t tileopt_artifact_num_buffers(const tileopt_artifact *artifact) {
  return artifact ? static_cast<int32_t>(artifact->manifest.buffers.size()) : 0;
}

tileopt_status tileopt_artifact_buffer(const tileopt_artifact *artifact,
                                       int32_t index,
                                       tileopt_buffer_info *info) {
  if (!artifact || !info)
    return fail(TILEOPT_ERROR_INVALID_ARGUMENT,
                "tileopt_artifact_buffer: artifact and info must not be null");
  const auto &buffers = artifact->manifest.buffers;
  if (index < 0 || static_cast<size_t>(index) >= buffers.size())
    return fail(TILEOPT_ERROR_INVALID_ARGUMENT,
                "tileopt_artifact_buffer: index " + std::to_string(index) +
                    " out of range (the artifact has " +
                    std::to_string(buffers.size()) + " buffers)");
  const tileopt::BufferDesc &b = buffers[index];
  *info = tileopt_buffer_info();
  info->name = b.name.c_str();
  info->role = b.role;
  info->dtype = b.dtype;
  info->rank = static_cast<int32_t>(b.shape.size());
  for (size_t d = 0; d < b.shape.size(); ++d) {
    info->shape[d] = b.shape[d];
    info->strides[d] = b.strides[d];
  }
  info->size_bytes = b.sizeBytes;
  return TILEOPT_OK;
}

const char *tileopt_artifact_reference(const tileopt_artifact *artifact) {
  return artifact ? artifact->manifest.reference.c_str() : "";
}

tileopt_status tileopt_artifact_reference_arg(const tileopt_artifact *artifact,
                                              const char *name, double *value) {
  if (!artifact || !name || !value)
    return fail(TILEOPT_ERROR_INVALID_ARGUMENT,
                "tileopt_artifact_reference_arg: arguments must not be null");
  auto it = artifact->manifest.referenceArgs.find(name);
  if (it == artifact->manifest.referenceArgs.end())
    return fail(TILEOPT_ERROR_INVALID_ARGUMENT,
                std::string("the manifest's reference_args has no \"") + name +
                    "\"");
  *value = it->second;
  return TILEOPT_OK;
}

tileopt_status tileopt_artifact_launch(const tileopt_artifact *artifact,
                                       const uint64_t *buffers,
                                       int32_t num_buffers, void *stream) {
  if (!artifact || !buffers)
    return fail(
        TILEOPT_ERROR_INVALID_ARGUMENT,
        "tileopt_artifact_launch: artifact and buffers must not be null");
  const Manifest &m = artifact->manifest;
  if (num_buffers < 0 || static_cast<size_t>(num_buffers) != m.buffers.size())
    return fail(TILEOPT_ERROR_INVALID_ARGUMENT,
                "tileopt_artifact_launch: got " + std::to_string(num_buffers) +
                    " buffers, the artifact has " +
                    std::to_string(m.buffers.size()));
  for (size_t i = 0; i < m.buffers.size(); ++i) {
    bool constant = m.buffers[i].role == TILEOPT_CONSTANT;
    if ((buffers[i] == 0) != constant)
      return fail(TILEOPT_ERROR_INVALID_ARGUMENT,
                  "tileopt_artifact_launch: buffer " + std::to_string(i) +
                      " \"" + m.buffers[i].name +
                      (constant ? "\" is a constant, which the artifact holds: "
                                  "pass 0 for it"
                                : "\" is a null pointer"));
  }
  // The caller's pointers, with the artifact's own in the constants' slots.
  std::vector<uint64_t> withConstants;
  if (!artifact->constants.empty()) {
    withConstants.assign(buffers, buffers + num_buffers);
    for (size_t i = 0; i < withConstants.size(); ++i)
      if (artifact->constants[i])
        withConstants[i] = artifact->constants[i];
    buffers = withConstants.data();
  }

  const Driver &cu = *artifact->cu;
  ContextScope scope(*artifact);
  CUdeviceptr tensorMaps = 0;
  if (!m.tensorMaps.empty()) {
    tileopt_status status = tensorMapsFor(
        *artifact, buffers, static_cast<CUstream>(stream), tensorMaps);
    if (status != TILEOPT_OK)
      return status;
  }
  std::vector<uint64_t> slots;
  std::vector<void *> params;
  for (size_t l = 0; l < m.launches.size(); ++l) {
    const tileopt::LaunchDesc &launch = m.launches[l];
    const tileopt::KernelDesc &k = m.kernels[launch.kernel];
    // One 8-byte slot per param; cuLaunchKernel reads each param's own size
    // from the start of its slot.
    slots.resize(launch.args.size());
    params.resize(launch.args.size());
    for (size_t p = 0; p < launch.args.size(); ++p) {
      const tileopt::ArgDesc &arg = launch.args[p];
      switch (arg.kind) {
      case tileopt::ArgDesc::Kind::BufferPointer:
        slots[p] = buffers[arg.buffer];
        break;
      case tileopt::ArgDesc::Kind::Constant:
        slots[p] = arg.constant;
        break;
      case tileopt::ArgDesc::Kind::TensorMap:
        slots[p] = tensorMaps + arg.tensorMap * sizeof(CUtensorMap);
        break;
      }
      params[p] = &slots[p];
    }
    CUresult r = cu.cuLaunchKernel(
        artifact->functions[launch.kernel], launch.grid[0], launch.grid[1],
        launch.grid[2], k.block[0], k.block[1], k.block[2],
        k.dynamicSharedBytes, static_cast<CUstream>(stream),
        params.empty() ? nullptr : params.data(), nullptr);
    if (r != CUDA_SUCCESS)
      return fail(TILEOPT_ERROR_CUDA,
                  "launches[" + std::to_string(l) + "] (kernel \"" + k.name +
                      "\"): " + describeError(cu, "cuLaunchKernel", r));
  }
  return TILEOPT_OK;
}

const char *tileopt_dtype_name(tileopt_dtype dtype) {
  return tileopt::dtypeName(dtype);
}

size_t tileopt_dtype_size(tileopt_dtype dtype) {
  return tileopt::dtypeSize(dtype);
}

} // extern "C"
