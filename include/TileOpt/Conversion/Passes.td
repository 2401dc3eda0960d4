//===- Passes.td - Conversions into and out of TileOpt ----*- tablegen -*-===//
//
// One file for every conversion between TileOpt's dialects and upstream ones
// (as in CIRCT's include/circt/Conversion/Passes.td); each pass lives in
// lib/Conversion/<From>To<To>/.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_CONVERSION_PASSES_TD
#define TILEOPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ImportLinalg : Pass<"tileopt-import-linalg", "::mlir::func::FuncOp"> {
  let summary = "Import linalg on tensors as a tk kernel graph";
  let description = [{
    The superoptimizer searches over kernel graphs (`tk`), whose ops are the
    operators Mirage's µGraphs are built from: matmul, elementwise unary and
    binary operators with numpy broadcasting, reductions that keep the
    reduced dim, rms_norm, reshape and transpose. Front ends (TOSA,
    torch-mlir, StableHLO, hand-written MLIR) emit linalg on tensors
    instead, where one structured op can hide a transpose, a broadcast or a
    whole chain of arithmetic in its indexing maps and payload. This pass
    reads each linalg op in its iteration space and writes the same
    computation as tk ops.

    - Contractions (`linalg.matmul`, `linalg.batch_matmul`, either with
      `indexing_maps`, `linalg.contract`, contraction `linalg.generic`s)
      become `tk.matmul`, with `tk.transpose`/`tk.reshape` to bring the
      operands into `[batch..., m, k] @ [batch..., k, n]` form. The init
      must be zero.
    - All-parallel ops (`linalg.generic`, `linalg.elementwise`, the named
      elementwise ops, `linalg.transpose`, `linalg.copy`) become a graph of
      `tk.unary`/`tk.binary` built from the payload. Operands are aligned
      with the iteration space; a broadcast dim becomes a size-1 dim so that
      tk's broadcasting applies. `x*x` is `square`, `max(x, 0)` is `relu`,
      a product with a constant is `mul_scalar`; written-out silu and gelu
      are recognised. Copy, broadcast and transpose producers are read
      through.
    - Reductions (`linalg.reduce`, reduction `linalg.generic`s) with an
      `addf` or `maximumf`/`maxnumf` combiner become `tk.reduce` per reduced
      loop, then a `tk.reshape` that drops the kept dims. The init must be
      the neutral element: 0 for a sum, -inf (or the lowest finite value)
      for a max.
    - `linalg.softmax` becomes max, sub, exp, sum, div; `tensor.expand_shape`
      and `tensor.collapse_shape` become `tk.reshape`.

    After the import, idioms are recognised on the kernel graph: a sum
    scaled by 1/n is a `mean`, `x * rsqrt(mean(x^2) + eps)` over the last
    dim is `tk.rms_norm`, and chains of reshapes or transposes collapse.

    Shapes must be static and all tensors of one op must share one float
    element type. What the pass cannot import gets a warning at the op
    naming the op and the reason; the op stays as it was and the pass
    imports the rest. A scalar constant that no tk operator takes (the `c`
    of `x + c`) becomes a splat `arith.constant` tensor operand, also with a
    warning. A function whose body is only tk ops (and its return) after
    this pass is a kernel graph the superoptimizer can take.
  }];
  let dependentDialects = ["::mlir::tileopt::tk::TKDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // TILEOPT_CONVERSION_PASSES_TD
