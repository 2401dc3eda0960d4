//===- CostModel.h - Estimated run time of a µGraph on a GPU ----*- C++ -*-===//
//
// The superoptimizer ranks the verified candidates of a program by an
// analytic estimate of their run time on one GPU: per kernel launch, device
// memory traffic, the tiles its threads load into registers, flops at
// tensor-core or CUDA-core rate, shared-memory traffic, how the kernel's
// blocks spread over the SMs, and the latency of its loop's steps; equal
// times are ordered by the work they hide (ProgramCost::cheaperThan). The
// formulas and the reasons for them are in docs/superoptimizer.md, section
// "Cost model".
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_SUPEROPT_COSTMODEL_H
#define TILEOPT_SUPEROPT_COSTMODEL_H

#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace mlir::tileopt::superopt {

/// What the cost model needs to know about a GPU. `h200()` gives the numbers
/// of the machine TileOpt is benchmarked on, each with its source.
struct GpuTarget {
  std::string name;
  /// The SM the code generator compiles for (ptxas's -arch).
  std::string chip;
  unsigned numSMs;
  /// The most shared memory one block can have (the opt-in maximum).
  int64_t sharedMemoryPerBlock;
  int64_t sharedMemoryPerSM;
  unsigned maxThreadsPerSM;
  unsigned maxBlocksPerSM;
  /// 32-bit registers.
  int64_t registersPerSM;
  double dramBytesPerSecond;
  /// The most one SM can move to or from device memory: a kernel whose
  /// blocks sit on few SMs cannot use the whole device bandwidth.
  double dramBytesPerSecondPerSM;
  /// Tiles the threads load into registers (every tile but those the code
  /// generator stages through cp.async) stream into an SM far slower than its
  /// port: each 128-byte line the tile's rows touch costs
  /// `registerLoadLineSeconds`, each byte 1 /
  /// `registerLoadBytesPerSecondPerSM`, however many blocks the SM holds. A
  /// 64-byte row costs 61% of a 128-byte one: per byte, short rows load
  /// slower.
  double registerLoadBytesPerSecondPerSM;
  double registerLoadLineSeconds;
  /// Re-reads of a tensor that fits in L2 are served from it.
  int64_t l2CacheBytes;
  double l2BytesPerSecond;
  /// Flops (a multiply-add counts two) of the whole device.
  double tensorCoreFlopsPerSecond;
  double cudaCoreFlopsPerSecond;
  double sharedMemoryBytesPerSecondPerSM;
  /// The fixed cost of one kernel launch, paid even by an empty kernel.
  double launchSeconds;
  /// What one step of a block's for-loop adds that neither memory nor
  /// arithmetic throughput accounts for: the barriers, the shared-memory
  /// round trips and the chained mma of a step, which the blocks resident on
  /// an SM cannot hide from each other.
  double loopStepSeconds;
  /// Device-memory latency, paid by every step of a loop whose tiles in
  /// flight do not fit the register budget of the load pipelining (they
  /// are loaded when used).
  double dramLatencySeconds;
  /// One grid-wide barrier (a grid-wide rms_norm's exchange of row sums):
  /// every block's arrival and the wait for the last one.
  double gridBarrierSeconds;

  static GpuTarget h200();
  /// What the search prices code for `chip` (sm_80, sm_90, sm_90a) with:
  /// that chip's limits (shared memory, threads, blocks and registers an
  /// SM, CUDA-core lanes) at the rates of the H200, the one GPU TileOpt has
  /// measured; for sm_90, the H200's own chip, h200(). Nothing for a chip
  /// TileOpt has no facts for (target::whyNotAChip says why).
  static std::optional<GpuTarget> forChip(StringRef chip);

  /// The name, every number above and kCostModelRevision: a cached search
  /// answer is valid for the model that ranked it.
  std::string fingerprint() const;
};

/// Bumped whenever the cost model's formulas change, or the lowering's
/// conditions it mirrors (stagedIterators, mmaPaddedRows), so that the
/// search's cache (keyed by GpuTarget::fingerprint) does not answer with a
/// µGraph the model would no longer choose.
inline constexpr unsigned kCostModelRevision = 4;

/// The estimate for one kernel launch and what it is made of. Totals are over
/// all blocks of the kernel.
struct KernelCost {
  Operation *op = nullptr;
  double seconds = 0;
  /// Bytes to and from device memory, and re-reads served by L2.
  double dramBytes = 0;
  double l2Bytes = 0;
  /// Bytes, and the 128-byte lines they touch, of the tiles the threads load
  /// into registers (GpuTarget::registerLoadLineSeconds).
  double registerLoadBytes = 0;
  double registerLoadLines = 0;
  double tensorCoreFlops = 0;
  double cudaCoreFlops = 0;
  /// Per block, for the tiles live at once (estimateSharedMemory); 0 for
  /// the predefined kernels the lowering does not tile.
  int64_t sharedMemoryBytes = 0;
  /// Bytes moved through shared memory by all blocks.
  double sharedMemoryTraffic = 0;
  /// The predefined kernels the lowering does not tile are assumed to
  /// spread over every SM.
  int64_t blocks = 0;
  /// Occupancy: blocks one SM can hold at once.
  double blocksPerSM = 0;
  int64_t waves = 0;
  /// The for-loop's steps in sequence (GpuTarget::loopStepSeconds), summed
  /// over the rounds of blocks an SM runs; 0 without a loop.
  double loopSeconds = 0;
  /// Whether the tiles the loop walks are issued ahead of their use (they
  /// fit the pipelining's register budget, or the code generator stages
  /// them through shared memory).
  bool pipelined = true;
  /// Reductions over a dim (tk.reduce, tk.rms_norm, tb.reduce, tb.rms_norm).
  unsigned reductionPasses = 0;
  /// Grid-wide barriers (tb.rms_norm `across`), each
  /// GpuTarget::gridBarrierSeconds.
  unsigned gridBarriers = 0;
  /// The component that takes longest: "memory", "register loads",
  /// "tensor core", "CUDA core", "shared memory", or "launch" when the
  /// kernel does no work.
  std::string bound;
  /// The components' times added up rather than overlapped: between
  /// kernels of the same time, the one that does less work besides its
  /// bound.
  double serialSeconds = 0;

  /// One line: the time, the bound, then the totals above.
  void print(raw_ostream &os) const;
};

struct ProgramCost {
  double seconds = 0;
  /// Summed over the kernels (KernelCost::serialSeconds).
  double serialSeconds = 0;
  SmallVector<KernelCost> kernels;

  /// Orders by time, then by the work that the time hides: two candidates
  /// with one bound (the same loads, say) are told apart by the rest.
  bool cheaperThan(const ProgramCost &other) const {
    return std::tie(seconds, serialSeconds) <
           std::tie(other.seconds, other.serialSeconds);
  }

  /// One line per kernel, then the total.
  void print(raw_ostream &os) const;
};

/// The prices of predefined kernels, kept across calls of estimateCost: a
/// predefined kernel is priced by building its tiling, and a search prices
/// the same op (its name, types and attributes) in thousands of candidates.
/// Safe to share between threads.
class PredefinedCostMemo {
public:
  /// The price of an op keyed like `op`, computing it with `price` until it
  /// succeeds once (a failure is not kept: its diagnostic is due every
  /// time).
  FailureOr<KernelCost>
  lookupOrPrice(Operation *op,
                llvm::function_ref<FailureOr<KernelCost>()> price);

private:
  std::mutex mutex;
  /// Operation name, operand and result types, attribute dictionary: all
  /// uniqued in the context, so their addresses are the key.
  std::map<std::vector<const void *>, KernelCost> prices;
};

/// Estimates the run time of `program`, a function of tk ops, on `target`:
/// the sum of its kernels' times. A reshape that is a view and a transpose
/// read through (tk::isFreeLayoutChange) are free and launch nothing.
/// Fails with a diagnostic at the op (never crashes) on ops it cannot model,
/// and on a tk.fused whose tiles do not fit the target's shared memory. A
/// predefined kernel whose tiling cannot be built or priced is priced as
/// spread evenly over the SMs, silently. With `memo`, predefined kernels
/// priced before (for the same target) are not priced again.
FailureOr<ProgramCost> estimateCost(func::FuncOp program,
                                    const GpuTarget &target,
                                    PredefinedCostMemo *memo = nullptr);

/// The shared memory one block of `kernel` needs, in bytes: the tiles live at
/// once in program order, input iterators double-buffered when the for-loop
/// gives them a new tile every iteration, a matmul's left operand with its
/// rows padded as the lowering pads them (mmaPaddedRows). The cost model
/// prices occupancy with it and fails a kernel over the target's limit.
int64_t estimateSharedMemory(tk::FusedOp kernel);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_SUPEROPT_COSTMODEL_H
