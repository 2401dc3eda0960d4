//===- CostModel.cpp - Estimated run time of a µGraph on a GPU ------------===//
//
// Every kernel is priced from totals over its blocks (device bytes, flops per
// unit, shared-memory bytes) and from how its blocks spread over the SMs; the
// kernel takes a launch plus its longest component, since memory and compute
// of resident blocks overlap, plus its loop's latency, which they do not
// hide. Predefined kernels are priced by the tiling the lowering gives them.
// docs/superoptimizer.md ("Cost model") gives the formulas and the reasons
// for them.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Superopt/CostModel.h"

#include "TileOpt/Conversion/TKToTile/TKToTile.h"
#include "TileOpt/Dialect/Common/ThreadDiagnostics.h"
#include "TileOpt/Target/FragmentLayout.h"
#include "TileOpt/Target/Target.h"
#include "TileOpt/Transforms/Passes.h"

#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

/// What the cost model knows of `gpu`: the Target library's facts.
static GpuTarget describe(const target::Gpu &gpu) {
  const target::Chip &chip = *gpu.chip;
  GpuTarget target;
  target.name = gpu.name.str();
  target.chip = chip.name.str();
  target.numSMs = gpu.numSMs;
  target.sharedMemoryPerBlock = chip.sharedMemoryPerBlock();
  target.sharedMemoryPerSM = chip.sharedMemoryPerSM;
  target.maxThreadsPerSM = chip.maxThreadsPerSM;
  target.maxBlocksPerSM = chip.maxBlocksPerSM;
  target.registersPerSM = chip.registersPerSM;
  target.dramBytesPerSecond = gpu.dramBytesPerSecond;
  target.dramBytesPerSecondPerSM = gpu.dramBytesPerSecondPerSM();
  target.registerLoadBytesPerSecondPerSM = gpu.registerLoadBytesPerSecondPerSM;
  target.registerLoadLineSeconds = gpu.registerLoadLineSeconds;
  target.l2CacheBytes = gpu.l2CacheBytes;
  target.l2BytesPerSecond = gpu.l2BytesPerSecond;
  target.tensorCoreFlopsPerSecond = gpu.tensorCoreFlopsPerSecond;
  target.cudaCoreFlopsPerSecond = gpu.cudaCoreFlopsPerSecond();
  target.sharedMemoryBytesPerSecondPerSM =
      gpu.sharedMemoryBytesPerSecondPerSM();
  target.launchSeconds = gpu.launchSeconds;
  target.loopStepSeconds = gpu.loopStepSeconds;
  // Paid once per round of blocks (the first step's tiles), and every step
  // by a loop that is not pipelined.
  target.dramLatencySeconds = gpu.dramLatencySeconds;
  target.gridBarrierSeconds = gpu.gridBarrierSeconds;
  return target;
}

GpuTarget GpuTarget::h200() { return describe(target::kH200); }

std::optional<GpuTarget> GpuTarget::forChip(StringRef chip) {
  const target::Chip *facts = target::lookupChip(chip);
  if (!facts)
    return std::nullopt;
  target::Gpu gpu = target::kH200;
  gpu.chip = facts;
  return describe(gpu);
}

std::string GpuTarget::fingerprint() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << name << " " << chip << " revision " << kCostModelRevision;
  for (double number :
       {double(numSMs), double(sharedMemoryPerBlock), double(sharedMemoryPerSM),
        double(maxThreadsPerSM), double(maxBlocksPerSM), double(registersPerSM),
        dramBytesPerSecond, dramBytesPerSecondPerSM,
        registerLoadBytesPerSecondPerSM, registerLoadLineSeconds,
        double(l2CacheBytes), l2BytesPerSecond, tensorCoreFlopsPerSecond,
        cudaCoreFlopsPerSecond, sharedMemoryBytesPerSecondPerSM, launchSeconds,
        loopStepSeconds, dramLatencySeconds, gridBarrierSeconds})
    os << " " << llvm::format("%.17g", number);
  return text;
}

namespace {

/// Bytes of a statically shaped tensor or tile; sub-byte elements take a
/// byte each.
int64_t bytesOf(Type type) {
  auto shaped = cast<ShapedType>(type);
  return shaped.getNumElements() *
         llvm::divideCeil(shaped.getElementType().getIntOrFloatBitWidth(), 8);
}

int64_t elementsOf(Value value) {
  return cast<ShapedType>(value.getType()).getNumElements();
}

double product(ArrayRef<int64_t> dims) {
  double result = 1;
  for (int64_t dim : dims)
    result *= dim;
  return result;
}

/// Whether `iterator` reads a new tile every for-loop iteration (its fmap
/// names a tensor dim) rather than the same tile (fmap -1).
bool walksForloop(tb::InputIteratorOp iterator) {
  return iterator.getFmapAttr().getInt() >= 0;
}

/// The rows of `tile`, a matrix or a batch of them, as the lowering holds
/// it: the multiplicand rows of a product are padded as mmaPaddedRows says,
/// the most any product needs.
int64_t paddedRowsOf(Value tile) {
  auto type = cast<ShapedType>(tile.getType());
  int64_t rows = type.getDimSize(type.getRank() - 2), paddedRows = rows;
  for (OpOperand &use : tile.getUses())
    if (auto matmul = dyn_cast<tb::MatmulOp>(use.getOwner());
        matmul && use.getOperandNumber() == 0)
      paddedRows = std::max(
          paddedRows,
          mmaPaddedRows(rows, matmul.getResult().getType().getShape().back()));
  return paddedRows;
}

/// Bytes of `tile` as the lowering holds it (paddedRowsOf).
int64_t paddedBytes(Value tile) {
  auto type = cast<ShapedType>(tile.getType());
  if (type.getRank() < 2)
    return bytesOf(type);
  return bytesOf(type) / type.getDimSize(type.getRank() - 2) *
         paddedRowsOf(tile);
}

/// Whether `matmul` is the first product in its block on its left operand:
/// the one that stores it (MmaLowering; the next one finds it there,
/// tile.lhs_staged).
bool firstProductOnLhs(tb::MatmulOp matmul) {
  return llvm::none_of(matmul.getLhs().getUsers(), [&](Operation *user) {
    auto other = dyn_cast<tb::MatmulOp>(user);
    return other && other != matmul && other.getLhs() == matmul.getLhs() &&
           other->isBeforeInBlock(matmul);
  });
}

/// Shared-memory bytes one execution of `matmul` moves as the tile code
/// generator runs it on mma.sync. An operand that is already in shared
/// memory (an iterator's tile lands there; an elementwise op writes its
/// result) was counted by its producer; one held in registers, another
/// product's result or an accumulator, is stored by the mma. The first
/// product on a left operand also stores its padding rows (paddedBytes).
/// Each warp then reads with ldmatrix the rows of the left and the columns
/// of the right that its part of the result needs
/// (FragmentLayout::mmaWarpGrid): the left operand once per column of
/// warps, the right once per row. A decode step's 8 rows times 16 columns,
/// padded to 32 rows on 2x2 warps, move twice what 8 rows times 32
/// columns, padded to 16 rows on 1x4 warps, move per result column: on the
/// H200 gated_mlp took 33.7 us in 32-column blocks padded to 32 rows and
/// 23.7 us padded to 16 (docs/performance.md).
double matmulSharedMemoryTraffic(tb::MatmulOp matmul, int64_t threads) {
  auto lhs = cast<ShapedType>(matmul.getLhs().getType());
  int64_t lhsBytes = paddedBytes(matmul.getLhs());
  int64_t columns = matmul.getResult().getType().getShape().back();
  auto [warpsM, warpsN] = FragmentLayout::mmaWarpGrid(
      {paddedRowsOf(matmul.getLhs()), columns}, threads);
  double rhsBytes = bytesOf(matmul.getRhs().getType());
  auto inRegisters = [](Value operand) {
    return isa_and_nonnull<tb::MatmulOp, tb::ForloopAccumOp>(
        operand.getDefiningOp());
  };
  double stores = 0;
  if (firstProductOnLhs(matmul))
    stores += inRegisters(matmul.getLhs()) ? lhsBytes : lhsBytes - bytesOf(lhs);
  if (inRegisters(matmul.getRhs()))
    stores += rhsBytes;
  return stores + double(lhsBytes) * warpsN + rhsBytes * warpsM;
}

/// Every value of `op` must have a size in bytes for the model to price it.
LogicalResult checkSizedValues(Operation *op) {
  auto sized = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.hasStaticShape() &&
           shaped.getElementType().isIntOrFloat();
  };
  if (llvm::all_of(op->getOperandTypes(), sized) &&
      llvm::all_of(op->getResultTypes(), sized))
    return success();
  return op->emitOpError("has a value the cost model cannot size: it prices "
                         "statically shaped tensors and tiles of integers or "
                         "floats");
}

/// The arithmetic of one execution of an op.
struct Arithmetic {
  double tensorCoreFlops = 0;
  double cudaCoreFlops = 0;
  unsigned reductionPasses = 0;
};

Arithmetic onCudaCores(double flops, unsigned reductionPasses = 0) {
  return {0, flops, reductionPasses};
}

/// A (batched) product runs on tensor cores when its elements are f16 or
/// bf16 and that is faster than CUDA cores: mma.sync m16n8k16 pads M to 16,
/// N to 8 and K to 16, so a thin product (a GEMV) can waste more tensor-core
/// flops than their higher rate wins back. The padded flops are the ones
/// counted, since the tensor cores execute them.
Arithmetic matmulArithmetic(ShapedType lhs, ShapedType rhs, ShapedType result,
                            const GpuTarget &target) {
  ArrayRef<int64_t> lhsShape = lhs.getShape();
  // The result's batch dims: an operand may broadcast over them.
  double batch = product(result.getShape().drop_back(2));
  int64_t m = lhsShape[lhsShape.size() - 2], k = lhsShape.back(),
          n = rhs.getShape().back();
  double flops = 2 * batch * m * n * k;
  Type element = lhs.getElementType();
  if (element.isF16() || element.isBF16()) {
    double padded = 2 * batch * llvm::alignTo(m, target::kMmaSyncM) *
                    llvm::alignTo(n, target::kMmaSyncN) *
                    llvm::alignTo(k, target::kMmaSyncK);
    if (padded / target.tensorCoreFlopsPerSecond <
        flops / target.cudaCoreFlopsPerSecond)
      return {padded, 0, 0};
  }
  return onCudaCores(flops);
}

/// The arithmetic of the compute ops of both levels: tk ops on device tensors
/// and tb/th ops on tiles apply the same operators, so one rule serves both.
/// An elementwise operator counts one flop per element, scalar code (tk.map,
/// th.graph) one per op of it; reductions one per input element; rms_norm
/// three (square, sum, scale); a tk.structured one per payload op and
/// iteration of its loop nest. std::nullopt for ops
/// that are not compute ops of the µGraph dialects.
std::optional<Arithmetic> arithmeticOf(Operation *op, const GpuTarget &target) {
  using Result = std::optional<Arithmetic>;
  return llvm::TypeSwitch<Operation *, Result>(op)
      .Case<tk::MatmulOp, tb::MatmulOp>([&](auto matmul) -> Result {
        return matmulArithmetic(cast<ShapedType>(matmul.getLhs().getType()),
                                cast<ShapedType>(matmul.getRhs().getType()),
                                cast<ShapedType>(matmul.getResult().getType()),
                                target);
      })
      .Case<tk::UnaryOp, tb::UnaryOp, tk::BinaryOp, tb::BinaryOp>(
          [](auto elementwise) -> Result {
            return onCudaCores(elementsOf(elementwise.getResult()));
          })
      .Case<tk::ReduceOp, tb::ReduceOp>([](auto reduce) -> Result {
        return onCudaCores(elementsOf(reduce.getInput()), 1);
      })
      .Case<tk::RmsNormOp, tb::RmsNormOp>([](auto norm) -> Result {
        return onCudaCores(3 * elementsOf(norm.getInput()), 1);
      })
      .Case<tk::MapOp, th::GraphOp>([](Operation *scalarCode) -> Result {
        // Operands broadcast to the results' shape; every scalar op of the
        // region but its constants runs once per element of it.
        if (scalarCode->getNumResults() == 0)
          return Arithmetic();
        double scalarOps = llvm::count_if(
            scalarCode->getRegion(0).front().without_terminator(),
            [](Operation &op) {
              return !op.hasTrait<OpTrait::ConstantLike>();
            });
        return onCudaCores(scalarOps * elementsOf(scalarCode->getResult(0)));
      })
      .Case([](tk::StructuredOp structured) -> Result {
        // The loop nest runs every payload op but its constants once per
        // iteration.
        linalg::GenericOp generic = structured.getGeneric();
        double iterations = 1;
        for (int64_t range : generic.getStaticLoopRanges())
          iterations *= range;
        double payloadOps =
            llvm::count_if(generic.getRegion().front().without_terminator(),
                           [](Operation &op) {
                             return !op.hasTrait<OpTrait::ConstantLike>();
                           });
        return onCudaCores(payloadOps * iterations);
      })
      .Case<tk::ConcatOp, tk::SplitOp, tb::ConcatOp>(
          [](auto) -> Result { return Arithmetic(); })
      // Layout changes are copy kernels (a reshape too: the lowering binds
      // one buffer per tensor).
      .Default([](Operation *op) -> Result {
        if (op->hasTrait<tk::LayoutChange>())
          return Arithmetic();
        return std::nullopt;
      });
}

/// Flops per element and iteration of folding a tile into an accumulator.
double accumulateFlops(tb::AccumKind kind) {
  switch (kind) {
  case tb::AccumKind::none:
    return 0;
  case tb::AccumKind::sum:
  case tb::AccumKind::mean:
  case tb::AccumKind::max:
    return 1;
  case tb::AccumKind::rms:
    return 2; // square, add
  case tb::AccumKind::sum_rescale:
    return 4; // new maximum, exp of the difference, rescale, add
  }
  llvm_unreachable("unknown accumulator kind");
}

/// Sets the time and bound of `cost` from its totals. `busiestShare` is the
/// fraction of the kernel's blocks that the busiest SM runs: an SM's tensor
/// cores, CUDA cores, shared memory and port to L2 are its own, so that SM's
/// share of the work sets their time. Device memory and L2 are shared by all
/// SMs and limit the kernel as a whole; every byte passes through L2, only
/// the misses reach device memory.
void setTime(KernelCost &cost, double busiestShare, const GpuTarget &target) {
  double smShare = busiestShare * target.numSMs;
  double viaL2 = cost.dramBytes + cost.l2Bytes;
  double memory =
      std::max({cost.dramBytes / target.dramBytesPerSecond,
                viaL2 / target.l2BytesPerSecond,
                viaL2 * busiestShare / target.dramBytesPerSecondPerSM});
  double registerLoads =
      busiestShare *
      (cost.registerLoadBytes / target.registerLoadBytesPerSecondPerSM +
       cost.registerLoadLines * target.registerLoadLineSeconds);
  std::pair<double, StringRef> components[] = {
      {memory, "memory"},
      {registerLoads, "register loads"},
      {cost.tensorCoreFlops * smShare / target.tensorCoreFlopsPerSecond,
       "tensor core"},
      {cost.cudaCoreFlops * smShare / target.cudaCoreFlopsPerSecond,
       "CUDA core"},
      {cost.sharedMemoryTraffic * busiestShare /
           target.sharedMemoryBytesPerSecondPerSM,
       "shared memory"}};
  auto *longest = llvm::max_element(
      components, [](auto &a, auto &b) { return a.first < b.first; });
  cost.serialSeconds = 0;
  for (auto &component : components)
    cost.serialSeconds += component.first;
  cost.bound = longest->first > 0 ? longest->second.str() : "launch";
  cost.seconds = target.launchSeconds + longest->first + cost.loopSeconds +
                 cost.gridBarriers * target.gridBarrierSeconds;
}

/// A kernel that reads each input once and writes each output once, spread
/// evenly over every SM: the predefined kernels the lowering does not tile
/// (concat, split, the layout changes' copy kernels).
FailureOr<KernelCost> evenlySpreadCost(Operation *op, const GpuTarget &target) {
  std::optional<Arithmetic> arithmetic = arithmeticOf(op, target);
  if (!arithmetic)
    return op->emitOpError("is not modelled by the cost model");
  KernelCost cost;
  cost.op = op;
  for (Type type : op->getOperandTypes())
    cost.dramBytes += bytesOf(type);
  for (Type type : op->getResultTypes())
    cost.dramBytes += bytesOf(type);
  cost.tensorCoreFlops = arithmetic->tensorCoreFlops;
  cost.cudaCoreFlops = arithmetic->cudaCoreFlops;
  cost.reductionPasses = arithmetic->reductionPasses;
  cost.blocks = target.numSMs;
  cost.blocksPerSM = 1;
  cost.waves = 1;
  setTime(cost, 1.0 / target.numSMs, target);
  return cost;
}

/// Registers a thread needs besides its accumulators: addresses, indices,
/// the loop state and operand fragments (an assumption).
constexpr int64_t kBaseRegistersPerThread = 32;

/// The walked iterators whose tiles the code generator stages through a
/// shared-memory ring (cp.async, or TMA), or none. The tile code generator
/// stages a loop in which every tile.mma multiplies two tiles loaded in the
/// loop for mmas alone into an accumulator of its own, and nothing but loads
/// and pure ops sit beside them (mmaStagingObstacle): in a block graph,
/// every product the loop computes multiplies two walked tiles that feed
/// products alone and is fused into a sum or mean accumulator
/// (isFusedIntoAccumulator), and no tile is saved in the loop (a `none`
/// accumulator). Those products' operands are staged, and each must give
/// every thread whole 16-byte chunks (decideMmaPipeline), in the blocked layout
/// of the tile as the lowering pads it, and two stages of them fit in
/// `sharedMemoryPerBlock`. The loop's other tiles are loaded by the threads
/// into registers (docs/lowering.md), and are not prefetched
/// (loopLoadsPipelined). Not mirrored: each 16-byte chunk must lie wholly
/// inside or outside the tensor, and the ring's own padding rows
/// (tileopt-assign-layouts' `swizzle-staging=false`).
llvm::SmallPtrSet<Operation *, 4>
stagedIterators(tb::BlockGraphOpInterface graph, int64_t threads,
                int64_t sharedMemoryPerBlock) {
  llvm::SmallPtrSet<Operation *, 4> staged;
  if (graph.getForloopRange() <= 1)
    return staged;
  auto walked = [](Value operand) {
    auto iterator = operand.getDefiningOp<tb::InputIteratorOp>();
    return iterator && walksForloop(iterator) ? iterator : nullptr;
  };
  auto wholeChunks = [&](tb::InputIteratorOp iterator) {
    auto type = cast<ShapedType>(iterator.getType());
    SmallVector<int64_t> shape(type.getShape());
    if (shape.size() >= 2)
      shape[shape.size() - 2] = paddedRowsOf(iterator.getResult());
    FragmentLayout chunks = FragmentLayout::blocked(shape, threads);
    return !chunks.replicated &&
           chunks.vectorWidth * type.getElementTypeBitWidth() == 128;
  };
  // The tiles that change every step: what the loop computes.
  llvm::DenseSet<Value> perIteration;
  for (Operation &op : graph.getBlockGraph().without_terminator()) {
    if (auto iterator = dyn_cast<tb::InputIteratorOp>(op)) {
      if (walksForloop(iterator))
        perIteration.insert(iterator.getResult());
      continue;
    }
    if (llvm::none_of(op.getOperands(),
                      [&](Value v) { return perIteration.contains(v); }))
      continue;
    if (isa<tb::OutputSaverOp>(op))
      return {};
    auto accum = dyn_cast<tb::ForloopAccumOp>(op);
    if (!accum || accum.getKind() == tb::AccumKind::none)
      perIteration.insert(op.result_begin(), op.result_end());
    auto matmul = dyn_cast<tb::MatmulOp>(op);
    if (!matmul)
      continue;
    tb::InputIteratorOp lhs = walked(matmul.getLhs()),
                        rhs = walked(matmul.getRhs());
    auto feedsMatmulsAlone = [](tb::InputIteratorOp iterator) {
      return llvm::all_of(iterator->getUsers(), [](Operation *user) {
        return isa<tb::MatmulOp>(user);
      });
    };
    if (!lhs || !rhs || !isFusedIntoAccumulator(matmul) ||
        !feedsMatmulsAlone(lhs) || !feedsMatmulsAlone(rhs) ||
        !wholeChunks(lhs) || !wholeChunks(rhs))
      return {};
    staged.insert(lhs);
    staged.insert(rhs);
  }
  int64_t stageBytes = 0;
  for (Operation *iterator : staged)
    stageBytes += paddedBytes(iterator->getResult(0));
  if (2 * stageBytes > sharedMemoryPerBlock)
    return {};
  return staged;
}

/// Whether the code generator issues the tiles `graph`'s loop walks ahead of
/// their use: through the shared-memory ring (`staged`, stagedIterators),
/// or carried in registers at least one step ahead when they fit the budget
/// (docs/lowering.md), padded as the lowering pads them.
bool loopLoadsPipelined(tb::BlockGraphOpInterface graph,
                        const llvm::SmallPtrSetImpl<Operation *> &staged,
                        int64_t threads) {
  // A staged loop's other tiles are loaded when used.
  if (!staged.empty())
    return llvm::all_of(graph.getBlockGraph().getOps<tb::InputIteratorOp>(),
                        [&](tb::InputIteratorOp iterator) {
                          return !walksForloop(iterator) ||
                                 staged.contains(iterator);
                        });
  int64_t bytes = 0;
  for (tb::InputIteratorOp iterator :
       graph.getBlockGraph().getOps<tb::InputIteratorOp>())
    if (walksForloop(iterator))
      bytes += paddedBytes(iterator.getResult());
  // The registers a thread may give the tiles in flight: the default
  // `register-budget` of tileopt-pipeline-tile-loads (tileopt-compile's
  // --register-budget), which the search assumes.
  return llvm::divideCeil(bytes, 4 * threads) <=
         PipelineTileLoadsOptions().registerBudget;
}

/// The 128-byte lines one load of `iterator`'s tile touches. Each run of
/// elements contiguous in memory (a tile row, or several rows where the
/// tile spans the tensor's trailing dims) is taken to start a line of its
/// own: tiles start at multiples of their size, and rows of the tensors
/// priced are multiples of 128 bytes. A tensor that a transpose the lowering
/// reads through (transposeReadThrough) produces is laid out as its source:
/// the tile's dims are counted in the source's order.
int64_t linesOf(tb::InputIteratorOp iterator) {
  SmallVector<int64_t> tile(iterator.getType().getShape());
  SmallVector<int64_t> tensor(iterator.getInput().getType().getShape());
  int64_t elements = iterator.getType().getNumElements();
  if (tile.empty() || elements == 0)
    return 0;
  auto fused = dyn_cast<tk::FusedOp>(iterator->getParentOp());
  auto argument = dyn_cast<BlockArgument>(iterator.getInput());
  if (fused && argument)
    if (tk::TransposeOp transpose =
            transposeReadThrough(fused.getInputs()[argument.getArgNumber()])) {
      // Dim i of the transposed tensor is dim permutation[i] of the source.
      SmallVector<int64_t> toSource =
          invertPermutationVector(transpose.getPermutation());
      tile = applyPermutation(tile, toSource);
      tensor = applyPermutation(tensor, toSource);
    }
  int64_t run = tile.back();
  for (size_t dim = tile.size() - 1; dim > 0 && tile[dim] == tensor[dim]; --dim)
    run *= tile[dim - 1];
  int64_t elementBytes =
      llvm::divideCeil(iterator.getType().getElementTypeBitWidth(), 8);
  return elements / run * llvm::divideCeil(run * elementBytes, 128);
}

FailureOr<KernelCost> fusedCost(tk::FusedOp kernel, const GpuTarget &target) {
  auto graph = cast<tb::BlockGraphOpInterface>(kernel.getOperation());
  ArrayRef<int64_t> grid = graph.getGridDims();
  int64_t blocks = product(grid);
  int64_t threads = product(graph.getBlockDims());
  int64_t iterations = graph.getForloopRange();

  KernelCost cost;
  cost.op = kernel;
  cost.blocks = blocks;
  llvm::SmallPtrSet<Operation *, 4> staged =
      stagedIterators(graph, threads, target.sharedMemoryPerBlock);
  // Per block, except device bytes, which are totals.
  double tensorCoreFlops = 0, cudaCoreFlops = 0, sharedMemoryTraffic = 0;
  int64_t accumulatorElements = 0;
  // Bytes of the tiles the loop walks, per block and step.
  double walkedBytesPerStep = 0;
  // Values that change every for-loop iteration: an op on one of them runs
  // once per iteration; an op after a reducing accumulator, or on tiles the
  // loop does not walk alone, once per block.
  llvm::DenseSet<Value> perIteration;
  auto variesPerIteration = [&](Operation *op) {
    return llvm::any_of(op->getOperands(),
                        [&](Value v) { return perIteration.contains(v); });
  };
  auto executions = [&](Operation *op) -> int64_t {
    return variesPerIteration(op) ? iterations : 1;
  };

  for (Operation &op : graph.getBlockGraph().without_terminator()) {
    if (failed(checkSizedValues(&op)))
      return failure();
    LogicalResult modelled =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](tb::InputIteratorOp iterator) {
              // A tile the loop does not walk over (fmap -1) is loaded once
              // and kept in shared memory.
              int64_t loads = walksForloop(iterator) ? iterations : 1;
              double perBlock = bytesOf(iterator.getType()) * loads;
              double readingBlocks = 1;
              for (auto [gridDim, tensorDim] :
                   llvm::zip(grid, iterator.getImap()))
                if (tensorDim >= 0)
                  readingBlocks *= gridDim;
              // The blocks along a replicated grid dim (imap -1) read the
              // same tiles again: from L2 when the tensor fits in it.
              double reReads = perBlock * (blocks - readingBlocks);
              cost.dramBytes += perBlock * readingBlocks;
              if (bytesOf(iterator.getInput().getType()) <= target.l2CacheBytes)
                cost.l2Bytes += reReads;
              else
                cost.dramBytes += reReads;
              sharedMemoryTraffic += perBlock;
              if (!staged.contains(iterator)) {
                cost.registerLoadBytes += perBlock * blocks;
                cost.registerLoadLines +=
                    double(linesOf(iterator)) * loads * blocks;
              }
              if (walksForloop(iterator)) {
                perIteration.insert(iterator.getResult());
                walkedBytesPerStep += bytesOf(iterator.getType());
              }
              return success();
            })
            .Case([&](tb::ForloopAccumOp accum) {
              // Accumulators live in registers: no shared-memory traffic.
              cudaCoreFlops += elementsOf(accum.getInput()) *
                               accumulateFlops(accum.getKind()) * iterations;
              if (accum.getKind() == tb::AccumKind::none)
                perIteration.insert(accum.getResult());
              else
                accumulatorElements += elementsOf(accum.getResult());
              return success();
            })
            .Case([&](tb::OutputSaverOp saver) {
              // After a `none` accumulator a block writes one tile per
              // iteration.
              double perBlock =
                  bytesOf(saver.getInput().getType()) * executions(saver);
              cost.dramBytes += perBlock * blocks;
              sharedMemoryTraffic += perBlock;
              return success();
            })
            .Default([&](Operation *compute) -> LogicalResult {
              std::optional<Arithmetic> arithmetic =
                  arithmeticOf(compute, target);
              if (!arithmetic)
                return compute->emitOpError(
                    "is not modelled by the cost model");
              int64_t times = executions(compute);
              tensorCoreFlops += arithmetic->tensorCoreFlops * times;
              cudaCoreFlops += arithmetic->cudaCoreFlops * times;
              cost.reductionPasses += arithmetic->reductionPasses;
              // One pass over shared memory: read the operand tiles, write
              // the results. A th.graph is one pass for its whole chain. A
              // tb.matmul stages and reads its operands as mma.sync does and
              // leaves its result in registers (mma fragments).
              if (auto matmul = dyn_cast<tb::MatmulOp>(compute)) {
                sharedMemoryTraffic +=
                    matmulSharedMemoryTraffic(matmul, threads) * times;
              } else {
                for (Type type : llvm::concat<const Type>(
                         compute->getOperandTypes(), compute->getResultTypes()))
                  sharedMemoryTraffic += bytesOf(type) * times;
              }
              if (variesPerIteration(compute))
                perIteration.insert(compute->result_begin(),
                                    compute->result_end());
              return success();
            });
    if (failed(modelled))
      return failure();
  }
  cost.tensorCoreFlops = tensorCoreFlops * blocks;
  cost.cudaCoreFlops = cudaCoreFlops * blocks;
  cost.sharedMemoryTraffic = sharedMemoryTraffic * blocks;

  cost.sharedMemoryBytes = estimateSharedMemory(kernel);
  if (cost.sharedMemoryBytes > target.sharedMemoryPerBlock)
    return kernel.emitOpError("needs ")
           << cost.sharedMemoryBytes
           << " bytes of shared memory per block for the tiles live at once, "
              "more than the "
           << target.sharedMemoryPerBlock << " bytes a block can have on "
           << target.name;

  // Occupancy. Accumulators stay in registers for the whole loop, one f32
  // word per element (the tile code generator keeps mma accumulators
  // there). A thread gets at most its share of the SM's registers: beyond
  // that the compiler spills, which the model does not price.
  int64_t registersPerThread = std::min<int64_t>(
      kBaseRegistersPerThread + llvm::divideCeil(accumulatorElements, threads),
      target.registersPerSM / threads);
  int64_t blocksPerSM = std::min<int64_t>(
      {target.maxBlocksPerSM, target.maxThreadsPerSM / threads,
       target.registersPerSM / (registersPerThread * threads)});
  if (cost.sharedMemoryBytes > 0)
    blocksPerSM = std::min<int64_t>(blocksPerSM, target.sharedMemoryPerSM /
                                                     cost.sharedMemoryBytes);
  if (blocksPerSM == 0)
    return kernel.emitOpError("a block of ")
           << threads << " threads does not fit on one SM of " << target.name;
  cost.blocksPerSM = blocksPerSM;
  cost.waves = llvm::divideCeil(blocks, target.numSMs * blocksPerSM);
  // Blocks that wait for each other must all be resident at once: one per
  // SM is certain for any block that fits.
  cost.gridBarriers = tb::countGridBarriers(graph);
  if (cost.gridBarriers > 0 && blocks > target.numSMs)
    return kernel.emitOpError("has a grid-wide rms_norm, whose ")
           << blocks << " blocks must all be resident at once; at most "
           << target.numSMs << " (one per SM of " << target.name
           << ") are certain to be";

  // Blocks are handed to SMs in turn, so the busiest SM runs
  // ceil(blocks / SMs) of them. Blocks resident at once share its units, so
  // waves add no time of their own: what counts is how evenly the blocks
  // spread, and a kernel of fewer blocks than SMs leaves the rest idle.
  double busiestShare =
      double(llvm::divideCeil(blocks, target.numSMs)) / blocks;
  // A loop's steps follow one another in each block; the blocks an SM holds
  // at once run theirs side by side, the next round after them. A step whose
  // tiles are loaded when used also waits for device memory, and each round
  // waits for its first step's tiles before any work starts: the latency,
  // then the bytes at the SM's share of the device's bandwidth, shared by
  // the SMs that have blocks, and at most what its own port takes.
  if (iterations > 1) {
    int64_t rounds =
        llvm::divideCeil(llvm::divideCeil(blocks, target.numSMs), blocksPerSM);
    cost.pipelined = loopLoadsPipelined(graph, staged, threads);
    double step = target.loopStepSeconds +
                  (cost.pipelined ? 0 : target.dramLatencySeconds);
    int64_t loadingSMs = std::min<int64_t>(blocks, target.numSMs);
    double fill =
        target.dramLatencySeconds +
        walkedBytesPerStep * std::max(loadingSMs / target.dramBytesPerSecond,
                                      1 / target.dramBytesPerSecondPerSM);
    cost.loopSeconds = double(rounds) * (iterations * step + fill);
  }
  setTime(cost, busiestShare, target);
  return cost;
}

/// A predefined kernel is priced as the lowering tiles it: the block graph
/// of its tiling (buildPredefinedTiling: grid, tiles, K steps), built
/// detached and dropped after. Ops it does not tile are spread evenly over the
/// SMs.
FailureOr<KernelCost> predefinedCost(Operation *op, const GpuTarget &target) {
  // A tiling that fails, or that the model cannot price (its tiles exceed
  // the shared memory of a block), is no error of the program's: the op is
  // then priced as spread evenly, and nothing is reported.
  FailureOr<KernelCost> cost = [&]() -> FailureOr<KernelCost> {
    ThreadDiagnosticHandler quiet(op->getContext(),
                                  [](Diagnostic &) { return success(); });
    OpBuilder builder(op->getContext());
    FailureOr<tk::FusedOp> tiled = buildPredefinedTiling(builder, op);
    if (failed(tiled))
      return failure();
    FailureOr<KernelCost> priced = fusedCost(*tiled, target);
    tiled->erase();
    return priced;
  }();
  if (failed(cost))
    return evenlySpreadCost(op, target);
  cost->op = op;
  return cost;
}

} // namespace

int64_t mlir::tileopt::superopt::estimateSharedMemory(tk::FusedOp kernel) {
  auto graph = cast<tb::BlockGraphOpInterface>(kernel.getOperation());
  Block &body = graph.getBlockGraph();
  bool loops = graph.getForloopRange() > 1;

  llvm::DenseMap<Operation *, int64_t> position;
  int64_t numOps = 0;
  for (Operation &op : body)
    position[&op] = numOps++;
  // Bytes live at each position in program order.
  SmallVector<int64_t> live(numOps, 0);
  for (Operation &op : body) {
    for (Value value : op.getResults()) {
      if (!isa<tb::TileType>(value.getType()))
        continue;
      int64_t bytes = paddedBytes(value);
      int64_t first = position[&op], last = first;
      for (Operation *user : value.getUsers())
        last = std::max(last, position[body.findAncestorOpInBlock(*user)]);
      // Iterator buffers and accumulators exist for the whole loop: an
      // accumulator holds its partial result from the first iteration on,
      // and an iterator whose tile changes every iteration loads the next
      // tile into a second buffer while the current one is in use.
      if (isa<tb::InputIteratorOp, tb::ForloopAccumOp>(op))
        first = 0;
      if (auto iterator = dyn_cast<tb::InputIteratorOp>(op);
          iterator && loops && walksForloop(iterator))
        bytes *= 2;
      for (int64_t i = first; i <= last; ++i)
        live[i] += bytes;
    }
  }
  return live.empty() ? 0 : *llvm::max_element(live);
}

FailureOr<KernelCost> PredefinedCostMemo::lookupOrPrice(
    Operation *op, llvm::function_ref<FailureOr<KernelCost>()> price) {
  std::vector<const void *> key{op->getName().getAsOpaquePointer(),
                                op->getAttrDictionary().getAsOpaquePointer()};
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    key.push_back(type.getAsOpaquePointer());
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = prices.find(key); it != prices.end()) {
      KernelCost cost = it->second;
      cost.op = op;
      return cost;
    }
  }
  FailureOr<KernelCost> cost = price();
  if (succeeded(cost)) {
    std::lock_guard<std::mutex> lock(mutex);
    prices.emplace(std::move(key), *cost);
  }
  return cost;
}

FailureOr<ProgramCost> mlir::tileopt::superopt::estimateCost(
    func::FuncOp program, const GpuTarget &target, PredefinedCostMemo *memo) {
  if (program.isExternal())
    return program.emitOpError("has no body whose cost could be estimated");
  ProgramCost total;
  for (Operation &op : program.getBody().getOps()) {
    if (isa<func::ReturnOp>(op) || tk::isFreeLayoutChange(&op))
      continue;
    if (failed(checkSizedValues(&op)))
      return failure();
    FailureOr<KernelCost> kernel = failure();
    if (auto fused = dyn_cast<tk::FusedOp>(op))
      kernel = fusedCost(fused, target);
    else if (memo)
      kernel =
          memo->lookupOrPrice(&op, [&] { return predefinedCost(&op, target); });
    else
      kernel = predefinedCost(&op, target);
    if (failed(kernel))
      return failure();
    total.seconds += kernel->seconds;
    total.serialSeconds += kernel->serialSeconds;
    total.kernels.push_back(std::move(*kernel));
  }
  return total;
}

void KernelCost::print(raw_ostream &os) const {
  os << llvm::format("%9.3f us  %-14s  dram %.4g MB  l2 %.4g MB  "
                     "reg %.4g MB in %.0f lines  tensor %.4g GFLOP  "
                     "cuda %.4g GFLOP",
                     seconds * 1e6, bound.c_str(), dramBytes * 1e-6,
                     l2Bytes * 1e-6, registerLoadBytes * 1e-6,
                     registerLoadLines, tensorCoreFlops * 1e-9,
                     cudaCoreFlops * 1e-9);
  os << llvm::format("  smem %lld B/block  blocks %lld (%g per SM, %lld "
                     "waves)  reductions %u  loop %.4g us%s",
                     (long long)sharedMemoryBytes, (long long)blocks,
                     blocksPerSM, (long long)waves, reductionPasses,
                     loopSeconds * 1e6, pipelined ? "" : " (not pipelined)");
  if (gridBarriers > 0)
    os << "  grid barriers " << gridBarriers;
}

void ProgramCost::print(raw_ostream &os) const {
  for (const KernelCost &kernel : kernels) {
    os << llvm::format("%-10s ",
                       kernel.op->getName().getStringRef().str().c_str());
    kernel.print(os);
    os << "\n";
  }
  os << llvm::format("total      %9.3f us in %zu kernels\n", seconds * 1e6,
                     kernels.size());
}
