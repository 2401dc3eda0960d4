// The arguments of cuTensorMapEncodeTiled for a manifest's tensor maps. No
// GPU needed.
#include "TensorMap.h"

#include <gtest/gtest.h>

using namespace tileopt;

namespace {

BufferDesc buffer(tileopt_dtype dtype, std::vector<int64_t> shape,
                  std::vector<int64_t> strides) {
  return {"a", TILEOPT_INPUT, dtype, std::move(shape), std::move(strides), 0};
}

TEST(TensorMap, ReversesDimsAndCountsStridesInBytes) {
  // A 4096 x 2048 bf16 operand in boxes of 128 rows by one
  // 128-byte swizzled line.
  TensorMapEncoding e = tensorMapEncoding({0, {128, 64}, 128},
                                          buffer(TILEOPT_BF16, {4096, 2048}, {2048, 1}));
  EXPECT_EQ(e.dataType, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(e.rank, 2u);
  EXPECT_EQ(e.globalDim[0], 2048u); // innermost first
  EXPECT_EQ(e.globalDim[1], 4096u);
  EXPECT_EQ(e.globalStrides[0], 2048u * 2u);
  EXPECT_EQ(e.boxDim[0], 64u);
  EXPECT_EQ(e.boxDim[1], 128u);
  EXPECT_EQ(e.elementStrides[0], 1u);
  EXPECT_EQ(e.elementStrides[1], 1u);
  EXPECT_EQ(e.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
}

TEST(TensorMap, ThreeDimsAndOtherTypes) {
  TensorMapEncoding e = tensorMapEncoding(
      {0, {1, 16, 8}, 0}, buffer(TILEOPT_F32, {3, 40, 24}, {1000, 25, 1}));
  EXPECT_EQ(e.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(e.rank, 3u);
  EXPECT_EQ(e.globalDim[0], 24u);
  EXPECT_EQ(e.globalDim[2], 3u);
  EXPECT_EQ(e.globalStrides[0], 25u * 4u);
  EXPECT_EQ(e.globalStrides[1], 1000u * 4u);
  EXPECT_EQ(e.boxDim[0], 8u);
  EXPECT_EQ(e.boxDim[2], 1u);
  EXPECT_EQ(e.swizzle, CU_TENSOR_MAP_SWIZZLE_NONE);
  EXPECT_EQ(tensorMapEncoding({0, {64, 64}, 64}, buffer(TILEOPT_F16, {64, 64}, {64, 1})).swizzle,
            CU_TENSOR_MAP_SWIZZLE_64B);
  EXPECT_EQ(tensorMapEncoding({0, {64, 64}, 64}, buffer(TILEOPT_F16, {64, 64}, {64, 1})).dataType,
            CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
}

} // namespace
