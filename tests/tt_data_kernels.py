"""Integer data and T.cumsum kernels of the Tenstorrent corpus (issue 28): TileLang's block cumsum (cumsum_tile,
out-of-order packs, on-chip transposes for dim 1) and integer blocks (an int32 block copied through DRAM, a uint16
vector through the compute kernel's transposes), TileLang's block-sparse GEMM (gemm K steps under a bool mask
read from DRAM), blocks gathered by an index tensor (the reader reads the index), and row-major blocks of part of
the last dim (tt_column_kernels)."""

from __future__ import annotations

import layers  # noqa: F401  (the layer folders on the import path: the kernels below are test modules')
import test_tilelang_examples as examples
from tt_column_kernels import COLUMN_CORPUS

import tilelang.language as T
from tilelang.tenstorrent import INTRINSICS, api_profile


def int_copy(M, N, block_M, block_N, dtype):
    """An integer block copied DRAM -> on-chip -> DRAM (no compute: the reader's and writer's raw pages)."""
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(N // block_N, M // block_M) as (bx, by):
            s = T.alloc_shared((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], s)
            T.copy(s, B[by * block_M, bx * block_N])
    return main


def int_vector_copy(M, block_M, dtype):
    """A 1-D integer block: read as row tiles, transposed on chip into a column vector and back (integer DST)."""
    @T.prim_func
    def main(A: T.Tensor((M,), dtype), B: T.Tensor((M,), dtype)):
        with T.Kernel(M // block_M) as bx:
            v = T.alloc_fragment((block_M,), dtype)
            T.copy(A[bx * block_M], v)
            T.copy(v, B[bx * block_M])
    return main


def blocksparse(M: int, N: int, K: int, bm: int, bn: int, bk: int, mask_dtype: str = "bool", test=None,
                staged: bool = False):
    """Upstream's kernel body (fp16 in, fp32 accumulation, fp16 out); `test` builds the condition from the value.
    `staged`: the block's row of the mask is first copied into a fragment and the condition reads that, as
    upstream's block-sparse attention does (`T.copy(BlockSparseMask[bz, by, bx, :], block_mask)`)."""
    shape = (-(-M // bm), -(-N // bn), -(-K // bk))
    test = test or (lambda v: v)

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), BlockMask: T.Tensor(shape, mask_dtype),
             C: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=128) as (bx, by):
            A_shared = T.alloc_shared((bm, bk), "float16")
            B_shared = T.alloc_shared((bk, bn), "float16")
            C_local = T.alloc_fragment((bm, bn), "float32")
            C_shared = T.alloc_shared((bm, bn), "float16")
            mask_row = T.alloc_fragment((shape[2],), mask_dtype)
            T.clear(C_local)
            if staged:
                T.copy(BlockMask[by, bx, :], mask_row)
            for k in T.Pipelined(T.ceildiv(K, bk), num_stages=2):
                if test(mask_row[k] if staged else BlockMask[by, bx, k]):
                    T.copy(A[by * bm, k * bk], A_shared)
                    T.copy(B[k * bk, bx * bn], B_shared)
                    T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C_shared)
            T.copy(C_shared, C[by * bm, bx * bn])

    return main


def masked_step(n: int, mask_dtype: str = "bool", test=None, staged: bool = False):
    """Block-sparse attention's control on a small scale (issue 28): a whole step under `if Mask[k]` (a value read from
    DRAM), `a` made before the loop and read in the step (as `Q_shared`), `acc` carried across the loop and rewritten
    only in the step (`acc_o`). `staged`: the mask is first copied into a fragment, as upstream's attention does."""
    test = test or (lambda v: v)
    steps = n // 32

    @T.prim_func
    def main(A: T.Tensor((32, 32), "float32"), X: T.Tensor((32, n), "float32"), Mask: T.Tensor((steps,), mask_dtype),
             B: T.Tensor((32, 32), "float32")):
        with T.Kernel(1, threads=128):
            a = T.alloc_shared((32, 32), "float32")
            x = T.alloc_shared((32, 32), "float32")
            y = T.alloc_fragment((32, 32), "float32")
            acc = T.alloc_fragment((32, 32), "float32")
            row = T.alloc_fragment((steps,), mask_dtype)
            T.copy(A, a)
            T.clear(acc)
            if staged:
                T.copy(Mask[0:steps], row)
            for k in T.serial(steps):
                if test(row[k] if staged else Mask[k]):
                    T.copy(X[0, k * 32], x)
                    for i, j in T.Parallel(32, 32):
                        y[i, j] = x[i, j] * a[i, j]
                    for i, j in T.Parallel(32, 32):
                        acc[i, j] = acc[i, j] + y[i, j]
            T.copy(acc, B)

    return main


def masked_blocks(M: int, N: int, bm: int, bn: int, mask_dtype: str = "bool"):
    """Every kernel in both arms of `if Mask[by, bx]:` (the writer too: it reads its own copy of the value): a block
    doubled where the mask is set, zeros elsewhere."""
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Mask: T.Tensor((M // bm, N // bn), mask_dtype),
             B: T.Tensor((M, N), "float32")):
        with T.Kernel(N // bn, M // bm, threads=128) as (bx, by):
            s = T.alloc_shared((bm, bn), "float32")
            o = T.alloc_fragment((bm, bn), "float32")
            if Mask[by, bx]:
                T.copy(A[by * bm, bx * bn], s)
                for i, j in T.Parallel(bm, bn):
                    o[i, j] = s[i, j] * 2.0
                T.copy(o, B[by * bm, bx * bn])
            else:
                T.fill(o, 0.0)
                T.copy(o, B[by * bm, bx * bn])
    return main


def gather_blocks(M: int, N: int, selected: int, bs: int, index_dims: int = 1, scale: int = 1):
    """Blocks of `bs` rows of X gathered by an index tensor (deepseek_nsa's `K[i_b, i_s:i_s + BS, i_h, :]` with
    `i_s = BlockIndices[...] * BS`; a paged cache's block at `block_table[b, p] * page`): Out's block b is X's rows
    Idx[b] * bs * scale + [0, bs). `index_dims` 2: the index tensor is (1, selected), read at [0, b]."""
    shape = (selected,) if index_dims == 1 else (1, selected)

    @T.prim_func
    def main(X: T.Tensor((M, N), "float16"), Idx: T.Tensor(shape, "int32"),
             Out: T.Tensor((selected * bs, N), "float16")):
        with T.Kernel(selected, threads=128) as bx:
            s = T.alloc_shared((bs, N), "float16")
            row = (Idx[bx] if index_dims == 1 else Idx[0, bx]) * (bs * scale)
            T.copy(X[row:row + bs, :], s)
            T.copy(s, Out[bx * bs:(bx + 1) * bs, :])
    return main


def length_mask(M: int, N: int, bm: int, bn: int, nsa: bool = False):
    """Scores masked by a bound read from a tensor: `j >= Len[b]` (deepseek_mla paged's `k * block_N + j >=
    cache_seqlens[bx]`) against -inf, added to S's block; `nsa`: the selected block's causal mask, `bm` query rows
    of block `by` against key block Len[by] (`i_t >= BlockIndices[...] * BS + j`, a diagonal the value moves by
    `bn` table tiles per unit)."""
    @T.prim_func
    def main(S: T.Tensor((M, N), "float32"), Len: T.Tensor((M // bm,), "int32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(N // bn, M // bm, threads=128) as (bx, by):
            s = T.alloc_fragment((bm, bn), "float32")
            T.copy(S[by * bm, bx * bn], s)
            for i, j in T.Parallel(bm, bn):
                if nsa:
                    s[i, j] = T.if_then_else(by * bm + i >= Len[by] * bn + j, s[i, j], -T.infinity("float32"))
                else:
                    s[i, j] = T.if_then_else(bx * bn + j >= Len[by], -T.infinity("float32"), s[i, j])
            T.copy(s, Out[by * bm, bx * bn])
    return main


def gathered_step(M: int, N: int, selected: int, bs: int, mask: bool = False):
    """deepseek_nsa's step: `i_s = Idx[b, k] * bs` bound to a scalar, a whole step under `i_s <= b * bs and i_s >= 0`
    (the value and index terms), X's block at row i_s (and, `mask`, its causal mask `b * bs + i >= i_s + j` against
    -inf) summed into Out's block b. Each kernel reads the value once for the if; the block and the mask use it."""
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Idx: T.Tensor((M // bs, selected), "int32"),
             Out: T.Tensor((M, N), "float32")):
        with T.Kernel(M // bs, threads=128) as bx:
            s = T.alloc_fragment((bs, N), "float32")
            acc = T.alloc_fragment((bs, N), "float32")
            T.fill(acc, 0)
            for k in T.Pipelined(selected):
                i_s = Idx[bx, k] * bs
                if i_s <= bx * bs and i_s >= 0:
                    T.copy(X[i_s:i_s + bs, :], s)
                    if mask:
                        for i, j in T.Parallel(bs, N):
                            s[i, j] = T.if_then_else(bx * bs + i >= i_s + j, s[i, j], -T.infinity("float32"))
                    for i, j in T.Parallel(bs, N):
                        acc[i, j] += s[i, j]
            T.copy(acc, Out[bx * bs, 0])
    return main


DATA_CORPUS = {
    **{f"cumsum_dim{dim}": (lambda dim=dim: examples.cumsum_kernel.__wrapped__(64, 128, 32, 64, dim, False))
       for dim in (0, 1)},
    **{f"cumsum_reverse_dim{dim}": (lambda dim=dim: examples.cumsum_kernel.__wrapped__(64, 128, 64, 32, dim, True))
       for dim in (0, 1)},
    "int32_block_copy": lambda: int_copy(64, 128, 32, 64, "int32"),
    "uint16_vector_copy": lambda: int_vector_copy(128, 64, "uint16"),
    "gather_blocks": lambda: gather_blocks(128, 64, 3, 32),
    **COLUMN_CORPUS,
}
if api_profile() in INTRINSICS["read_tile_value"].cpp:  # their compute kernels read a value with read_tile_value
    DATA_CORPUS["blocksparse_gemm"] = lambda: blocksparse(128, 128, 128, 64, 64, 32)
    DATA_CORPUS["masked_step"] = lambda: masked_step(128)
    DATA_CORPUS["length_mask"] = lambda: length_mask(64, 128, 32, 64)
    DATA_CORPUS["gathered_step"] = lambda: gathered_step(128, 32, 2, 32, True)  # nsa: gather + flag + mask
