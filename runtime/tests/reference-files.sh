#!/usr/bin/env bash
# Usage: reference-files.sh <tileopt-run> <sample-artifact-dir> <fake-driver-dir>
#                           <python> <python-dir>
# tileopt-run with an interpreter reference (inputs.tensors and
# expected.tensors), end to end over the stand-in libcuda.so.1 of
# fake-driver/FakeCuda.cpp, on a 4 x 16 copy of the sample softmax: the
# files are picked up from the artifact and pass; a wrong expected value
# fails the check; the files given with --inputs/--expected are used; a lone
# or mismatched file is an error.
set -euo pipefail
tileopt_run=$1 sample=$2 python=$4
export LD_LIBRARY_PATH=$3${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PYTHONPATH=$5

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
art=$work/softmax
mkdir "$art"
sed -e 's/\[2048, 16384\]/[4, 16]/g; s/\[16384, 1\]/[16, 1]/g; s/\[2048, 1, 1\]/[4, 1, 1]/' \
  "$sample/manifest.json" >"$art/manifest.json"
cp "$sample"/*.cubin "$art/"

# Inputs, their exact softmax, and variants: one expected value 5% off, and
# inputs of the wrong dtype.
"$python" - "$art" "$work" <<'PY'
import math, random, sys
from tileopt import tensor_file as tf
art, work = sys.argv[1:]
rng = random.Random(3)
x = tf.rounded("bf16", [2 * rng.random() - 1 for _ in range(64)])
y = []
for r in range(4):
    e = [math.exp(v) for v in x[16 * r:16 * r + 16]]
    y += [v / sum(e) for v in e]
tf.write(f"{art}/inputs.tensors", [tf.Tensor("x", "bf16", [4, 16], x)])
tf.write(f"{art}/expected.tensors", [tf.Tensor("y", "f64", [4, 16], y)])
tf.write(f"{work}/inputs.tensors", [tf.Tensor("x", "bf16", [4, 16], x)])
y[37] *= 1.05
tf.write(f"{work}/wrong.tensors", [tf.Tensor("y", "f32", [4, 16], y)])
tf.write(f"{work}/f32-inputs.tensors", [tf.Tensor("x", "f32", [4, 16], x)])
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

expect 0 "^reference  tile interpreter: inputs $art/inputs.tensors" "$art"
expect 0 "^check      PASS$" "$art"
expect 1 "max_rel_err 4\.[0-9]*e-02 (tolerance 1e-02) at \[2, 5\]" \
  "$art" --inputs "$work/inputs.tensors" --expected "$work/wrong.tensors"
expect 2 "f32-inputs.tensors: tensor \"x\" is f32, input \"x\" is bf16" \
  "$art" --inputs "$work/f32-inputs.tensors" --expected "$art/expected.tensors"
rm "$art/expected.tensors"
expect 2 "inputs.tensors is there but .*expected.tensors is not" "$art"
rm "$art/inputs.tensors"
expect 0 "^reference  built-in row_softmax, random inputs (seed 1)" "$art"
