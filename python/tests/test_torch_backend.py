"""torch.compile(model, backend="tileopt") on the CPU: which ops go to
TileOpt, what is left to the fallback, and results equal to eager. The
TileOpt partitions run on the tile interpreter (on_cpu="interpreter");
inductor compiles the rest with the host's C++ compiler. Needs torch
(ctest leaves this file out: CI's python3 has none)."""

import warnings

import pytest

torch = pytest.importorskip("torch")
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tileopt  # noqa: E402


@pytest.fixture(autouse=True)
def fresh_dynamo():
    """Each test compiles its own graphs, not ones an earlier test cached."""
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def interpreted(search_options, **options):
    return tileopt.backend(on_cpu="interpreter", **options, **search_options)


def run(model, x, backend):
    torch.manual_seed(0)
    with torch.no_grad():
        return torch.compile(model, backend=backend)(x), model(x)


def relative_error(got, want):
    return ((got.double() - want.double()).abs().max() / want.double().abs().max()).item()


class DecoderMLP(nn.Module):
    """The MLP half of a Llama decoder block: x + down(silu(gate(n)) * up(n)),
    n = rms_norm(x)."""

    def __init__(self, dim=64, hidden=128):
        super().__init__()
        self.norm = nn.RMSNorm(dim, eps=1e-5)
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        h = self.norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


def half(*dims):
    return torch.rand(*dims, dtype=torch.float16) * 2 - 1


def op_names(partition):
    return [t.removeprefix("aten.").split(".")[0] for t in partition.targets]


@pytest.mark.parametrize("fold_rms_norms", [True, False])
def test_decoder_mlp_is_one_partition(search_options, fold_rms_norms):
    torch.manual_seed(0)
    backend = interpreted(search_options, fold_rms_norms=fold_rms_norms)
    got, want = run(DecoderMLP().half(), half(2, 8, 64), backend)
    [mlp] = backend.partitions
    assert mlp.compiled is not None, mlp.reason
    names = op_names(mlp)
    assert names.count("mm") == 3 and names.count("silu") == 1
    assert names[-1] == "add"  # the residual
    # torch computes the norm in f32 between casts. Folded, it is one
    # rms_norm in the partition; else the casts keep it with inductor.
    assert not {"rsqrt", "mean", "_to_copy"} & set(names)
    assert ("rms_norm" in names) == fold_rms_norms
    assert [s.dims for s in mlp.compiled.outputs] == [(2, 8, 64)]
    assert relative_error(got, want) < 2e-3


class LlamaRMSNorm(nn.Module):
    """Llama's own RMSNorm: float32 inside, the weight applied after the
    cast back."""

    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(dim) + 0.5)

    def forward(self, x):
        h = x.to(torch.float32)
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
        return self.weight * h.to(x.dtype)


class NormThenLinear(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = LlamaRMSNorm(64)
        self.linear = nn.Linear(64, 32, bias=False)

    def forward(self, x):
        return self.linear(self.norm(x))


def test_a_norm_in_float32_folds_into_the_partition(search_options):
    torch.manual_seed(0)
    backend = interpreted(search_options)
    got, want = run(NormThenLinear().half(), half(4, 64), backend)
    [partition] = backend.partitions
    assert partition.compiled is not None, partition.reason
    assert op_names(partition)[:2] == ["rms_norm", "mul"]
    assert relative_error(got, want) < 2e-3


class WithUnsupportedOps(nn.Module):
    """Products around ops the mapping has not: sin, and gelu's tanh form."""

    def __init__(self):
        super().__init__()
        self.first = nn.Linear(32, 64)
        self.second = nn.Linear(64, 32)

    def forward(self, x):
        h = torch.sin(self.first(x))
        return F.gelu(self.second(h), approximate="tanh") * 0.5


def test_unsupported_ops_split_the_partitions(search_options):
    torch.manual_seed(0)
    backend = interpreted(search_options, fallback="eager")
    got, want = run(WithUnsupportedOps().half(), half(16, 32), backend)
    assert len(backend.partitions) == 2
    assert all(p.compiled is not None for p in backend.partitions)
    taken = {name for p in backend.partitions for name in op_names(p)}
    assert "addmm" in taken
    assert not {"sin", "gelu"} & taken
    assert relative_error(got, want) < 2e-3


class ResidualAroundAnUnmappedOp(nn.Module):
    """The second partition reads the first's result, through the node the
    first's replacement left in the graph."""

    def __init__(self):
        super().__init__()
        self.first = nn.Linear(32, 32)
        self.second = nn.Linear(32, 32)

    def forward(self, x):
        h = self.first(x)
        return self.second(torch.sin(h)) + h


def test_a_partition_reads_another_partitions_result(search_options):
    torch.manual_seed(0)
    backend = interpreted(search_options, fallback="eager")
    got, want = run(ResidualAroundAnUnmappedOp().half(), half(16, 32), backend)
    assert [p.compiled is not None for p in backend.partitions] == [True, True]
    assert op_names(backend.partitions[1])[-1] == "add"
    assert relative_error(got, want) < 2e-3


class SumOfALinear(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(16, 16, bias=False)

    def forward(self, x):
        return self.linear(x).sum(-1)


def test_a_refused_partition_is_left_to_the_fallback(search_options):
    """A partition the compiler refuses (here: a chip TileOpt does not
    target) compiles to no artifact, and inductor runs it."""
    torch.manual_seed(0)
    backend = interpreted(search_options, extra_args=("--chip=sm_75",))
    with pytest.warns(RuntimeWarning, match=r"ops \(t, view, mm, _unsafe_view, sum\) "
                                            "are left to inductor"):
        got, want = run(SumOfALinear().half(), half(2, 2, 2, 16), backend)
    [refused] = backend.partitions
    assert refused.compiled is None and "unknown chip 'sm_75'" in refused.reason
    assert relative_error(got, want) < 2e-3


def test_cpu_graphs_go_to_the_fallback_unless_interpreted(search_options):
    backend = tileopt.backend(fallback="eager", **search_options)
    with pytest.warns(RuntimeWarning, match="TileOpt's kernels run on CUDA devices"):
        got, want = run(DecoderMLP().half(), half(2, 8, 64), backend)
    assert backend.partitions == []
    assert torch.equal(got, want)


def test_backend_by_name(search_options):
    """backend="tileopt" is registered when tileopt is imported; options
    go to TileOptBackend."""
    model = DecoderMLP().half()
    x = half(4, 64)
    with torch.no_grad():
        got = torch.compile(model, backend="tileopt",
                            options={"on_cpu": "interpreter", "fallback": "eager",
                                     **search_options})(x)
        assert relative_error(got, model(x)) < 2e-3
    with pytest.raises(Exception, match="takes mode 'default' or 'reduce-overhead', "
                                        "not 'max-autotune'"):
        torch.compile(model, backend="tileopt", mode="max-autotune")(x)


def test_reduce_overhead_is_cuda_graphs():
    """mode="reduce-overhead" turns cuda_graphs on, which a graph on the
    CPU cannot use: it says so and runs without."""
    model = DecoderMLP().half()
    x = half(4, 64)
    with torch.no_grad(), pytest.warns(RuntimeWarning, match="cuda_graphs is on but the "
                                       "graph's inputs are not all tensors on one CUDA"):
        got = torch.compile(model, backend="tileopt", mode="reduce-overhead")(x)
        assert relative_error(got, model(x)) < 2e-3


def test_bad_options():
    with pytest.raises(ValueError, match="fallback must be one of"):
        tileopt.backend(fallback="tvm")
    with pytest.raises(ValueError, match="on_cpu must be one of"):
        tileopt.backend(on_cpu="gpu")


def test_training_runs_the_backward_in_the_fallback(search_options):
    """With gradients, the forward graph is partitioned (its saved
    activations become outputs of the partition) and the backward is the
    fallback's."""
    torch.manual_seed(0)
    model = DecoderMLP().half()
    x = half(2, 8, 64).requires_grad_()
    backend = interpreted(search_options, fallback="eager")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        got = torch.compile(model, backend=backend)(x)
    want = model(x)
    [mlp] = backend.partitions
    assert mlp.compiled is not None and len(mlp.compiled.outputs) > 1  # with saved activations
    assert relative_error(got.detach(), want.detach()) < 2e-3
    got.float().sum().backward()
    assert x.grad is not None and torch.isfinite(x.grad).all()


def test_the_fused_rms_norm_of_cuda_devices_folds():
    """On CUDA devices rms_norm is aten._fused_rms_norm; folded when its
    rstd output is not read."""
    from torch.fx.passes.fake_tensor_prop import FakeTensorProp
    from tileopt.torch_backend import fold_upcast_rms_norms

    def norms(x, w):
        normed = torch.ops.aten._fused_rms_norm.default(x, [64], w, 1e-5)
        read_rstd = torch.ops.aten._fused_rms_norm.default(x, [64], w, 1e-5)
        return normed[0] * 2, read_rstd[0] + read_rstd[1]
    gm = torch.fx.symbolic_trace(norms)
    FakeTensorProp(gm).propagate(half(2, 64), half(64))
    assert fold_upcast_rms_norms(gm) == 1
    targets = [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]
    assert targets.count("aten.rms_norm.default") == 1
    assert targets.count("aten._fused_rms_norm.default") == 1
