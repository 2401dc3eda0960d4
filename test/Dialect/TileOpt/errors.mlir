// RUN: tileopt-opt %s -split-input-file -verify-diagnostics

// One case per error of the tileopt dialect's attribute verifiers.

// expected-error @+1 {{'tileopt.name' must be a non-empty string, got 3 : i64}}
func.func @name_not_a_string(%x: memref<4xf32> {tileopt.name = 3}) {
  return
}

// -----

// expected-error @+1 {{'tileopt.name' must be a non-empty string, got ""}}
func.func @name_empty(%x: memref<4xf32> {tileopt.name = ""}) {
  return
}

// -----

// expected-error @+1 {{arguments #0 and #1 are both buffer "x": buffer names must be unique}}
func.func @name_twice(%x: memref<4xf32> {tileopt.name = "x"},
                      %y: memref<4xf32> {tileopt.name = "x"}) {
  return
}

// -----

// expected-error @+1 {{'tileopt.name' marks a buffer: argument #0 must be a memref or a tensor of a function}}
func.func @name_of_a_scalar(%x: f32 {tileopt.name = "x"}) {
  return
}

// -----

// expected-error @+1 {{'tileopt.output' must be a unit attribute, got true}}
func.func @output_not_unit(%x: memref<4xf32> {tileopt.output = true}) {
  return
}

// -----

// expected-error @+1 {{'tileopt.output' marks a buffer: argument #0 must be a memref of a function}}
func.func @output_of_a_scalar(%x: i32 {tileopt.output}) {
  return
}

// -----

// expected-error @+1 {{'tileopt.scratch' marks a buffer: argument #0 must be a memref of a function}}
func.func @scratch_tensor(%x: tensor<4xf32> {tileopt.scratch}) {
  return
}

// -----

// expected-error @+1 {{argument #0 is both an output and scratch}}
func.func @output_and_scratch(%x: memref<4xf32> {tileopt.output, tileopt.scratch}) {
  return
}

// -----

// expected-error @+1 {{'tileopt.reference' is not an attribute of a function argument}}
func.func @reference_on_argument(%x: memref<4xf32> {tileopt.reference = "gemm"}) {
  return
}

// -----

// expected-error @+1 {{'tileopt.output' marks an argument of a host function, not an op}}
func.func @output_on_function() attributes {tileopt.output} {
  return
}

// -----

func.func @reference_on_op() {
  // expected-error @+1 {{'tileopt.reference' belongs on a function, not on 'arith.constant'}}
  %c = arith.constant {tileopt.reference = "gemm"} 0 : index
  return
}

// -----

// expected-error @+1 {{'tileopt.reference' must be a string naming a reference, got 1 : i64}}
func.func @reference_not_a_string() attributes {tileopt.reference = 1} {
  return
}

// -----

// expected-error @+1 {{'tileopt.reference_args' must be a dictionary of float arguments, got {eps = "small"}}}
func.func @reference_args_not_floats()
    attributes {tileopt.reference = "row_rms_norm",
                tileopt.reference_args = {eps = "small"}} {
  return
}

// -----

// expected-error @+1 {{'tileopt.reference_args' needs a 'tileopt.reference' to take them}}
func.func @reference_args_alone()
    attributes {tileopt.reference_args = {eps = 1.0e-6 : f64}} {
  return
}

// -----

// expected-error @+1 {{'tileopt.dynamic_shared_memory' must be a positive i64 count of bytes, got 0 : i64}}
func.func @dynamic_shared_memory_zero()
    attributes {tileopt.dynamic_shared_memory = 0 : i64} {
  return
}

// -----

// expected-error @+1 {{'tileopt.tensor_maps' must be an array of tensor maps, got {view = 0 : i64}}}
func.func @tensor_maps_not_an_array()
    attributes {tileopt.tensor_maps = {view = 0 : i64}} {
  return
}

// -----

// expected-error @+1 {{'tileopt.tensor_maps' entries are {view = <i64>, box = [<i64>, ...]}, got {view = 0 : i64}}}
func.func @tensor_map_without_box()
    attributes {tileopt.tensor_maps = [{view = 0 : i64}]} {
  return
}

// -----

// expected-error @+1 {{'tileopt.grid_sync' must be a unit attribute, got true}}
func.func @grid_sync_not_unit() attributes {tileopt.grid_sync = true} {
  return
}

// -----

// expected-error @+1 {{'tileopt.outputs' is not an attribute of the tileopt dialect}}
func.func @misspelled() attributes {tileopt.outputs} {
  return
}

// -----

// expected-error @+1 {{'tileopt.constant' must be dense elements of argument #0's shape and element type ('memref<4xf32>'), got dense<1.000000e+00> : tensor<2xf32>}}
func.func @constant_of_another_shape(%x: memref<4xf32> {tileopt.constant = dense<1.0> : tensor<2xf32>}) {
  return
}

// -----

// expected-error @+1 {{'tileopt.constant' must be dense elements of argument #0's shape and element type ('tensor<2xf32>'), got dense<1.000000e+00> : tensor<2xf16>}}
func.func @constant_of_another_type(%x: tensor<2xf32> {tileopt.constant = dense<1.0> : tensor<2xf16>}) {
  return
}

// -----

// expected-error @+1 {{argument #0 is both an output and a constant}}
func.func @constant_output(%x: memref<2xf32> {tileopt.output, tileopt.constant = dense<1.0> : tensor<2xf32>}) {
  return
}

// -----

// expected-error @+1 {{'tileopt.constant' marks a buffer: argument #0 must be a memref or a tensor of a function}}
func.func @constant_scalar(%x: f32 {tileopt.constant = dense<1.0> : tensor<f32>}) {
  return
}
