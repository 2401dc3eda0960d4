#include "TensorMap.h"

namespace tileopt {

namespace {

CUtensorMapDataType dataTypeOf(tileopt_dtype dtype) {
  switch (dtype) {
  case TILEOPT_F16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case TILEOPT_BF16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case TILEOPT_F32: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case TILEOPT_F64: return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case TILEOPT_I8: return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case TILEOPT_I32: return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case TILEOPT_I64: return CU_TENSOR_MAP_DATA_TYPE_INT64;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

CUtensorMapSwizzle swizzleOf(int32_t bytes) {
  switch (bytes) {
  case 32: return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64: return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128: return CU_TENSOR_MAP_SWIZZLE_128B;
  default: return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

} // namespace

TensorMapEncoding tensorMapEncoding(const TensorMapDesc &map,
                                    const BufferDesc &buffer) {
  TensorMapEncoding e{};
  e.dataType = dataTypeOf(buffer.dtype);
  e.rank = static_cast<cuuint32_t>(buffer.shape.size());
  e.swizzle = swizzleOf(map.swizzle);
  size_t element = dtypeSize(buffer.dtype);
  for (cuuint32_t i = 0; i < e.rank; ++i) {
    size_t d = e.rank - 1 - i; // the manifest's dim of CUDA's dim i
    e.globalDim[i] = static_cast<cuuint64_t>(buffer.shape[d]);
    e.boxDim[i] = static_cast<cuuint32_t>(map.box[d]);
    e.elementStrides[i] = 1;
    if (i > 0)
      e.globalStrides[i - 1] =
          static_cast<cuuint64_t>(buffer.strides[d]) * element;
  }
  return e;
}

} // namespace tileopt
