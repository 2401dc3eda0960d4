"""Shared by the Python API tests: small searches, and a search cache of
their own (so they start cold and leave the user's cache alone), or
$TILEOPT_TEST_CACHE_DIR: a cache kept to be copied, whose compiled graphs a
GPU machine without the tools loads (docs/python.md, "On a GPU machine")."""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))


@pytest.fixture(scope="session")
def search_options(tmp_path_factory):
    """superoptimize options that keep each search to seconds."""
    cache = os.environ.get("TILEOPT_TEST_CACHE_DIR") or tmp_path_factory.mktemp("search-cache")
    return {"search_threads": 1, "time_budget": 3, "cache_dir": str(cache)}


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs torch with a CUDA device")
    os.environ.setdefault("TILEOPT_BUILD_DIR", str(ROOT / "build"))
