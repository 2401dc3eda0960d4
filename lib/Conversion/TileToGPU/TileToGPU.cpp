//===- TileToGPU.cpp - Tile kernels to gpu.func with fragments ------------===//
//
// The pass tileopt-lower-tile: its steps (TileToGPU.h) over a module whose
// tiles tileopt-assign-layouts has given their layouts.
// Outlining moves every tile.kernel into a gpu.func of a gpu.module; then a
// dialect conversion turns tile tensors into per-thread fragments
// (FragmentLayout) and tile ops into the code that computes them, with the
// patterns of each family of ops (the *OpToGPU.cpp files, StagedMmaLoop.cpp).
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"

#include "Utility.h"

#include "TileOpt/Conversion/Passes.h"
#include "TileOpt/Transforms/MmaStaging.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_LOWERTILETOGPU
#include "TileOpt/Conversion/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;

FragmentTypeConverter::FragmentTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type) -> Type {
    return tiletogpu::layoutOf(type).fragmentType(type.getElementType());
  });
}

void tileopt::configureTileToGPULegality(ConversionTarget &target) {
  target.addLegalDialect<gpu::GPUDialect, LLVM::LLVMDialect, NVVM::NVVMDialect,
                         nvgpu::NVGPUDialect, vector::VectorDialect,
                         memref::MemRefDialect>();
  target.addIllegalDialect<tile::TileDialect>();
  target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
      [](Operation *op) { return !hasTensorType(op); });
  target.addLegalOp<UnrealizedConversionCastOp>();
}

namespace {

struct LowerTileToGPUPass
    : public tileopt::impl::LowerTileToGPUBase<LowerTileToGPUPass> {
  using LowerTileToGPUBase::LowerTileToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (numWarps < 1 || numWarps > 32) {
      module.emitError("num-warps must be in 1-32, got ") << numWarps;
      return signalPassFailure();
    }
    int64_t numThreads = numWarps * 32;
    SmallVector<tile::KernelOp> kernels(module.getOps<tile::KernelOp>());
    if (kernels.empty())
      return;
    for (tile::KernelOp kernel : kernels)
      if (failed(checkTileKernel(kernel, numThreads)))
        return signalPassFailure();

    FailureOr<gpu::GPUModuleOp> gpuModule =
        outlineTileKernels(module, numThreads);
    if (failed(gpuModule))
      return signalPassFailure();

    FragmentTypeConverter converter;
    ConversionTarget target(*ctx);
    configureTileToGPULegality(target);
    RewritePatternSet patterns(ctx);
    populateElementwiseOpToGPUPatterns(converter, patterns, numThreads);
    populateLoadStoreOpToGPUPatterns(converter, patterns, numThreads);
    populateReduceOpToGPUPatterns(converter, patterns, numThreads);
    populateScanOpToGPUPatterns(converter, patterns, numThreads);
    populateMmaOpToGPUPatterns(converter, patterns, numThreads);
    populateRelayoutOpToGPUPatterns(converter, patterns, numThreads);
    populateReduceAcrossBlocksOpToGPUPatterns(converter, patterns, numThreads);
    populateStagedMmaLoopToGPUPatterns(converter, patterns, numThreads);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(*gpuModule, target, std::move(patterns))))
      return signalPassFailure();

    // The views were read through their casts; nothing uses them now.
    gpuModule->walk([](UnrealizedConversionCastOp cast) {
      if (cast.use_empty() &&
          isa<tile::TensorViewType>(cast.getResult(0).getType()))
        cast.erase();
    });
  }
};

} // namespace
