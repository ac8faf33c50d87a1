"""TileLang kernels that keep on-chip values across the iterations of a loop inside the block (Tenstorrent): a
loop-invariant operand read by every iteration, and values carried from one iteration to the next (a row-sum and
an element-wise accumulator over the column blocks of a wide matrix)."""

from __future__ import annotations

from typing import Any

import tilelang.language as T

__all__ = ["invariant_scale", "row_sum_blocks", "accumulate_blocks", "block_prefix_sum", "lower_block_gemm",
           "while_rows", "streamk_whole_tiles", "guarded_rows", "branch_blocks",
           "branch_on_index_scalar", "decayed_state", "LOOP_CORPUS"]


def invariant_scale(M, N, block_M, block_N, dtype="bfloat16"):
    """C[:, k-th column block] = X[:, k-th column block] * W: W's block is read once per row block, before the loop,
    and multiplies every column block of X."""

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), W: T.Tensor((M, block_N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as by:
            W_s = T.alloc_shared((block_M, block_N), dtype)
            X_s = T.alloc_shared((block_M, block_N), dtype)
            C_s = T.alloc_shared((block_M, block_N), dtype)
            T.copy(W[by * block_M, 0], W_s)
            for k in T.serial(N // block_N):
                T.copy(X[by * block_M, k * block_N], X_s)
                for i, j in T.Parallel(block_M, block_N):
                    C_s[i, j] = X_s[i, j] * W_s[i, j]
                T.copy(C_s, C[by * block_M, k * block_N])
    return main


def decayed_state(M, N, chunks, dtype="float32"):
    """Upstream retention's state update with the decay of head 0 (examples/linear_attention/example_retention_fwd.py
    with i_h = 0): h = gamma ** 64 * h + X_k over the chunks, gamma's log written as upstream writes it; the decay is
    a constant that TVM's Simplify leaves as T.exp2(64 * T.log2(1 - T.exp2(-5))) (it does not fold calls)."""

    @T.prim_func
    def main(X: T.Tensor((chunks * M, N), dtype), H: T.Tensor((M, N), dtype)):
        with T.Kernel(1, threads=128) as bx:
            log_decay = T.alloc_var(T.float32)
            log_decay = T.log2(1 - T.exp2(-5.0 - 1.0 * 0))
            h = T.alloc_fragment((M, N), "float32")
            x = T.alloc_shared((M, N), dtype)
            T.clear(h)
            for k in T.serial(chunks):
                T.copy(X[k * M + bx, 0], x)
                for i, j in T.Parallel(M, N):
                    h[i, j] = T.exp2(64 * log_decay) * h[i, j] + x[i, j]
            T.copy(h, H[0, 0])

    return main


def row_sum_blocks(M, N, block_M, block_N, kind="sum", dtype="bfloat16", accum_dtype="float"):
    """Out[i] = sum (or max) over j of A[i, j], one column block per iteration (clear=False onto the running row)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), Out: T.Tensor((M,), accum_dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as by:
            A_s = T.alloc_shared((block_M, block_N), dtype)
            row = T.alloc_fragment((block_M,), accum_dtype)
            if kind == "sum":
                T.clear(row)
            else:
                T.fill(row, -T.infinity(accum_dtype))
            for k in T.Pipelined(N // block_N, num_stages=2):
                T.copy(A[by * block_M, k * block_N], A_s)
                if kind == "sum":
                    T.reduce_sum(A_s, row, dim=1, clear=False)
                else:
                    T.reduce_max(A_s, row, dim=1, clear=False)
            T.copy(row, Out[by * block_M:(by + 1) * block_M])
    return main


def accumulate_blocks(M, N, block_M, block_N, dtype="bfloat16", accum_dtype="float"):
    """C = the sum of the column blocks of A (C[i, j] = sum over k of A[i, k * block_N + j]), accumulated on chip."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, block_N), accum_dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as by:
            A_s = T.alloc_shared((block_M, block_N), dtype)
            acc = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(acc)
            for k in range(N // block_N):
                T.copy(A[by * block_M, k * block_N], A_s)
                for i, j in T.Parallel(block_M, block_N):
                    acc[i, j] = acc[i, j] + A_s[i, j]
            T.copy(acc, C[by * block_M, 0])
    return main


# The loop kernels of the codegen corpus (tests/tt_kernels.py CORPUS).
def block_prefix_sum(M, N, block_M, dtype="float32"):
    """C's row block b = the sum of A's row blocks 0..b: a loop whose extent is computed from the block index (as
    flash attention's causal loop bound is), so each block runs another number of iterations."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            A_s = T.alloc_shared((block_M, N), dtype)
            acc = T.alloc_fragment((block_M, N), dtype)
            T.fill(acc, 0)
            loop_range = T.min(bx + 1, T.ceildiv(M, block_M))
            for k in T.serial(loop_range):
                T.copy(A[k * block_M, 0], A_s)
                for i, j in T.Parallel(block_M, N):
                    acc[i, j] += A_s[i, j]
            T.copy(acc, C[bx * block_M, 0])
    return main


def lower_block_gemm(M, N, block_M, block_N, dtype="bfloat16", accum_dtype="float"):
    """Block row bx accumulates K blocks 0..bx (a block-lower-triangular A (M, M) times B (M, N), K blocks of
    block_M): a gemm whose K loop's extent bx + 1 every kernel computes from its block's index, as stream-K's K
    loops have run-time extents."""

    @T.prim_func
    def main(A: T.Tensor((M, M), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            A_s = T.alloc_shared((block_M, block_M), dtype)
            B_s = T.alloc_shared((block_M, block_N), dtype)
            C_l = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_l)
            for k in T.serial(bx + 1):
                T.copy(A[bx * block_M, k * block_M], A_s)
                T.copy(B[k * block_M, 0], B_s)
                T.gemm(A_s, B_s, C_l)
            T.copy(C_l, C[bx * block_M, 0])

    return main


def while_rows(M, N, block_M, steps, dtype="float32"):
    """Each block doubles row blocks [bx * steps, min((bx + 1) * steps, ceil(M / block_M))) of A into B, walking them
    with a while loop over a loop-carried index scalar (stream-K's `while start_iter[0] < last_iter`): the last
    block's range is shorter when `steps` does not divide the row blocks."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(T.ceildiv(M, block_M), steps), threads=128) as bx:
            a = T.alloc_shared((block_M, N), dtype)
            b = T.alloc_fragment((block_M, N), dtype)
            row = T.alloc_var("int32")
            row = bx * steps
            end = T.min((bx + 1) * steps, T.ceildiv(M, block_M))
            while row < end:
                T.copy(A[row * block_M, 0], a)
                for i, j in T.Parallel(block_M, N):
                    b[i, j] = a[i, j] * 2.0
                T.copy(b, B[row * block_M, 0])
                row = row + 1

    return main


def streamk_whole_tiles(M, N, K, block_M, block_N, block_K, programs, dtype="bfloat16", accum_dtype="float"):
    """Stream-K's walk (examples/gemm_streamk) when every program's range of K steps is whole output tiles, so no
    tile is shared and no fix-up is needed: a while loop over the loop-carried `start_iter`, the tile and the K range
    of each work unit computed from it, and a K loop of run-time extent `end_iter - start_iter` (B transposed, as
    upstream calls it). A program whose range is empty runs no unit."""
    iters = (K + block_K - 1) // block_K
    tiles = ((M + block_M - 1) // block_M) * ((N + block_N - 1) // block_N)
    per = (tiles + programs - 1) // programs * iters

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((N, K), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(programs, threads=128) as pid:
            A_s = T.alloc_shared((block_M, block_K), dtype)
            B_s = T.alloc_shared((block_N, block_K), dtype)
            C_l = T.alloc_fragment((block_M, block_N), accum_dtype)
            start_iter = T.alloc_var("int32")
            end_iter = T.alloc_var("int32")
            start_iter = pid * per
            last_iter = T.min((pid + 1) * per, tiles * iters)
            while start_iter < last_iter:
                end_iter = T.min(start_iter + (iters - start_iter % iters), last_iter)
                tile_id = start_iter // iters
                pid_m = tile_id // T.ceildiv(N, block_N)
                pid_n = tile_id % T.ceildiv(N, block_N)
                T.clear(C_l)
                for k in T.Pipelined(end_iter - start_iter, num_stages=2):
                    T.copy(A[pid_m * block_M, (k + start_iter % iters) * block_K], A_s)
                    T.copy(B[pid_n * block_N, (k + start_iter % iters) * block_K], B_s)
                    T.gemm(A_s, B_s, C_l, transpose_B=True)
                T.copy(C_l, C[pid_m * block_M, pid_n * block_N])
                start_iter = end_iter

    return main


def branch_blocks(m, n, bm):
    """An if/elif/else on the block index: even row blocks double their rows, block 1 adds 1 (an element-wise op
    each), block 3 only copies (the else branch: no compute ops)."""
    @T.prim_func
    def main(A: T.Tensor((m, n), "float32"), B: T.Tensor((m, n), "float32")):
        with T.Kernel(T.ceildiv(m, bm), threads=128) as bx:
            a = T.alloc_shared((bm, n), "float32")
            b = T.alloc_fragment((bm, n), "float32")
            if bx % 2 == 0:
                T.copy(A[bx * bm, 0], a)
                for i, j in T.Parallel(bm, n):
                    b[i, j] = a[i, j] * 2.0
                T.copy(b, B[bx * bm, 0])
            elif bx < 3:
                T.copy(A[bx * bm, 0], a)
                for i, j in T.Parallel(bm, n):
                    b[i, j] = a[i, j] + 1.0
                T.copy(b, B[bx * bm, 0])
            else:
                T.copy(A[bx * bm, 0], a)
                T.copy(a, B[bx * bm, 0])

    return main


def branch_on_index_scalar(m, n, steps):
    """Stream-K's shape of control: a while loop over an index scalar, and in it an if/else on that scalar (rows
    whose index is a multiple of 3 are copied, the others tripled), each branch reading A itself."""
    @T.prim_func
    def main(A: T.Tensor((m, n), "float32"), B: T.Tensor((m, n), "float32")):
        with T.Kernel(T.ceildiv(T.ceildiv(m, 32), steps), threads=128) as bx:
            a = T.alloc_shared((32, n), "float32")
            b = T.alloc_fragment((32, n), "float32")
            row = T.alloc_var("int32")
            row = bx * steps
            while row < T.min(bx * steps + steps, T.ceildiv(m, 32)):
                if row % 3 == 0:
                    T.copy(A[row * 32, 0], a)
                    T.copy(a, B[row * 32, 0])
                else:
                    T.copy(A[row * 32, 0], a)
                    for i, j in T.Parallel(32, n):
                        b[i, j] = a[i, j] * 3.0
                    T.copy(b, B[row * 32, 0])
                row = row + 1

    return main


LOOP_CORPUS: dict[str, Any] = {
    "loop_invariant_scale": lambda: invariant_scale(128, 256, 64, 64),
    "loop_row_sum": lambda: row_sum_blocks(128, 256, 64, 64),
    "loop_row_max": lambda: row_sum_blocks(128, 256, 64, 64, "max"),
    "loop_accumulate": lambda: accumulate_blocks(128, 256, 64, 64),
    "loop_extent_from_block_index": lambda: block_prefix_sum(128, 64, 32),
    "loop_gemm_k_extent_from_block_index": lambda: lower_block_gemm(128, 64, 32, 64),
    "loop_while_index_scalar": lambda: while_rows(100, 72, 32, 3),
    "loop_streamk_whole_tiles": lambda: streamk_whole_tiles(100, 72, 80, 32, 32, 32, 5),
    "loop_branch_blocks": lambda: branch_blocks(100, 72, 32),
    "loop_branch_on_index_scalar": lambda: branch_on_index_scalar(100, 40, 3),
    "loop_streamk_upstream": lambda: streamk_upstream(),
}


def streamk_upstream():
    """Upstream's stream-K kernel (tests/tt_streamk_kernel.py, 64x128x128 over 3 programs): the atomic adds in the
    while loop and its branch, in program order (tests/tenstorrent/test_tt_streamk.py)."""
    import tt_streamk_kernel as streamk

    return streamk.tl_matmul_streamk.get_tir(
        streamk_tiles=streamk.streamk_tiles, M=64, N=128, K=128, block_M=32, block_N=32, block_K=32, trans_A=False,
        trans_B=True, dtypeAB=T.float16, dtypeC=T.float32, accum_dtype=T.float32, num_stages=2, threads=64)


def guarded_rows(M, N, block_M, block_N):  # noqa: N803
    """A CPU kernel on which the tvm-rule passes have work (the GEMM's loops leave most of them nothing to do):
    copies of partial blocks (guarded loads and stores), a T.vectorized loop (VectorizeLoop), a T.unroll loop
    (UnrollLoop), blocks whose buffers StorageRewrite hoists, a store guard invariant in the inner loop
    (HoistIfThenElse), a guard RenormalizeSplitPattern rewrites, and a self-assignment that Simplify turns into a
    no-op loop which RemoveNoOp deletes. (RewriteUnsafeSelect has no Select to rewrite: the language cannot write
    one; `a if c else b` and T.if_then_else are the safe builtin if_then_else.)"""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_shared((block_M, block_N), "float32")
            R = T.alloc_local((block_M,), "float32")
            T.copy(A[by * block_M, bx * block_N], A_s)
            for i in T.serial(block_M):
                for j in T.vectorized(block_N):
                    A_s[i, j] = T.max(A_s[i, j], T.float32(0))
            for i in T.unroll(block_M):
                R[i] = A_s[i, 0]
            for i in T.serial(block_M):
                R[i] = R[i]
            for i, j in T.Parallel(block_M, block_N):
                A_s[i, j] = T.if_then_else(bx > 0, A_s[i, j] - R[i], A_s[i, j])
            T.copy(A_s, B[by * block_M, bx * block_N])

    return main
