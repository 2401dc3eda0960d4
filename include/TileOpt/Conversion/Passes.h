//===- Passes.h - Conversions into and out of TileOpt -----------*- C++ -*-===//
#ifndef TILEOPT_CONVERSION_PASSES_H
#define TILEOPT_CONVERSION_PASSES_H

#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tileopt {

#define GEN_PASS_DECL
#include "TileOpt/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TileOpt/Conversion/Passes.h.inc"

} // namespace mlir::tileopt

#endif // TILEOPT_CONVERSION_PASSES_H
