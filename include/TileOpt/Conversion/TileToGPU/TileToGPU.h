//===- TileToGPU.h - Tile kernels to gpu.func with fragments ----*- C++ -*-===//
//
// The steps of tileopt-lower-tile, which the pass runs in this order:
//
// 1. On each tile.kernel: checkTileKernel reports, at the op, what the code
//    generator cannot take; assignMmaLayouts gives the accumulators of its
//    tile.mma ops their layout (wgmma's where useWgmma says so);
//    remarkUnusedTma and markRestagedLhs annotate what the patterns read.
// 2. outlineTileKernels moves every tile.kernel into a gpu.func of a
//    gpu.module, with the kernel ABI (a pointer and the dynamic sizes per
//    view) and one workgroup buffer for all scratch, and rewrites each
//    tile.launch into a gpu.launch_func. Each view is rebuilt from its
//    parameters by an unrealized_conversion_cast that the memory patterns
//    read.
// 3. A dialect conversion of that gpu.module turns tile tensors into
//    per-thread fragments (FragmentTypeConverter, FragmentLayout) and tile
//    ops into the code that computes them: configureTileToGPULegality and
//    the populate...Patterns of each family of ops below, as upstream's
//    GPU-to-NVVM conversion exports its own.
//
// Every pattern takes the block's thread count: the layout of a tile
// depends on it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_CONVERSION_TILETOGPU_TILETOGPU_H
#define TILEOPT_CONVERSION_TILETOGPU_TILETOGPU_H

#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tileopt {

//===----------------------------------------------------------------------===//
// Before outlining
//===----------------------------------------------------------------------===//

/// Reports, at the op, the first thing in `kernel` the lowering cannot take
/// with `numThreads` threads; warns at a latency hint of a tile.mma loop
/// that it cannot follow.
LogicalResult checkTileKernel(tile::KernelOp kernel, int64_t numThreads,
                              bool swizzleStaging);

/// Whether the tile.mma ops of `kernel` run on wgmma: on a chip that has
/// it, when every one of them can (one accumulator layout serves the whole
/// kernel). Each that cannot gets a remark naming the limit; the kernel
/// then keeps mma.sync.
bool useWgmma(tile::KernelOp kernel, StringRef chip, int64_t numThreads);

/// Gives the accumulators and results of the tile.mma ops in `kernel`, and
/// everything tied to them (loop-carried values, elementwise ops on them,
/// splat initial values), the mma.sync accumulator layout, or the wgmma one
/// with `wgmma`: their types get an encoding that names it. A wgmma
/// accumulator that a tile.reduce or a tile.mma multiplicand takes is
/// re-dealt into the blocked layout for them by a tile.reshape to its own
/// shape, through shared memory; a tile.load that gives an accumulator (a
/// partial result added to an mma's) loads in the blocked layout and is
/// re-dealt the other way. Reports a use that would need another layout.
LogicalResult assignMmaLayouts(tile::KernelOp kernel, bool wgmma);

/// Remarks at each load of `kernel` whose `allow_tma` hint the lowering does
/// not follow, saying why (after assignMmaLayouts: TMA needs wgmma).
void remarkUnusedTma(tile::KernelOp kernel, int64_t numThreads,
                     bool swizzleStaging);

/// Marks each tile.mma of `kernel` whose left operand the tile.mma just
/// before it already staged in shared memory, so that it is staged once.
void markRestagedLhs(tile::KernelOp kernel);

//===----------------------------------------------------------------------===//
// Outlining
//===----------------------------------------------------------------------===//

/// Moves every tile.kernel of `module` into a new gpu.module of it as a
/// gpu.func with the kernel ABI, sized for the shared memory its ops need,
/// and rewrites every tile.launch of it into a gpu.launch_func. Fails with
/// a diagnostic when a kernel needs more shared memory than a block has, or
/// its tile.reduce_across_blocks cannot size its device memory.
FailureOr<gpu::GPUModuleOp>
outlineTileKernels(ModuleOp module, int64_t numThreads, bool swizzleStaging);

//===----------------------------------------------------------------------===//
// The conversion
//===----------------------------------------------------------------------===//

/// Converts every tile (a ranked tensor) to the fragment of it one of
/// `numThreads` threads holds: a vector in the tile's FragmentLayout.
class FragmentTypeConverter : public TypeConverter {
public:
  explicit FragmentTypeConverter(int64_t numThreads);
};

/// The tile dialect is illegal, arith and math are legal on scalars and
/// fragments only; what the patterns produce (gpu, llvm, nvvm, nvgpu,
/// vector, memref) is legal, and so are the casts that stand for views.
void configureTileToGPULegality(ConversionTarget &target);

/// arith and math ops on tiles, tile.splat and tile.iota (each thread
/// computes its own elements), tile.block_id and tile.num_blocks
/// (ElementwiseOpToGPU.cpp).
void populateElementwiseOpToGPUPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        int64_t numThreads);

/// tile.load and tile.store: coalesced, vectorized where the view's rows
/// keep chunks whole, with padding and bounds checks
/// (LoadStoreOpToGPU.cpp).
void populateLoadStoreOpToGPUPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      int64_t numThreads);

/// tile.reduce over the last dim: in the thread, across lanes by shuffles,
/// across warps through shared memory (ReduceOpToGPU.cpp).
void populateReduceOpToGPUPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns,
                                   int64_t numThreads);

/// tile.scan over the last dim, either direction (ScanOpToGPU.cpp).
void populateScanOpToGPUPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 int64_t numThreads);

/// tile.reduce_across_blocks: through device memory and a grid barrier, in
/// the arrays and on the barrier outlineTileKernels allocates
/// (ReduceAcrossBlocksOpToGPU.cpp).
void populateReduceAcrossBlocksOpToGPUPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               int64_t numThreads);

/// tile.broadcast, tile.reshape and tile.permute: a tile dealt from one
/// layout into another, by shuffles or through shared memory
/// (RelayoutOpToGPU.cpp).
void populateRelayoutOpToGPUPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     int64_t numThreads);

/// tile.mma on operands in registers, staged in shared memory for
/// mma.sync (MmaSync.cpp) or wgmma (Wgmma.cpp) (MmaOpToGPU.cpp).
void populateMmaOpToGPUPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns,
                                int64_t numThreads);

/// scf.for loops whose tile.mma operands are loaded with a latency hint: a
/// ring of shared-memory stages filled by cp.async (StagedMmaLoop.cpp) or
/// TMA (Tma.cpp). Takes precedence over the structural conversion of
/// scf.for.
void populateStagedMmaLoopToGPUPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        int64_t numThreads,
                                        bool swizzleStaging);

} // namespace mlir::tileopt

#endif // TILEOPT_CONVERSION_TILETOGPU_TILETOGPU_H
