// The launch path of TMA tensor maps, the shared-memory opt-in and the
// residency check of grid_sync kernels, over the stand-in libcuda.so.1 of
// fake-driver/FakeCuda.cpp (its "device memory" is host memory, and its
// tensor_map_probe kernel writes out the map it gets): run with that driver
// first on LD_LIBRARY_PATH (runtime/tests/CMakeLists.txt).
#include "tileopt/runtime.h"

#include "ArtifactDir.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

using tileopt::testing::ArtifactDir;

// Writes `manifest` and a stand-in cubin (the ELF magic: the fake driver
// loads anything) into `dir`, and loads the artifact.
tileopt_status loadArtifact(ArtifactDir &dir, const std::string &manifest,
                            tileopt_artifact **artifact) {
  dir.write("manifest.json", manifest);
  dir.write("probe.cubin", "\177ELF");
  return tileopt_artifact_load(dir.path.c_str(), artifact);
}

// Buffer a (bf16, 64 x 64) as a tensor map, and u64 output words.
const char *kManifest = R"({
  "format": "tileopt-artifact", "version": 1,
  "source_hash": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  "target": {"arch": "sm_90a"},
  "buffers": [
    {"name": "a", "role": "input", "dtype": "bf16", "shape": [64, 64], "strides": [64, 1]},
    {"name": "out", "role": "output", "dtype": "i64", "shape": [2], "strides": [1]}],
  "kernels": [{"name": "probe", "cubin": "probe.cubin", "symbol": "tensor_map_probe",
               "block": [128, 1, 1], "shared_memory": {"static": 0, "dynamic": 0},
               "params": ["ptr", "ptr"]}],
  "launches": [{"kernel": 0, "grid": [1, 1, 1], "args": [
    {"buffer": 1}, {"tensor_map": {"buffer": 0, "box": [64, 64], "swizzle": 128}}]}]
})";

class TensorMapLaunch : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(loadArtifact(dir, kManifest, &artifact), TILEOPT_OK)
        << tileopt_last_error();
  }
  void TearDown() override { tileopt_artifact_destroy(artifact); }

  // Launches with buffer a at `a`; out[0] is then the map's address and
  // out[1] the buffer address in the map.
  tileopt_status launch(const void *a) {
    uint64_t buffers[] = {reinterpret_cast<uint64_t>(a),
                          reinterpret_cast<uint64_t>(out)};
    return tileopt_artifact_launch(artifact, buffers, 2, nullptr);
  }

  ArtifactDir dir;
  tileopt_artifact *artifact = nullptr;
  uint64_t out[2] = {0, 0};
  alignas(64) uint16_t a[64 * 64] = {};
  alignas(64) uint16_t other[64 * 64] = {};
};

TEST_F(TensorMapLaunch, BindsAMapOfTheCallersBuffer) {
  ASSERT_EQ(launch(a), TILEOPT_OK) << tileopt_last_error();
  EXPECT_EQ(out[1], reinterpret_cast<uint64_t>(a));
  EXPECT_NE(out[0], 0u);
  EXPECT_EQ(out[0] % 64, 0u) << "a CUtensorMap is 64-byte aligned";
}

TEST_F(TensorMapLaunch, KeepsTheMapsOfEachSetOfAddresses) {
  ASSERT_EQ(launch(a), TILEOPT_OK) << tileopt_last_error();
  uint64_t mapOfA = out[0];
  ASSERT_EQ(launch(other), TILEOPT_OK) << tileopt_last_error();
  EXPECT_EQ(out[1], reinterpret_cast<uint64_t>(other));
  EXPECT_NE(out[0], mapOfA);
  ASSERT_EQ(launch(a), TILEOPT_OK) << tileopt_last_error();
  EXPECT_EQ(out[0], mapOfA);
  EXPECT_EQ(out[1], reinterpret_cast<uint64_t>(a));
}

TEST_F(TensorMapLaunch, RefusesAMisalignedBuffer) {
  EXPECT_EQ(launch(a + 1), TILEOPT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tileopt_last_error())
                .find("tensor map 0 of buffer \"a\": the buffer's address"),
            std::string::npos)
      << tileopt_last_error();
  EXPECT_NE(std::string(tileopt_last_error()).find("is not 16-byte aligned"),
            std::string::npos);
}

// An artifact of one u64 output and one kernel `kernel` (its JSON members
// but the name, cubin and params), launched once on `grid` blocks.
std::string oneKernelManifest(const std::string &kernel, int grid) {
  return R"({
  "format": "tileopt-artifact", "version": 1,
  "source_hash": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  "target": {"arch": "sm_90a"},
  "buffers": [
    {"name": "out", "role": "output", "dtype": "i64", "shape": [1], "strides": [1]}],
  "kernels": [{"name": "probe", "cubin": "probe.cubin", "params": ["ptr"], )" +
         kernel + R"(}],
  "launches": [{"kernel": 0, "grid": [)" +
         std::to_string(grid) + R"(, 1, 1], "args": [{"buffer": 0}]}]
})";
}

// Launches `artifact` (a oneKernelManifest one, its kernel
// static_shared_probe) and expects it to have written 1 to its output.
void expectProbeWritesOne(tileopt_artifact *artifact) {
  alignas(16) uint64_t out = 0;
  uint64_t buffers[] = {reinterpret_cast<uint64_t>(&out)};
  EXPECT_EQ(tileopt_artifact_launch(artifact, buffers, 1, nullptr), TILEOPT_OK)
      << tileopt_last_error();
  EXPECT_EQ(out, 1u);
}

// A kernel with 32 KiB of static shared memory and 20 KiB of dynamic: over
// 48 KiB together, so it launches only once opted in to its dynamic bytes.
const std::string kStaticSharedManifest = oneKernelManifest(
    R"("symbol": "static_shared_probe", "block": [128, 1, 1],
       "shared_memory": {"static": 32768, "dynamic": 20480})",
    1);

TEST(SharedMemoryLaunch, OptsInWhenStaticAndDynamicExceed48KiB) {
  ArtifactDir dir;
  tileopt_artifact *artifact = nullptr;
  ASSERT_EQ(loadArtifact(dir, kStaticSharedManifest, &artifact), TILEOPT_OK)
      << tileopt_last_error();
  expectProbeWritesOne(artifact);
  tileopt_artifact_destroy(artifact);
}

// A kernel whose blocks wait for each other (grid_sync): the fake device
// holds 2 blocks on each of its 4 SMs, so 8 blocks load and 9 are refused.
std::string gridSyncManifest(int blocks) {
  return oneKernelManifest(
      R"("symbol": "static_shared_probe", "block": [128, 1, 1],
         "shared_memory": {"static": 0, "dynamic": 0}, "grid_sync": true)",
      blocks);
}

TEST(GridSyncLaunch, LoadsAndLaunchesWhenAllBlocksFitTheDevice) {
  ArtifactDir dir;
  tileopt_artifact *artifact = nullptr;
  ASSERT_EQ(loadArtifact(dir, gridSyncManifest(8), &artifact), TILEOPT_OK)
      << tileopt_last_error();
  expectProbeWritesOne(artifact);
  tileopt_artifact_destroy(artifact);
}

TEST(GridSyncLaunch, RefusesMoreBlocksThanTheDeviceHoldsAtOnce) {
  ArtifactDir dir;
  tileopt_artifact *artifact = nullptr;
  EXPECT_EQ(loadArtifact(dir, gridSyncManifest(9), &artifact),
            TILEOPT_ERROR_UNSUPPORTED_DEVICE);
  EXPECT_NE(
      std::string(tileopt_last_error())
          .find("its 9 blocks wait for each other (grid_sync) but device 0 "
                "holds at most 8 of them at once (2 per SM on 4 SMs)"),
      std::string::npos)
      << tileopt_last_error();
}

} // namespace
