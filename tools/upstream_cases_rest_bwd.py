"""More backward cases of tools/upstream_examples.py (issue 28), beside upstream_cases_rest.py: kda's chunk state
backward (chunk_delta_bwd.py). Its reference is fla's chunk_gated_delta_rule_bwd_dhu with per-dim gates and exp2,
which the example compares with, written in numpy."""

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


REST_BWD_CASES: list[Case] = [_kda_delta_bwd_case()]
