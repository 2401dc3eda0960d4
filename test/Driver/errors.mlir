// Input tileopt-compile cannot take: a diagnostic that names the stage,
// the op and its source location, exit code 1 (not a crash), and no
// artifact directory. Each case runs under `sh -c '...; echo exit=$?'` so
// that the exit code itself is checked.
// RUN: rm -rf %t && split-file %s %t

// Malformed MLIR: the parser's error, at the character.
// RUN: sh -c '%tileopt_compile %t/malformed.mlir -o %t/art 2>&1; echo exit=$?' | FileCheck %s --check-prefix=MALFORMED
// RUN: not ls %t/art
// MALFORMED: malformed.mlir:2:36: error: expected ')'
// MALFORMED: exit=1{{$}}

// A function with no tensors: nothing to compile.
// RUN: sh -c '%tileopt_compile %t/no-tensors.mlir -o %t/art 2>&1; echo exit=$?' | FileCheck %s --check-prefix=NO-TENSORS
// RUN: not ls %t/art
// NO-TENSORS: no-tensors.mlir:1:1: error: the input holds no TOSA, linalg, tk or tile ops: nothing to compile
// NO-TENSORS: exit=1{{$}}

// Linalg on buffers (memrefs) rather than tensors.
// RUN: sh -c '%tileopt_compile %t/buffers.mlir -o %t/art 2>&1; echo exit=$?' | FileCheck %s --check-prefix=BUFFERS
// RUN: not ls %t/art
// BUFFERS: buffers.mlir:3:3: warning: cannot import 'linalg.generic': works on buffers; tk imports linalg on tensors
// BUFFERS: buffers.mlir:3:3: error: 'linalg.generic' was not imported into the kernel graph
// BUFFERS: buffers.mlir:3:3: note: in stage 'tk' (tileopt-import-linalg)
// BUFFERS: exit=1{{$}}

// Dynamic shapes, in TOSA: the stock TOSA passes refuse them.
// RUN: sh -c '%tileopt_compile %t/dynamic-tosa.mlir -o %t/art 2>&1; echo exit=$?' | FileCheck %s --check-prefix=DYNAMIC-TOSA
// RUN: not ls %t/art
// DYNAMIC-TOSA: dynamic-tosa.mlir:2:8: error: 'tosa.exp' op failed level check: operand shape dimension cannot be dynamic
// DYNAMIC-TOSA: dynamic-tosa.mlir:2:8: note: in stage 'linalg' (the upstream TOSA-to-linalg passes)
// DYNAMIC-TOSA: exit=1{{$}}

// Dynamic shapes, in linalg: the importer says why it cannot take the op.
// RUN: sh -c '%tileopt_compile %t/dynamic-linalg.mlir -o %t/art 2>&1; echo exit=$?' | FileCheck %s --check-prefix=DYNAMIC-LINALG
// RUN: not ls %t/art
// DYNAMIC-LINALG: dynamic-linalg.mlir:6:8: warning: cannot import 'linalg.generic': the result has type tensor<?x64xf32>; tk takes ranked tensors of static shape
// DYNAMIC-LINALG: dynamic-linalg.mlir:{{[0-9]+}}:{{[0-9]+}}: error: '{{.*}}' was not imported into the kernel graph
// DYNAMIC-LINALG: note: in stage 'tk' (tileopt-import-linalg)
// DYNAMIC-LINALG: exit=1{{$}}

// An element type TOSA does not have (i4 adds).
// RUN: sh -c '%tileopt_compile %t/i4-tosa.mlir -o %t/art 2>&1; echo exit=$?' | FileCheck %s --check-prefix=I4-TOSA
// RUN: not ls %t/art
// I4-TOSA: i4-tosa.mlir:2:8: error: 'tosa.add' op illegal: operation operand/result data types did not align with any profile or extension, got (i4,i4,i4)
// I4-TOSA: i4-tosa.mlir:2:8: note: in stage 'linalg' (the upstream TOSA-to-linalg passes)
// I4-TOSA: exit=1{{$}}

// Element types tk does not compute on: i4 and complex, in linalg.
// RUN: sh -c '%tileopt_compile %t/i4-linalg.mlir -o %t/art 2>&1; echo exit=$?' | FileCheck %s --check-prefix=I4-LINALG
// RUN: not ls %t/art
// I4-LINALG: i4-linalg.mlir:4:8: warning: cannot import 'linalg.generic': the result has type tensor<8x64xi4>; tk computes on float tensors
// I4-LINALG: i4-linalg.mlir:{{[0-9]+}}:{{[0-9]+}}: error: '{{.*}}' was not imported into the kernel graph
// I4-LINALG: note: in stage 'tk' (tileopt-import-linalg)
// I4-LINALG: exit=1{{$}}
// RUN: sh -c '%tileopt_compile %t/complex.mlir -o %t/art 2>&1; echo exit=$?' | FileCheck %s --check-prefix=COMPLEX
// RUN: not ls %t/art
// COMPLEX: complex.mlir:4:8: warning: cannot import 'linalg.generic': the result has type tensor<64xcomplex<f32>>; tk computes on float tensors
// COMPLEX: complex.mlir:{{[0-9]+}}:{{[0-9]+}}: error: '{{.*}}' was not imported into the kernel graph
// COMPLEX: note: in stage 'tk' (tileopt-import-linalg)
// COMPLEX: exit=1{{$}}

// A TOSA op the stock TOSA-to-linalg passes cannot take.
// RUN: sh -c '%tileopt_compile %t/custom.mlir -o %t/art 2>&1; echo exit=$?' | FileCheck %s --check-prefix=CUSTOM
// RUN: not ls %t/art
// CUSTOM: custom.mlir:2:8: error: failed to legalize operation 'tosa.custom'
// CUSTOM: custom.mlir:2:8: note: in stage 'linalg' (the upstream TOSA-to-linalg passes)
// CUSTOM: exit=1{{$}}

// A TOSA op whose linalg neither the importer nor a generic kernel takes
// (a gather's integer indices: tk values are float tensors), at the TOSA
// op's location. (A convolution imports: a kernel of its own.)
// RUN: sh -c '%tileopt_compile %t/gather.mlir -o %t/art 2>&1; echo exit=$?' | FileCheck %s --check-prefix=GATHER
// RUN: not ls %t/art
// GATHER: gather.mlir:2:8: warning: cannot import 'linalg.generic': {{.*}}; and no generic kernel computes it: it reads a value of type tensor<1x4xi32>, which no kernel graph value holds
// GATHER: gather.mlir:2:8: error: 'linalg.generic' was not imported into the kernel graph
// GATHER: gather.mlir:2:8: note: in stage 'tk' (tileopt-import-linalg)
// GATHER: exit=1{{$}}

// The same for --emit: an error and exit code 1, nothing on stdout.
// RUN: sh -c '%tileopt_compile %t/gather.mlir --emit=ugraph -o %t/gather.ugraph.mlir 2>&1; echo exit=$?' | FileCheck %s --check-prefix=GATHER
// RUN: not ls %t/gather.ugraph.mlir

//--- malformed.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tosa.abs %x : (tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

//--- no-tensors.mlir
func.func @f(%a: i32, %b: i32) -> i32 {
  %c = arith.addi %a, %b : i32
  return %c : i32
}

//--- buffers.mlir
#id = affine_map<(d0) -> (d0)>
func.func @f(%x: memref<64xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %b = math.exp %a : f32
    linalg.yield %b : f32
  }
  return
}

//--- dynamic-tosa.mlir
func.func @f(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %y = tosa.exp %x : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

//--- dynamic-linalg.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x64xf32>) outs(%e : tensor<?x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %b = math.exp %a : f32
    linalg.yield %b : f32
  } -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

//--- i4-tosa.mlir
func.func @f(%x: tensor<8x64xi4>, %y: tensor<8x64xi4>) -> tensor<8x64xi4> {
  %z = tosa.add %x, %y : (tensor<8x64xi4>, tensor<8x64xi4>) -> tensor<8x64xi4>
  return %z : tensor<8x64xi4>
}

//--- i4-linalg.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%x: tensor<8x64xi4>, %z: tensor<8x64xi4>) -> tensor<8x64xi4> {
  %e = tensor.empty() : tensor<8x64xi4>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %z : tensor<8x64xi4>, tensor<8x64xi4>) outs(%e : tensor<8x64xi4>) {
  ^bb0(%a: i4, %c: i4, %o: i4):
    %b = arith.addi %a, %c : i4
    linalg.yield %b : i4
  } -> tensor<8x64xi4>
  return %y : tensor<8x64xi4>
}

//--- complex.mlir
#id = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<64xcomplex<f32>>) -> tensor<64xcomplex<f32>> {
  %e = tensor.empty() : tensor<64xcomplex<f32>>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xcomplex<f32>>) outs(%e : tensor<64xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %o: complex<f32>):
    %b = complex.neg %a : complex<f32>
    linalg.yield %b : complex<f32>
  } -> tensor<64xcomplex<f32>>
  return %y : tensor<64xcomplex<f32>>
}

//--- custom.mlir
func.func @f(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = tosa.custom %x {domain_name = "acme", operator_name = "frobnicate", implementation_attrs = ""} : (tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

//--- gather.mlir
func.func @f(%x: tensor<1x16x8xf32>, %i: tensor<1x4xi32>) -> tensor<1x4x8xf32> {
  %y = tosa.gather %x, %i : (tensor<1x16x8xf32>, tensor<1x4xi32>) -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}
