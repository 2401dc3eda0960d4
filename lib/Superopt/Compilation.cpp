//===- Compilation.cpp - Whether a candidate compiles to good kernels -----===//
#include "TileOpt/Superopt/Compilation.h"

#include "TileOpt/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tileopt;

std::optional<std::string> superopt::whyNotCompiled(func::FuncOp candidate,
                                                    int64_t blockThreads,
                                                    StringRef chip) {
  MLIRContext *context = candidate.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(candidate.getLoc());
  OpBuilder b(context);
  b.setInsertionPointToEnd(module->getBody());
  b.clone(*candidate);

  // The first error of the lowering says why; nothing reaches the user.
  std::optional<std::string> firstError;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() == DiagnosticSeverity::Error && !firstError)
      firstError = diagnostic.str();
    return success();
  });

  TileToCubinOptions options;
  options.chip = chip.str();
  options.numWarps = blockThreads / 32;
  options.format = "isa";
  PassManager lowering(context, ModuleOp::getOperationName());
  lowering.addPass(createLowerUGraph());
  buildTileLoweringPipeline(lowering, options);
  if (failed(lowering.run(*module)))
    return firstError.value_or("the lowering failed");
  // A register spilled in a loop is stored and read back at every step;
  // one spilled where nothing loops, once.
  llvm::StringSet<> looping;
  module->walk([&](gpu::GPUFuncOp kernel) {
    if (kernel.walk([](scf::ForOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      looping.insert(kernel.getName());
  });
  PassManager toPtx(context, ModuleOp::getOperationName());
  buildGPUToBinaryPipeline(toPtx, options);
  if (failed(toPtx.run(*module)))
    return firstError.value_or("the lowering to PTX failed");

  std::optional<std::string> ptxas =
      findPtxas(findCudaToolkit(options.toolkit));
  if (!ptxas)
    return std::nullopt;
  for (auto binary : module->getOps<gpu::BinaryOp>())
    for (auto object : binary.getObjects().getAsRange<gpu::ObjectAttr>()) {
      std::string error;
      FailureOr<SmallVector<PtxasKernelReport>> reports =
          reportPtxas(*ptxas, object.getObject().getValue(), chip, error);
      if (failed(reports))
        return error;
      for (const PtxasKernelReport &report : *reports)
        if (looping.contains(report.name) &&
            report.spillStoreBytes > kMaxSpillStoreBytes)
          return "ptxas spills " + std::to_string(report.spillStoreBytes) +
                 " bytes a thread in the loop of kernel " + report.name + " (" +
                 std::to_string(report.registers) + " registers)";
    }
  return std::nullopt;
}
