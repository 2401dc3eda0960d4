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

def AssignLayouts : Pass<"tileopt-assign-layouts"> {
  let summary = "Give every tile of a tile kernel its layout, and record how "
                "its tile.mma loops are pipelined";
  let description = [{
    A tile program says what a whole block computes; the code generator
    (`tileopt-lower-tile`) spreads each tile over the block's threads in a
    layout, and which layout a tile has decides the code around it: the
    accumulator of a `tile.mma` lives in the layout of the tensor cores that
    compute it, every other tile in row-major chunks. Those choices, and how
    a loop of `tile.mma` ops is pipelined, used to be made inside
    `tileopt-lower-tile` by editing the IR in place (string encodings the
    tile verifier rejects), and the pipelining decision was made again in
    each of the three places that needed it. This pass makes them once,
    ahead of every pass that reads them, and writes them into the IR as
    attributes of the tile dialect, so that its output is verified, can be
    printed, and is tested on its own (as Triton's
    `tritongpu-accelerate-matmul` records its MMA choice):

    * Tensor cores: on a chip with wgmma (`chip=sm_90a`), the `tile.mma` ops
      of a kernel run on wgmma when every one of them can (one accumulator
      layout serves the kernel); each that cannot gets a remark naming the
      limit, and the kernel keeps mma.sync.
    * Layouts: the accumulators and results of `tile.mma` ops, and what is
      tied to them (values a loop carries, elementwise ops on them, splat
      initial values), get `#tile.wgmma` or `#tile.mma_sync` (the warp grid
      as square as the rows allow); every other tile gets `#tile.blocked`
      with the widest chunk of at most 8 elements its shape allows. A
      `tile.convert_layout` moves a wgmma accumulator into the blocked
      layout where a `tile.reduce` or a `tile.mma` multiplicand takes it
      (an mma.sync accumulator is reduced and staged where it lies), and a
      loaded tile that joins an accumulator into the accumulator's layout.
      What the layouts cannot serve (an accumulator that a `tile.scan`
      takes, or that an `scf.if` gives) is an error at the op.
    * `tile.mma_pipeline` on each `scf.for` whose `tile.mma` ops multiply
      tiles loaded in its body with a latency hint of 2 or more, for mmas
      alone, into accumulators it carries (MmaStaging.h says exactly which):
      a ring of min(latency, 4) shared-memory stages, or as many as fit;
      copied by TMA where the mmas run on wgmma and every multiplicand load
      allows it (else a remark at each `allow_tma` load says why not), by
      cp.async otherwise; staged as wgmma's panels, or for mma.sync in
      swizzled rows (padded with `swizzle-staging=false`). Where no ring
      can be built (a thread would not copy whole 16-byte chunks, or two
      stages do not fit in shared memory) the loop gets
      `#tile.mma_pipeline<none>` and its hint a warning. A loop with the
      attribute is the code generator's: `tileopt-pipeline-tile-loads`
      leaves it alone, and `tileopt-lower-tile` builds the ring it
      describes.
    * `tile.lhs_staged` on a `tile.mma` that multiplies the left operand the
      `tile.mma` just before it staged in shared memory, with only loads,
      elementwise ops and scalar ops between them: the code generator
      stages it once (a gated MLP's X W1 and X W2).

    It runs before `tileopt-pipeline-tile-loads`, which keeps the layouts
    of the tiles it moves, and `tileopt-lower-tile` takes only kernels that
    have them, on as many warps. A kernel whose tiles have layouts already
    is left as it is. Errors name the op: tensor cores take rank-2 f16 or
    bf16 operands into f32 accumulators whose shapes the warp grid divides.
  }];
  let options = [
    Option<"numWarps", "num-warps", "int64_t", /*default=*/"4",
           "Warps per thread block (each of 32 threads): the layouts spread "
           "tiles over them">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target SM: sm_90a runs tile.mma on wgmma where it can">,
    Option<"swizzleStaging", "swizzle-staging", "bool", /*default=*/"true",
           "Lay out the shared-memory stages of mma.sync operands with "
           "XOR-swizzled 16-byte chunks instead of padded rows">
  ];
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
    left alone, and so are the loops that have a `tile.mma_pipeline`
    (`tileopt-assign-layouts` decides which): their `tile.mma`
    multiplicands are the code generator's, which pipelines them through
    shared memory with cp.async (or TMA) without holding the tiles in
    registers, or follows no hint of the loop where it cannot
    (`#tile.mma_pipeline<none>`). The code generator wants such a loop as
    it is, so its other loads are not prefetched either. A multiplicand
    that other ops read too (rmsnorm_linear's X, also squared) has no
    attribute and keeps its loop here, in registers. The tiles this pass
    moves keep their layouts.

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

def ViewUGraph : Pass<"tileopt-view-ugraph", "::mlir::ModuleOp"> {
  let summary = "Print a µGraph as a Graphviz picture: kernels with their "
                "block graphs nested";
  let description = [{
    A µGraph is read in three levels: the kernel graph of a function, the
    block graph inside each graph-defined kernel (`tk.fused`), and the loop
    every block runs. Upstream's `-view-op-graph` draws any IR, but it
    draws a block graph as one more region: it does not say which ops run
    once per loop iteration and which after the loop, and the launch shape
    lives in attributes it cuts short. This pass prints one DOT `digraph`
    of the module (https://www.graphviz.org/doc/info/lang.html) that does:

    * each function is a cluster; its arguments, its ops and its return are
      nodes, and values are edges from the op that defines them;
    * each op implementing `BlockGraphOpInterface` (`tk.fused`) is a cluster
      labelled with its grid, block and for-loop range, holding its region's
      arguments and ops; the ops a loop iteration runs (those reached from an
      input iterator that walks the loop, fmap >= 0) are a cluster of their
      own inside it, labelled with the range;
    * every op is labelled with its text, so a tile op shows its maps and its
      tile type, a reduction its kind and dim; input iterators and output
      savers are drawn as the kernel's doors, accumulators (`tb.forloop_accum`)
      filled, at the loop's exit; a `th.graph` lists its scalar ops;
    * a kernel's result is an edge from the output saver that writes it.

    The DOT goes to stderr, as `-view-op-graph`'s, or to the `output` file
    ("-" for stdout). The IR is not changed.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"\"",
           "Where the DOT goes: a file, - for stdout, nothing for stderr">,
  ];
}

#endif // TILEOPT_TRANSFORMS_PASSES_TD
