"""Runs TileOpt's command-line tools for the Python API.

The tools (`tileopt-compile`, `tileopt-interp`) are taken from
$TILEOPT_BUILD_DIR/bin, else the package's bin/ (a wheel's), else this
checkout's build/bin, else PATH. The
search cache is tileopt-compile's own ($TILEOPT_CACHE_DIR, else
$XDG_CACHE_HOME/tileopt, else ~/.cache/tileopt), shared with the command
line; `cache_dir=` overrides it as --cache-dir does. Its `compiled/`
folder keeps each compiled graph, so that a graph compiled once is loaded
without running a tool, also on a machine without them (a GPU machine
with only the runtime) where the cache was copied.
"""

import functools
import hashlib
import inspect
import os
import re
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

from .graph import user_frame

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
    for directory in (Path(__file__).resolve().parent / "bin", ROOT / "build" / "bin"):
        if os.access(directory / name, os.X_OK):
            return str(directory / name)
    found = shutil.which(name)
    if found:
        return found
    raise ToolNotFoundError(f"cannot find {name}: set TILEOPT_BUILD_DIR to a TileOpt build "
                            "directory, or put its bin/ on PATH")


def run_tool(name, args, what, remarks=None):
    """Runs tool `name` with `args`; returns its stdout, or raises
    CompileError with its diagnostics. A `remarks` list receives the
    remarks that the search left the function as it was (an op it cannot
    model, a program its verifier cannot check)."""
    command = [find_tool(name), *map(str, args)]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode:
        raise CompileError(f"{what} failed ({name} exited with {run.returncode})",
                           run.stderr, command)
    if remarks is not None:
        remarks += [line.split("remark: ", 1)[1] for line in run.stderr.splitlines()
                    if "remark: " in line and "the function is left as it is" in line]
    return run.stdout


def _warn(remarks):
    """The search's remarks as Python warnings at the user's line."""
    for remark in remarks:
        warnings.warn(remark, RuntimeWarning, stacklevel=_user_stacklevel())


def _user_stacklevel():
    """warnings.warn's stacklevel, called from run_tool, of the user's line."""
    target, frame, level = user_frame(), inspect.currentframe().f_back, 1
    while frame is not None and frame is not target:
        frame, level = frame.f_back, level + 1
    return level


def default_cache_dir():
    """tileopt-compile's cache directory when --cache-dir is not given
    (lib/Driver's defaultCacheDir)."""
    if os.environ.get("TILEOPT_CACHE_DIR"):
        return Path(os.environ["TILEOPT_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "tileopt"


# A location annotation of the builder's MLIR: loc("file":line:col), loc(unknown).
_LOCATION = re.compile(r' loc\((?:"(?:[^"\\]|\\.)*":\d+:\d+|unknown)\)')


# What the compiled-graph cache's entries hold besides the compiled graph:
# the version of the tileopt-compile that made them.
VERSION_FILE = "compiler-version"


def compiler_version():
    """The version tileopt-compile --version names ("TileOpt version V"),
    what the search cache's keys hold; None where the tool is missing (a
    GPU machine with only the runtime)."""
    try:
        tool = find_tool("tileopt-compile")
    except ToolNotFoundError:
        return None
    return _version_of(tool)


@functools.cache
def _version_of(tool):
    run = subprocess.run([tool, "--version"], capture_output=True, text=True)
    found = re.search(r"^\s*TileOpt version (\S+)", run.stdout, re.M)
    if run.returncode or not found:
        raise CompileError("tileopt-compile --version names no TileOpt version "
                           "(a tileopt-compile older than the package?)",
                           run.stdout + run.stderr, [tool, "--version"])
    return found.group(1)


def _compiled_entry(cache_dir, kernel_graph, options):
    """The folder of the compiled-graph cache that holds what `options`
    make of `kernel_graph`. Locations name the source lines that built the
    graph, which change nothing compiled: they are left out of the key, so
    the same program compiled from another checkout finds its entry."""
    key = hashlib.sha256("\0".join([_LOCATION.sub("", kernel_graph), *options])
                         .encode()).hexdigest()
    return Path(cache_dir) / "compiled" / key[:32]


def _options(time_budget, search_threads, graph_budget, max_kernel_ops, max_block_ops,
             seed, chip, num_warps, extra_args):
    chosen = {"time-budget": time_budget, "search-threads": search_threads,
              "graph-budget": graph_budget, "max-kernel-ops": max_kernel_ops,
              "max-block-ops": max_block_ops, "seed": seed, "chip": chip,
              "num-warps": num_warps}
    return [f"--{flag}={value}" for flag, value in chosen.items()
            if value is not None] + list(extra_args)


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
    $TILEOPT_CACHE_DIR, ...), use_cache=False to search without reading or
    writing that cache or its compiled graphs, extra_args (more
    tileopt-compile flags).
    `directory`, a path that does not exist yet, keeps the result; by
    default it lives in a temporary directory removed with the object
    (CompiledGraph.save copies it).

    Three runs of tileopt-compile, each stage written to the directory: the
    search (--emit=ugraph) into ugraph.mlir, its lowering (--emit=tile)
    into tile.mlir, and the code generation of that tile program into the
    artifact, so CompiledGraph.run_on_cpu interprets exactly what the GPU
    runs. A µGraph with no fused kernel is a kernel graph, which the second
    run would search again: it shares the first run's cache (a private one
    under use_cache=False), so it gets the same answer.

    The result is kept in the cache's compiled/ folder: the same graph
    (source locations aside) with the same options is loaded from there
    without compiling, its search remarks warned again, unless the entry
    was made by another version of tileopt-compile than the one found
    here: it is then compiled again and the entry replaced. Where no
    tileopt-compile is found, any entry is taken."""
    from .compiled import REMARKS_FILE, CompiledGraph, write_sources
    kernel_graph = graph.to_mlir()
    if directory is not None and Path(directory).exists():
        raise FileExistsError(f"superoptimize: {directory} already exists")
    search = _options(time_budget, search_threads, graph_budget, max_kernel_ops,
                      max_block_ops, seed, chip, num_warps, extra_args)
    entry = (_compiled_entry(cache_dir or default_cache_dir(), kernel_graph, search)
             if use_cache else None)
    if entry is not None and entry.is_dir() and _current(entry):
        # Compiled before, here or where the cache was copied from.
        _warn((entry / REMARKS_FILE).read_text().splitlines())
        if directory is None:
            return CompiledGraph(entry)
        shutil.copytree(entry, directory)
        return CompiledGraph(directory)
    with tempfile.TemporaryDirectory(prefix="tileopt-compile-") as work:
        work = Path(work)
        options = list(search)
        if not use_cache:  # a private cache, which the three runs share
            options.append(f"--cache-dir={work / 'cache'}")
        elif cache_dir is not None:
            options.append(f"--cache-dir={cache_dir}")
        stages, remarks = {}, []
        source = work / f"{graph.name}.mlir"
        source.write_text(kernel_graph)
        for stage, what in (("ugraph", f"superoptimizing graph {graph.name!r}"),
                            ("tile", f"lowering the µGraph of graph {graph.name!r}")):
            stages[stage] = run_tool("tileopt-compile",
                                     [source, f"--emit={stage}", "-o", "-", *options],
                                     what, remarks=remarks if stage == "ugraph" else None)
            source = work / f"{graph.name}.{stage}.mlir"
            source.write_text(stages[stage])
        _warn(remarks)
        artifact = work / "artifact"
        run_tool("tileopt-compile", [source, "-o", artifact, *options],
                 f"generating the GPU code of graph {graph.name!r}")
        write_sources(artifact, kernel_graph, stages["ugraph"], stages["tile"], remarks)
        (artifact / VERSION_FILE).write_text(compiler_version() or "")
        if entry is not None:
            _store(artifact, entry)
        temporary = None
        if directory is None:
            temporary = Path(tempfile.mkdtemp(prefix="tileopt-"))
            directory = temporary / "compiled"
        directory = Path(directory)
        directory.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(artifact), directory)
    return CompiledGraph(directory, temporary=temporary)


def _current(entry):
    """Whether the cache's `entry` was made by the tileopt-compile found
    here, or no tileopt-compile is found."""
    version = compiler_version()
    if version is None:
        return True
    try:
        return (entry / VERSION_FILE).read_text() == version
    except OSError:
        return False


def _store(artifact, entry):
    """Copies `artifact` into the cache as `entry`, whole or not at all (a
    copy renamed into place; another process may have stored it first). An
    entry of another compiler's version is first renamed away, so that a
    reader finds the old entry whole, the new one whole, or none."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=entry.parent))
    shutil.copytree(artifact, staging / "entry")
    try:
        if entry.is_dir() and not _current(entry):
            try:
                os.rename(entry, staging / "stale")
            except OSError:
                pass  # another process moved it first
        os.rename(staging / "entry", entry)
    except OSError:
        if not entry.is_dir():
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
