//===- TileOptDialect.h - The artifact and launch ABI -----------*- C++ -*-===//
//
// The `tileopt` dialect owns the attributes of TileOpt's artifact and launch
// ABI (TileOptDialect.td says which and where). Each is spelled once, by
// ODS: TileOptDialect::<Name>AttrHelper::getNameStr() gives its name, and an
// instance of the helper (from the loaded dialect) reads and writes it on an
// op.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_DIALECT_TILEOPT_IR_TILEOPTDIALECT_H
#define TILEOPT_DIALECT_TILEOPT_IR_TILEOPTDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"

#include "TileOpt/Dialect/TileOpt/IR/TileOptDialect.h.inc"

#endif // TILEOPT_DIALECT_TILEOPT_IR_TILEOPTDIALECT_H
