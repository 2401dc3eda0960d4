//===- TKOps.td - Kernel graph dialect ---------------------*- tablegen -*-===//
#ifndef TILEOPT_DIALECT_TK_TKOPS_TD
#define TILEOPT_DIALECT_TK_TKOPS_TD

include "TileOpt/Dialect/Common/TileOptEnums.td"
include "TileOpt/Dialect/TB/IR/TBInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TK_Dialect : Dialect {
  let name = "tk";
  let cppNamespace = "::mlir::tileopt::tk";
  let summary = "Kernel graphs: tensor programs as a graph of GPU kernels";
  let description = [{
    A kernel graph is a function whose values are tensors in device memory
    and whose ops are kernel launches: a predefined operator (matmul,
    elementwise, reduction, rms_norm, data movement) or a graph-defined
    kernel, `tk.fused`, whose body is a block graph (`tb`). It is the top
    level of Mirage's µGraphs: the importer produces a kernel graph of
    predefined ops and the superoptimizer replaces parts of it with fused
    kernels that compute the same function.

    Shapes are static. Elementwise and reduction operators are defined on
    floating-point tensors.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::tileopt::tb::TBDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

// The enums are shared with tb; the attribute classes are tk's own.
class TK_EnumAttr<EnumInfo info, string name>
    : EnumAttr<TK_Dialect, info, name> {
  let cppNamespace = "::mlir::tileopt::tk";
}

def TK_UnaryKindAttr : TK_EnumAttr<TileOpt_UnaryKind, "unary">;
def TK_BinaryKindAttr : TK_EnumAttr<TileOpt_BinaryKind, "binary">;
def TK_ReduceKindAttr : TK_EnumAttr<TileOpt_ReduceKind, "reduce">;

// A tensor in device memory: static shape, no empty dims.
def TK_Tensor : Type<
    And<[AnyStaticShapeTensor.predicate,
         CPred<"::llvm::all_of(::llvm::cast<::mlir::ShapedType>($_self)"
               ".getShape(), [](int64_t d) { return d > 0; })">]>,
    "statically shaped tensor with positive dims", "::mlir::RankedTensorType">;

// The op only moves elements: its result holds the input's elements in
// another shape or order. The superoptimizer keeps such ops as kernels of
// their own and searches between them; the lowering copies.
def TK_LayoutChange : NativeOpTrait<"LayoutChange"> {
  let cppNamespace = "::mlir::tileopt::tk";
}

// The op applies one scalar function to every element of its operands,
// broadcast under numpy rules to the shape of its result: an element of the
// result reads the operands' elements at its own index alone. The
// superoptimizer relates such an op's dims so and places it wherever
// elementwise ops go, in a kernel of its own or inside a fused one.
def TK_Elementwise : NativeOpTrait<"Elementwise"> {
  let cppNamespace = "::mlir::tileopt::tk";
}

class TK_Op<string mnemonic, list<Trait> traits = []>
    : Op<TK_Dialect, mnemonic, !listconcat(traits, [Pure])> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Predefined kernels
//===----------------------------------------------------------------------===//

def TK_MatmulOp : TK_Op<"matmul"> {
  let summary = "batched matrix product over the last two dims";
  let description = [{
    As numpy.matmul: the leading (batch) dims of the operands broadcast,
    a missing dim counting as 1. A projection that every head applies to
    one shared matrix, `C @ Wk[h]`, is one op without copying `C`:

    ```mlir
    %k = tk.matmul %c, %wk : tensor<4096x512xf16>, tensor<16x512x128xf16>
                             -> tensor<16x4096x128xf16>
    ```
  }];
  let arguments = (ins TK_Tensor:$lhs, TK_Tensor:$rhs);
  let results = (outs TK_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def TK_UnaryOp
    : TK_Op<"unary", [SameOperandsAndResultType, TK_Elementwise]> {
  let summary = "elementwise unary operator";
  let description = [{
    exp, silu, gelu, relu, sqrt, rsqrt, square, neg, and multiplication by
    or addition of a scalar written in parentheses:
    `tk.unary mul_scalar(1.250000e-01) %x`, `tk.unary add_scalar(1.0e-05) %x`.
  }];
  let arguments = (ins TK_UnaryKindAttr:$kind, TK_Tensor:$input,
                       OptionalAttr<F32Attr>:$scalar);
  let results = (outs TK_Tensor:$result);
  let assemblyFormat = [{
    ``$kind (`(` $scalar^ `)`)? $input attr-dict `:` type($result)
  }];
}

def TK_BinaryOp : TK_Op<"binary", [TK_Elementwise]> {
  let summary = "elementwise binary operator with numpy broadcasting";
  let arguments = (ins TK_BinaryKindAttr:$kind, TK_Tensor:$lhs,
                       TK_Tensor:$rhs);
  let results = (outs TK_Tensor:$result);
  let assemblyFormat = [{
    ``$kind $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->`
    type($result)
  }];
}

def TK_MapOp
    : TK_Op<"map", [IsolatedFromAbove, SingleBlock, TK_Elementwise]> {
  let summary = "elementwise kernel of any scalar arith/math code";
  let description = [{
    Applies the scalar code of its region to every element of its operands,
    broadcast under numpy rules to the shape of the result. It is what the
    importer makes of an elementwise payload tk has no operator for: a tanh,
    a comparison and select (masks, clamps), a cast between float types, a
    constant the kinds do not take. The operands may have different float
    element types; the region's arguments have the operands' element types
    and `tk.yield` gives one element of the result. The region sees nothing
    else (IsolatedFromAbove): its constants stay in it when a rewrite folds
    the function around it.

    ```mlir
    %g = tk.map (%a = %x : tensor<8x64xf32>) -> tensor<8x64xf32> {
      %t = math.tanh %a : f32
      tk.yield %t : f32
    }
    ```

    The superoptimizer treats the region as an uninterpreted function of its
    operands (two maps are the same function when their regions are equal),
    so it fuses a map like any elementwise op without knowing what it
    computes; the interpreter evaluates it, op by op.
  }];
  let arguments = (ins Variadic<TK_Tensor>:$inputs);
  let results = (outs TK_Tensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
}

def TK_StructuredOp
    : TK_Op<"structured", [IsolatedFromAbove, SingleBlock]> {
  let summary = "a structured op TileOpt does not model, as a kernel of its own";
  let description = [{
    What the importer makes of a linalg op (or `tensor.pad`) that no tk op
    models — a convolution, a pooling window, padding, a payload that reads
    the iteration index or another tensor (`linalg.index`,
    `tensor.extract`) — so that a program is never refused for lack of a
    pattern. The region holds the op as one `linalg.generic` on the
    region's arguments (named ops generalized, a pad written as a generic
    that reads its source), with what builds its init (`tensor.empty`,
    `linalg.fill` of a constant, `arith.constant`), and yields its result.

    ```mlir
    %y = tk.structured (%a = %x : tensor<1x8x8x4xf32>, %b = %w : tensor<8x3x3x4xf32>)
        -> tensor<1x6x6x8xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<1x6x6x8xf32>
      %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
      %c = linalg.generic {...} ins(%a, %b : ...) outs(%init : ...) {...}
      tk.yield %c : tensor<1x6x6x8xf32>
    }
    ```

    The superoptimizer fuses nothing into it: it is a kernel of its own,
    between the segments it searches (docs/superoptimizer.md), and to the
    verifier an uninterpreted function of its operands. The lowering
    gives it a generic kernel, one output element per thread
    (docs/lowering.md); the interpreter evaluates the generic, loop by
    loop.
  }];
  let arguments = (ins Variadic<TK_Tensor>:$inputs);
  let results = (outs TK_Tensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The linalg.generic the region computes.
    ::mlir::linalg::GenericOp getGeneric();
  }];
}

def TK_YieldOp : Op<TK_Dialect, "yield", [Pure, ReturnLike, Terminator,
                                           ParentOneOf<["MapOp", "StructuredOp"]>]> {
  let summary = "the element a tk.map computes, the tensor a tk.structured computes";
  let arguments = (ins AnyTypeOf<[AnyInteger, AnyFloat, Index, TK_Tensor]>:$value);
  let assemblyFormat = "$value `:` type($value) attr-dict";
}

def TK_ReduceOp : TK_Op<"reduce"> {
  let summary = "sum, max or mean over one dim, kept with size 1";
  let arguments = (ins TK_ReduceKindAttr:$kind, TK_Tensor:$input,
                       I64Attr:$dim);
  let results = (outs TK_Tensor:$result);
  let assemblyFormat = [{
    ``$kind $input `dim` $dim attr-dict `:` type($input) `->` type($result)
  }];
}

def TK_RmsNormOp : TK_Op<"rms_norm", [SameOperandsAndResultType]> {
  let summary = "x / sqrt(mean(x^2) + epsilon) over the last dim";
  let arguments = (ins TK_Tensor:$input,
                       DefaultValuedAttr<F32Attr, "0.0">:$epsilon);
  let results = (outs TK_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def TK_ConcatOp : TK_Op<"concat", [TK_LayoutChange]> {
  let summary = "concatenates tensors along one dim";
  let arguments = (ins Variadic<TK_Tensor>:$inputs, I64Attr:$dim);
  let results = (outs TK_Tensor:$result);
  let assemblyFormat = [{
    $inputs `dim` $dim attr-dict `:` type($inputs) `->` type($result)
  }];
}

def TK_SplitOp : TK_Op<"split", [TK_LayoutChange]> {
  let summary = "splits a tensor along one dim; the result types give the sizes";
  let arguments = (ins TK_Tensor:$input, I64Attr:$dim);
  let results = (outs Variadic<TK_Tensor>:$results);
  let assemblyFormat = [{
    $input `dim` $dim attr-dict `:` type($input) `->` type($results)
  }];
}

def TK_ReshapeOp : TK_Op<"reshape", [TK_LayoutChange]> {
  let summary = "reinterprets a row-major tensor with another shape";
  let description = [{
    Folds: a reshape to the input's own type is the input, and a reshape of
    a reshape reshapes the first input.

    Once lowered, a reshape the function does not return is a view: its
    readers bind its input's buffer (`isView`, docs/lowering.md), and the
    cost model prices it at nothing. So is a returned reshape of a value
    that a computing kernel writes for it alone: that kernel writes the
    function's result buffer.
  }];
  let arguments = (ins TK_Tensor:$input);
  let results = (outs TK_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// Whether the lowering gives the result and the input one buffer
    /// (row-major, they are the same elements in the same order): the
    /// result is not returned, so its readers read the input's buffer; or
    /// it is, and its input is a computing kernel's result that nothing
    /// else reads (writesResultBuffer), so that kernel writes the result's.
    bool isView();
    /// Whether the op computing the input writes the function result this
    /// reshape is (see isView).
    bool writesResultBuffer();
  }];
}

def TK_TransposeOp : TK_Op<"transpose", [TK_LayoutChange]> {
  let summary = "permutes the dims: result dim i is input dim permutation[i]";
  let description = [{
    A transpose that only tiled computing kernels read is not a kernel of
    its own once lowered: they load the input's tiles and permute them
    (`readByKernelsOnly`, docs/lowering.md), and the cost model prices it
    at nothing. A structured op's generic kernel reads its operands' own
    buffers, so a transpose it reads is a copy.
  }];
  let arguments = (ins TK_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs TK_Tensor:$result);
  let assemblyFormat = [{
    $input $permutation attr-dict `:` type($input) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// Whether every reader of the result is a tiled computing kernel: none
    /// is a layout change, a tk.structured or the function's return.
    bool readByKernelsOnly();
  }];
}

//===----------------------------------------------------------------------===//
// Graph-defined kernels
//===----------------------------------------------------------------------===//

def TK_FusedOp : Op<TK_Dialect, "fused", [
    IsolatedFromAbove, SingleBlock, RecursiveMemoryEffects,
    TB_BlockGraphOpInterface]> {
  let summary = "a graph-defined kernel: one launch whose body is a block graph";
  let description = [{
    Launches `grid_dims` thread blocks of `block_dims` threads; each block
    runs the block graph in the region for `forloop_range` iterations. Each
    operand is bound to a region argument; tensors enter the block graph
    through `tb.input_iterator` and leave it through `tb.output_saver`,
    whose results `tb.yield` returns as the results of the kernel.

    ```mlir
    %y = tk.fused grid [48, 1, 1] block [128, 1, 1] forloop 64
           (%x = %X : tensor<16x4096xf16>, %w = %W : tensor<4096x6144xf16>)
           -> tensor<16x6144xf16> {
      %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
              : tensor<16x4096xf16> -> !tb.tile<16x64xf16>
      %wt = tb.input_iterator %w imap [1, -1, -1] fmap 0
              : tensor<4096x6144xf16> -> !tb.tile<64x128xf16>
      %p = tb.matmul %xt, %wt : !tb.tile<16x64xf16>, !tb.tile<64x128xf16>
             -> !tb.tile<16x128xf16>
      %acc = tb.forloop_accum sum %p : (!tb.tile<16x128xf16>) -> !tb.tile<16x128xf16>
      %out = tb.output_saver %acc omap [1, -1, -1]
               : !tb.tile<16x128xf16> -> tensor<16x6144xf16>
      tb.yield %out : tensor<16x6144xf16>
    }
    ```
  }];
  let arguments = (ins Variadic<TK_Tensor>:$inputs,
                       DenseI64ArrayAttr:$grid_dims,
                       DenseI64ArrayAttr:$block_dims,
                       I64Attr:$forloop_range);
  let results = (outs Variadic<TK_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

#endif // TILEOPT_DIALECT_TK_TKOPS_TD
