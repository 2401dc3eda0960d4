//===- TileOptEnums.h - Op kinds shared by tk and tb ------------*- C++ -*-===//
#ifndef TILEOPT_DIALECT_COMMON_TILEOPTENUMS_H
#define TILEOPT_DIALECT_COMMON_TILEOPTENUMS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/LLVM.h"

#include "TileOpt/Dialect/Common/TileOptEnums.h.inc"

#endif // TILEOPT_DIALECT_COMMON_TILEOPTENUMS_H
