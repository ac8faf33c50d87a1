"""Element-wise stores that compute with element indices and with values of the block indices (issue 28), and
upstream's examples/linear_attention/example_retention_fwd.py kernel (`chunk_retention_fwd`) as tile-ai/tilelang
writes it, unchanged but for its blank lines, the jit decorator (the test compiles the prim_func) and a noqa on `O`."""

import tilelang as tl
import tilelang.language as T


def index_decay(heads: int, n: int, blk: int, dtype: str = "float32"):
    """B[h] = A[h] * 2 ** ((i - j) * log2(1 - 2 ** (-5 - h))) per block: element indices and a per-head scalar."""

    @T.prim_func
    def main(A: T.Tensor((heads, n, n), dtype), B: T.Tensor((heads, n, n), dtype)):
        with T.Kernel(n // blk, n // blk, heads, threads=128) as (bx, by, bz):
            log_decay = T.alloc_var(T.float32)
            log_decay = T.log2(1 - T.exp2(-5.0 - 1.0 * bz))
            a = T.alloc_fragment((blk, blk), dtype)
            b = T.alloc_fragment((blk, blk), dtype)
            T.copy(A[bz, by * blk, bx * blk], a)
            for i, j in T.Parallel(blk, blk):
                b[i, j] = a[i, j] * T.exp2((i - j) * log_decay) + T.Cast(dtype, by)
            T.copy(b, B[bz, by * blk, bx * blk])

    return main


def masked_decay(heads: int, n: int, blk: int):
    """B = T.Cast(float16, i >= j ? A * 2 ** ((i - j) * log_decay) : 0): a computed value masked, then cast."""

    @T.prim_func
    def main(A: T.Tensor((heads, n, n), "float32"), B: T.Tensor((heads, n, n), "float16")):
        with T.Kernel(n // blk, n // blk, heads, threads=128) as (bx, by, bz):
            log_decay = T.alloc_var(T.float32)
            log_decay = T.log2(1 - T.exp2(-5.0 - 1.0 * bz))
            a = T.alloc_fragment((blk, blk), "float32")
            b = T.alloc_shared((blk, blk), "float16")
            T.copy(A[bz, by * blk, bx * blk], a)
            for i, j in T.Parallel(blk, blk):
                b[i, j] = T.if_then_else(i >= j, a[i, j] * T.exp2((i - j) * log_decay), 0)
            T.copy(b, B[bz, by * blk, bx * blk])

    return main


def chunk_retention_fwd_kernel(B, S, H, DK, DV, dtype=T.float16, scale=None):
    if scale is None:
        scale = DK**-0.5
    accum_dtype = T.float32
    chunk_size = 64
    BK = BV = 64  # Set to 128 can be faster, but has some numerical differences with FLA
    assert S % chunk_size == 0 and DK % BK == 0 and DV % BV == 0
    NK = tl.cdiv(DK, BK)
    NV = tl.cdiv(DV, BV)
    NT = tl.cdiv(S, chunk_size)

    @T.prim_func
    def chunk_retention_fwd(
        Q: T.Tensor([B, S, H, DK], dtype),  # type: ignore
        K: T.Tensor([B, S, H, DK], dtype),  # type: ignore
        V: T.Tensor([B, S, H, DV], dtype),  # type: ignore
        O: T.Tensor([NK, B, S, H, DV], dtype),  # type: ignore  # noqa: E741 - upstream names it O
    ):
        with T.Kernel(NV, NK, B * H) as (i_v, i_k, i_bh):
            i_b = i_bh // H
            i_h = i_bh % H
            log_decay = T.alloc_var(T.float32)
            log_decay = T.log2(1 - T.exp2(-5.0 - 1.0 * i_h))  # Head-specific log decay
            q = T.alloc_shared([chunk_size, BK], dtype)
            k = T.alloc_shared([chunk_size, BK], dtype)
            v = T.alloc_shared([chunk_size, BV], dtype)
            h = T.alloc_fragment([BK, BV], accum_dtype)
            h_shared = T.alloc_shared([BK, BV], dtype)
            s = T.alloc_fragment([chunk_size, chunk_size], accum_dtype)
            s_shared = T.alloc_shared([chunk_size, chunk_size], dtype)
            o = T.alloc_fragment([chunk_size, BV], accum_dtype)
            T.clear(h)
            T.use_swizzle(10)
            for i in T.Pipelined(0, NT):
                for row, col in T.Parallel(chunk_size, BK):
                    q[row, col] = Q[i_b, i * chunk_size + row, i_h, i_k * BK + col] * scale
                T.copy(K[i_b, i * chunk_size : (i + 1) * chunk_size, i_h, i_k * BK : (i_k + 1) * BK], k)
                T.copy(V[i_b, i * chunk_size : (i + 1) * chunk_size, i_h, i_v * BV : (i_v + 1) * BV], v)
                T.gemm(q, k, s, clear_accum=True, transpose_B=True)
                for row, col in T.Parallel(chunk_size, chunk_size):
                    s_shared[row, col] = T.if_then_else(row >= col, s[row, col] * T.exp2((row - col) * log_decay), 0)
                T.copy(h, h_shared)
                T.gemm(q, h_shared, o, clear_accum=True)
                for row, col in T.Parallel(chunk_size, BV):
                    o[row, col] = T.exp2((row + 1) * log_decay) * o[row, col]
                T.gemm(s_shared, v, o)
                for row, col in T.Parallel(chunk_size, BV):
                    v[row, col] = v[row, col] * T.exp2((chunk_size - row - 1) * log_decay)
                for row, col in T.Parallel(BK, BV):
                    h[row, col] = T.exp2(chunk_size * log_decay) * h[row, col]
                T.copy(o, O[i_k, i_b, i * chunk_size : (i + 1) * chunk_size, i_h, i_v * BV : (i_v + 1) * BV])
                T.gemm(k, v, h, transpose_A=True)

    return chunk_retention_fwd
