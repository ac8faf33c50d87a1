"""Attention variants for the Tenstorrent backend (tests/tenstorrent/test_tt_attention_variants.py, the codegen
corpus), written in the forms TileLang's examples use:

- `sliding_window`: examples/attention_sink's sliding window (BHSD, fp16): the band mask `q_idx >= k_idx and q_idx <
  k_idx + window`, a key loop starting at a block-dependent `start`, and the check_inf `scores_max[i] == -inf` of a
  row that a key block masks entirely;
- `block_causal`: examples/block_causal_attention (BSHD, bf16, noisy | clean halves): per key step an if/else
  choosing which key block each T.copy reads, and an if/else around the `i // dllm == j // dllm` mask (or a clear);
- `branch_copies`, `mask_in_branch`, `mask_or_clear`: those forms alone (a T.copy whose block an if/else picks; a
  mask read in one arm of an if/else; scores made in both arms of an if/else, a mask or a T.clear, then a gemm onto
  them).

No `from __future__ import annotations`: real TileLang's parser rejects it in a kernel module."""

from typing import Any

import tilelang.language as T

__all__ = ["sliding_window", "block_causal", "branch_copies", "mask_in_branch", "mask_or_clear", "copy_or_fill",
           "exp_or_fill_max", "VARIANT_CORPUS"]

LOG2E = 1.44269504


def sliding_window(heads, seq, dim, window, block=64):
    """softmax(Q K^T / sqrt(dim)) V over the keys k with q - window < k <= q, Q/K/V/Output [1, heads, seq, dim]."""
    scale = (1.0 / dim) ** 0.5 * LOG2E
    shape = [1, heads, seq, dim]
    dtype, acc = "float16", "float32"

    @T.prim_func
    def main(Q: T.Tensor(shape, dtype), K: T.Tensor(shape, dtype), V: T.Tensor(shape, dtype),
             Output: T.Tensor(shape, dtype)):
        with T.Kernel(T.ceildiv(seq, block), heads, 1, threads=128) as (bx, by, bz):
            Q_s = T.alloc_shared([block, dim], dtype)
            K_s = T.alloc_shared([block, dim], dtype)
            V_s = T.alloc_shared([block, dim], dtype)
            acc_s = T.alloc_fragment([block, block], acc)
            acc_s_cast = T.alloc_fragment([block, block], dtype)
            acc_o = T.alloc_fragment([block, dim], acc)
            m = T.alloc_fragment([block], acc)
            m_prev = T.alloc_fragment([block], acc)
            rescale = T.alloc_fragment([block], acc)
            row_sum = T.alloc_fragment([block], acc)
            total = T.alloc_fragment([block], acc)
            T.copy(Q[bz, by, bx * block:(bx + 1) * block, :], Q_s)
            T.fill(acc_o, 0)
            T.fill(total, 0)
            T.fill(m, -T.infinity(acc))
            end = T.min(T.ceildiv(seq, block), T.ceildiv((bx + 1) * block, block))
            start = T.max(0, (bx * block - window) // block)
            for k in T.Pipelined(start, end, num_stages=1):
                T.copy(K[bz, by, k * block:(k + 1) * block, :], K_s)
                for i, j in T.Parallel(block, block):
                    q_idx = bx * block + i
                    k_idx = k * block + j
                    acc_s[i, j] = T.if_then_else(q_idx >= k_idx and q_idx < k_idx + window, 0, -T.infinity(acc))
                T.gemm(Q_s, K_s, acc_s, transpose_B=True)
                T.copy(m, m_prev)
                T.fill(m, -T.infinity(acc))
                T.reduce_max(acc_s, m, dim=1, clear=False)
                for i in T.Parallel(block):
                    m[i] = T.max(m[i], m_prev[i])
                for i in T.Parallel(block):
                    m[i] = T.if_then_else(m[i] == -T.infinity(acc), 0, m[i])
                    rescale[i] = T.exp2(m_prev[i] * scale - m[i] * scale)
                for i, j in T.Parallel(block, block):
                    acc_s[i, j] = T.exp2(acc_s[i, j] * scale - m[i] * scale)
                T.reduce_sum(acc_s, row_sum, dim=1)
                for i in T.Parallel(block):
                    total[i] = total[i] * rescale[i] + row_sum[i]
                T.copy(acc_s, acc_s_cast)
                for i, j in T.Parallel(block, dim):
                    acc_o[i, j] *= rescale[i]
                T.copy(V[bz, by, k * block:(k + 1) * block, :], V_s)
                T.gemm(acc_s_cast, V_s, acc_o)
            for i, j in T.Parallel(block, dim):
                acc_o[i, j] /= total[i]
            T.copy(acc_o, Output[bz, by, bx * block:(bx + 1) * block, :])

    return main


def block_causal(heads, seq, dim, dllm, block=64):
    """Block-causal attention over noisy | clean halves of the sequence (Q/K/V/Output [1, seq, heads, dim], bf16):
    a noisy query sees the clean keys of earlier blocks and its own noisy dllm block; a clean query the clean keys of
    its own and earlier dllm blocks."""
    half, neg = seq // 2, -1.0e6
    region = half // block
    scale = dim ** -0.5 * LOG2E
    shape = [1, seq, heads, dim]
    dtype, acc = "bfloat16", "float32"

    @T.prim_func
    def main(Q: T.Tensor(shape, dtype), K: T.Tensor(shape, dtype), V: T.Tensor(shape, dtype),
             Output: T.Tensor(shape, dtype)):
        with T.Kernel(T.ceildiv(seq, block), heads, 1, threads=128) as (bx, by, bz):
            Q_s = T.alloc_shared([block, dim], dtype)
            K_s = T.alloc_shared([block, dim], dtype)
            V_s = T.alloc_shared([block, dim], dtype)
            acc_s = T.alloc_fragment([block, block], acc)
            acc_s_cast = T.alloc_fragment([block, block], dtype)
            acc_o = T.alloc_fragment([block, dim], acc)
            m = T.alloc_fragment([block], acc)
            m_prev = T.alloc_fragment([block], acc)
            rescale = T.alloc_fragment([block], acc)
            row_sum = T.alloc_fragment([block], acc)
            total = T.alloc_fragment([block], acc)
            T.copy(Q[bz, bx * block:(bx + 1) * block, by, :], Q_s)
            T.fill(acc_o, 0)
            T.fill(total, 0)
            T.fill(m, neg)
            noisy = bx < region
            last_clean = T.if_then_else(noisy, bx, bx - region)
            steps = T.if_then_else(noisy, bx + 2, bx - region + 1)
            for s in T.Pipelined(steps, num_stages=1):
                own = T.if_then_else(s > last_clean, 1, 0)
                if own != 0:
                    T.copy(K[bz, bx * block:(bx + 1) * block, by, :], K_s)
                else:
                    T.copy(K[bz, half + s * block:half + (s + 1) * block, by, :], K_s)
                diagonal = own + T.if_then_else(s == last_clean, 1, 0)
                if diagonal != 0:
                    for i, j in T.Parallel(block, block):
                        same = T.if_then_else(i // dllm == j // dllm, 1, 0)
                        before = T.if_then_else(noisy, T.if_then_else(i // dllm > j // dllm, 1, 0),
                                                T.if_then_else(i // dllm >= j // dllm, 1, 0))
                        allowed = T.if_then_else(own == 1, same, before)
                        acc_s[i, j] = T.if_then_else(allowed > 0, 0, neg)
                else:
                    T.clear(acc_s)
                T.gemm(Q_s, K_s, acc_s, transpose_B=True)
                T.copy(m, m_prev)
                T.fill(m, neg)
                T.reduce_max(acc_s, m, dim=1, clear=False)
                for i in T.Parallel(block):
                    m[i] = T.max(m[i], m_prev[i])
                for i in T.Parallel(block):
                    rescale[i] = T.exp2(m_prev[i] * scale - m[i] * scale)
                for i, j in T.Parallel(block, block):
                    acc_s[i, j] = T.exp2(acc_s[i, j] * scale - m[i] * scale)
                T.reduce_sum(acc_s, row_sum, dim=1)
                for i in T.Parallel(block):
                    total[i] = total[i] * rescale[i] + row_sum[i]
                T.copy(acc_s, acc_s_cast)
                for i, j in T.Parallel(block, dim):
                    acc_o[i, j] *= rescale[i]
                if own != 0:
                    T.copy(V[bz, bx * block:(bx + 1) * block, by, :], V_s)
                else:
                    T.copy(V[bz, half + s * block:half + (s + 1) * block, by, :], V_s)
                T.gemm(acc_s_cast, V_s, acc_o)
            for i, j in T.Parallel(block, dim):
                acc_o[i, j] /= total[i] + 1e-30
            T.copy(acc_o, Output[bz, bx * block:(bx + 1) * block, by, :])

    return main


def branch_copies(M, N, block):
    """Out block (by, bx) = A block (by, bx - bx % 2): an if/else whose arms each T.copy a block of A into A_s."""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            A_s = T.alloc_shared((block, block), "float32")
            if bx % 2 == 0:
                T.copy(A[by * block, bx * block], A_s)
            else:
                T.copy(A[by * block, (bx - 1) * block], A_s)
            T.copy(A_s, Out[by * block, bx * block])

    return main


def mask_in_branch(N, block):
    """Out = A's lower triangle (0 above the diagonal) in the blocks with (bx + by) even, A elsewhere: the mask and
    its table read in the then arm."""

    @T.prim_func
    def main(A: T.Tensor((N, N), "float32"), Out: T.Tensor((N, N), "float32")):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(N, block), threads=128) as (bx, by):
            A_s = T.alloc_shared((block, block), "float32")
            acc = T.alloc_fragment((block, block), "float32")
            T.copy(A[by * block, bx * block], A_s)
            if (bx + by) % 2 == 0:
                for i, j in T.Parallel(block, block):
                    acc[i, j] = T.if_then_else(by * block + i >= bx * block + j, A_s[i, j], 0)
                T.copy(acc, Out[by * block, bx * block])
            else:
                T.copy(A_s, Out[by * block, bx * block])

    return main


def mask_or_clear(M, N, dim, dllm, block=32):
    """Out block (by, bx) = the sum over two key steps s (half of dim each) of the step's start plus Q_s K_s^T:
    block-causal attention's scores (`if needs_mask: acc_s = mask else: T.clear(acc_s)`, then a gemm onto acc_s).
    The mask (0 where allowed, else -8; its choice between two forms free of the element indices is an if/else of
    its own) starts the step (bx + by) % 2, a T.clear the other."""
    half = dim // 2

    @T.prim_func
    def main(Q: T.Tensor((M, dim), "float16"), K: T.Tensor((N, dim), "float16"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            Q_s = T.alloc_shared((block, half), "float16")
            K_s = T.alloc_shared((block, half), "float16")
            acc_s = T.alloc_fragment((block, block), "float32")
            total = T.alloc_fragment((block, block), "float32")
            T.clear(total)
            for s in T.Pipelined(2, num_stages=1):
                T.copy(Q[by * block, s * half], Q_s)
                T.copy(K[bx * block, s * half], K_s)
                needs_mask = T.if_then_else(s == (bx + by) % 2, 1, 0)
                if needs_mask != 0:
                    for i, j in T.Parallel(block, block):
                        allowed = T.if_then_else(bx % 2 == 0, T.if_then_else(i // dllm == j // dllm, 1, 0),
                                                 T.if_then_else(i // dllm >= j // dllm, 1, 0))
                        acc_s[i, j] = T.if_then_else(allowed > 0, 0, -8.0)
                else:
                    T.clear(acc_s)
                T.gemm(Q_s, K_s, acc_s, transpose_B=True)
                for i, j in T.Parallel(block, block):
                    total[i, j] += acc_s[i, j]
            T.copy(total, Out[by * block, bx * block])

    return main


def copy_or_fill(M, N, block):
    """Out block (by, bx) = A's block where bx is even, zeros elsewhere: A_s made in both arms of an if/else, by a
    T.copy from DRAM (the reader kernel) in one and a T.fill (the compute kernel) in the other."""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            A_s = T.alloc_shared((block, block), "float32")
            if bx % 2 == 0:
                T.copy(A[by * block, bx * block], A_s)
            else:
                T.fill(A_s, 0)
            T.copy(A_s, Out[by * block, bx * block])

    return main


def exp_or_fill_max(M, N, block):
    """Out[r] = the maximum of row r of exp(A) in the row blocks bx with bx % 2 == 0, -inf elsewhere: S made in both
    arms of an if/else (exp(A_s), or a -inf fill), then reduced along its N columns."""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Out: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block), threads=128) as bx:
            A_s = T.alloc_shared((block, N), "float32")
            S = T.alloc_fragment((block, N), "float32")
            m = T.alloc_fragment((block,), "float32")
            if bx % 2 == 0:
                T.copy(A[bx * block, 0], A_s)
                for i, j in T.Parallel(block, N):
                    S[i, j] = T.exp(A_s[i, j])
            else:
                T.fill(S, -T.infinity("float32"))
            T.reduce_max(S, m, dim=1)
            T.copy(m, Out[bx * block])

    return main


VARIANT_CORPUS: dict[str, Any] = {
    "branch_copies": lambda: branch_copies(64, 128, 32),
    "mask_in_branch": lambda: mask_in_branch(64, 32),
    "attention_sliding_window": lambda: sliding_window(1, 128, 64, 64),
    # blocks of 48 rows (a padding mask before the row maximum, row-major reads of 48 rows) and head dim 40 (pages
    # padded to 64 elements): the shapes of issue 28's block-causal refusals
    "attention_block_causal_48_d40": lambda: block_causal(1, 192, 40, 16, 48),
}
