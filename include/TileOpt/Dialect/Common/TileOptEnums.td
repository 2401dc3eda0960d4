//===- TileOptEnums.td - Op kinds shared by tk and tb ------*- tablegen -*-===//
//
// The kernel graph (tk) and the block graph (tb) offer the same elementwise
// and reduction operators, one level apart: a tk op reads and writes device
// memory, the tb op with the same kind works on a shared-memory tile. One enum
// per family keeps the two levels in step and lets the interpreter and the
// superoptimizer treat a kind the same way wherever it appears. Each dialect
// wraps these enums in its own attribute (EnumAttr) so its IR prints as
// `#tk<unary exp>` or `#tb<unary exp>`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEOPT_DIALECT_COMMON_TILEOPTENUMS_TD
#define TILEOPT_DIALECT_COMMON_TILEOPTENUMS_TD

include "mlir/IR/EnumAttr.td"

def TileOpt_UnaryKind : I32Enum<"UnaryKind",
    "elementwise unary operator", [
      I32EnumCase<"exp", 0>,
      I32EnumCase<"silu", 1>,
      I32EnumCase<"gelu", 2>,
      I32EnumCase<"relu", 3>,
      I32EnumCase<"sqrt", 4>,
      I32EnumCase<"rsqrt", 5>,
      I32EnumCase<"square", 6>,
      I32EnumCase<"neg", 7>,
      I32EnumCase<"mul_scalar", 8>,
      I32EnumCase<"add_scalar", 9>,
      I32EnumCase<"sigmoid", 10>
    ]> {
  let cppNamespace = "::mlir::tileopt";
}

def TileOpt_BinaryKind : I32Enum<"BinaryKind",
    "elementwise binary operator (numpy broadcasting)", [
      I32EnumCase<"add", 0>,
      I32EnumCase<"sub", 1>,
      I32EnumCase<"mul", 2>,
      I32EnumCase<"div", 3>,
      I32EnumCase<"pow", 4>
    ]> {
  let cppNamespace = "::mlir::tileopt";
}

def TileOpt_ReduceKind : I32Enum<"ReduceKind",
    "reduction over one dimension", [
      I32EnumCase<"sum", 0>,
      I32EnumCase<"max", 1>,
      I32EnumCase<"mean", 2>
    ]> {
  let cppNamespace = "::mlir::tileopt";
}

#endif // TILEOPT_DIALECT_COMMON_TILEOPTENUMS_TD
