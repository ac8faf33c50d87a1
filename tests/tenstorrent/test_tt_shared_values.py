"""Element-wise stores that read a value more than once (`x * x`, or a buffer two stores read): the value stays
in its CB while its readers run, each reads tile t at index t, and its last reader frees the block. Results against
numpy: bf16 inputs from U(-1, 1); every element-wise result rounds once to bf16 per op, so each op adds at most
2^-8 relative error (bound 2^-6 * max|ref| over the chains below)."""

from __future__ import annotations

import shutil

import ml_dtypes
import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def square_then_scale(M, N, block_M, block_N, dtype="bfloat16"):
    """P = A * A (the pow of rms_norm), then D = P * A: A is read twice by one store and once more by the next."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), D: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), dtype)
            P_local = T.alloc_fragment((block_M, block_N), dtype)
            D_local = T.alloc_fragment((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], A_shared)
            for i, j in T.Parallel(block_M, block_N):
                P_local[i, j] = A_shared[i, j] * A_shared[i, j]
            for i, j in T.Parallel(block_M, block_N):
                D_local[i, j] = P_local[i, j] * A_shared[i, j]
            T.copy(D_local, D[by * block_M, bx * block_N])
    return main


def exp_and_shift(M, N, block, dtype="bfloat16"):
    """E = exp(X), then Y = E - X, then Z = relu(Y + E): X and E are each read by two stores."""

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Z: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            X_shared = T.alloc_shared((block, block), dtype)
            E = T.alloc_fragment((block, block), dtype)
            Y = T.alloc_fragment((block, block), dtype)
            Z_local = T.alloc_fragment((block, block), dtype)
            T.copy(X[by * block, bx * block], X_shared)
            for i, j in T.Parallel(block, block):
                E[i, j] = T.exp(X_shared[i, j])
            for i, j in T.Parallel(block, block):
                Y[i, j] = E[i, j] - X_shared[i, j]
            for i, j in T.Parallel(block, block):
                Z_local[i, j] = T.max(Y[i, j] + E[i, j], T.cast(0, dtype))
            T.copy(Z_local, Z[by * block, bx * block])
    return main


def uniform(shape: tuple[int, int], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(BF16)


def check(got: np.ndarray, ref: np.ndarray) -> None:
    err = float(np.abs(got.astype(np.float32) - ref).max())
    assert err <= 2.0**-6 * float(np.abs(ref).max()), err


def test_a_value_read_twice_by_one_store_and_again_by_the_next() -> None:
    kernel = tilelang.compile(square_then_scale(64, 128, 32, 64), out_idx=[-1], target="tenstorrent")
    a = uniform((64, 128), 1)
    a32 = a.astype(np.float32)
    check(kernel(a), (a32 * a32).astype(BF16).astype(np.float32) * a32)
    assert kernel.last_report["status"] == "ok"
    plan = kernel.artifact.rt_mod.plan
    assert [cb["buffer"] for cb in plan["cbs"] if cb["class"] == "input"] == ["A_shared"]


def test_values_shared_by_several_stores_with_an_sfpu_reader() -> None:
    kernel = tilelang.compile(exp_and_shift(64, 64, 32), out_idx=[-1], target="tenstorrent")
    x = uniform((64, 64), 2)
    x32 = x.astype(np.float32)
    e = np.exp(x32).astype(BF16).astype(np.float32)
    y = (e - x32).astype(BF16).astype(np.float32)
    check(kernel(x), np.maximum(y + e, 0))


def test_values_gemms_and_a_store_share() -> None:
    """Upstream retention's operands (examples/linear_attention/example_retention_fwd.py): q feeds q @ k^T and
    q @ h, k feeds q @ k^T and k^T @ v; here q also feeds a store. Each value stays in its CB for all its readers (a
    gemm waits for and frees an operand by the same flags as a store, matmul_block's wait0/pop0), fp16 at 64x64."""

    @T.prim_func
    def main(Q: T.Tensor((64, 64), "float16"), K: T.Tensor((64, 64), "float16"), V: T.Tensor((64, 64), "float16"),
             S: T.Tensor((64, 64), "float32"), P: T.Tensor((64, 64), "float32"), H: T.Tensor((64, 64), "float32"),
             E: T.Tensor((64, 64), "float16")):
        with T.Kernel(1, threads=128) as bx:
            q = T.alloc_shared((64, 64), "float16")
            k = T.alloc_shared((64, 64), "float16")
            v = T.alloc_shared((64, 64), "float16")
            e = T.alloc_fragment((64, 64), "float16")
            s = T.alloc_fragment((64, 64), "float32")
            o = T.alloc_fragment((64, 64), "float32")
            h = T.alloc_fragment((64, 64), "float32")
            T.copy(Q[bx * 64, 0], q)
            T.copy(K[0, 0], k)
            T.copy(V[0, 0], v)
            for i, j in T.Parallel(64, 64):
                e[i, j] = q[i, j] + v[i, j]
            T.gemm(q, k, s, clear_accum=True, transpose_B=True)
            T.gemm(q, v, o, clear_accum=True)
            T.gemm(k, v, h, clear_accum=True, transpose_A=True)
            T.copy(s, S[bx * 64, 0])
            T.copy(o, P[bx * 64, 0])
            T.copy(h, H[0, 0])
            T.copy(e, E[bx * 64, 0])

    kernel = tilelang.compile(main, out_idx=[3, 4, 5, 6], target="tenstorrent")
    rng = np.random.default_rng(5)
    q, k, v = (rng.uniform(-1, 1, (64, 64)).astype(np.float16) for _ in range(3))
    s, o, h, e = kernel(q, k, v)
    q32, k32, v32 = (x.astype(np.float32) for x in (q, k, v))
    for got, want in ((s, q32 @ k32.T), (o, q32 @ v32), (h, k32.T @ v32)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(e.astype(np.float32), q32 + v32, rtol=2.0**-10, atol=2.0**-10)
    assert kernel.last_report["status"] == "ok"


def test_a_value_a_gemm_and_the_writer_both_read_is_refused_naming_them() -> None:
    @T.prim_func
    def main(A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16"),
             D: T.Tensor((64, 64), "bfloat16")):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 64), "bfloat16")
            B_s = T.alloc_shared((64, 64), "bfloat16")
            C_l = T.alloc_fragment((64, 64), "float")
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            T.copy(A_s, D[0, 0])
            T.clear(C_l)
            T.gemm(A_s, B_s, C_l)
            T.copy(C_l, C[0, 0])
    with pytest.raises(TileLangError, match=r"on-chip buffer 'A_s' is read by 2 tile operations \(copy_out, gemm\); "
                                            r"only element-wise stores, reductions, T.cumsum, T.gemm and index"):
        tilelang.lower(main, target="tenstorrent")
