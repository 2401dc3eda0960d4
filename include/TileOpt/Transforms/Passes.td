//===- Passes.td - TileOpt transformations -----------------*- tablegen -*-===//
#ifndef TILEOPT_TRANSFORMS_PASSES_TD
#define TILEOPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseThreadGraphs : Pass<"tileopt-fuse-thread-graphs"> {
  let summary = "Fuse chains of elementwise block-graph ops into thread graphs";
  let description = [{
    In a block graph every `tb.unary` and `tb.binary` stands for a pass over
    a shared-memory tile: each reads its operands from shared memory and
    writes its result back. A chain of them (say `exp(x - m)`, or
    `silu(a) * b`) can instead run in registers, each thread computing its
    elements through the whole chain: that is a thread graph (`th.graph`).
    Mirage does not search the thread level; it fuses such chains by rule,
    and so does this pass.

    An elementwise tb op joins the chain of its elementwise consumer when
    that consumer is its only user; every chain of two or more ops becomes
    one `th.graph` whose region holds the equivalent scalar arith/math ops
    (ElementwiseBuilder says what each kind computes). An op whose result
    has several users ends a chain, so nothing is computed twice; a lone
    elementwise op is left alone, as there is nothing to fuse it with.

    The pass runs on any op and fuses inside every block graph below it.
  }];
  let dependentDialects = ["::mlir::tileopt::th::THDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // TILEOPT_TRANSFORMS_PASSES_TD
