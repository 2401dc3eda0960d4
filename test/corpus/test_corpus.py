"""pytest over the TOSA corpus (see check.py for what is checked and how).

    TILEOPT_BUILD_DIR=build /usr/bin/python3 -m pytest -q -rxs -p no:cacheprovider test/corpus

- test_programs_are_generated: programs/ is what gen.py writes.
- test_reference[NAME]: upstream MLIR runs the program, agrees with its
  NumPy meaning, and rejects a perturbed copy of its output and the
  program's near miss. Always a hard failure.
- test_ours[NAME]: "ours" (TILEOPT_CORPUS_OURS: `tile`, the default, or
  `import`) against the reference. Values that do not match always fail.
  A program TileOpt cannot take yet (no values) is an expected failure
  (xfail, with the reason) unless TILEOPT_CORPUS_STRICT=1.
  TILEOPT_CORPUS_COMPILE_ARGS adds tileopt-compile options (search budget).
"""

import functools
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import check  # noqa: E402
import reference  # noqa: E402

MODE = os.environ.get("TILEOPT_CORPUS_OURS", "tile")
STRICT = os.environ.get("TILEOPT_CORPUS_STRICT", "0") == "1"
PROGRAMS = sorted(check.PROGRAMS_DIR.glob("*.mlir"))


def test_programs_are_generated():
    run = subprocess.run([sys.executable, str(HERE / "gen.py"), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_corpus_size():
    assert len(PROGRAMS) >= 25


@functools.lru_cache(maxsize=None)
def upstream(path):
    program = reference.Program(path)
    inputs = reference.draw_inputs(program, check.SEED)
    ref, failures = check.reference_and_self_check(program, inputs)
    return program, inputs, ref, failures


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_reference(path):
    _, _, _, failures = upstream(path)
    assert not failures, "; ".join(failures)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_ours(path):
    assert MODE in check.OURS, f"TILEOPT_CORPUS_OURS={MODE}: one of {sorted(check.OURS)}"
    program, inputs, ref, _ = upstream(path)
    with tempfile.TemporaryDirectory(prefix=f"corpus-{program.name}-") as tmp:
        work = Path(tmp)
        inputs_file = work / "inputs.txt"
        inputs_file.write_text(reference.format_tensors(inputs))
        ours = check.OURS[MODE](program, inputs_file, work)
    if ours.outputs is None:
        reason = ours.error
        if ours.warnings:  # the cause, before its consequence
            reason = f"import incomplete ({len(ours.warnings)} warnings), first: {ours.warnings[0][1]}; then {reason}"
        if STRICT:
            pytest.fail(reason)
        pytest.xfail(reason)
    ok, err, why = check.compare(ref, ours.outputs, check.tolerance(program))
    assert ok, why
