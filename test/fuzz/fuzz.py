#!/usr/bin/env python3
"""A mutation fuzzer of TileOpt's tools (issue 28, item 2).

Seeds are the .mlir files of examples/ and test/ (split at `// -----`), and
artifacts (manifest.json, kernels.cubin, constants.bin, tensor files). Each
mutant goes to one target:

  opt      tileopt-opt: the parser and verifiers of the tk, tb, tile and
           tileopt dialects (and upstream's), then the passes for the
           mutant's stage: the importer (linalg), the cost model and a
           small search (tk), the µGraph lowering and its rewrites (tk.fused),
           the tile lowering (tile). Mutants are run 40 to a process with
           --split-input-file; a batch that crashes is bisected to the
           mutant that does.
  compile  tileopt-compile --emit=ptx --search-threads=1 --time-budget=1
           --no-cache: every stage from the mutant's on, TOSA included.
  loader   tileopt-run over the stand-in CUDA driver of runtime/tests
           (fake-driver): the manifest reader, constants, tensor files and
           cubin loading of the runtime, on mutated artifacts.

A crash is a signal, an exit code other than 0 and 1, "LLVM ERROR",
"Assertion", "UNREACHABLE", a stack dump, or a time-out (a hang); a
diagnostic with exit code 1 is the right answer to a bad input. Crashes are
grouped by signature (the assertion, the fatal message, or the first
TileOpt frame of the stack) and written to --out with the command that
reproduces them; `--minimize FILE` shrinks one by deleting lines while the
signature holds.

    test/fuzz/fuzz.py --seed 1 --seconds 60 --out /tmp/fuzz
    test/fuzz/fuzz.py --minimize /tmp/fuzz/crash-....mlir --target opt --args '...'

The tools come from $TILEOPT_BUILD_DIR (default build/); the loader target
needs build/bin/tileopt-run and the stand-in driver, and is skipped without.
"""

import argparse
import hashlib
import json
import os
import random
import re
import resource
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

CRASH_MARKS = ("LLVM ERROR", "Assertion", "UNREACHABLE", "Stack dump", "PLEASE submit",
               "AddressSanitizer", "runtime error:")
# Crashes the lead is fixing (their XFAIL tests are test/Driver/bug-*.mlir):
# found again, they are counted as known, not new.
KNOWN = {
    "rank-0 tensor in TileToGPU's tile.load lowering (test/Driver/bug-rank0-crash.mlir)":
        re.compile(r"LoadLowering::matchAndRewrite|tile::LoadOp>::matchAndRewrite"),
    # Upstream's: the stock mlir-opt crashes on it too, inside any op's
    # parser (TileOpt's tile.kernel among them).
    "upstream MLIR: a dense array of index (test/fuzz/regressions/upstream_dense_array_of_index.mlir)":
        re.compile(r"Parser::parseDenseArrayAttr"),
    # Upstream's too: the stock mlir-opt crashes on it in linalg.transpose's
    # parser.
    "upstream MLIR: linalg.transpose's permutation written `=^[...]` "
    "(test/fuzz/regressions/upstream_permutation_caret.mlir)":
        re.compile(r"linalg::TransposeOp::parse"),
}
SPLIT = "// -----"


# --- seeds -------------------------------------------------------------------


def mlir_seeds():
    """The chunks of every .mlir file, comment lines dropped (RUN lines,
    CHECK lines, prose): what is left is the IR."""
    seeds = []
    for path in sorted([*ROOT.glob("examples/**/*.mlir"), *ROOT.glob("test/**/*.mlir")]):
        for chunk in path.read_text(errors="replace").split(SPLIT):
            lines = [line for line in chunk.splitlines() if not line.lstrip().startswith("//")]
            text = "\n".join(lines).strip()
            if text and len(text) < 20000:
                seeds.append(text + "\n")
    return seeds


def stage_of(text):
    if "tosa." in text:
        return "tosa"
    if "linalg." in text:
        return "linalg"
    if "tk.fused" in text:
        return "ugraph"
    if re.search(r"\btk\.", text):
        return "tk"
    if "tile.kernel" in text:
        return "tile"
    return "other"


# tileopt-opt's passes for each stage; a mutant at another stage is parsed and
# verified only.
OPT_PIPELINES = {
    "linalg": ["--tileopt-import-linalg"],
    "tk": ["--tileopt-estimate-cost",
           "--tileopt-superoptimize=threads=1 graph-budget=2000 block-graph-budget=200 time-budget=1 "
           "compile-candidates=0"],
    "ugraph": ["--tileopt-absorb-producers", "--tileopt-fuse-thread-graphs", "--tileopt-lower-ugraph"],
    "tile": ["--tileopt-assign-layouts", "--tileopt-pipeline-tile-loads", "--tileopt-lower-tile"],
}


# --- mutations of MLIR text ----------------------------------------------------

INTERESTING_INTS = [0, 1, 2, 3, 7, 16, 17, 31, 32, 33, 64, 127, 128, 255, 256, 1023, 1024, 4096, 65535, 65536,
                    2**31 - 1, 2**31, 2**32, 2**62, 2**63 - 1, -1, -2, -128, -(2**31), -(2**63)]
ELEMENT_TYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i16", "i32", "i64", "index", "f8E4M3FN", "complex<f32>",
                 "tf32"]
SHAPED = re.compile(r"(tensor|memref|vector|!tb\.tile|!tile\.[a-z_]+)<([^<>]*)>")
INT = re.compile(r"(?<![\w%#.^@])-?\d+(?![\w.])")
FLOAT = re.compile(r"-?\d+\.\d+(e[-+]?\d+)?")
SSA = re.compile(r"%[\w.$-]+(#\d+)?")
WORD = re.compile(r"\b[a-z_][a-z_0-9]*\b")


def pick_match(rng, pattern, text):
    matches = list(pattern.finditer(text))
    return rng.choice(matches) if matches else None


def replace_span(text, match, new, group=0):
    return text[:match.start(group)] + new + text[match.end(group):]


def mutate_shape(rng, text, _):
    m = pick_match(rng, SHAPED, text)
    if not m:
        return None
    parts = m.group(2).split("x")
    dims = [i for i, p in enumerate(parts[:-1]) if p.isdigit() or p == "?"]
    choice = rng.random()
    if dims and choice < 0.6:
        i = rng.choice(dims)
        old = int(parts[i]) if parts[i].isdigit() else 4
        parts[i] = str(rng.choice([0, 1, 2, old - 1, old + 1, old * 2, old * 3, 3, 17, 1 << 20, 1 << 40]))
        if rng.random() < 0.1:
            parts[i] = "?"
    elif dims and choice < 0.8:
        del parts[rng.choice(dims)]  # rank - 1 (rank 0 when it was 1)
    else:
        parts.insert(rng.randrange(len(parts)), str(rng.choice([1, 2, 3, 8])))  # rank + 1
    return replace_span(text, m, "x".join(parts), 2)


def mutate_element_type(rng, text, _):
    m = pick_match(rng, re.compile(r"\b(f32|f16|bf16|f64|i1|i8|i32|i64|index)\b"), text)
    return m and replace_span(text, m, rng.choice(ELEMENT_TYPES))


def mutate_all_of_a_type(rng, text, _):
    """Every f32 becomes f16 (or the like): a consistent program in another
    type, which gets past the verifiers more often than one change."""
    old, new = rng.sample(["f32", "f16", "bf16", "f64", "i32"], 2)
    return re.sub(rf"\b{old}\b", new, text) if re.search(rf"\b{old}\b", text) else None


def mutate_integer(rng, text, _):
    m = pick_match(rng, INT, text)
    if not m:
        return None
    old = int(m.group(0))
    new = rng.choice(INTERESTING_INTS + [old + 1, old - 1, -old, old * 2])
    return replace_span(text, m, str(new))


def mutate_float(rng, text, _):
    m = pick_match(rng, FLOAT, text)
    return m and replace_span(text, m, rng.choice(["0.0", "-0.0", "1.0e+38", "3.4028235e+38", "1.0e-45", "-1.0",
                                                   "0x7FC00000", "0x7F800000", "0xFF800000", "65504.0", "1.0e+300"]))


def mutate_integer_list(rng, text, _):
    m = pick_match(rng, re.compile(r"\[(-?\d+(?:,\s*-?\d+)*)\]"), text)
    if not m:
        return None
    values = [v.strip() for v in m.group(1).split(",")]
    action = rng.randrange(4)
    if action == 0 and len(values) > 1:
        del values[rng.randrange(len(values))]
    elif action == 1:
        values.insert(rng.randrange(len(values) + 1), rng.choice(values))
    elif action == 2:
        rng.shuffle(values)
    else:
        values[rng.randrange(len(values))] = str(rng.choice([-1, 0, 1, 2, 3, 5, 64, 1 << 31]))
    return replace_span(text, m, ", ".join(values), 1)


def op_lines(text):
    lines = text.splitlines(keepends=True)
    return lines, [i for i, line in enumerate(lines)
                   if re.match(r"\s*(%[\w#:, %]+=\s*)?\"?[a-z_]+\.[a-z_.]+", line) and "func.func" not in line
                   and "return" not in line and "yield" not in line]


def mutate_delete_op(rng, text, _):
    lines, ops = op_lines(text)
    if not ops:
        return None
    del lines[rng.choice(ops)]
    return "".join(lines)


def mutate_duplicate_op(rng, text, _):
    """An op again, its results renamed, right after itself: dead but
    well formed, or a second writer of the same output."""
    lines, ops = op_lines(text)
    if not ops:
        return None
    i = rng.choice(ops)
    copy = re.sub(r"^(\s*)%([\w]+)", r"\1%\2_dup", lines[i])
    lines.insert(i + 1, copy)
    return "".join(lines)


def mutate_move_op(rng, text, _):
    lines, ops = op_lines(text)
    if len(ops) < 2:
        return None
    i, j = rng.sample(ops, 2)
    lines.insert(j, lines.pop(i))
    return "".join(lines)


def mutate_swap_operands(rng, text, _):
    m = pick_match(rng, re.compile(r"(%[\w#]+)(,\s*)(%[\w#]+)"), text)
    return m and text[:m.start()] + m.group(3) + m.group(2) + m.group(1) + text[m.end():]


def mutate_use(rng, text, _):
    """A use of one value replaced by another value of the function."""
    names = sorted(set(m.group(0) for m in SSA.finditer(text)))
    uses = [m for m in SSA.finditer(text) if not re.match(r"\s*=|:", text[m.end():])]
    if len(names) < 2 or not uses:
        return None
    m = rng.choice(uses)
    return replace_span(text, m, rng.choice(names))


def mutate_keyword(rng, text, vocabulary):
    """A word (an op name's suffix, an enum value, a keyword) replaced by
    another word from the seeds."""
    m = pick_match(rng, WORD, text)
    return m and replace_span(text, m, rng.choice(vocabulary))


def mutate_op_name(rng, text, vocabulary_ops):
    m = pick_match(rng, re.compile(r"\b(tk|tb|tile|tileopt|tosa|linalg|arith|math)\.[a-z_]+"), text)
    if not m:
        return None
    dialect = m.group(1)
    same = [op for op in vocabulary_ops if op.startswith(dialect + ".")]
    return replace_span(text, m, rng.choice(same or vocabulary_ops))


def mutate_splice(rng, text, seeds):
    """Lines of another seed pasted in."""
    other = rng.choice(seeds).splitlines(keepends=True)
    lines = text.splitlines(keepends=True)
    if not other or not lines:
        return None
    a = rng.randrange(len(other))
    b = min(len(other), a + rng.randint(1, 4))
    at = rng.randrange(len(lines))
    return "".join(lines[:at] + other[a:b] + lines[at:])


def mutate_bytes(rng, text, _):
    """Token-level: a character deleted, duplicated or replaced; a cut."""
    if not text:
        return None
    i = rng.randrange(len(text))
    action = rng.randrange(4)
    if action == 0:
        return text[:i] + text[i + 1:]
    if action == 1:
        return text[:i] + text[i] + text[i:]
    if action == 2:
        return text[:i] + rng.choice("()<>[]{},:=%#@x?-0123456789\"!^") + text[i + 1:]
    return text[:i]


MUTATORS = [
    (mutate_shape, 6), (mutate_element_type, 4), (mutate_all_of_a_type, 2), (mutate_integer, 5),
    (mutate_float, 1), (mutate_integer_list, 4), (mutate_delete_op, 3), (mutate_duplicate_op, 2),
    (mutate_move_op, 1), (mutate_swap_operands, 3), (mutate_use, 3), (mutate_keyword, 3), (mutate_op_name, 3),
    (mutate_splice, 1), (mutate_bytes, 2),
]


class Mutator:
    def __init__(self, seeds):
        self.seeds = seeds
        text = "\n".join(seeds)
        self.words = sorted(set(WORD.findall(text)))
        self.ops = sorted(set(re.findall(r"\b(?:tk|tb|tile|tileopt|tosa|linalg|arith|math)\.[a-z_]+", text)))
        self.functions, weights = zip(*MUTATORS)
        self.weights = weights

    def mutate(self, rng, text):
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            fn = rng.choices(self.functions, self.weights)[0]
            extra = {mutate_keyword: self.words, mutate_op_name: self.ops, mutate_splice: self.seeds}.get(fn)
            new = fn(rng, text, extra)
            if new:
                text = new
        return text


# --- running and judging -------------------------------------------------------


def signature(returncode, output, timed_out):
    """None for a clean run (exit 0 or 1, no crash marks), else what groups
    the crash: the assertion or fatal message, or the first TileOpt frame."""
    if timed_out:
        return "timeout"
    crashed = returncode not in (0, 1) or any(mark in output for mark in CRASH_MARKS)
    if not crashed:
        return None
    for pattern in (r"Assertion `(.*?)' failed", r"UNREACHABLE executed at [^\n]*?([\w.]+:\d+)",
                    r"LLVM ERROR: ([^\n]*)", r"(runtime error: [^\n]*)", r"ERROR: AddressSanitizer: ([\w-]+)"):
        m = re.search(pattern, output)
        if m:
            return re.sub(r"0x[0-9a-f]+|\d{4,}", "N", m.group(1))[:200]
    where = ", ".join(stack_frames(output)[:2]) or "no stack"
    return f"signal {-returncode if returncode < 0 else returncode}: {where}"[:200]


def frames_of(output):
    """(function, module) of each named frame of an LLVM stack dump, the
    signal handler's and the C runtime's left out. A frame reads `NAME
    (MODULE+0xOFF)`, or `NAME FILE:LINE:COL` for a function local to the
    executable (TileOpt's static functions and anonymous namespaces, whose
    module is then the tool), or `(MODULE+0xOFF)` without a name."""
    frames = []
    for rest in re.findall(r"^\s*#\d+ 0x[0-9a-f]+ (?:in )?(.*)$", output, re.M):
        if rest.startswith("(/"):
            continue
        m = re.match(r"(.*) \((\S+?)\+0x[0-9a-f]+\)$", rest)
        if m:
            name, module = m.groups()
        else:
            m = re.match(r"(.*) (\S+):\d+:\d+$", rest)
            if not m or m.group(2).startswith("."):
                continue  # the C runtime's (./csu/...)
            name, module = m.group(1), "/bin/tileopt-"
        if not re.search(r"PrintStackTrace|SignalHandler|RunSignalHandlers|__restore_rt|^raise|^abort|_start|"
                         r"__libc|^main$", name):
            frames.append((name, module))
    return frames


def in_tileopt(output):
    """Whether a frame is TileOpt's code (linked into its tools)."""
    return any("/bin/tileopt-" in module for _, module in frames_of(output))


def stack_frames(output):
    """The frames' functions, TileOpt's first if there are any."""
    frames = frames_of(output)
    own = [name for name, module in frames if "/bin/tileopt-" in module]
    return own or [name for name, _ in frames]


def scalar_args(art):
    """The literal arguments of an artifact's launches ({"i64": 32}, ...),
    or None if its manifest is not JSON of that shape."""
    try:
        manifest = json.loads((Path(art) / "manifest.json").read_text())
        return [[arg for arg in launch["args"] if isinstance(arg, dict) and not {"buffer", "tensor_map"} & set(arg)]
                for launch in manifest["launches"]]
    except (ValueError, KeyError, TypeError, OSError):
        return None


def known_bug(sig, output):
    """Which known bug a crash is, by its signature or its innermost frames."""
    innermost = " ".join(name for name, _ in frames_of(output)[:4])
    if output.startswith("known: a launch's literal argument changed"):
        return "a kernel given a size past its buffers (the stand-in driver's host kernels fault, as a GPU's would)"
    for name, pattern in KNOWN.items():
        if pattern.search(sig) or pattern.search(innermost):
            return name
    # A crash inside upstream MLIR (its parser, say) with no TileOpt frame on
    # the stack is upstream's to fix; it is listed, not counted as TileOpt's.
    if "Stack dump" in output and not in_tileopt(output):
        return "upstream MLIR (no TileOpt frame on the stack)"
    return None


def head_and_tail(text, n):
    """The first and last `n` characters of `text`: LLVM's stack dump comes
    first and a sanitizer's report after it (an ASan build's crash prints
    both, and its tail alone lost the innermost frames, so a known crash
    was taken for a new one)."""
    return text if len(text) <= 2 * n else text[:n] + "\n[...]\n" + text[-n:]


def run_tool(argv, stdin_text=None, timeout=20, env=None):
    start = time.monotonic()
    try:
        p = subprocess.run(argv, input=stdin_text, capture_output=True, text=True, errors="replace", timeout=timeout,
                           env=env)
        return p.returncode, p.stdout[-4000:] + head_and_tail(p.stderr, 8000), False, time.monotonic() - start
    except subprocess.TimeoutExpired as e:
        out = (e.stderr or b"")
        out = out.decode(errors="replace") if isinstance(out, bytes) else out
        return -9, out[-8000:], True, time.monotonic() - start


BUILD = Path(os.environ.get("TILEOPT_BUILD_DIR", ROOT / "build")).resolve()
# Stack dumps with function names; no search cache (--no-cache aside, a
# cache would answer the tk-stage searches of tileopt-opt's mutants).
TOOL_ENV = {"LLVM_SYMBOLIZER_PATH": shutil.which("llvm-symbolizer") or "/usr/lib/llvm-22/bin/llvm-symbolizer"}


class Fuzzer:
    COMPILE_ARGS = ["--emit=ptx", "--no-cache", "--search-threads=1", "--time-budget=1", "--graph-budget=2000"]

    @staticmethod
    def tool(name):
        return str(BUILD / "bin" / name)

    def __init__(self, args):
        self.args = args
        self.build = BUILD
        self.opt = self.tool("tileopt-opt")
        self.compile = self.tool("tileopt-compile")
        self.run = self.build / "bin" / "tileopt-run"
        self.fake_driver = self.build / "runtime" / "tests" / "fake-driver"
        self.env = {**os.environ, **TOOL_ENV}
        self.out = Path(args.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.seeds = mlir_seeds()
        self.mutator = Mutator(self.seeds)
        self.stats = {"opt": 0, "compile": 0, "loader": 0}
        self.crashes = {}  # signature -> record

    # -- crashes
    def record(self, target, sig, output, reproduce, payload, suffix):
        known = known_bug(sig, output)
        if sig == "timeout":
            sig = f"timeout ({target})"  # the signature says nothing else
        entry = self.crashes.get(sig)
        if entry:
            entry["count"] += 1
            return
        digest = hashlib.sha1(sig.encode()).hexdigest()[:10]
        path = self.out / f"crash-{target}-{digest}{suffix}"
        if isinstance(payload, bytes):
            path.write_bytes(payload)
        elif isinstance(payload, str):
            path.write_text(payload)
        else:  # an artifact directory
            if path.exists():
                shutil.rmtree(path)
            shutil.copytree(payload, path)
        (self.out / f"crash-{target}-{digest}.txt").write_text(
            f"signature: {sig}\nknown: {known}\ncommand: {reproduce(path)}\n\n{output}")
        self.crashes[sig] = {"target": target, "file": str(path), "count": 1, "known": known}
        print(f"[fuzz] {'known' if known else 'NEW'} crash ({target}): {sig}\n       {path}", flush=True)

    # -- opt
    def opt_argv(self, passes):
        return [self.opt, "--split-input-file", "--mlir-print-op-generic", "-o", "/dev/null", *passes]

    def run_opt(self, mutants, passes):
        """Runs `mutants` through one tileopt-opt; on a crash, halves them
        until each crashing one is alone."""
        self.stats["opt"] += len(mutants)
        text = f"\n{SPLIT}\n".join(mutants)
        rc, output, timed_out, _ = run_tool(self.opt_argv(passes), text, timeout=10 + 3 * len(mutants), env=self.env)
        sig = signature(rc, output, timed_out)
        if sig is None:
            return
        if len(mutants) == 1:
            self.record("opt", sig, output,
                        lambda p: shlex.join([*self.opt_argv(passes)[:1], *self.opt_argv(passes)[2:], str(p)]),
                        mutants[0], ".mlir")
            return
        half = len(mutants) // 2
        self.stats["opt"] -= len(mutants)  # counted again below
        self.run_opt(mutants[:half], passes)
        self.run_opt(mutants[half:], passes)

    # -- compile
    def run_compile(self, mutant):
        self.stats["compile"] += 1
        rc, output, timed_out, _ = run_tool([self.compile, "-", *self.COMPILE_ARGS], mutant, timeout=60,
                                            env=self.env)
        sig = signature(rc, output, timed_out)
        if sig:
            self.record("compile", sig, output, lambda p: shlex.join([self.compile, str(p), *self.COMPILE_ARGS]),
                        mutant, ".mlir")

    # -- loader
    def loader_available(self):
        return self.run.exists() and (self.fake_driver / "libcuda.so.1").exists()

    def loader_seeds(self, work):
        """Artifacts the stand-in driver can run: add_f32 with a constant
        (runtime/tests/constants.sh) and the sample row_softmax, if built."""
        seeds = []
        add = work / "seed-add"
        add.mkdir()
        (add / "add.cubin").write_bytes(b"\x7fELF")
        (add / "constants.bin").write_bytes(b"\x7f" * 32 + struct.pack("<32f", *[(i - 16) / 8 for i in range(32)]))
        (add / "manifest.json").write_text(json.dumps({
            "format": "tileopt-artifact", "version": 1, "source_hash": "0" * 64, "target": {"arch": "sm_90"},
            "buffers": [
                {"name": "x", "role": "input", "dtype": "f32", "shape": [4, 8], "strides": [8, 1]},
                {"name": "w", "role": "constant", "dtype": "f32", "shape": [4, 8], "strides": [8, 1],
                 "data": {"file": "constants.bin", "offset": 32, "bytes": 128}},
                {"name": "y", "role": "output", "dtype": "f32", "shape": [4, 8], "strides": [8, 1]}],
            "kernels": [{"name": "add", "cubin": "add.cubin", "symbol": "add_f32", "block": [32, 1, 1],
                         "shared_memory": {"static": 0, "dynamic": 0}, "params": ["ptr", "ptr", "ptr", "i64"]}],
            "launches": [{"kernel": 0, "grid": [1, 1, 1],
                          "args": [{"buffer": 0}, {"buffer": 1}, {"buffer": 2}, {"i64": 32}]}]}, indent=1))
        seeds.append(add)
        # The sample row_softmax, 8 rows of 256 instead of 2048 of 16384:
        # the stand-in driver computes it on the host, in seconds at full
        # size, which a time-out would take for a hang.
        sample = self.build / "runtime" / "tests" / "gpu" / "row_softmax"
        if (sample / "row_softmax.cubin").exists():
            small = work / "seed-row-softmax"
            small.mkdir()
            shutil.copy(sample / "row_softmax.cubin", small)
            manifest = json.loads((sample / "manifest.json").read_text())
            for buffer in manifest["buffers"]:
                buffer["shape"], buffer["strides"] = [8, 256], [256, 1]
            manifest["kernels"][0]["shared_memory"]["dynamic"] = 256 * 4
            manifest["launches"][0]["grid"] = [8, 1, 1]
            (small / "manifest.json").write_text(json.dumps(manifest, indent=1))
            seeds.append(small)
        for example in sorted((ROOT / "examples").glob("**/*.art")):
            seeds.append(example)
        return seeds

    def mutate_json(self, rng, value, depth=0):
        """One random change somewhere in a JSON value."""
        if isinstance(value, dict) and value and rng.random() < 0.8:
            key = rng.choice(list(value))
            action = rng.random()
            if action < 0.15:
                del value[key]
            elif action < 0.2:
                value[key + rng.choice(["", "_", "x"])] = value[key]
            else:
                value[key] = self.mutate_json(rng, value[key], depth + 1)
            return value
        if isinstance(value, list) and value and rng.random() < 0.8:
            i = rng.randrange(len(value))
            action = rng.random()
            if action < 0.15:
                del value[i]
            elif action < 0.3:
                value.insert(i, value[i])
            else:
                value[i] = self.mutate_json(rng, value[i], depth + 1)
            return value
        return rng.choice([0, 1, -1, 2**31, 2**32 + 1, 2**53 + 1, 2**63 - 1, 2**64, -(2**63), 1e308, -1e-308, 0.5,
                           "", "f32", "bf16", "i64", "ptr", "sm_90a", "sm_100", "input", "output", "constant",
                           "../manifest.json", "/dev/zero", "x" * 300, None, True, [], {}, [0, 0, 0],
                           {"buffer": 0}, {"buffer": 0, "dim": 7}, {"i64": 1}, {"f32": 1.5},
                           {"tensor_map": {"buffer": 0, "box": [1, 1], "swizzle": 128}}])

    def mutate_artifact(self, rng, seed, into):
        shutil.copytree(seed, into)
        files = [p for p in into.iterdir() if p.is_file()]
        manifest = into / "manifest.json"
        for _ in range(rng.choice([1, 1, 2, 3])):
            target = manifest if rng.random() < 0.7 or not files else rng.choice(files)
            data = target.read_bytes()
            if target == manifest and rng.random() < 0.8:
                try:
                    value = json.loads(data)
                    target.write_text(json.dumps(self.mutate_json(rng, value)))
                    continue
                except ValueError:
                    pass
            action = rng.randrange(4)
            if action == 0 and data:
                target.write_bytes(data[:rng.randrange(len(data))])
            elif action == 1 and data:
                i = rng.randrange(len(data))
                target.write_bytes(data[:i] + bytes([rng.randrange(256)]) + data[i + 1:])
            elif action == 2:
                target.write_bytes(data + rng.randbytes(rng.choice([1, 15, 4096])))
            else:
                target.write_bytes(b"")

    def run_loader(self, rng, seeds, work, n):
        seed = rng.choice(seeds)
        art = work / f"mutant{n % 4}"
        if art.exists():
            shutil.rmtree(art)
        self.mutate_artifact(rng, seed, art)
        self.stats["loader"] += 1
        env = {**self.env, "LD_LIBRARY_PATH": str(self.fake_driver)}
        argv = [str(self.run), str(art), "--iters", "1", "--warmup", "0"]
        rc, output, timed_out, _ = run_tool(argv, timeout=20, env=env)
        # tileopt-run: 0 pass, 1 a failed check, 2 an error, 77 no GPU.
        sig = signature(1 if rc in (2, 77) else rc, output, timed_out)
        if sig and scalar_args(art) not in (None, scalar_args(seed)):
            # The kernel ran, told a size its buffers do not have: the
            # stand-in driver's kernels run on the host and fault, as a GPU
            # kernel would. The manifest cannot say what a scalar means.
            sig = "a kernel given a size its buffers do not have (stand-in driver)"
            output = "known: a launch's literal argument changed\n" + output
        if sig:
            self.record("loader", sig, output,
                        lambda p: f"LD_LIBRARY_PATH={self.fake_driver} {self.run} {p} --iters 1 --warmup 0",
                        art, ".art")

    # -- the loop
    def fuzz(self):
        rng = random.Random(self.args.seed)
        deadline = time.monotonic() + (self.args.seconds if not self.args.iterations else 1e9)
        targets = [t for t in self.args.targets.split(",")]
        work = Path(tempfile.mkdtemp(prefix="tileopt-fuzz-"))
        loader_seeds = []
        if "loader" in targets:
            if self.loader_available():
                loader_seeds = self.loader_seeds(work)
            else:
                print("[fuzz] no tileopt-run or stand-in driver in the build: no loader target")
                targets.remove("loader")
        by_stage = {}
        for s in self.seeds:
            by_stage.setdefault(stage_of(s), []).append(s)
        start = time.monotonic()
        n = 0
        try:
            while time.monotonic() < deadline and (not self.args.iterations or n < self.args.iterations) \
                    and (not self.args.tool_cpu_seconds or tool_cpu_seconds() < self.args.tool_cpu_seconds):
                target = rng.choice(targets)
                if target == "opt":
                    stage = rng.choice(list(by_stage))
                    passes = [] if stage not in OPT_PIPELINES or rng.random() < 0.25 else \
                        [rng.choice(OPT_PIPELINES[stage])]
                    mutants = [self.mutator.mutate(rng, rng.choice(by_stage[stage])) for _ in range(40)]
                    self.run_opt(mutants, passes)
                elif target == "compile":
                    stage = rng.choice([s for s in by_stage if s != "other"])
                    self.run_compile(self.mutator.mutate(rng, rng.choice(by_stage[stage])))
                else:
                    self.run_loader(rng, loader_seeds, work, n)
                n += 1
                if self.args.verbose and n % 20 == 0:
                    print(f"[fuzz] {time.monotonic() - start:.0f} s: {self.stats}", flush=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        summary = {"seed": self.args.seed, "seconds": round(time.monotonic() - start, 1),
                   "tool_cpu_seconds": round(tool_cpu_seconds(), 1), "executions": self.stats,
                   "crashes": self.crashes}
        (self.out / "summary.json").write_text(json.dumps(summary, indent=1))
        print(json.dumps(summary, indent=1))
        return summary

    # -- minimizing
    def reproduces(self, target, extra, text, want):
        if target == "opt":
            rc, output, timed_out, _ = run_tool(self.opt_argv(extra), text, timeout=30, env=self.env)
        else:
            rc, output, timed_out, _ = run_tool([self.compile, "-", *self.COMPILE_ARGS], text, timeout=60,
                                                env=self.env)
        return signature(rc, output, timed_out) == want

    def minimize(self, path, target, extra):
        text = Path(path).read_text()
        if target == "opt":
            rc, output, timed_out, _ = run_tool(self.opt_argv(extra), text, timeout=30, env=self.env)
        else:
            rc, output, timed_out, _ = run_tool([self.compile, "-", *self.COMPILE_ARGS], text, timeout=60,
                                                env=self.env)
        want = signature(rc, output, timed_out)
        if not want:
            sys.exit(f"{path} does not crash")
        print(f"[minimize] {want}")
        lines = text.splitlines(keepends=True)
        chunk = max(1, len(lines) // 2)
        while chunk >= 1:
            i = 0
            changed = False
            while i < len(lines):
                trial = lines[:i] + lines[i + chunk:]
                if trial and self.reproduces(target, extra, "".join(trial), want):
                    lines = trial
                    changed = True
                else:
                    i += chunk
            if not changed:
                chunk //= 2
        result = "".join(lines)
        print(result)
        return result


def tool_cpu_seconds():
    """CPU time of the tools this process ran and waited for: the fuzzing
    itself, without the mutator's own Python."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return children.ru_utime + children.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--tool-cpu-seconds", type=float, default=0,
                        help="stop once the tools run have used this much CPU time (user and system), "
                             "however long that takes on a shared machine; --seconds still bounds it")
    parser.add_argument("--iterations", type=int, default=0,
                        help="stop after this many (a batch of 40 mutants for opt, one for the others)")
    parser.add_argument("--targets", default="opt,compile,loader")
    parser.add_argument("--out", default="fuzz-out")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--minimize", metavar="FILE")
    parser.add_argument("--target", default="opt", help="with --minimize: opt or compile")
    parser.add_argument("--args", default="", help="with --minimize --target=opt: tileopt-opt's passes")
    args = parser.parse_args()
    fuzzer = Fuzzer(args)
    if args.minimize:
        fuzzer.minimize(args.minimize, args.target, shlex.split(args.args))
        return 0
    summary = fuzzer.fuzz()
    new = [s for s, c in summary["crashes"].items() if not c["known"]]
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
