// tileopt-run's host side: f16/bf16 rounding, strided gathers, and the CPU
// references the GPU results are checked against.
#include "HostBuffer.h"
#include "References.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tileopt::run;

namespace {

TEST(HostBuffer, HalfRoundsToNearestEven) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);  // largest finite
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);  // rounds to inf
  EXPECT_EQ(floatToHalf(0x1.0p-24f), 0x0001); // smallest subnormal
  EXPECT_EQ(floatToHalf(0x1.0p-26f), 0x0000); // below half of it
  EXPECT_EQ(floatToHalf(1.0f + 0x1.0p-11f), 0x3c00);       // tie, to even
  EXPECT_EQ(floatToHalf(1.0f + 3 * 0x1.0p-11f), 0x3c02);   // tie, to even
  EXPECT_EQ(floatToHalf(0x1.ffcp-15f), 0x0400);            // subnormal rounds up to normal
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
  for (uint32_t bits = 0; bits < 0x7c00; ++bits) // every finite half round-trips
    ASSERT_EQ(floatToHalf(halfToFloat(static_cast<uint16_t>(bits))), bits);
}

TEST(HostBuffer, BFloat16RoundsToNearestEven) {
  EXPECT_EQ(floatToBFloat16(1.0f), 0x3f80);
  EXPECT_EQ(floatToBFloat16(1.0f + 0x1.0p-8f), 0x3f80);     // tie, to even
  EXPECT_EQ(floatToBFloat16(1.0f + 3 * 0x1.0p-8f), 0x3f82); // tie, to even
  EXPECT_EQ(bfloat16ToFloat(0xbf80), -1.0f);
  EXPECT_TRUE(std::isnan(bfloat16ToFloat(0xffff))); // the 0xFF poison is NaN
  EXPECT_TRUE(std::isnan(halfToFloat(0xffff)));
}

TEST(HostBuffer, GatherFollowsStrides) {
  tileopt_buffer_info info = {};
  info.dtype = TILEOPT_F32;
  info.rank = 2;
  info.shape[0] = 2;
  info.shape[1] = 3;
  info.strides[0] = 1; // column-major
  info.strides[1] = 2;
  info.size_bytes = 6 * 4;
  std::vector<uint8_t> bytes(info.size_bytes);
  for (int i = 0; i < 6; ++i)
    storeElement(bytes.data(), info.dtype, i, i);
  Tensor t = gather(info, bytes);
  EXPECT_EQ(t.values, (std::vector<double>{0, 2, 4, 1, 3, 5}));
}

TEST(HostBuffer, ScatterIsGathersInverse) {
  tileopt_buffer_info info = {};
  info.dtype = TILEOPT_BF16;
  info.rank = 2;
  info.shape[0] = 2;
  info.shape[1] = 2;
  info.strides[0] = 3; // rows padded by one element
  info.strides[1] = 1;
  info.size_bytes = 5 * 2;
  std::vector<uint8_t> bytes(info.size_bytes, 0xFF);
  Tensor t{{2, 2}, {0.5, -1.0, 0.0078125, 3.0}}; // bf16 values: stored exactly
  scatter(info, t, bytes);
  EXPECT_EQ(gather(info, bytes).values, t.values);
  EXPECT_TRUE(std::isnan(loadElement(bytes.data(), info.dtype, 2))); // the gap is left
}

Tensor tensor(std::vector<int64_t> shape, std::vector<double> values) {
  return Tensor{std::move(shape), std::move(values)};
}

TEST(References, RowSoftmax) {
  std::vector<Tensor> out = {tensor({2, 2}, std::vector<double>(4))};
  std::string error;
  ASSERT_TRUE(findReference("row_softmax")
                  ->compute({tensor({2, 2}, {0, std::log(3.0), 5, 5})}, out, NAN, error));
  EXPECT_DOUBLE_EQ(out[0].values[0], 0.25);
  EXPECT_DOUBLE_EQ(out[0].values[1], 0.75);
  EXPECT_DOUBLE_EQ(out[0].values[2], 0.5);
}

TEST(References, RowRmsNorm) {
  std::vector<Tensor> out = {tensor({1, 2}, std::vector<double>(2))};
  std::string error;
  ASSERT_TRUE(findReference("row_rms_norm")->compute({tensor({1, 2}, {3, 4})}, out, 0.5, error));
  EXPECT_DOUBLE_EQ(out[0].values[0], 3 / std::sqrt(13.0)); // mean(9, 16) + 0.5
}

TEST(References, GemmAndItsShapeCheck) {
  std::vector<Tensor> out = {tensor({1, 2}, std::vector<double>(2))};
  std::string error;
  const Reference *gemm = findReference("gemm");
  ASSERT_TRUE(gemm->compute({tensor({1, 2}, {1, 2}), tensor({2, 2}, {3, 4, 5, 6})}, out, NAN, error));
  EXPECT_EQ(out[0].values, (std::vector<double>{13, 16}));
  EXPECT_FALSE(gemm->compute({tensor({1, 3}, {1, 2, 3}), tensor({2, 2}, {3, 4, 5, 6})}, out, NAN, error));
  EXPECT_EQ(error, "gemm needs A [M, K], B [K, N] and C [M, N], got A [1, 3], B [2, 2], C [1, 2]");
  EXPECT_EQ(findReference("nope"), nullptr);
}

} // namespace
