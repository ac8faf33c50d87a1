"""Flash-attention forward (BHSD) written as TileLang's examples/flash_attention/example_mha_fwd_bhsd.py writes it
(T.macro with buffer annotations, exp2 online softmax, GemmWarpPolicy), small sizes, on llvm against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import tilelang
import tilelang.language as T

RNG = np.random.default_rng(4)


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@tilelang.jit(out_idx=[3], target="llvm", pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True})
def flashattn(batch, heads, seq_q, seq_kv, dim, is_causal, block_M=16, block_N=16, num_stages=1, threads=128):
    scale = (1.0 / dim) ** 0.5 * 1.44269504  # log2(e)
    q_shape = [batch, heads, seq_q, dim]
    kv_shape = [batch, heads, seq_kv, dim]
    dtype = "float16"
    accum_dtype = "float"
    past_len = seq_kv - seq_q

    @T.macro
    def softmax_step(acc_s: T.FragmentBuffer([block_M, block_N], accum_dtype),
                     acc_s_cast: T.FragmentBuffer([block_M, block_N], dtype),
                     scores_max: T.FragmentBuffer([block_M], accum_dtype),
                     scores_max_prev: T.FragmentBuffer([block_M], accum_dtype),
                     scores_scale: T.FragmentBuffer([block_M], accum_dtype),
                     scores_sum: T.FragmentBuffer([block_M], accum_dtype),
                     logsum: T.FragmentBuffer([block_M], accum_dtype)):
        T.copy(scores_max, scores_max_prev)
        T.fill(scores_max, -T.infinity(accum_dtype))
        T.reduce_max(acc_s, scores_max, dim=1, clear=False)
        for i in T.Parallel(block_M):
            scores_scale[i] = T.exp2(scores_max_prev[i] * scale - scores_max[i] * scale)
        for i, j in T.Parallel(block_M, block_N):
            acc_s[i, j] = T.exp2(acc_s[i, j] * scale - scores_max[i] * scale)
        T.reduce_sum(acc_s, scores_sum, dim=1)
        for i in T.Parallel(block_M):
            logsum[i] = logsum[i] * scores_scale[i] + scores_sum[i]
        T.copy(acc_s, acc_s_cast)

    @T.prim_func
    def main(Q: T.Tensor(q_shape, dtype), K: T.Tensor(kv_shape, dtype), V: T.Tensor(kv_shape, dtype),
             Output: T.Tensor(q_shape, dtype)):
        with T.Kernel(T.ceildiv(seq_q, block_M), heads, batch, threads=threads) as (bx, by, bz):
            Q_shared = T.alloc_shared([block_M, dim], dtype)
            K_shared = T.alloc_shared([block_N, dim], dtype)
            V_shared = T.alloc_shared([block_N, dim], dtype)
            acc_s = T.alloc_fragment([block_M, block_N], accum_dtype)
            acc_s_cast = T.alloc_fragment([block_M, block_N], dtype)
            acc_o = T.alloc_fragment([block_M, dim], accum_dtype)
            scores_max = T.alloc_fragment([block_M], accum_dtype)
            scores_max_prev = T.alloc_fragment([block_M], accum_dtype)
            scores_scale = T.alloc_fragment([block_M], accum_dtype)
            scores_sum = T.alloc_fragment([block_M], accum_dtype)
            logsum = T.alloc_fragment([block_M], accum_dtype)

            T.copy(Q[bz, by, bx * block_M:(bx + 1) * block_M, :], Q_shared)
            T.fill(acc_o, 0)
            T.fill(logsum, 0)
            T.fill(scores_max, -T.infinity(accum_dtype))
            loop_range = (T.min(T.ceildiv(seq_kv, block_N), T.ceildiv((bx + 1) * block_M + past_len, block_N))
                          if is_causal else T.ceildiv(seq_kv, block_N))
            for k in T.Pipelined(loop_range, num_stages=num_stages):
                T.copy(K[bz, by, k * block_N:(k + 1) * block_N, :], K_shared)
                if is_causal:
                    for i, j in T.Parallel(block_M, block_N):
                        acc_s[i, j] = T.if_then_else(bx * block_M + i + past_len >= k * block_N + j, 0,
                                                     -T.infinity(acc_s.dtype))
                else:
                    T.clear(acc_s)
                T.gemm(Q_shared, K_shared, acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                softmax_step(acc_s, acc_s_cast, scores_max, scores_max_prev, scores_scale, scores_sum, logsum)
                for i, j in T.Parallel(block_M, dim):
                    acc_o[i, j] *= scores_scale[i]
                T.copy(V[bz, by, k * block_N:(k + 1) * block_N, :], V_shared)
                T.gemm(acc_s_cast, V_shared, acc_o, policy=T.GemmWarpPolicy.FullRow)
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] /= logsum[i]
            T.copy(acc_o, Output[bz, by, bx * block_M:(bx + 1) * block_M, :])

    return main


@pytest.mark.parametrize("is_causal", [False, True])
def test_flash_attention_forward_bhsd(is_causal):
    b, h, s, d = 1, 2, 32, 16
    q, k, v = (RNG.standard_normal((b, h, s, d)).astype("float16") for _ in range(3))
    out = flashattn(b, h, s, s, d, is_causal)(q, k, v)
    scores = np.einsum("bhqd,bhkd->bhqk", q.astype("float32"), k.astype("float32")) / np.sqrt(d)
    if is_causal:
        scores = np.where(np.tril(np.ones((s, s), bool)), scores, -np.inf)
    ref = np.einsum("bhqk,bhkd->bhqd", _softmax(scores), v.astype("float32"))
    np.testing.assert_allclose(out.astype("float32"), ref, rtol=2e-2, atol=2e-2)
