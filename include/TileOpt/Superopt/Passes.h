//===- Passes.h - The superoptimizer pass -----------------------*- C++ -*-===//
#ifndef TILEOPT_SUPEROPT_PASSES_H
#define TILEOPT_SUPEROPT_PASSES_H

#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tileopt {

#define GEN_PASS_DECL
#include "TileOpt/Superopt/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TileOpt/Superopt/Passes.h.inc"

} // namespace mlir::tileopt

#endif // TILEOPT_SUPEROPT_PASSES_H
