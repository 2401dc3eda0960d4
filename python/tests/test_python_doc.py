"""docs/python.md's Python blocks run, in order, in one namespace, as a
reader would run them; a `print(...)  # TEXT` line must print TEXT ("..."
stands for any text). Blocks after `<!-- doc-test: gpu -->` need a CUDA
device and run nowhere here; those after `<!-- doc-test: torch -->` need
torch and run in test_torch_export.py. Needs the tools and NumPy."""

import contextlib
import io
import os
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"
BLOCK = re.compile(r"(?:<!-- doc-test: (\w+) -->\n)?```python\n(.*?)```", re.S)
PRINTED = re.compile(r"^\s*print\(.*\)\s+# (.*)$", re.M)


def run_blocks(with_torch, tmp_path):
    """Runs the page's blocks but those marked gpu (and torch, unless
    with_torch); returns how many ran."""
    namespace, ran = {"__name__": "python_md"}, 0
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for m in BLOCK.finditer(DOC.read_text()):
            marker, code = m.group(1), m.group(2)
            assert marker in (None, "gpu", "torch"), f"unknown doc-test marker {marker!r}"
            if marker == "gpu" or (marker == "torch" and not with_torch):
                continue
            line = DOC.read_text()[:m.start(2)].count("\n") + 1
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                exec(compile("\n" * (line - 1) + code, str(DOC), "exec"), namespace)
            output = printed.getvalue()
            for expected in PRINTED.findall(code):
                pattern = ".*".join(map(re.escape, expected.split("...")))
                assert re.search(pattern, output), \
                    f"docs/python.md:{line}: printed\n{output}\nnot: {expected}"
            ran += 1
    finally:
        os.chdir(cwd)
    return ran


def test_python_guide_blocks_run(tmp_path):
    assert run_blocks(False, tmp_path) >= 6
