#!/usr/bin/env python3
"""On the build machine (LLVM/MLIR): compiles what run.py runs into DIR
(default build/device-mamba2, git ignored; carry it): at each shapes.py
shape, every config of the five stage tuners (tileopt.ops.ssd.stage_tuners)
and the default configs, into DIR/cache, the disk cache ($TILEOPT_CACHE_DIR)
that tileopt.ops reads on the GPU machine, where nothing can be compiled.
With --no-tune only the default configs.

    PYTHONPATH=python python3 bench/mamba2/prepare.py [--no-tune] [DIR]
"""
import os
import sys
from pathlib import Path

args = [a for a in sys.argv[1:] if a != "--no-tune"]
out = Path(args[0] if args else "build/device-mamba2").resolve()
out.mkdir(parents=True, exist_ok=True)
os.environ["TILEOPT_CACHE_DIR"] = str(out / "cache")
sys.path.insert(0, str(Path(__file__).parent))

from shapes import SHAPES  # noqa: E402
from tileopt.ops import ssd  # noqa: E402

for entry in SHAPES:
    cfg = ssd.SSDConfig(*entry["shape"], "bf16", **entry["opts"])
    for stage, params in ssd.default_params(cfg).items():
        ssd.compiled_stage(cfg, stage, params)
    if "--no-tune" in sys.argv:
        continue
    for stage, tuner in ssd.stage_tuners(cfg).items():
        index = tuner.prepare(cfg.key())
        refused = [e for e in index if "error" in e]
        print(f"{entry['shape']} {stage}: {len(index) - len(refused)} of {len(index)} configs "
              f"compiled", flush=True)
        for e in refused:
            print(f"  {e['config_name']}: {e['error'].strip().splitlines()[-1]}")
