"""Cases of tools/upstream_examples.py from the examples upstream_cases_more_folders.py left (issue 28): the backward
kernels (linear_attention's fused chunk backward, kda's dv and dA backward), linear_attention's mamba chunk scan and
chunk state, deepseek_mhc's post mix, deepseek_mla's persistent decode and blocksparse_attention's paged sparse GQA
decode. Each reference is numpy written from the example's own reference (its `ref_program`, `mhc_post_ref`,
`ref_program_torch_paged`, or the closed-form gradient of the forward reference it differentiates)."""

from __future__ import annotations

import numpy as np

from .upstream_cases import BF16, F16, F32, RNG, Case, _f
from .upstream_cases_folders import _mla_ref
from .upstream_cases_more_folders import _chunks, _gates, _gqa_decode_ref, _unchunk


def _linear_attn_bwd_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, do: np.ndarray) -> list[np.ndarray]:
    """The gradients of example_linear_attn_bwd.py's ref_program, O = scale tril(Q K^T) V per (batch, head) over the
    whole sequence (its chunked form is exact): dQ = scale tril(dO V^T) K, dK = scale tril(dO V^T)^T Q,
    dV = scale tril(Q K^T)^T dO."""
    scale = q.shape[-1] ** -0.5
    qh, kh, vh, doh = (np.moveaxis(x.astype(F32), 2, 1) for x in (q, k, v, do))
    t = lambda x: np.swapaxes(x, -1, -2)  # noqa: E731
    dov = np.tril(doh @ t(vh))
    dq = scale * dov @ kh
    dk = scale * t(dov) @ qh
    dv = scale * t(np.tril(qh @ t(kh))) @ doh
    return [np.moveaxis(x, 1, 2) for x in (dq, dk, dv)]


def _mamba_state_ref(b: np.ndarray, x: np.ndarray, dt: np.ndarray, da: np.ndarray) -> np.ndarray:
    """example_mamba_chunk_state.py's ref_program: states[b, c, h, p, n] = sum over the chunk's positions l of
    B[l, n] exp(dA_last - dA_l) dt_l x[l, p] (B's group repeated over its heads)."""
    batch, seq, heads, _ = x.shape
    chunks, chunk = dt.shape[2:]
    bh = np.repeat(b.astype(F32), heads // b.shape[2], 2).reshape(batch, chunks, chunk, heads, -1)
    xc = x.astype(F32).reshape(batch, chunks, chunk, heads, -1)
    decay = np.exp(da[..., -1:].astype(F32) - da.astype(F32)).astype(F16).astype(F32)
    return np.einsum("bclhn,bhcl,bhcl,bclhp->bchpn", bh, decay, dt.astype(F32), xc)


def _mamba_scan_ref(cb: np.ndarray, x: np.ndarray, dt: np.ndarray, da: np.ndarray, c: np.ndarray,
                    prev: np.ndarray, d: np.ndarray) -> np.ndarray:
    """example_mamba_chunk_scan.py's ref_program: per chunk, lower(cb exp(dA_l - dA_s)) dt_s x_s, plus
    C_l prev_state^T exp(dA_l), plus x D."""
    batch, seq, heads, _ = x.shape
    chunks, chunk = dt.shape[2:]
    rep = heads // cb.shape[2]
    cbh = np.repeat(cb.astype(F32), rep, 2)
    ch = np.repeat(c.astype(F32), rep, 2).reshape(batch, chunks, chunk, heads, -1)
    da32 = da.astype(F32)
    decay = np.moveaxis(np.exp(da32[..., :, None] - da32[..., None, :]), 1, 2)
    scores = np.where(np.tril(np.ones((chunk, chunk), bool)), cbh * decay, 0)
    xc = x.astype(F32).reshape(batch, chunks, chunk, heads, -1)
    out = np.einsum("bchls,bhcs,bcshp->bclhp", scores, dt.astype(F32), xc)
    out += np.einsum("bclhn,bchpn->bclhp", ch, prev.astype(F32)) * np.exp(np.moveaxis(da32, 1, 3))[..., None]
    return out.reshape(batch, seq, heads, -1) + x.astype(F32) * d.astype(F32)[:, None]


def _linear_attention_cases() -> list[Case]:
    folder = "examples/linear_attention/"
    b, s, h, d, c = 1, 128, 2, 64, 64
    small = (-0.5, 0.5)

    def falling(*shape: int) -> np.ndarray:
        """dA_cumsum: a cumulative sum of negative steps within each chunk, as dt A with A < 0."""
        return np.cumsum(-RNG.uniform(0.0, 0.05, shape), -1).astype(F16)

    return [
        Case(f"linear_attention fused_chunk_bwd B={b} S={s} H={h} D={d} (atomic_add gradients, carried states)",
             folder + "example_linear_attn_bwd.py", "tl_fused_chunk_bwd_kernel",
             lambda: [*(_f((b, s, h, d), F16, *small) for _ in range(4)), *(np.zeros((b, s, h, d), F32)
                                                                           for _ in range(3))],
             lambda q, k, v, do, *_: _linear_attn_bwd_ref(q, k, v, do),
             lambda kern, x: (kern(b, s, h, d, d)(*x), x[4:])[1], atol=3e-2, rtol=3e-2),
        Case(f"linear_attention mamba chunk_state B={b} S={s} H={h} groups=1 headdim={d} dstate={d} chunk={c}",
             folder + "example_mamba_chunk_state.py", "chunk_state_fwd",
             lambda: [_f((b, s, 1, d), F16, *small), _f((b, s, h, d), F16, *small),
                      _f((b, h, s // c, c), F16, 0.0, 0.1), falling(b, h, s // c, c)],
             _mamba_state_ref,
             lambda kern, x: kern(*x, block_M=64, block_N=64, block_K=64, num_stages=2), atol=2e-2, rtol=2e-2),
        Case(f"linear_attention mamba chunk_scan B={b} S={s} H={h} groups=1 headdim={d} dstate={d} chunk={c}",
             folder + "example_mamba_chunk_scan.py", "chunk_scan_fwd",
             lambda: [_f((b, s // c, 1, c, c), F16, *small), _f((b, s, h, d), F16, *small),
                      _f((b, h, s // c, c), F16, 0.0, 0.1), falling(b, h, s // c, c), _f((b, s, 1, d), F16, *small),
                      _f((b, s // c, h, d, d), F16, *small), _f((h,), F16)],
             _mamba_scan_ref,
             lambda kern, x: kern(*x, block_M=64, block_N=64, block_K=64, block_Dstate=64, num_stages=2),
             atol=3e-2, rtol=3e-2),
    ]


def _mhc_post_ref(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray, _x: np.ndarray) -> np.ndarray:
    """mhc_post_ref: comb_res_mix^T residual + x post_layer_mix, per token, in bfloat16."""
    out = np.swapaxes(a, -1, -2) @ b.astype(F32) + d.astype(F32)[:, None, :] * c[..., None]
    return out.astype(BF16)


def _mhc_cases() -> list[Case]:
    n, hc, hidden = 4, 4, 64
    return [Case(
        f"deepseek_mhc post tokens={n} hc={hc} hidden={hidden} (T.dynamic token count)",
        "examples/deepseek_mhc/example_mhc_post.py", "mhc_post_tilelang",
        lambda: [_f((n, hc, hc)), _f((n, hc, hidden), BF16), _f((n, hc)), _f((n, hidden), BF16),
                 np.zeros((n, hc, hidden), BF16)],
        _mhc_post_ref, lambda kern, x: (kern(*x, hc, hidden, h_blk=hidden), x[4])[1], atol=3e-2, rtol=3e-2)]


def _mhc_pre_ref(mul: np.ndarray, sqrsum: np.ndarray, scale: np.ndarray, base: np.ndarray, residual: np.ndarray,
                 *_: np.ndarray) -> list[np.ndarray]:
    """mhc_pre_ref from its gemm and square sum (n_splits 1; rms, pre and sinkhorn eps 1e-6, post multiplier 1,
    10 sinkhorn repeats): mixes = gemm rsqrt(sqrsum / (hc hidden) + eps) scale + base; post = sigmoid(mixes[hc:2hc]);
    comb = sinkhorn(mixes[2hc:]); layer_input = sum over hc of residual (sigmoid(mixes[:hc]) + eps)."""
    n, hc, hidden = residual.shape
    mixes = mul[0] / np.sqrt(sqrsum[0][:, None] / (hc * hidden) + 1e-6)
    mixes = mixes * np.repeat(scale, [hc, hc, hc * hc]) + base
    sigmoid = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
    comb = mixes[:, 2 * hc:].reshape(n, hc, hc)
    comb = np.exp(comb - comb.max(-1, keepdims=True))
    comb = comb / comb.sum(-1, keepdims=True) + 1e-6
    comb = comb / (comb.sum(-2, keepdims=True) + 1e-6)
    for _ in range(9):
        comb = comb / (comb.sum(-1, keepdims=True) + 1e-6)
        comb = comb / (comb.sum(-2, keepdims=True) + 1e-6)
    pre = sigmoid(mixes[:, :hc]) + 1e-6
    layer_input = (residual.astype(F32) * pre[..., None]).sum(-2).astype(BF16)
    return [sigmoid(mixes[:, hc:2 * hc]).astype(F32), comb.reshape(n, hc * hc).astype(F32), layer_input]


def _mhc_pre_cases() -> list[Case]:
    """The two kernels of mhc_pre (4 streams, so 24 mixes; hidden 64): the gemm with square sums, then the fused rest
    on that gemm's result, inputs as its generate_test_data makes them."""
    n, hc, hidden = 32, 4, 64
    mixes = hc * (2 + hc)
    folder = "examples/deepseek_mhc/example_mhc_pre.py"

    def data() -> tuple[np.ndarray, np.ndarray]:
        grow = 1 + 0.01 * np.arange(hc)[None, :, None]
        residual = (RNG.standard_normal((n, hc, hidden)) * grow).astype(BF16)
        fn = (RNG.standard_normal((mixes, hc, hidden)) * 1e-4 * grow).reshape(mixes, hc * hidden).astype(F32)
        return residual, fn

    def fused_inputs() -> list[np.ndarray]:
        residual, fn = data()
        flat = residual.reshape(n, -1).astype(F32)
        return [(flat @ fn.T)[None], (flat * flat).sum(-1)[None], (RNG.standard_normal(3) * 0.1).astype(F32),
                (RNG.standard_normal(mixes) * 0.1).astype(F32), residual, np.zeros((n, hc), F32),
                np.zeros((n, hc * hc), F32), np.zeros((n, hidden), BF16)]

    return [
        Case(f"deepseek_mhc pre gemm_sqrsum tokens={n} hc={hc} hidden={hidden} (T.dynamic token count)", folder,
             "mhc_pre_gemm_sqrsum_tilelang",
             lambda: (lambda r, fn: [r.reshape(n, -1), fn, np.zeros((n, mixes), F32), np.zeros(n, F32)])(*data()),
             lambda x, fn, *_: [x.astype(F32) @ fn.T, (x.astype(F32) ** 2).sum(-1)],
             lambda kern, x: (kern(*x, mixes, hc * hidden, token_block=32, hidden_block=256), x[2:])[1],
             atol=1e-4, rtol=1e-2),
        Case(f"deepseek_mhc pre big_fuse tokens={n} hc={hc} hidden={hidden} (T.dynamic token count)", folder,
             "mhc_pre_big_fuse_tilelang", fused_inputs, _mhc_pre_ref,
             lambda kern, x: (kern(*x, hidden, 1e-6, 1e-6, 1e-6, 1.0, 10, 1, hc), x[5:])[1], atol=1e-3, rtol=1e-2),
    ]


def _sinkhorn_grad(m: np.ndarray, weight: np.ndarray, iters: int) -> tuple[np.ndarray, np.ndarray]:
    """example_mhc_bwd.py's reference: sinkhorn_forward(M, iters) (R = exp(M), then column and row normalisations)
    and the autograd gradient of sum(R * weight) with respect to M, differentiated by hand through each step
    (y = x / sum(x): dx = (dy - sum(dy y)) / sum(x))."""
    steps, r = [], np.exp(m.astype(np.float64))
    for _ in range(iters):
        for axis in (-2, -1):
            total = r.sum(axis, keepdims=True)
            steps.append((axis, total, r / total))
            r = steps[-1][2]
    grad = weight.astype(np.float64)
    for axis, total, y in reversed(steps):
        grad = (grad - (grad * y).sum(axis, keepdims=True)) / total
    return r.astype(F32), (grad * np.exp(m.astype(np.float64))).astype(F32)


def _mhc_bwd_case() -> Case:
    seq, n = 64, 4
    m = RNG.uniform(0.0, 4.0, (seq, n, n))
    weight = RNG.standard_normal((seq, n, n)).astype(F32)
    r, grad = _sinkhorn_grad(m, weight, 100)
    return Case(f"deepseek_mhc bwd (sinkhorn, implicit CG) seqlen={seq} n_stream={n} tilesize=32 (T.dynamic seqlen)",
                "examples/deepseek_mhc/example_mhc_bwd.py", "sinkhorn_bwd_implicit_cg",
                lambda: [r.copy(), weight.copy()], lambda *_: grad,
                lambda kern, x: kern(*x, tilesize=32, threads=128), atol=1e-3, rtol=1e-2)


def _decode_cases() -> list[Case]:
    """The persistent MLA decode (2 splits combined in the same kernel after T.sync_grid) at the shape of the
    no-split decode case; the paged sparse GQA decode at the varlen cases' shape, its 256-token caches in pages of 64
    (a shuffled block table), 4 of 8 blocks of 32 selected, sorted descending as those cases'."""
    seqlens = np.array([200, 256], np.int32)
    table = RNG.permutation(8).astype(np.int32).reshape(2, 4)

    def indices() -> np.ndarray:
        return np.stack([np.stack([np.sort(RNG.permutation(-(-n // 32))[:4])[::-1] for _ in range(2)])
                         for n in seqlens]).astype(np.int32)

    def paged_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, idx: np.ndarray, lens: np.ndarray,
                  tab: np.ndarray, *_: np.ndarray) -> np.ndarray:
        tokens = np.arange(256)
        full_k = np.stack([k[tab[bb, tokens // 64], tokens % 64] for bb in range(2)])
        full_v = np.stack([v[tab[bb, tokens // 64], tokens % 64] for bb in range(2)])
        keep = np.zeros((2, 2, 8), bool)
        for bb, hh, i in np.ndindex(*idx.shape):
            keep[bb, hh, idx[bb, hh, i]] = idx[bb, hh, i] >= 0
        return _gqa_decode_ref(q, full_k, full_v, keep, lens, 32)

    return [
        Case("deepseek_mla decode_persistent B=1 heads=32 kv_ctx=128 dim=64 pe_dim=32 splits=2",
             "examples/deepseek_mla/example_mla_decode_persistent.py", "flashattn",
             lambda: [_f((1, 32, 64), F16), _f((1, 32, 32), F16), _f((1, 128, 1, 64), F16),
                      _f((1, 128, 1, 32), F16), np.zeros((1, 32, 2), F16), np.zeros((1, 32, 2, 64), F16)],
             lambda q, q_pe, kv, k_pe, *_: _mla_ref(q, q_pe, kv, k_pe),
             lambda kern, x: kern(1, 32, 1, 128, 64, 32, 32, 32, 2)(*x), atol=2e-2, rtol=2e-2),
        Case("blocksparse_attention sparse_gqa_decode_paged B=2 heads=32 kv_heads=2 cache=256 page=64 blocks=4/8",
             "examples/blocksparse_attention/example_tilelang_sparse_gqa_decode_paged.py", "flashattn",
             lambda: [_f((2, 32, 64), F16), _f((8, 64, 2, 64), F16), _f((8, 64, 2, 64), F16), indices(),
                      seqlens.copy(), table.copy(), np.zeros((2, 32, 2), F32), np.zeros((2, 32, 2, 64), F32)],
             paged_ref, lambda kern, x: kern(2, 32, 2, 64, 64, 32, 16, 64, 1, 128, 8)(*x), atol=2e-2, rtol=2e-2),
    ]


def _kda_bwd_cases() -> list[Case]:
    """kda's dv and dA backward at their main()'s dtypes (dv: bfloat16 A, float32 dO, bfloat16 dv; dA: bfloat16
    inputs, float32 dA); references fla's chunk_bwd_dv_local (dv = lower(A)^T dO per chunk) and chunk_gla_bwd_dA
    (dA = lower(dO V^T) scale per chunk)."""
    b, s, h, dv, c = 1, 128, 2, 64, 64
    tril = np.tril(np.ones((c, c), bool))

    def dv_ref(do: np.ndarray, a: np.ndarray) -> np.ndarray:
        ac = np.where(tril, _chunks(a, c), 0).astype(F32)
        return _unchunk(np.swapaxes(ac, -1, -2) @ _chunks(do, c)).astype(BF16)

    def da_ref(do: np.ndarray, v: np.ndarray) -> np.ndarray:
        return _unchunk(np.where(tril, _chunks(do, c) @ np.swapaxes(_chunks(v, c), -1, -2), 0) * 0.5)

    return [
        Case(f"kda chunk_bwd_dv_local B={b} S={s} H={h} DV={dv} chunk={c}", "examples/kda/chunk_bwd_dv.py",
             "tilelang_chunk_bwd_kernel_dv_local",
             lambda: [_f((b, s, h, dv), F32), _f((b, s, h, c), BF16, -0.2, 0.2)], dv_ref,
             lambda kern, x: kern(b, s, h, dv, "bfloat16", "bfloat16", "float32", c, 64, 128, 1)(*x),
             atol=3e-2, rtol=3e-2),
        Case(f"kda chunk_bwd_gla_dA B={b} S={s} H={h} DV={dv} chunk={c} scale=0.5", "examples/kda/chunk_bwd_gla_dA.py",
             "tilelang_chunk_bwd_kernel_dv_local",
             lambda: [_f((b, s, h, dv), BF16), _f((b, s, h, dv), BF16)], da_ref,
             lambda kern, x: kern(b, s, h, dv, 0.5, "bfloat16", "float32", "bfloat16", c, 64, 128, 1)(*x),
             atol=3e-2, rtol=3e-2),
    ]


def _gdn_delta_bwd_ref(q: np.ndarray, k: np.ndarray, w: np.ndarray, g: np.ndarray, dht: np.ndarray,
                       do: np.ndarray, dv: np.ndarray, chunk: int, scale: float) -> list[np.ndarray]:
    """example_chunk_delta_bwd.py's torch_chunk_gated_delta_rule_bwd_dhu (use_g, the initial state and the final
    state's gradient): from the last chunk back, dh_c = dh (stored), dv2 = K dh exp(g_last - g) (0 where that is
    positive) + dv, dh = dh exp(g_last) + (Q exp(g) scale)^T dO - W^T dv2; dh0 is the last dh."""
    qc, kc, wc, gc, doc, dvc = (_chunks(x, chunk) for x in (q, k, w, g, do, dv))
    state = dht.astype(F32).copy()
    dhs, dv2s = [], []
    for c in reversed(range(qc.shape[2])):
        dhs.append(state.copy())
        g_last = gc[:, :, c, -1][..., None]
        step = (g_last - gc[:, :, c])[..., None]
        grad_v = np.where(step <= 0, kc[:, :, c] @ state.astype(BF16).astype(F32) * np.exp(np.minimum(step, 0)), 0)
        grad_v = grad_v + dvc[:, :, c]
        dv2s.append(grad_v)
        q_gated = qc[:, :, c] * np.exp(gc[:, :, c])[..., None] * scale
        state = state * np.exp(g_last)[..., None] + np.swapaxes(q_gated, -1, -2) @ doc[:, :, c] \
            - np.swapaxes(wc[:, :, c], -1, -2) @ grad_v
    return [np.moveaxis(np.stack(dhs[::-1], 2), 1, 2), state, _unchunk(np.stack(dv2s[::-1], 2))]


def _gdn_bwd_cases() -> list[Case]:
    """gdn's chunk state backward at its main()'s dtypes (bfloat16 in and out, float32 gates and dh0), K rows of unit
    norm as its prepare_input makes them."""
    b, s, h, dk, dv, c = 1, 128, 2, 64, 64, 64

    def unit_rows() -> np.ndarray:
        k = RNG.standard_normal((b, s, h, dk))
        return (k / np.linalg.norm(k, axis=-1, keepdims=True)).astype(BF16)

    return [Case(
        f"gdn chunk_gated_delta_rule_bwd_dhu B={b} S={s} H={h} DK={dk} DV={dv} chunk={c}",
        "examples/gdn/example_chunk_delta_bwd.py", "tilelang_chunk_gated_delta_rule_bwd_dhu",
        lambda: [_f((b, s, h, dk), BF16, -0.5, 0.5), unit_rows(), _f((b, s, h, dk), BF16, -0.5, 0.5),
                 _gates(b, s, h, c), _f((b, h, dk, dv), BF16), _f((b, h, dk, dv), BF16), _f((b, s, h, dv), BF16),
                 _f((b, s, h, dv), BF16)],
        lambda q, k, w, g, _h0, dht, do, dv_: _gdn_delta_bwd_ref(q, k, w, g, dht, do, dv_, c, dk ** -0.5),
        lambda kern, x: kern(b, s, h, dk, dv, "bfloat16", "bfloat16", "float32", "float32", "float32", c, dk ** -0.5,
                             True, True, True, 32, 128, 1)(*x), atol=6e-2, rtol=3e-2)]


def _nsa_bwd_data(seq: int, heads: int, dim: int, selected: int, block: int) -> list[np.ndarray]:
    """Q, K, V, LSE, Delta, dO and the block mask of one batch and one KV head, as the example's main makes them
    (token t selects up to `selected` of the blocks before its own, at least block 0; the block counts random in 1..S,
    as block_mask takes them); LSE (base 2, as the kernel's exp2 reads it) and Delta = rowsum(O dO) from the
    forward of naive_nsa."""
    q, k, v, do = _f((1, seq, heads, dim), F16), _f((1, seq, 1, dim), F16), _f((1, seq, 1, dim), F16), \
        _f((1, seq, heads, dim), F16)
    mask = np.zeros((1, seq, 1, seq // block), np.int32)
    for t in range(seq):
        chosen = np.sort(RNG.permutation(max(1, t // block))[:selected])
        mask[0, t, 0, chosen[:RNG.integers(1, selected + 1)]] = 1
    probs = _nsa_probs(q, k, mask, block)
    scores = q[0].astype(F32).transpose(1, 0, 2) @ k[0, :, 0].astype(F32).T * dim ** -0.5
    allowed = _nsa_allowed(mask, block)
    lse = np.log2(np.where(allowed, np.exp(scores), 0).sum(-1)).T[None]
    out = (probs @ v[0, :, 0].astype(F32)).transpose(1, 0, 2)[None]
    delta = (out * do.astype(F32)).sum(-1)
    zeros = [np.zeros((1, 1, seq, heads, dim), F16), np.zeros((1, 1, seq, 1, dim), F16),
             np.zeros((1, seq, 1, dim), F16)]
    return [q, k, v, lse.astype(F32), delta.astype(F32), do, *zeros, mask]


def _nsa_allowed(mask: np.ndarray, block: int) -> np.ndarray:
    """(seq, seq): key s is seen by token t where t's mask selects s's block and s <= t."""
    seq = mask.shape[1]
    return (mask[0, :, 0][:, np.arange(seq) // block] != 0) & np.tri(seq, dtype=bool)


def _nsa_probs(q: np.ndarray, k: np.ndarray, mask: np.ndarray, block: int) -> np.ndarray:
    """(heads, seq, seq) softmax over each token's allowed keys (naive_nsa with g_slc = 1, no window)."""
    scores = q[0].astype(F32).transpose(1, 0, 2) @ k[0, :, 0].astype(F32).T * q.shape[-1] ** -0.5
    scores = np.where(_nsa_allowed(mask, block), scores, -np.inf)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _nsa_bwd_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, _lse: np.ndarray, delta: np.ndarray, do: np.ndarray,
                 *rest: np.ndarray, block: int) -> list[np.ndarray]:
    """naive_nsa's gradients (autograd in the example's main): dV = P^T dO, dS = P (dO V^T - Delta) scale,
    dQ = dS K, dK = dS^T Q, summed over the KV head's query heads."""
    scale = q.shape[-1] ** -0.5
    probs = _nsa_probs(q, k, rest[-1], block)
    qh, doh = (x[0].astype(F32).transpose(1, 0, 2) for x in (q, do))
    kk, vv = k[0, :, 0].astype(F32), v[0, :, 0].astype(F32)
    ds = probs * (doh @ vv.T - delta[0].T[..., None]) * scale
    dq = (ds @ kk).transpose(1, 0, 2)
    dk = np.einsum("hts,htd->sd", ds, qh)
    dv = np.einsum("hts,htd->sd", probs, doh)
    return [dq[None, None], dk[None, :, None][None], dv[None, :, None]]


def _nsa_bwd_cases() -> list[Case]:
    """The backward's Delta preprocess and its dQ/dK/dV kernel (one KV head of 16 query heads, as the example's
    main; 96 tokens in blocks of 32, up to 2 selected). The dQ/dK/dV kernel reads `H` (the KV heads) from the
    module's globals, which only the example's `__main__` sets: the case sets it as main does."""
    folder = "examples/deepseek_nsa/example_tilelang_nsa_bwd.py"
    seq, heads, dim, block = 96, 16, 32, 32
    return [
        Case(f"deepseek_nsa bwd preprocess (Delta) S={seq} heads={heads} dim={dim}", folder,
             "tilelang_kernel_preprocess", lambda: [_f((1, seq, heads, dim), F16), _f((1, seq, heads, dim), F16)],
             lambda o, do: (o.astype(F32) * do.astype(F32)).sum(-1), lambda kern, x: kern(*x), atol=2e-2,
             rtol=2e-2),
        Case(f"deepseek_nsa bwd dqkv S={seq} heads={heads} kv_heads=1 dim={dim} block={block} selected=2", folder,
             "tilelang_kernel_bwd_dqkv", lambda: _nsa_bwd_data(seq, heads, dim, 2, block),
             lambda *x: _nsa_bwd_ref(*x, block=block),
             lambda kern, x: (kern(*x, dim=dim, is_causal=True, block_size=block, groups=heads, selected_blocks=2),
                              x[6:9])[1], atol=3e-2, rtol=3e-2, module_globals={"H": 1}),
    ]


REST_CASES: list[Case] = [*_nsa_bwd_cases(), *_gdn_bwd_cases(), *_linear_attention_cases(), *_kda_bwd_cases(),
                          *_mhc_cases(), *_mhc_pre_cases(), _mhc_bwd_case(), *_decode_cases()]
