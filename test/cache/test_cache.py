"""The search cache and artifacts under concurrency, corruption, full disks
and kills (issue 28, item 4): never a wrong answer, never a crash; a bad
cache entry is a miss (a remark), searched again and replaced; a cache that
cannot be written is a warning, and the compile goes on without it.

    TILEOPT_BUILD_DIR=build /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider test/cache

The full-disk tests mount a small tmpfs, which needs root; elsewhere they
are skipped (and /dev/full still checks the -o output).
"""

import json
import os
import random
import shutil
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

BUILD = Path(os.environ.get("TILEOPT_BUILD_DIR", Path(__file__).resolve().parents[2] / "build")).resolve()
COMPILE = str(BUILD / "bin" / "tileopt-compile")
# Small searches: the tests are about the cache, not the answer.
SEARCH = ["--search-threads=1", "--time-budget=5"]
CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")
HAS_PTXAS = os.access(os.path.join(CUDA_HOME, "bin", "ptxas"), os.X_OK) or shutil.which("ptxas")
needs_ptxas = pytest.mark.skipif(not HAS_PTXAS, reason="no ptxas (CUDA toolkit)")

SILU = """\
func.func @silu(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %s = tosa.sigmoid %x : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %x, %s, %shift : (tensor<8x64xf32>, tensor<8x64xf32>, tensor<1xi8>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
"""
# Another program of the same type: its cache entry, put in silu's place,
# would compile silu into x * x if it were taken.
SQUARE = """\
func.func @square(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %x, %x, %shift : (tensor<8x64xf32>, tensor<8x64xf32>, tensor<1xi8>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
"""
CRASH_MARKS = ("LLVM ERROR", "Stack dump", "PLEASE submit", "Assertion", "UNREACHABLE")


def compile_(args, cwd, env=None, **kwargs):
    return subprocess.run([COMPILE, *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=300, **kwargs)


def assert_clean(result, expect_rc=0):
    assert not any(mark in result.stderr for mark in CRASH_MARKS), result.stderr
    assert result.returncode == expect_rc, result.stderr


def entries(cache):
    return sorted(p.name for p in Path(cache).iterdir()) if Path(cache).exists() else []


@pytest.fixture
def work(tmp_path):
    (tmp_path / "silu.mlir").write_text(SILU)
    (tmp_path / "square.mlir").write_text(SQUARE)
    return tmp_path


def ugraph(work, cache, program="silu.mlir", extra=(), env=None):
    result = compile_([program, "--emit=ugraph", f"--cache-dir={cache}", *SEARCH, *extra], work, env)
    assert_clean(result)
    return result


@pytest.fixture
def cold(work):
    """silu's µGraph searched with no cache, and a cache holding its entry."""
    result = compile_(["silu.mlir", "--emit=ugraph", "--no-cache", *SEARCH], work)
    assert_clean(result)
    ugraph(work, work / "cache")
    assert len(entries(work / "cache")) == 1
    return result.stdout


def test_concurrent_compiles_write_one_whole_entry(work, cold):
    cache = work / "concurrent"
    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(lambda _: compile_(["silu.mlir", "--emit=ugraph", f"--cache-dir={cache}", *SEARCH],
                                                   work), range(6)))
    for result in results:
        assert_clean(result)
        assert result.stdout == cold
    assert entries(cache) == entries(work / "cache"), "one entry, no temporary file left"
    hit = ugraph(work, cache)
    assert "read from the cache" in hit.stderr and hit.stdout == cold


def corrupt(kind, entry, work):
    text = entry.read_bytes()
    header, _, body = text.partition(b"\n")
    if kind == "truncated":
        entry.write_bytes(text[: len(text) // 2])
    elif kind == "header-only":
        entry.write_bytes(header + b"\n")
    elif kind == "empty":
        entry.write_bytes(b"")
    elif kind == "garbage":
        entry.write_bytes(random.Random(3).randbytes(4096))
    elif kind == "no-header":  # as TileOpt wrote entries before the header
        entry.write_bytes(body)
    elif kind == "other-key":  # another key's header, say another version's
        entry.write_bytes(header[:-8] + b"00000000\n" + body)
    elif kind == "other-program":  # square's entry copied over silu's
        other = work / "other-cache"
        ugraph(work, other, "square.mlir")
        [name] = entries(other)
        shutil.copy(other / name, entry)
    else:
        raise ValueError(kind)


@pytest.mark.parametrize("kind", ["truncated", "header-only", "empty", "garbage", "no-header", "other-key",
                                  "other-program"])
def test_bad_entry_is_a_miss_and_is_replaced(work, cold, kind):
    cache = work / "cache"
    [name] = entries(cache)
    corrupt(kind, cache / name, work)
    again = ugraph(work, cache)
    assert again.stdout == cold, "the bad entry's answer was taken"
    assert "read from the cache" not in again.stderr
    expected = ("was written for another program" if kind in ("other-key", "other-program")
                else "is unreadable; searching again")
    assert expected in again.stderr
    assert "error" not in again.stderr
    # Replaced: the next compile answers from it.
    assert entries(cache) == [name]
    hit = ugraph(work, cache)
    assert "read from the cache" in hit.stderr and hit.stdout == cold


def test_entry_that_is_a_directory(work, cold):
    cache = work / "cache"
    [name] = entries(cache)
    (cache / name).unlink()
    (cache / name).mkdir()
    result = ugraph(work, cache)
    assert result.stdout == cold
    assert "silu.mlir:1:1: warning: cannot write the superoptimizer cache" in result.stderr


def test_cache_dir_that_cannot_be_created(work, cold):
    (work / "file").write_text("not a directory\n")
    result = ugraph(work, work / "file" / "cache")
    assert result.stdout == cold
    assert "silu.mlir:1:1: warning: cannot write the superoptimizer cache" in result.stderr
    assert "Not a directory" in result.stderr


def as_nobody():
    os.setgid(65534)
    os.setuid(65534)


def test_read_only_cache_dir(work, cold):
    """Root writes into a read-only directory anyway: run as nobody then."""
    cache = work / "read-only"
    cache.mkdir()
    cache.chmod(0o555)
    preexec = None
    if os.geteuid() == 0:
        work.chmod(0o755)
        (work / "silu.mlir").chmod(0o644)
        preexec = as_nobody
    result = compile_(["silu.mlir", "--emit=ugraph", f"--cache-dir={cache}", *SEARCH], work, preexec_fn=preexec)
    assert_clean(result)
    assert result.stdout == cold
    assert "warning: cannot write the superoptimizer cache" in result.stderr
    assert "Permission denied" in result.stderr
    assert entries(cache) == []


def test_output_on_a_full_device(work):
    """/dev/full: every write fails with ENOSPC."""
    result = compile_(["silu.mlir", "--emit=ugraph", "--no-cache", *SEARCH, "-o", "/dev/full"], work)
    assert_clean(result, expect_rc=1)
    assert "tileopt-compile: cannot write /dev/full: No space left on device" in result.stderr


@pytest.fixture
def full_disk(tmp_path):
    """A 64 KiB tmpfs, filled but for `room` bytes (a function of it)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")

    def fill(room=0):
        with open(mount / "filler", "wb") as f:
            try:
                f.write(b"\0" * (64 << 10))
                f.flush()
            except OSError:
                pass
        if room:
            os.truncate(mount / "filler", os.path.getsize(mount / "filler") - room)
        return mount

    yield fill
    subprocess.run(["umount", str(mount)], check=True)


def test_cache_on_a_full_disk(work, cold, full_disk):
    mount = full_disk()
    result = ugraph(work, mount / "cache")
    assert result.stdout == cold
    assert "warning: cannot write the superoptimizer cache" in result.stderr
    assert "No space left on device" in result.stderr
    assert [p for p in (mount / "cache").iterdir()] == [], "no part of an entry left"


@needs_ptxas
def test_full_temporary_directory_is_not_cached(work, cold, full_disk):
    """ptxas checks each candidate through files in $TMPDIR. With no room
    there every candidate is left out, and the search keeps the program as
    it is: that answer says nothing of the program, so it must not be
    cached (it once was, for good)."""
    mount = full_disk()
    cache = work / "tmp-full"
    result = ugraph(work, cache, env={"TMPDIR": str(mount)})
    assert "warning: ptxas could not check" in result.stderr
    assert "the answer is not cached" in result.stderr
    assert entries(cache) == []
    again = ugraph(work, cache)
    assert "read from the cache" not in again.stderr and again.stdout == cold


def test_emit_output_on_a_full_disk(work, full_disk):
    mount = full_disk()
    result = compile_(["silu.mlir", "--emit=ugraph", "--no-cache", *SEARCH, "-o", str(mount / "out.mlir")], work)
    assert_clean(result, expect_rc=1)
    assert "cannot write" in result.stderr and "No space left on device" in result.stderr
    assert not (mount / "out.mlir").exists()


@needs_ptxas
@pytest.mark.parametrize("room", [0, 4 << 10, 8 << 10])
def test_artifact_on_a_full_disk(work, full_disk, room):
    """No room, room for the directory and a file or two: an error, and
    nothing left at -o or beside it."""
    mount = full_disk(room)
    result = compile_(["silu.mlir", "-o", str(mount / "silu.art"), "--no-cache", *SEARCH], work)
    assert_clean(result, expect_rc=1)
    assert "tileopt-compile: cannot" in result.stderr
    assert sorted(p.name for p in mount.iterdir()) == ["filler"]


def artifact_files(art):
    return {p.name: p.read_bytes() for p in Path(art).iterdir()}


@needs_ptxas
def test_concurrent_compiles_to_one_artifact(work):
    """Compiles writing the same -o at once all succeed, and leave one whole
    artifact and nothing beside it (one in a dozen failed with 'cannot
    replace': each moved the other's artifact aside)."""
    assert_clean(compile_(["silu.mlir", "-o", "reference.art", f"--cache-dir={work / 'cache'}"], work))
    reference = artifact_files(work / "reference.art")
    for _ in range(4):
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(lambda _: compile_(["silu.mlir", "-o", "same.art",
                                                        f"--cache-dir={work / 'cache'}"], work), range(4)))
        for result in results:
            assert_clean(result)
        assert artifact_files(work / "same.art") == reference
        assert sorted(p.name for p in work.iterdir() if p.name.startswith("same")) == ["same.art"]


def killed_at(args, work, seconds):
    process = subprocess.Popen([COMPILE, *args], cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(seconds)
    process.send_signal(signal.SIGKILL)
    process.wait()


def test_compile_killed_while_writing_the_entry(work, cold):
    """RLIMIT_FSIZE kills the compile (SIGXFSZ) in the middle of writing
    its cache entry (with --compile-candidates=false, the first file it
    writes): the next compile is not misled by what is left."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (256, 256))

    cache = work / "killed"
    result = compile_(["silu.mlir", "--emit=ugraph", f"--cache-dir={cache}", *SEARCH, "--compile-candidates=false"],
                      work, preexec_fn=limit)
    assert result.returncode == -signal.SIGXFSZ, "the kill was not mid-write"
    # LLVM's handler of the signal removes the temporary file.
    assert entries(cache) == [], entries(cache)
    again = ugraph(work, cache, extra=["--compile-candidates=false"])
    assert "read from the cache" not in again.stderr
    hit = ugraph(work, cache, extra=["--compile-candidates=false"])
    assert "read from the cache" in hit.stderr and hit.stdout == again.stdout


def interrupted_while_writing(args, work, watch, sig):
    """Runs tileopt-compile in `work`, stops it (SIGSTOP) as soon as a name
    with `.partial` appears in `watch`, sends it `sig` if that is still
    there, and lets it go on. Whether the signal came mid-write, and the
    exit status. The compile gets SIGINT's default action: a shell starts
    background jobs with SIGINT ignored, and the child would inherit that."""
    def default_sigint():
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    process = subprocess.Popen([COMPILE, *args], cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               preexec_fn=default_sigint)
    caught = False
    while process.poll() is None:
        if any(".partial" in name for name in entries(watch)):
            process.send_signal(signal.SIGSTOP)
            # The stop takes effect a moment later: look once it has.
            stat = Path(f"/proc/{process.pid}/stat")
            while stat.read_text().rsplit(")", 1)[1].split()[0] not in "tTZ":
                pass
            caught = any(".partial" in name for name in entries(watch))
            if caught:
                process.send_signal(sig)
            process.send_signal(signal.SIGCONT)
            break
    return caught, process.wait()


@needs_ptxas
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("writing", ["artifact", "entry"])
def test_interrupted_while_writing_leaves_no_partial(work, cold, sig, writing):
    """SIGINT or SIGTERM while the compile writes its artifact (a staging
    directory beside -o) or its cache entry (a temporary file): it ends as
    the signal says and removes what it was writing; -o holds the whole
    artifact or nothing. The writes take well under a millisecond, so an
    attempt that misses them (the compile ends first) is repeated."""
    assert_clean(compile_(["silu.mlir", "-o", "reference.art", f"--cache-dir={work / 'cache'}"], work))
    reference = artifact_files(work / "reference.art")
    for attempt in range(100):
        run = work / f"run{attempt}"
        run.mkdir()
        shutil.copy(work / "silu.mlir", run)
        # The artifact from the warm cache, the entry from a cold one.
        cache = work / "cache" if writing == "artifact" else run / "cache"
        caught, rc = interrupted_while_writing(["silu.mlir", "-o", "out.art", f"--cache-dir={cache}", *SEARCH],
                                               run, run if writing == "artifact" else cache, sig)
        if not caught:
            continue
        assert rc == -sig
        left = [name for d in (run, cache) for name in entries(d) if ".partial" in name]
        assert left == [], left
        if (run / "out.art").exists():
            assert artifact_files(run / "out.art") == reference
        return
    pytest.fail("no attempt was interrupted mid-write")


@needs_ptxas
def test_stale_partials_do_not_break_a_compile(work, cold):
    """What a SIGKILL mid-write leaves, a staging directory beside -o and a
    temporary file in the cache, changes nothing for the next compile (it
    is left as it is: its owner may still be running)."""
    assert_clean(compile_(["silu.mlir", "-o", "reference.art", "--no-cache", *SEARCH], work))
    reference = artifact_files(work / "reference.art")
    stale = work / "out.art.partial-000000"
    stale.mkdir()
    (stale / "manifest.json").write_text("{")
    cache = work / "stale-cache"
    cache.mkdir()
    (cache / "0123456789abcdef.mlir.00000000.partial").write_text("// tileopt search cache, key sha256 0")
    for _ in range(2):
        result = compile_(["silu.mlir", "-o", "out.art", f"--cache-dir={cache}", *SEARCH], work)
        assert_clean(result)
        assert artifact_files(work / "out.art") == reference
    assert "read from the cache" in result.stderr
    assert len([name for name in entries(cache) if name.endswith(".mlir")]) == 1


@needs_ptxas
def test_compiles_killed_at_random_times(work, cold):
    """SIGKILL at random points of cold compiles to one cache and one -o:
    afterwards -o holds the whole artifact or nothing, and a compile from
    what the cache holds is right."""
    assert_clean(compile_(["silu.mlir", "-o", "reference.art", "--no-cache", *SEARCH], work))
    reference = artifact_files(work / "reference.art")
    cache = work / "kill-cache"
    rng = random.Random(28)
    for _ in range(8):
        shutil.rmtree(cache, ignore_errors=True)
        killed_at(["silu.mlir", "-o", "killed.art", f"--cache-dir={cache}", *SEARCH], work, rng.uniform(0.05, 1.5))
        if (work / "killed.art").exists():
            assert artifact_files(work / "killed.art") == reference
        assert ugraph(work, cache).stdout == cold
    result = compile_(["silu.mlir", "-o", "killed.art", f"--cache-dir={cache}", *SEARCH], work)
    assert_clean(result)
    assert artifact_files(work / "killed.art") == reference
    json.loads((work / "killed.art" / "manifest.json").read_text())
