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

def PipelineTileLoads : Pass<"tileopt-pipeline-tile-loads"> {
  let summary = "Issue tile loads in loops ahead of their use, as deep as "
                "their latency hint asks";
  let description = [{
    A `tile.load` in an `scf.for` whose result is consumed in the same
    iteration makes every iteration wait for device memory. Its `latency`
    hint (1-10) says how far ahead the load should be issued: with latency
    L, this pass makes iteration k use the tile loaded L - 1 iterations
    earlier and issue the load for iteration k + L - 1 in its place, so that
    the memory latency overlaps the work of L - 1 iterations. The tiles in
    flight are carried as loop values (registers); the first L - 1 are
    loaded before the loop. Loads past the end of the loop read outside the
    view (padding) or read data that is never used, and never fault.

    The loop is then unrolled by L (the longest distance plus one; a
    remainder loop takes the last iterations, and a loop of fewer than L
    iterations is not unrolled). Carried as loop values, the queue of tiles
    shifts by one slot per iteration, and the register moves that shift it
    at the back edge wait for the loads still in flight: every distance
    acted as one (on the H200 latency 6 was no faster than 3, and a quarter
    of the stalls were on the loads at the loop's top). Unrolled, each slot
    is refilled by a later copy than the one that used it, so a tile keeps
    its registers from its load to its use.

    Only loads whose view is defined outside the loop and whose indices are
    computed from the induction variable by side-effect-free ops are
    pipelined; others are left alone. Loads with latency 1 (or none) are
    left alone, and so are the loops whose `tile.mma` multiplicands
    `tileopt-lower-tile` pipelines through shared memory with cp.async (or
    TMA), without holding the tiles in registers: loops where every mma
    multiplies tiles loaded in the body for mmas alone into an accumulator
    the loop carries for it alone, with nothing but loads and pure ops
    beside them (one activation tile may feed several mmas, as a gated
    MLP's X feeds X W1 and X W2). The code generator wants such a loop as
    it is, so its other loads are not prefetched either. A multiplicand
    that other ops read too (rmsnorm_linear's X, also squared) keeps its
    loop here, in registers.

    Tiles in flight live in registers, and a thread has at most 255: a
    lowered µGraph whose loop streams two 1024x16 weight tiles and an
    8x1024 activation tile three deep (80 KiB a step on 128 threads) spilled
    6 KB per thread and ran 30x slower. So the tiles a loop keeps in flight
    may take at most `register-budget` 32-bit registers per thread (on
    `num-warps` warps): over it, every load of the loop is issued one
    iteration ahead instead (double buffering), and when even that is over
    it, the loop is left alone; a remark says which.
  }];
  let options = [
    Option<"numWarps", "num-warps", "int64_t", /*default=*/"4",
           "Warps per thread block: how many threads share the tiles in "
           "flight">,
    Option<"registerBudget", "register-budget", "int64_t", /*default=*/"128",
           "32-bit registers per thread the tiles in flight of one loop may "
           "take">,
  ];
}

#endif // TILEOPT_TRANSFORMS_PASSES_TD
