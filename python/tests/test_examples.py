"""python/examples build their graphs and compile them here (running them
needs a GPU, which test_gpu.py covers)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize("name", ["attention", "gated_mlp", "rmsnorm_linear"])
def test_example_compiles(name, tmp_path):
    run = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py"), "--time-budget", "3",
                          "--search-threads", "1"], capture_output=True, text=True,
                         env={**os.environ, "TILEOPT_CACHE_DIR": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    assert "-> out0: " in run.stdout and " kernel launches" in run.stdout
