"""Runs TileOpt's command-line tools for the Python API.

The tools (`tileopt-compile`, `tileopt-interp`) are taken from
$TILEOPT_BUILD_DIR/bin, else this checkout's build/bin, else PATH. The
search cache is tileopt-compile's own ($TILEOPT_CACHE_DIR, else
$XDG_CACHE_HOME/tileopt, else ~/.cache/tileopt), shared with the command
line; `cache_dir=` overrides it as --cache-dir does.
"""

import os
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

__all__ = ["CompileError", "ToolNotFoundError", "find_tool", "run_tool", "superoptimize"]

ROOT = Path(__file__).resolve().parents[2]


class CompileError(RuntimeError):
    """A TileOpt tool failed. `diagnostic` holds what it printed on stderr
    (errors at the ops, with the Python lines that built them), `command`
    the command line."""

    def __init__(self, message, diagnostic="", command=()):
        super().__init__(message + (f"\n{diagnostic.rstrip()}" if diagnostic else ""))
        self.diagnostic = diagnostic
        self.command = list(command)


class ToolNotFoundError(CompileError):
    """A TileOpt tool is not installed where the API looks for it."""


def find_tool(name):
    """The path of TileOpt's tool `name`."""
    build_dir = os.environ.get("TILEOPT_BUILD_DIR")
    if build_dir:
        candidate = Path(build_dir) / "bin" / name
        if not os.access(candidate, os.X_OK):
            raise ToolNotFoundError(f"{name} is not in $TILEOPT_BUILD_DIR/bin ({candidate})")
        return str(candidate)
    candidate = ROOT / "build" / "bin" / name
    if os.access(candidate, os.X_OK):
        return str(candidate)
    found = shutil.which(name)
    if found:
        return found
    raise ToolNotFoundError(f"cannot find {name}: set TILEOPT_BUILD_DIR to a TileOpt build "
                            "directory, or put its bin/ on PATH")


def run_tool(name, args, what):
    """Runs tool `name` with `args`; returns its stdout, or raises
    CompileError with its diagnostics. Remarks that the search left the
    graph as it was become Python warnings."""
    command = [find_tool(name), *map(str, args)]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode:
        raise CompileError(f"{what} failed ({name} exited with {run.returncode})",
                           run.stderr, command)
    for line in run.stderr.splitlines():
        if "remark: the superoptimizer cannot model" in line:
            warnings.warn(line.split("remark: ", 1)[1], RuntimeWarning, stacklevel=4)
    return run.stdout


def _options(time_budget, search_threads, graph_budget, max_kernel_ops, max_block_ops,
             seed, chip, num_warps, cache_dir, use_cache, extra_args):
    chosen = {"time-budget": time_budget, "search-threads": search_threads,
              "graph-budget": graph_budget, "max-kernel-ops": max_kernel_ops,
              "max-block-ops": max_block_ops, "seed": seed, "chip": chip,
              "num-warps": num_warps, "cache-dir": cache_dir}
    args = [f"--{flag}={value}" for flag, value in chosen.items() if value is not None]
    if not use_cache:
        args.append("--no-cache")
    return args + list(extra_args)


def superoptimize(graph, *, time_budget=None, search_threads=None, graph_budget=None,
                  max_kernel_ops=None, max_block_ops=None, seed=None, chip=None,
                  num_warps=None, cache_dir=None, use_cache=True, extra_args=(),
                  directory=None):
    """Searches for the best µGraph of `graph` (a KernelGraph) and compiles
    it into an artifact; returns the CompiledGraph.

    Options are tileopt-compile's (docs/user-guide.md), None leaving its
    default: time_budget (seconds, default 60), search_threads (0: one per
    hardware thread), graph_budget, max_kernel_ops, max_block_ops, seed,
    chip ("sm_90" or "sm_90a"), num_warps, cache_dir (default
    $TILEOPT_CACHE_DIR ...), use_cache=False for --no-cache, extra_args (more
    flags). `directory`, a path that does not exist yet, keeps the result;
    by default it lives in a temporary directory removed with the object
    (CompiledGraph.save copies it).

    Two runs of tileopt-compile: the search (--emit=ugraph) into
    ugraph.mlir, then the code generation of that µGraph, so the directory
    holds the µGraph the artifact was compiled from, which
    CompiledGraph.run_on_cpu interprets."""
    from .compiled import CompiledGraph, write_sources
    options = _options(time_budget, search_threads, graph_budget, max_kernel_ops,
                       max_block_ops, seed, chip, num_warps, cache_dir, use_cache,
                       extra_args)
    kernel_graph = graph.to_mlir()
    temporary = None
    if directory is None:
        temporary = tempfile.TemporaryDirectory(prefix="tileopt-")
        directory = Path(temporary.name) / "compiled"
    directory = Path(directory)
    if directory.exists():
        raise FileExistsError(f"superoptimize: {directory} already exists")
    with tempfile.TemporaryDirectory(prefix="tileopt-compile-") as work:
        source = Path(work) / f"{graph.name}.mlir"
        source.write_text(kernel_graph)
        ugraph = run_tool("tileopt-compile",
                          [source, "--emit=ugraph", "-o", "-", *options],
                          f"superoptimizing graph {graph.name!r}")
        ugraph_file = Path(work) / f"{graph.name}.ugraph.mlir"
        ugraph_file.write_text(ugraph)
        artifact = Path(work) / "artifact"
        run_tool("tileopt-compile", [ugraph_file, "-o", artifact, *options],
                 f"compiling the µGraph of graph {graph.name!r}")
        write_sources(artifact, kernel_graph, ugraph)
        directory.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(artifact), directory)
    return CompiledGraph(directory, temporary=temporary)
