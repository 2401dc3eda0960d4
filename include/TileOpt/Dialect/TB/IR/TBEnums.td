//===- TBEnums.td - Block graph enums ----------------------*- tablegen -*-===//
#ifndef TILEOPT_DIALECT_TB_TBENUMS_TD
#define TILEOPT_DIALECT_TB_TBENUMS_TD

include "mlir/IR/EnumAttr.td"

def TB_AccumKind : I32Enum<"AccumKind",
    "how tb.forloop_accum combines the for-loop iterations", [
      I32EnumCase<"none", 0>,
      I32EnumCase<"sum", 1>,
      I32EnumCase<"mean", 2>,
      I32EnumCase<"rms", 3>,
      I32EnumCase<"max", 4>,
      I32EnumCase<"sum_rescale", 5>
    ]> {
  let cppNamespace = "::mlir::tileopt::tb";
}

#endif // TILEOPT_DIALECT_TB_TBENUMS_TD
