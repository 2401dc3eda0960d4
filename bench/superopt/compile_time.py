#!/usr/bin/env python3
"""How long `tileopt-compile` takes on the examples/linalg workloads, cold
(an empty search cache) and again from the cache (issue 24's target:
under 30 s cold on the 2-core build machine, search included, and under
1 s cached).

    TILEOPT_BUILD_DIR=build python3 bench/superopt/compile_time.py [NAME...] [-- COMPILE-ARGS]

Each workload is compiled into an artifact twice with the same cache
directory (a fresh temporary one): the first run searches, lowers and
generates code; the second finds the µGraph in the cache. Prints one row
per workload (seconds, wall clock) and the slowest of each column. The
search runs with tileopt-compile's defaults unless COMPILE-ARGS say
otherwise.
"""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("TILEOPT_BUILD_DIR", ROOT / "build"))


def compile_seconds(program, cache, out, extra):
    start = time.monotonic()
    subprocess.run([str(BUILD / "bin" / "tileopt-compile"), str(program), "-o", str(out),
                    f"--cache-dir={cache}", *extra], check=True, capture_output=True, text=True)
    return time.monotonic() - start


def main():
    args = sys.argv[1:]
    extra = args[args.index("--") + 1:] if "--" in args else []
    names = args[:args.index("--")] if "--" in args else args
    programs = sorted((ROOT / "examples" / "linalg").glob("*.mlir"))
    if names:
        programs = [p for p in programs if p.stem in names]
    rows = []
    for program in programs:
        with tempfile.TemporaryDirectory(prefix="tileopt-compile-time-") as work:
            work = Path(work)
            cold = compile_seconds(program, work / "cache", work / "cold", extra)
            cached = compile_seconds(program, work / "cache", work / "cached", extra)
        rows.append((program.stem, cold, cached))
        print(f"{program.stem:26} cold {cold:6.1f} s   cached {cached:5.2f} s", flush=True)
    print(f"\n| workload | cold, s | cached, s |\n|---|---|---|")
    for name, cold, cached in rows:
        print(f"| {name} | {cold:.1f} | {cached:.2f} |")
    print(f"| slowest | {max(r[1] for r in rows):.1f} | {max(r[2] for r in rows):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
