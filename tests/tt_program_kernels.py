"""Functions with several T.Kernel launches (issue 28): each launch is a Tenstorrent program of its own, run in
launch order on the same tensors (SplitTTPrograms). A split-K GEMM whose first kernel writes each K part's product
into a T.alloc_global workspace and whose second kernel sums the parts: flash decoding's split then combine, at a
GEMM's size."""

from typing import Any

import tilelang.language as T

__all__ = ["split_then_combine", "PROGRAMS_CORPUS"]


def split_then_combine(M, N, K, block_M, block_N, block_K, split, dtype="bfloat16", accum_dtype="float"):
    part = K // split

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        partial = T.alloc_global((split, M, N), accum_dtype)
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            acc = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(part, block_K), num_stages=2):
                T.copy(A[by * block_M, bz * part + ko * block_K], A_shared)
                T.copy(B[bz * part + ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, acc)
            T.copy(acc, partial[bz, by * block_M, bx * block_N])
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M)) as (bx, by):
            part_shared = T.alloc_shared((block_M, block_N), accum_dtype)
            total = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(total)
            for s in T.serial(split):
                T.copy(partial[s, by * block_M, bx * block_N], part_shared)
                for i, j in T.Parallel(block_M, block_N):
                    total[i, j] += part_shared[i, j]
            T.copy(total, C[by * block_M, bx * block_N])

    return main


# The codegen corpus entry (tests/tt_kernels.py CORPUS, through SPLIT_K_CORPUS): two programs, 2x2 output blocks, K
# in two parts.
PROGRAMS_CORPUS: dict[str, Any] = {
    "split_then_combine_programs": lambda: split_then_combine(64, 64, 128, 32, 32, 32, 2),
}
