// The launch path of TMA tensor maps, the shared-memory opt-in, the
// residency check of grid_sync kernels and constant buffers, over the
// stand-in libcuda.so.1 of fake-driver/FakeCuda.cpp (its "device memory" is
// host memory, its tensor_map_probe kernel writes out the map it gets and
// its constant_probe kernel the buffer): run with that driver first on
// LD_LIBRARY_PATH (runtime/tests/CMakeLists.txt).
#include "tileopt/runtime.h"

#include "ArtifactDir.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
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

// The fake driver's counters (FakeCuda.cpp): the library the runtime
// opens, as LD_LIBRARY_PATH finds it.
struct FakeDriverCounters {
  FakeDriverCounters() {
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
    if (cuda) {
      liveAllocations = reinterpret_cast<long (*)()>(
          dlsym(cuda, "fake_cuda_live_allocations"));
      copies = reinterpret_cast<long (*)()>(
          dlsym(cuda, "fake_cuda_host_to_device_copies"));
    }
  }
  long (*liveAllocations)() = nullptr;
  long (*copies)() = nullptr;
};

TEST_F(TensorMapLaunch, UploadsTheMapsOfACapturedLaunchOutsideTheCapture) {
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
  ASSERT_NE(cuda, nullptr);
  auto capture =
      reinterpret_cast<void (*)(void *)>(dlsym(cuda, "fake_cuda_capture"));
  auto copiesIntoCapture = reinterpret_cast<long (*)()>(
      dlsym(cuda, "fake_cuda_copies_into_capture"));
  ASSERT_TRUE(capture && copiesIntoCapture);
  int streamObject = 0;
  void *stream = &streamObject;
  uint64_t buffers[] = {reinterpret_cast<uint64_t>(a),
                        reinterpret_cast<uint64_t>(out)};
  capture(stream);
  tileopt_status status = tileopt_artifact_launch(artifact, buffers, 2, stream);
  capture(nullptr);
  ASSERT_EQ(status, TILEOPT_OK) << tileopt_last_error();
  EXPECT_EQ(copiesIntoCapture(), 0) << "the maps' copy went into the graph";
  EXPECT_EQ(out[1], reinterpret_cast<uint64_t>(a));
}

// Two constants in one file, with bytes of other things around them: w
// (i32 [2, 3], 24 bytes at 16) and m (f16 [4], 8 bytes at 48); an input
// between them. constant_probe copies each into an output, after its
// address.
const char *kConstantManifest = R"({
  "format": "tileopt-artifact", "version": 1,
  "source_hash": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  "target": {"arch": "sm_90a"},
  "buffers": [
    {"name": "out_w", "role": "output", "dtype": "i8", "shape": [32], "strides": [1]},
    {"name": "w", "role": "constant", "dtype": "i32", "shape": [2, 3], "strides": [3, 1],
     "data": {"file": "constants.bin", "offset": 16, "bytes": 24}},
    {"name": "x", "role": "input", "dtype": "f32", "shape": [4], "strides": [1]},
    {"name": "m", "role": "constant", "dtype": "f16", "shape": [4], "strides": [1],
     "data": {"file": "constants.bin", "offset": 48, "bytes": 8}},
    {"name": "out_m", "role": "output", "dtype": "i8", "shape": [16], "strides": [1]}],
  "kernels": [{"name": "probe", "cubin": "probe.cubin", "symbol": "constant_probe",
               "block": [1, 1, 1], "shared_memory": {"static": 0, "dynamic": 0},
               "params": ["ptr", "ptr", "i64"]}],
  "launches": [
    {"kernel": 0, "grid": [1, 1, 1], "args": [{"buffer": 0}, {"buffer": 1}, {"i64": 24}]},
    {"kernel": 0, "grid": [1, 1, 1], "args": [{"buffer": 4}, {"buffer": 3}, {"i64": 8}]}]
})";

class ConstantLaunch : public ::testing::Test {
protected:
  void SetUp() override {
    int32_t w[6] = {1, -2, 3, 0x7fffffff, -5, 6};
    uint16_t m[4] = {0x3c00, 0xbc00, 0x7bff, 0x0001}; // f16 1, -1, 65504, 2^-24
    std::memcpy(wBytes, w, sizeof w);
    std::memcpy(mBytes, m, sizeof m);
    std::string file(16, 'J');
    file += std::string(wBytes, sizeof wBytes) + std::string(8, 'K') +
            std::string(mBytes, sizeof mBytes) + std::string(5, 'L');
    dir.write("constants.bin", file);
    ASSERT_TRUE(counters.liveAllocations && counters.copies)
        << "not the fake driver: " << dlerror();
    liveBefore = counters.liveAllocations();
    copiesBefore = counters.copies();
    ASSERT_EQ(loadArtifact(dir, kConstantManifest, &artifact), TILEOPT_OK)
        << tileopt_last_error();
  }
  void TearDown() override { tileopt_artifact_destroy(artifact); }

  // Launches with `w` and `m` in the constants' slots.
  tileopt_status launch(uint64_t w = 0, uint64_t m = 0) {
    uint64_t buffers[] = {reinterpret_cast<uint64_t>(outW), w,
                          reinterpret_cast<uint64_t>(x), m,
                          reinterpret_cast<uint64_t>(outM)};
    return tileopt_artifact_launch(artifact, buffers, 5, nullptr);
  }
  // The address a probe output says its constant had.
  static uint64_t addressIn(const char *out) {
    uint64_t address;
    std::memcpy(&address, out, sizeof address);
    return address;
  }

  ArtifactDir dir;
  FakeDriverCounters counters;
  long liveBefore = 0, copiesBefore = 0;
  tileopt_artifact *artifact = nullptr;
  char wBytes[24], mBytes[8];
  alignas(16) char outW[32] = {}, outM[16] = {};
  alignas(16) float x[4] = {};
};

TEST_F(ConstantLaunch, ListsConstantsWithTheirRole) {
  ASSERT_EQ(tileopt_artifact_num_buffers(artifact), 5);
  tileopt_buffer_info info;
  ASSERT_EQ(tileopt_artifact_buffer(artifact, 1, &info), TILEOPT_OK);
  EXPECT_STREQ(info.name, "w");
  EXPECT_EQ(info.role, TILEOPT_CONSTANT);
  EXPECT_EQ(info.size_bytes, 24u);
  ASSERT_EQ(tileopt_artifact_buffer(artifact, 3, &info), TILEOPT_OK);
  EXPECT_EQ(info.role, TILEOPT_CONSTANT);
  EXPECT_EQ(info.dtype, TILEOPT_F16);
}

TEST_F(ConstantLaunch, KernelsSeeTheUploadedBytes) {
  ASSERT_EQ(launch(), TILEOPT_OK) << tileopt_last_error();
  EXPECT_EQ(std::memcmp(outW + 8, wBytes, sizeof wBytes), 0);
  EXPECT_EQ(std::memcmp(outM + 8, mBytes, sizeof mBytes), 0);
  EXPECT_NE(addressIn(outW), 0u);
  EXPECT_NE(addressIn(outW), addressIn(outM));
  EXPECT_EQ(addressIn(outW) % 16, 0u);
}

TEST_F(ConstantLaunch, UploadsOnceAtLoadAndFreesAtDestroy) {
  // One allocation and one copy per constant, made by the load.
  EXPECT_EQ(counters.liveAllocations() - liveBefore, 2);
  EXPECT_EQ(counters.copies() - copiesBefore, 2);
  ASSERT_EQ(launch(), TILEOPT_OK) << tileopt_last_error();
  uint64_t w = addressIn(outW);
  std::memset(outW, 0, sizeof outW);
  ASSERT_EQ(launch(), TILEOPT_OK) << tileopt_last_error();
  EXPECT_EQ(addressIn(outW), w);
  EXPECT_EQ(std::memcmp(outW + 8, wBytes, sizeof wBytes), 0);
  EXPECT_EQ(counters.liveAllocations() - liveBefore, 2);
  EXPECT_EQ(counters.copies() - copiesBefore, 2);
  tileopt_artifact_destroy(artifact);
  artifact = nullptr;
  EXPECT_EQ(counters.liveAllocations(), liveBefore);
}

TEST_F(ConstantLaunch, TheCallerPassesZeroForConstants) {
  alignas(16) int32_t mine[6] = {};
  EXPECT_EQ(launch(reinterpret_cast<uint64_t>(mine)),
            TILEOPT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tileopt_last_error()),
            "tileopt_artifact_launch: buffer 1 \"w\" is a constant, which the "
            "artifact "
            "holds: pass 0 for it");
  uint64_t buffers[] = {reinterpret_cast<uint64_t>(outW), 0, 0, 0,
                        reinterpret_cast<uint64_t>(outM)};
  EXPECT_EQ(tileopt_artifact_launch(artifact, buffers, 5, nullptr),
            TILEOPT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tileopt_last_error()),
            "tileopt_artifact_launch: buffer 2 \"x\" is a null pointer");
  // Constants keep their slots: the count is of all buffers.
  EXPECT_EQ(tileopt_artifact_launch(artifact, buffers, 3, nullptr),
            TILEOPT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tileopt_last_error()),
            "tileopt_artifact_launch: got 3 buffers, the artifact has 5");
}

// A tensor map of a constant buffer is a map of the artifact's copy.
TEST(ConstantTensorMap, MapsTheArtifactsCopy) {
  ArtifactDir dir;
  std::string bytes(16 * 16 * 2, '\0');
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<char>(i * 7);
  dir.write("c.bin", bytes);
  std::string manifest = kManifest;
  manifest.replace(
      manifest.find(
          R"("role": "input", "dtype": "bf16", "shape": [64, 64], "strides": [64, 1]})"),
      std::strlen(
          R"("role": "input", "dtype": "bf16", "shape": [64, 64], "strides": [64, 1]})"),
      R"("role": "constant", "dtype": "bf16", "shape": [16, 16], "strides": [16, 1], )"
      R"("data": {"file": "c.bin", "offset": 0, "bytes": 512}})");
  manifest.replace(manifest.find("[64, 64], \"swizzle\": 128"), 24,
                   "[16, 8], \"swizzle\": 0");
  tileopt_artifact *artifact = nullptr;
  ASSERT_EQ(loadArtifact(dir, manifest, &artifact), TILEOPT_OK)
      << tileopt_last_error();
  alignas(16) uint64_t out[2] = {0, 0};
  uint64_t buffers[] = {0, reinterpret_cast<uint64_t>(out)};
  ASSERT_EQ(tileopt_artifact_launch(artifact, buffers, 2, nullptr), TILEOPT_OK)
      << tileopt_last_error();
  ASSERT_NE(out[1], 0u);
  EXPECT_EQ(std::memcmp(reinterpret_cast<const void *>(out[1]), bytes.data(),
                        bytes.size()),
            0);
  tileopt_artifact_destroy(artifact);
}

} // namespace
