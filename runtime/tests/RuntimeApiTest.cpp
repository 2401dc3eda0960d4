// The C ABI's error paths that need no GPU: loading an artifact reports
// unreadable, invalid and incomplete artifacts, and the lack of a GPU, as
// messages.
#include "tileopt/runtime.h"

#include "ArtifactDir.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using tileopt::testing::ArtifactDir;

const char *kManifest = R"({
  "format": "tileopt-artifact", "version": 1,
  "source_hash": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  "target": {"arch": "sm_90"},
  "buffers": [{"name": "y", "role": "output", "dtype": "f32", "shape": [4], "strides": [1]}],
  "kernels": [{"name": "fill", "cubin": "fill.cubin", "symbol": "fill", "block": [4, 1, 1],
               "shared_memory": {"static": 0, "dynamic": 0}, "params": ["ptr"]}],
  "launches": [{"kernel": 0, "grid": [1, 1, 1], "args": [{"buffer": 0}]}]
})";

tileopt_status load(const std::string &dir) {
  tileopt_artifact *artifact = nullptr;
  tileopt_status status = tileopt_artifact_load(dir.c_str(), &artifact);
  tileopt_artifact_destroy(artifact);
  return status;
}

TEST(RuntimeApi, MissingManifestIsAnIoError) {
  ArtifactDir dir;
  EXPECT_EQ(load(dir.path), TILEOPT_ERROR_IO);
  EXPECT_EQ(std::string(tileopt_last_error()),
            "cannot read \"" + dir.path +
                "/manifest.json\": No such file or directory");
}

TEST(RuntimeApi, InvalidManifestNamesFileAndField) {
  ArtifactDir dir;
  std::string text = kManifest;
  text.replace(text.find("\"f32\""), 5, "\"f33\"");
  dir.write("manifest.json", text);
  EXPECT_EQ(load(dir.path), TILEOPT_ERROR_MANIFEST);
  EXPECT_EQ(std::string(tileopt_last_error()),
            dir.path +
                "/manifest.json: buffers[0].dtype: unknown dtype \"f33\" "
                "(expected one of f16, bf16, f32, f64, i8, i32, i64)");
}

TEST(RuntimeApi, MissingCubinIsReportedBeforeTheDriver) {
  ArtifactDir dir;
  dir.write("manifest.json", kManifest);
  EXPECT_EQ(load(dir.path), TILEOPT_ERROR_IO);
  EXPECT_EQ(std::string(tileopt_last_error()),
            dir.path + "/manifest.json: kernels[0].cubin: cannot read \"" +
                dir.path + "/fill.cubin\": No such file or directory");
}

// kManifest with a constant buffer w: 4 f32 at byte 16 of consts/w.bin.
std::string constantManifest() {
  std::string text = kManifest;
  std::string y = R"({"name": "y", "role": "output")";
  text.replace(
      text.find(y), 0,
      R"({"name": "w", "role": "constant", "dtype": "f32", "shape": [4], )"
      R"("strides": [1], "data": {"file": "consts/w.bin", "offset": 16, "bytes": 16}}, )");
  text.replace(text.find(R"({"buffer": 0})"), 13, R"({"buffer": 1})");
  return text;
}

TEST(RuntimeApi, MissingConstantFileIsReportedBeforeTheDriver) {
  ArtifactDir dir;
  dir.write("manifest.json", constantManifest());
  dir.write("fill.cubin", "not a cubin");
  EXPECT_EQ(load(dir.path), TILEOPT_ERROR_IO);
  EXPECT_EQ(std::string(tileopt_last_error()),
            dir.path + "/manifest.json: buffers[0].data.file: cannot read \"" +
                dir.path + "/consts/w.bin\": No such file or directory");
}

TEST(RuntimeApi, ShortConstantFileNamesFileAndBuffer) {
  ArtifactDir dir;
  dir.write("manifest.json", constantManifest());
  dir.write("fill.cubin", "not a cubin");
  ASSERT_EQ(std::system(("mkdir '" + dir.path + "/consts'").c_str()), 0);
  dir.write("consts/w.bin", std::string(31, 'w')); // needs bytes 16 to 32
  EXPECT_EQ(load(dir.path), TILEOPT_ERROR_IO);
  EXPECT_EQ(
      std::string(tileopt_last_error()),
      dir.path + "/manifest.json: buffers[0].data: \"" + dir.path +
          "/consts/w.bin\" holds 31 bytes, too few for constant buffer \"w\" "
          "(bytes 16 to 32)");
  // Long enough: the load gets past the files, to the driver or the cubin.
  dir.write("consts/w.bin", std::string(32, 'w'));
  tileopt_status status = load(dir.path);
  EXPECT_NE(status, TILEOPT_ERROR_IO) << tileopt_last_error();
  EXPECT_NE(status, TILEOPT_OK);
}

TEST(RuntimeApi, NoGpuIsSaidPlainly) {
  ArtifactDir dir;
  dir.write("manifest.json", kManifest);
  dir.write("fill.cubin", "not a cubin");
  tileopt_status status = load(dir.path);
  if (status != TILEOPT_ERROR_NO_DEVICE)
    GTEST_SKIP() << "a CUDA driver and GPU are present";
  EXPECT_EQ(std::string(tileopt_last_error())
                .rfind("no CUDA driver or GPU found (", 0),
            0u)
      << tileopt_last_error();
}

TEST(RuntimeApi, NullArgumentsAreErrors) {
  tileopt_artifact *artifact;
  EXPECT_EQ(tileopt_artifact_load(nullptr, &artifact),
            TILEOPT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tileopt_artifact_launch(nullptr, nullptr, 0, nullptr),
            TILEOPT_ERROR_INVALID_ARGUMENT);
  tileopt_buffer_info info;
  EXPECT_EQ(tileopt_artifact_buffer(nullptr, 0, &info),
            TILEOPT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tileopt_artifact_num_buffers(nullptr), 0);
}

TEST(RuntimeApi, DtypeNamesAndSizes) {
  EXPECT_STREQ(tileopt_dtype_name(TILEOPT_BF16), "bf16");
  EXPECT_EQ(tileopt_dtype_size(TILEOPT_BF16), 2u);
  EXPECT_STREQ(tileopt_dtype_name(TILEOPT_I64), "i64");
  EXPECT_EQ(tileopt_dtype_size(TILEOPT_F64), 8u);
}

} // namespace
