"""More backward cases of tools/upstream_examples.py (issue 28), beside upstream_cases_rest.py: kda's chunk state
backward (chunk_delta_bwd.py), inter-chunk dq/dk/dw/dg (chunk_bwd_dqkwg.py) and W/U recompute backward
(wy_fast_bwd.py). Their references are the fla functions the examples compare with (FLA_KDA's
chunk_gated_delta_rule_bwd_dhu with per-dim gates and exp2, chunk_kda_bwd_kernel_inter, prepare_wy_repr_bwd), written
in numpy."""

from __future__ import annotations

import numpy as np

from .upstream_cases import BF16, Case, _f
from .upstream_cases_more_folders import _chunks, _gates, _unchunk


def _bf16(x: np.ndarray) -> np.ndarray:
    return x.astype(BF16).astype(np.float32)


def _kda_delta_bwd_ref(q: np.ndarray, k: np.ndarray, w: np.ndarray, gk: np.ndarray, dht: np.ndarray,
                       do: np.ndarray, dv: np.ndarray, chunk: int, scale: float) -> list[np.ndarray]:
    """From the last chunk back: dh_c = dh (stored, bfloat16), dv2 = K dh_c + dv, dh = dh exp2(gk_last) (per key
    dim) + Q^T dO scale - W^T dv2 (dv2 as the kernel holds it, bfloat16); dh0 is the last dh."""
    qc, kc, wc, gc, doc, dvc = (_chunks(x, chunk) for x in (q, k, w, gk, do, dv))
    state = dht.astype(np.float32).copy()
    dhs, dv2s = [], []
    for c in reversed(range(qc.shape[2])):
        stored = _bf16(state)
        dhs.append(stored)
        grad_v = kc[:, :, c] @ stored + dvc[:, :, c]
        dv2s.append(grad_v)
        state = state * np.exp2(gc[:, :, c, -1])[..., None] + np.swapaxes(qc[:, :, c], -1, -2) @ doc[:, :, c] * scale \
            - np.swapaxes(wc[:, :, c], -1, -2) @ _bf16(grad_v)
    return [np.moveaxis(np.stack(dhs[::-1], 2), 1, 2), state, _unchunk(np.stack(dv2s[::-1], 2))]


def _kda_delta_bwd_case() -> Case:
    """At its main()'s dtypes (bfloat16 in and out, float32 gates and dh0)."""
    b, s, h, dk, dv, c = 1, 128, 2, 64, 64, 64
    return Case(
        f"kda chunk_gated_delta_rule_bwd_dhu (per-dim gates) B={b} S={s} H={h} DK={dk} DV={dv} chunk={c}",
        "examples/kda/chunk_delta_bwd.py", "tilelang_chunk_gated_delta_rule_bwd_dhu",
        lambda: [_f((b, s, h, dk), BF16, -0.12, 0.12), _f((b, s, h, dk), BF16, -0.12, 0.12),
                 _f((b, s, h, dk), BF16, -0.12, 0.12), _gates(b, s, h, c, dk), _f((b, h, dk, dv), BF16),
                 _f((b, h, dk, dv), BF16), _f((b, s, h, dv), BF16), _f((b, s, h, dv), BF16)],
        lambda q, k, w, g, _h0, dht, do, dv_: _kda_delta_bwd_ref(q, k, w, g, dht, do, dv_, c, dk ** -0.5),
        lambda kern, x: kern(b, s, h, dk, dv, "bfloat16", "bfloat16", "float32", "float32", "float32", c, dk ** -0.5,
                             True, True, True, 32, 128, 1)(*x), atol=2e-2, rtol=2e-2)


def _kda_dqkwg_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, g: np.ndarray, h: np.ndarray, dv: np.ndarray,
                   do: np.ndarray, dh: np.ndarray, chunk: int, scale: float) -> list[np.ndarray]:
    """chunk_kda_bwd_kernel_inter per chunk c (gn its last token's gates): dq = dO h_c^T scale exp2(g),
    dk = V dh_c^T exp2(gn - g), dw = -dv h_c^T, dg = q dq - k dk, plus on the chunk's last row
    exp2(gn) sum_v(h_c dh_c) + sum over the chunk's rows of dk k."""
    qc, kc, vc, gc, dvc, doc = (_chunks(x, chunk) for x in (q, k, v, g, dv, do))
    hc, dhc = (np.moveaxis(x.astype(np.float32), 2, 1) for x in (h, dh))  # (B, H, N, DK, DV)
    gn = gc[..., -1:, :]
    dq = doc @ np.swapaxes(hc, -1, -2) * scale * np.exp2(gc)
    dk = vc @ np.swapaxes(dhc, -1, -2) * np.exp2(gn - gc)
    dw = -(dvc @ np.swapaxes(hc, -1, -2))
    dg = qc * dq - kc * dk
    dg[..., -1, :] += np.exp2(gn[..., 0, :]) * (hc * dhc).sum(-1) + (dk * kc).sum(-2)
    return [_unchunk(x) for x in (dq, dk, dw, dg)]


def _kda_dqkwg_case() -> Case:
    """At its main()'s dtypes (float32 throughout) and blocks (32 x 32), scale 1."""
    b, s, h, dk, dv, c = 1, 128, 2, 64, 64, 64
    return Case(
        f"kda chunk_bwd_dqkwg (inter-chunk) B={b} S={s} H={h} DK={dk} DV={dv} chunk={c}",
        "examples/kda/chunk_bwd_dqkwg.py", "chunk_bwd_dqkwg",
        lambda: [_f((b, s, h, dk)), _f((b, s, h, dk)), _f((b, s, h, dv)), _gates(b, s, h, c, dk),
                 _f((b, s // c, h, dk, dv)), _f((b, s, h, dv)), _f((b, s, h, dv)), _f((b, s // c, h, dk, dv))],
        lambda *x: _kda_dqkwg_ref(*x, chunk=c, scale=1.0),
        lambda kern, x: kern(b, s, h, dk, dv, 1.0, c, "float32", "float32", 32, 32, 128, 2)(*x), atol=1e-3,
        rtol=1e-3)


def _kda_wy_bwd_ref(k: np.ndarray, v: np.ndarray, beta: np.ndarray, gk: np.ndarray, a: np.ndarray, dw: np.ndarray,
                    du: np.ndarray, dk: np.ndarray, dg: np.ndarray, chunk: int) -> list[np.ndarray]:
    """prepare_wy_repr_bwd_kernel per chunk (W = A (K beta exp2(gk)), U = A (V beta)): dKbg = A^T dW, dVb = A^T dU;
    dk2 = dKbg exp2(gk) beta + dk, dg2 = K beta exp2(gk) dKbg + dg, dv = dVb beta,
    dbeta = rowsum(dKbg K exp2(gk)) + rowsum(dVb V); dA = -lower(A^T (lower(dW (Kbg)^T + dU (Vb)^T) A^T)), lower
    strictly below the diagonal."""
    kc, vc, gc, ac, dwc, duc, dkc, dgc = (_chunks(x, chunk) for x in (k, v, gk, a, dw, du, dk, dg))
    bc = _chunks(beta, chunk)[..., None]
    e = np.exp2(gc)
    kbg, vb = kc * bc * e, vc * bc
    t = lambda x: np.swapaxes(x, -1, -2)  # noqa: E731
    dkbg, dvb = t(ac) @ dwc, t(ac) @ duc
    lower = np.tri(chunk, k=-1, dtype=bool)
    da = np.where(lower, dwc @ t(kbg) + duc @ t(vb), 0)
    da = np.where(lower, -(t(ac) @ (da @ t(ac))), 0)
    dbeta = (dkbg * kc * e).sum(-1) + (dvb * vc).sum(-1)
    outs = [da, dkbg * e * bc + dkc, dvb * bc, dbeta, kbg * dkbg + dgc]
    return [_unchunk(x) for x in outs]


def _kda_wy_bwd_case() -> Case:
    """At its main()'s dtypes (float32 throughout) and blocks (32 x 32)."""
    b, s, h, dk, dv, c = 1, 128, 2, 64, 64, 64
    return Case(
        f"kda recompute_w_u backward (wy_fast_bwd) B={b} S={s} H={h} DK={dk} DV={dv} chunk={c}",
        "examples/kda/wy_fast_bwd.py", "tilelang_wy_fast_bwd",
        lambda: [_f((b, s, h, dk)), _f((b, s, h, dv)), _f((b, s, h)), _gates(b, s, h, c, dk),
                 _f((b, s, h, c), np.float32, -0.1, 0.1), _f((b, s, h, dk)), _f((b, s, h, dv)), _f((b, s, h, dk)),
                 _f((b, s, h, dk))],
        lambda *x: _kda_wy_bwd_ref(*x, chunk=c),
        lambda kern, x: kern(b, s, h, dk, dv, "float32", "float32", "float32", "float32", "float32", c, 32, 32, 128,
                             0)(*x), atol=1e-3, rtol=1e-3)


REST_BWD_CASES: list[Case] = [_kda_delta_bwd_case(), _kda_dqkwg_case(), _kda_wy_bwd_case()]
