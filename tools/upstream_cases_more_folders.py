"""Cases of tools/upstream_examples.py from the folders upstream_cases_folders.py listed as not added yet (issue 28):
deepseek_nsa's forward and decode (KV blocks chosen by an index tensor), gdn's chunked linear-attention kernels
(scaled K K^T, W/U recompute, the chunk state recurrence, the chunk output), and the sparse GQA decode of
blocksparse_attention. Each reference is numpy written from the example's own reference (reference.py's naive_nsa,
fla's chunk functions the gdn examples compare with)."""

from __future__ import annotations

import numpy as np

from .upstream_cases import F16, F32, RNG, Case, _f, _softmax


def _nsa_indices(batch: int, seq: int, heads_kv: int, selected: int, block: int, causal: bool) -> np.ndarray:
    """The examples' block_indices: per token, distinct blocks it may see (causal: those starting at or before it),
    sorted, padded with `seq` (a block past every token, which the kernels skip)."""
    out = np.full((batch, seq if causal else 1, heads_kv, selected), seq, np.int32)
    for b in range(batch):
        for t in range(out.shape[1]):
            for h in range(heads_kv):
                seen = t // block + 1 if causal else seq // block
                chosen = RNG.permutation(seen)[:selected]
                out[b, t, h, :len(chosen)] = np.sort(chosen)
    return out


def _nsa_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, idx: np.ndarray, block: int, scale: float,
             causal: bool) -> np.ndarray:
    """naive_nsa (g_slc = 1, no sliding window) and naive_nsa_simple_inference: each query head attends to the keys
    of its KV head's selected blocks (causal: those at or before the token)."""
    batch, seq_q, heads, _ = q.shape
    groups = heads // k.shape[2]
    out = np.zeros(q.shape, F32)
    for b in range(batch):
        for t in range(seq_q):
            for h in range(k.shape[2]):
                pos = (idx[b, t, h][:, None] * block + np.arange(block)).ravel()
                valid = (pos >= 0) & ((pos <= t) if causal else (pos < k.shape[1]))
                pos = np.clip(pos, 0, k.shape[1] - 1)
                scores = q[b, t, h * groups:(h + 1) * groups].astype(F32) @ k[b, pos, h].astype(F32).T * scale
                probs = _softmax(np.where(valid, scores, -np.inf))
                out[b, t, h * groups:(h + 1) * groups] = probs @ v[b, pos, h].astype(F32)
    return out


def _nsa_cases() -> list[Case]:
    """The decode example omits the forward's `acc_o *= scores_scale` (its online softmax never rescales the output
    accumulated from earlier blocks): right for one selected block, as its main() runs it, and so run here."""
    cases = []
    for seq, selected in ((64, 1), (128, 2)):
        cases.append(Case(
            f"deepseek_nsa fwd causal S={seq} heads=16 kv_heads=1 dim=32 block=32 selected={selected}",
            "examples/deepseek_nsa/example_tilelang_nsa_fwd.py", "native_sparse_attention",
            lambda seq=seq, sel=selected: [_f((1, seq, 16, 32), F16), _f((1, seq, 1, 32), F16),
                                           _f((1, seq, 1, 32), F16), _nsa_indices(1, seq, 1, sel, 32, True)],
            lambda q, k, v, i: _nsa_ref(q, k, v, i, 32, 0.1, True),
            lambda kern, x, sel=selected: kern(*x, dim=32, is_causal=True, block_size=32, groups=16,
                                               selected_blocks=sel, scale=0.1), atol=2e-2, rtol=2e-2))
    cases.append(Case(
        "deepseek_nsa decode S=128 heads=16 kv_heads=1 dim=32 block=32 selected=1 (as its main)",
        "examples/deepseek_nsa/example_tilelang_nsa_decode.py", "native_sparse_attention",
        lambda: [_f((1, 1, 16, 32), F16), _f((1, 128, 1, 32), F16), _f((1, 128, 1, 32), F16),
                 _nsa_indices(1, 128, 1, 1, 32, False)],
        lambda q, k, v, i: _nsa_ref(q, k, v, i, 32, 32 ** -0.5, False),
        lambda kern, x: kern(*x, dim=32, block_size=32, groups=16, selected_blocks=1), atol=2e-2, rtol=2e-2))
    counts = lambda idx: np.minimum(np.arange(idx.shape[1]) // 32 + 1, idx.shape[-1]).astype(np.int32)  # noqa: E731
    cases.append(Case(
        "deepseek_nsa fwd_varlen (one sequence) S=64 heads=16 kv_heads=1 dim=32 block=32 selected=2",
        "examples/deepseek_nsa/example_tilelang_nsa_fwd_varlen.py", "native_sparse_attention_varlen",
        lambda: (lambda idx: [_f((64, 16, 32), F16), _f((64, 1, 32), F16), _f((64, 1, 32), F16),
                              np.zeros((64, 16, 32), F16), idx[0], counts(idx)[:, None],
                              np.array([0, 64], np.int32),
                              np.stack([np.zeros(64, np.int32), np.arange(64, dtype=np.int32)], 1)])(
            _nsa_indices(1, 64, 1, 2, 32, True)),
        lambda q, k, v, o, idx, *_: _nsa_ref(q[None], k[None], v[None], idx[None], 32, 32 ** -0.5, True)[0],
        lambda kern, x: (kern(*x, batch=1, dim=32, is_causal=True, block_size=32, groups=16, selected_blocks=2),
                         x[3])[1], atol=2e-2, rtol=2e-2))
    return cases


def _gqa_decode_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, keep: np.ndarray, seqlens: np.ndarray,
                    block: int) -> np.ndarray:
    """ref_program_torch of the sparse GQA decodes: each query head attends to its KV head's kept blocks, masked
    past the batch's cache_seqlens, softmax(q k^T / sqrt(dim)) v."""
    batch, heads, dim = q.shape
    groups = heads // k.shape[2]
    out = np.zeros((batch, heads, v.shape[-1]), F32)
    for b in range(batch):
        for h in range(k.shape[2]):
            pos = np.arange(k.shape[1])
            valid = keep[b, h][pos // block] & (pos < seqlens[b])
            scores = q[b, h * groups:(h + 1) * groups].astype(F32) @ k[b, :, h].astype(F32).T / np.sqrt(dim)
            out[b, h * groups:(h + 1) * groups] = _softmax(np.where(valid, scores, -np.inf)) @ v[b, :, h].astype(F32)
    return out


def _gqa_decode_cases() -> list[Case]:
    """batch 2, 32 query heads on 2 KV heads (block_H 16: one KV head a block), a 256-token cache of 8 blocks of
    32, 4 selected blocks in 2 splits; the index variant's indices sorted descending (the kernel masks the cache's
    end in each split's first block, which its main's sort makes the last block)."""
    seqlens = np.array([200, 256], np.int32)
    work = [np.zeros((2, 32, 2), F32), np.zeros((2, 32, 2, 64), F32)]

    def indices() -> np.ndarray:
        out = np.stack([np.stack([np.sort(RNG.permutation(-(-n // 32))[:4])[::-1] for _ in range(2)])
                        for n in seqlens])
        return out.astype(np.int32)

    def keep(idx: np.ndarray) -> np.ndarray:
        mask = np.zeros((2, 2, 8), bool)
        for b, h, i in np.ndindex(*idx.shape):
            mask[b, h, idx[b, h, i]] = idx[b, h, i] >= 0
        return mask

    folder = "examples/blocksparse_attention/"
    qkv = lambda: [_f((2, 32, 64), F16), _f((2, 256, 2, 64), F16), _f((2, 256, 2, 64), F16)]  # noqa: E731
    run = lambda kern, x: kern(2, 32, 2, 64, 64, 32, 16, 1, 128)(*x)  # noqa: E731
    return [
        Case("blocksparse_attention sparse_gqa_decode_varlen_indice B=2 heads=32 kv_heads=2 cache=256 blocks=4/8",
             folder + "example_tilelang_sparse_gqa_decode_varlen_indice.py", "flashattn",
             lambda: [*qkv(), indices(), seqlens.copy(), *(w.copy() for w in work)],
             lambda q, k, v, idx, lens, *_: _gqa_decode_ref(q, k, v, keep(idx), lens, 32), run, atol=2e-2,
             rtol=2e-2),
        Case("blocksparse_attention sparse_gqa_decode_varlen_mask B=2 heads=32 kv_heads=2 cache=256 blocks=4/8",
             folder + "example_tilelang_sparse_gqa_decode_varlen_mask.py", "flashattn",
             lambda: [*qkv(), keep(indices()), seqlens.copy(), *(w.copy() for w in work)],
             lambda q, k, v, mask, lens, *_: _gqa_decode_ref(q, k, v, mask, lens, 32), run, atol=2e-2, rtol=2e-2),
    ]


def _mla_paged_ref(q: np.ndarray, q_pe: np.ndarray, kv: np.ndarray, k_pe: np.ndarray, table: np.ndarray,
                   seqlens: np.ndarray, *_: np.ndarray) -> np.ndarray:
    """run_torch_mla of example_mla_decode_paged.py (one KV head, s_q = 1): each batch's first cache_seqlens tokens,
    token t at row table[b, t // page] * page + t % page of the paged cache, softmax([q, q_pe] [kv, k_pe]^T /
    sqrt(dv + dpe)) kv."""
    page = kv.shape[0] // table.size
    out = np.zeros(q.shape, F32)
    for b in range(q.shape[0]):
        t = np.arange(seqlens[b])
        rows = table[b, t // page] * page + t % page
        query = np.concatenate([q[b], q_pe[b]], -1).astype(F32)
        key = np.concatenate([kv[rows, 0], k_pe[rows, 0]], -1).astype(F32)
        out[b] = _softmax(query @ key.T / np.sqrt(query.shape[-1])) @ kv[rows, 0].astype(F32)
    return out


def _mla_paged_cases() -> list[Case]:
    """batch 2, 32 query heads, a 256-token padded cache in pages of 64 (a shuffled block table), 200 and 256
    tokens; num_split 1: the example's main_no_split."""
    return [Case(
        "deepseek_mla decode_paged (no split) B=2 heads=32 cache=256 page=64 dim=64 pe_dim=32",
        "examples/deepseek_mla/example_mla_decode_paged.py", "mla_decode_tilelang",
        lambda: [_f((2, 32, 64), F16), _f((2, 32, 32), F16), _f((512, 1, 64), F16), _f((512, 1, 32), F16),
                 RNG.permutation(8).astype(np.int32).reshape(2, 4), np.array([200, 256], np.int32),
                 np.zeros((2, 32, 1), F16), np.zeros((2, 32, 1, 64), F16)],
        _mla_paged_ref, lambda kern, x: kern(2, 32, 1, 256, 64, 32, 32, 32, 1, 64)(*x), atol=2e-2, rtol=2e-2)]


def _gates(batch: int, seq: int, heads: int, chunk: int, *dims: int) -> np.ndarray:
    """The gdn and kda examples' G (kda's GK has a head dim more): logsigmoid of normal values, cumulated within each
    chunk (fla's chunk_local_cumsum), so it falls along each chunk (exp(g_i - g_j) <= 1 for j <= i)."""
    g = -np.log1p(np.exp(-RNG.standard_normal((batch, seq // chunk, chunk, heads, *dims))))
    return np.cumsum(g, 2).reshape(batch, seq, heads, *dims).astype(F32)


def _chunks(x: np.ndarray, chunk: int) -> np.ndarray:
    """(B, S, H, ...) as (B, H, S // chunk, chunk, ...) in float32."""
    b, s, h = x.shape[:3]
    return np.moveaxis(x.astype(F32).reshape(b, s // chunk, chunk, h, *x.shape[3:]), 3, 1)


def _unchunk(x: np.ndarray) -> np.ndarray:
    b, h, n, c = x.shape[:4]
    return np.moveaxis(x, 1, 3).reshape(b, n * c, h, *x.shape[4:])


def _decay(g: np.ndarray) -> np.ndarray:
    """exp(g_i - g_j) where g_i <= g_j (the kernels' `G_diff <= 0` condition), else 0; g is (B, H, N, C)."""
    diff = g[..., :, None] - g[..., None, :]
    return np.where(diff <= 0, np.exp(np.minimum(diff, 0)), 0)


def _kkt_ref(k: np.ndarray, beta: np.ndarray, g: np.ndarray, chunk: int) -> np.ndarray:
    """chunk_scaled_dot_kkt_fwd: A = strictly-lower((beta k) k^T * exp(g_i - g_j)) within each chunk."""
    kc, bc, gc = _chunks(k, chunk), _chunks(beta, chunk), _chunks(g, chunk)
    beta_k = (kc * bc[..., None]).astype(F16).astype(F32)
    a = beta_k @ np.swapaxes(kc, -1, -2) * _decay(gc)
    return _unchunk(np.tril(a, -1))


def _wy_ref(k: np.ndarray, v: np.ndarray, beta: np.ndarray, g: np.ndarray, a: np.ndarray,
            chunk: int) -> list[np.ndarray]:
    """recompute_w_u_fwd: W = A (K beta exp(g)), U = A (V beta), A per chunk."""
    ac, bc = _chunks(a, chunk), _chunks(beta, chunk)[..., None]
    u = ac @ (_chunks(v, chunk) * bc).astype(F16).astype(F32)
    w = ac @ (_chunks(k, chunk) * bc * np.exp(_chunks(g, chunk))[..., None]).astype(F16).astype(F32)
    return [_unchunk(w), _unchunk(u)]


def _delta_h_ref(k: np.ndarray, w: np.ndarray, u: np.ndarray, g: np.ndarray, h0: np.ndarray,
                 chunk: int) -> list[np.ndarray]:
    """chunk_gated_delta_rule_fwd_h: per chunk, h_c = h (stored), v_new = u - w h, h = h exp(g_last) +
    k^T (v_new exp(g_last - g)); the final h. On-chip h and v_new are float16 where the kernel keeps them so."""
    kc, wc, uc, gc = (_chunks(x, chunk) for x in (k, w, u, g))
    state = h0.astype(F32).copy()
    hs, v_news = [], []
    for c in range(kc.shape[2]):
        state16 = state.astype(F16).astype(F32)
        hs.append(state16)
        v_new = uc[:, :, c] - wc[:, :, c] @ state16
        v_news.append(v_new)
        g_last = gc[:, :, c, -1][..., None]
        step = (g_last - gc[:, :, c])[..., None]
        gated = np.where(step <= 0, v_new * np.exp(np.minimum(step, 0)), 0)
        state = state * np.exp(g_last)[..., None] + np.swapaxes(kc[:, :, c], -1, -2) @ gated.astype(F16).astype(F32)
    return [np.moveaxis(np.stack(hs, 2), 1, 2), state, _unchunk(np.stack(v_news, 2))]


def _chunk_o_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, hidden: np.ndarray, g: np.ndarray, chunk: int,
                 scale: float) -> np.ndarray:
    """chunk_fwd_o: O = (Q h_c exp(g) + lower(Q K^T exp(g_i - g_j)) V) * scale within each chunk."""
    qc, kc, vc, gc = (_chunks(x, chunk) for x in (q, k, v, g))
    inter = qc @ np.moveaxis(hidden.astype(F32), 2, 1) * np.exp(gc)[..., None]
    a = np.tril(qc @ np.swapaxes(kc, -1, -2) * _decay(gc)).astype(F16).astype(F32)
    return _unchunk((inter + a @ vc) * scale)


def _gdn_cases() -> list[Case]:
    b, s, h, dk, dv, c = 1, 128, 2, 64, 64, 64
    gdn = "examples/gdn/"
    small = (-0.5, 0.5)
    return [
        Case(f"gdn chunk_scaled_dot_kkt B={b} S={s} H={h} DK={dk} chunk={c} use_g",
             gdn + "example_chunk_scaled_dot_kkt.py", "tilelang_chunk_scaled_dot_kkt_fwd",
             lambda: [_f((b, s, h, dk), F16, *small), _f((b, s, h), F16), _gates(b, s, h, c)],
             lambda k, beta, g: _kkt_ref(k, beta, g, c),
             lambda kern, x: kern(b, s, h, dk, c, "float16", "float16", "float32", True, c, 64, 128, 0)(*x),
             atol=2e-2, rtol=2e-2),
        Case(f"gdn recompute_w_u (wy_fast) B={b} S={s} H={h} DK={dk} DV={dv} chunk={c}",
             gdn + "example_wy_fast.py", "tilelang_recompute_w_u_fwd",
             lambda: [_f((b, s, h, dk), F16), _f((b, s, h, dv), F16), _f((b, s, h), F16), _gates(b, s, h, c),
                      _f((b, s, h, c), F16, -0.1, 0.1)],
             lambda k, v, beta, g, a: _wy_ref(k, v, beta, g, a, c),
             lambda kern, x: kern(b, s, h, dk, dv, "float16", "float16", "float32", "float32", c, 64, 64, 64, 128,
                                  0)(*x), atol=2e-2, rtol=2e-2),
        Case(f"gdn chunk_gated_delta_rule_fwd_h B={b} S={s} H={h} DK={dk} DV={dv} chunk={c}",
             gdn + "example_chunk_delta_h.py", "tilelang_chunk_gated_delta_rule_fwd_h",
             lambda: [_f((b, s, h, dk), F16, -0.12, 0.12), _f((b, s, h, dk), F16, -0.12, 0.12),
                      _f((b, s, h, dv), F16, -0.12, 0.12), _gates(b, s, h, c), _f((b, h, dk, dv), F16, -0.1, 0.1)],
             lambda k, w, u, g, h0: _delta_h_ref(k, w, u, g, h0, c),
             lambda kern, x: kern(b, s, h, dk, dv, "float16", "float16", "float32", "float32", "float32", c, True,
                                  True, True, True, 64, 32, 128, 1)(*x), atol=2e-2, rtol=2e-2),
        Case(f"gdn chunk_fwd_o B={b} S={s} H={h} DK={dk} DV={dv} chunk={c} use_g",
             gdn + "example_chunk_o.py", "tilelang_chunk_fwd_o",
             lambda: [_f((b, s, h, dk), F16, *small), _f((b, s, h, dk), F16, *small), _f((b, s, h, dv), F16),
                      _f((b, s // c, h, dk, dv), F16, -0.2, 0.2), _gates(b, s, h, c)],
             lambda q, k, v, hid, g: _chunk_o_ref(q, k, v, hid, g, c, 0.125),
             lambda kern, x: kern(b, s, h, dk, dv, "float16", "float16", "float32", "float32", c, 0.125, True, 64,
                                  64, 64, 128, 0)(*x), atol=2e-2, rtol=2e-2),
    ]


def _linear_attn_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, o: np.ndarray) -> list[np.ndarray]:
    """ref_program of example_linear_attn_fwd.py (chunks of 64, scale DK^-0.5): O = Q scale (sum of the earlier
    chunks' K^T V) + lower(Q scale K^T) V; the final state is the sum over all chunks."""
    qc, kc, vc = _chunks(q, 64) * q.shape[-1] ** -0.5, _chunks(k, 64), _chunks(v, 64)
    kv = np.cumsum(np.swapaxes(kc, -1, -2) @ vc, 2)
    before = np.concatenate([np.zeros_like(kv[:, :, :1]), kv[:, :, :-1]], 2)
    out = qc @ before + np.tril(qc @ np.swapaxes(kc, -1, -2)) @ vc
    return [_unchunk(out), kv[:, :, -1]]


def _linear_attn_cases() -> list[Case]:
    return [Case(
        "linear_attention fused_chunk_fwd B=1 S=128 H=2 D=64 (atomic_add output, carried state)",
        "examples/linear_attention/example_linear_attn_fwd.py", "tl_fused_chunk_fwd_kernel",
        lambda: [_f((1, 128, 2, 64), F16, -0.5, 0.5), _f((1, 128, 2, 64), F16, -0.5, 0.5),
                 _f((1, 128, 2, 64), F16, -0.5, 0.5), np.zeros((1, 128, 2, 64), F32)],
        _linear_attn_ref, lambda kern, x: (lambda h: [x[3], h])(kern(1, 128, 2, 64, 64)(*x)), atol=2e-2, rtol=2e-2)]


def _round(x: np.ndarray) -> np.ndarray:
    """x as the kernels hold it in a float16 on-chip buffer."""
    return x.astype(F16).astype(F32)


def _kda_o_ref(q: np.ndarray, v: np.ndarray, gk: np.ndarray, a: np.ndarray, hidden: np.ndarray, chunk: int,
               scale: float) -> np.ndarray:
    """chunk_gla_fwd_o_gk: O = (Q scale exp2(GK)) h_c + lower(A) V within each chunk."""
    gq = _round(_round(_chunks(q, chunk) * scale) * np.exp2(_chunks(gk, chunk)))
    return _unchunk(gq @ np.moveaxis(hidden.astype(F32), 2, 1) + np.tril(_chunks(a, chunk)) @ _chunks(v, chunk))


def _kda_wy_ref(k: np.ndarray, v: np.ndarray, beta: np.ndarray, g: np.ndarray, a: np.ndarray,
                chunk: int) -> list[np.ndarray]:
    """kda's recompute_w_u_fwd: W = A (K beta exp2(G)), U = A (V beta), KG = K exp2(G_last - G) per chunk (the
    kernel's QG output is never written, so it is left out)."""
    kc, gc, ac, bc = _chunks(k, chunk), _chunks(g, chunk), _chunks(a, chunk), _chunks(beta, chunk)[..., None]
    u = ac @ _round(_chunks(v, chunk) * bc)
    w = ac @ _round(kc * bc * np.exp2(gc))
    kg = kc * np.exp2(gc[..., -1:, :] - gc)
    return [_unchunk(w), _unchunk(u), _unchunk(kg)]


def _kda_delta_h_ref(k: np.ndarray, w: np.ndarray, u: np.ndarray, gk: np.ndarray, h0: np.ndarray,
                     chunk: int) -> list[np.ndarray]:
    """kda's chunk_gated_delta_rule_fwd_h: per chunk, h_c = h, v_new = u - w h, h = h exp2(gk_last) + k^T v_new."""
    kc, wc, uc, gc = (_chunks(x, chunk) for x in (k, w, u, gk))
    state = h0.astype(F32).copy()
    hs, v_news = [], []
    for c in range(kc.shape[2]):
        hs.append(_round(state))
        v_new = uc[:, :, c] - wc[:, :, c] @ _round(state)
        v_news.append(v_new)
        state = state * np.exp2(gc[:, :, c, -1])[..., None] + np.swapaxes(kc[:, :, c], -1, -2) @ _round(v_new)
    return [np.moveaxis(np.stack(hs, 2), 1, 2), state, _unchunk(np.stack(v_news, 2))]


def _kda_cases() -> list[Case]:
    b, s, h, dk, dv, c = 1, 128, 2, 64, 64, 64
    kda = "examples/kda/"
    return [
        Case(f"kda chunk_fwd_o (gla, per-dim gates) B={b} S={s} H={h} DK={dk} DV={dv} chunk={c}", kda + "chunk_o.py",
             "tilelang_chunk_fwd_o",
             lambda: [_f((b, s, h, dk), F16), _f((b, s, h, dv), F16), _gates(b, s, h, c, dk),
                      _f((b, s, h, c), F16, -0.2, 0.2), _f((b, s // c, h, dk, dv), F16, -0.2, 0.2)],
             lambda q, v, gk, a, hid: _kda_o_ref(q, v, gk, a, hid, c, 0.125),
             lambda kern, x: kern(b, s, h, dk, dv, "float16", "float16", "float32", "float32", c, 0.125, 64, 64, 64,
                                  128, 0)(*x), atol=2e-2, rtol=2e-2),
        Case(f"kda recompute_w_u (wy_fast) B={b} S={s} H={h} DK={dk} DV={dv} chunk={c} use_kg", kda + "wy_fast.py",
             "tilelang_recompute_w_u_fwd",
             lambda: [_f((b, s, h, dk), F16), _f((b, s, h, dv), F16), _f((b, s, h), F16), _gates(b, s, h, c, dk),
                      _f((b, s, h, c), F16, -0.1, 0.1)],
             lambda k, v, beta, g, a: _kda_wy_ref(k, v, beta, g, a, c),
             lambda kern, x: (lambda o: [o[0], o[1], o[3]])(
                 kern(b, s, h, dk, dv, "float16", "float16", "float32", "float32", c, False, True, 64, 32, 32, 128,
                      0)(*x)), atol=2e-2, rtol=2e-2),
        Case(f"kda chunk_gated_delta_rule_fwd_h (per-dim gates) B={b} S={s} H={h} DK={dk} DV={dv} chunk={c}",
             kda + "chunk_delta_h_fwd.py", "tilelang_chunk_gated_delta_rule_fwd_h",
             lambda: [_f((b, s, h, dk), F16, -0.12, 0.12), _f((b, s, h, dk), F16, -0.12, 0.12),
                      _f((b, s, h, dv), F16, -0.12, 0.12), _gates(b, s, h, c, dk), _f((b, h, dk, dv), F16, -0.1, 0.1)],
             lambda k, w, u, g, h0: _kda_delta_h_ref(k, w, u, g, h0, c),
             lambda kern, x: kern(b, s, h, dk, dv, "float16", "float16", "float32", "float32", "float32", c, True,
                                  True, True, True, 64, 32, 128, 1)(*x), atol=2e-2, rtol=2e-2),
    ]


MORE_FOLDER_CASES: list[Case] = [*_nsa_cases(), *_gqa_decode_cases(), *_mla_paged_cases(), *_gdn_cases(),
                                  *_kda_cases(), *_linear_attn_cases()]
