//===- Passes.td - The superoptimizer pass -----------------*- tablegen -*-===//
#ifndef TILEOPT_SUPEROPT_PASSES_TD
#define TILEOPT_SUPEROPT_PASSES_TD

include "mlir/Pass/PassBase.td"

def Superoptimize : Pass<"tileopt-superoptimize", "::mlir::func::FuncOp"> {
  let summary = "Replace a function of tk ops by the cheapest equivalent "
                "µGraph the search finds";
  let description = [{
    The importer gives one predefined kernel per tensor op; most of the
    speed of a fused GPU program is in what that misses (an rms_norm folded
    after a matmul, a gated MLP in one kernel). This pass searches, the way
    Mirage does, the kernel graphs of predefined and graph-defined kernels
    (`tk.fused` with block graphs) that compute the same function:

    - it enumerates kernel graphs up to `max-kernel-ops` launches, and for
      graph-defined kernels block graphs up to `max-block-ops` ops, each
      graph once (a canonical op order);
    - it first reassociates chains of matmuls into the order with the
      fewest flops (`tileopt-reassociate-matmuls`) and merges the batches
      of matmuls against a shared rhs into rows
      (`tileopt-merge-batch-rows`), verified against the program, and
      searches that form;
    - a program with layout changes (reshapes, transposes), which the
      search does not build, is searched in segments between them; ops
      whose values depend on one argument alone stay kernels of their own
      (docs/superoptimizer.md, step 11);
    - it prunes every partial graph whose abstract expression cannot be part
      of the program under the axioms in docs/superoptimizer.md;
    - it ranks complete graphs with the cost model of the target GPU and
      verifies them cheapest first with the probabilistic verifier: only
      verified graphs replace the function;
    - it compiles each verified graph as tileopt-compile would and leaves
      out those the code generator refuses or whose kernels ptxas spills
      (`compile-candidates`): the cost model mirrors neither, and such a
      graph can be slower than the program it replaces;
    - it prices and compiles the candidates for `chip` (tileopt-compile
      passes its `--chip`);
    - it runs on `threads` workers, stops at `time-budget` seconds or
      `graph-budget` partial graphs, prints progress with `progress`, and
      caches its answer under `cache-dir`, keyed by the program, the
      options and the chip;
    - a cost model is a guess: `candidates-dir` writes the ranked candidates
      out to be compiled and timed on a GPU, and `measured-times` ranks them
      by those times instead (scripts/rank-candidates.sh does both; the GPU
      need not be on the machine that searches).

    The function keeps its form, with a remark that says why, when the
    search cannot model it (an op without an abstract expression, mixed
    element types) or finds nothing cheaper. Elementwise chains in the
    chosen block graphs are left for `tileopt-fuse-thread-graphs`.
  }];
  let options = [
    Option<"maxKernelOps", "max-kernel-ops", "unsigned", "5",
           "Kernel launches in a candidate">,
    Option<"maxBlockOps", "max-block-ops", "unsigned", "11",
           "Compute ops and accumulators in a block graph">,
    Option<"maxFusedKernels", "max-fused-kernels", "unsigned", "2",
           "Graph-defined kernels in a candidate">,
    Option<"maxGridDims", "max-grid-dims", "unsigned", "2",
           "Grid dims a block graph partitions (1-3)">,
    Option<"maxBlockOutputs", "max-block-outputs", "unsigned", "3",
           "Outputs of a graph-defined kernel">,
    Option<"gridReductions", "grid-reductions", "bool", "false",
           "Let a graph-defined kernel normalize rows its blocks share, "
           "through a grid-wide barrier (tb.rms_norm across)">,
    Option<"threads", "threads", "unsigned", "0",
           "Worker threads (0: one per hardware thread)">,
    Option<"timeBudget", "time-budget", "double", "60",
           "Seconds before the search stops">,
    Option<"graphBudget", "graph-budget", "uint64_t", "50000000",
           "Partial graphs explored before the search stops">,
    Option<"blockGraphBudget", "block-graph-budget", "uint64_t", "4000000",
           "Partial block graphs explored per partition of a kernel's inputs">,
    Option<"seed", "seed", "uint64_t", "0",
           "Seed of the verifier's random tests">,
    Option<"chip", "chip", "std::string", "\"sm_90\"",
           "Chip the candidates are for (sm_80, sm_90, sm_90a): the cost "
           "model prices them with its limits (shared memory, registers, "
           "CUDA-core lanes) at the H200's rates, and compile-candidates "
           "compiles them for it">,
    Option<"reassociate", "reassociate", "bool", "true",
           "Search the program with its matmul chains in their cheapest "
           "order (tileopt-reassociate-matmuls), once verified">,
    Option<"mergeBatchRows", "merge-batch-rows", "bool", "true",
           "Search the program with the batches of its shared-rhs matmuls "
           "merged into rows (tileopt-merge-batch-rows), once verified">,
    Option<"compileCandidates", "compile-candidates", "bool", "true",
           "Compile each candidate before returning it (as tileopt-compile "
           "does, to PTX and through ptxas when found) and leave out those "
           "the code generator refuses or whose kernels spill registers">,
    Option<"progress", "progress", "bool", "false",
           "Print progress and statistics to stderr">,
    Option<"keep", "keep", "unsigned", "5",
           "Verified candidates to keep, cheapest first (the input program "
           "comes on top): what print-top and candidates-dir can show">,
    Option<"printTop", "print-top", "unsigned", "0",
           "Print the N cheapest verified candidates with their costs">,
    Option<"cacheDir", "cache-dir", "std::string", "\"\"",
           "Directory of cached results (empty: no cache)">,
    Option<"candidatesDir", "candidates-dir", "std::string", "\"\"",
           "Write the ranked candidates to <dir>/<function>/, one module "
           "each, and candidates.json (to time them on a GPU)">,
    Option<"measuredTimes", "measured-times", "std::string", "\"\"",
           "JSON file of the candidates' measured run times: rank by them "
           "rather than by the cost model">
  ];
  // The dialects of the µGraphs it builds. Compiling the candidates
  // (compile-candidates) loads its dialects into contexts of its own.
  let dependentDialects = ["::mlir::tileopt::tk::TKDialect",
                           "::mlir::tileopt::tb::TBDialect",
                           "::mlir::tileopt::th::THDialect"];
}

def EstimateCost : Pass<"tileopt-estimate-cost", "::mlir::func::FuncOp"> {
  let summary = "Report the cost model's estimate of each kernel of a "
                "function of tk ops";
  let description = [{
    The superoptimizer ranks candidates by an analytic estimate of their run
    time on the target GPU (docs/superoptimizer.md, "Cost model"). This pass
    gives the same estimate for a µGraph written by hand, or for the one the
    search chose: a remark on every kernel with its time, the component
    that bounds it and what the time is made of, and one on the function
    with the total. It lets the model be checked against measured times
    kernel by kernel (bench/tile/bench.py times the same µGraphs), which is
    how its constants were fitted. The IR is left as it is; a kernel the
    model cannot price gets an error and fails the pass.
  }];
  // A predefined kernel is priced as the lowering tiles it, and a tk.map's
  // tiling computes its elements in a th.graph.
  let dependentDialects = ["::mlir::tileopt::tk::TKDialect",
                           "::mlir::tileopt::tb::TBDialect",
                           "::mlir::tileopt::th::THDialect"];
}

def ReassociateMatmuls : Pass<"tileopt-reassociate-matmuls",
                              "::mlir::func::FuncOp"> {
  let summary = "Multiply chains of tk.matmul in the order that costs the "
                "fewest flops";
  let description = [{
    The µGraph search builds graphs of the program's operators as the
    program associates them; it does not try `(X @ A) @ B` for
    `X @ (A @ B)`. Where a thin operand meets a wide product, the order
    decides the flops by orders of magnitude: mla_decode's scores
    `Q @ (C @ Wk)^T` form the keys of every head (8.6 GFLOP), while
    `(Q @ Wk^T) @ C^T` never forms them (67 MFLOP). This pass rewrites

    - `X @ (A @ B)` to `(X @ A) @ B` and back,
    - `X @ (A @ B)^T` (a transpose of the last two dims) to
      `(X @ B^T) @ A^T`,

    each only where it lowers the function's flops and the product it
    reorders has no other use, until none applies. The superoptimizer runs
    it before its search and verifies the result against the program; the
    pass alone shows what it does.
  }];
  let dependentDialects = ["::mlir::tileopt::tk::TKDialect"];
}

def MergeBatchRows : Pass<"tileopt-merge-batch-rows", "::mlir::func::FuncOp"> {
  let summary = "Multiply a batch against a shared rhs as the rows of one "
                "matmul";
  let description = [{
    `A[h, m, k] @ B[k, n]` with B shared by every batch (tk.matmul
    broadcasts it) is `reshape(reshape(A)[h * m, k] @ B)`. The µGraph
    search builds block graphs of strict matmuls and partitions their rows:
    on rows, a kernel reads B once for all the batches, and the batches'
    rows fill the tensor cores' M. mla_decode, reassociated, holds two such
    products: the 16 heads' scores against one latent cache `C^T`, and
    their probabilities against `C`; on rows they are gqa_decode's
    attention with 16 query rows. The search does not build reshapes, so
    row-wise ops between the products (the softmax: reductions over the
    last dim, elementwise ops) move onto the rows too, once every use of
    theirs reshapes them to rows, and the reshapes in between cancel.
    The superoptimizer runs it before its search (option
    `merge-batch-rows`) and verifies the result against the program.
  }];
  let dependentDialects = ["::mlir::tileopt::tk::TKDialect"];
}

def AbsorbProducers : Pass<"tileopt-absorb-producers", "::mlir::func::FuncOp"> {
  let summary = "Compute row-local producer kernels inside the graph-defined "
                "kernels that read them";
  let description = [{
    A `tk.rms_norm` or `tk.unary` whose every use is a `tk.fused` input is
    moved into those kernels: each `tb.input_iterator` that reads it is
    followed by the same op on its tile (`tb.rms_norm`, `tb.unary`), and
    the kernel reads the producer's operand instead. An rms_norm moves only
    where every such tile holds whole rows (the last dim whole, not walked
    by the loop), since it normalizes over them. An rms_norm over another
    dim d, `transpose(rms_norm(transpose(x)))` with transposes that undo
    each other (how the importer writes it), moves where every tile holds d
    whole, as `x * rsqrt(mean(x^2 over d) + epsilon)` in tb ops
    (qknorm_attention's K, normalized over the head dim of each key). This
    saves a launch and a round trip of the tensor through device memory,
    and recomputes the op in every block that reads a tile of it.

    The superoptimizer keeps ops that depend on one argument alone as
    kernels of their own and searches the rest in segments; the fused form
    with such an op inside the next kernel needs one block op more than the
    segment's µGraph, past the depth its block search reaches. So it offers
    each spliced candidate with its kept producers absorbed as a candidate
    too, verified against the program and priced like any other
    (qknorm_attention: the rms_norms of Q and K inside the split-KV kernel).
  }];
  let dependentDialects = ["::mlir::tileopt::tb::TBDialect"];
}

#endif // TILEOPT_SUPEROPT_PASSES_TD
