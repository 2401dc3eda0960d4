// The search cache: on by default under $TILEOPT_CACHE_DIR (else
// ~/.cache/tileopt), or --cache-dir; one file per program and search
// options, written whole (a temporary file renamed into place). A second
// compile of the same program answers from it, says so in a remark, and
// prints the same µGraph; --no-cache neither reads nor writes it.
// RUN: rm -rf %t && mkdir -p %t

// Cold, then from the cache: the same µGraph.
// RUN: tileopt-compile %s --emit=ugraph --cache-dir=%t/cache --progress > %t/cold.mlir 2> %t/cold.err
// RUN: FileCheck %s --check-prefix=COLD --input-file=%t/cold.err
// COLD: [superopt] @silu:
// COLD-NOT: read from the cache
// RUN: ls %t/cache | FileCheck %s --check-prefix=ONE-ENTRY
// ONE-ENTRY: {{^[0-9a-f]+\.mlir$}}
// ONE-ENTRY-NOT: {{.}}
// RUN: tileopt-compile %s --emit=ugraph --cache-dir=%t/cache --progress > %t/warm.mlir 2> %t/warm.err
// RUN: FileCheck %s --check-prefix=HIT --input-file=%t/warm.err
// HIT: cache.mlir:{{[0-9]+}}:1: remark: superoptimized µGraph read from the cache {{.*}}cache{{/|\\}}{{[0-9a-f]+}}.mlir
// HIT-NOT: [superopt]
// RUN: diff %t/cold.mlir %t/warm.mlir
// RUN: FileCheck %s --check-prefix=UGRAPH --input-file=%t/warm.mlir
// UGRAPH-LABEL: func.func @silu(
// UGRAPH: tk.fused

// The arguments' names are not part of the key.
// RUN: sed -e 's/%%x/%%input/g' %s > %t/renamed.mlir
// RUN: tileopt-compile %t/renamed.mlir --emit=ugraph --cache-dir=%t/cache 2>&1 >/dev/null | FileCheck %s --check-prefix=HIT-ANY
// HIT-ANY: remark: superoptimized µGraph read from the cache

// The search's options are: another seed is another entry.
// RUN: tileopt-compile %s --emit=ugraph --cache-dir=%t/cache --seed=7 2>&1 >/dev/null | FileCheck %s --check-prefix=MISS --allow-empty
// MISS-NOT: read from the cache
// RUN: ls %t/cache | count 2

// So is the chip the compile is for: the search prices and compiles its
// candidates for it.
// RUN: tileopt-compile %s --emit=ugraph --cache-dir=%t/cache --chip=sm_80 2>&1 >/dev/null | FileCheck %s --check-prefix=MISS --allow-empty
// RUN: ls %t/cache | count 3
// RUN: tileopt-compile %s --emit=ugraph --cache-dir=%t/cache --chip=sm_80 2>&1 >/dev/null | FileCheck %s --check-prefix=HIT-ANY

// --no-cache: no remark, no files.
// RUN: tileopt-compile %s --emit=ugraph --no-cache 2>&1 >/dev/null | FileCheck %s --check-prefix=MISS --allow-empty
// RUN: env TILEOPT_CACHE_DIR=%t/unused tileopt-compile %s --emit=ugraph --no-cache
// RUN: not ls %t/unused

// $TILEOPT_CACHE_DIR is the default; --cache-dir wins over it.
// RUN: env TILEOPT_CACHE_DIR=%t/env tileopt-compile %s --emit=ugraph > /dev/null
// RUN: ls %t/env | count 1
// RUN: env TILEOPT_CACHE_DIR=%t/env tileopt-compile %s --emit=ugraph --cache-dir=%t/cache 2>&1 >/dev/null | FileCheck %s --check-prefix=HIT-ANY

// An entry cut short is a miss: searched again, and rewritten.
// RUN: env TILEOPT_CACHE_DIR=%t/broken tileopt-compile %s --emit=ugraph > /dev/null
// RUN: sh -c 'for f in %t/broken/*.mlir; do head -c 40 $f > $f.cut && mv $f.cut $f; done'
// RUN: env TILEOPT_CACHE_DIR=%t/broken tileopt-compile %s --emit=ugraph 2>&1 > %t/again.mlir | FileCheck %s --check-prefix=BROKEN
// BROKEN: remark: the cache entry {{.*}} is unreadable; searching again
// RUN: diff %t/cold.mlir %t/again.mlir
// RUN: env TILEOPT_CACHE_DIR=%t/broken tileopt-compile %s --emit=ugraph 2>&1 >/dev/null | FileCheck %s --check-prefix=HIT-ANY

// silu as a front end writes it: x * sigmoid(x).
func.func @silu(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %s = tosa.sigmoid %x : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %x, %s, %shift : (tensor<8x64xf32>, tensor<8x64xf32>, tensor<1xi8>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
