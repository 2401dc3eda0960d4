//===- InitAllDialects.h - Register TileOpt's dialects ----------*- C++ -*-===//
#ifndef TILEOPT_INITALLDIALECTS_H
#define TILEOPT_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tileopt {

/// Adds tk, tb, th, tile and tileopt to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers TileOpt's passes and pipelines with the global registry.
void registerAllPasses();

} // namespace mlir::tileopt

#endif // TILEOPT_INITALLDIALECTS_H
