//===- TileToCubin.cpp - The tile-to-cubin pipeline -----------------------===//
#include "TileOpt/Conversion/Passes.h"

#include "TileOpt/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Process.h"

using namespace mlir;

std::string tileopt::findCudaToolkit(StringRef requested) {
  if (!requested.empty())
    return requested.str();
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("CUDA_HOME"))
    return *home;
  return "/usr/local/cuda";
}

void tileopt::buildTileLoweringPipeline(OpPassManager &pm,
                                        const TileToCubinOptions &options) {
  // Tile-level folds first: a load the kernel repeats is loaded once, and
  // a transposed mma operand is read in its own layout (tile.mma's
  // rhs_transposed) instead of being permuted through shared memory.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  PipelineTileLoadsOptions pipelining;
  pipelining.numWarps = options.numWarps;
  pipelining.registerBudget = options.registerBudget;
  pm.addPass(createPipelineTileLoads(pipelining));
  LowerTileToGPUOptions lowering;
  lowering.numWarps = options.numWarps;
  lowering.swizzleStaging = options.swizzleStaging;
  lowering.chip = options.chip;
  pm.addPass(createLowerTileToGPU(lowering));
}

void tileopt::buildTileToCubinPipeline(OpPassManager &pm,
                                       const TileToCubinOptions &options) {
  buildTileLoweringPipeline(pm, options);
  buildGPUToBinaryPipeline(pm, options);
}

void tileopt::buildGPUToBinaryPipeline(OpPassManager &pm,
                                       const TileToCubinOptions &options) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertNVGPUToNVVMPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  // NVVM ops written as inline PTX (wgmma.mma_async) become llvm.inline_asm.
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = findCudaToolkit(options.toolkit);
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void tileopt::registerTileToCubinPipeline() {
  PassPipelineRegistration<TileToCubinOptions>(
      "tileopt-tile-to-cubin",
      "Lower tile kernels to a gpu.binary holding a cubin (or PTX with "
      "format=isa) through NVVM and ptxas",
      buildTileToCubinPipeline);
}
