"""Compiled graphs on the GPU against torch: a graph of the builder, one of
tileopt.compile, outputs allocated or given, and the checks a call makes.
Needs torch with a CUDA device, the runtime library (TILEOPT_RUNTIME_LIB or
build/lib) and the tools, or a copy of $TILEOPT_TEST_CACHE_DIR that holds
the graphs compiled: with that variable set, a machine without a GPU
compiles them into it, each test then skipped (ctest leaves this file
out)."""

import os

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available() and not os.environ.get("TILEOPT_TEST_CACHE_DIR"):
    pytest.skip("no CUDA device", allow_module_level=True)

import torch.nn.functional as F  # noqa: E402

import tileopt as mi  # noqa: E402


def relative_error(got, want):
    return ((got.float() - want.float()).abs().max() / want.float().abs().max()).item()


def on_the_gpu():
    """Past this point a test runs what it compiled: skipped without a GPU."""
    if not torch.cuda.is_available():
        pytest.skip("compiled into $TILEOPT_TEST_CACHE_DIR; no CUDA device to run it")


def cuda_half(*dims):
    return torch.rand(*dims, dtype=torch.float16, device="cuda") - 0.5


def test_gated_mlp_graph(search_options):
    g = mi.new_kernel_graph("gated_mlp")
    x, w1, w2 = (g.new_input(d, mi.float16) for d in ((16, 256), (256, 512), (256, 512)))
    g.mark_output(g.mul(g.silu(g.matmul(x, w1)), g.matmul(x, w2)))
    compiled = g.superoptimize(**search_options)
    on_the_gpu()
    x, w1, w2 = cuda_half(16, 256), cuda_half(256, 512), cuda_half(256, 512)
    (y,) = compiled(inputs=[x, w1, w2])
    want = F.silu(x.float() @ w1.float()) * (x.float() @ w2.float())
    assert relative_error(y, want) < 1e-2
    out = torch.full_like(y, float("nan"))
    assert compiled(inputs=[x, w1, w2], out=[out])[0] is out
    torch.cuda.synchronize()
    assert relative_error(out, want) < 1e-2


def test_a_graph_with_intermediates(search_options, tmp_path):
    """Several kernels (the search cannot check two exps on a path): the
    tensors between them are the artifact's to allocate. Saved and loaded."""
    g = mi.new_kernel_graph("softmax_gelu")
    x = g.new_input((64, 96), mi.float32)
    g.mark_output(g.exp(g.softmax(x)))
    with pytest.warns(RuntimeWarning):
        compiled = g.superoptimize(**search_options)
    on_the_gpu()
    loaded = mi.load(compiled.save(tmp_path / "saved"))
    x = torch.randn(64, 96, device="cuda")
    (y,) = loaded(inputs=[x])
    assert relative_error(y, torch.softmax(x, -1).exp()) < 1e-5


def test_compiled_torch_function(search_options):
    def attention(q, k, v):
        return torch.softmax(q @ k.transpose(-1, -2) * 0.25, dim=-1) @ v
    shapes = (4, 16, 64), (4, 128, 64), (4, 128, 64)
    compiled = mi.compile(attention, [torch.empty(s, dtype=torch.float16) for s in shapes],
                          **search_options)
    on_the_gpu()
    q, k, v = (cuda_half(*s) for s in shapes)
    assert relative_error(compiled(q, k, v), attention(q.float(), k.float(), v.float())) < 1e-2


def relu_graph():
    g = mi.new_kernel_graph()
    a = g.new_input((8, 64), mi.float16, name="a")
    g.mark_output(g.relu(a))
    return g


def test_calls_check_devices_and_layouts(search_options):
    compiled = relu_graph().superoptimize(**search_options)
    on_the_gpu()
    x = cuda_half(8, 64)
    with pytest.raises(ValueError, match=r"input 0 \('a'\): not contiguous"):
        compiled(inputs=[cuda_half(64, 8).t()])
    with pytest.raises(ValueError, match=r"out\[0\] \('out0'\): expected a CUDA tensor"):
        compiled(inputs=[x], out=[torch.empty(8, 64, dtype=torch.float16)])
    with pytest.raises(ValueError, match=r"out\[0\] \('out0'\): expected shape \[8, 64\]"):
        compiled(inputs=[x], out=[cuda_half(64, 8)])


class DLPackTensor:
    """A DLPack producer that is not a torch.Tensor, as CuPy's and JAX's
    arrays are: it hands out the tensor it wraps."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __dlpack__(self, **kwargs):
        return self.tensor.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.tensor.__dlpack_device__()


def test_calls_take_dlpack_tensors(search_options):
    compiled = relu_graph().superoptimize(**search_options)
    on_the_gpu()
    x = cuda_half(8, 64)
    (y,) = compiled(inputs=[DLPackTensor(x)])
    assert torch.equal(y, torch.relu(x))
    out = torch.full_like(x, float("nan"))
    given = DLPackTensor(out)
    assert compiled(inputs=[DLPackTensor(x)], out=[given])[0] is given
    torch.cuda.synchronize()
    assert torch.equal(out, torch.relu(x))
    with pytest.raises(ValueError, match=r"input 0 \('a'\): expected shape \[8, 64\]"):
        compiled(inputs=[DLPackTensor(cuda_half(64, 8))])


class TanhMLP(torch.nn.Module):
    """x + down(tanh(up(x))): two TileOpt partitions around an op they do
    not take (tanh), which the fallback runs."""

    def __init__(self):
        super().__init__()
        self.up = torch.nn.Linear(64, 128, bias=False)
        self.down = torch.nn.Linear(128, 64, bias=False)

    def forward(self, x):
        return x + self.down(torch.tanh(self.up(x)))


def test_backend_with_cuda_graphs(search_options):
    """torch.compile(backend=tileopt) with cuda_graphs: the graph, TileOpt's
    kernels and the fallback's ops, captured once and replayed on other
    inputs; the results a caller keeps are not overwritten by later calls.
    Without a GPU the same partitions are compiled through the
    interpreter's path."""
    torch.manual_seed(0)
    model = TanhMLP().half()
    options = {"fallback": "eager", "cuda_graphs": True, **search_options}
    if not torch.cuda.is_available():
        with torch.no_grad(), pytest.warns(RuntimeWarning, match="cuda_graphs is on"):
            torch.compile(model, backend=mi.backend(on_cpu="interpreter", **options))(
                torch.rand(8, 64, dtype=torch.float16))
    on_the_gpu()
    model.cuda()
    backend = mi.backend(**options)
    fast = torch.compile(model, backend=backend)
    x, other = cuda_half(8, 64), cuda_half(8, 64)
    with torch.no_grad():
        results = [(fast(v), v) for v in (x, other, x, other)]
        assert [p.compiled is not None for p in backend.partitions] == [True, True]
        [graphed] = backend.cuda_graphed
        assert graphed.failed is None and graphed.records == 1
        for got, v in results:
            assert relative_error(got, model(v)) < 1e-2
