"""tileopt.tile.autotune without a GPU: the space's configs, prepare's
compilation and index (real tileopt-compile, refusals recorded), and tune
with an injected timer and loader: the fastest config chosen, early exit
for configs that cannot win, the choice written to the cache and reused
without timing, per device, and cache entries that must be ignored.

Run: TILEOPT_BUILD_DIR=build python3 -m pytest -q python/tests/test_autotune.py
"""

import json
import shutil

import pytest

from tileopt import tile
from tileopt.tile import autotune

N = 16384


@tile.kernel
def scale(x, y, TILE: tile.constexpr):
    t = tile.load(x, (tile.bid(0),), (TILE,))
    tile.store(y, (tile.bid(0),), t * 2.0)


def build(n, TILE):
    spec = tile.array((n,), "f32")
    return scale.trace((tile.cdiv(n, TILE),), spec, spec, TILE)


# TILE=96 is refused by the tracer (not a power of two), TILE=16384 on one
# warp by the code generator (512 elements a thread).
SPACE = autotune.Space(TILE=(96, 256, 16384), num_warps=(1, 4))
KEY = dict(n=N)
COMPILED = ["TILE=256,num_warps=1", "TILE=256,num_warps=4", "TILE=16384,num_warps=4"]


def tuner(cache_dir, **options):
    return autotune.Autotuner("scale", build, SPACE, cache_dir=cache_dir, **options)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """A cache directory where prepare compiled the space once."""
    root = tmp_path_factory.mktemp("autotune-prepared")
    tuner(root).prepare(KEY)
    return root


@pytest.fixture
def cache(prepared, tmp_path):
    """A fresh copy of the prepared cache for one test."""
    shutil.copytree(prepared, tmp_path / "cache")
    return tmp_path / "cache"


class FakeGPU:
    """Loads an artifact as its config's name and times a launch as the
    next of that config's scripted samples (the last one repeats)."""

    def __init__(self, samples):
        self.samples = {name: list(s) for name, s in samples.items()}
        self.timed = {name: 0 for name in samples}

    @staticmethod
    def load(path):
        return path.name[:-len(".art")]

    @staticmethod
    def launch(name):
        return name

    def timer(self, fn):
        name = fn()
        self.timed[name] += 1
        queue = self.samples[name]
        return queue.pop(0) if len(queue) > 1 else queue[0]


def test_space_configs_in_axis_order_and_filtered():
    space = autotune.Space(A=(1, 2), B=("x", "y"), where=lambda c: (c["A"], c["B"]) != (2, "x"))
    assert space.configs() == [dict(A=1, B="x"), dict(A=1, B="y"), dict(A=2, B="y")]
    assert autotune.config_name(dict(A=1, B="y")) == "A=1,B=y"
    assert len(SPACE.configs()) == 6
    with pytest.raises(tile.TileError, match="axis `A` takes a sequence"):
        autotune.Space(A=4)


def test_prepare_compiles_the_space_and_records_refusals(prepared):
    t = tuner(prepared)
    index = json.loads((t.directory(KEY) / "index.json").read_text())
    assert [e["config_name"] for e in index] == [autotune.config_name(c) for c in SPACE.configs()]
    errors = {e["config_name"]: e["error"] for e in index if "error" in e}
    assert "powers of two" in errors["TILE=96,num_warps=1"]
    assert "over the limit of 256" in errors["TILE=16384,num_warps=1"]
    compiled = t.compiled(KEY)
    assert [autotune.config_name(c) for c, _, _ in compiled] == COMPILED
    for _, artifact, _ in compiled:
        manifest = json.loads((artifact / "manifest.json").read_text())
        assert [b["name"] for b in manifest["buffers"]] == ["x", "y"]
    assert json.loads((compiled[1][1] / "manifest.json").read_text())["kernels"][0]["block"] == \
        [128, 1, 1]
    # Unchanged programs are not compiled again.
    stamp = compiled[0][1].stat().st_mtime_ns
    t.prepare(KEY)
    assert compiled[0][1].stat().st_mtime_ns == stamp


def test_key_entries_may_not_be_axes(tmp_path):
    t = autotune.Autotuner("clash", build, autotune.Space(n=(8,), TILE=(256,)), cache_dir=tmp_path)
    [entry] = t.prepare(KEY)
    assert "also shape-key entries" in entry["error"]


def test_tune_picks_the_fastest_and_stops_configs_that_cannot_win(cache):
    gpu = FakeGPU({COMPILED[0]: [10.0], COMPILED[1]: [9.0, 11.0, 10.5, 50.0, 9.5],
                   COMPILED[2]: [40.0]})
    t = tuner(cache, warmup=2, reps=8, probe=3, margin=1.2)
    result = t.tune(KEY, gpu.launch, device="fake", load=gpu.load, timer=gpu.timer)
    first, second, slow = result.measurements
    assert first.samples == (10.0,) * 8 and first.median_us == 10.0
    # The second config's first samples are within the margin of 10: it
    # runs all its reps (9, 11, 10.5, 50, then 9.5: median 9.5) and wins.
    assert not second.stopped_early and len(second.samples) == 8
    assert second.median_us == 9.5
    assert result.best == second and not result.cached
    assert result.artifact.name == COMPILED[1] + ".art"
    assert slow.stopped_early and slow.samples == (40.0,) * 3
    assert gpu.timed == {COMPILED[0]: 8, COMPILED[1]: 8, COMPILED[2]: 3}


def test_tune_writes_the_choice_and_reuses_it_without_timing(cache):
    gpu = FakeGPU({COMPILED[0]: [30.0], COMPILED[1]: [20.0], COMPILED[2]: [25.0]})
    t = tuner(cache, reps=4)
    result = t.tune(KEY, gpu.launch, device="GPU A", load=gpu.load, timer=gpu.timer)
    assert autotune.config_name(result.best.config) == COMPILED[1]
    entry = json.loads((t.directory(KEY) / "best.GPU_A.json").read_text())
    assert entry["config"] == {"TILE": 256, "num_warps": 4} and entry["median_us"] == 20.0
    assert entry["timings"] == {COMPILED[0]: 30.0, COMPILED[1]: 20.0, COMPILED[2]: 25.0}
    assert [p.name for p in t.directory(KEY).iterdir() if p.name.startswith(".")] == []

    def no_timing(fn):
        raise AssertionError("a cached choice must not be timed again")

    again = t.tune(KEY, gpu.launch, device="GPU A", load=gpu.load, timer=no_timing)
    assert again.cached and again.best.config == result.best.config
    assert again.artifact == result.artifact and again.best.median_us == 20.0
    # Another device has a choice of its own; retune=True times again.
    other = FakeGPU({COMPILED[0]: [5.0], COMPILED[1]: [20.0], COMPILED[2]: [25.0]})
    mine = t.tune(KEY, other.launch, device="GPU B", load=other.load, timer=other.timer)
    assert autotune.config_name(mine.best.config) == COMPILED[0] and not mine.cached
    assert t.cached(KEY, "GPU A").best.config == result.best.config
    retuned = t.tune(KEY, other.launch, device="GPU A", load=other.load, timer=other.timer,
                     retune=True)
    assert autotune.config_name(retuned.best.config) == COMPILED[0]


@pytest.mark.parametrize("corrupt", [
    "{not json",
    json.dumps([1, 2]),
    json.dumps({"config": {"TILE": 256, "num_warps": 4}, "median_us": 1.0}),
    json.dumps({"config": {"TILE": 256, "num_warps": 4}, "fingerprint": "0" * 64,
                "median_us": 1.0}),
    json.dumps({"config": {"TILE": 512, "num_warps": 4}, "fingerprint": "x", "median_us": 1.0}),
    "FINGERPRINT-OK, median NaN",
])
def test_a_corrupted_cache_entry_is_ignored_and_replaced(cache, corrupt):
    t = tuner(cache, reps=3)
    path = t.directory(KEY) / "best.fake.json"
    if corrupt.startswith("FINGERPRINT-OK"):
        fingerprint = t.compiled(KEY)[1][2]
        corrupt = json.dumps({"config": {"TILE": 256, "num_warps": 4},
                              "fingerprint": fingerprint, "median_us": float("nan")})
    path.write_text(corrupt)
    assert t.cached(KEY, "fake") is None
    gpu = FakeGPU({COMPILED[0]: [7.0], COMPILED[1]: [8.0], COMPILED[2]: [9.0]})
    result = t.tune(KEY, gpu.launch, device="fake", load=gpu.load, timer=gpu.timer)
    assert not result.cached and sum(gpu.timed.values()) > 0
    assert json.loads(path.read_text())["config"] == {"TILE": 256, "num_warps": 1}


def test_a_config_that_fails_to_run_is_left_out(cache):
    gpu = FakeGPU({COMPILED[0]: [7.0], COMPILED[1]: [8.0], COMPILED[2]: [9.0]})

    def launch(name):
        if name == COMPILED[0]:
            raise RuntimeError("launch failed")
        return name

    result = tuner(cache, reps=3).tune(KEY, launch, device="fake", load=gpu.load, timer=gpu.timer)
    assert [(autotune.config_name(c), m) for c, m in result.failures] == \
        [(COMPILED[0], "RuntimeError: launch failed")]
    assert autotune.config_name(result.best.config) == COMPILED[1]


def test_tune_without_prepare_says_so(tmp_path):
    with pytest.raises(tile.TileError, match="no compiled config .* run prepare"):
        tuner(tmp_path).tune(KEY, FakeGPU.launch, device="fake", load=FakeGPU.load,
                             timer=lambda fn: 1.0)
