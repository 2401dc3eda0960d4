"""python/examples build their graphs, compile them and, where torch has a
CUDA device, run them against torch. $TILEOPT_TEST_CACHE_DIR, if set, is
their cache (conftest.py says why)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def has_gpu():
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


@pytest.mark.parametrize("name", ["attention", "gated_mlp", "rmsnorm_linear"])
def test_example_compiles_and_runs(name, tmp_path):
    cache = os.environ.get("TILEOPT_TEST_CACHE_DIR") or str(tmp_path)
    run = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py"), "--time-budget", "3",
                          "--search-threads", "1"], capture_output=True, text=True,
                         env={**os.environ, "TILEOPT_CACHE_DIR": cache})
    assert run.returncode == 0, run.stderr
    assert "-> out0: " in run.stdout and " kernel launches" in run.stdout
    if has_gpu():
        assert "relative error against torch" in run.stdout, run.stdout
