// The artifact manifest (manifest.json) as C++ data, and its validating
// parser. docs/artifact-format.md is the specification; every rule it states
// is checked here, before any CUDA call, so a bad manifest is reported the
// same way on machines with and without a GPU.
#ifndef TILEOPT_RUNTIME_MANIFEST_H
#define TILEOPT_RUNTIME_MANIFEST_H

#include "tileopt/runtime.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tileopt {

// Where a constant buffer's contents are: `sizeBytes` bytes at `offset` of
// `file` (relative to the artifact directory), row-major in the buffer's
// dtype, little-endian.
struct ConstantData {
  std::string file;
  uint64_t offset = 0; // a multiple of 16
};

struct BufferDesc {
  std::string name;
  tileopt_role role;
  tileopt_dtype dtype;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides; // in elements
  uint64_t sizeBytes;           // see tileopt_buffer_info::size_bytes
  ConstantData data;            // role TILEOPT_CONSTANT only
};

// dtype names as manifest.json spells them ("bf16"), and element sizes.
const char *dtypeName(tileopt_dtype dtype);
size_t dtypeSize(tileopt_dtype dtype);

// A kernel parameter type: its size is what cuLaunchKernel copies.
enum class ParamType { Ptr, I32, I64, F32 };
const char *paramTypeName(ParamType type);
size_t paramTypeSize(ParamType type);

struct KernelDesc {
  std::string name;
  std::string cubin; // file name relative to the artifact directory
  std::string symbol;
  std::array<uint32_t, 3> block;
  uint32_t staticSharedBytes;  // the cubin's own; decides the opt-in
  uint32_t dynamicSharedBytes; // passed to cuLaunchKernel
  std::vector<ParamType> params;
  // Its blocks wait for each other (a grid-wide barrier): every launch's
  // grid must fit on the device at once.
  bool gridSync = false;
};

// A TMA tensor map of a buffer (CUtensorMap, cuTensorMapEncodeTiled): the
// whole buffer, copied in boxes of `box` elements, zero-filled outside it.
struct TensorMapDesc {
  int32_t buffer;
  std::vector<int64_t> box; // one per buffer dim, outer dim first
  int32_t swizzle;          // bytes: 0 (none), 32, 64 or 128
};

// How one launch argument gets its value.
struct ArgDesc {
  enum class Kind {
    BufferPointer, // the caller's device pointer for `buffer`
    Constant,      // known from the manifest: a literal, or a dim or stride
    TensorMap      // the device address of tensor map `tensorMap`, encoded
                   // for the caller's pointer to its buffer
  };
  Kind kind;
  int32_t buffer;    // BufferPointer only
  uint64_t constant; // Constant only: the bytes of the value, little end first
  int32_t tensorMap = -1; // TensorMap only: index into Manifest::tensorMaps
};

struct LaunchDesc {
  int32_t kernel;
  std::array<uint32_t, 3> grid;
  std::vector<ArgDesc> args; // one per kernel param
};

struct Manifest {
  std::string sourceHash;
  std::string arch;  // "sm_90", "sm_90a", ...
  int archMajor;     // 9 for sm_90
  int archMinor;     // 0 for sm_90
  bool archSpecific; // the "a"/"f" suffix: runs only on that exact major.minor
  std::vector<BufferDesc> buffers;
  std::vector<KernelDesc> kernels;
  std::vector<LaunchDesc> launches;
  std::vector<TensorMapDesc> tensorMaps; // the distinct ones the args bind
  std::string reference;                 // "" when absent
  std::map<std::string, double> referenceArgs;
};

// Parses and validates manifest.json text. On failure returns false and sets
// `error` to "<path in the manifest>: <what is wrong>", e.g.
// "buffers[1].dtype: unknown dtype 'bf17' (expected one of ...)".
bool parseManifest(std::string_view text, Manifest &out, std::string &error);

} // namespace tileopt

#endif // TILEOPT_RUNTIME_MANIFEST_H
