//===- tileopt-opt.cpp - mlir-opt with TileOpt's dialects and passes ------===//
//
// Upstream's dialects, extensions and passes (the GPU pipeline needs the gpu,
// nvvm, nvgpu and llvm ones, the importer linalg and tosa) plus TileOpt's.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/Statistic.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::tileopt::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates the kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::tileopt::registerAllDialects(registry);

  mlir::LogicalResult result =
      mlir::MlirOptMain(argc, argv, "TileOpt optimizer driver\n", registry);
  // Debian's LLVM is built without statistics: at exit it would only say
  // so, but the search's ALWAYS_ENABLED_STATISTICs count, and -stats prints
  // them here.
  if (llvm::AreStatisticsEnabled())
    llvm::PrintStatistics(llvm::errs());
  return mlir::asMainReturnCode(result);
}
