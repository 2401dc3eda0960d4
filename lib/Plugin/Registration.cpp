//===- Registration.cpp - Register TileOpt's dialects and passes ----------===//
#include "TileOpt/InitAllDialects.h"

#include "TileOpt/Conversion/Passes.h"
#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "TileOpt/Dialect/TileOpt/IR/TileOptDialect.h"
#include "TileOpt/Superopt/Passes.h"
#include "TileOpt/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::tileopt::registerAllDialects(DialectRegistry &registry) {
  registry.insert<tk::TKDialect, tb::TBDialect, th::THDialect,
                  tile::TileDialect, TileOptDialect>();
}

void mlir::tileopt::registerAllPasses() {
  registerTileOptConversionPasses();
  registerTileOptTransformsPasses();
  registerTileOptSuperoptPasses();
  registerTileToCubinPipeline();
}
