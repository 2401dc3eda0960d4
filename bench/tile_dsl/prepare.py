#!/usr/bin/env python3
"""On the build machine (LLVM/MLIR): compiles what gpu_check.py runs into
DIR (default build/device-dsl, git ignored; carry it): every config of the
tile-DSL kernels' autotuners at the shapes.py keys (attention's too), into
DIR/cache, the disk cache ($TILEOPT_CACHE_DIR) that tileopt.kernels' tuners
read on the GPU machine, where nothing can be compiled. (The Mamba-2 SSD
has its own: bench/mamba2.)

    PYTHONPATH=python python3 bench/tile_dsl/prepare.py [DIR]
"""
import os
import sys
from pathlib import Path

out = Path(sys.argv[1] if len(sys.argv) > 1 else "build/device-dsl").resolve()
out.mkdir(parents=True, exist_ok=True)
os.environ["TILEOPT_CACHE_DIR"] = str(out / "cache")
sys.path.insert(0, str(Path(__file__).parent))

from shapes import ATTENTION, TUNED  # noqa: E402
from tileopt import kernels  # noqa: E402

tuned = [(name, key) for name, key in TUNED.items()] + [("attention", key) for key in ATTENTION]
for name, key in tuned:
    index = getattr(kernels, f"{name}_tuner").prepare(key)
    refused = [e for e in index if "error" in e]
    print(f"{name} {key}: {len(index) - len(refused)} of {len(index)} configs compiled")
    for entry in refused:
        print(f"  {entry['config_name']}: {entry['error'].strip().splitlines()[-1]}")
