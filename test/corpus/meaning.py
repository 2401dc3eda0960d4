"""What each corpus program computes, in NumPy float64, written from its
description (the header comment of programs/NAME.mlir), not from its IR.

check.py uses these to check the upstream reference itself: the reference
must agree with MEANINGS within the program's tolerance, and must disagree
with every NEAR_MISSES entry (a plausible mistake: a dropped mask, the wrong
kv head, K normalized over the wrong dim, ...). So a broken harness (inputs
bound in the wrong order, outputs misparsed) or a program that does not say
what its name says fails loudly.

Each function takes the inputs in argument order and returns one array or a
tuple of arrays (one per result).
"""

import math

import numpy as np

MIN_F32 = float(np.finfo(np.float32).min)
MIN_F16 = float(np.finfo(np.float16).min)
_erf = np.vectorize(math.erf)


def f16(x):
    """A constant as an fp16 program writes it."""
    return float(np.float16(x))


def rms(x, eps, axis=-1):
    return x / np.sqrt(np.mean(x * x, axis=axis, keepdims=True) + eps)


def softmax(s, axis=-1):
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def silu(x):
    return x / (1.0 + np.exp(-x))


def gelu(x):
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def attention(q, k, v, scale, add=None, where=None, fill=MIN_F32):
    """softmax(q k^T * scale [+ add] [where(where, fill)]) v, batched."""
    s = q @ np.swapaxes(k, -1, -2) * scale
    if add is not None:
        s = s + add
    if where is not None:
        s = np.where(where, fill, s)
    return softmax(s) @ v


def causal(s):
    return np.triu(np.ones((s, s), dtype=bool), 1)   # True above the diagonal: the future


def gqa(q, k, v, group_of):
    """Decode attention per query head h, with kv head group_of(h)."""
    hq, d = q.shape[-3], q.shape[-1]
    qh = q.reshape(hq, 1, d)
    kh = k.reshape(-1, k.shape[-2], d)
    vh = v.reshape(-1, v.shape[-2], d)
    out = np.stack([attention(qh[h], kh[group_of(h)], vh[group_of(h)], 1 / math.sqrt(d)) for h in range(hq)])
    return out.reshape(q.shape)


def mha(x, wq, wk, wv, wo, heads, mask=True):
    s, e = x.shape
    dh = e // heads
    q, k, v = (x @ w.T for w in (wq, wk, wv))
    outs = []
    for h in range(heads):
        cols = slice(h * dh, (h + 1) * dh)
        outs.append(attention(q[:, cols], k[:, cols], v[:, cols], 1 / math.sqrt(dh),
                              where=causal(s) if mask else None))
    return x + np.concatenate(outs, axis=1) @ wo.T


def rotate_half(x):
    d = x.shape[-1] // 2
    return np.concatenate([-x[..., d:], x[..., :d]], axis=-1)


def rotary_interleaved(x, cos, sin):
    a, b = x[..., 0::2], x[..., 1::2]
    c, s = cos[None, :, None, :], sin[None, :, None, :]
    out = np.empty_like(x)
    out[..., 0::2] = a * c - b * s
    out[..., 1::2] = a * s + b * c
    return out


def conv2d(x, w, pad, stride=1):
    """NHWC x, OHWI w, zero padding (top, bottom, left, right)."""
    xp = np.pad(x, ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)))
    o, kh, kw, _ = w.shape
    oh = (xp.shape[1] - kh) // stride + 1
    ow = (xp.shape[2] - kw) // stride + 1
    out = np.zeros((x.shape[0], oh, ow, o))
    for i in range(oh):
        for j in range(ow):
            window = xp[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            out[:, i, j, :] = np.einsum("nhwc,ohwc->no", window, w)
    return out


def depthwise3x3(x, w):
    """NHWC x, HWC1 w, pad 1, stride 1."""
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros(x.shape)
    for i in range(x.shape[1]):
        for j in range(x.shape[2]):
            out[:, i, j, :] = np.einsum("nhwc,hwc->nc", xp[:, i:i + 3, j:j + 3, :], w[..., 0])
    return out


def pool(x, k, stride, pad, reduce, fill):
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)), constant_values=fill)
    oh = (xp.shape[1] - k) // stride + 1
    ow = (xp.shape[2] - k) // stride + 1
    out = np.zeros((x.shape[0], oh, ow, x.shape[3]))
    for i in range(oh):
        for j in range(ow):
            out[:, i, j, :] = reduce(xp[:, i * stride:i * stride + k, j * stride:j * stride + k, :], axis=(1, 2))
    return out


def layernorm(x, g, b, ddof=0):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).sum(-1, keepdims=True) / (x.shape[-1] - ddof)
    return (x - mu) / np.sqrt(var + 1e-5) * g + b


MEANINGS = {
    "rmsnorm_linear": lambda x, w: rms(x, f16(1e-5)) @ w,
    "gated_mlp": lambda x, w1, w2: silu(x @ w1) * (x @ w2),
    "lora": lambda x, w, a, b: x @ w + (x @ a) @ b,
    "gqa_decode": lambda q, k, v: softmax(q @ k) @ v,
    # Each query over its last dim, each key (stored as K^T) over dim 1.
    "qknorm_attention": lambda q, k, v: softmax(rms(q, f16(1e-5), -1) @ rms(k, f16(1e-5), 1)) @ v,
    "ntrans": lambda x, y, w: rms(x + rms(y @ w, f16(1e-5)), f16(1e-5)),
    "mla_decode": lambda q, c, wk, wv: attention(q, c @ wk, c @ wv, 1.0),
    "rmsnorm": lambda x, w: rms(x, 1e-6) * w,
    "rmsnorm_f16_upcast": lambda x, w: w * rms(x, 1e-6),
    "layernorm": layernorm,
    "l2_normalize": lambda x: x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12),
    "gelu_erf": gelu,
    "geglu_tanh": lambda x, wg, wu: gelu_tanh(x @ wg) * (x @ wu),
    "swiglu_fused": lambda x, wgu, wd: (silu((x @ wgu)[:, :wd.shape[0]]) * (x @ wgu)[:, wd.shape[0]:]) @ wd,
    "decoder_mlp": lambda x, wn, wg, wu, wd: x + (silu((rms(x, 1e-6) * wn) @ wg.T) * ((rms(x, 1e-6) * wn) @ wu.T)) @ wd.T,
    "residual_bias": lambda x, w, b: x + (x @ w + b),
    "lora_scaled": lambda x, w, bias, a, b: x @ w + bias + (x @ a) @ b * 2.0,
    "relu6_hardswish": lambda x: (np.clip(x, 0, 6), x * np.clip(x + 3, 0, 6) / 6),
    "softmax": softmax,
    "log_softmax": lambda x: x - x.max(-1, keepdims=True) - np.log(np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True)),
    "softmax_f16_upcast": softmax,
    "linear_bf16_f32acc": lambda x, w, b: x @ w + b,
    "linear_f16_f32acc": lambda x, w: gelu(x @ w),
    "attention_causal_select": lambda q, k, v: attention(q, k, v, 0.25, where=causal(q.shape[1])),
    "attention_causal_additive_f16": lambda q, k, v: attention(
        q, k, v, f16(1 / math.sqrt(q.shape[-1])), add=np.where(causal(q.shape[1]), MIN_F16, 0.0)),
    "attention_mask_input": lambda q, k, v, m: attention(q, k, v, 0.25, add=m),
    "attention_padding_mask": lambda q, k, v, m: attention(q, k, v, 0.25, where=(m == 0)[:, None, :]),
    "qknorm_weighted": lambda q, k, v, wq, wk: attention(rms(q, 1e-6) * wq, rms(k, 1e-6) * wk, v, 1 / 8),
    # Query head h reads kv head h // (H_q / H_kv) (HF repeat_kv).
    "gqa_decode_grouped": lambda q, k, v: gqa(q, k, v, lambda h: h // (q.shape[1] // k.shape[1])),
    "gqa_decode_repeat_kv": lambda q, k, v: gqa(q, k, v, lambda h: h // (q.shape[0] // k.shape[0])),
    "mha_block": lambda x, wq, wk, wv, wo: mha(x, wq, wk, wv, wo, heads=4),
    "rotary_half": lambda x, cos, sin: x * cos[:, None, :] + rotate_half(x) * sin[:, None, :],
    "rotary_interleaved": rotary_interleaved,
    "conv_bias_relu": lambda x, w, b: np.maximum(conv2d(x, w, (1, 1, 1, 1)) + b, 0),
    "conv_strided_residual": lambda x, w3, w1: conv2d(x, w3, (1, 1, 1, 1), 2) + conv2d(x, w1, (0, 0, 0, 0), 2),
    "depthwise_conv": lambda x, w, b: np.clip(depthwise3x3(x, w) + b, 0, 6),
    "max_pool": lambda x: pool(x, 3, 2, 1, np.max, -np.inf),
    "avg_pool_scale": lambda x, s: pool(x, 2, 1, 0, np.mean, 0.0) * s,
    "pad_exp": lambda x: np.exp(np.pad(x, ((1, 0), (2, 3)), constant_values=-1.0)),
}

# Plausible mistakes: the reference must reject each one.
NEAR_MISSES = {
    "rmsnorm_linear": lambda x, w: x @ w,
    "gated_mlp": lambda x, w1, w2: silu(x @ w2) * (x @ w1),
    "lora": lambda x, w, a, b: x @ w,
    "gqa_decode": lambda q, k, v: softmax(q @ k, axis=1) @ v,
    "qknorm_attention": lambda q, k, v: softmax(rms(q, f16(1e-5), -1) @ rms(k, f16(1e-5), -1)) @ v,
    "ntrans": lambda x, y, w: rms(x + y @ w, f16(1e-5)),
    "mla_decode": lambda q, c, wk, wv: attention(q, c @ wk, c @ wk, 1.0),
    "rmsnorm": lambda x, w: rms(x, 1e-6),
    "layernorm": lambda x, g, b: layernorm(x, g, b, ddof=1),
    "l2_normalize": lambda x: x / np.maximum((x * x).sum(-1, keepdims=True), 1e-12),
    "gelu_erf": gelu_tanh,
    "geglu_tanh": lambda x, wg, wu: gelu(x @ wg) * (x @ wu),
    "swiglu_fused": lambda x, wgu, wd: ((x @ wgu)[:, :wd.shape[0]] * silu((x @ wgu)[:, wd.shape[0]:])) @ wd,
    "decoder_mlp": lambda x, wn, wg, wu, wd: (silu((rms(x, 1e-6) * wn) @ wg.T) * ((rms(x, 1e-6) * wn) @ wu.T)) @ wd.T,
    "lora_scaled": lambda x, w, bias, a, b: x @ w + bias + (x @ a) @ b,
    "relu6_hardswish": lambda x: (np.clip(x, 0, 6), x * np.clip(x + 3, 0, 6)),
    "log_softmax": lambda x: x - x.max(-1, keepdims=True),
    "attention_causal_select": lambda q, k, v: attention(q, k, v, 0.25),
    "attention_causal_additive_f16": lambda q, k, v: attention(q, k, v, f16(1 / math.sqrt(q.shape[-1]))),
    "attention_mask_input": lambda q, k, v, m: attention(q, k, v, 0.25),
    "attention_padding_mask": lambda q, k, v, m: attention(q, k, v, 0.25, where=(m != 0)[:, None, :]),
    "qknorm_weighted": lambda q, k, v, wq, wk: attention(rms(q, 1e-6) * wq, rms(k, 1e-6) * wk, v, 1.0),
    # The classic repeat_kv bug: kv head h % H_kv (tiling instead of interleaving).
    "gqa_decode_grouped": lambda q, k, v: gqa(q, k, v, lambda h: h % k.shape[1]),
    "gqa_decode_repeat_kv": lambda q, k, v: gqa(q, k, v, lambda h: h % k.shape[0]),
    "mha_block": lambda x, wq, wk, wv, wo: mha(x, wq, wk, wv, wo, heads=4, mask=False),
    "rotary_half": lambda x, cos, sin: x * cos[:, None, :] - rotate_half(x) * sin[:, None, :],
    "rotary_interleaved": lambda x, cos, sin: x * np.repeat(cos, 2, -1)[None, :, None, :]
    + rotate_half(x) * np.repeat(sin, 2, -1)[None, :, None, :],
    # OHWI read as OWHI: the kernel transposed.
    "conv_bias_relu": lambda x, w, b: np.maximum(conv2d(x, np.swapaxes(w, 1, 2), (1, 1, 1, 1)) + b, 0),
    "conv_strided_residual": lambda x, w3, w1: conv2d(x, w3, (0, 2, 0, 2), 2) + conv2d(x, w1, (0, 0, 0, 0), 2),
    "depthwise_conv": lambda x, w, b: np.clip(depthwise3x3(x, w[::-1, ::-1]) + b, 0, 6),
    # Padding that takes part in the max as 0 rather than -inf.
    "max_pool": lambda x: pool(x, 3, 2, 1, np.max, 0.0),
    "avg_pool_scale": lambda x, s: pool(x, 2, 1, 0, np.sum, 0.0) * s,
    "pad_exp": lambda x: np.exp(np.pad(x, ((1, 0), (3, 2)), constant_values=-1.0)),
}
