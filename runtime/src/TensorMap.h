// TMA tensor maps: what cuTensorMapEncodeTiled is given for a manifest's
// tensor_map argument. cuda.h's types only, no driver call, so the encoding
// is unit-tested without a GPU; Runtime.cpp makes the call.
#ifndef TILEOPT_RUNTIME_TENSORMAP_H
#define TILEOPT_RUNTIME_TENSORMAP_H

#include "Manifest.h"

#include <cuda.h>

namespace tileopt {

// The arguments of cuTensorMapEncodeTiled but the global address. CUDA
// counts dims innermost first, the manifest outermost first; strides are in
// bytes and exclude the innermost dim's (one element).
struct TensorMapEncoding {
  CUtensorMapDataType dataType;
  cuuint32_t rank;
  cuuint64_t globalDim[5];
  cuuint64_t globalStrides[4];
  cuuint32_t boxDim[5];
  cuuint32_t elementStrides[5];
  CUtensorMapSwizzle swizzle;
};

// The encoding of `map` over `buffer`, the buffer it names (the manifest
// parser checked the limits).
TensorMapEncoding tensorMapEncoding(const TensorMapDesc &map,
                                    const BufferDesc &buffer);

// Global addresses of tensor maps are 16-byte aligned.
constexpr uint64_t kTensorMapAddressAlignment = 16;

} // namespace tileopt

#endif // TILEOPT_RUNTIME_TENSORMAP_H
