"""TileLang kernels whose loops read or write DRAM element by element, as upstream tile-ai/tilelang writes them
(no `from __future__ import annotations`, which real TileLang's parser rejects):

- `gemm_schedule`: examples/gemm/example_gemm_schedule.py (its last version, before tile-ai/tilelang 1ede0bd74
  removed it), B's block read by a T.Parallel loop;
- `cpu_reduce_2d`, `cpu_reduce_3d`: testing/python/cpu/test_tilelang_cpu_reduce.py's `_make_kernel_2d` /
  `_make_kernel_3d` (T.grid loops between the tensors and T.alloc_local buffers around a T.reduce_*);
- `cpu_gemm`: testing/python/cpu/test_tilelang_cpu_gemm.py's `matmul` (a T.grid multiply-add over local buffers);
- `convolution`: examples/convolution/example_convolution.py before tile-ai/tilelang b9a5907a2 moved it to
  T.im2col (the non-Hopper path: an im2col T.Parallel load with a T.if_then_else bounds mask);
- stream-K is in tests/tt_streamk_kernel.py (upstream computes its schedule at module level);
- `dram_element`: one element of a DRAM tensor read as a value in a loop, as upstream's
  examples/attention_sink/example_mha_sink_fwd_bhsd.py fills its sinks (`sinks[i] = Sinks[by]`), and in an
  expression (`x[i, j] * Scale[by] + sinks[i]`);
- `alloc_multi_vars_with_initializer`: testing/python/language/test_tilelang_language_alloc.py's kernel of that name
  (`T.alloc_var` scalars with initializers, and a one-element DRAM-to-DRAM `T.copy` that its loop then overwrites).
"""

from typing import Any

import tilelang.language as T

__all__ = ["gemm_schedule", "cpu_reduce_2d", "cpu_reduce_3d", "cpu_gemm", "convolution", "elementwise_dram",
           "dram_element", "alloc_multi_vars_with_initializer",
           "element_copy_kept", "DRAM_LOOP_CORPUS"]


def gemm_schedule(M, N, K, block_M, block_N, block_K, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def gemm_schedule(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            # Enable rasterization for better L2 Cache Locality
            T.use_swizzle(panel_size=10)

            # Clear the local buffer
            T.clear(C_local)

            # Auto pipeline the computation
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A[by * block_M, ko * block_K], A_shared)

                # Instead of using
                # T.copy(B[k * block_K, bx * block_N], B_shared)
                # we can also use Parallel to auto map the thread
                # bindings and vectorize the copy operation.
                for k, j in T.Parallel(block_K, block_N):
                    B_shared[k, j] = B[ko * block_K + k, bx * block_N + j]

                T.gemm(A_shared, B_shared, C_local)

            T.copy(C_local, C[by * block_M, bx * block_N])

    return gemm_schedule


def _emit_reduce(T, op: str, src, dst, dim: int, clear: bool):
    if op == "sum":
        T.reduce_sum(src, dst, dim=dim, clear=clear)
    elif op == "max":
        T.reduce_max(src, dst, dim=dim, clear=clear)
    elif op == "min":
        T.reduce_min(src, dst, dim=dim, clear=clear)
    elif op == "abssum":
        T.reduce_abssum(src, dst, dim=dim)
    elif op == "absmax":
        T.reduce_absmax(src, dst, dim=dim, clear=clear)
    else:
        raise ValueError(op)


def cpu_reduce_2d(op: str, M: int, N: int, dim: int, dtype: str, clear: bool):
    legal = dim if dim >= 0 else 2 + dim
    dst_shape = (N,) if legal == 0 else (M,)

    @T.prim_func
    def main(
        A: T.Tensor((M, N), dtype),
        Init: T.Tensor(dst_shape, dtype),
        B: T.Tensor(dst_shape, dtype),
    ):
        with T.Kernel(1):
            src = T.alloc_local((M, N), dtype)
            dst = T.alloc_local(dst_shape, dtype)
            for i, j in T.grid(M, N):
                src[i, j] = A[i, j]
            for i in T.grid(dst_shape[0]):
                dst[i] = Init[i]
            _emit_reduce(T, op, src, dst, dim=legal, clear=clear)
            for i in T.grid(dst_shape[0]):
                B[i] = dst[i]

    return main


def cpu_reduce_3d(op: str, P: int, Q: int, R: int, dim: int, dtype: str):
    legal = dim if dim >= 0 else 3 + dim
    if legal == 0:
        dst_shape = (Q, R)
    elif legal == 1:
        dst_shape = (P, R)
    else:
        dst_shape = (P, Q)

    @T.prim_func
    def main(
        A: T.Tensor((P, Q, R), dtype),
        B: T.Tensor(dst_shape, dtype),
    ):
        with T.Kernel(1):
            src = T.alloc_local((P, Q, R), dtype)
            dst = T.alloc_local(dst_shape, dtype)
            for p, q, r in T.grid(P, Q, R):
                src[p, q, r] = A[p, q, r]
            _emit_reduce(T, op, src, dst, dim=legal, clear=True)
            if legal == 0:
                for q, r in T.grid(Q, R):
                    B[q, r] = dst[q, r]
            elif legal == 1:
                for p, r in T.grid(P, R):
                    B[p, r] = dst[p, r]
            else:
                for p, q in T.grid(P, Q):
                    B[p, q] = dst[p, q]

    return main


def cpu_gemm(M, N, K, block_M, block_N, block_K, dtype=T.float16, accum_dtype=T.float32):
    num_stages = 0

    @T.prim_func
    def matmul(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M)) as (bx, by):
            A_local = T.alloc_local((block_M, block_K), dtype)
            B_local = T.alloc_local((block_K, block_N), dtype)
            C_local = T.alloc_local((block_M, block_N), accum_dtype)

            T.clear(C_local)

            for ko in T.Pipelined(K // block_K, num_stages=num_stages):
                T.copy(A[by * block_M, ko * block_K], A_local)

                T.copy(B[ko * block_K, bx * block_N], B_local)

                for i, j, k in T.grid(block_M, block_N, block_K):
                    C_local[i, j] += A_local[i, k] * B_local[k, j]

            T.copy(C_local, C[by * block_M, bx * block_N])

    return matmul


def convolution(N, C, H, W, F, K, S, D, P, block_M, block_N, block_K, num_stages, threads, dtype=T.float16,
                accum_dtype=T.float32):
    KH, KW = K, K
    OH = (H + 2 * P - D * (K - 1) - 1) // S + 1
    OW = (W + 2 * P - D * (K - 1) - 1) // S + 1
    dtype = T.float16
    accum_dtype = T.float32
    is_hopper = False  # upstream's check_hopper() asks torch.cuda; the non-Hopper path is the portable one

    @T.prim_func
    def main(
        data: T.Tensor((N, H, W, C), dtype),
        kernel: T.Tensor((KH, KW, C, F), dtype),
        out: T.Tensor((N, OH, OW, F), dtype),
    ):
        with T.Kernel(T.ceildiv(F, block_N), T.ceildiv(N * OH * OW, block_M), threads=threads) as (bx, by):
            data_shared = T.alloc_shared((block_M, block_K), dtype)
            kernel_shared = T.alloc_shared((block_K, block_N), dtype)
            out_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            out_shared = T.alloc_shared((block_M, block_N), dtype)

            kernel_flat = T.Tensor((KH * KW * C, F), dtype, kernel.data)
            out_flat = T.Tensor((N * OH * OW, F), dtype, out.data)

            T.clear(out_local)
            for k_iter in T.Pipelined(T.ceildiv(KH * KW * C, block_K), num_stages=num_stages):
                if is_hopper:
                    T.c2d_im2col(data, data_shared, by, k_iter, KH, S, D, P)
                else:
                    for i, j in T.Parallel(block_M, block_K):
                        k = k_iter * block_K + j
                        m = by * block_M + i
                        access_h = m % (OH * OW) // OW * S + k // (KW * C) * D - P
                        access_w = m % OW * S + k // C % KW * D - P
                        in_bound = (access_h >= 0) and (access_w >= 0) and (access_h < H) and (access_w < W)
                        data_shared[i, j] = T.if_then_else(in_bound, data[m // (OH * OW), access_h, access_w, k % C], 0)
                T.copy(kernel_flat[k_iter * block_K, bx * block_N], kernel_shared)
                T.gemm(data_shared, kernel_shared, out_local)

            T.copy(out_local, out_shared)
            T.copy(out_shared, out_flat[by * block_M, bx * block_N])

    return main


def elementwise_dram(M, N, block_M, block_N, dtype="float32"):
    """C = exp(A + B) written straight over DRAM blocks in a T.Parallel loop (no T.copy, no on-chip buffer)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            for i, j in T.Parallel(block_M, block_N):
                C[by * block_M + i, bx * block_N + j] = T.exp(
                    A[by * block_M + i, bx * block_N + j] + B[by * block_M + i, bx * block_N + j])

    return main


def dram_element(heads, m, n, block_M, dtype=T.float32):
    @T.prim_func
    def main(X: T.Tensor((heads, m, n), dtype), Sinks: T.Tensor([heads], dtype), Scale: T.Tensor([heads], dtype),
             Y: T.Tensor((heads, m, n), dtype)):
        with T.Kernel(T.ceildiv(m, block_M), heads, threads=128) as (bx, by):
            x = T.alloc_fragment((block_M, n), dtype)
            sinks = T.alloc_fragment([block_M], dtype)
            T.copy(X[by, bx * block_M:(bx + 1) * block_M, :], x)
            for i in T.Parallel(block_M):
                sinks[i] = Sinks[by]
            for i, j in T.Parallel(block_M, n):
                x[i, j] = x[i, j] * Scale[by] + sinks[i]
            T.copy(x, Y[by, bx * block_M:(bx + 1) * block_M, :])

    return main


def alloc_multi_vars_with_initializer(N, block_N, dtype):
    @T.prim_func
    def main(
        A: T.Tensor((N,), dtype),
        B: T.Tensor((N,), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), threads=block_N) as bx:
            tmp0 = T.alloc_var(dtype, 1)
            tmp1 = T.alloc_var(dtype, 2)
            T.copy(A[bx * block_N], B[bx * block_N])
            for i in T.Parallel(block_N):
                B[bx * block_N + i] = tmp0 + tmp1

    return main


def element_copy_kept(N, block_N, dtype):
    """alloc_multi_vars_with_initializer with the loop writing all but the copied element: the copy is not dead."""

    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), threads=block_N) as bx:
            T.copy(A[bx * block_N], B[bx * block_N])
            for i in T.Parallel(block_N - 1):
                B[bx * block_N + 1 + i] = A[bx * block_N + 1 + i]

    return main


# The kernels of the codegen corpus (tests/tt_kernels.py CORPUS; tools/check_metal compiles them).
DRAM_LOOP_CORPUS: dict[str, Any] = {
    "dram_loop_gemm_schedule": lambda: gemm_schedule(128, 128, 128, 64, 64, 32),
    "dram_loop_cpu_reduce_sum": lambda: cpu_reduce_2d("sum", 32, 64, 1, "float32", True),
    "dram_loop_cpu_gemm": lambda: cpu_gemm(64, 64, 64, 32, 32, 32),
    "dram_loop_elementwise": lambda: elementwise_dram(64, 128, 32, 64),
    "dram_loop_convolution_1x1": lambda: convolution(1, 32, 4, 32, 32, 1, 1, 1, 0, 64, 32, 32, 2, 128),
    "dram_loop_element": lambda: dram_element(2, 64, 64, 32),
}

