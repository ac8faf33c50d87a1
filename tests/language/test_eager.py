"""The eager style of TileLang's examples (`T.const`, body annotations, `T.empty`, `@tilelang.jit` on a function of
tensors, `jit_fn.compile(M=...)`), run on llvm against numpy; tensors in/out as numpy, tvm and torch (if present)."""

from __future__ import annotations

import numpy as np
import pytest
import tvm

import tilelang
import tilelang.language as T
from tilelang.language import TileLangError

RNG = np.random.default_rng(2)


@tilelang.jit
def matmul(A, B, block_M, block_N, block_K, dtype=T.float16, accum_dtype=T.float32):
    M, N, K = T.const("M, N, K")

    A: T.Tensor((M, K), dtype)
    B: T.Tensor((K, N), dtype)
    C = T.empty((M, N), dtype)

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        A_shared = T.alloc_shared((block_M, block_K), dtype)
        B_shared = T.alloc_shared((block_K, block_N), dtype)
        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

        T.clear(C_local)
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
            T.copy(A[by * block_M, k * block_K], A_shared)
            T.copy(B[k * block_K, bx * block_N], B_shared)
            T.gemm(A_shared, B_shared, C_local)

        T.copy(C_local, C[by * block_M, bx * block_N])

    return C


@tilelang.jit
def elementwise_add(A, B, block_M: int = 32, block_N: int = 32, threads: int = 128, dtype: T.dtype = T.float32):
    M, N = T.const("M, N")
    A: T.Tensor((M, N), dtype)
    B: T.Tensor((M, N), dtype)
    C = T.empty((M, N), dtype)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
        for local_y, local_x in T.Parallel(block_M, block_N):
            y = by * block_M + local_y
            x = bx * block_N + local_x
            if y < M and x < N:
                C[y, x] = A[y, x] + B[y, x]
    return C


@tilelang.jit
def row_stats(X, block_M: int = 8):
    M, N = T.const("M, N")
    X: T.Tensor((M, N), T.float32)
    Mean = T.empty((M,), T.float32)
    Peak = T.empty((M,), T.float32)
    with T.Kernel(T.ceildiv(M, block_M)) as bx:
        x = T.alloc_fragment((block_M, N), T.float32)
        s = T.alloc_fragment((block_M,), T.float32)
        p = T.alloc_fragment((block_M,), T.float32)
        T.copy(X[bx * block_M, 0], x)
        T.reduce_sum(x, s, dim=1)
        T.reduce_absmax(x, p, dim=1)
        for i in T.Parallel(block_M):
            s[i] = s[i] / N
        T.copy(s, Mean[bx * block_M])
        T.copy(p, Peak[bx * block_M])
    return Mean, Peak


def _ref_mm(a, b):
    return a.astype("float32") @ b.astype("float32")


def test_eager_gemm_binds_shapes_at_the_first_call_and_caches_per_shape():
    a, b = RNG.random((64, 48), dtype="float32").astype("float16"), RNG.random((48, 32)).astype("float16")
    c = matmul(a, b, 32, 32, 16)
    np.testing.assert_allclose(c.astype("float32"), _ref_mm(a, b), rtol=1e-2, atol=5e-2)
    assert len(matmul.cache) == 1
    matmul(a, b, 32, 32, 16)
    assert len(matmul.cache) == 1
    a2 = RNG.random((32, 48)).astype("float16")
    np.testing.assert_allclose(matmul(a2, b, 32, 32, 16).astype("float32"), _ref_mm(a2, b), rtol=1e-2, atol=5e-2)
    assert len(matmul.cache) == 2


def test_eager_compile_with_constants_and_get_tir():
    kernel = matmul.compile(M=64, N=32, K=48, block_M=32, block_N=32, block_K=16)
    assert [p.name for p in kernel.params] == ["A", "B", "C"] and kernel.params[2].shape == (64, 32)
    a, b = RNG.random((64, 48)).astype("float16"), RNG.random((48, 32)).astype("float16")
    np.testing.assert_allclose(kernel(a, b).astype("float32"), _ref_mm(a, b), rtol=1e-2, atol=5e-2)
    tir = matmul.get_tir(M=64, N=32, K=48, block_M=32, block_N=32, block_K=16)
    assert "T.tile.gemm" in tir.script()


def test_eager_elementwise_with_defaults_and_a_ragged_shape():
    a, b = RNG.random((40, 72)).astype("float32"), RNG.random((40, 72)).astype("float32")
    np.testing.assert_allclose(elementwise_add(a, b), a + b)
    np.testing.assert_allclose(elementwise_add(a, b, block_M=16, block_N=64), a + b)


def test_eager_kernel_with_two_outputs_returns_both():
    x = RNG.standard_normal((16, 24)).astype("float32")
    mean, peak = row_stats(x)
    np.testing.assert_allclose(mean, x.mean(1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(peak, np.abs(x).max(1), rtol=1e-6)


def test_eager_errors_name_the_problem():
    a = RNG.random((64, 48)).astype("float16")
    with pytest.raises(TileLangError, match=r"K is 48 from an earlier tensor but 'B' has shape \(32, 32\)"):
        matmul(a, RNG.random((32, 32)).astype("float16"), 32, 32, 16)
    with pytest.raises(TileLangError, match=r"'A' must be float16, got float32"):
        matmul(a.astype("float32"), RNG.random((48, 32)).astype("float16"), 32, 32, 16)
    with pytest.raises(TileLangError, match=r"no value for K \(call it on tensors, or give compile\(K=...\)\)"):
        matmul.compile(M=64, N=32, block_M=32, block_N=32, block_K=16)


def test_dlpack_tensors_in_and_out():
    a, b = RNG.random((40, 72)).astype("float32"), RNG.random((40, 72)).astype("float32")
    c = elementwise_add(tvm.runtime.tensor(a), tvm.runtime.tensor(b))
    assert isinstance(c, tvm.runtime.Tensor)
    np.testing.assert_allclose(c.numpy(), a + b)


def test_torch_cpu_tensors_in_and_out():
    torch = pytest.importorskip("torch")
    a, b = torch.randn(40, 72), torch.randn(40, 72)
    c = elementwise_add(a, b)
    assert isinstance(c, torch.Tensor)
    torch.testing.assert_close(c, a + b)
    x, y = torch.randn(64, 48).half(), torch.randn(48, 32).half()
    torch.testing.assert_close(matmul(x, y, 32, 32, 16).float(), x.float() @ y.float(), rtol=1e-2, atol=5e-2)


def test_dlpack_tensors_are_written_in_place_without_out_idx():
    @T.prim_func
    def double(A: T.Tensor((8, 8), T.float32), B: T.Tensor((8, 8), T.float32)):
        with T.Kernel(1) as _:
            for i, j in T.Parallel(8, 8):
                B[i, j] = A[i, j] * 2

    a = RNG.random((8, 8)).astype("float32")
    b = tvm.runtime.tensor(np.zeros((8, 8), "float32"))
    assert tilelang.compile(double, target="llvm")(tvm.runtime.tensor(a), b) is None
    np.testing.assert_allclose(b.numpy(), a * 2)
