//===- Target.h - What TileOpt knows of NVIDIA chips and GPUs ---*- C++ -*-===//
//
// The facts the code generator and the cost model share, in one place: what
// each compute capability offers and limits (Chip: the PTX ISA and the CUDA
// C++ Programming Guide's tables), the instruction shapes the code
// generator builds on, and each GPU TileOpt ranks programs for (Gpu: its
// chip, SM count and the rates the cost model prices work with, measured on
// that GPU where it says so). A new GPU is a new Gpu here, and a new chip a
// new Chip.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_TARGET_TARGET_H
#define TILEOPT_TARGET_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::tileopt::target {

//===----------------------------------------------------------------------===//
// Chips
//===----------------------------------------------------------------------===//

/// One compute capability, as ptxas's -arch names it.
struct Chip {
  llvm::StringLiteral name = "";

  /// mma.sync m16n8k16 on f16/bf16 into f32, and ldmatrix (sm_80 on).
  bool mmaSync = false;
  /// cp.async from device to shared memory (sm_80 on).
  bool cpAsync = false;
  /// The tensor memory accelerator: cp.async.bulk.tensor and mbarrier
  /// transaction counts (sm_90 on).
  bool tma = false;
  /// wgmma.mma_async: an `a` feature of sm_90a, which code for other chips
  /// cannot use.
  bool wgmma = false;

  int64_t sharedMemoryPerSM = 0;
  /// Shared memory the system takes of each block's share.
  int64_t reservedSharedMemoryPerBlock = 0;
  /// Static shared memory a kernel may have without opting in to more
  /// (dynamic shared memory) with cudaFuncSetAttribute.
  int64_t staticSharedMemoryPerBlock = 0;
  int64_t sharedMemoryBanks = 0;
  int64_t sharedMemoryBankBytes = 0;

  int64_t maxThreadsPerBlock = 0;
  int64_t maxThreadsPerSM = 0;
  int64_t maxBlocksPerSM = 0;
  /// 32-bit registers.
  int64_t registersPerSM = 0;
  int64_t maxRegistersPerThread = 0;

  /// FP32 lanes of an SM, each a fused multiply-add a clock.
  int64_t fp32LanesPerSM = 0;
  /// What an SM's port to L2 moves a clock.
  int64_t l2BytesPerClockPerSM = 0;

  /// The most shared memory one block can have, opted in.
  constexpr int64_t sharedMemoryPerBlock() const {
    return sharedMemoryPerSM - reservedSharedMemoryPerBlock;
  }
  /// The bytes of a shared-memory line: one word of every bank, what one
  /// wavefront serves.
  constexpr int64_t sharedMemoryLineBytes() const {
    return sharedMemoryBanks * sharedMemoryBankBytes;
  }
};

/// The A100's chip (CUDA C++ Programming Guide, compute capability 8.0:
/// 164 KiB of shared memory an SM, 1 KiB of it reserved per block; 64
/// FP32 lanes an SM).
constexpr Chip makeSm80() {
  Chip chip;
  chip.name = "sm_80";
  chip.mmaSync = true;
  chip.cpAsync = true;
  chip.sharedMemoryPerSM = 164 * 1024;
  chip.reservedSharedMemoryPerBlock = 1024;
  chip.staticSharedMemoryPerBlock = 48 * 1024;
  chip.sharedMemoryBanks = 32;
  chip.sharedMemoryBankBytes = 4;
  chip.maxThreadsPerBlock = 1024;
  chip.maxThreadsPerSM = 2048;
  chip.maxBlocksPerSM = 32;
  chip.registersPerSM = 64 * 1024;
  chip.maxRegistersPerThread = 255;
  chip.fp32LanesPerSM = 64;
  // Published microbenchmarks of A100 and H100; not measured here.
  chip.l2BytesPerClockPerSM = 64;
  return chip;
}

/// Hopper (CUDA C++ Programming Guide, compute capability 9.0: TMA, 228 KiB
/// of shared memory an SM, so 227 KiB a block when opted in, 128 FP32 lanes
/// an SM; 2048 threads, 32 blocks and 64K registers an SM as sm_80).
constexpr Chip makeSm90() {
  Chip chip = makeSm80();
  chip.name = "sm_90";
  chip.tma = true;
  chip.sharedMemoryPerSM = 228 * 1024;
  chip.fp32LanesPerSM = 128;
  return chip;
}

/// Hopper with its architecture-specific features: wgmma.
constexpr Chip makeSm90a() {
  Chip chip = makeSm90();
  chip.name = "sm_90a";
  chip.wgmma = true;
  return chip;
}

inline constexpr Chip kSm80 = makeSm80();
inline constexpr Chip kSm90 = makeSm90();
inline constexpr Chip kSm90a = makeSm90a();

/// The chips TileOpt has facts for, oldest first.
llvm::ArrayRef<const Chip *> knownChips();

/// Why TileOpt cannot target `name`, for a diagnostic ("unknown chip ...:
/// TileOpt targets sm_80, ..."); empty when it can.
std::string whyNotAChip(llvm::StringRef name);

/// The chip `name` (sm_80, sm_90, sm_90a), or null if TileOpt does not know
/// it.
const Chip *lookupChip(llvm::StringRef name);

//===----------------------------------------------------------------------===//
// Instruction shapes
//===----------------------------------------------------------------------===//

/// mma.sync on f16/bf16 into f32, the shape the code generator emits:
/// m16n8k16. A warp's part of an accumulator is a multiple of m16n8 tiles,
/// a product's K a multiple of 16, and the cost model pads products to it.
inline constexpr int64_t kMmaSyncM = 16, kMmaSyncN = 8, kMmaSyncK = 16;

/// wgmma.mma_async on f16/bf16: m64nNk16, N a multiple of 8 up to 256.
inline constexpr int64_t kWgmmaMaxN = 256;

/// A TMA box has at most 256 elements along a dim, and a tensor map's
/// global strides are multiples of 16 bytes.
inline constexpr int64_t kTmaMaxBoxDim = 256;
inline constexpr int64_t kTmaStrideBytes = 16;

/// The most elements of a tile one thread holds: the code generator
/// refuses larger fragments, which would spill registers, and the
/// predefined kernels' tilings stay under it.
inline constexpr int64_t kMaxFragmentElements = 256;

//===----------------------------------------------------------------------===//
// GPUs
//===----------------------------------------------------------------------===//

/// A GPU TileOpt ranks programs for: its chip, its size and its rates.
struct Gpu {
  llvm::StringLiteral name = "";
  const Chip *chip = nullptr;
  unsigned numSMs = 0;
  /// The SM clock the per-clock widths of the chip become rates through.
  double clockHz = 0;
  double dramBytesPerSecond = 0;
  /// Tiles the threads load into registers stream into an SM far slower
  /// than its port: each 128-byte line the tile's rows touch costs
  /// `registerLoadLineSeconds`, each byte 1 /
  /// `registerLoadBytesPerSecondPerSM`, however many blocks the SM holds.
  double registerLoadBytesPerSecondPerSM = 0;
  double registerLoadLineSeconds = 0;
  int64_t l2CacheBytes = 0;
  double l2BytesPerSecond = 0;
  /// Dense f16/bf16 products as a real kernel reaches them.
  double tensorCoreFlopsPerSecond = 0;
  /// The fixed cost of one kernel launch.
  double launchSeconds = 0;
  /// What one step of a block's for-loop adds beyond its memory and
  /// arithmetic: barriers, shared-memory round trips, chained mma.
  double loopStepSeconds = 0;
  double dramLatencySeconds = 0;
  /// One grid-wide barrier: every block's arrival and the wait for the last.
  double gridBarrierSeconds = 0;

  /// The most one SM moves to or from device memory, through its port to
  /// L2: on the H200 about three times an SM's even share of device
  /// bandwidth, so a third of the SMs can saturate it.
  constexpr double dramBytesPerSecondPerSM() const {
    return chip->l2BytesPerClockPerSM * clockHz;
  }
  /// Flops (a multiply-add counts two) of the whole device on CUDA cores:
  /// the H200's 67 TFLOP/s are the datasheet's FP32 figure.
  constexpr double cudaCoreFlopsPerSecond() const {
    return numSMs * chip->fp32LanesPerSM * 2 * clockHz;
  }
  /// One shared-memory line a clock.
  constexpr double sharedMemoryBytesPerSecondPerSM() const {
    return chip->sharedMemoryLineBytes() * clockHz;
  }
};

/// The H200 SXM TileOpt is benchmarked on; each number says where it
/// comes from.
constexpr Gpu makeH200() {
  Gpu gpu;
  gpu.name = "H200";
  gpu.chip = &kSm90;
  gpu.numSMs = 132; // BENCHMARKS.md
  // Up to 1.98 GHz (NVIDIA's datasheet).
  gpu.clockHz = 1.98e9;
  // Device-to-device copy measured on this H200 (BENCHMARKS.md).
  gpu.dramBytesPerSecond = 4.26e12;
  // Fitted to rmsnorm_linear_b1's kernel on this H200 (docs/performance.md,
  // 2026-12-04): one SM loaded 512 KiB of 128-byte rows in 12.2 us beyond
  // launch and loop, 256 KiB of 64-byte rows in 7.5 us. Checked on five
  // more of its shapes (two blocks an SM among them) and four kernels.
  gpu.registerLoadBytesPerSecondPerSM = 55.6e9;
  gpu.registerLoadLineSeconds = 0.68e-9;
  // 50 MB of L2 as on the H100 SXM (same GH100 die); its bandwidth is an
  // assumption, about 2.5x device memory as microbenchmarks of H100 report.
  gpu.l2CacheBytes = 50 * 1000 * 1000;
  gpu.l2BytesPerSecond = 10e12;
  // bf16 8192^3 matmul through cuBLAS on this H200 (BENCHMARKS.md): what a
  // real kernel reaches, not the 989 TFLOP/s of the datasheet.
  gpu.tensorCoreFlopsPerSecond = 683e12;
  // Not measured in isolation: BENCHMARKS.md's lora at b=1 takes 5.9 us in a
  // CUDA graph for a few tiny kernels (floor 0.6 us), about 2 us each.
  gpu.launchSeconds = 2e-6;
  // Measured on this H200 (docs/performance.md, 2026-12-03): the same
  // rmsnorm_linear_b1 kernel walking K in 64 steps of 64 took 34.8 us, in 16
  // steps of 256 31.2 us: 0.075 us a step beyond the bytes.
  gpu.loopStepSeconds = 0.075e-6;
  // Published microbenchmarks of H100 HBM3 (same memory system): about
  // 0.6 us under load. Not measured here.
  gpu.dramLatencySeconds = 0.6e-6;
  // Measured on this H200 (docs/performance.md, 2026-12-04): ntrans at b=1
  // as one kernel with two grid-wide rms_norms took 17.7 us, its two-kernel
  // form with the same product loop 13.2: 2.2 us a barrier (a fence, the
  // arrival, the wait and the loads of the partials are each a round trip
  // to L2), more than the launch it saves.
  gpu.gridBarrierSeconds = 2.2e-6;
  return gpu;
}

inline constexpr Gpu kH200 = makeH200();

} // namespace mlir::tileopt::target

#endif // TILEOPT_TARGET_TARGET_H
