//===- TileOptPlugin.cpp - TileOpt as an mlir-opt plugin ------------------===//
#include "TileOpt/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TileOpt", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::tileopt::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TileOpt", LLVM_VERSION_STRING,
          []() { mlir::tileopt::registerAllPasses(); }};
}
