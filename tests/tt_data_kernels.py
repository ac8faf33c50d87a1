"""Integer data and T.cumsum kernels of the Tenstorrent corpus (issue 28): TileLang's block cumsum (cumsum_tile,
out-of-order packs, on-chip transposes for dim 1) and integer blocks (an int32 block copied through DRAM, a uint16
vector through the compute kernel's transposes)."""

from __future__ import annotations

import test_tilelang_examples as examples

import tilelang.language as T


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


DATA_CORPUS = {
    **{f"cumsum_dim{dim}": (lambda dim=dim: examples.cumsum_kernel.__wrapped__(64, 128, 32, 64, dim, False))
       for dim in (0, 1)},
    **{f"cumsum_reverse_dim{dim}": (lambda dim=dim: examples.cumsum_kernel.__wrapped__(64, 128, 64, 32, dim, True))
       for dim in (0, 1)},
    "int32_block_copy": lambda: int_copy(64, 128, 32, 64, "int32"),
    "uint16_vector_copy": lambda: int_vector_copy(128, 64, "uint16"),
}
