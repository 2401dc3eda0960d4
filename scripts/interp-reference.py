#!/usr/bin/env python3
"""Writes an artifact's interpreter reference: seeded random inputs and the
outputs the tile interpreter (float64) computes from them, as
<artifact>/inputs.tensors and <artifact>/expected.tensors, which tileopt-run
then checks the GPU against (docs/artifact-format.md).

    scripts/interp-reference.py SOURCE.mlir ARTIFACT-DIR \\
        [--interp build/bin/tileopt-interp] [--seed 1] [--positive]
        [--scale 1]

SOURCE must be the file ARTIFACT-DIR was compiled from (its sha256 is the
manifest's source_hash). Inputs are uniform in [-1, 1], or (0, 1] with
--positive (a GEMM's, so that no output is a cancelling sum whose relative
error means nothing), times --scale (attention over products of such
inputs: scores of hundreds, whose f16 rounding between kernels the float64
reference does not share, move exp() by tens of percent), never zero,
rounded to the buffer's dtype: the
interpreter computes on exactly the values the GPU gets. Expected values are
stored as f64 for f64 outputs, f32 otherwise (its rounding, 6e-8 relative, is
far below the f32, f16 and bf16 tolerances).
"""

import argparse
import hashlib
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
from tileopt import tensor_file  # noqa: E402

FLOAT_DTYPES = ("f16", "bf16", "f32", "f64")


def fail(message):
    sys.exit(f"interp-reference: {message}")


def draw_inputs(buffers, seed, positive, scale):
    rng = random.Random(seed)
    tensors = []
    for b in buffers:
        if b["dtype"] not in FLOAT_DTYPES:
            fail(f"input {b['name']} is {b['dtype']}: the tile interpreter "
                 "takes float views only")
        n = math.prod(b["shape"])
        values = [scale * (1.0 - rng.random() if positive
                           else 2.0 * rng.random() - 1.0)
                  for _ in range(n)]
        values = tensor_file.rounded(b["dtype"], values)
        # Redraw the values that rounded to zero: a zero input hides
        # indexing bugs (tileopt-run's random inputs avoid it too).
        for i, v in enumerate(values):
            while v == 0.0:
                v = tensor_file.rounded(
                    b["dtype"], [scale * (2.0 * rng.random() - 1.0)])[0]
            values[i] = v
        tensors.append(tensor_file.Tensor(b["name"], b["dtype"], b["shape"], values))
    return tensors


def interpret(interp, source, inputs):
    """Runs the host function of `source` on `inputs`; returns its outputs
    as (shape, values) in argument order."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as text:
        # tileopt-interp's text format; repr() is exact for doubles.
        for t in inputs:
            text.write(f"# {t.name}\ntensor {'x'.join(map(str, t.shape))}\n")
            text.write(" ".join(map(repr, t.values)) + "\n")
        text.flush()
        run = subprocess.run([interp, str(source), "--domain=f64",
                              "--precision=17", f"--inputs={text.name}"],
                             capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"{interp} failed on {source}:\n{run.stderr}")
    outputs, words = [], iter(
        w for line in run.stdout.splitlines() if not line.startswith("#")
        for w in line.split())
    for word in words:
        if word != "tensor":
            fail(f"unexpected tileopt-interp output near {word!r}")
        shape = [int(d) for d in next(words).split("x")]
        outputs.append((shape, [float(next(words)) for _ in range(math.prod(shape))]))
    return outputs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("artifact", type=Path)
    parser.add_argument("--interp", default=os.environ.get(
        "TILEOPT_INTERP", "build/bin/tileopt-interp"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positive", action="store_true")
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()

    manifest = json.loads((args.artifact / "manifest.json").read_text())
    if hashlib.sha256(args.source.read_bytes()).hexdigest() != manifest["source_hash"]:
        fail(f"{args.artifact} was not compiled from {args.source} "
             "(the manifest's source_hash differs)")
    buffers = manifest["buffers"]
    inputs = draw_inputs([b for b in buffers if b["role"] == "input"],
                         args.seed, args.positive, args.scale)
    outputs = [b for b in buffers if b["role"] == "output"]
    results = interpret(args.interp, args.source, inputs)
    if len(results) != len(outputs):
        fail(f"the interpreter gave {len(results)} outputs, the manifest "
             f"has {len(outputs)}")
    expected = []
    for b, (shape, values) in zip(outputs, results):
        if shape != b["shape"]:
            fail(f"output {b['name']}: the interpreter's is {shape}, the "
                 f"manifest's {b['shape']}")
        unwritten = sum(map(math.isnan, values))
        if unwritten:
            fail(f"output {b['name']}: {unwritten} elements are NaN (never "
                 "written, or NaN from the inputs)")
        dtype = "f64" if b["dtype"] == "f64" else "f32"
        expected.append(tensor_file.Tensor(b["name"], dtype, shape, values))
    tensor_file.write(args.artifact / "inputs.tensors", inputs)
    tensor_file.write(args.artifact / "expected.tensors", expected)
    print(f"interp-reference: {args.artifact}/{{inputs,expected}}.tensors "
          f"(seed {args.seed}{', positive' if args.positive else ''}"
          f"{f', scale {args.scale:g}' if args.scale != 1.0 else ''})")


if __name__ == "__main__":
    main()
