"""A compiled forward replayed as one CUDA graph: the torch.compile
backend's `cuda_graphs=True` (or mode="reduce-overhead").

A call of a model through torch.compile launches tens of kernels, each
launch costing the host microseconds (Python, the dispatcher, the driver);
for small batches the host, not the GPU, sets the pace. A CUDA graph
replays all of them in one launch. CudaGraphed captures the function once
its inputs' addresses are known and replays it afterwards:

- an input that sits at the same address on the first two calls (a
  parameter, a buffer, a reused activation) is read where it is; every
  later call checks that it still is, and records the graph again, with
  that input copied, if it moved;
- the other inputs are copied into buffers of the graph before each replay;
- the outputs the graph writes are the same memory on every replay, so a
  call returns copies of them: a result the caller keeps is never
  overwritten by the next call.

Shapes are fixed (torch.compile recompiles, and so records again, for new
ones). The function must be capturable: launches on torch's current
stream, no synchronization; TileOpt's kernels are (their tensor maps are
made outside the capture, tileopt_artifact_launch), and so is what
inductor generates. A capture that fails leaves the function to run as it
is, with a RuntimeWarning.
"""

import warnings

__all__ = ["CudaGraphed"]


class CudaGraphed:
    """`fn`, a boxed function (it takes the list of its arguments, as
    AOTAutograd calls compiled graphs), replayed as a CUDA graph on `device`
    after one call that runs it as it is."""

    _boxed_call = True

    def __init__(self, fn, device):
        self.fn = fn
        self.device = device
        self.graph = None
        self.failed = None        # why capturing failed, if it did
        self.records = 0          # how many times a graph was captured
        self._first = None        # the first call's input addresses
        self._copied = set()      # indices of the inputs copied in
        self._static = ()         # (index, address) of the inputs read in place
        self._buffers = {}        # index -> the graph's buffer for that input
        self._outputs = None

    def __call__(self, args):
        if self.failed is not None:
            return self.fn(list(args))
        if self.graph is None:
            addresses = [a.data_ptr() for a in args]
            if self._first is None:
                self._first = addresses
                return self.fn(list(args))
            self._copied = {i for i, (a, b) in enumerate(zip(addresses, self._first))
                            if a != b}
            if not self._record(args):
                return self.fn(list(args))
        else:
            moved = {i for i, address in self._static if args[i].data_ptr() != address}
            if moved:
                self._copied |= moved
                if not self._record(args):
                    return self.fn(list(args))
        for i, buffer in self._buffers.items():
            buffer.copy_(args[i])
        self.graph.replay()
        return [o.clone() if copy else o for o, copy in self._outputs]

    def _record(self, args):
        """Captures fn on `args` (those in _copied read from buffers of the
        graph); False, with a warning, if it cannot be captured."""
        import torch
        self.graph = self._outputs = None
        self._buffers = {i: torch.empty_strided(args[i].shape, args[i].stride(),
                                                dtype=args[i].dtype, device=self.device)
                         for i in sorted(self._copied)}
        inputs = [self._buffers.get(i, a) for i, a in enumerate(args)]
        self._static = tuple((i, a.data_ptr()) for i, a in enumerate(args)
                             if i not in self._buffers)
        for i, buffer in self._buffers.items():
            buffer.copy_(args[i])
        try:
            stream = torch.cuda.Stream(self.device)
            stream.wait_stream(torch.cuda.current_stream(self.device))
            # One run on the capture stream first: what initialises itself
            # lazily (cuBLAS's workspace, a kernel's first load) does so
            # outside the capture.
            with torch.cuda.stream(stream):
                self.fn(list(inputs))
            graph = torch.cuda.CUDAGraph()
            # Relaxed: the capture stays valid when TileOpt's runtime
            # allocates the tensor maps of new addresses while capturing.
            with torch.cuda.graph(graph, stream=stream, capture_error_mode="relaxed"):
                outputs = self.fn(list(inputs))
            torch.cuda.current_stream(self.device).wait_stream(stream)
        except RuntimeError as e:
            self.failed = str(e)
            self._buffers = {}
            warnings.warn(f"tileopt backend: the graph could not be captured as a "
                          f"CUDA graph, so it runs without one: {e}", RuntimeWarning)
            return False
        self.graph = graph
        self._outputs = [(o, isinstance(o, torch.Tensor)) for o in outputs]
        self.records += 1
        return True
