"""TileLang's split-K GEMM examples (examples/gemm_splitk), exactly as TileLang writes them: a 3-D grid whose
blockIdx.z splits K, each block adding its partial product onto C with T.atomic_add, in the tile form and in the
element-wise T.Parallel form. test_tilelang_examples runs them on llvm, test_tt_split_k on Tenstorrent."""

from typing import Any

from tt_program_kernels import PROGRAMS_CORPUS

import tilelang.language as T

__all__ = ["splitk_matmul", "splitk_matmul_elementwise_atomic", "SPLIT_K_CORPUS"]


def splitk_matmul(M, N, K, block_M, block_N, block_K, split_k, dtype="float16", accum_dtype="float"):
    splitK = K // split_k

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((N, K), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split_k, threads=128) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_N, block_K), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.use_swizzle(panel_size=10)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(splitK, block_K), num_stages=0):
                T.copy(A[by * block_M, bz * splitK + ko * block_K], A_shared)
                T.copy(B[bx * block_N, bz * splitK + ko * block_K], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=True)
            T.atomic_add(C[by * block_M, bx * block_N], C_local)

    return main


def splitk_matmul_elementwise_atomic(M, N, K, block_M, block_N, block_K, split_k, dtype="float16"):
    splitK = K // split_k

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), "float")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split_k) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float")
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(splitK, block_K), num_stages=2):
                T.copy(A[by * block_M, bz * splitK + ko * block_K], A_shared)
                T.copy(B[bz * splitK + ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            for i, j in T.Parallel(block_M, block_N):
                T.atomic_add(C[by * block_M + i, bx * block_N + j], C_local[i, j])

    return main


# The split-K kernels of the codegen corpus (tests/tt_kernels.py CORPUS): bf16 inputs, an fp32 C, 2x3 output blocks;
# and the split-K GEMM as two programs, partial products then their sum (tests/tt_program_kernels.py).
SPLIT_K_CORPUS: dict[str, Any] = {
    **PROGRAMS_CORPUS,
    "split_k_gemm_tile_atomic": lambda: splitk_matmul(64, 96, 256, 32, 32, 32, 2, dtype="bfloat16"),
    "split_k_gemm_element_atomic": lambda: splitk_matmul_elementwise_atomic(64, 96, 256, 32, 32, 32, 4,
                                                                           dtype="bfloat16"),
}
