"""Mamba-2's SSD forward: the float64 chunked reference against the
sequential recurrence, the tile-DSL program (ssd_program) run by the tile
interpreter against the reference, the program compiled at a benchmark
shape, and mamba_chunk_scan_combined's argument checks. No GPU.

Run: TILEOPT_BUILD_DIR=build python3 -m pytest -q python/tests/test_ssd.py
"""

import math
from types import SimpleNamespace

import numpy as np
import pytest

from tileopt.ops import mamba_chunk_scan_combined, ssd
from tileopt.ops.ssd_reference import ssd_chunked, ssd_recurrent

RTOL = 1e-12

# name -> options of one SSD problem. Sizes are small; b=2, L=32 in chunks
# of 8 or 16, h=4 heads of P=8, N=16, g groups.
CASES = {
    "plain": dict(g=1, Q=8),
    "all_options": dict(g=2, Q=16, D="per_head", z=True, dt_bias=True, initial=True,
                        dt_softplus=True),
    "per_channel_D_and_limits": dict(g=4, Q=8, D="per_channel", dt_bias=True,
                                     dt_softplus=True, dt_limit=(0.05, 0.5)),
    "one_chunk": dict(g=2, Q=32, z=True, initial=True),
}
B_, L_, H_, P_, N_ = 2, 32, 4, 8, 16


def problem(case, seed=0):
    opts = CASES[case]
    rng = np.random.default_rng(seed)
    g = opts["g"]
    args = dict(
        x=rng.standard_normal((B_, L_, H_, P_)),
        dt=rng.uniform(-2.0, 1.0, (B_, L_, H_)) if opts.get("dt_softplus") else
        rng.uniform(0.01, 0.3, (B_, L_, H_)),
        A=-rng.uniform(0.5, 2.0, H_),
        B=rng.standard_normal((B_, L_, g, N_)),
        C=rng.standard_normal((B_, L_, g, N_)))
    optional = dict(
        D=rng.standard_normal({"per_head": (H_,), "per_channel": (H_, P_)}.get(opts.get("D"), (1,))),
        z=rng.standard_normal((B_, L_, H_, P_)),
        dt_bias=rng.uniform(-1.0, 1.0, H_),
        initial_states=rng.standard_normal((B_, H_, P_, N_)))
    args["D"] = optional["D"] if opts.get("D") else None
    args["z"] = optional["z"] if opts.get("z") else None
    args["dt_bias"] = optional["dt_bias"] if opts.get("dt_bias") else None
    args["initial_states"] = optional["initial_states"] if opts.get("initial") else None
    flags = dict(dt_softplus=opts.get("dt_softplus", False),
                 dt_limit=opts.get("dt_limit", (0.0, math.inf)))
    return args, flags, opts["Q"]


def assert_close(actual, expected, rtol=RTOL):
    scale = np.max(np.abs(expected))
    assert not np.isnan(actual).any()
    err = np.max(np.abs(actual - expected))
    assert err <= rtol * scale, f"max error {err}, {err / scale:.3g} of the largest value"


@pytest.mark.parametrize("case", sorted(CASES))
def test_chunked_reference_matches_recurrence(case):
    args, flags, Q = problem(case)
    y, final = ssd_chunked(chunk_size=Q, **args, **flags)
    y_rec, final_rec = ssd_recurrent(**args, **flags)
    assert_close(y, y_rec, 1e-10)
    assert_close(final, final_rec, 1e-10)


# Near misses the comparison must reject: each drops or changes one part.
NEAR_MISSES = {
    "no softplus": ("all_options", lambda a, f: (a, dict(f, dt_softplus=False))),
    "no dt_bias": ("all_options", lambda a, f: (dict(a, dt_bias=None), f)),
    "no initial states": ("all_options", lambda a, f: (dict(a, initial_states=None), f)),
    "no z gate": ("all_options", lambda a, f: (dict(a, z=None), f)),
    "no D": ("per_channel_D_and_limits", lambda a, f: (dict(a, D=None), f)),
    "no dt limit": ("per_channel_D_and_limits",
                    lambda a, f: (a, dict(f, dt_limit=(0.0, math.inf)))),
    "groups swapped": ("all_options", lambda a, f: (dict(a, B=a["B"][:, :, ::-1]), f)),
}


@pytest.mark.parametrize("miss", sorted(NEAR_MISSES))
def test_reference_rejects_near_misses(miss):
    case, change = NEAR_MISSES[miss]
    args, flags, Q = problem(case)
    y, _ = ssd_recurrent(**args, **flags)
    wrong_args, wrong_flags = change(args, flags)
    y_wrong, _ = ssd_chunked(chunk_size=Q, **wrong_args, **wrong_flags)
    with pytest.raises(AssertionError):
        assert_close(y_wrong, y, 1e-10)


def config(case, tile_size):
    """The case's SSDConfig and each stage's parameters at tiles of
    `tile_size` positions (rows of the chunk scan and of CB, steps of the
    chunk state) and state slices of P*N / 4 elements."""
    args, flags, Q = problem(case)
    opts = CASES[case]
    cfg = ssd.SSDConfig(B_, L_, H_, P_, N_, opts["g"], Q, "bf16", opts.get("D"),
                        args["z"] is not None, args["dt_bias"] is not None,
                        args["initial_states"] is not None, **flags)
    params = ssd.default_params(cfg)
    params["chunk_cb"].update(T=tile_size)
    params["chunk_state"].update(K=tile_size)
    params["state_passing"].update(T=P_ * N_ // 4)
    params["chunk_scan"].update(M=tile_size)
    return cfg, params, args, flags, Q


@pytest.mark.parametrize("case", sorted(CASES))
def test_tile_program_matches_reference(case):
    """The DSL kernels, run by the tile interpreter in float64, with tiles
    of 4 positions (so the chunk scan loops over up to 7 row tiles of a
    chunk before its diagonal one, and the chunk state over its positions
    4 at a time) and the state passing in 4 slices."""
    cfg, params, args, flags, Q = config(case, tile_size=4)
    program = ssd.ssd_program(cfg, params)
    out = program.interpret(**{k: v for k, v in args.items() if v is not None})
    y, final = ssd_chunked(chunk_size=Q, **args, **flags)
    assert_close(out["y"], y)
    assert_close(out["final_states"], final)


def test_stage_programs_compose():
    """The stages as separate programs (the artifacts the GPU runs), each
    interpreted on what the one before gave, compute the whole program's
    outputs."""
    cfg, params, args, flags, Q = config("all_options", tile_size=8)
    values = {k: v for k, v in args.items() if v is not None}
    for stage in ssd.STAGES:
        program = ssd.stage_program(cfg, stage, **{k: v for k, v in params[stage].items()
                                                   if k != "num_warps"})
        values.update(program.interpret(**{b.name: values[b.name] for b in program.inputs}))
    y, final = ssd_chunked(chunk_size=Q, **args, **flags)
    assert_close(values["y"], y)
    assert_close(values["final_states"], final)


def test_tile_program_is_compared_strictly():
    """The comparison rejects the program's output for another problem's
    input (the initial states dropped)."""
    cfg, params, args, flags, Q = config("all_options", tile_size=8)
    out = ssd.ssd_program(cfg, params).interpret(**{k: v for k, v in args.items()
                                                    if v is not None})
    y, _ = ssd_chunked(chunk_size=Q, **dict(args, initial_states=None), **flags)
    with pytest.raises(AssertionError):
        assert_close(out["y"], y)


def test_config_key_round_trips():
    cfg, *_ = config("per_channel_D_and_limits", tile_size=4)
    again = ssd.SSDConfig.from_key(cfg.key())
    assert vars(again) == vars(cfg)
    assert all(isinstance(v, (int, str)) for v in cfg.key().values())


def test_compiles_at_a_benchmark_shape(tmp_path):
    """(b, L, h, P, N, g, chunk) = (1, 4096, 32, 64, 128, 1, 256), bf16."""
    cfg = ssd.SSDConfig(1, 4096, 32, 64, 128, 1, 256, "bf16", "per_head", has_z=True,
                        has_dt_bias=True, dt_softplus=True)
    artifact = ssd.ssd_program(cfg).compile(tmp_path / "ssd.art", chip="sm_90")
    assert (artifact / "kernels.cubin").stat().st_size > 0


# ---------------------------------------------------------------------------
# mamba_chunk_scan_combined's checks
# ---------------------------------------------------------------------------


def tensor(shape, dtype="torch.bfloat16", device="cuda:0"):
    """What the checks read of a torch tensor."""
    return SimpleNamespace(shape=tuple(shape), dtype=dtype, device=device)


def valid(**changes):
    b, L, h, P, N, g = 1, 64, 4, 8, 16, 2
    args = dict(x=tensor((b, L, h, P)), dt=tensor((b, L, h), "torch.float32"),
                A=tensor((h,), "torch.float32"), B=tensor((b, L, g, N)),
                C=tensor((b, L, g, N)), chunk_size=16)
    args.update(changes)
    return args


CHECKS = {
    "heads not a multiple of groups": (valid(B=tensor((1, 64, 3, 16)), C=tensor((1, 64, 3, 16))),
                                       ValueError, r"nheads \(4\) must be a multiple of ngroups \(3\)"),
    "seqlen not a multiple of the chunk": (valid(chunk_size=24), ValueError,
                                           r"seqlen \(64\) must be a multiple of chunk_size \(24\)"),
    "x of rank 3": (valid(x=tensor((64, 4, 8))), ValueError, "x must be"),
    "dt shape": (valid(dt=tensor((1, 64, 5), "torch.float32")), ValueError,
                 r"dt must have shape \(1, 64, 4\)"),
    "C shape": (valid(C=tensor((1, 64, 2, 8))), ValueError, r"C must have shape"),
    "D shape": (valid(D=tensor((8,), "torch.float32")), ValueError,
                r"D must have shape \(4,\) or \(4, 8\)"),
    "initial states shape": (valid(initial_states=tensor((1, 4, 8, 8), "torch.float32")),
                             ValueError, "initial_states must have shape"),
    "dt limit": (valid(dt_limit=(1.0, 0.5)), ValueError, "dt_limit"),
    "integer dt": (valid(dt=tensor((1, 64, 4), "torch.int32")), TypeError,
                   "dt must be floating-point"),
    "B of another dtype": (valid(B=tensor((1, 64, 2, 16), "torch.float16")), TypeError,
                           r"B must have x's dtype \(bfloat16\)"),
    "x on the CPU": (valid(x=tensor((1, 64, 4, 8), device="cpu")), ValueError,
                     "x is on cpu: the SSD kernels run on a CUDA device"),
    "A on another GPU": (valid(A=tensor((4,), "torch.float32", "cuda:1")), ValueError,
                         "A is on cuda:1, x on cuda:0"),
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_argument_checks(name):
    args, error, match = CHECKS[name]
    with pytest.raises(error, match=match):
        ssd.check_arguments(**args)
    with pytest.raises(error, match=match):
        mamba_chunk_scan_combined(**args)


def test_numpy_arrays_are_refused_not_computed():
    """The GPU function never falls back to the reference."""
    args, flags, Q = problem("plain")
    with pytest.raises(ValueError, match="x is on cpu"):
        mamba_chunk_scan_combined(chunk_size=Q, **args, **flags)


def test_valid_arguments_give_the_sizes():
    assert ssd.check_arguments(**valid()) == (1, 64, 4, 8, 16, 2)

