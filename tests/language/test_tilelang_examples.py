"""Kernels written the way TileLang's examples write them (examples/norm, online_softmax, flash_attention,
gemm_splitk, cumsum, ...), small sizes, run on llvm against numpy."""

import numpy as np
import pytest
from tt_split_k_kernels import splitk_matmul, splitk_matmul_elementwise_atomic  # noqa: F401  (shared with the TT tests)

import tilelang
import tilelang.language as T

RNG = np.random.default_rng(3)


@tilelang.jit(out_idx=[-1], target="llvm")
def rms_norm(M, N, blk_m, eps=1e-6):
    dtype = "float"

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            A_shared = T.alloc_shared((blk_m, N), dtype)
            A_pow_local = T.alloc_fragment((blk_m, N), dtype)
            A_local = T.alloc_fragment((blk_m, N), dtype)
            A_powsum = T.alloc_fragment((blk_m,), dtype)

            T.copy(A[bx * blk_m:(bx + 1) * blk_m, :], A_shared)
            T.copy(A_shared, A_local)
            for i, j in T.Parallel(blk_m, N):
                A_pow_local[i, j] = A_local[i, j] * A_local[i, j]
            T.reduce_sum(A_pow_local, A_powsum, dim=1)
            for i in T.Parallel(blk_m):
                A_powsum[i] = T.rsqrt(A_powsum[i] / N + eps)
            for i, j in T.Parallel(blk_m, N):
                A_local[i, j] *= A_powsum[i]
            T.copy(A_local, B[bx * blk_m:(bx + 1) * blk_m, :])

    return main


@tilelang.jit(out_idx=[-1], target="llvm")
def layer_norm(M, N, blk_m, eps=1e-5):
    dtype = "float"

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), W: T.Tensor((N,), dtype), Bias: T.Tensor((N,), dtype),
             Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            x = T.alloc_fragment((blk_m, N), dtype)
            sq = T.alloc_fragment((blk_m, N), dtype)
            mean = T.alloc_fragment((blk_m,), dtype)
            var = T.alloc_fragment((blk_m,), dtype)
            T.copy(X[bx * blk_m, 0], x)
            T.reduce_sum(x, mean, dim=1)
            for i in T.Parallel(blk_m):
                mean[i] = mean[i] / N
            for i, j in T.Parallel(blk_m, N):
                sq[i, j] = (x[i, j] - mean[i]) * (x[i, j] - mean[i])
            T.reduce_sum(sq, var, dim=1)
            for i, j in T.Parallel(blk_m, N):
                x[i, j] = (x[i, j] - mean[i]) * T.rsqrt(var[i] / N + eps) * W[j] + Bias[j]
            T.copy(x, Y[bx * blk_m, 0])

    return main


@tilelang.jit(out_idx=[-1], target="llvm")
def softmax(M, N, blk_m):
    dtype = "float"
    scale = 1.44269504  # log2(e)

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            x = T.alloc_fragment((blk_m, N), dtype)
            row_max = T.alloc_fragment((blk_m,), dtype)
            row_sum = T.alloc_fragment((blk_m,), dtype)
            T.copy(X[bx * blk_m, 0], x)
            T.reduce_max(x, row_max, dim=1)
            for i, j in T.Parallel(blk_m, N):
                x[i, j] = T.exp2(x[i, j] * scale - row_max[i] * scale)
            T.reduce_sum(x, row_sum, dim=1)
            for i, j in T.Parallel(blk_m, N):
                x[i, j] = x[i, j] / row_sum[i]
            T.copy(x, Y[bx * blk_m, 0])

    return main


@tilelang.jit(out_idx=[-1], target="llvm")
def online_softmax(M, N, blk_m, blk_n):
    dtype = "float"
    scale = 1.44269504

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            x = T.alloc_fragment((blk_m, blk_n), dtype)
            lse = T.alloc_fragment((blk_m,), dtype)
            max_x = T.alloc_fragment((blk_m,), dtype)
            max_prev = T.alloc_fragment((blk_m,), dtype)
            exp_sum = T.alloc_fragment((blk_m,), dtype)
            T.fill(lse, 0)
            T.fill(max_x, -T.infinity(dtype))
            for k in T.Pipelined(T.ceildiv(N, blk_n), num_stages=1):
                T.copy(X[bx * blk_m, k * blk_n], x)
                T.copy(max_x, max_prev)
                T.reduce_max(x, max_x, dim=1, clear=False)
                for i, j in T.Parallel(blk_m, blk_n):
                    x[i, j] = T.exp2(x[i, j] * scale - max_x[i] * scale)
                T.reduce_sum(x, exp_sum, dim=1)
                for i in T.Parallel(blk_m):
                    lse[i] = lse[i] * T.exp2(max_prev[i] * scale - max_x[i] * scale) + exp_sum[i]
            for k in T.serial(T.ceildiv(N, blk_n)):
                T.copy(X[bx * blk_m, k * blk_n], x)
                for i, j in T.Parallel(blk_m, blk_n):
                    x[i, j] = T.exp2(x[i, j] * scale - max_x[i] * scale) / lse[i]
                T.copy(x, Y[bx * blk_m, k * blk_n])

    return main


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_rms_norm():
    a = RNG.standard_normal((32, 48)).astype("float32")
    ref = a / np.sqrt((a * a).mean(1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(rms_norm(32, 48, 8)(a), ref, rtol=1e-4, atol=1e-5)


def test_layer_norm():
    x = RNG.standard_normal((16, 40)).astype("float32")
    w, b = RNG.standard_normal(40).astype("float32"), RNG.standard_normal(40).astype("float32")
    ref = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(layer_norm(16, 40, 4)(x, w, b), ref, rtol=1e-4, atol=1e-4)


def test_softmax_and_online_softmax():
    x = RNG.standard_normal((16, 64)).astype("float32") * 3
    np.testing.assert_allclose(softmax(16, 64, 8)(x), _softmax(x), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(online_softmax(16, 64, 8, 16)(x), _softmax(x), rtol=1e-4, atol=1e-6)


def test_split_k_gemm_with_tile_and_element_atomics():
    a = RNG.standard_normal((32, 64)).astype("float16")
    bt = RNG.standard_normal((48, 64)).astype("float16")
    c = np.zeros((32, 48), "float32")
    tilelang.compile(splitk_matmul(32, 48, 64, 16, 16, 16, 4), target="llvm")(a, bt, c)
    np.testing.assert_allclose(c, a.astype("float32") @ bt.astype("float32").T, rtol=1e-3, atol=1e-3)
    b = np.ascontiguousarray(bt.T)
    c2 = np.zeros((32, 48), "float32")
    tilelang.compile(splitk_matmul_elementwise_atomic(32, 48, 64, 16, 16, 16, 2), target="llvm")(a, b, c2)
    np.testing.assert_allclose(c2, a.astype("float32") @ b.astype("float32"), rtol=1e-3, atol=1e-3)


@tilelang.jit(out_idx=[-1], target="llvm")
def cumsum_kernel(M, N, block_M, block_N, dim, reverse, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], A_shared)
            T.cumsum(src=A_shared, dim=dim, reverse=reverse)
            T.copy(A_shared, B[by * block_M, bx * block_N])

    return main


@pytest.mark.parametrize("dim, reverse", [(0, False), (1, True)])
def test_block_cumsum(dim, reverse):
    a = RNG.standard_normal((16, 32)).astype("float32")
    tiles = a.reshape(2, 8, 2, 16).transpose(0, 2, 1, 3)  # (by, bx, 8, 16)
    axis = 2 + dim
    ref = np.flip(np.cumsum(np.flip(tiles, axis), axis), axis) if reverse else np.cumsum(tiles, axis)
    np.testing.assert_allclose(cumsum_kernel(16, 32, 8, 16, dim, reverse)(a),
                               ref.transpose(0, 2, 1, 3).reshape(16, 32), rtol=1e-5, atol=1e-5)


@tilelang.jit(out_idx=[-2, -1], target="llvm")
def per_row_int8_quant(M, N, blk_m):
    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Q: T.Tensor((M, N), T.int8), S: T.Tensor((M,), T.float32)):
        with T.Kernel(T.ceildiv(M, blk_m)) as bx:
            x = T.alloc_fragment((blk_m, N), T.float32)
            amax = T.alloc_fragment((blk_m,), T.float32)
            T.copy(X[bx * blk_m, 0], x)
            T.reduce_absmax(x, amax, dim=1)
            for i, j in T.Parallel(blk_m, N):
                Q[bx * blk_m + i, j] = T.Cast(T.int8, T.clamp(T.round(x[i, j] * 127.0 / amax[i]), -127.0, 127.0))
            for i in T.Parallel(blk_m):
                S[bx * blk_m + i] = amax[i] / 127.0

    return main


def test_per_row_absmax_int8_quantization():
    x = RNG.standard_normal((8, 32)).astype("float32")
    q, s = per_row_int8_quant(8, 32, 4)(x)
    amax = np.abs(x).max(1)
    np.testing.assert_allclose(s, amax / 127, rtol=1e-6)
    np.testing.assert_array_equal(q, np.clip(np.round(x * 127 / amax[:, None]), -127, 127).astype("int8"))


@tilelang.jit(out_idx=[-1], target="llvm")
def row_argmax(M, N):
    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Idx: T.Tensor((M,), T.int32)):
        with T.Kernel(M) as row:
            best = T.alloc_var(T.float32, init=-T.infinity(T.float32))
            best_idx = T.alloc_var(T.int32, init=0)
            for j in T.serial(N):
                if X[row, j] > best:
                    best = X[row, j]
                    best_idx = j
            Idx[row] = best_idx

    return main


def test_row_argmax_with_alloc_var():
    x = RNG.standard_normal((6, 20)).astype("float32")
    np.testing.assert_array_equal(row_argmax(6, 20)(x), x.argmax(1))


@tilelang.jit(out_idx=[-1], target="llvm")
def gemv(N, K, block_N, block_K, dtype="float16", accum_dtype="float"):
    @T.prim_func
    def main(A: T.Tensor((K,), dtype), B: T.Tensor((N, K), dtype), C: T.Tensor((N,), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), threads=128) as bn:
            a = T.alloc_fragment((block_K,), dtype)
            b = T.alloc_fragment((block_N, block_K), dtype)
            prod = T.alloc_fragment((block_N, block_K), accum_dtype)
            acc = T.alloc_fragment((block_N,), accum_dtype)
            T.clear(acc)
            for bk in T.serial(T.ceildiv(K, block_K)):
                T.copy(A[bk * block_K], a)
                T.copy(B[bn * block_N, bk * block_K], b)
                for i, k in T.Parallel(block_N, block_K):
                    prod[i, k] = T.Cast(accum_dtype, a[k]) * T.Cast(accum_dtype, b[i, k])
                T.reduce_sum(prod, acc, dim=1, clear=False)
            T.copy(acc, C[bn * block_N])

    return main


def test_gemv_accumulating_reductions():
    a, b = RNG.standard_normal(64).astype("float16"), RNG.standard_normal((40, 64)).astype("float16")
    np.testing.assert_allclose(gemv(40, 64, 8, 16)(a, b), b.astype("float32") @ a.astype("float32"), rtol=1e-3,
                               atol=1e-3)


@tilelang.jit
def eager_rms_norm(A, blk_m: int = 4, eps: float = 1e-6):
    M, N = T.const("M, N")
    A: T.Tensor((M, N), T.float32)
    B = T.empty((M, N), T.float32)
    with T.Kernel(T.ceildiv(M, blk_m)) as bx:
        x = T.alloc_fragment((blk_m, N), T.float32)
        sq = T.alloc_fragment((blk_m, N), T.float32)
        ss = T.alloc_fragment((blk_m,), T.float32)
        T.copy(A[bx * blk_m, 0], x)
        for i, j in T.Parallel(blk_m, N):
            sq[i, j] = x[i, j] * x[i, j]
        T.reduce_sum(sq, ss, dim=1)
        for i, j in T.Parallel(blk_m, N):
            x[i, j] = x[i, j] * T.rsqrt(ss[i] / N + eps)
        T.copy(x, B[bx * blk_m, 0])
    return B


def test_eager_rms_norm_called_and_compiled():
    a = RNG.standard_normal((8, 24)).astype("float32")
    ref = a / np.sqrt((a * a).mean(1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(eager_rms_norm(a), ref, rtol=1e-4, atol=1e-5)
    kernel = eager_rms_norm.compile(M=8, N=24, blk_m=2)
    np.testing.assert_allclose(kernel(a), ref, rtol=1e-4, atol=1e-5)
    profiler = kernel.get_profiler()
    profiler.assert_allclose(lambda x: x / np.sqrt((x * x).mean(1, keepdims=True) + 1e-6), atol=1e-4, rtol=1e-4)
