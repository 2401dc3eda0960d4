"""tileopt.cuda_graph.CudaGraphed without a GPU: torch.cuda's streams and
graphs replaced by stand-ins whose replay does what a CUDA graph does (the
captured kernels read the memory their inputs were at when captured and
write the memory of the outputs captured), so that what the wrapper copies,
reads in place, records again and returns is checked on CPU tensors. On a
GPU, test_gpu.py runs the real thing. Needs torch."""

import contextlib

import pytest

torch = pytest.importorskip("torch")

from tileopt.cuda_graph import CudaGraphed  # noqa: E402


class Affine:
    """A boxed compiled function: y = 2 a + b. Called while a graph is
    captured, it says so to the graph, which replays it on the same
    tensors: the memory the capture saw."""

    def __init__(self):
        self.calls = 0
        self.capturing = None  # the FakeGraph being captured

    def __call__(self, args):
        self.calls += 1
        a, b = args
        out = 2 * a + b
        if self.capturing is not None:
            self.capturing.kernel = lambda: torch.add(2 * a, b, out=out)
        return [out]


class FakeGraph:
    """torch.cuda.CUDAGraph: replay reruns the kernel captured."""

    def __init__(self):
        self.kernel = None

    def replay(self):
        self.kernel()


@pytest.fixture
def fake_cuda(monkeypatch):
    """torch.cuda's streams and graphs as stand-ins for `fn`; returns a list
    that each capture appends its FakeGraph to."""
    captures = []

    def install(fn):
        @contextlib.contextmanager
        def graph(g, stream=None, capture_error_mode="global"):
            assert capture_error_mode == "relaxed"
            fn.capturing = g
            captures.append(g)
            try:
                yield
            finally:
                fn.capturing = None

        class Stream:
            def __init__(self, device=None):
                pass

            def wait_stream(self, other):
                pass

        monkeypatch.setattr(torch.cuda, "Stream", Stream)
        monkeypatch.setattr(torch.cuda, "stream", lambda s: contextlib.nullcontext())
        monkeypatch.setattr(torch.cuda, "current_stream", lambda device=None: Stream())
        monkeypatch.setattr(torch.cuda, "CUDAGraph", FakeGraph)
        monkeypatch.setattr(torch.cuda, "graph", graph)
        return captures
    return install


def test_replays_with_inputs_read_in_place_or_copied(fake_cuda):
    fn = Affine()
    captures = fake_cuda(fn)
    graphed = CudaGraphed(fn, "cpu")
    weight = torch.tensor([1.0, 2.0])  # the same tensor every call: read in place
    xs = [torch.tensor([1.0, 1.0]), torch.tensor([2.0, 0.0]), torch.tensor([0.0, 1.0])]
    first = graphed([xs[0], weight])
    assert torch.equal(first[0], torch.tensor([3.0, 4.0])) and not captures
    second = graphed([xs[1], weight])  # captured, then replayed
    assert len(captures) == 1 and graphed.records == 1
    assert torch.equal(second[0], torch.tensor([5.0, 2.0]))
    weight.add_(1)  # read in place: the next replay sees the new values
    third = graphed([xs[2], weight])
    assert torch.equal(third[0], torch.tensor([2.0, 5.0]))
    assert len(captures) == 1, "an input that moved on the second call is copied in"
    # The results are copies: the replays after them left them alone.
    assert torch.equal(first[0], torch.tensor([3.0, 4.0]))
    assert torch.equal(second[0], torch.tensor([5.0, 2.0]))


def test_an_input_read_in_place_that_moves_records_again(fake_cuda):
    fn = Affine()
    captures = fake_cuda(fn)
    graphed = CudaGraphed(fn, "cpu")
    x, weight = torch.tensor([1.0, 1.0]), torch.tensor([1.0, 2.0])
    graphed([x, weight])
    graphed([x, weight])
    assert len(captures) == 1
    moved = torch.tensor([10.0, 20.0])
    (y,) = graphed([x, moved])
    assert len(captures) == 2 and graphed.records == 2
    assert torch.equal(y, torch.tensor([12.0, 22.0]))
    (y,) = graphed([x, torch.tensor([0.0, 0.0])])  # now copied in: no third capture
    assert len(captures) == 2 and torch.equal(y, torch.tensor([2.0, 2.0]))


def test_a_failed_capture_runs_the_function_as_it_is(fake_cuda, monkeypatch):
    fn = Affine()
    fake_cuda(fn)

    @contextlib.contextmanager
    def refusing(*args, **kwargs):
        raise RuntimeError("operation not permitted when stream is capturing")
        yield
    monkeypatch.setattr(torch.cuda, "graph", refusing)
    graphed = CudaGraphed(fn, "cpu")
    x, weight = torch.tensor([1.0, 1.0]), torch.tensor([1.0, 2.0])
    graphed([x, weight])
    with pytest.warns(RuntimeWarning, match="could not be captured as a CUDA graph, so it "
                                            "runs without one: operation not permitted"):
        (y,) = graphed([x, weight])
    assert torch.equal(y, torch.tensor([3.0, 4.0]))
    assert "not permitted" in graphed.failed
    (y,) = graphed([x, torch.tensor([0.0, 0.0])])
    assert torch.equal(y, torch.tensor([2.0, 2.0]))
