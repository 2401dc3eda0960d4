//===- TBDialect.h - Block graph dialect ------------------------*- C++ -*-===//
#ifndef TILEOPT_DIALECT_TB_IR_TBDIALECT_H
#define TILEOPT_DIALECT_TB_IR_TBDIALECT_H

#include "mlir/IR/Dialect.h"

#include "TileOpt/Dialect/TB/IR/TBDialect.h.inc"

#endif // TILEOPT_DIALECT_TB_IR_TBDIALECT_H
