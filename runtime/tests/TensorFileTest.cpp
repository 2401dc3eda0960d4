// Tensor files (the interpreter reference of tileopt-run): parsing, its
// errors, and pairing the tensors with an artifact's buffers.
#include "TensorFile.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

using namespace tileopt::run;

namespace {

// The raw bytes of `values` as `T`, in the host's (little-endian) order.
template <typename T> std::string bytesOf(std::initializer_list<T> values) {
  std::string bytes(values.size() * sizeof(T), '\0');
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

const std::string kMagic = "tileopt-tensors 1\n";

TEST(TensorFile, ParsesEveryTensorWithItsDtype) {
  std::string file = kMagic + "tensor x bf16 2 2\n" +
                     bytesOf<uint16_t>({0x3f80, 0xbf80, 0x3f00, 0x4040}) +
                     "tensor y f32 3\n" +
                     bytesOf<float>({0.25f, -8.0f, 1e-3f}) + "tensor s f64\n" +
                     bytesOf<double>({0.1});
  std::vector<NamedTensor> tensors;
  std::string error;
  ASSERT_TRUE(parseTensorFile(file, tensors, error)) << error;
  ASSERT_EQ(tensors.size(), 3u);
  EXPECT_EQ(tensors[0].name, "x");
  EXPECT_EQ(tensors[0].dtype, TILEOPT_BF16);
  EXPECT_EQ(tensors[0].tensor.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(tensors[0].tensor.values,
            (std::vector<double>{1.0, -1.0, 0.5, 3.0}));
  EXPECT_EQ(tensors[1].dtype, TILEOPT_F32);
  EXPECT_EQ(tensors[1].tensor.values,
            (std::vector<double>{0.25, -8.0, double(1e-3f)}));
  EXPECT_TRUE(tensors[2].tensor.shape.empty()); // a scalar: rank 0, one element
  EXPECT_EQ(tensors[2].tensor.values, (std::vector<double>{0.1}));
  // Data may hold '\n' bytes (0x0a) and spaces: only headers are lines.
  std::string tricky =
      kMagic + "tensor z bf16 2\n" + bytesOf<uint16_t>({0x0a20, 0x200a});
  ASSERT_TRUE(parseTensorFile(tricky, tensors, error)) << error;
  EXPECT_EQ(tensors[0].tensor.values.size(), 2u);
}

std::string parseError(const std::string &file) {
  std::vector<NamedTensor> tensors;
  std::string error;
  EXPECT_FALSE(parseTensorFile(file, tensors, error));
  return error;
}

TEST(TensorFile, RejectsMalformedFiles) {
  EXPECT_EQ(parseError("tileopt-tensors 2\n"),
            "not a tensor file: the first line must be \"tileopt-tensors 1\"");
  EXPECT_EQ(parseError(""),
            "not a tensor file: the first line must be \"tileopt-tensors 1\"");
  EXPECT_EQ(parseError(kMagic + "tensor x bf16 2"),
            "tensor #0: the header has no end of line");
  EXPECT_EQ(parseError(kMagic + "matrix x bf16 2\n"),
            "tensor #0: expected \"tensor <name> <dtype> <dims...>\", got "
            "\"matrix x bf16 2\"");
  EXPECT_EQ(parseError(kMagic + "tensor x bf17 2\n"),
            "tensor #0 (x): unknown dtype \"bf17\"");
  EXPECT_EQ(parseError(kMagic + "tensor x f32 2x2\n"),
            "tensor #0 (x): bad dim \"2x2\" (dims are integers >= 1)");
  EXPECT_EQ(parseError(kMagic + "tensor x f32 0\n"),
            "tensor #0 (x): bad dim \"0\" (dims are integers >= 1)");
  EXPECT_EQ(parseError(kMagic + "tensor x f32 3\n" + bytesOf<float>({1, 2})),
            "tensor #0 (x): [3] of f32 needs more data than the 8 bytes left");
  // A product of dims far beyond the file is missing data, not an overflow.
  EXPECT_EQ(parseError(kMagic +
                       "tensor x f64 999999999999999999 999999999999999999\n"),
            "tensor #0 (x): [999999999999999999, 999999999999999999] of f64 "
            "needs more "
            "data than the 0 bytes left");
  EXPECT_EQ(parseError(kMagic + "tensor x f32 1\n" + bytesOf<float>({1}) +
                       "tensor x f32 1\n" + bytesOf<float>({1})),
            "tensor #1 (x): a second tensor of that name");
  // Extra bytes after a tensor are read as the next header.
  EXPECT_EQ(parseError(kMagic + "tensor x f32 1\n" + bytesOf<float>({1, 2})),
            "tensor #1: the header has no end of line");
}

TEST(TensorFile, ReadsFilesAndNamesThemInErrors) {
  std::string error;
  std::vector<NamedTensor> tensors;
  EXPECT_FALSE(readTensorFile("/nonexistent/inputs.tensors", tensors, error));
  EXPECT_EQ(
      error,
      "/nonexistent/inputs.tensors: cannot open (No such file or directory)");
  std::string path = testing::TempDir() + "tensor-file-test.tensors";
  std::ofstream(path, std::ios::binary) << kMagic << "tensor x f32 1\n"
                                        << bytesOf<float>({7});
  ASSERT_TRUE(readTensorFile(path, tensors, error)) << error;
  EXPECT_EQ(tensors[0].tensor.values, std::vector<double>{7});
  std::ofstream(path, std::ios::binary) << "garbage\n";
  EXPECT_FALSE(readTensorFile(path, tensors, error));
  EXPECT_EQ(
      error,
      path +
          ": not a tensor file: the first line must be \"tileopt-tensors 1\"");
}

tileopt_buffer_info buffer(const char *name, tileopt_role role,
                           tileopt_dtype dtype, std::vector<int64_t> shape) {
  tileopt_buffer_info info = {};
  info.name = name;
  info.role = role;
  info.dtype = dtype;
  info.rank = static_cast<int32_t>(shape.size());
  for (size_t d = 0; d < shape.size(); ++d)
    info.shape[d] = shape[d];
  return info;
}

NamedTensor named(std::string name, tileopt_dtype dtype,
                  std::vector<int64_t> shape) {
  Tensor t{shape, std::vector<double>(numElements(shape), 1.0)};
  return NamedTensor{std::move(name), dtype, std::move(t)};
}

TEST(TensorFile, MatchesBuffersByNameInManifestOrder) {
  std::vector<tileopt_buffer_info> buffers = {
      buffer("a", TILEOPT_INPUT, TILEOPT_BF16, {2, 3}),
      buffer("c", TILEOPT_OUTPUT, TILEOPT_BF16, {2, 2}),
      buffer("b", TILEOPT_INPUT, TILEOPT_BF16, {3, 2}),
      buffer("tmp", TILEOPT_SCRATCH, TILEOPT_F32, {4})};
  std::vector<NamedTensor> tensors = {named("b", TILEOPT_BF16, {3, 2}),
                                      named("a", TILEOPT_BF16, {2, 3})};
  std::vector<Tensor> matched;
  std::string error;
  ASSERT_TRUE(
      matchBuffers(buffers, TILEOPT_INPUT, true, tensors, matched, error))
      << error;
  ASSERT_EQ(matched.size(), 2u);
  EXPECT_EQ(matched[0].shape, (std::vector<int64_t>{2, 3})); // a, then b
  EXPECT_EQ(matched[1].shape, (std::vector<int64_t>{3, 2}));

  // Expected values may be stored wider than the output.
  tensors = {named("c", TILEOPT_F32, {2, 2})};
  EXPECT_TRUE(
      matchBuffers(buffers, TILEOPT_OUTPUT, false, tensors, matched, error))
      << error;
  tensors = {named("c", TILEOPT_F32, {2, 2})};
  EXPECT_FALSE(
      matchBuffers(buffers, TILEOPT_OUTPUT, true, tensors, matched, error));
  EXPECT_EQ(error, "tensor \"c\" is f32, output \"c\" is bf16");
}

// Constant buffers are the artifact's: tensor files give neither their
// values nor tensors for them.
TEST(TensorFile, LeavesConstantBuffersOut) {
  std::vector<tileopt_buffer_info> buffers = {
      buffer("x", TILEOPT_INPUT, TILEOPT_F32, {4}),
      buffer("w", TILEOPT_CONSTANT, TILEOPT_F32, {4}),
      buffer("y", TILEOPT_OUTPUT, TILEOPT_F32, {4})};
  std::vector<NamedTensor> tensors = {named("x", TILEOPT_F32, {4})};
  std::vector<Tensor> matched;
  std::string error;
  ASSERT_TRUE(
      matchBuffers(buffers, TILEOPT_INPUT, true, tensors, matched, error))
      << error;
  EXPECT_EQ(matched.size(), 1u);
  tensors = {named("x", TILEOPT_F32, {4}), named("w", TILEOPT_F32, {4})};
  EXPECT_FALSE(
      matchBuffers(buffers, TILEOPT_INPUT, true, tensors, matched, error));
  EXPECT_EQ(error,
            "tensor \"w\" names no input buffer (\"w\" is a constant buffer: "
            "the artifact holds its values)");
}

TEST(TensorFile, ReportsTensorsThatDoNotFitTheBuffers) {
  std::vector<tileopt_buffer_info> buffers = {
      buffer("x", TILEOPT_INPUT, TILEOPT_BF16, {4, 8}),
      buffer("y", TILEOPT_OUTPUT, TILEOPT_BF16, {4, 8})};
  std::vector<Tensor> matched;
  std::string error;
  auto match = [&](std::vector<NamedTensor> tensors, tileopt_role role) {
    return matchBuffers(buffers, role, role == TILEOPT_INPUT, tensors, matched,
                        error);
  };
  EXPECT_FALSE(match({}, TILEOPT_INPUT));
  EXPECT_EQ(error, "no tensor for input \"x\"");
  EXPECT_FALSE(match({named("x", TILEOPT_BF16, {8, 4})}, TILEOPT_INPUT));
  EXPECT_EQ(error, "tensor \"x\" is [8, 4], input \"x\" is [4, 8]");
  EXPECT_FALSE(match({named("x", TILEOPT_F32, {4, 8})}, TILEOPT_INPUT));
  EXPECT_EQ(error, "tensor \"x\" is f32, input \"x\" is bf16");
  EXPECT_FALSE(
      match({named("x", TILEOPT_BF16, {4, 8}), named("z", TILEOPT_BF16, {1})},
            TILEOPT_INPUT));
  EXPECT_EQ(error, "tensor \"z\" names no input buffer");
  // An output's values are not an input's.
  EXPECT_FALSE(match({named("y", TILEOPT_BF16, {4, 8})}, TILEOPT_INPUT));
  EXPECT_EQ(error, "tensor \"y\" names no input buffer");
}

} // namespace
