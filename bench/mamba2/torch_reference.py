"""The chunked SSD of tileopt.ops.ssd_reference in PyTorch, on any device
and in any float dtype: in float64 it is the GPU check's reference (the
NumPy one is slow at the benchmark shapes), in float32 the PyTorch peer of
BENCHMARKS.md ("PyTorch chunked reference, fp32"). Same arguments and
results as ssd_reference.ssd_chunked."""
import math

import torch


def process_dt(dt, dt_bias=None, dt_softplus=False, dt_limit=(0.0, math.inf)):
    if dt_bias is not None:
        dt = dt + dt_bias
    if dt_softplus:
        dt = torch.where(dt <= 20.0, torch.log1p(torch.exp(torch.clamp(dt, max=20.0))), dt)
    if tuple(dt_limit) != (0.0, math.inf):
        dt = torch.clamp(dt, dt_limit[0], dt_limit[1])
    return dt


def ssd_chunked(x, dt, A, B, C, chunk_size, D=None, z=None, dt_bias=None,
                initial_states=None, dt_softplus=False, dt_limit=(0.0, math.inf),
                dtype=torch.float64):
    """(y (b, L, h, P), final states (b, h, P, N)) in `dtype`."""
    cast = (lambda t: None if t is None else t.to(dtype))
    x, dt, A, B, C, D, z = map(cast, (x, dt, A, B, C, D, z))
    b, L, h, P = x.shape
    g, N, Q = B.shape[2], B.shape[3], chunk_size
    nc = L // Q
    dt = process_dt(dt, cast(dt_bias), dt_softplus, dt_limit)
    dtc = dt.reshape(b, nc, Q, h)
    dA_cs = torch.cumsum(dtc * A, dim=2)
    xc = x.reshape(b, nc, Q, h, P)
    Bc = torch.repeat_interleave(B, h // g, dim=2).reshape(b, nc, Q, h, N)
    Cc = torch.repeat_interleave(C, h // g, dim=2).reshape(b, nc, Q, h, N)
    decay_to_end = torch.exp(dA_cs[:, :, -1:, :] - dA_cs)
    states = torch.einsum("bclhn,bclh,bclhp->bchpn", Bc, decay_to_end * dtc, xc)
    state = (torch.zeros(b, h, P, N, dtype=dtype, device=x.device) if initial_states is None
             else cast(initial_states))
    entering = []
    for c in range(nc):
        entering.append(state)
        state = torch.exp(dA_cs[:, c, -1, :])[:, :, None, None] * state + states[:, c]
    entering = torch.stack(entering, dim=1)
    CB = torch.einsum("bclhn,bcshn->bchls", Cc, Bc)
    cs = dA_cs.movedim(3, 2)  # (b, nc, h, Q)
    causal = torch.tril(torch.ones(Q, Q, dtype=torch.bool, device=x.device))
    # torch.full, not torch.tensor: no host-to-device copy, which a CUDA
    # graph being captured refuses.
    decay = torch.exp(torch.where(causal, cs[..., :, None] - cs[..., None, :],
                                  torch.full((), -math.inf, dtype=dtype, device=x.device)))
    y_diag = torch.einsum("bchls,bcsh,bcshp->bclhp", CB * decay, dtc, xc)
    y_off = torch.einsum("bclhn,bchpn,bclh->bclhp", Cc, entering, torch.exp(dA_cs))
    y = (y_diag + y_off).reshape(b, L, h, P)
    if D is not None:
        y = y + x * (D[:, None] if D.dim() == 1 else D)
    if z is not None:
        y = y * z * torch.sigmoid(z)
    return y, state
