//===- THOps.h - Thread graph dialect ---------------------------*- C++ -*-===//
#ifndef TILEOPT_DIALECT_TH_IR_THOPS_H
#define TILEOPT_DIALECT_TH_IR_THOPS_H

#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dialect.h"

#include "TileOpt/Dialect/TH/IR/THDialect.h.inc"

#define GET_OP_CLASSES
#include "TileOpt/Dialect/TH/IR/THOps.h.inc"

#endif // TILEOPT_DIALECT_TH_IR_THOPS_H
