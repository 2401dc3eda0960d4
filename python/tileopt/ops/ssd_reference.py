"""Mamba-2's SSD forward in float64 NumPy: the minimal chunked algorithm
(the five stages of /work/shared/REFERENCES.md, "Mamba-2 SSD forward") and
the sequential recurrence it computes, which tests compare it with.

Shapes (mamba_ssm's): x (b, L, h, P), dt (b, L, h), A (h,), B and C
(b, L, g, N), D (h,) or (h, P), z (b, L, h, P), dt_bias (h,),
initial_states (b, h, P, N). Head i reads group i // (h // g) of B and C.
"""

import numpy as np

__all__ = ["process_dt", "ssd_chunked", "ssd_recurrent"]


def process_dt(dt, dt_bias=None, dt_softplus=False, dt_limit=(0.0, np.inf)):
    """dt + dt_bias, through softplus (identity above 20, as mamba_ssm),
    clamped to dt_limit unless it is the default (0, inf)."""
    dt = np.asarray(dt, dtype=np.float64)
    if dt_bias is not None:
        dt = dt + np.asarray(dt_bias, dtype=np.float64)
    if dt_softplus:
        dt = np.where(dt <= 20.0, np.log1p(np.exp(np.minimum(dt, 20.0))), dt)
    if tuple(dt_limit) != (0.0, np.inf):
        dt = np.clip(dt, dt_limit[0], dt_limit[1])
    return dt


def _heads(t, h):
    """B or C (b, L, g, N) repeated to one per head: (b, L, h, N)."""
    return np.repeat(np.asarray(t, dtype=np.float64), h // t.shape[2], axis=2)


def _skip_and_gate(y, x, D, z):
    if D is not None:
        D = np.asarray(D, dtype=np.float64)
        y = y + x * (D[:, None] if D.ndim == 1 else D)
    if z is not None:
        z = np.asarray(z, dtype=np.float64)
        y = y * z / (1.0 + np.exp(-z))
    return y


def ssd_chunked(x, dt, A, B, C, chunk_size, D=None, z=None, dt_bias=None,
                initial_states=None, dt_softplus=False, dt_limit=(0.0, np.inf)):
    """(y (b, L, h, P), final states (b, h, P, N)) by the chunked algorithm."""
    x = np.asarray(x, dtype=np.float64)
    b, L, h, P = x.shape
    N, Q = B.shape[3], chunk_size
    nc = L // Q
    dt = process_dt(dt, dt_bias, dt_softplus, dt_limit)
    # 1. chunk cumsum: dt and dA_cs = cumsum(dt * A) inside each chunk.
    dtc = dt.reshape(b, nc, Q, h)
    dA_cs = np.cumsum(dtc * np.asarray(A, dtype=np.float64), axis=2)
    xc = x.reshape(b, nc, Q, h, P)
    Bc = _heads(B, h).reshape(b, nc, Q, h, N)
    Cc = _heads(C, h).reshape(b, nc, Q, h, N)
    # 2. chunk state: the state each chunk adds, decayed to its end.
    decay_to_end = np.exp(dA_cs[:, :, -1:, :] - dA_cs)
    states = np.einsum("bclhn,bclh,bclhp->bchpn", Bc, decay_to_end * dtc, xc)
    # 3. state passing: the state entering each chunk, and the final one.
    state = (np.zeros((b, h, P, N)) if initial_states is None
             else np.asarray(initial_states, dtype=np.float64))
    entering = np.empty((b, nc, h, P, N))
    for c in range(nc):
        entering[:, c] = state
        state = np.exp(dA_cs[:, c, -1, :])[:, :, None, None] * state + states[:, c]
    # 4. C . B per chunk (and group, here repeated per head).
    CB = np.einsum("bclhn,bcshn->bchls", Cc, Bc)
    # 5. chunk scan: within the chunk (causal, decayed), plus the entering
    # state decayed to each position.
    cs = np.moveaxis(dA_cs, 3, 2)  # (b, nc, h, Q)
    causal = np.tril(np.ones((Q, Q), dtype=bool))
    decay = np.exp(np.where(causal, cs[..., :, None] - cs[..., None, :], -np.inf))
    y_diag = np.einsum("bchls,bcsh,bcshp->bclhp", CB * decay, dtc, xc)
    y_off = np.einsum("bclhn,bchpn,bclh->bclhp", Cc, entering, np.exp(dA_cs))
    y = _skip_and_gate((y_diag + y_off).reshape(b, L, h, P), x, D, z)
    return y, state


def ssd_recurrent(x, dt, A, B, C, D=None, z=None, dt_bias=None, initial_states=None,
                  dt_softplus=False, dt_limit=(0.0, np.inf)):
    """(y, final states) by the recurrence, one time step at a time:
    h_t = exp(dt_t A) h_{t-1} + dt_t x_t B_t^T, y_t = h_t C_t."""
    x = np.asarray(x, dtype=np.float64)
    b, L, h, P = x.shape
    N = B.shape[3]
    dt = process_dt(dt, dt_bias, dt_softplus, dt_limit)
    Bh, Ch = _heads(B, h), _heads(C, h)
    A = np.asarray(A, dtype=np.float64)
    state = (np.zeros((b, h, P, N)) if initial_states is None
             else np.asarray(initial_states, dtype=np.float64))
    y = np.empty_like(x)
    for t in range(L):
        state = (np.exp(dt[:, t] * A)[:, :, None, None] * state
                 + (dt[:, t, :, None] * x[:, t])[..., None] * Bh[:, t, :, None, :])
        y[:, t] = np.einsum("bhpn,bhn->bhp", state, Ch[:, t])
    return _skip_and_gate(y, x, D, z), state
