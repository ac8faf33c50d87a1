"""TileLang's flash-attention forward (tests/test_tilelang_flash_attention.py, the body copied unmodified, without the
CPU jit decorator, dtype and block sizes as parameters) for the Tenstorrent backend, and the same body in the
(batch, seq, heads, dim) layout of TileLang's example_mha_fwd_bshd.py (blocks sliced per head, the output staged
through a shared buffer)."""

from __future__ import annotations

from typing import Any

import tilelang.language as T

__all__ = ["flashattn", "flashattn_bshd", "bshd_copy", "bshd_exp", "ATTENTION_CORPUS"]


def flashattn(batch, heads, seq_q, seq_kv, dim, is_causal, block_M=32, block_N=32, num_stages=1, threads=128,
              dtype="bfloat16"):
    scale = (1.0 / dim) ** 0.5 * 1.44269504  # log2(e)
    q_shape = [batch, heads, seq_q, dim]
    kv_shape = [batch, heads, seq_kv, dim]
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


def flashattn_bshd(batch, heads, seq_len, dim, block_M=32, block_N=32, num_stages=1, threads=128, dtype="bfloat16"):
    """Non-causal flash attention over (batch, seq, heads, dim) tensors: every block is block_M rows of one head,
    heads * dim elements apart (row-major on Tenstorrent, tilized on chip)."""
    scale = (1.0 / dim) ** 0.5 * 1.44269504  # log2(e)
    shape = [batch, seq_len, heads, dim]
    accum_dtype = "float"

    @T.macro
    def mma0(K: T.Tensor(shape, dtype), Q_shared: T.SharedBuffer([block_M, dim], dtype),
             K_shared: T.SharedBuffer([block_N, dim], dtype), acc_s: T.FragmentBuffer([block_M, block_N], accum_dtype),
             k: T.int32, by: T.int32, bz: T.int32):
        T.copy(K[bz, k * block_N:(k + 1) * block_N, by, :], K_shared)
        T.clear(acc_s)
        T.gemm(Q_shared, K_shared, acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)

    @T.macro
    def mma1(V: T.Tensor(shape, dtype), V_shared: T.SharedBuffer([block_N, dim], dtype),
             acc_s_cast: T.FragmentBuffer([block_M, block_N], dtype),
             acc_o: T.FragmentBuffer([block_M, dim], accum_dtype), k: T.int32, by: T.int32, bz: T.int32):
        T.copy(V[bz, k * block_N:(k + 1) * block_N, by, :], V_shared)
        T.gemm(acc_s_cast, V_shared, acc_o, policy=T.GemmWarpPolicy.FullRow)

    @T.macro
    def softmax(acc_s: T.FragmentBuffer([block_M, block_N], accum_dtype),
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

    @T.macro
    def rescale(acc_o: T.FragmentBuffer([block_M, dim], accum_dtype),
                scores_scale: T.FragmentBuffer([block_M], accum_dtype)):
        for i, j in T.Parallel(block_M, dim):
            acc_o[i, j] *= scores_scale[i]

    @T.prim_func
    def main(Q: T.Tensor(shape, dtype), K: T.Tensor(shape, dtype), V: T.Tensor(shape, dtype),
             Output: T.Tensor(shape, dtype)):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (bx, by, bz):
            Q_shared = T.alloc_shared([block_M, dim], dtype)
            K_shared = T.alloc_shared([block_N, dim], dtype)
            V_shared = T.alloc_shared([block_N, dim], dtype)
            O_shared = T.alloc_shared([block_M, dim], dtype)
            acc_s = T.alloc_fragment([block_M, block_N], accum_dtype)
            acc_s_cast = T.alloc_fragment([block_M, block_N], dtype)
            acc_o = T.alloc_fragment([block_M, dim], accum_dtype)
            scores_max = T.alloc_fragment([block_M], accum_dtype)
            scores_max_prev = T.alloc_fragment([block_M], accum_dtype)
            scores_scale = T.alloc_fragment([block_M], accum_dtype)
            scores_sum = T.alloc_fragment([block_M], accum_dtype)
            logsum = T.alloc_fragment([block_M], accum_dtype)

            T.copy(Q[bz, bx * block_M:(bx + 1) * block_M, by, :], Q_shared)
            T.fill(acc_o, 0)
            T.fill(logsum, 0)
            T.fill(scores_max, -T.infinity(accum_dtype))
            for k in T.Pipelined(T.ceildiv(seq_len, block_N), num_stages=num_stages):
                mma0(K, Q_shared, K_shared, acc_s, k, by, bz)
                softmax(acc_s, acc_s_cast, scores_max, scores_max_prev, scores_scale, scores_sum, logsum)
                rescale(acc_o, scores_scale)
                mma1(V, V_shared, acc_s_cast, acc_o, k, by, bz)
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] /= logsum[i]
            T.copy(acc_o, O_shared)
            T.copy(O_shared, Output[bz, bx * block_M:(bx + 1) * block_M, by, :])

    return main


def bshd_exp(batch: int, seq: int, heads: int, dim: int, block_M: int) -> Any:
    """Out[b, s, h, :] = exp(Q[b, s, h, :]), block_M rows of one head per block."""

    @T.prim_func
    def main(Q: T.Tensor((batch, seq, heads, dim), "bfloat16"), Out: T.Tensor((batch, seq, heads, dim), "bfloat16")):
        with T.Kernel(T.ceildiv(seq, block_M), heads, batch, threads=128) as (bx, by, bz):
            Q_shared = T.alloc_shared((block_M, dim), "bfloat16")
            O_local = T.alloc_fragment((block_M, dim), "bfloat16")
            T.copy(Q[bz, bx * block_M:(bx + 1) * block_M, by, :], Q_shared)
            for i, j in T.Parallel(block_M, dim):
                O_local[i, j] = T.exp(Q_shared[i, j])
            T.copy(O_local, Out[bz, bx * block_M:(bx + 1) * block_M, by, :])
    return main


def bshd_copy(batch: int, seq: int, heads: int, dim: int, block_M: int) -> Any:
    """Out[b, s, h, :] = Q[b, s, h, :] through an on-chip block: the compute kernel only tilizes and untilizes."""

    @T.prim_func
    def main(Q: T.Tensor((batch, seq, heads, dim), "bfloat16"), Out: T.Tensor((batch, seq, heads, dim), "bfloat16")):
        with T.Kernel(T.ceildiv(seq, block_M), heads, batch, threads=128) as (bx, by, bz):
            Q_shared = T.alloc_shared((block_M, dim), "bfloat16")
            T.copy(Q[bz, bx * block_M:(bx + 1) * block_M, by, :], Q_shared)
            T.copy(Q_shared, Out[bz, bx * block_M:(bx + 1) * block_M, by, :])
    return main


# The attention kernels of the codegen corpus (tests/tt_kernels.py CORPUS).
ATTENTION_CORPUS: dict[str, Any] = {
    **{f"flash_attention_fwd_{block}": (lambda block=block: flashattn(2, 2, 128, 128, 64, False, block, block))
       for block in (32, 64)},
    "bshd_exp": lambda: bshd_exp(2, 64, 2, 64, 32),
    "bshd_copy": lambda: bshd_copy(2, 64, 2, 128, 64),
    **{f"flash_attention_fwd_bshd_{block}": (lambda block=block: flashattn_bshd(2, 2, 128, 64, block, block))
       for block in (32, 64)},
}
