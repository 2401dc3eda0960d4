#!/usr/bin/env bash
# Usage: constants.sh <tileopt-run> <fake-driver-dir> <python> <python-dir>
# tileopt-run on an artifact with a constant buffer, end to end over the
# stand-in libcuda.so.1 of fake-driver/FakeCuda.cpp: y = x + w (add_f32),
# w a constant in constants.bin. tileopt-run must not fill w (random inputs
# skip it) and the artifact must upload it: with no reference the outputs
# hold no NaN; with interpreter reference files (x only) y = x + w passes
# and y = x fails; a tensor file that gives w, and a constants.bin too short
# for w, are errors.
set -euo pipefail
tileopt_run=$1 python=$3
export LD_LIBRARY_PATH=$2${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PYTHONPATH=$4

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
art=$work/add
mkdir "$art"
printf '\177ELF' >"$art/add.cubin"
cat >"$art/manifest.json" <<'JSON'
{ "format": "tileopt-artifact", "version": 1,
  "source_hash": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  "target": {"arch": "sm_90"},
  "buffers": [
    {"name": "x", "role": "input", "dtype": "f32", "shape": [4, 8], "strides": [8, 1]},
    {"name": "w", "role": "constant", "dtype": "f32", "shape": [4, 8], "strides": [8, 1],
     "data": {"file": "constants.bin", "offset": 32, "bytes": 128}},
    {"name": "y", "role": "output", "dtype": "f32", "shape": [4, 8], "strides": [8, 1]}],
  "kernels": [{"name": "add", "cubin": "add.cubin", "symbol": "add_f32",
               "block": [32, 1, 1], "shared_memory": {"static": 0, "dynamic": 0},
               "params": ["ptr", "ptr", "ptr", "i64"]}],
  "launches": [{"kernel": 0, "grid": [1, 1, 1],
                "args": [{"buffer": 0}, {"buffer": 1}, {"buffer": 2}, {"i64": 32}]}] }
JSON

# constants.bin: 32 bytes of something else, then w (little-endian f32);
# the tensor files of x, of y = x + w (as f32 adds them: exact) and of
# y = x.
"$python" - "$art" "$work" <<'PY'
import random, struct, sys
from tileopt import tensor_file as tf
art, work = sys.argv[1:]
w = [(i - 16) / 8 + 0.0625 for i in range(32)]
with open(f"{art}/constants.bin", "wb") as f:
    f.write(b"\x7f" * 32 + struct.pack("<32f", *w))
rng = random.Random(5)
x = tf.rounded("f32", [2 * rng.random() - 1 for _ in range(32)])
tf.write(f"{art}/inputs.tensors", [tf.Tensor("x", "f32", [4, 8], x)])
tf.write(f"{art}/expected.tensors",
         [tf.Tensor("y", "f32", [4, 8], tf.rounded("f32", [a + b for a, b in zip(x, w)]))])
tf.write(f"{work}/x-only.tensors", [tf.Tensor("y", "f64", [4, 8], x)])
tf.write(f"{work}/with-w.tensors",
         [tf.Tensor("x", "f32", [4, 8], x), tf.Tensor("w", "f32", [4, 8], w)])
PY

# expect <exit status> <pattern> <tileopt-run args...>
expect() {
  local want=$1 pattern=$2 status=0 output
  shift 2
  output=$("$tileopt_run" "$@" --iters 1 --warmup 0 2>&1) || status=$?
  echo "$output"
  if [ "$status" -ne "$want" ] || ! grep -q -- "$pattern" <<<"$output"; then
    echo "expected exit $want and \"$pattern\", got exit $status"
    exit 1
  fi
}

expect 0 "^artifact   $art: 3 buffers (1 constant, uploaded by the artifact)$" "$art"
expect 0 "^reference  tile interpreter" "$art"
expect 0 "^output     y f32 \[4, 8\]: max_rel_err 0\.000e+00 .* -> ok$" "$art"
expect 1 "^check      FAIL$" \
  "$art" --inputs "$art/inputs.tensors" --expected "$work/x-only.tensors"
expect 2 "with-w.tensors: tensor \"w\" names no input buffer (\"w\" is a constant buffer" \
  "$art" --inputs "$work/with-w.tensors" --expected "$art/expected.tensors"
# Random inputs, no reference: w is not filled (nor poisoned with NaN).
rm "$art/inputs.tensors" "$art/expected.tensors"
expect 0 "^reference  none, random inputs" "$art"
expect 0 "^output     y f32 \[4, 8\]: nan 0 -> ok$" "$art"
truncate -s 159 "$art/constants.bin"
expect 2 "buffers\[1\]\.data: \"$art/constants.bin\" holds 159 bytes, too few for constant buffer \"w\" (bytes 32 to 160)" "$art"
