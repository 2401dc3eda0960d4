//===- Passes.h - TileOpt transformations -----------------------*- C++ -*-===//
#ifndef TILEOPT_TRANSFORMS_PASSES_H
#define TILEOPT_TRANSFORMS_PASSES_H

#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tileopt {

#define GEN_PASS_DECL
#include "TileOpt/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TileOpt/Transforms/Passes.h.inc"

} // namespace mlir::tileopt

#endif // TILEOPT_TRANSFORMS_PASSES_H
