"""Every command that README.md and docs/ show runs, as written.

Each ```sh (or bash, shell) block of README.md and docs/**/*.md that calls
TileOpt (build/bin tools, scripts/, a tileopt-* tool, or mlir-opt with the
plugin) is run with bash -euo pipefail, and fails the test if it exits
non-zero. The blocks of one document run in order in one working
directory, as a reader would run them: a temporary directory holding a
link to each top-level entry of the checkout (so examples/, scripts/ and
build/bin/ resolve) and the files the commands write (softmax.art, ...).

What a block cannot do here is said in an HTML comment on the line before
its fence, which the rendered page does not show:

    <!-- doc-test: gpu -->                   needs a GPU: skipped, listed
    <!-- doc-test: skip: REASON -->          skipped, listed with REASON
    <!-- doc-test: replace OLD NEW -->       run with OLD replaced by NEW
                                             (a placeholder such as <w>)

Items combine with ";". A document that names files it does not have
(`prog.mlir`: "your program") gets them from PLACEHOLDER_FILES. Paths of
the checkout that a page names in `code` must exist
(test_named_paths_exist).

The environment: build/bin and the LLVM tools on PATH (bare `tileopt-opt`
and `mlir-opt` resolve), TILEOPT_SKIP_BUILD=1 (scripts use the build there
and start no build of their own), the search cache in a temporary
directory (so searches start cold, and a second search of a program in
the run is answered from it), scripts/prepare-device-run.sh's artifacts in
the working directory. $TILEOPT_BUILD_DIR is the build (default: build/ of
the checkout); $TILEOPT_LLVM_TOOLS_DIR the LLVM tools (default
/usr/lib/llvm-22/bin).
"""

import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("TILEOPT_BUILD_DIR", ROOT / "build")).resolve()
LLVM_TOOLS = Path(os.environ.get("TILEOPT_LLVM_TOOLS_DIR", "/usr/lib/llvm-22/bin"))
DOCUMENTS = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
# Seconds a block may take; the whole run is meant to stay near a minute.
BLOCK_TIMEOUT = 120

# Files that documents name as "your program", per document.
PLACEHOLDER_FILES = {
    "docs/import.md": {"prog.mlir": "test/corpus/programs/gated_mlp.mlir"},
}

FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
DIRECTIVE = re.compile(r"^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
SHELL_LANGUAGES = {"sh", "bash", "shell", "console"}
# A command of TileOpt's: what the documents promise works.
OURS = re.compile(r"(^|[\s/;&|(])(build/bin/|\.?/?scripts/|tileopt-[a-z-]+\b|mlir-opt\b)")


@dataclass
class Block:
    document: Path
    line: int  # of the opening fence, 1-based
    text: str
    skip: str = ""  # the reason, if skipped
    replacements: list = field(default_factory=list)

    @property
    def id(self):
        return f"{self.document.relative_to(ROOT)}:{self.line}"

    def script(self):
        text = self.text
        for old, new in self.replacements:
            text = text.replace(old, new)
        return text


def parse_directive(text, where):
    """(skip reason, replacements) of a doc-test comment."""
    skip, replacements = "", []
    for item in filter(None, (i.strip() for i in text.split(";"))):
        if item == "gpu":
            skip = "needs a GPU"
        elif item.startswith("skip:") and item[5:].strip():
            skip = item[5:].strip()
        elif item.startswith("replace "):
            parts = item.split()
            if len(parts) != 3:
                raise ValueError(f"{where}: replace takes OLD NEW: {item!r}")
            replacements.append((parts[1], parts[2]))
        else:
            raise ValueError(f"{where}: unknown doc-test item {item!r} "
                             "(gpu, skip: REASON, replace OLD NEW)")
    return skip, replacements


def blocks_of(document):
    """The shell blocks of `document` that call TileOpt, in order."""
    lines = document.read_text().splitlines()
    found = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, language = m.group(2), m.group(3).lower()
        start = i
        i += 1
        body = []
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        i += 1
        if language not in SHELL_LANGUAGES:
            continue
        code = [l for l in body if l.strip() and not l.strip().startswith("#")]
        if not any(OURS.search(l) for l in code):
            continue
        previous = next((lines[j] for j in range(start - 1, -1, -1)
                         if lines[j].strip()), "")
        skip, replacements = "", []
        d = DIRECTIVE.match(previous)
        if d:
            skip, replacements = parse_directive(
                d.group(1), f"{document.relative_to(ROOT)}:{start}")
        found.append(Block(document, start + 1, "\n".join(body) + "\n",
                           skip, replacements))
    return found


BLOCKS = [b for d in DOCUMENTS for b in blocks_of(d)]


@pytest.fixture(scope="session")
def session_dir():
    path = Path(tempfile.mkdtemp(prefix="tileopt-doc-commands-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


_workdirs = {}


def workdir_of(document, session_dir):
    """The working directory of `document`'s blocks: links to the checkout's
    top-level entries (build/ to the build), and its placeholder files."""
    if document in _workdirs:
        return _workdirs[document]
    rel = str(document.relative_to(ROOT))
    path = session_dir / re.sub(r"[^\w.-]", "_", rel)
    path.mkdir()
    for entry in ROOT.iterdir():
        if entry.name.startswith(".") or entry.name == "build":
            continue
        (path / entry.name).symlink_to(entry)
    (path / "build").symlink_to(BUILD)
    for name, source in PLACEHOLDER_FILES.get(rel, {}).items():
        shutil.copy(ROOT / source, path / name)
    _workdirs[document] = path
    return path


def environment(session_dir, workdir):
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(BUILD / "bin"), str(LLVM_TOOLS), env.get("PATH", "")])
    env["TILEOPT_BUILD_DIR"] = str(BUILD)
    env["TILEOPT_SKIP_BUILD"] = "1"
    env["TILEOPT_CACHE_DIR"] = str(session_dir / "search-cache")
    env["TILEOPT_DEVICE_ARTIFACTS"] = str(workdir / "device-artifacts")
    return env


def test_documents_have_commands():
    """The extraction finds the blocks (a parser bug would pass vacuously)."""
    documents = {b.document.name for b in BLOCKS}
    assert "README.md" in documents and "user-guide.md" in documents, documents


def test_skips_are_few():
    """Skips are for what cannot run here: a GPU, or minutes of work."""
    skipped = [b for b in BLOCKS if b.skip]
    assert len(skipped) <= len(BLOCKS) // 3, [(b.id, b.skip) for b in skipped]


def test_named_paths_exist():
    """A path of the checkout a page names in `code` exists, so that pages
    do not point at files that were renamed or removed. Paths with a
    placeholder in capitals (examples/ugraph/NAME.mlir) are patterns."""
    tops = [e.name for e in ROOT.iterdir()
            if e.is_dir() and not e.name.startswith(".") and e.name != "build"]
    path = re.compile(r"^(%s)/[\w./-]*$" % "|".join(map(re.escape, tops)))
    missing = []
    for document in DOCUMENTS:
        for code in set(re.findall(r"`([^`\n]+)`", document.read_text())):
            for word in code.split():
                word = word.rstrip(",:;)")
                if path.match(word) and not (ROOT / word).exists() and \
                        not re.search(r"[A-Z]{3,}", word):
                    missing.append(f"{document.relative_to(ROOT)}: {word}")
    assert not missing, "pages name paths that do not exist:\n" + "\n".join(missing)


def has_ptxas():
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    return os.access(os.path.join(cuda, "bin", "ptxas"), os.X_OK) or \
        shutil.which("ptxas") is not None


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_command(block, session_dir):
    if block.skip:
        pytest.skip(f"{block.id}: {block.skip}")
    if not has_ptxas():
        # As the lit tests that compile to cubins (REQUIRES: ptxas).
        pytest.skip(f"{block.id}: no ptxas (the CUDA toolkit) to compile with")
    workdir = workdir_of(block.document, session_dir)
    started = time.monotonic()
    try:
        result = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", block.script()], cwd=workdir,
            env=environment(session_dir, workdir), capture_output=True,
            text=True, timeout=BLOCK_TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{block.id}: still running after {BLOCK_TIMEOUT} s:\n{block.script()}")
    seconds = time.monotonic() - started
    print(f"{block.id}: {seconds:.1f} s")
    if result.returncode != 0:
        pytest.fail(
            f"{block.id}: exit code {result.returncode} after {seconds:.1f} s\n"
            f"--- the block (run in {workdir}):\n{block.script()}"
            f"--- stdout (last 3000 characters):\n{result.stdout[-3000:]}\n"
            f"--- stderr (last 3000 characters):\n{result.stderr[-3000:]}")
