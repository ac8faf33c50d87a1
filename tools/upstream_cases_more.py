"""More cases of tools/upstream_examples.py (issue 28): further TileLang examples (GEMM variants, dynamic shapes,
attention variants, linear attention, norms, casts) and testing/python/language kernels, each at a small shape and
at least one shape that is not a multiple of the 32x32 tile where the example allows one."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from .upstream_cases import BF16, F16, F32, RNG, Case, _attention, _f, _softmax

LOG2E = 1.44269504


def _gemm_cases() -> list[Case]:
    cases = []
    for m, n, k in ((128, 128, 64), (100, 200, 72)):
        cases.append(Case(
            f"gemm non-persistent (use_swizzle) {m}x{n}x{k}", "examples/gemm/example_gemm_persistent.py",
            "matmul_non_persistent", lambda m=m, n=n, k=k: [_f((m, k), F16), _f((k, n), F16)],
            lambda a, b: a.astype(F32) @ b.astype(F32), lambda kern, x: kern(*x, 64, 64, 32, 128, 2), atol=2e-2))
        cases.append(Case(
            f"gemm autotune early_stop (B^T) {m}x{n}x{k}", "examples/gemm/example_gemm_autotune_early_stop.py",
            "matmul_early_stop", lambda m=m, n=n, k=k: [_f((m, k), F16), _f((n, k), F16)],
            lambda a, b: a.astype(F32) @ b.astype(F32).T,
            lambda kern, x, m=m, n=n, k=k: kern(m, n, k, 64, 64, 32, 2, 128)(*x), atol=2e-2))
        for trans_a, trans_b in ((False, False), (True, True)):
            cases.append(Case(
                f"dynamic-shape gemm trans_A={trans_a} trans_B={trans_b} {m}x{n}x{k}",
                "examples/dynamic_shape/example_dynamic.py", "matmul_dynamic_mnk",
                lambda m=m, n=n, k=k, ta=trans_a, tb=trans_b: [
                    _f((k, m) if ta else (m, k), F16), _f((n, k) if tb else (k, n), F16)],
                lambda a, b, ta=trans_a, tb=trans_b: (a.T if ta else a).astype(F32) @ (b.T if tb else b).astype(F32),
                lambda kern, x, ta=trans_a, tb=trans_b: kern(*x, 64, 64, 32, ta, tb, "float16", "float16", "float32",
                                                             2, 128), atol=2e-2))
    cases.append(Case(
        "gemm persistent (T.Persistent) 100x200x72", "examples/gemm/example_gemm_persistent.py", "matmul_persistent",
        lambda: [_f((100, 72), F16), _f((72, 200), F16)], lambda a, b: a.astype(F32) @ b.astype(F32),
        lambda kern, x: kern(*x, 64, 64, 32, 128, 2), atol=2e-2))
    cases.append(Case(
        "gemm autotune (carver) 100x200x72", "examples/gemm/example_gemm_autotune.py", "matmul",
        lambda: [_f((100, 72), F16), _f((200, 72), F16)], lambda a, b: a.astype(F32) @ b.astype(F32).T,
        lambda kern, x: kern(100, 200, 72, 64, 64, 32, 2, 128, True)(*x), atol=2e-2))
    cases.append(Case(
        "language clear: T.clear(A_shared) after its copy 100x200x72", "testing/python/language/"
        "test_tilelang_language_clear.py", "matmul", lambda: [_f((100, 72), F16), _f((200, 72), F16)],
        lambda a, b: np.zeros((100, 200), F32), lambda kern, x: kern(100, 200, 72, 64, 64, 32)(*x), out_idx=[2]))
    return cases


def _lse(q: np.ndarray, k: np.ndarray, causal: bool) -> np.ndarray:
    """log2 of sum_k exp(q.k / sqrt(d)) per query (the examples' `lse`, base 2)."""
    s = np.einsum("bhqd,bhkd->bhqk", q.astype(F32), k.astype(F32)) / np.sqrt(q.shape[-1])
    if causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
    m = s.max(-1, keepdims=True)
    return ((np.log(np.exp(s - m).sum(-1, keepdims=True)) + m) / np.log(2))[..., 0]


def _sink_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, sinks: np.ndarray, window: int | None) -> np.ndarray:
    """Attention with a per-head sink logit in the softmax denominator (upstream's ref_program, in numpy)."""
    q, k, v = (x.astype(F32) for x in (q, k, v))
    sq, sk = q.shape[2], k.shape[2]
    pos_q, pos_k = np.arange(sq)[:, None] + sk - sq, np.arange(sk)[None, :]
    allowed = pos_k <= pos_q
    if window:
        allowed &= pos_k >= pos_q - window + 1
    s = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
    s = np.where(allowed, s, -np.inf)
    sink = sinks.astype(F32)[None, :, None, None]
    m = np.maximum(s.max(-1, keepdims=True), sink)
    e = np.exp(s - m)
    return np.einsum("bhqk,bhkd->bhqd", e / (e.sum(-1, keepdims=True) + np.exp(sink - m)), v)


def _dllm_mask(seq: int, block: int) -> np.ndarray:
    """upstream block_causal_attention's `_dllm_mask` in numpy: noisy half | clean half, block-causal."""
    half, pos = seq // 2, np.arange(seq)
    q_clean, k_clean = pos[:, None] >= half, pos[None, :] >= half
    q_blk = np.where(q_clean, pos[:, None] - half, pos[:, None]) // block
    k_blk = np.where(k_clean, pos[None, :] - half, pos[None, :]) // block
    return ((q_blk == k_blk) & ~q_clean & ~k_clean) | ((q_blk > k_blk) & ~q_clean & k_clean) | (
        (q_blk >= k_blk) & q_clean & k_clean)


def _block_causal_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, block: int) -> list[np.ndarray]:
    q, k, v = (x.astype(F32).transpose(0, 2, 1, 3) for x in (q, k, v))
    s = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
    s = np.where(_dllm_mask(q.shape[2], block), s, -np.inf)
    m = s.max(-1, keepdims=True)
    lse = ((np.log(np.exp(s - m).sum(-1, keepdims=True)) + m) / np.log(2))[..., 0]
    return [np.einsum("bhqk,bhkd->bhqd", _softmax(s), v).transpose(0, 2, 1, 3), lse]


def _attention_cases() -> list[Case]:
    cases = []
    for causal, s in ((False, 128), (False, 200), (True, 200)):
        tag = "causal" if causal else "non-causal"
        cases.append(Case(
            f"gqa_fwd_bshd groups=2 {tag} S={s}", "examples/flash_attention/example_gqa_fwd_bshd.py", "flashattn",
            lambda s=s: [_f((1, s, 4, 64), F16), _f((1, s, 2, 64), F16), _f((1, s, 2, 64), F16)],
            lambda q, k, v, causal=causal: _attention(q, np.repeat(k, 2, 2), np.repeat(v, 2, 2), causal, "bshd"),
            lambda kern, x, s=s, causal=causal: kern(1, 4, s, 64, causal, 2, 64, 64, 1, 128)(*x)))
        cases.append(Case(
            f"mha_bwd_bhsd forward (O, lse) {tag} S={s}", "examples/flash_attention/example_mha_bwd_bhsd.py",
            "flashattn_fwd", lambda s=s: [_f((1, 2, s, 64), F16) for _ in range(3)],
            lambda q, k, v, causal=causal: [_attention(q, k, v, causal), _lse(q, k, causal)],
            lambda kern, x, s=s, causal=causal: kern(1, 2, s, 64, causal, 64, 64)(*x)))
    for s in (128, 200):
        cases.append(Case(
            f"mha_bwd_bhsd preprocess (Delta) S={s}", "examples/flash_attention/example_mha_bwd_bhsd.py",
            "flashattn_bwd_preprocess", lambda s=s: [_f((1, 2, s, 64), F16) for _ in range(2)],
            lambda o, do: (o * do).astype(F32).sum(-1),  # the kernel multiplies in float16, sums in float32
            lambda kern, x, s=s: kern(1, 2, s, 64)(*x), atol=1e-2, rtol=1e-2))
        cases.append(Case(
            f"attention sink causal S={s}", "examples/attention_sink/example_mha_sink_fwd_bhsd.py", "flashattn",
            lambda s=s: [*(_f((1, 2, s, 64), F16) for _ in range(3)), _f((2,), F16)],
            lambda q, k, v, sinks: _sink_ref(q, k, v, sinks, None),
            lambda kern, x, s=s: kern(1, 2, s, s, 64, None, None, 64, 64, 1, 128)(*x)))
    for s in (128, 200):
        cases.append(Case(
            f"attention sink sliding window 64 S={s}", "examples/attention_sink/example_mha_sink_fwd_bhsd.py",
            "flashattn", lambda s=s: [*(_f((1, 2, s, 64), F16) for _ in range(3)), _f((2,), F16)],
            lambda q, k, v, sinks: _sink_ref(q, k, v, sinks, 64),
            lambda kern, x, s=s: kern(1, 2, s, s, 64, 64, None, 64, 64, 1, 128)(*x)))
    cases.append(Case(
        "mha_bwd_bhsd postprocess (T.Layout on dQ) S=200", "examples/flash_attention/example_mha_bwd_bhsd.py",
        "flashattn_bwd_postprocess", lambda: [_f((1, 2, 200, 64))], lambda dq: dq.astype(F16),
        lambda kern, x: kern(1, 2, 200, 64)(*x), atol=1e-3, rtol=1e-3))
    for sq, skv in ((128, 256), (100, 256)):
        cases.append(Case(
            f"flash_decoding mha_inference (split + combine) Sq={sq} Skv={skv}",
            "examples/flash_decoding/example_mha_inference.py", "flashattn",
            lambda sq=sq, skv=skv: [_f((1, sq, 2, 64), F16), _f((1, skv, 2, 64), F16), _f((1, skv, 2, 64), F16)],
            lambda q, k, v: _attention(q, k, v, False, "bshd"),
            lambda kern, x, sq=sq, skv=skv: kern(1, 2, sq, skv, 64, False, 64, 64)(*x)))
    for dllm in (16, 64):
        cases.append(Case(
            f"block_causal_attention fwd dllm_block={dllm} S=256", "examples/block_causal_attention/"
            "block_causal_attention.py", "_fwd_template",
            lambda: [_f((1, 256, 2, 64), BF16) for _ in range(3)],
            lambda q, k, v, dllm=dllm: _block_causal_ref(q, k, v, dllm),
            lambda kern, x, dllm=dllm: kern(1, 2, 256, 64, dllm, 64 ** -0.5)(*x), atol=3e-2, rtol=3e-2))
    for seq, dim, block in ((192, 64, 48), (256, 40, 64)):  # blocks and a head dim that are not whole tiles
        cases.append(Case(
            f"block_causal_attention fwd dllm_block=16 block_size={block} S={seq} D={dim}", "examples/"
            "block_causal_attention/block_causal_attention.py", "_fwd_template",
            lambda seq=seq, dim=dim: [_f((1, seq, 2, dim), BF16) for _ in range(3)],
            lambda q, k, v: _block_causal_ref(q, k, v, 16),
            lambda kern, x, seq=seq, dim=dim, block=block: kern(1, 2, seq, dim, 16, dim ** -0.5, block)(*x),
            atol=3e-2, rtol=3e-2))
    return cases


def _retention_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """o_t = scale * sum_{s <= t} gamma_h^(t - s) (q_t . k_s) v_s, gamma_h = 1 - 2^(-5 - h); shape [1, B, S, H, D]."""
    q, k, v = (x.astype(F32) for x in (q, k, v))
    s, h = q.shape[1], q.shape[2]
    gamma = 1 - 2.0 ** (-5.0 - np.arange(h))
    t = np.arange(s)
    decay = np.where(t[:, None] >= t[None, :], gamma[:, None, None] ** (t[:, None] - t[None, :]), 0)  # [H, S, S]
    scores = np.einsum("bqhd,bkhd->bhqk", q, k) * q.shape[-1] ** -0.5 * decay[None]
    return np.einsum("bhqk,bkhd->bqhd", scores, v)[None]


def _layernorm_bwd_ref(dy, x, g, mean, rstd, dg, db) -> list[np.ndarray]:
    dy, x, g = (a.astype(F32) for a in (dy, x, g))
    x_hat = (x - mean[:, None]) * rstd[:, None]
    dx_hat = dy * g
    d = x.shape[1]
    c1, c2 = (dx_hat * x_hat).sum(1, keepdims=True) / d, dx_hat.sum(1, keepdims=True) / d
    dx = rstd[:, None] * (dx_hat - c2 - x_hat * c1)
    return [dx, (dy * x_hat).sum(0), dy.sum(0)]


def _layernorm_bwd_inputs(n: int, d: int) -> list[np.ndarray]:
    x = _f((n, d), BF16)
    x32 = x.astype(F32)
    mean = x32.mean(1).astype(F32)
    rstd = (1 / np.sqrt(x32.var(1) + 1e-5)).astype(F32)
    return [_f((n, d), BF16), x, _f((d,), BF16), mean, rstd, np.zeros(d, F32), np.zeros(d, F32)]


def _per_token_fp8_ref(x: np.ndarray) -> list[np.ndarray]:
    m, n = x.shape
    groups = -(-n // 128)
    padded = np.zeros((m, groups * 128), F32)
    padded[:, :n] = x
    amax = np.maximum(np.abs(padded.reshape(m, groups, 128)).max(2), 1e-4)
    q = (padded.reshape(m, groups, 128) * (448.0 / amax[:, :, None])).reshape(m, -1)[:, :n]
    return [q.astype(ml_dtypes.float8_e4m3fn).astype(F32), amax / 448.0]


def _other_example_cases() -> list[Case]:
    cases = [Case(
        "retention fwd (chunked, S % 64 asserted) B=1 S=128 H=2 D=64", "examples/linear_attention/"
        "example_retention_fwd.py", "chunk_retention_fwd_kernel",
        lambda: [_f((1, 128, 2, 64), F16, -0.5, 0.5) for _ in range(3)], _retention_ref,
        lambda kern, x: kern(1, 128, 2, 64, 64)(*x), atol=3e-2, rtol=3e-2)]
    for n, d in ((64, 128), (64, 200)):
        cases.append(Case(
            f"layernorm bwd {n}x{d} (N % 32 asserted; atomic dgamma/dbeta)", "examples/norm/layernorm.py",
            "_layernorm_bwd", lambda n=n, d=d: _layernorm_bwd_inputs(n, d), _layernorm_bwd_ref,
            lambda kern, x, n=n, d=d: [kern(n, d)(*x), x[5], x[6]], atol=5e-2, rtol=5e-2))
    for m, n in ((64, 256), (100, 200)):
        cases.append(Case(
            f"per_token_cast_to_fp8 {m}x{n} (float8_e4m3fn output)", "examples/cast/example_per_token_cast_to_fp8.py",
            "per_token_cast_to_fp8", lambda m=m, n=n: [_f((m, n), F32, -4, 4)], _per_token_fp8_ref,
            lambda kern, x: [np.asarray(r).astype(F32) for r in kern(*x, 8)], atol=0.07, rtol=0.07))
    return cases


def _language_cases() -> list[Case]:
    lang = "testing/python/language/test_tilelang_language_"
    cases = []
    for m, n in ((128, 128), (100, 200)):
        cases.append(Case(
            f"language copy (DRAM to DRAM T.copy) {m}x{n}", lang + "copy.py", "tilelang_copy",
            lambda m=m, n=n: [_f((m, n), F16)], lambda a: a,
            lambda kern, x, m=m, n=n: kern(m, n, 32, 32)(*x), atol=0, rtol=0, out_idx=[1]))
        cases.append(Case(
            f"language ternary (python if-else on DRAM) {m}x{n}", lang + "ternary.py", "tilelang_ternary",
            lambda m=m, n=n: [_f((m, n), F16)],
            lambda a: np.where(np.arange(a.shape[0])[:, None] < a.shape[0] // 2, a, 0),
            lambda kern, x, m=m, n=n: kern(m, n, 32, 32)(*x), atol=0, rtol=0))
        cases.append(Case(
            f"language if_range (16 < row < 96 on DRAM) {m}x{n}", lang + "if_range.py", "tilelang_if_range",
            lambda m=m, n=n: [_f((m, n), F16)],
            lambda a: np.where((np.arange(a.shape[0])[:, None] > 16) & (np.arange(a.shape[0])[:, None] < 96),
                               a.astype(F32) * 2, a.astype(F32) * 0.5),
            lambda kern, x, m=m, n=n: kern(m, n, 32, 32)(*x), atol=1e-3, rtol=1e-3))
        cases.append(Case(
            f"language transpose (T.transpose) {m}x{n}", lang + "transpose.py", "tilelang_transpose",
            lambda m=m, n=n: [_f((m, n), F16)], lambda a: a.T,
            lambda kern, x, m=m, n=n: kern(m, n, 32, 32)(*x), atol=0, rtol=0, out_idx=[1]))
    for n, block in ((1024, 128), (200, 64)):
        cases.append(Case(
            f"language clamp N={n} block {block}", lang + "clamp.py", "clamp_within_bounds",
            lambda n=n: [_f((n,))], lambda a: np.clip(a, -0.5, 0.5),
            lambda kern, x, n=n, block=block: kern(n, block, "float32", -0.5, 0.5)(*x), atol=0, rtol=0,
            out_idx=[1]))
        cases.append(Case(
            f"language alloc_var add N={n} block {block}", lang + "alloc.py", "alloc_var_add",
            lambda n=n: [_f((n,), F16)], lambda a: a.astype(F32) + 1,
            lambda kern, x, n=n, block=block: kern(n, block, "float16")(*x), atol=1e-3, out_idx=[1]))
        cases.append(Case(
            f"language alloc_var initializers int32 N={n} block {block}", lang + "alloc.py",
            "alloc_multi_vars_with_initializer", lambda n=n: [RNG.integers(-9, 9, n).astype(np.int32)],
            lambda a: np.full(a.shape, 3, np.int32),
            lambda kern, x, n=n, block=block: kern(n, block, "int32")(*x), atol=0, rtol=0, out_idx=[1]))
    cases.append(Case(
        "language clamp by the block's min/max (reduce_min) 1x256", lang + "clamp.py", "clamp_value_range",
        lambda: [_f((1, 256))],
        lambda a: np.concatenate([np.clip(b, b.min() * 0.5, b.max() * 0.5) for b in np.split(a, 4, axis=1)], 1),
        lambda kern, x: kern(256, 64, "float32")(*x), atol=1e-6, rtol=1e-6, out_idx=[1]))
    cases.append(Case(
        "language parallel (whole-tensor T.Parallel on DRAM) N=200", lang + "parallel.py",
        "parallel_elementwise_static", lambda: [_f((200,))], lambda a: a + 1,
        lambda kern, x: kern(200)(*x), atol=1e-6, rtol=1e-6))
    cases.append(Case(
        "language reshape (T.reshape of a DRAM tensor) 200 -> 10x20", lang + "reshape.py", "reshape_test",
        lambda: [_f((200,))], lambda a: a.reshape(10, 20),
        lambda kern, x: kern(200, 20, "float32")(*x), atol=0, rtol=0, out_idx=[1]))
    return cases


MORE_CASES: list[Case] = [*_gemm_cases(), *_attention_cases(), *_other_example_cases(), *_language_cases()]
