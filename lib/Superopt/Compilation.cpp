//===- Compilation.cpp - Whether a candidate compiles to good kernels -----===//
#include "TileOpt/Superopt/Compilation.h"

#include "TileOpt/Conversion/Passes.h"
#include "TileOpt/Dialect/Common/ThreadDiagnostics.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// Sets `options` to tileopt-compile's, for `blockThreads` threads a block
/// on `chip`, to PTX.
void setCompilationOptions(TileToCubinOptions &options, int64_t blockThreads,
                           StringRef chip) {
  options.chip = chip.str();
  options.numWarps = blockThreads / 32;
  options.format = "isa";
}

/// The first half of the compilation, µGraph to gpu.func; the second,
/// gpu.func to PTX, is buildGPUToBinaryPipeline.
void buildToGPU(OpPassManager &pm, const TileToCubinOptions &options) {
  pm.addPass(createLowerUGraph());
  buildTileLoweringPipeline(pm, options);
}

} // namespace

std::optional<std::string> superopt::compilationPtxas() {
  // The compilation names no toolkit: CUDA_HOME, then /usr/local/cuda.
  return findPtxas(findCudaToolkit(/*requested=*/""));
}

void superopt::getCompilationDialects(DialectRegistry &registry) {
  TileToCubinOptions options;
  setCompilationOptions(options, /*blockThreads=*/128, "sm_90");
  OpPassManager toGPU(ModuleOp::getOperationName()),
      toPtx(ModuleOp::getOperationName());
  buildToGPU(toGPU, options);
  buildGPUToBinaryPipeline(toPtx, options);
  toGPU.getDependentDialects(registry);
  toPtx.getDependentDialects(registry);
}

superopt::CompileCheck superopt::whyNotCompiled(func::FuncOp candidate,
                                                int64_t blockThreads,
                                                StringRef chip) {
  MLIRContext *context = candidate.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(candidate.getLoc());
  OpBuilder b(context);
  b.setInsertionPointToEnd(module->getBody());
  b.clone(*candidate);

  // The first error of the lowering says why; nothing reaches the user.
  // Only this thread's: the pass runs on several functions at once.
  std::optional<std::string> firstError;
  ThreadDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() == DiagnosticSeverity::Error && !firstError)
      firstError = diagnostic.str();
    return success();
  });

  TileToCubinOptions options;
  setCompilationOptions(options, blockThreads, chip);
  PassManager toGPU(context, ModuleOp::getOperationName());
  buildToGPU(toGPU, options);
  if (failed(toGPU.run(*module)))
    return {firstError.value_or("the lowering failed")};
  // A register spilled in a loop is stored and read back at every step;
  // one spilled where nothing loops, once. Any scf.for counts, a loop of
  // the block graph's or one the lowering made.
  llvm::StringSet<> looping;
  module->walk([&](gpu::GPUFuncOp kernel) {
    if (kernel.walk([](scf::ForOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      looping.insert(kernel.getName());
  });
  PassManager toPtx(context, ModuleOp::getOperationName());
  buildGPUToBinaryPipeline(toPtx, options);
  if (failed(toPtx.run(*module)))
    return {firstError.value_or("the lowering to PTX failed")};

  std::optional<std::string> ptxas = compilationPtxas();
  if (!ptxas)
    return {};
  FailureOr<StringRef> ptx = binaryObjectOf(*module);
  if (failed(ptx))
    return {firstError.value_or("the lowering produced no PTX")};
  PtxasError error;
  FailureOr<PtxasOutput> compiled = runPtxas(*ptxas, *ptx, chip, error);
  if (failed(compiled))
    return {error.message, error.notRun};
  for (const PtxasKernelReport &report : compiled->kernels)
    if (looping.contains(report.name) &&
        report.spillStoreBytes > kMaxSpillStoreBytes)
      return {"ptxas spills " + std::to_string(report.spillStoreBytes) +
              " bytes a thread in the loop of kernel " + report.name + " (" +
              std::to_string(report.registers) + " registers)"};
  return {};
}
