//===- THOps.td - Thread graph dialect ---------------------*- tablegen -*-===//
#ifndef TILEOPT_DIALECT_TH_THOPS_TD
#define TILEOPT_DIALECT_TH_THOPS_TD

include "TileOpt/Dialect/TB/IR/TBTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TH_Dialect : Dialect {
  let name = "th";
  let cppNamespace = "::mlir::tileopt::th";
  let summary = "Thread graphs: elementwise chains fused in registers";
  let description = [{
    A thread graph is the lowest level of a µGraph: a chain of elementwise
    scalar operations that every thread applies to the elements it owns,
    without going through shared memory between them. In a block graph it
    stands for a fused epilogue such as `exp(x - m)` or `x * silu(y)`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

class TH_Op<string mnemonic, list<Trait> traits = []>
    : Op<TH_Dialect, mnemonic, traits>;

def TH_GraphOp
    : TH_Op<"graph", [IsolatedFromAbove, Pure, TB_InBlockGraph]> {
  let summary = "applies a region of scalar arith/math ops to every element";
  let description = [{
    Each operand tile is bound to a scalar block argument of its element
    type. The operands broadcast (numpy rules) to the shape of the results;
    the region computes one element of every result from one element of
    every operand and yields them.

    ```mlir
    %p = th.graph (%s = %S : !tb.tile<16x64xf32>, %m = %M : !tb.tile<16x1xf32>)
           -> !tb.tile<16x64xf32> {
      %d = arith.subf %s, %m : f32
      %e = math.exp %d : f32
      th.yield %e : f32
    }
    ```
  }];
  let arguments = (ins Variadic<TB_TileType>:$inputs);
  let results = (outs Variadic<TB_TileType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let builders = [
    // The scalar code of another region op (a tk.map, another th.graph),
    // cloned, its terminator replaced by th.yield.
    OpBuilder<(ins "TypeRange":$results, "ValueRange":$inputs,
                   "Region &":$scalarCode)>
  ];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TH_YieldOp : TH_Op<"yield", [Pure, ReturnLike, Terminator,
                                 HasParent<"GraphOp">]> {
  let summary = "the per-element results of a thread graph";
  let arguments = (ins Variadic<AnyTypeOf<[AnyInteger, AnyFloat, Index]>>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // TILEOPT_DIALECT_TH_THOPS_TD
