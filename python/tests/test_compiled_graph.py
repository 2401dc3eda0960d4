"""superoptimize, compiled graphs and their checks, without a GPU:
tileopt-compile writes the artifact here, CompiledGraph.run_on_cpu runs its
tile program with the tile interpreter, and the values are compared with
NumPy float64 written from what each graph means (not from the IR). Needs
the tools (TILEOPT_BUILD_DIR) and NumPy, not torch."""

import json
import re
import shutil
import warnings

import numpy as np
import pytest

import tileopt as mi

RNG = np.random.default_rng(0)


def uniform(dims, dtype):
    return RNG.uniform(-1, 1, dims).astype(dtype)


def relative_error(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape
    return float(np.max(np.abs(got - want)) / np.max(np.abs(want)))


def silu(x):
    return x / (1 + np.exp(-x))


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def rms_norm(x, eps):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)


def gated_mlp_graph(m=8, k=64, n=32):
    g = mi.new_kernel_graph("gated_mlp")
    x = g.new_input((m, k), mi.float16, name="x")
    w1 = g.new_input((k, n), mi.float16, name="w1")
    w2 = g.new_input((k, n), mi.float16, name="w2")
    g.mark_output(g.mul(g.silu(g.matmul(x, w1)), g.matmul(x, w2)))
    return g


@pytest.fixture(scope="module")
def gated_mlp(search_options):
    return gated_mlp_graph().superoptimize(**search_options)


def test_the_directory_holds_artifact_and_stages(gated_mlp):
    files = {p.name for p in gated_mlp.directory.iterdir()}
    assert {"manifest.json", "kernels.cubin", "graph.mlir", "ugraph.mlir",
            "tile.mlir"} <= files
    manifest = json.loads((gated_mlp.directory / "manifest.json").read_text())
    assert [(b["name"], b["role"]) for b in manifest["buffers"][:4]] == [
        ("x", "input"), ("w1", "input"), ("w2", "input"), ("out0", "output")]
    assert [s.name for s in gated_mlp.inputs] == ["x", "w1", "w2"]
    assert [(s.name, s.dims, s.dtype) for s in gated_mlp.outputs] == [
        ("out0", (8, 32), mi.float16)]
    assert "tk.matmul" in gated_mlp.kernel_graph
    assert "tile.launch" in gated_mlp.tile_program


def test_gated_mlp_on_the_cpu_matches_numpy(gated_mlp):
    x, w1, w2 = uniform((8, 64), np.float16), uniform((64, 32), np.float16), \
        uniform((64, 32), np.float16)
    (y,) = gated_mlp.run_on_cpu(inputs=[x, w1, w2])
    assert y.dtype == np.float16
    x, w1, w2 = (a.astype(np.float64) for a in (x, w1, w2))
    # The interpreter computes in float64; only the output is rounded to f16.
    assert relative_error(y, silu(x @ w1) * (x @ w2)) < 1e-3
    # The comparison tells gate from up projection.
    assert relative_error(y, silu(x @ w2) * (x @ w1)) > 1e-2


def test_save_and_load(gated_mlp, tmp_path):
    saved = gated_mlp.save(tmp_path / "mlp")
    loaded = mi.load(saved)
    assert loaded.inputs == gated_mlp.inputs and loaded.outputs == gated_mlp.outputs
    assert loaded.ugraph == gated_mlp.ugraph
    with pytest.raises(FileExistsError, match="already exists"):
        gated_mlp.save(saved)


def test_load_refuses_what_is_not_a_compiled_graph(gated_mlp, tmp_path):
    with pytest.raises(ValueError, match="not a compiled TileOpt graph: cannot read manifest"):
        mi.load(tmp_path)
    saved = gated_mlp.save(tmp_path / "mlp")
    (saved / "tile.mlir").write_text("// another program\n")
    with pytest.raises(ValueError, match="not compiled from its tile.mlir"):
        mi.load(saved)
    (saved / "tile.mlir").unlink()
    with pytest.raises(ValueError, match="it has no tile.mlir"):
        mi.load(saved)


def test_visualize_draws_the_chosen_ugraph(gated_mlp, tmp_path):
    written = gated_mlp.visualize(tmp_path / "gated_mlp.svg")
    dot = (tmp_path / "gated_mlp.dot").read_text()
    assert dot.startswith("digraph ugraph {")
    # The fused kernel with its launch shape, its loop body nested, the
    # accumulators; the inputs named.
    assert re.search(r'label="tk.fused\\lgrid \[\d+, 1, 1\]  block \[128, 1, 1\]  '
                     r'forloop \d+', dot), dot
    assert "tb.forloop_accum" in dot
    walks_a_loop = re.search(r"input_iterator .* fmap [0-9]", gated_mlp.ugraph)
    assert ("for-loop body" in dot) == bool(walks_a_loop)
    assert 'label="x = %arg0' in dot
    if shutil.which("dot"):
        assert written == [tmp_path / f"gated_mlp.{s}" for s in ("dot", "svg", "png")]
        assert "<svg" in (tmp_path / "gated_mlp.svg").read_text()
    else:
        assert written == [tmp_path / "gated_mlp.dot"]


def test_visualize_without_graphviz_writes_dot(gated_mlp, tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert gated_mlp.visualize(tmp_path / "g") == [tmp_path / "g.dot"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.dot"]


def test_calls_check_their_inputs(gated_mlp):
    x, w1 = uniform((8, 64), np.float16), uniform((64, 32), np.float16)
    with pytest.raises(ValueError, match=r"expected 3 inputs \(x, w1, w2\), got 2"):
        gated_mlp.run_on_cpu(inputs=[x, w1])
    with pytest.raises(TypeError, match="inputs must be a list of tensors"):
        gated_mlp.run_on_cpu(inputs=x)
    with pytest.raises(ValueError, match=r"input 2 \('w2'\): expected shape \[64, 32\]"):
        gated_mlp.run_on_cpu(inputs=[x, w1, w1.T])
    with pytest.raises(ValueError, match=r"input 0 \('x'\): expected dtype float16, "
                                         "got float32"):
        gated_mlp.run_on_cpu(inputs=[x.astype(np.float32), w1, w1])
    with pytest.raises(TypeError, match=r"input 1 \('w1'\): expected a NumPy array"):
        gated_mlp.run_on_cpu(inputs=[x, [1.0], w1])


def test_the_search_cache_answers_a_second_compile(search_options):
    """The cache is tileopt-compile's, shared with the command line."""
    first = gated_mlp_graph().superoptimize(**search_options)
    second = gated_mlp_graph().superoptimize(**{**search_options, "time_budget": 0.01})
    assert second.ugraph == first.ugraph


@pytest.mark.parametrize("stale", ["other-version", "no-version"])
def test_a_cached_graph_of_another_compiler_is_compiled_again(search_options, tmp_path, stale):
    """An entry that another tileopt-compile made (or one from before
    entries named their compiler) is not taken: the graph is compiled
    again and the entry replaced, whole."""
    from tileopt.compiler import VERSION_FILE, compiler_version
    options = {**search_options, "cache_dir": str(tmp_path / "cache")}
    first = gated_mlp_graph().superoptimize(**options)
    (entry,) = (tmp_path / "cache" / "compiled").iterdir()
    version = entry / VERSION_FILE
    assert version.read_text() == compiler_version() != ""
    if stale == "other-version":
        version.write_text("0.0.0-another")
    else:
        version.unlink()
    (entry / "tile.mlir").write_text("// not what was compiled\n")
    again = gated_mlp_graph().superoptimize(**options)
    assert again.tile_program == first.tile_program
    assert version.read_text() == compiler_version()
    assert (entry / "tile.mlir").read_text() == first.tile_program
    assert [p.name for p in entry.parent.iterdir()] == [entry.name]


def test_a_directory_keeps_the_result(search_options, tmp_path):
    compiled = gated_mlp_graph().superoptimize(directory=tmp_path / "out", **search_options)
    assert compiled.directory == tmp_path / "out"
    assert (tmp_path / "out" / "manifest.json").is_file()
    with pytest.raises(FileExistsError, match="superoptimize: .* already exists"):
        gated_mlp_graph().superoptimize(directory=tmp_path / "out", **search_options)


def test_a_compiler_error_carries_its_diagnostic(search_options):
    # The matmul tiling splits at most one batch dim over the grid: it
    # refuses a product with two at the op. If it learns them, pick another
    # program it refuses.
    g = mi.new_kernel_graph("two_batch_dims")
    x = g.new_input((3, 1, 16, 32), mi.float16)
    w = g.new_input((2, 32, 16), mi.float16)
    g.mark_output(g.matmul(x, w))
    with pytest.raises(mi.CompileError) as error:
        g.superoptimize(**search_options)
    assert "error:" in error.value.diagnostic and "tk.matmul" in error.value.diagnostic
    assert "tileopt-compile" in error.value.command[0]
    assert error.value.diagnostic.strip() in str(error.value)


def test_a_missing_tool_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("TILEOPT_BUILD_DIR", str(tmp_path))
    with pytest.raises(mi.ToolNotFoundError, match=r"tileopt-compile is not in "
                                                   r"\$TILEOPT_BUILD_DIR/bin"):
        gated_mlp_graph().superoptimize(use_cache=False)


def test_a_compiled_graph_is_loaded_from_the_cache_without_tools(
        search_options, monkeypatch, tmp_path):
    """As on a GPU machine that has only the runtime and a copy of the
    cache: the same graph, built on other lines, needs no tool."""
    def cast_graph():
        g = mi.new_kernel_graph("cast")
        x = g.new_input((16, 32), mi.float16, name="x")
        g.mark_output(g.cast(g.exp(x), mi.float32))
        return g
    options = {**search_options, "cache_dir": str(tmp_path / "cache")}
    with pytest.warns(RuntimeWarning, match="needs one element type"):
        first = cast_graph().superoptimize(**options)
    monkeypatch.setenv("TILEOPT_BUILD_DIR", str(tmp_path))  # no tools there
    with pytest.warns(RuntimeWarning, match="needs one element type"):
        again = cast_graph().superoptimize(**options)
    assert again.directory.parent == tmp_path / "cache" / "compiled"
    assert again.tile_program == first.tile_program
    with pytest.warns(RuntimeWarning):
        kept = cast_graph().superoptimize(**options, directory=tmp_path / "kept")
    assert (tmp_path / "kept" / "manifest.json").is_file() and kept.ugraph == first.ugraph
    # Other options are another entry, which needs the tools.
    with pytest.raises(mi.ToolNotFoundError):
        cast_graph().superoptimize(**{**options, "seed": 7})
    with pytest.raises(mi.ToolNotFoundError):
        cast_graph().superoptimize(**{**options, "use_cache": False})


def f32_graph(build, *dims):
    g = mi.new_kernel_graph()
    inputs = [g.new_input(d, mi.float32) for d in dims]
    g.mark_output(build(g, *inputs))
    return g


# Graphs without products (f32 products have no GPU code yet), each with
# NumPy's meaning of it. Sizes are odd: no power of two to hide behind.
F32_CASES = {
    "softmax": (lambda g, x: g.softmax(x), softmax, [(5, 37)]),
    "softmax_dim0": (lambda g, x: g.softmax(x, dim=0), lambda x: softmax(x, 0), [(5, 37)]),
    "rms_norm_weight": (lambda g, x, w: g.rms_norm(x, w, eps=1e-5),
                        lambda x, w: rms_norm(x, np.float32(1e-5)) * w, [(5, 37), (37,)]),
    "layer_norm": (lambda g, x, w, b: g.layer_norm(x, w, b, eps=1e-5),
                   lambda x, w, b: (x - x.mean(-1, keepdims=True))
                   / np.sqrt(x.var(-1, keepdims=True) + np.float32(1e-5)) * w + b,
                   [(3, 5, 19), (19,), (19,)]),
    "reductions": (lambda g, x: g.add(g.sum(x, 1, keepdim=False), g.mean(g.max(x, 2), 1,
                                                                         keepdim=False)),
                   lambda x: x.sum(1) + x.max(2, keepdims=True).mean(1), [(3, 5, 7)]),
    "activations": (lambda g, x: g.add(g.add(g.gelu(x), g.sigmoid(x)), g.relu(g.neg(x))),
                    lambda x: 0.5 * x * (1 + np.vectorize(__import__("math").erf)(x / 2 ** 0.5))
                    + 1 / (1 + np.exp(-x)) + np.maximum(-x, 0), [(7, 13)]),
    "scalars": (lambda g, x: g.div(2.0, g.sub(3.0, g.mul(g.add(x, 0.5), 0.25))),
                lambda x: 2.0 / (3.0 - (x + 0.5) * 0.25), [(7, 13)]),
    "powers": (lambda g, x: g.add(g.pow(g.square(x), 1.5), g.rsqrt(g.add_scalar(g.sqrt(
        g.square(x)), 1.0))), lambda x: np.abs(x) ** 3 + 1 / np.sqrt(np.abs(x) + 1), [(7, 13)]),
    "layout": (lambda g, x: g.exp(g.reshape(g.transpose(x, 0, 2), (-1, 3))),
               lambda x: np.exp(x.transpose(2, 1, 0).reshape(-1, 3)), [(3, 5, 7)]),
    "broadcast": (lambda g, x, b: g.sub(x, b), lambda x, b: x - b, [(5, 7), (5, 1)]),
}


@pytest.mark.parametrize("name", sorted(F32_CASES))
def test_f32_graph_on_the_cpu_matches_numpy(name, search_options):
    build, meaning, dims = F32_CASES[name]
    graph = f32_graph(build, *dims)
    if name == "powers":
        # Scalar code (a tk.map: c / x, x ** 1.5) is searched as a function
        # of its body; math.powf has no model in the verifier's finite
        # field, so that graph is kept as it is, and the compiler says so.
        with pytest.warns(RuntimeWarning, match=r"verifier cannot check .*pow has no model"):
            compiled = graph.superoptimize(**search_options)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compiled = graph.superoptimize(**search_options)
    inputs = [uniform(d, np.float32) for d in dims]
    (got,) = compiled.run_on_cpu(inputs=inputs)
    want = meaning(*(a.astype(np.float64) for a in inputs))
    assert got.dtype == np.float32
    assert relative_error(got, want) < 1e-5, name


def test_a_cast_and_an_f16_attention(search_options):
    g = mi.new_kernel_graph("attention")
    q = g.new_input((2, 1, 16), mi.float16, name="q")
    k = g.new_input((2, 16, 64), mi.float16, name="k")
    v = g.new_input((2, 64, 16), mi.float16, name="v")
    o = g.matmul(g.softmax(g.matmul(q, k)), v)
    g.mark_output(g.cast(o, mi.float32))
    # The cast gives the graph two element types: it stays a kernel of its
    # own, and the f16 attention before it is searched as a segment (no
    # remark that the graph is left as it is).
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compiled = g.superoptimize(**search_options)
    assert not [w for w in caught if "element type" in str(w.message)]
    assert "arith.extf" in compiled.ugraph
    inputs = [uniform(s.dims, np.float16) for s in compiled.inputs]
    (got,) = compiled.run_on_cpu(inputs=inputs)
    q, k, v = (a.astype(np.float64) for a in inputs)
    assert got.dtype == np.float32
    assert relative_error(got, softmax(q @ k) @ v) < 1e-6
    # Unnormalised scores are another function.
    assert relative_error(got, np.exp(q @ k) @ v) > 1e-2
