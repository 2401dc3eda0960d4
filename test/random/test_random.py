"""pytest over random TOSA programs (issue 28; see run.py for what is checked).

    TILEOPT_BUILD_DIR=build /usr/bin/python3 -m pytest -q -rxs -p no:cacheprovider test/random

- the generator: deterministic per (seed, index), covers the ops it claims,
  writes what upstream MLIR runs, and its float64 twin is the same program;
- the runner's verdicts: a wrong value, a crash and f16 rounding are told
  apart (with stand-ins for tileopt-compile's answer);
- test_batch[I]: program I of seed BATCH_SEED through TileOpt against
  upstream MLIR: a refusal passes, a wrong value or a crash fails; and
  most of the batch must get as far as values;
- test_regression[NAME]: each program of regressions/, a bug the runner
  found. `// status: open` (the bug is not fixed) is an expected failure,
  and strict: once it passes, the header must say `fixed`, and from then on
  it must pass. `// timeout: S` limits each tool to S seconds (a hang).

TILEOPT_CORPUS_COMPILE_ARGS adds tileopt-compile options (a search budget).
"""

import functools
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run  # noqa: E402  (puts test/corpus on the path)
import check  # noqa: E402
import generate  # noqa: E402
import reference  # noqa: E402

BATCH_SEED = 28
BATCH_SIZE = 20
REGRESSIONS = sorted((HERE / "regressions").glob("*.mlir"))
# The tosa ops the generator says it writes (generate.py's docstring).
CLAIMED_OPS = {"matmul", "add", "sub", "mul", "maximum", "exp", "tanh", "sigmoid", "reciprocal", "rsqrt",
               "negate", "clamp", "select", "greater", "greater_equal", "equal", "cast", "reduce_sum",
               "reduce_max", "transpose", "reshape"}


def tosa_ops(text):
    return set(re.findall(r"= tosa\.(\w+)", text))


# --- the generator -------------------------------------------------------------


def test_generation_is_deterministic_per_program(tmp_path):
    subprocess.run([sys.executable, str(HERE / "generate.py"), "--seed=7", "--count=5", "-o", str(tmp_path)],
                   check=True, capture_output=True)
    for i in range(5):
        assert (tmp_path / generate.file_name(7, i)).read_text() == generate.build(7, i)
    assert generate.build(7, 0) != generate.build(8, 0)


def test_programs_cover_the_claimed_ops_types_and_shapes():
    texts = [generate.build(0, i) for i in range(300)]
    ops = set().union(*(tosa_ops(t) for t in texts))
    assert CLAIMED_OPS <= ops, f"never written: {sorted(CLAIMED_OPS - ops)}"
    dims = {int(d) for t in texts for d in re.findall(r"(\d+)x", t)}
    assert {1, 7, 13, 37} <= dims
    dtypes = set().union(*(set(re.findall(r"x(bf16|f16|f32)>", t)) for t in texts))
    assert dtypes == {"f32", "f16", "bf16"}
    headers = "".join(texts)
    assert "// input %mask: choice(0, 1)" in headers and ": uniform(-4, 4)" in headers


def test_generator_writes_every_program_of_a_seed():
    """Seed 5 holds programs that once overflowed a bound (968: a sigmoid of
    the lowest float) and looped (1586: a matmul of a value larger than the
    size class)."""
    for i in range(2000):
        assert generate.build(5, i, twin=bool(i % 2)), i


def test_upstream_runs_generated_programs(tmp_path):
    for i in range(5):
        path = tmp_path / generate.file_name(1, i)
        path.write_text(generate.build(1, i))
        program = reference.Program(path)
        outputs = reference.run_reference(program, reference.draw_inputs(program, check.SEED))
        assert all(np.all(np.isfinite(o)) for o in outputs), path.name


def first_low_precision_program(seed):
    return next(i for i in range(100) if "xbf16>" in generate.build(seed, i) or "xf16>" in generate.build(seed, i))


def signature_shapes(text, tmp_path):
    path = tmp_path / "p.mlir"
    path.write_text(text)
    program = reference.Program(path)
    return [a[1] for a in program.args], [r[0] for r in program.results]


def test_twin_is_the_program_in_float64(tmp_path):
    for i in range(200):
        text, twin = generate.build(3, i), generate.build(3, i, twin=True)
        assert not re.search(r"x(b?f16|f32)>", twin) and "xf64>" in twin
        assert signature_shapes(twin, tmp_path) == signature_shapes(text, tmp_path), i
        assert tosa_ops(twin) == tosa_ops(text) - ({"cast"} - tosa_ops(twin)), i
        # The same ops but casts (constants may differ: one zero point of
        # matmul per type).
        computing = [re.findall(r"= tosa\.(?!cast|const)\w+", t) for t in (text, twin)]
        assert computing[0] == computing[1], i


def test_other_mean_rounding_moves_only_the_means_last_bit():
    """--other-mean-rounding: the same program but for each mean's 1/n,
    which moves to the other side of 1/n by one step of its type."""
    moved = 0
    for i in range(200):
        text = generate.build(3, i).splitlines()[1:]
        other = generate.build(3, i, other_mean_rounding=True).splitlines()[1:]
        assert len(text) == len(other), i
        for a, b in zip(text, other):
            if a == b:
                continue
            moved += 1
            m = [re.search(r"dense<(\S+)> : tensor<[\dx]*x(\w+)>", line) for line in (a, b)]
            assert m[0] and m[1] and a.replace(m[0].group(1), m[1].group(1)) == b, (i, a, b)
            dtype = m[0].group(2)
            # As printed, shortest first: the type's value is the rounding.
            near, far = (reference.round_to([float(x.group(1))], dtype)[0] for x in m)
            # Some 1/n lies between them, and rounds to the program's.
            lo, hi = sorted((near, far))
            ns = range(int(1 / hi), int(1 / lo) + 1)
            assert any(lo < 1 / n < hi and reference.round_to([1 / n], dtype)[0] == near for n in ns), (i, a, b)
    assert moved > 20, moved


# --- the runner's verdicts, with stand-ins for TileOpt's answer --------------


def verdict(monkeypatch, tmp_path, seed, index, ours, skew_reference=1.0):
    """run.check_random on one program with TileOpt replaced by a stand-in:
    ours(program's reference outputs, its float64 twin's) -> check.Ours. The
    program's reference (not the twin's) is multiplied by skew_reference,
    standing for f16 rounding."""
    real_reference = reference.run_reference
    refs = {}
    for name, twin in (("program", False), ("twin", True)):
        path = tmp_path / f"{name}.mlir"
        path.write_text(generate.build(seed, index, twin=twin))
        program = reference.Program(path)
        if not twin:
            inputs = reference.draw_inputs(program, check.SEED)
        refs[name] = real_reference(program, inputs)

    def stand_in_reference(program, inputs, **kw):
        if program.path.name == "twin.mlir":
            return refs["twin"]
        return [r * skew_reference for r in refs["program"]]

    monkeypatch.setattr(reference, "run_reference", stand_in_reference)
    monkeypatch.setattr(check, "ours_tile", lambda program, inputs_file, work: ours(refs["program"], refs["twin"]))
    return run.check_random(seed, index, tmp_path)


def test_a_wrong_value_is_a_mismatch_and_is_saved(monkeypatch, tmp_path):
    def off(ref, twin):
        return check.Ours(outputs=check.perturbed(ref, 2e-2), stage_ok=True)

    out = verdict(monkeypatch, tmp_path, 1, 2, off)
    assert out.status == "MISMATCH" and out.failed, out
    run.save_failure(out, "test/random/run.py --seed=1 --start=2 --count=1", tmp_path / "failures")
    saved = (tmp_path / "failures" / f"{out.name}.mlir").read_text()
    assert saved.startswith("// MISMATCH: relative error") and saved.endswith(generate.build(1, 2))


def test_a_crash_is_a_failure_and_a_diagnostic_a_refusal(monkeypatch, tmp_path):
    crashed = subprocess.CompletedProcess([], -6, "", "tileopt-compile: Foo.cpp:1: Assertion `x' failed.\n")
    refused = subprocess.CompletedProcess([], 1, "", "prog.mlir:3:5: error: cannot lower 'tk.reduce'\n")
    assert check.crash_report("tileopt-compile", crashed).startswith(
        "tileopt-compile killed by SIGABRT: tileopt-compile: Foo.cpp:1: Assertion `x' failed.")
    assert check.crash_report("tileopt-compile", refused) == ""
    out = verdict(monkeypatch, tmp_path, 1, 2, lambda ref, twin: check.Ours(
        error="tileopt-compile: ...", crash=check.crash_report("tileopt-compile", crashed)))
    assert out.status == "CRASH" and out.failed, out
    out = verdict(monkeypatch, tmp_path, 1, 2, lambda ref, twin: check.Ours(
        error="tileopt-compile: cannot lower 'tk.reduce'"))
    assert (out.status, out.detail, out.failed) == ("refused", "tileopt-compile: cannot lower 'tk.reduce'", False)


def test_f16_rounding_is_told_from_a_wrong_value(monkeypatch, tmp_path):
    """The program's reference 3 tolerances away from the twin's (as f16
    rounding may leave it): the twin's values are rounding; values almost
    as far from the twin as upstream's are ill-conditioned (no worse than
    upstream's own execution); values twice as far are a mismatch."""
    seed = 3
    i = first_low_precision_program(seed)
    skew = 1 + 3 * 2e-2

    def off_twin(times):
        """The twin's values moved `times` as far as upstream's are (the
        other way if negative)."""
        def ours(ref, twin):
            upstream = check.compare(twin, [r * skew for r in ref], 2e-2)[1]
            return check.Ours(outputs=[t * (1 + times * upstream) for t in twin], stage_ok=True)
        return ours
    out = verdict(monkeypatch, tmp_path, seed, i, off_twin(0), skew)
    assert (out.status, out.failed) == ("rounding", False), out
    out = verdict(monkeypatch, tmp_path, seed, i, off_twin(-0.9), skew)
    assert (out.status, out.failed) == ("ill-conditioned", False), out
    out = verdict(monkeypatch, tmp_path, seed, i, off_twin(-2), skew)
    assert out.status == "MISMATCH", out


def test_noise_around_an_exact_zero_is_told_from_a_wrong_value(monkeypatch, tmp_path):
    """Program 9894 of seed 17 is the mean of a LayerNorm's output: 0
    exactly, 3.7e-9 in upstream's f32. Noise twice as large is
    ill-conditioned (no relative error can judge it); 1e-3 off is a
    mismatch, though both are far beyond the relative tolerance."""
    def off(by):
        return lambda ref, twin: check.Ours(outputs=[r * 2 + by for r in ref], stage_ok=True)
    out = verdict(monkeypatch, tmp_path, 17, 9894, off(0.0))
    assert (out.status, out.failed) == ("ill-conditioned", False), out
    out = verdict(monkeypatch, tmp_path, 17, 9894, off(1e-3))
    assert out.status == "MISMATCH", out


# --- TileOpt on a seeded batch, and on the regressions --------------------------


@pytest.fixture(scope="module")
def batch_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("batch")


@functools.lru_cache(maxsize=None)
def batch_outcome(index, work_root):
    return run.check_random(BATCH_SEED, index, work_root)


@pytest.mark.parametrize("index", range(BATCH_SIZE))
def test_batch(index, batch_dir):
    out = batch_outcome(index, batch_dir)
    assert out.status in run.STATUSES
    assert not out.failed, f"{out.status}: {out.detail}\n{out.log[-3000:]}\n" \
                           f"reproduce: test/random/run.py --seed={BATCH_SEED} --start={index} --count=1"


def test_batch_compares_values(batch_dir):
    """Most of the batch gets as far as values (18 of 20 today): a batch
    that TileOpt refuses whole would pass test_batch and check nothing."""
    outcomes = [batch_outcome(i, batch_dir) for i in range(BATCH_SIZE)]
    compared = [o for o in outcomes if o.status in ("match", "rounding", "ill-conditioned")]
    assert len(compared) >= BATCH_SIZE * 3 // 4, [(o.name, o.status, o.detail) for o in outcomes]


def regression_variant(text):
    """generate.build of a saved random program (run.check_file's variant),
    if the generator still writes that program as saved (its header names
    the seed and index)."""
    m = re.search(r"^// Random program (\d+) of seed (\d+)", text, re.M)
    if not m:
        return None
    index, seed = int(m.group(1)), int(m.group(2))
    if not text.endswith(generate.build(seed, index)):
        return None
    return functools.partial(generate.build, seed, index)


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.stem for p in REGRESSIONS])
def test_regression(path, tmp_path, monkeypatch):
    text = path.read_text()
    status = re.search(r"^// status: (open|fixed)\b", text, re.M)
    assert status, f"{path.name}: needs a `// status: open` or `// status: fixed` line"
    # A hang's reproducer says how long a tool may run, so that it costs
    # ctest seconds rather than check.TIMEOUT.
    timeout = re.search(r"^// timeout: (\d+)", text, re.M)
    if timeout:
        monkeypatch.setattr(check, "TIMEOUT", int(timeout.group(1)))
    # The tileopt-compile options the bug needs (a small search budget).
    compile_args = re.search(r"^// compile-args: (.*)$", text, re.M)
    if compile_args:
        monkeypatch.setattr(check, "COMPILE_ARGS", shlex.split(compile_args.group(1)))
    out = run.check_file(path, tmp_path, variant=regression_variant(text))
    if status.group(1) == "open":
        assert out.failed, f"{path.name} passes ({out.status}): the bug is fixed, make it `// status: fixed`"
        pytest.xfail(f"open: {out.status}: {out.detail}")
    assert not out.failed, f"{out.status}: {out.detail}\n{out.log[-3000:]}"
