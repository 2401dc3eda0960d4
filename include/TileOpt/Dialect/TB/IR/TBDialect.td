//===- TBDialect.td - Block graph dialect ------------------*- tablegen -*-===//
#ifndef TILEOPT_DIALECT_TB_TBDIALECT_TD
#define TILEOPT_DIALECT_TB_TBDIALECT_TD

include "mlir/IR/OpBase.td"

def TB_Dialect : Dialect {
  let name = "tb";
  let cppNamespace = "::mlir::tileopt::tb";
  let summary = "Block graphs: what one thread block of a fused kernel computes";
  let description = [{
    A block graph is the body of a graph-defined kernel (`tk.fused`). It
    describes the work of one thread block on one SM, for every block of the
    grid and every iteration of the kernel's for-loop:

    * `tb.input_iterator` reads a tile of a device tensor: the `imap` says
      which tensor dim each grid dim partitions, the `fmap` which tensor dim
      the loop iterations walk over;
    * the compute ops (`tb.matmul`, `tb.unary`, `tb.binary`, `tb.reduce`,
      `tb.concat`, `tb.rms_norm`, `th.graph`) work on the shared-memory tiles
      of one iteration;
    * `tb.forloop_accum` combines the iterations (sum, max, online-softmax
      rescaling, ...);
    * `tb.output_saver` writes the accumulated tile back, placed by its `omap`.

    Every path from a kernel input to a kernel output crosses exactly one
    input iterator, one accumulator and one output saver, in that order; the
    enclosing op's verifier enforces it. A tile the loop does not walk (an
    iterator with `fmap` -1, and what is computed from such tiles alone) is
    the same in every iteration and may also be used after the accumulators
    (a loop-invariant operand of the epilogue). This is the block level of
    Mirage's µGraphs.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

// The op must sit directly in the region of an op that implements
// BlockGraphOpInterface. th.graph carries it too.
def TB_InBlockGraph : NativeOpTrait<"InBlockGraph"> {
  let cppNamespace = "::mlir::tileopt::tb";
}

class TB_Op<string mnemonic, list<Trait> traits = []>
    : Op<TB_Dialect, mnemonic, traits>;

#endif // TILEOPT_DIALECT_TB_TBDIALECT_TD
