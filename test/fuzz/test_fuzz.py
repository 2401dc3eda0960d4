"""The fuzzer in CI (issue 28, item 2; fuzz.py says what it does).

    TILEOPT_BUILD_DIR=build /usr/bin/python3 -m pytest -q -rxs -p no:cacheprovider test/fuzz

- test_seeded_run: a short run of a fixed seed and number of iterations
  (about 40 s): no crash but the known ones (and upstream MLIR's);
- test_signature_*: the judge tells crashes from diagnostics;
- test_regression[NAME]: each input of regressions/, a crash the fuzzer
  found that is not fixed (or is upstream MLIR's). Its header says how to
  run it (`// target: opt` with `// args:` for tileopt-opt's passes, or
  `// target: compile`) and its status: `open` (a TileOpt bug) and
  `upstream` (a crash in upstream MLIR) are expected to crash, strictly:
  once one no longer does, its header must say `fixed`, and from then on it
  must not. Fixed crashes are lit tests beside the code they test.
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fuzz  # noqa: E402

REGRESSIONS = sorted((HERE / "regressions").glob("*.mlir"))


def header(text, key):
    m = re.search(rf"^// {key}: (.*)$", text, re.M)
    return m.group(1).strip() if m else None


def test_seeded_run(tmp_path):
    result = subprocess.run([sys.executable, str(HERE / "fuzz.py"), "--seed=28", "--iterations=300",
                             f"--out={tmp_path}"], capture_output=True, text=True, timeout=600)
    print(result.stdout[-3000:], result.stderr[-3000:])
    assert "NEW crash" not in result.stdout, result.stdout
    assert result.returncode == 0
    summary = (tmp_path / "summary.json").read_text()
    assert '"opt"' in summary


def test_signature_tells_crashes_from_diagnostics():
    assert fuzz.signature(1, "x.mlir:1:1: error: 'tk.matmul' op bad shape", False) is None
    assert fuzz.signature(0, "", False) is None
    assert fuzz.signature(-9, "", True) == "timeout"
    assert fuzz.signature(1, "LLVM ERROR: IO failure on output stream", False) == "IO failure on output stream"
    abort = "tileopt-opt: Foo.cpp:12: void f(): Assertion `x && \"why\"' failed.\nStack dump:\n"
    assert fuzz.signature(-6, abort, False) == 'x && "why"'


def test_signature_names_the_first_tileopt_frame():
    dump = ("Stack dump:\n"
            " #0 0x00007f llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) (/usr/lib/libLLVM.so+0x1)\n"
            " #1 0x00007f mlir::Type::getIntOrFloatBitWidth() const (/usr/lib/libMLIR.so+0x2)\n"
            " #2 0x000055 (anonymous namespace)::LowerTile::run() (/b/bin/tileopt-opt+0x3)\n"
            " #3 0x000055 main (/b/bin/tileopt-opt+0x4)\n")
    assert fuzz.signature(-11, dump, False) == "signal 11: (anonymous namespace)::LowerTile::run()"
    assert fuzz.known_bug("signal 11", dump) is None
    upstream = dump.replace("/b/bin/tileopt-opt+0x3", "/usr/lib/libMLIR.so+0x3")
    assert fuzz.known_bug("signal 11", upstream).startswith("upstream MLIR")


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.stem for p in REGRESSIONS])
def test_regression(path, request):
    text = path.read_text()
    status = header(text, "status")
    assert status in ("open", "upstream", "fixed"), f"{path.name}: // status: open, upstream or fixed"
    if status != "fixed":
        request.applymarker(pytest.mark.xfail(strict=True, reason=f"{status}: {header(text, 'symptom')}"))
    target = header(text, "target")
    if target == "opt":
        argv = [fuzz.Fuzzer.tool("tileopt-opt"), "-o", "/dev/null", *shlex.split(header(text, "args") or "")]
    else:
        argv = [fuzz.Fuzzer.tool("tileopt-compile"), "-", *fuzz.Fuzzer.COMPILE_ARGS]
    rc, output, timed_out, _ = fuzz.run_tool(argv, text, timeout=60, env={**os.environ, **fuzz.TOOL_ENV})
    assert fuzz.signature(rc, output, timed_out) is None, output
