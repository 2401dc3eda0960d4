"""tileopt.compile: torch.export's aten ops mapped onto the graph builder.
Each program is compiled here and run with the tile interpreter
(run_on_cpu), and compared with torch's own CPU result for the same
module in float64 on the same (f16-rounded) inputs and weights. Needs torch
(ctest leaves this file out: CI's python3 has none)."""

import copy
import re
import warnings

import pytest

torch = pytest.importorskip("torch")
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tileopt  # noqa: E402
from tileopt.torch_export import capture  # noqa: E402

torch.manual_seed(0)


def relative_error(got, want):
    return ((got.double() - want.double()).abs().max() / want.double().abs().max()).item()


def torch_float64(program, inputs):
    """What `program` computes on `inputs`, in float64 (a module's
    parameters too)."""
    if isinstance(program, nn.Module):
        program = copy.deepcopy(program).double()
    return program(*(x.double() for x in inputs))


def check(program, inputs, search_options, tolerance=2e-3):
    compiled = tileopt.compile(program, inputs, **search_options)
    got = compiled.run_on_cpu(*inputs)
    want = torch_float64(program, inputs)
    if isinstance(want, torch.Tensor):
        got, want = [got], [want]
    for g, w in zip(got, want):
        assert g.shape == w.shape
        assert relative_error(g, w) < tolerance, relative_error(g, w)
    return compiled


def half(*dims):
    return torch.rand(*dims, dtype=torch.float16) * 2 - 1


class GatedMLP(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return F.silu(self.gate(x)) * self.up(x)


class LlamaRMSNorm(nn.Module):
    """As Hugging Face writes it: in f32, then back to the input's type."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(dim) + 0.5)
        self.eps = eps

    def forward(self, x):
        h = x.to(torch.float32)
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * h.to(x.dtype)


def test_gated_mlp_module(search_options):
    mlp = GatedMLP(64, 32).half()
    compiled = check(mlp, [half(2, 4, 64)], search_options)
    # Linear's [N, K] weights are read transposed; the 3-D input is one product.
    assert "tk.transpose %p_gate_weight [1, 0]" in compiled.graph.to_mlir()
    assert [s.name for s in compiled.compiled.inputs] == ["p_gate_weight", "p_up_weight", "x"]


def test_rms_norm_then_linear(search_options):
    model = nn.Sequential(nn.RMSNorm(64, eps=1e-5), nn.Linear(64, 48)).half()
    with torch.no_grad():
        model[0].weight.uniform_(0.5, 1.5)
    compiled = check(model, [half(8, 64)], search_options)
    assert "tk.rms_norm" in compiled.graph.to_mlir()


def test_attention_function(search_options):
    def attention(q, k, v):
        return torch.softmax(q @ k.transpose(-1, -2) / 4.0, dim=-1) @ v
    check(attention, [half(2, 8, 16), half(2, 32, 16), half(2, 32, 16)], search_options)


def test_scaled_dot_product_attention(search_options):
    check(lambda q, k, v: F.scaled_dot_product_attention(q, k, v),
          [half(2, 8, 16), half(2, 32, 16), half(2, 32, 16)], search_options)


def test_hugging_face_rms_norm_casts(search_options):
    """Its upcast and downcast stay kernels of their own; the f32 norm
    between them and the f16 weight after are searched as segments (no
    remark that the graph is left as it is)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compiled = check(LlamaRMSNorm(64).half(), [half(4, 64)], search_options)
    assert not [w for w in caught if "element type" in str(w.message)]
    assert compiled.graph.to_mlir().count("arith.extf") == 1


def test_layer_norm_gelu_and_layout(search_options):
    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm = nn.LayerNorm(16)
            self.proj = nn.Linear(16, 16)

        def forward(self, x, scale):
            h = F.gelu(self.proj(self.norm(x)))
            h = h * scale.unsqueeze(0).expand(4, 8, 16) - 0.5
            y = h.permute(0, 2, 1).reshape(4, 128).sum(-1)
            rows = y.view(2, 2, 1).squeeze(-1)
            return torch.relu(rows - rows.mean(-1, keepdim=True)), torch.sigmoid(h.mean((0, 1)))
    block = Block().half()
    with torch.no_grad():  # not LayerNorm's ones and zeros, which hide a missing term
        block.norm.weight.uniform_(0.5, 1.5)
        block.norm.bias.uniform_(-0.5, 0.5)
    check(block, [half(4, 8, 16), half(8, 16)], search_options, tolerance=5e-3)


def test_the_module_is_read_at_each_call(search_options):
    mlp = GatedMLP(16, 16).half()
    x = half(4, 16)
    compiled = tileopt.compile(mlp, [x], **search_options)
    with torch.no_grad():
        mlp.up.weight.mul_(2)
    assert relative_error(compiled.run_on_cpu(x), torch_float64(mlp, [x])) < 2e-3


def test_an_unmapped_op_is_named_with_its_line():
    def program(x):
        return torch.tanh(x) * 2  # the line the error names
    with pytest.raises(tileopt.GraphError) as error:
        capture(program, [half(4, 4)])
    message = str(error.value)
    assert "aten.tanh.default has no mapping onto a kernel graph" in message
    if not hasattr(torch.fx.proxy, "_register_stack_trace_anchor"):
        # torch 2.11 records the frames of a module's forward only.
        assert "FX node tanh; torch recorded no source line" in message
        return
    assert re.search(re.escape(__file__) + r", line \d+: return torch.tanh\(x\) \* 2", message)


@pytest.mark.parametrize("program, inputs, message", [
    (lambda x: F.gelu(x, approximate="tanh"), [half(4, 4)],
     r"aten.gelu.default: gelu\(approximate='tanh'\) has no tk operator"),
    (lambda x: x.unsqueeze(0).expand(3, 4, 4).reshape(12, 4), [half(4, 4)],
     "reads the result of aten.expand, a broadcast"),
    (lambda x: x.expand(3, 4), [half(1, 4)], "an output is the result of aten.expand"),
    (lambda x: x * 2, [torch.ones(4, dtype=torch.int32)],
     "input x has dtype torch.int32; kernel graphs compute on"),
    (lambda x, n: x * n, [half(4), 3], "example input 1 is a int; only tensors"),
    (lambda x: F.layer_norm(x, (4, 4)), [half(4, 4)],
     r"only the last dim can be normalized: normalized_shape \[4, 4\]"),
])
def test_what_cannot_be_mapped_is_a_clear_error(program, inputs, message):
    with pytest.raises(tileopt.GraphError, match=message):
        capture(program, inputs)


def test_calling_checks_inputs_before_the_gpu(search_options):
    compiled = tileopt.compile(lambda a, b: a + b, [half(4, 8), half(4, 8)],
                               **search_options)
    with pytest.raises(ValueError, match="expected 2 tensor arguments, got 1"):
        compiled(half(4, 8))
    with pytest.raises(ValueError, match=r"input 0 \('a'\): expected dtype torch.float16, "
                                         "got torch.float32"):
        compiled(torch.ones(4, 8), half(4, 8))
    with pytest.raises(ValueError, match=r"input 0 \('a'\): expected a CUDA tensor, got one "
                                         "on cpu"):
        compiled(half(4, 8), half(4, 8))


def test_the_python_guide_runs_with_torch(tmp_path):
    from test_python_doc import run_blocks
    assert run_blocks(True, tmp_path) >= 8


def test_torch_releases_outside_the_supported_range(monkeypatch):
    """An older torch is an error naming the range; a newer one, a warning
    (once)."""
    import tileopt.torch_export as torch_export
    monkeypatch.setattr(torch, "__version__", "2.4.1+cu121")
    with pytest.raises(RuntimeError, match=r"tileopt.compile needs PyTorch 2\.11 to 2\.15; "
                                           r"this is torch 2\.4\.1\+cu121"):
        capture(lambda x: x @ x, [torch.randn(4, 4)])
    with pytest.raises(RuntimeError, match="the tileopt backend needs PyTorch 2.11"):
        tileopt.backend()
    monkeypatch.setattr(torch, "__version__", "3.0.0a0+git1234")
    monkeypatch.setattr(torch_export, "_warned_newer_torch", False)
    with pytest.warns(RuntimeWarning, match="torch 3.0.0a0.git1234 is newer than the "
                                            "releases tileopt was tested with"):
        torch_export.require_torch("tileopt.compile")
