//===- TBOps.td - Block graph operations -------------------*- tablegen -*-===//
#ifndef TILEOPT_DIALECT_TB_TBOPS_TD
#define TILEOPT_DIALECT_TB_TBOPS_TD

include "TileOpt/Dialect/TB/IR/TBDialect.td"
include "TileOpt/Dialect/TB/IR/TBEnums.td"
include "TileOpt/Dialect/TB/IR/TBInterfaces.td"
include "TileOpt/Dialect/TB/IR/TBTypes.td"
include "TileOpt/Dialect/Common/TileOptEnums.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Attributes and traits
//===----------------------------------------------------------------------===//

// The enums are shared with tk; the attribute classes are tb's own.
class TB_EnumAttr<EnumInfo info, string name>
    : EnumAttr<TB_Dialect, info, name> {
  let cppNamespace = "::mlir::tileopt::tb";
}

def TB_UnaryKindAttr : TB_EnumAttr<TileOpt_UnaryKind, "unary">;
def TB_BinaryKindAttr : TB_EnumAttr<TileOpt_BinaryKind, "binary">;
def TB_ReduceKindAttr : TB_EnumAttr<TileOpt_ReduceKind, "reduce">;
def TB_AccumKindAttr : TB_EnumAttr<TB_AccumKind, "accum">;

class TB_ComputeOp<string mnemonic, list<Trait> traits = []>
    : TB_Op<mnemonic, !listconcat(traits, [Pure, TB_InBlockGraph])> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Iterators, accumulators, savers
//===----------------------------------------------------------------------===//

def TB_InputIteratorOp : TB_Op<"input_iterator", [Pure, TB_InBlockGraph]> {
  let summary = "reads one block's tile of a device tensor per iteration";
  let description = [{
    `imap` has one entry per grid dim (x, y, z): the tensor dim that grid dim
    partitions, or -1 when every block along it reads the same data
    (replication). `fmap` is the tensor dim the for-loop iterations walk
    over, or -1 when every iteration reads the same tile. The tile shape is
    the tensor shape divided accordingly; every division must be exact.

    ```mlir
    // X: 16x4096, grid (1,1,1), 64 iterations over the hidden dim.
    %x = tb.input_iterator %X imap [-1, -1, -1] fmap 1
           : tensor<16x4096xf16> -> !tb.tile<16x64xf16>
    ```
  }];
  let arguments = (ins AnyStaticShapeTensor:$input, DenseI64ArrayAttr:$imap,
                       I64Attr:$fmap);
  let results = (outs TB_TileType:$result);
  let assemblyFormat = [{
    $input `imap` $imap `fmap` $fmap attr-dict `:` type($input) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TB_ForloopAccumOp : TB_Op<"forloop_accum", [Pure, TB_InBlockGraph]> {
  let summary = "combines a tile over all for-loop iterations";
  let description = [{
    Reduces the per-iteration tiles x_0 .. x_{F-1} of `input` (F is the
    for-loop range) elementwise:

    | kind | result |
    |---|---|
    | `none` | no reduction: each iteration's tile is kept; the output saver lays them out along its `fmap` dim |
    | `sum` | sum_i x_i |
    | `mean` | (1/F) sum_i x_i |
    | `rms` | sqrt((1/F) sum_i x_i^2) |
    | `max` | max_i x_i |
    | `sum_rescale` | sum_i exp(s_i - M) x_i with M = max_i s_i, `scale` s broadcast to x |

    `sum_rescale` is the accumulator of online softmax (FlashAttention):
    with s_i the running row maximum of iteration i it adds up partial
    results computed against different maxima, rescaled to the final one.
    Only `sum_rescale` takes a `scale` operand.
  }];
  let arguments = (ins TB_AccumKindAttr:$kind, TB_TileType:$input,
                       Optional<TB_TileType>:$scale);
  let results = (outs TB_TileType:$result);
  let assemblyFormat = [{
    ``$kind $input (`,` $scale^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TB_OutputSaverOp : TB_Op<"output_saver", [Pure, TB_InBlockGraph]> {
  let summary = "writes every block's accumulated tile into a device tensor";
  let description = [{
    The result is the device tensor assembled from the tiles of all blocks:
    `omap` has one entry per grid dim, the tensor dim along which the blocks
    of that grid dim place their tiles. A grid dim of size > 1 must be
    mapped, or blocks would overwrite each other's output. `fmap` (only after
    a `none` accumulator) is the tensor dim along which the iterations place
    their tiles.
  }];
  let arguments = (ins TB_TileType:$input, DenseI64ArrayAttr:$omap,
                       OptionalAttr<I64Attr>:$fmap);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = [{
    $input `omap` $omap (`fmap` $fmap^)? attr-dict `:`
    qualified(type($input)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TB_YieldOp : TB_Op<"yield", [Pure, ReturnLike, Terminator]> {
  let summary = "the outputs of a block graph";
  let description = [{
    Terminates a block graph. Its operands are output-saver results, one per
    result of the enclosing op, in order.
  }];
  let arguments = (ins Variadic<AnyStaticShapeTensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute on shared-memory tiles
//===----------------------------------------------------------------------===//

def TB_MatmulOp : TB_ComputeOp<"matmul"> {
  let summary = "tile matrix product (tensor cores)";
  let arguments = (ins TB_TileType:$lhs, TB_TileType:$rhs);
  let results = (outs TB_TileType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,`
    qualified(type($rhs)) `->` qualified(type($result))
  }];
}

def TB_UnaryOp : TB_ComputeOp<"unary", [SameOperandsAndResultType]> {
  let summary = "elementwise unary operator on a tile";
  let description = [{
    `mul_scalar` multiplies by the scalar in parentheses and `add_scalar`
    adds it: `tb.unary mul_scalar(1.250000e-01) %s : !tb.tile<64x64xf32>`.
    `add_scalar` is how a block graph adds an rms_norm's epsilon.
  }];
  let arguments = (ins TB_UnaryKindAttr:$kind, TB_TileType:$input,
                       OptionalAttr<F32Attr>:$scalar);
  let results = (outs TB_TileType:$result);
  let assemblyFormat = [{
    ``$kind (`(` $scalar^ `)`)? $input attr-dict `:` qualified(type($result))
  }];
}

def TB_BinaryOp : TB_ComputeOp<"binary"> {
  let summary = "elementwise binary operator on tiles, with broadcasting";
  let arguments = (ins TB_BinaryKindAttr:$kind, TB_TileType:$lhs,
                       TB_TileType:$rhs);
  let results = (outs TB_TileType:$result);
  let assemblyFormat = [{
    ``$kind $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,`
    qualified(type($rhs)) `->` qualified(type($result))
  }];
}

def TB_ReduceOp : TB_ComputeOp<"reduce"> {
  let summary = "reduces one dim of a tile to `to` elements (default 1)";
  let description = [{
    `to` n > 1 reduces groups of size/n consecutive elements each, Mirage's
    "reduction to dimx", used to keep a tile wide enough for tensor cores.
  }];
  let arguments = (ins TB_ReduceKindAttr:$kind, TB_TileType:$input,
                       I64Attr:$dim, OptionalAttr<I64Attr>:$to);
  let results = (outs TB_TileType:$result);
  let assemblyFormat = [{
    ``$kind $input `dim` $dim (`to` $to^)? attr-dict `:`
    qualified(type($input)) `->` qualified(type($result))
  }];
}

def TB_ConcatOp : TB_ComputeOp<"concat"> {
  let summary = "concatenates tiles along one dim";
  let arguments = (ins Variadic<TB_TileType>:$inputs, I64Attr:$dim);
  let results = (outs TB_TileType:$result);
  let assemblyFormat = [{
    $inputs `dim` $dim attr-dict `:` qualified(type($inputs)) `->`
    qualified(type($result))
  }];
}

def TB_RmsNormOp : TB_ComputeOp<"rms_norm", [SameOperandsAndResultType]> {
  let summary = "x / sqrt(mean(x^2) + epsilon) over the last dim of a tile";
  let description = [{
    Without `across`, each row of the tile is normalized on its own. With
    `across g`, a row is the concatenation of the rows of the blocks along
    grid dim g, in block order: the mean of the squares is taken over all
    of them, a grid-wide reduction. It lets one kernel normalize rows that
    no block holds whole, as the norm-transformer layer
    `rms_norm(X + rms_norm(Y @ W))` needs when each block computes a column
    tile of `Y @ W` (its iterators split the columns along g). Every block
    of the grid waits for the others there, so all of them must be
    resident at once: the superoptimizer builds such kernels with at most
    one block per SM, and the runtime refuses a launch the device cannot
    hold at once. The op lies outside the loop: after a reducing
    accumulator, or on tiles the loop does not walk.

    ```mlir
    // 64 blocks along x, each holding 64 of the 4096 columns of 8 rows.
    %n = tb.rms_norm %z across 0 {epsilon = 1.0e-05 : f32}
           : !tb.tile<8x64xf32>
    ```
  }];
  let arguments = (ins TB_TileType:$input,
                       DefaultValuedAttr<F32Attr, "0.0">:$epsilon,
                       OptionalAttr<ConfinedAttr<I64Attr,
                         [IntMinValue<0>, IntMaxValue<2>]>>:$across);
  let results = (outs TB_TileType:$result);
  let assemblyFormat = [{
    $input (`across` $across^)? attr-dict `:` qualified(type($result))
  }];
}

#endif // TILEOPT_DIALECT_TB_TBOPS_TD
