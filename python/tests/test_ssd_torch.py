"""bench/mamba2's PyTorch chunked SSD (the GPU check's float64 reference
and the float32 peer) against tileopt.ops.ssd_reference, on the CPU. Needs
torch, which python-tests (ctest) does not have: run it where torch is.

Run: python3 -m pytest -q python/tests/test_ssd_torch.py
"""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from test_ssd import CASES, assert_close, problem
from tileopt.ops.ssd_reference import ssd_chunked

torch = pytest.importorskip("torch")


def _torch_reference():
    path = Path(__file__).resolve().parents[2] / "bench" / "mamba2" / "torch_reference.py"
    spec = importlib.util.spec_from_file_location("torch_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("case", sorted(CASES))
def test_torch_reference_matches_numpy(case):
    args, flags, Q = problem(case)
    y, final = ssd_chunked(chunk_size=Q, **args, **flags)
    tensors = {k: None if v is None else torch.from_numpy(np.asarray(v)) for k, v in args.items()}
    y_t, final_t = _torch_reference().ssd_chunked(chunk_size=Q, **tensors, **flags)
    assert_close(y_t.numpy(), y)
    assert_close(final_t.numpy(), final)


def test_torch_reference_is_compared_strictly():
    """Without its softplus the PyTorch reference misses the NumPy one."""
    args, flags, Q = problem("all_options")
    y, _ = ssd_chunked(chunk_size=Q, **args, **flags)
    tensors = {k: None if v is None else torch.from_numpy(np.asarray(v)) for k, v in args.items()}
    y_t, _ = _torch_reference().ssd_chunked(chunk_size=Q, **tensors, **dict(flags, dt_softplus=False))
    with pytest.raises(AssertionError):
        assert_close(y_t.numpy(), y)
