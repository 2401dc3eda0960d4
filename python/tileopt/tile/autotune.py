"""The autotuner: a kernel's constexpr parameters and compile options
searched over a space, per shape key, in two steps on two machines::

    from tileopt.tile import autotune

    tuner = autotune.Autotuner(
        "gemm", lambda m, n, k, TM, TN, STAGES: gemm_program(m, n, k, (TM, TN, 64), STAGES),
        autotune.Space(TM=(128, 256), TN=(128, 256), STAGES=(3, 4), num_warps=(4, 8),
                       chip=("sm_90a",)))
    key = dict(m=4096, n=4096, k=4096)
    tuner.prepare(key)                          # here: compile every config
    result = tuner.tune(key, lambda art: art(a=a, b=b, c=c))   # on the GPU
    Artifact(result.artifact)(a=a, b=b, c=c)

`prepare` (where LLVM/MLIR is) traces and compiles every config of the
space into $TILEOPT_CACHE_DIR/autotune/NAME/KEY/ and writes the index of
what compiled; `tune` (on the GPU machine, which cannot compile) times
every compiled config, keeps the fastest, and writes that choice beside the
index, per device, so later calls reuse it without timing. The axes
`num_warps` and `chip` are tileopt-compile's options; the others are
passed to `build` with the shape key's entries.
"""

import itertools
import json
import math
import os
import re
import shutil
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .. import tools
from .tracing import TileError

__all__ = ["Space", "Autotuner", "Measurement", "TuningResult", "config_name",
           "cuda_event_timer", "COMPILE_OPTIONS"]

# Space axes that are tileopt-compile options rather than build parameters.
COMPILE_OPTIONS = ("num_warps", "chip")


class Space:
    """The configs to search: the product of `axes` (name -> values), in
    the order given, less those for which `where(config)` is false (a
    shared-memory budget, a register bound, a shape the tiles must divide)."""

    def __init__(self, where=None, **axes):
        for name, values in axes.items():
            if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
                raise TileError(f"autotune axis `{name}` takes a sequence of values, "
                                f"got {values!r}")
        self.axes = {name: tuple(values) for name, values in axes.items()}
        self.where = where

    def configs(self):
        """Every config of the space, each a dict axis -> value."""
        names = list(self.axes)
        configs = [dict(zip(names, values)) for values in itertools.product(*self.axes.values())]
        return [c for c in configs if self.where is None or self.where(c)]


def config_name(config):
    """The config as a file name: `TM=128,TN=256,num_warps=8`."""
    return ",".join(f"{k}={v}" for k, v in config.items())


@dataclass(frozen=True)
class Measurement:
    """The timings of one config: its samples (microseconds) and their
    median; `stopped_early` when its first samples could not win."""
    config: dict
    median_us: float
    samples: tuple
    stopped_early: bool = False


@dataclass(frozen=True)
class TuningResult:
    """What `Autotuner.tune` chose: the best config's measurement and
    artifact; every config's measurement and the configs that failed to
    run, (config, message). `cached`: read from the cache, nothing timed."""
    best: Measurement
    artifact: Path
    measurements: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    cached: bool = False


def cuda_event_timer(fn):
    """Microseconds of one call of `fn` on torch's current stream, between
    two CUDA events."""
    import torch
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0


def _device_name():
    import torch
    return torch.cuda.get_device_name()


def _safe(text):
    return re.sub(r"[^A-Za-z0-9._=,-]+", "_", str(text))


def _write_json_atomically(path, value):
    """Writes `value` to `path` through a temporary file in its folder and a
    rename, so a reader sees the old file or the new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(value, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _read_json(path):
    """The JSON in `path`, or None if it is missing or unreadable."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


class Autotuner:
    """Tunes the programs `build(**key, **params)` returns over `space`.

    Timing (`tune`): each config is called `warmup` times, then timed up to
    `reps` times; once a best median exists, a config whose first `probe`
    samples all exceed it by the factor `margin` is stopped there (it cannot
    win). The best median wins."""

    def __init__(self, name, build, space, *, warmup=3, reps=20, probe=3, margin=1.15,
                 cache_dir=None):
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            raise TileError(f"autotuner name {name!r} must be a file name of letters, digits, "
                            f"'_', '.' and '-'")
        if not 1 <= probe <= reps or margin < 1:
            raise TileError(f"autotune needs 1 <= probe <= reps and margin >= 1, got probe "
                            f"{probe}, reps {reps}, margin {margin}")
        self.name, self.build, self.space = name, build, space
        self.warmup, self.reps, self.probe, self.margin = warmup, reps, probe, margin
        self._cache_dir = cache_dir

    def directory(self, key):
        """Where the configs of `key` are compiled and the choices kept."""
        root = Path(self._cache_dir) if self._cache_dir else tools.cache_dir()
        return root / "autotune" / self.name / _safe(config_name(key))

    def _program(self, key, config):
        params = {k: v for k, v in config.items() if k not in COMPILE_OPTIONS}
        overlap = set(params) & set(key)
        if overlap:
            raise TileError(f"autotune axes {sorted(overlap)} are also shape-key entries")
        options = {k: config[k] for k in COMPILE_OPTIONS if k in config}
        return self.build(**key, **params), options

    def prepare(self, key):
        """Compiles every config of the space at shape `key` (a dict of
        ints and strings), where tileopt-compile runs, and writes the index
        the GPU machine reads. A config the tracer or the code generator
        refuses is recorded with the reason and left out of the timing.
        An artifact whose program and options are unchanged is kept.
        Returns the index: [{"config", "fingerprint", "artifact"} or
        {"config", "error"}]."""
        directory = self.directory(key)
        directory.mkdir(parents=True, exist_ok=True)
        old = {e["config_name"]: e for e in self._index(key)}
        index = []
        for config in self.space.configs():
            name = config_name(config)
            try:
                program, options = self._program(key, config)
                fingerprint = program.fingerprint(sorted(options.items()))
                artifact = directory / f"{_safe(name)}.art"
                if old.get(name, {}).get("fingerprint") != fingerprint or not artifact.is_dir():
                    shutil.rmtree(artifact, ignore_errors=True)
                    program.compile(artifact, **options)
                index.append(dict(config=config, config_name=name, fingerprint=fingerprint,
                                  artifact=artifact.name))
            except (TileError, tools.ToolError) as e:
                index.append(dict(config=config, config_name=name, error=str(e)))
        _write_json_atomically(directory / "index.json", index)
        return index

    def _index(self, key):
        index = _read_json(self.directory(key) / "index.json")
        return index if isinstance(index, list) else []

    def compiled(self, key):
        """The configs `prepare` compiled for `key`: [(config, artifact path,
        fingerprint)]."""
        directory = self.directory(key)
        return [(e["config"], directory / e["artifact"], e["fingerprint"])
                for e in self._index(key) if "artifact" in e]

    def _choice_path(self, key, device):
        return self.directory(key) / f"best.{_safe(device)}.json"

    def cached(self, key, device):
        """The cached choice for `key` on `device` as a TuningResult, or
        None when there is none or it is unusable: unreadable JSON, fields
        missing, or a config whose compiled artifact is gone or was
        recompiled from another program since it was timed."""
        entry = _read_json(self._choice_path(key, device))
        try:
            config, fingerprint = entry["config"], entry["fingerprint"]
            median = float(entry["median_us"])
        except (TypeError, KeyError, ValueError):
            return None
        if not math.isfinite(median) or median <= 0:
            return None
        for compiled_config, artifact, compiled_fingerprint in self.compiled(key):
            if compiled_config == config and compiled_fingerprint == fingerprint and \
                    artifact.is_dir():
                return TuningResult(Measurement(config, median, ()), artifact, cached=True)
        return None

    def measure(self, candidates, timer):
        """Times `candidates`, [(config, fn)], each `fn` one launch, with
        `timer(fn)` -> microseconds of one call; [Measurement] in order."""
        measurements, best = [], math.inf
        for config, fn in candidates:
            for _ in range(self.warmup):
                fn()
            samples = []
            for _ in range(self.reps):
                samples.append(float(timer(fn)))
                if len(samples) == self.probe and min(samples) > self.margin * best:
                    break
            stopped = len(samples) < self.reps
            median = statistics.median(samples)
            measurements.append(Measurement(config, median, tuple(samples), stopped))
            if not stopped:
                best = min(best, median)
        return measurements

    def tune(self, key, launch, *, device=None, timer=None, load=None, retune=False):
        """The best config for `key` on `device` (default: torch's current
        CUDA device's name): the cached choice unless `retune`, else every
        compiled config timed, the best written to the cache atomically.
        `launch(artifact)` runs a loaded artifact once on the arguments to
        time; `load(path)` loads one (default tileopt.runtime.Artifact);
        `timer(fn)` times one call (default cuda_event_timer)."""
        device = device if device is not None else _device_name()
        if not retune:
            cached = self.cached(key, device)
            if cached is not None:
                return cached
        compiled = self.compiled(key)
        if not compiled:
            raise TileError(f"autotuner `{self.name}` has no compiled config for "
                            f"{config_name(key)} in {self.directory(key)}: run prepare "
                            f"where tileopt-compile is")
        if load is None:
            from ..runtime import Artifact as load
        timer = timer or cuda_event_timer
        candidates, failures, artifacts = [], [], {}
        for config, path, fingerprint in compiled:
            try:
                artifact = load(path)
                launch(artifact)
            except Exception as e:  # a config that cannot run is left out, with the reason
                failures.append((config, f"{type(e).__name__}: {e}"))
                continue
            artifacts[config_name(config)] = (path, fingerprint)
            candidates.append((config, lambda a=artifact: launch(a)))
        if not candidates:
            raise TileError(f"autotuner `{self.name}`: no config of {config_name(key)} ran: " +
                            "; ".join(f"{config_name(c)}: {m}" for c, m in failures))
        measurements = self.measure(candidates, timer)
        best = min((m for m in measurements if not m.stopped_early), key=lambda m: m.median_us)
        path, fingerprint = artifacts[config_name(best.config)]
        _write_json_atomically(self._choice_path(key, device), dict(
            config=best.config, fingerprint=fingerprint, median_us=best.median_us,
            device=device, timings={config_name(m.config): m.median_us for m in measurements}))
        return TuningResult(best, path, measurements, failures)
