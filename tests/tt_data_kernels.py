"""Integer data and T.cumsum kernels of the Tenstorrent corpus (issue 28): TileLang's block cumsum (cumsum_tile,
out-of-order packs, on-chip transposes for dim 1) and integer blocks (an int32 block copied through DRAM, a uint16
vector through the compute kernel's transposes), and TileLang's block-sparse GEMM (gemm K steps under a bool mask
read from DRAM); and row-major blocks of part of the last dim (tt_column_kernels)."""

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


DATA_CORPUS = {
    **{f"cumsum_dim{dim}": (lambda dim=dim: examples.cumsum_kernel.__wrapped__(64, 128, 32, 64, dim, False))
       for dim in (0, 1)},
    **{f"cumsum_reverse_dim{dim}": (lambda dim=dim: examples.cumsum_kernel.__wrapped__(64, 128, 64, 32, dim, True))
       for dim in (0, 1)},
    "int32_block_copy": lambda: int_copy(64, 128, 32, 64, "int32"),
    "uint16_vector_copy": lambda: int_vector_copy(128, 64, "uint16"),
    **COLUMN_CORPUS,
}
if api_profile() in INTRINSICS["read_tile_value"].cpp:  # its compute kernel reads the mask with read_tile_value
    DATA_CORPUS["blocksparse_gemm"] = lambda: blocksparse(128, 128, 128, 64, 64, 32)
