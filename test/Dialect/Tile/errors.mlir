// RUN: tileopt-opt %s -split-input-file -verify-diagnostics

// One case per error the tile verifiers, traits and type verifier emit.

// expected-error @+1 {{'tile.kernel' op returns nothing: a tile kernel writes its outputs with tile.store}}
tile.kernel @with_result() -> i32 {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op needs a body}}
tile.kernel @declaration(%x: i32)

// -----

// expected-error @+1 {{'tile.kernel' op needs a body}}
"tile.kernel"() <{function_type = () -> (), sym_name = "empty_region"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'tile.kernel' op argument #1 has type 'memref<16xf32>'; kernel arguments are tensor views and scalars}}
tile.kernel @memref_arg(%n: i32, %m: memref<16xf32>) {
  tile.return
}

// -----

// expected-error @+1 {{argument #0 has type 'tensor<16xf32>'; kernel arguments are tensor views and scalars}}
tile.kernel @tensor_arg(%t: tensor<16xf32>) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op occupancy 0 is outside 1-32 blocks per SM}}
tile.kernel @occupancy_zero() attributes {occupancy = 0 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op occupancy 33 is outside 1-32 blocks per SM}}
tile.kernel @occupancy_high() attributes {occupancy = 33 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op num_ctas 3 is not one of 1, 2, 4, 8, 16}}
tile.kernel @num_ctas_three() attributes {num_ctas = 3 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op num_ctas 32 is not one of 1, 2, 4, 8, 16}}
tile.kernel @num_ctas_high() attributes {num_ctas = 32 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op num_ctas 0 is not one of 1, 2, 4, 8, 16}}
tile.kernel @num_ctas_zero() attributes {num_ctas = 0 : i32} {
  tile.return
}

// -----

func.func @return_outside() {
  // expected-error @+1 {{'tile.return' op expects parent op 'tile.kernel'}}
  tile.return
}

// -----

tile.kernel @return_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'tile.return' op expects parent op 'tile.kernel'}}
    tile.return
  }
  tile.return
}

// -----

func.func @block_id_outside() -> index {
  // expected-error @+1 {{'tile.block_id' op must be inside a tile.kernel}}
  %0 = tile.block_id x
  return %0 : index
}

// -----

func.func @num_blocks_outside() -> index {
  // expected-error @+1 {{'tile.num_blocks' op must be inside a tile.kernel}}
  %0 = tile.num_blocks y
  return %0 : index
}

// -----

func.func @load_outside(%v: !tile.view<?xf32>, %i: index) -> tensor<64xf32> {
  // expected-error @+1 {{'tile.load' op must be inside a tile.kernel}}
  %0 = tile.load %v[%i] : !tile.view<?xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

func.func @store_outside(%t: tensor<64xf32>, %v: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.store' op must be inside a tile.kernel}}
  tile.store %t, %v[%i] : tensor<64xf32>, !tile.view<?xf32>
  return
}

// -----

tile.kernel @load_index_count(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  // expected-error @+1 {{'tile.load' op needs 2 tile-space indices for a rank-2 view, got 1}}
  %0 = tile.load %v[%i] : !tile.view<?x?xf32> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @store_index_count(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  %t = tile.splat %s : f32 -> tensor<16x16xf32>
  // expected-error @+1 {{'tile.store' op needs 2 tile-space indices for a rank-2 view, got 3}}
  tile.store %t, %v[%i, %i, %i] : tensor<16x16xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

tile.kernel @load_tile_rank(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  // expected-error @+1 {{'tile.load' op tile rank 1 differs from the view rank 2}}
  %0 = tile.load %v[%i, %i] : !tile.view<?x?xf32> -> tensor<256xf32>
  tile.return
}

// -----

tile.kernel @store_tile_rank(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  %t = tile.splat %s : f32 -> tensor<16x16xf32>
  // expected-error @+1 {{'tile.store' op tile rank 2 differs from the view rank 1}}
  tile.store %t, %w[%i] : tensor<16x16xf32>, !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @load_element_type(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  // expected-error @+1 {{'tile.load' op tile element type 'f16' differs from the view's 'f32'}}
  %0 = tile.load %v[%i, %i] : !tile.view<?x?xf32> -> tensor<16x16xf16>
  tile.return
}

// -----

tile.kernel @store_element_type(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  %t = arith.constant dense<0> : tensor<16xi32>
  // expected-error @+1 {{'tile.store' op tile element type 'i32' differs from the view's 'f32'}}
  tile.store %t, %w[%i] : tensor<16xi32>, !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @load_latency_zero(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  // expected-error @+1 {{'tile.load' op latency 0 is outside 1-10}}
  %0 = tile.load %v[%i, %i] latency 0 : !tile.view<?x?xf32> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @load_latency_high(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  // expected-error @+1 {{'tile.load' op latency 11 is outside 1-10}}
  %0 = tile.load %v[%i, %i] latency 11 allow_tma : !tile.view<?x?xf32> -> tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @store_latency_zero(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  %t = tile.splat %s : f32 -> tensor<16xf32>
  // expected-error @+1 {{'tile.store' op latency 0 is outside 1-10}}
  tile.store %t, %w[%i] latency 0 : tensor<16xf32>, !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @store_latency_high(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  %t = tile.splat %s : f32 -> tensor<16xf32>
  // expected-error @+1 {{'tile.store' op latency 11 is outside 1-10}}
  tile.store %t, %w[%i] latency 11 : tensor<16xf32>, !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @tile_dim_result(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  // expected-error @+1 {{'tile.load' op tile dim 96 (dim 1 of result #0) is not a power of two}}
  %0 = tile.load %v[%i, %i] : !tile.view<?x?xf32> -> tensor<64x96xf32>
  tile.return
}

// -----

// The kernel checks the tensors of arith/math/scf ops too.
tile.kernel @tile_dim_of_arith_op(%v: !tile.view<?x?xf32>, %w: !tile.view<?xf32>, %s: f32, %i: index) {
  // expected-error @+1 {{'arith.constant' op tile dim 96 (dim 0 of result #0) is not a power of two}}
  %t = arith.constant dense<0.0> : tensor<96xf32>
  tile.store %t, %w[%i] : tensor<96xf32>, !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @tile_with_encoding(%w: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op tile result #0 carries the encoding "enc", which is not a tile layout (#tile.blocked, #tile.mma_sync, #tile.wgmma)}}
  %t = tile.load %w[%i] : !tile.view<?xf32> -> tensor<4xf32, "enc">
  tile.return
}

// -----

tile.kernel @float_padding_on_integers(%w: !tile.view<?xi32>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding nan needs floating-point elements, not 'i32'}}
  %t = tile.load %w[%i] padding nan : !tile.view<?xi32> -> tensor<4xi32>
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op occupancy -1 is outside 1-32 blocks per SM}}
tile.kernel @negative_occupancy() attributes {occupancy = -1 : i32} {
  tile.return
}

// -----

tile.kernel @negative_latency(%w: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op latency -1 is outside 1-10}}
  %t = tile.load %w[%i] latency -1 : !tile.view<?xf32> -> tensor<4xf32>
  tile.return
}

// -----

func.func @mma_unsigned(%a: tensor<16x16xui8>, %b: tensor<16x16xui8>, %c: tensor<16x16xsi32>) {
  // expected-error @+1 {{'tile.mma' op tensor cores do not multiply 'ui8' into a 'si32' accumulator}}
  %0 = tile.mma %a, %b, %c : tensor<16x16xui8>, tensor<16x16xui8>, tensor<16x16xsi32>
  return
}

// -----

func.func @tile_dim_mma_operand(%a: tensor<16x96xf16>, %b: tensor<96x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.mma' op tile dim 96 (dim 1 of operand #0) is not a power of two}}
  %0 = tile.mma %a, %b, %c : tensor<16x96xf16>, tensor<96x16xf16>, tensor<16x16xf32>
  return
}

// -----

func.func @tile_dim_zero(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.reshape' op tile dim 0 (dim 1 of result #0) is not a power of two}}
  %0 = tile.reshape %a : tensor<16xf32> -> tensor<16x0xf32>
  return
}

// -----

func.func @mma_rank4(%a: tensor<2x2x16x16xf16>, %c: tensor<2x2x16x16xf32>) {
  // expected-error @+1 {{'tile.mma' op takes rank-2 tiles, or rank 3 with a batch dim; got rank 4}}
  %0 = tile.mma %a, %a, %c : tensor<2x2x16x16xf16>, tensor<2x2x16x16xf16>, tensor<2x2x16x16xf32>
  return
}

// -----

func.func @mma_rank1(%a: tensor<16xf16>, %c: tensor<16xf32>) {
  // expected-error @+1 {{'tile.mma' op expects operands and result of one rank >= 2, got 1, 1 and 1}}
  %0 = tile.mma %a, %a, %c : tensor<16xf16>, tensor<16xf16>, tensor<16xf32>
  return
}

// -----

func.func @mma_rank_mismatch(%a: tensor<16x16xf16>, %b: tensor<2x16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.mma' op expects operands and result of one rank >= 2, got 2, 3 and 2}}
  %0 = tile.mma %a, %b, %c : tensor<16x16xf16>, tensor<2x16x16xf16>, tensor<16x16xf32>
  return
}

// -----

func.func @mma_batch(%a: tensor<2x16x16xf16>, %b: tensor<4x16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{'tile.mma' op batch dims differ: 2, 4 and 2}}
  %0 = tile.mma %a, %b, %c : tensor<2x16x16xf16>, tensor<4x16x16xf16>, tensor<2x16x16xf32>
  return
}

// -----

func.func @mma_contraction(%a: tensor<64x32xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op contraction dims differ: lhs has 32 columns, rhs has 16 rows}}
  %0 = tile.mma %a, %b, %c : tensor<64x32xf16>, tensor<16x64xf16>, tensor<64x64xf32>
  return
}

// -----

func.func @mma_result_shape(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op result must be 64x16 in its last two dims, got 64x64}}
  %0 = tile.mma %a, %b, %c : tensor<64x32xf16>, tensor<32x16xf16>, tensor<64x64xf32>
  return
}

// -----

func.func @mma_operand_types(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.mma' op operand element types differ: 'f16' and 'bf16'}}
  %0 = tile.mma %a, %b, %c : tensor<16x16xf16>, tensor<16x16xbf16>, tensor<16x16xf32>
  return
}

// -----

func.func @mma_bf16_f16(%a: tensor<16x16xbf16>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{'tile.mma' op tensor cores do not multiply 'bf16' into a 'f16' accumulator}}
  %0 = tile.mma %a, %a, %c : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf16>
  return
}

// -----

func.func @mma_i8_f32(%a: tensor<16x32xi8>, %b: tensor<32x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.mma' op tensor cores do not multiply 'i8' into a 'f32' accumulator}}
  %0 = tile.mma %a, %b, %c : tensor<16x32xi8>, tensor<32x16xi8>, tensor<16x16xf32>
  return
}

// -----

func.func @mma_f64(%a: tensor<16x16xf64>, %c: tensor<16x16xf64>) {
  // expected-error @+1 {{'tile.mma' op tensor cores do not multiply 'f64' into a 'f64' accumulator}}
  %0 = tile.mma %a, %a, %c : tensor<16x16xf64>, tensor<16x16xf64>, tensor<16x16xf64>
  return
}

// -----

func.func @mma_tf32_f16(%a: tensor<16x16xf32>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{'tile.mma' op tensor cores do not multiply 'f32' into a 'f16' accumulator}}
  %0 = tile.mma %a, %a, %c : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf16>
  return
}

// -----

func.func @reduce_dim_high(%a: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op reduction dim 2 is out of range for rank 2}}
  %0 = tile.reduce sum %a dim 2 : tensor<16x32xf32> -> tensor<16xf32>
  return
}

// -----

func.func @reduce_dim_negative(%a: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op reduction dim -1 is out of range for rank 2}}
  %0 = tile.reduce max %a dim -1 : tensor<16x32xf32> -> tensor<16xf32>
  return
}

// -----

func.func @reduce_result_shape(%a: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op result must drop dim 0 of the input, got 'tensor<16xf32>'}}
  %0 = tile.reduce sum %a dim 0 : tensor<16x32xf32> -> tensor<16xf32>
  return
}

// -----

func.func @reduce_keepdim(%a: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.reduce' op result must drop dim 1 of the input, got 'tensor<16x1xf32>'}}
  %0 = tile.reduce min %a dim 1 : tensor<16x32xf32> -> tensor<16x1xf32>
  return
}

// -----

func.func @reduce_element_type(%a: tensor<16x32xf16>) {
  // expected-error @+1 {{'tile.reduce' op element types differ: 'f16' and 'f32'}}
  %0 = tile.reduce sum %a dim 1 : tensor<16x32xf16> -> tensor<16xf32>
  return
}

// -----

func.func @scan_dim_high(%a: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.scan' op scan dim 2 is out of range for rank 2}}
  %0 = tile.scan sum %a dim 2 : tensor<16x32xf32>
  return
}

// -----

func.func @scan_dim_negative(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tile.scan' op scan dim -1 is out of range for rank 1}}
  %0 = tile.scan prod %a dim -1 reverse : tensor<16xf32>
  return
}

// -----

func.func @broadcast_rank(%a: tensor<16x1xf32>) {
  // expected-error @+1 {{'tile.broadcast' op keeps the rank: input has rank 2, result 3 (use tile.reshape to add unit dims)}}
  %0 = tile.broadcast %a : tensor<16x1xf32> -> tensor<4x16x8xf32>
  return
}

// -----

func.func @broadcast_dim(%a: tensor<16x2xf32>) {
  // expected-error @+1 {{'tile.broadcast' op cannot broadcast dim 1 of size 2 to 8}}
  %0 = tile.broadcast %a : tensor<16x2xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @broadcast_shrink(%a: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.broadcast' op cannot broadcast dim 0 of size 16 to 8}}
  %0 = tile.broadcast %a : tensor<16x8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @broadcast_element_type(%a: tensor<16x1xf32>) {
  // expected-error @+1 {{'tile.broadcast' op element types differ: 'f32' and 'f16'}}
  %0 = tile.broadcast %a : tensor<16x1xf32> -> tensor<16x8xf16>
  return
}

// -----

func.func @splat_type(%s: f32) {
  // expected-error @+1 {{'tile.splat' op scalar type 'f32' differs from the tile element type 'f16'}}
  %0 = tile.splat %s : f32 -> tensor<16x16xf16>
  return
}

// -----

func.func @splat_index(%s: index) {
  // expected-error @+1 {{'tile.splat' op scalar type 'index' differs from the tile element type 'i64'}}
  %0 = tile.splat %s : index -> tensor<16xi64>
  return
}

// -----

func.func @iota_rank() {
  // expected-error @+1 {{'tile.iota' op produces a 1-D tile of signless integers, got 'tensor<4x4xi32>'}}
  %0 = tile.iota : tensor<4x4xi32>
  return
}

// -----

func.func @iota_float() {
  // expected-error @+1 {{'tile.iota' op produces a 1-D tile of signless integers, got 'tensor<16xf32>'}}
  %0 = tile.iota : tensor<16xf32>
  return
}

// -----

func.func @iota_signed() {
  // expected-error @+1 {{'tile.iota' op produces a 1-D tile of signless integers, got 'tensor<16xsi32>'}}
  %0 = tile.iota : tensor<16xsi32>
  return
}

// -----

func.func @iota_index() {
  // expected-error @+1 {{'tile.iota' op produces a 1-D tile of signless integers, got 'tensor<16xindex>'}}
  %0 = tile.iota : tensor<16xindex>
  return
}

// -----

func.func @iota_too_long() {
  // expected-error @+1 {{'tile.iota' op cannot count to 255 in 'i8'}}
  %0 = tile.iota : tensor<256xi8>
  return
}

// -----

func.func @iota_i1() {
  // expected-error @+1 {{'tile.iota' op cannot count to 1 in 'i1'}}
  %0 = tile.iota : tensor<2xi1>
  return
}

// -----

func.func @reshape_count(%a: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.reshape' op cannot reshape 512 elements into 256}}
  %0 = tile.reshape %a : tensor<16x32xf32> -> tensor<256xf32>
  return
}

// -----

func.func @reshape_element_type(%a: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.reshape' op element types differ: 'f32' and 'i32'}}
  %0 = tile.reshape %a : tensor<16x32xf32> -> tensor<512xi32>
  return
}

// -----

func.func @permute_duplicate(%a: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.permute' op [1, 1] is not a permutation of 0..1}}
  %0 = tile.permute %a [1, 1] : tensor<16x32xf32> -> tensor<32x32xf32>
  return
}

// -----

func.func @permute_out_of_range(%a: tensor<2x16x32xf32>) {
  // expected-error @+1 {{'tile.permute' op [0, 3, 1] is not a permutation of 0..2}}
  %0 = tile.permute %a [0, 3, 1] : tensor<2x16x32xf32> -> tensor<2x32x16xf32>
  return
}

// -----

func.func @permute_length(%a: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.permute' op permutation has 3 entries for rank 2}}
  %0 = tile.permute %a [1, 0, 2] : tensor<16x32xf32> -> tensor<32x16xf32>
  return
}

// -----

func.func @permute_result_shape(%a: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.permute' op result shape must be 32x16, got 16x32}}
  %0 = tile.permute %a [1, 0] : tensor<16x32xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @permute_element_type(%a: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.permute' op element types differ: 'f32' and 'bf16'}}
  %0 = tile.permute %a [1, 0] : tensor<16x32xf32> -> tensor<32x16xbf16>
  return
}

// -----

// expected-error @+1 {{tensor view dims must be positive or ?, got 0}}
tile.kernel @view_zero_dim(%v: !tile.view<0x64xf32>) {
  tile.return
}

// -----

// expected-error @+1 {{a tensor view has at least one dimension}}
tile.kernel @view_rank0(%v: !tile.view<f32>) {
  tile.return
}

// -----

// expected-error @+1 {{tensor view elements must be integers or floats, got 'index'}}
tile.kernel @view_index(%v: !tile.view<?xindex>) {
  tile.return
}

// -----

// expected-error @+1 {{tensor view elements must be integers or floats, got 'complex<f32>'}}
tile.kernel @view_complex(%v: !tile.view<16x?xcomplex<f32>>) {
  tile.return
}

// -----

// expected-error @+1 {{tensor view elements must be integers or floats, got 'vector<4xf32>'}}
tile.kernel @view_vector(%v: !tile.view<16xvector<4xf32>>) {
  tile.return
}

// -----

func.func @mma_transposed_rhs_shape(%a: tensor<16x32xf16>, %b: tensor<32x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.mma' op contraction dims differ: lhs has 32 columns, the transposed rhs (32x16, N x K) has 16}}
  %0 = tile.mma %a, %b, %c {rhs_transposed} : tensor<16x32xf16>, tensor<32x16xf16>, tensor<16x16xf32>
  return
}

// -----

func.func @mma_transposed_rhs_batched(%a: tensor<2x16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{'tile.mma' op takes a transposed rhs of rank 2 only, got rank 3}}
  %0 = tile.mma %a, %a, %c {rhs_transposed} : tensor<2x16x16xf16>, tensor<2x16x16xf16>, tensor<2x16x16xf32>
  return
}

// -----

tile.kernel @copy_rows(%x: !tile.view<16x512xf16>) {
  tile.return
}

// A static view binds a buffer of another shape only with as many elements.
func.func @launch_count(%b: memref<16x1x256xf16>) {
  // expected-error @+1 {{'tile.launch' op argument #0 has 4096 elements where the view '!tile.view<16x512xf16>' has 8192}}
  tile.launch @copy_rows grid [1, 1, 1](%b) : memref<16x1x256xf16>
  return
}

// -----

tile.kernel @copy_any(%x: !tile.view<?x512xf16>) {
  tile.return
}

// A view with a dynamic dim takes its sizes from the buffer: same rank.
func.func @launch_dynamic(%b: memref<16x1x512xf16>) {
  // expected-error @+1 {{'tile.launch' op argument #0 must have rank 2 for the view '!tile.view<?x512xf16>', whose dynamic sizes it gives; got 'memref<16x1x512xf16>'}}
  tile.launch @copy_any grid [1, 1, 1](%b) : memref<16x1x512xf16>
  return
}

// -----

tile.kernel @copy_half(%x: !tile.view<16x512xf16>) {
  tile.return
}

func.func @launch_element_type(%b: memref<16x512xf32>) {
  // expected-error @+1 {{'tile.launch' op argument #0 must be a static-shape memref of element type 'f16' for the view '!tile.view<16x512xf16>', got 'memref<16x512xf32>'}}
  tile.launch @copy_half grid [1, 1, 1](%b) : memref<16x512xf32>
  return
}

// -----

tile.kernel @combine_f64(%v: !tile.view<16xf64>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0] : !tile.view<16xf64> -> tensor<16xf64>
  // expected-error @+1 {{'tile.reduce_across_blocks' op combines floats of at most 32 bits or i32 across blocks, got 'f64'}}
  %s = tile.reduce_across_blocks sum %t along x : tensor<16xf64>
  tile.return
}

// -----

// Every block must meet it exactly once: not in a loop.
tile.kernel @combine_in_loop(%v: !tile.view<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = tile.load %v[%c0] : !tile.view<16xf32> -> tensor<16xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @+1 {{'tile.reduce_across_blocks' op expects parent op 'tile.kernel'}}
    %s = tile.reduce_across_blocks sum %t along x : tensor<16xf32>
  }
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

// expected-error @+1 {{#tile.blocked needs 1-32 warps, got 0}}
#bad = #tile.blocked<chunk = 8, warps = 0>

// -----

// expected-error @+1 {{#tile.blocked chunks have 1, 2, 4 or 8 elements, got 16}}
#bad = #tile.blocked<chunk = 16, warps = 4>

// -----

tile.kernel @chunk_across_rows(%w: !tile.view<?x?xf32>, %i: index) {
  // expected-error @+1 {{#tile.blocked chunks of 8 elements do not divide the last dim (4)}}
  %t = tile.load %w[%i, %i] : !tile.view<?x?xf32> -> tensor<512x4xf32, #tile.blocked<chunk = 8, warps = 4>>
  tile.return
}

// -----

tile.kernel @replicated_chunk(%w: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{a tile of 64 elements, fewer than the 128 threads, is replicated: its #tile.blocked chunk is 1, got 2}}
  %t = tile.load %w[%i] : !tile.view<?xf32> -> tensor<64xf32, #tile.blocked<chunk = 2, warps = 4>>
  tile.return
}

// -----

tile.kernel @partial_chunks(%w: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{a tile of 256 elements does not deal whole chunks of 4 to 128 threads}}
  %t = tile.load %w[%i] : !tile.view<?xf32> -> tensor<256xf32, #tile.blocked<chunk = 4, warps = 4>>
  tile.return
}

// -----

// expected-error @+1 {{#tile.mma_sync needs a grid of [rows, columns] warps, powers of two and 32 in all at most, got [3, 1]}}
#bad = #tile.mma_sync<warps = [3, 1]>

// -----

// expected-error @+1 {{#tile.mma_sync needs a grid of [rows, columns] warps, powers of two and 32 in all at most, got [4]}}
#bad = #tile.mma_sync<warps = [4]>

// -----

// A product of warps that overflows int64 (found by test/fuzz/fuzz.py).
// expected-error @+1 {{#tile.mma_sync needs a grid of [rows, columns] warps, powers of two and 32 in all at most, got [2, 4611686018427387904]}}
#bad = #tile.mma_sync<warps = [2, 4611686018427387904]>

// -----

tile.kernel @mma_sync_rows(%w: !tile.view<?x?xf32>, %i: index) {
  // expected-error @+1 {{#tile.mma_sync needs rows a multiple of 32 and columns of 16, got 16x64}}
  %t = tile.load %w[%i, %i] : !tile.view<?x?xf32> -> tensor<16x64xf32, #tile.mma_sync<warps = [2, 2]>>
  tile.return
}

// -----

tile.kernel @mma_sync_batch(%w: !tile.view<?x?x?xf32>, %i: index) {
  // expected-error @+1 {{#tile.mma_sync lays out a matrix (with leading dims of 1 at most), got 2x32x32}}
  %t = tile.load %w[%i, %i, %i] : !tile.view<?x?x?xf32> -> tensor<2x32x32xf32, #tile.mma_sync<warps = [2, 2]>>
  tile.return
}

// -----

// expected-error @+1 {{#tile.wgmma needs 1-8 warpgroups, got 0}}
#bad = #tile.wgmma<warpgroups = 0>

// -----

tile.kernel @wgmma_rows(%w: !tile.view<?x?xf32>, %i: index) {
  // expected-error @+1 {{#tile.wgmma needs rows a multiple of 128 and columns of 8, got 64x64}}
  %t = tile.load %w[%i, %i] : !tile.view<?x?xf32> -> tensor<64x64xf32, #tile.wgmma<warpgroups = 2>>
  tile.return
}

// -----

tile.kernel @mixed_warps(%v: !tile.view<?xf32>, %w: !tile.view<?xf32>, %i: index) {
  %a = tile.load %v[%i] : !tile.view<?xf32> -> tensor<1024xf32, #tile.blocked<chunk = 8, warps = 4>>
  // expected-error @+1 {{'tile.load' op has a tile 'tensor<1024xf32, #tile.blocked<chunk = 4, warps = 8>>' laid out over 8 warps, where the kernel's tile 'tensor<1024xf32, #tile.blocked<chunk = 8, warps = 4>>' has 4}}
  %b = tile.load %w[%i] : !tile.view<?xf32> -> tensor<1024xf32, #tile.blocked<chunk = 4, warps = 8>>
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op has tiles with and without layouts ('tensor<1024xf32, #tile.blocked<chunk = 8, warps = 4>>' and 'tensor<1024xf32>'): tileopt-assign-layouts gives every tile one}}
tile.kernel @some_without_layout(%v: !tile.view<?xf32>, %w: !tile.view<?xf32>, %i: index) {
  %a = tile.load %v[%i] : !tile.view<?xf32> -> tensor<1024xf32, #tile.blocked<chunk = 8, warps = 4>>
  %b = tile.load %w[%i] : !tile.view<?xf32> -> tensor<1024xf32>
  tile.return
}

// -----

#blocked = #tile.blocked<chunk = 8, warps = 4>
tile.kernel @blocked_accumulator(%v: !tile.view<64x64xf16>, %w: !tile.view<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %v[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16, #blocked>
  %acc = tile.load %w[%c0, %c0] : !tile.view<64x64xf32> -> tensor<64x64xf32, #blocked>
  // expected-error @+1 {{'tile.mma' op accumulates in #tile.blocked<chunk = 8, warps = 4>; an accumulator has the layout of the tensor cores (#tile.mma_sync or #tile.wgmma)}}
  %r = tile.mma %a, %a, %acc : tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf32, #blocked>
  tile.return
}

// -----

#blocked = #tile.blocked<chunk = 8, warps = 4>
#mma = #tile.mma_sync<warps = [2, 2]>
tile.kernel @f32_product_in_mma_layout(%v: !tile.view<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %v[%c0, %c0] : !tile.view<64x64xf32> -> tensor<64x64xf32, #blocked>
  %acc = tile.load %v[%c0, %c0] : !tile.view<64x64xf32> -> tensor<64x64xf32, #mma>
  // expected-error @+1 {{'tile.mma' op accumulates in #tile.mma_sync<warps = [2, 2]>; a product of f32 operands runs on the CUDA cores, with the accumulator laid out as #tile.blocked}}
  %r = tile.mma %a, %a, %acc : tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>, tensor<64x64xf32, #mma>
  tile.return
}

// -----

#blocked = #tile.blocked<chunk = 8, warps = 4>
#mma = #tile.mma_sync<warps = [2, 2]>
tile.kernel @convert_shape(%v: !tile.view<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0, %c0] : !tile.view<64x64xf32> -> tensor<64x64xf32, #mma>
  // expected-error @+1 {{'tile.convert_layout' op keeps the shape and element type of the tile, got 'tensor<64x64xf32, #tile.mma_sync<warps = [2, 2]>>' -> 'tensor<32x128xf32, #tile.blocked<chunk = 8, warps = 4>>'}}
  %r = tile.convert_layout %t : tensor<64x64xf32, #mma> -> tensor<32x128xf32, #blocked>
  tile.return
}

// -----

// (Outside a kernel: within one, tiles with and without layouts do not mix.)
func.func @convert_without_layout(%t: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.convert_layout' op converts between layouts: its input and result need one each}}
  %r = tile.convert_layout %t : tensor<64x64xf32> -> tensor<64x64xf32, #tile.blocked<chunk = 8, warps = 4>>
  return
}

// -----

#blocked = #tile.blocked<chunk = 8, warps = 4>
tile.kernel @convert_to_itself(%v: !tile.view<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0, %c0] : !tile.view<64x64xf32> -> tensor<64x64xf32, #blocked>
  // expected-error @+1 {{'tile.convert_layout' op input and result have the same layout #tile.blocked<chunk = 8, warps = 4>; there is nothing to convert}}
  %r = tile.convert_layout %t : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// Decisions recorded for the code generator
//===----------------------------------------------------------------------===//

// expected-error @+1 {{a ring of 1 stages prefetches nothing; it needs 2 or more}}
#bad = #tile.mma_pipeline<cp_async, stages = 1, staging = padded>

// -----

// expected-error @+1 {{TMA lands its boxes as 128-byte swizzled panels: staging = panels, got swizzled}}
#bad = #tile.mma_pipeline<tma, stages = 3, staging = swizzled>

// -----

tile.kernel @pipeline_on_kernel() attributes {tile.mma_pipeline = #tile.mma_pipeline<none>} {
  tile.return
}
// expected-error @-3 {{'tile.mma_pipeline' belongs on an scf.for, not on 'tile.kernel'}}

// -----

tile.kernel @pipeline_not_an_attr(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.mma_pipeline' must be a #tile.mma_pipeline, got 3 : i64}}
  scf.for %k = %c0 to %n step %c1 {
  } {tile.mma_pipeline = 3}
  tile.return
}

// -----

tile.kernel @pipeline_without_mma(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.mma_pipeline' needs tile.mma ops in the loop it pipelines}}
  scf.for %k = %c0 to %n step %c1 {
  } {tile.mma_pipeline = #tile.mma_pipeline<none>}
  tile.return
}

// -----

tile.kernel @staged_lhs_not_on_mma(%v: !tile.view<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0, %c0] : !tile.view<64x64xf32> -> tensor<64x64xf32>
  // expected-error @+1 {{'tile.lhs_staged' belongs on a tile.mma, not on 'arith.negf'}}
  %r = arith.negf %t {tile.lhs_staged} : tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @staged_lhs_not_unit(%v: !tile.view<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %a = tile.load %v[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  // expected-error @+1 {{'tile.lhs_staged' is a unit attribute, got 1 : i64}}
  %r = tile.mma %a, %a, %acc {tile.lhs_staged = 1} : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @staged_lhs_of_another(%v: !tile.view<64x64xf16>, %w: !tile.view<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %a = tile.load %v[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %b = tile.load %w[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %p = tile.mma %a, %b, %acc : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  // expected-error @+1 {{'tile.lhs_staged' needs the tile.mma just before it in its block to multiply the same left operand on the same tensor cores, with only loads, elementwise ops and scalar ops between them}}
  %q = tile.mma %b, %a, %acc {tile.lhs_staged} : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @staged_lhs_across_reduce(%v: !tile.view<64x64xf16>, %w: !tile.view<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %a = tile.load %v[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %b = tile.load %w[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %p = tile.mma %a, %b, %acc : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  %s = tile.reduce sum %p dim 1 : tensor<64x64xf32> -> tensor<64xf32>
  // expected-error @+1 {{'tile.lhs_staged' needs the tile.mma just before it}}
  %q = tile.mma %a, %b, %acc {tile.lhs_staged} : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  tile.return
}

// -----

tile.kernel @unknown_tile_attr() attributes {tile.pipelined} {
  tile.return
}
// expected-error @-3 {{'tile.pipelined' is not an attribute of the tile dialect}}

// -----

tile.kernel @gather_type(%x: !tile.view<32xf32>) {
  %o = tile.iota : tensor<16xi32>
  // expected-error @+1 {{'tile.gather' op accesses elements of 'f32' as 'f16'}}
  %v = tile.gather %x[%o] : !tile.view<32xf32>, tensor<16xi32> -> tensor<16xf16>
  tile.return
}

// -----

tile.kernel @gather_offsets_shape(%x: !tile.view<32xf32>) {
  %o = tile.iota : tensor<8xi32>
  // expected-error @+1 {{'tile.gather' op has offsets of shape [8] for a tile of shape [16]}}
  %v = tile.gather %x[%o] : !tile.view<32xf32>, tensor<8xi32> -> tensor<16xf32>
  tile.return
}

// -----

tile.kernel @scatter_offsets_type(%x: !tile.view<32xf32>) {
  %o = tile.iota : tensor<16xi16>
  %v = arith.constant dense<1.0> : tensor<16xf32>
  // expected-error @+1 {{'tile.scatter' op takes offsets of i32 or i64, not 'i16'}}
  tile.scatter %v, %x[%o] : tensor<16xf32>, !tile.view<32xf32>, tensor<16xi16>
  tile.return
}
