#!/usr/bin/env python3
"""The independent reference: run a TOSA program with upstream MLIR only.

    test/corpus/reference.py PROGRAM.mlir --seed=0            # draw inputs
    test/corpus/reference.py PROGRAM.mlir --inputs=IN.txt     # or read them
    test/corpus/reference.py PROGRAM.mlir --seed=0 --write-inputs=IN.txt

prints the program's results in tileopt-interp's text format (`tensor 2x3`
then the values, row-major; see tools/tileopt-interp/tileopt-interp.cpp).

How: a wrapper `@__reference_main` is appended to the program. It binds each
input to a `memref.global` holding the input's exact bytes (a global, not a
constant, so nothing folds the program on its inputs), calls the program's
function on tensors, extends f16/bf16 results to f32 with `tosa.cast`, and
prints each with `printMemrefF32` (libmlir_runner_utils). Stock `mlir-opt`
lowers the whole module (PIPELINE below: the TOSA -> linalg passes, one-shot
bufferization, linalg -> loops, then the LLVM dialect) and stock
`mlir-runner` JIT-compiles and runs it. Transcendentals go to libm
(erff, tanhf, expf, ...). Nothing here comes from TileOpt: only the LLVM
installation (`MLIR_TOOLS_DIR`, default /usr/lib/llvm-22/bin), Python and
NumPy.

Precision: arithmetic is in the program's element types (f16 ops round to
f16, as LLVM lowers them on the CPU); results print with 6 significant
digits (`printMemrefF32`), i.e. a relative error of at most 5e-7 each.

Inputs: uniform(-1, 1) unless the program's header says otherwise,

    // input %x: uniform(-8, 8)
    // input %mask: choice(0, 1)

drawn with NumPy's default_rng(seed), one argument after the other, and
rounded to the argument's element type (so the text file and the bytes in
the global hold the same values exactly).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

MLIR_TOOLS_DIR = Path(os.environ.get("MLIR_TOOLS_DIR", "/usr/lib/llvm-22/bin"))
MLIR_LIB_DIR = Path(os.environ.get("MLIR_LIB_DIR", MLIR_TOOLS_DIR.parent / "lib"))
RUNNER_LIBS = [MLIR_LIB_DIR / "libmlir_c_runner_utils.so", MLIR_LIB_DIR / "libmlir_runner_utils.so"]

# What TileOpt's docs/import.md gives as the way from TOSA to linalg.
TOSA_TO_LINALG = "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,tosa-to-arith)"

PIPELINE = ",".join([
    TOSA_TO_LINALG,
    # Function signatures become memrefs with the identity layout.
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}",
    "func.func(convert-linalg-to-loops)",
    "expand-strided-metadata",
    "lower-affine",
    "convert-scf-to-cf",
    # erf, tanh, exp, pow, ... -> libm calls (f16/bf16 are promoted to f32
    # around the call); what is left -> LLVM intrinsics.
    "func.func(math-expand-ops{ops=rsqrt})",  # libm has no rsqrtf
    "convert-math-to-libm",
    "convert-math-to-llvm",
    "convert-arith-to-llvm",
    "finalize-memref-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "convert-index-to-llvm",
    "reconcile-unrealized-casts",
])

ENTRY = "__reference_main"
FLOAT_TYPES = ("f16", "bf16", "f32", "f64")

# ---------------------------------------------------------------------------
# The program: signature and input distributions, read from its text
# ---------------------------------------------------------------------------


class Program:
    def __init__(self, path, function=None):
        self.path = Path(path)
        self.text = self.path.read_text()
        code = re.sub(r"//[^\n]*", "", self.text)
        funcs = list(re.finditer(r"func\.func\s+(private\s+)?@([\w$.-]+)\s*\(", code))
        public = [m for m in funcs if not m.group(1)]
        if function:
            chosen = [m for m in funcs if m.group(2) == function]
        else:
            chosen = public
        if len(chosen) != 1:
            raise ValueError(f"{path}: {'no' if not chosen else 'several'} functions to run; give --function")
        m = chosen[0]
        self.name = m.group(2)
        # The signature: up to the `{` of the body (it may span lines).
        args_text, rest = _balanced(code, m.end() - 1)
        results_text = rest[: rest.index("{")]
        self.args = [(n, *_parse_type(t)) for n, t in re.findall(r"%([\w$.-]+)\s*:\s*(tensor<[^>]*>)", args_text)]
        self.results = [_parse_type(t) for t in re.findall(r"tensor<[^>]*>", results_text)]
        if len(self.args) != len(re.findall(r"%[\w$.-]+\s*:", args_text)):
            raise ValueError(f"{path}: every argument of @{self.name} must be a ranked tensor")
        self.input_specs = dict(re.findall(r"^//\s*input\s+%([\w$.-]+)\s*:\s*(.+?)\s*$", self.text, re.M))
        for name in self.input_specs:
            if name not in [a[0] for a in self.args]:
                raise ValueError(f"{path}: `// input %{name}` names no argument of @{self.name}")
        self.is_module = re.match(r"\s*module\b", code) is not None

    def dtypes(self):
        """Every float element type the program's text mentions."""
        return set(re.findall(r"x?(bf16|f16|f32|f64)>", self.text))


def _balanced(text, open_at):
    """(the text inside the parentheses opening at open_at, what follows)."""
    depth = 0
    for i in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[open_at + 1 : i], text[i + 1 :]
    raise ValueError("unbalanced parentheses in a signature")


def _parse_type(t):
    body = t[len("tensor<") : -1]
    *dims, dtype = body.split("x")
    if any(not d.isdigit() for d in dims):
        raise ValueError(f"only static shapes: {t}")
    return tuple(int(d) for d in dims), dtype


def tensor_type(shape, dtype):
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype + ">"


def memref_type(shape, dtype):
    return "memref<" + "".join(f"{d}x" for d in shape) + dtype + ">"


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------


def bf16_bits(a):
    """float64 -> bf16 bit patterns, rounding to nearest even (via f32)."""
    bits = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def round_to(a, dtype):
    """The values of `a` rounded to dtype, as float64."""
    a = np.asarray(a, dtype=np.float64)
    if dtype == "f64":
        return a
    if dtype == "f32":
        return a.astype(np.float32).astype(np.float64)
    if dtype == "f16":
        return a.astype(np.float16).astype(np.float64)
    if dtype == "bf16":
        return (bf16_bits(a).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    raise ValueError(f"no inputs of type {dtype}")


def round_other_way(a, dtype):
    """The values of `a` rounded to the neighbour in dtype that round_to
    does not pick: the other side of each value (a 1/n that round_to rounds
    up comes out rounded down), as float64. Exact values stay."""
    a = np.asarray(a, dtype=np.float64)
    nearest = round_to(a, dtype)
    toward = np.where(nearest > a, -np.inf, np.inf)
    if dtype in ("f32", "f16"):
        t = np.float32 if dtype == "f32" else np.float16
        other = np.nextafter(nearest.astype(t), toward.astype(t)).astype(np.float64)
    elif dtype == "bf16":
        # bf16 is the upper half of an f32: its neighbour is one step of
        # the bf16 bits, whose direction depends on the sign.
        bits = nearest.astype(np.float32).view(np.uint32).astype(np.int64)
        up = (toward > 0) == (nearest >= 0)
        bits = bits + np.where(up, 1, -1) * 0x10000
        other = bits.astype(np.uint32).view(np.float32).astype(np.float64)
    else:
        raise ValueError(f"no rounding to {dtype}")
    return np.where(nearest == a, a, other)


def draw_inputs(program, seed):
    rng = np.random.default_rng(seed)
    inputs = []
    for name, shape, dtype in program.args:
        spec = program.input_specs.get(name, "uniform(-1, 1)")
        m = re.fullmatch(r"(uniform|choice)\((.*)\)", spec)
        if not m:
            raise ValueError(f"bad input spec for %{name}: {spec}")
        params = [float(p) for p in m.group(2).split(",")]
        if m.group(1) == "uniform":
            values = rng.uniform(params[0], params[1], size=shape)
        else:
            values = rng.choice(params, size=shape)
        inputs.append(round_to(values, dtype))
    return inputs


def raw_bytes(a, dtype):
    if dtype == "f64":
        return np.asarray(a, dtype="<f8").tobytes()
    if dtype == "f32":
        return np.asarray(a, dtype="<f4").tobytes()
    if dtype == "f16":
        return np.asarray(a, dtype="<f2").tobytes()
    if dtype == "bf16":
        return bf16_bits(a).astype("<u2").tobytes()
    raise ValueError(dtype)


# ---------------------------------------------------------------------------
# tileopt-interp's text format (written here from its description)
# ---------------------------------------------------------------------------


def format_tensors(arrays, comments=None):
    out = []
    for i, a in enumerate(arrays):
        if comments:
            out.append(f"# {comments[i]}")
        a = np.asarray(a, dtype=np.float64)
        out.append("tensor " + "x".join(str(d) for d in a.shape))
        row = a.shape[-1] if a.ndim else 1
        flat = [repr(float(v)) for v in a.reshape(-1)]
        out += [" ".join(flat[i : i + row]) for i in range(0, len(flat), max(row, 1))]
    return "\n".join(out) + "\n"


def parse_tensors(text):
    words = []
    for line in text.splitlines():
        words += line.split("#")[0].split()
    tensors, pos = [], 0
    while pos < len(words):
        if words[pos] != "tensor":
            raise ValueError(f"expected `tensor`, got {words[pos]!r}")
        shape = tuple(int(d) for d in words[pos + 1].split("x")) if pos + 1 < len(words) else ()
        n = int(np.prod(shape))
        values = [float(w) for w in words[pos + 2 : pos + 2 + n]]
        if len(values) != n:
            raise ValueError(f"tensor {words[pos + 1]} needs {n} values")
        tensors.append(np.array(values, dtype=np.float64).reshape(shape))
        pos += 2 + n
    return tensors


# ---------------------------------------------------------------------------
# The wrapper and the run
# ---------------------------------------------------------------------------


def wrapper(program, inputs):
    lines = []
    for i, ((_, shape, dtype), a) in enumerate(zip(program.args, inputs)):
        lines.append(f'memref.global "private" @__reference_in{i} : {memref_type(shape, dtype)} = '
                     f'dense<"0x{raw_bytes(a, dtype).hex().upper()}">')
    lines.append("func.func private @printMemrefF32(memref<*xf32>)")
    lines.append(f"func.func @{ENTRY}() {{")
    operands = []
    for i, (_, shape, dtype) in enumerate(program.args):
        m, t = memref_type(shape, dtype), tensor_type(shape, dtype)
        lines.append(f"  %in{i}_buf = memref.get_global @__reference_in{i} : {m}")
        lines.append(f"  %in{i} = bufferization.to_tensor %in{i}_buf restrict : {m} to {t}")
        operands.append(f"%in{i}")
    arg_types = ", ".join(tensor_type(s, d) for _, s, d in program.args)
    res_types = ", ".join(tensor_type(s, d) for s, d in program.results)
    n = len(program.results)
    lines.append(f"  %res{':' + str(n) if n > 1 else ''} = func.call @{program.name}({', '.join(operands)}) : "
                 f"({arg_types}) -> ({res_types})")
    for i, (shape, dtype) in enumerate(program.results):
        if dtype not in FLOAT_TYPES:
            raise ValueError(f"result #{i} of @{program.name} is {dtype}: only {FLOAT_TYPES} results are printed")
        r = f"%res#{i}" if n > 1 else "%res"
        t32 = tensor_type(shape, "f32")
        if dtype != "f32":
            lines.append(f"  %out{i}_f32 = tosa.cast {r} : ({tensor_type(shape, dtype)}) -> {t32}")
            r = f"%out{i}_f32"
        lines.append(f"  %out{i}_buf = bufferization.to_buffer {r} : {t32} to {memref_type(shape, 'f32')}")
        lines.append(f"  %out{i} = memref.cast %out{i}_buf : {memref_type(shape, 'f32')} to memref<*xf32>")
        lines.append(f"  func.call @printMemrefF32(%out{i}) : (memref<*xf32>) -> ()")
    lines.append("  return")
    lines.append("}")
    return "\n".join(lines) + "\n"


def with_wrapper(program, inputs):
    text = program.text
    if program.is_module:  # put the wrapper inside the module
        end = text.rindex("}")
        return text[:end] + wrapper(program, inputs) + text[end:]
    return text + "\n" + wrapper(program, inputs)


def parse_printed(stdout, results):
    """The tensors printMemrefF32 printed, checked against the signature."""
    chunks = stdout.split("Unranked Memref")[1:]
    if len(chunks) != len(results):
        raise RuntimeError(f"expected {len(results)} printed results, got {len(chunks)}:\n{stdout[:2000]}")
    out = []
    for chunk, (shape, _) in zip(chunks, results):
        sizes = re.search(r"sizes = \[([^\]]*)\]", chunk).group(1)
        printed = tuple(int(s) for s in sizes.split(",") if s.strip())
        if printed != tuple(shape):
            raise RuntimeError(f"printed sizes {printed}, expected {shape}")
        data = chunk.split("data =", 1)[1]
        words = re.findall(r"-?nan|-?inf|[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?", data)
        values = np.array([float(w) for w in words], dtype=np.float64)
        if values.size != int(np.prod(shape)):
            raise RuntimeError(f"{values.size} values printed, expected {int(np.prod(shape))}")
        out.append(values.reshape(shape))
    return out


class ReferenceError(RuntimeError):
    pass


def run_reference(program, inputs, keep_dir=None, timeout=300):
    """The program's results on `inputs` (float64 arrays), by upstream MLIR."""
    with tempfile.TemporaryDirectory(prefix="tileopt-reference-") as tmp:
        work = Path(keep_dir) if keep_dir else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        src, llvm = work / "wrapped.mlir", work / "lowered.mlir"
        src.write_text(with_wrapper(program, inputs))
        opt = subprocess.run([str(MLIR_TOOLS_DIR / "mlir-opt"), str(src), f"--pass-pipeline=builtin.module({PIPELINE})",
                              "-o", str(llvm)], capture_output=True, text=True, timeout=timeout)
        if opt.returncode:
            raise ReferenceError(f"mlir-opt failed on {program.path.name}:\n{opt.stderr[-4000:]}")
        run = subprocess.run([str(MLIR_TOOLS_DIR / "mlir-runner"), str(llvm), "-e", ENTRY,
                              "-entry-point-result=void", "-shared-libs=" + ",".join(str(l) for l in RUNNER_LIBS)],
                             capture_output=True, text=True, timeout=timeout)
        if run.returncode:
            raise ReferenceError(f"mlir-runner failed on {program.path.name}:\n{run.stderr[-4000:]}")
        return parse_printed(run.stdout, program.results)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("program")
    ap.add_argument("--function", help="the function to run (default: the only public one)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the drawn inputs (default 0)")
    ap.add_argument("--inputs", help="read the inputs from this file (tileopt-interp's format) instead")
    ap.add_argument("--write-inputs", help="also write the inputs used to this file")
    ap.add_argument("--keep", help="keep the wrapped and lowered modules in this directory")
    args = ap.parse_args()
    program = Program(args.program, args.function)
    if args.inputs:
        inputs = parse_tensors(Path(args.inputs).read_text())
        for (name, shape, dtype), a in zip(program.args, inputs):
            if a.shape != shape or not np.array_equal(round_to(a, dtype), a):
                sys.exit(f"input %{name}: expected {dtype} values of shape {shape}")
    else:
        inputs = draw_inputs(program, args.seed)
    if args.write_inputs:
        Path(args.write_inputs).write_text(format_tensors(inputs, [f"%{a[0]}" for a in program.args]))
    try:
        outputs = run_reference(program, inputs, args.keep)
    except ReferenceError as e:
        sys.exit(str(e))
    sys.stdout.write(format_tensors(outputs, [f"result #{i} of @{program.name} (upstream MLIR)"
                                              for i in range(len(outputs))]))


if __name__ == "__main__":
    main()
