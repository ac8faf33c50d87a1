"""TileLang kernels the Tenstorrent tests lower: the two standard kernels (verbatim, from
test_language_llvm) plus element-wise and GEMM-epilogue kernels written in the same style."""

from __future__ import annotations

from test_language_llvm import elementwise_add, matmul

import tilelang.language as T

__all__ = ["matmul", "elementwise_add", "elementwise_binary", "elementwise_unary", "matmul_bias_relu"]


def elementwise_binary(M, N, block_M, block_N, op, dtype="bfloat16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), dtype)
            B_shared = T.alloc_shared((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], A_shared)
            T.copy(B[by * block_M, bx * block_N], B_shared)
            for (i, j) in T.Parallel(block_M, block_N):
                if op == "add":
                    C_local[i, j] = A_shared[i, j] + B_shared[i, j]
                elif op == "sub":
                    C_local[i, j] = A_shared[i, j] - B_shared[i, j]
                else:
                    C_local[i, j] = A_shared[i, j] * B_shared[i, j]
            T.copy(C_local, C[by * block_M, bx * block_N])
    return main


def elementwise_unary(M, N, block_M, block_N, op, dtype="bfloat16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], A_shared)
            for (i, j) in T.Parallel(block_M, block_N):
                if op == "exp":
                    C_local[i, j] = T.exp(A_shared[i, j])
                else:
                    C_local[i, j] = T.max(A_shared[i, j], T.cast(0, dtype))
            T.copy(C_local, C[by * block_M, bx * block_N])
    return main


def matmul_bias_relu(M, N, K, block_M, block_N, block_K, dtype="bfloat16", accum_dtype="float"):
    """D = relu(A @ B + Bias), Bias of the output's shape (a residual-style bias)."""

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), Bias: T.Tensor((M, N), dtype),
             D: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            Bias_shared = T.alloc_shared((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            D_local = T.alloc_fragment((block_M, block_N), dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(Bias[by * block_M, bx * block_N], Bias_shared)
            for (i, j) in T.Parallel(block_M, block_N):
                D_local[i, j] = T.max(C_local[i, j] + Bias_shared[i, j], T.cast(0, accum_dtype))
            T.copy(D_local, D[by * block_M, bx * block_N])
    return main
