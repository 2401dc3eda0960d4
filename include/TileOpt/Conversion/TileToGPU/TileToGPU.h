//===- TileToGPU.h - Tile kernels to gpu.func with fragments ----*- C++ -*-===//
//
// The steps of tileopt-lower-tile, which the pass runs in this order on the
// output of tileopt-assign-layouts (every tile has a layout, the pipelined
// loops and the restaged operands are recorded as tile dialect attributes):
//
// 1. On each tile.kernel: checkTileKernel reports, at the op, what the code
//    generator cannot take (and a tile without a layout).
// 2. outlineTileKernels moves every tile.kernel into a gpu.func of a
//    gpu.module, with the kernel ABI (a pointer and the dynamic sizes per
//    view) and one workgroup buffer for all scratch, and rewrites each
//    tile.launch into a gpu.launch_func. Each view is rebuilt from its
//    parameters by an unrealized_conversion_cast that the memory patterns
//    read.
// 3. A dialect conversion of that gpu.module turns tile tensors into
//    per-thread fragments (FragmentTypeConverter: the FragmentLayout of each
//    tile's layout) and tile ops into the code that computes them:
//    configureTileToGPULegality and the populate...Patterns of each family
//    of ops below, as upstream's GPU-to-NVVM conversion exports its own.
//
// Every pattern takes the block's thread count, which the layouts were
// assigned for.
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
/// with `numThreads` threads: a tile without a layout or with one for
/// another thread count, a ring its tile.mma_pipeline records that cannot
/// be built, and the limits of the code generator; warns at a latency hint
/// of a tile.mma loop that nothing follows.
LogicalResult checkTileKernel(tile::KernelOp kernel, int64_t numThreads);

//===----------------------------------------------------------------------===//
// Outlining
//===----------------------------------------------------------------------===//

/// Moves every tile.kernel of `module` into a new gpu.module of it as a
/// gpu.func with the kernel ABI, sized for the shared memory its ops need,
/// and rewrites every tile.launch of it into a gpu.launch_func. Fails with
/// a diagnostic when a kernel needs more shared memory than a block has, or
/// its tile.reduce_across_blocks cannot size its device memory.
FailureOr<gpu::GPUModuleOp> outlineTileKernels(ModuleOp module,
                                               int64_t numThreads);

//===----------------------------------------------------------------------===//
// The conversion
//===----------------------------------------------------------------------===//

/// Converts every tile (a ranked tensor) to the fragment of it one thread
/// holds: a vector in the FragmentLayout of the tile's layout.
class FragmentTypeConverter : public TypeConverter {
public:
  FragmentTypeConverter();
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

/// tile.broadcast, tile.reshape, tile.permute and tile.convert_layout: a
/// tile dealt from one layout into another, by shuffles or through shared
/// memory
/// (RelayoutOpToGPU.cpp).
void populateRelayoutOpToGPUPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     int64_t numThreads);

/// tile.mma on operands in registers, staged in shared memory for
/// mma.sync (MmaSync.cpp) or wgmma (Wgmma.cpp) (MmaOpToGPU.cpp).
void populateMmaOpToGPUPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns,
                                int64_t numThreads);

/// scf.for loops that a tile.mma_pipeline pipelines: a ring of
/// shared-memory stages filled by cp.async (StagedMmaLoop.cpp) or TMA
/// (Tma.cpp). Takes precedence over the structural conversion of scf.for.
void populateStagedMmaLoopToGPUPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        int64_t numThreads);

} // namespace mlir::tileopt

#endif // TILEOPT_CONVERSION_TILETOGPU_TILETOGPU_H
