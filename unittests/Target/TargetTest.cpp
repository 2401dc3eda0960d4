//===- TargetTest.cpp - The chip and GPU facts, and fragment layouts ------===//
#include "TileOpt/Target/Target.h"
#include "TileOpt/Target/FragmentLayout.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileopt;

namespace {

TEST(TargetTest, ChipsHaveTheirFeatures) {
  const target::Chip *sm80 = target::lookupChip("sm_80");
  const target::Chip *sm90 = target::lookupChip("sm_90");
  const target::Chip *sm90a = target::lookupChip("sm_90a");
  ASSERT_TRUE(sm80 && sm90 && sm90a);
  for (const target::Chip *chip : {sm80, sm90, sm90a}) {
    EXPECT_TRUE(chip->mmaSync) << chip->name.str();
    EXPECT_TRUE(chip->cpAsync) << chip->name.str();
  }
  EXPECT_FALSE(sm80->tma);
  EXPECT_TRUE(sm90->tma);
  EXPECT_TRUE(sm90a->tma);
  // wgmma is an `a` feature: code for sm_90 cannot use it.
  EXPECT_FALSE(sm80->wgmma);
  EXPECT_FALSE(sm90->wgmma);
  EXPECT_TRUE(sm90a->wgmma);
  EXPECT_EQ(target::lookupChip("sm_89"), nullptr);
}

TEST(TargetTest, SharedMemoryLeavesTheReservedKilobyte) {
  EXPECT_EQ(target::kSm90.sharedMemoryPerSM, 228 * 1024);
  EXPECT_EQ(target::kSm90.sharedMemoryPerBlock(), 227 * 1024);
  EXPECT_EQ(target::kSm90a.sharedMemoryPerBlock(), 227 * 1024);
  EXPECT_EQ(target::kSm80.sharedMemoryPerBlock(), 163 * 1024);
  EXPECT_EQ(target::kSm90.staticSharedMemoryPerBlock, 48 * 1024);
  EXPECT_EQ(target::kSm90.sharedMemoryLineBytes(), 128);
}

TEST(TargetTest, H200) {
  const target::Gpu &h200 = target::kH200;
  EXPECT_EQ(h200.name, "H200");
  EXPECT_EQ(h200.chip, &target::kSm90);
  EXPECT_EQ(h200.numSMs, 132u);
  EXPECT_EQ(h200.chip->maxThreadsPerSM, 2048);
  EXPECT_EQ(h200.chip->registersPerSM, 64 * 1024);
  // 132 SMs of 128 FP32 lanes at 1.98 GHz: the datasheet's 67 TFLOP/s.
  EXPECT_NEAR(h200.cudaCoreFlopsPerSecond(), 66.9e12, 0.1e12);
  // 64 bytes a clock into each SM, 128 bytes of shared memory a clock.
  EXPECT_DOUBLE_EQ(h200.dramBytesPerSecondPerSM(), 64 * 1.98e9);
  EXPECT_DOUBLE_EQ(h200.sharedMemoryBytesPerSecondPerSM(), 128 * 1.98e9);
}

TEST(TargetTest, BlockedLayoutDealsChunksToThreads) {
  // 128 x 64 over 128 threads: 8192 elements, chunks of 8, 8 per thread.
  FragmentLayout tile = FragmentLayout::blocked({128, 64}, 128);
  EXPECT_FALSE(tile.replicated);
  EXPECT_EQ(tile.vectorWidth, 8);
  EXPECT_EQ(tile.chunksPerThread, 8);
  EXPECT_EQ(tile.fragmentSize(), 64);
  // Rows of 4: chunks of a row's width.
  EXPECT_EQ(FragmentLayout::blocked({256, 4}, 128).vectorWidth, 4);
  // Fewer elements than threads: every thread holds one, t mod 16.
  FragmentLayout small = FragmentLayout::blocked({16}, 128);
  EXPECT_TRUE(small.replicated);
  EXPECT_EQ(small.fragmentSize(), 1);
}

TEST(TargetTest, MmaWarpGridIsAsSquareAsTheRowsAllow) {
  EXPECT_EQ(FragmentLayout::mmaWarpGrid({64, 64}, 128),
            std::make_pair(int64_t{2}, int64_t{2}));
  // A decode step's 16 rows: one row of warps along N.
  EXPECT_EQ(FragmentLayout::mmaWarpGrid({16, 64}, 128),
            std::make_pair(int64_t{1}, int64_t{4}));
  EXPECT_EQ(FragmentLayout::mmaWarpGrid({128, 128}, 256),
            std::make_pair(int64_t{2}, int64_t{4}));
  FragmentLayout acc = FragmentLayout::mmaAccumulator({64, 64}, 128);
  // Four f32 of each m16n8 tile a thread: 64 x 64 / 128 threads.
  EXPECT_EQ(acc.fragmentSize(), 32);
  EXPECT_EQ(acc.vectorWidth, 2);
}

} // namespace
