"""Padding masks (issue 28, index_masks_padding.cc): a row reduction over a block whose columns are not whole tiles
reads the block's padded columns; where the host's pad value cannot make them the reduction's identity, the compute
kernel masks them (T.if_then_else(j < N, S[i, j], identity) before the reduction). Each kernel here runs at ragged
sizes in the emulator against numpy: layer_norm's sum of (x - mean) ** 2 (masked in place), a row sum and a row
maximum of one block, and a row minimum and maximum of one block (each masked into a block of its own), and the row
minimum of a gemm's product (masked in place)."""

from __future__ import annotations

import shutil
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from tt_norm_kernels import layer_norm

import tilelang
import tilelang.language as T

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def two_reductions(m: int, n: int, first: str, second: str) -> Any:
    """One block read by two row reductions (`first`, `second`: sum, max or min) with no write between them."""
    reduce = {"sum": T.reduce_sum, "max": T.reduce_max, "min": T.reduce_min}

    @T.prim_func
    def main(X: T.Tensor((m, n), "float"), A: T.Tensor((m,), "float"), B: T.Tensor((m,), "float")):
        with T.Kernel(T.ceildiv(m, 32), threads=128) as bx:
            x = T.alloc_fragment((32, n), "float")
            a = T.alloc_fragment((32,), "float")
            b = T.alloc_fragment((32,), "float")
            T.copy(X[bx * 32, 0], x)
            reduce[first](x, a, dim=1)
            reduce[second](x, b, dim=1)
            T.copy(a, A[bx * 32:(bx + 1) * 32])
            T.copy(b, B[bx * 32:(bx + 1) * 32])

    return main


def _masks(kernel: Any) -> list[tuple[float, float]]:
    """The index-mask tables the kernel's host plan fills (one per padding mask here): their (on_true, on_false)."""
    plan = kernel.artifact.rt_mod.plan
    tables = [t["constant"]["mask"] for t in plan["tensors"] if "mask" in t.get("constant", {})]
    return sorted((m["on_true"], m["on_false"]) for m in tables)


@pytest.mark.parametrize("m,blk_m", [(64, 32), (40, 1)])
def test_layer_norm_at_ragged_columns_matches_numpy(m: int, blk_m: int) -> None:
    """N = 200 (6.25 tiles): sq = (x - mean[i]) ** 2 holds (pad - mean) ** 2 in its padding; masked to 0. blk_m = 1:
    [1, N] row blocks, where the vector is read as mean[0]."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((m, 200)).astype(np.float32) + 2
    w, b = rng.standard_normal(200).astype(np.float32), rng.standard_normal(200).astype(np.float32)
    kernel = tilelang.compile(layer_norm(m, 200, blk_m), out_idx=[-1], target="tenstorrent")
    mean = x.mean(1, keepdims=True)
    want = (x - mean) / np.sqrt(((x - mean) ** 2).mean(1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(kernel(x, w, b), want, rtol=1e-4, atol=1e-5)
    assert _masks(kernel) == [(1.0, 0.0)]  # sq * table: 1 in the logical columns, 0 in the padded ones


@pytest.mark.parametrize("first,second", [("sum", "max"), ("min", "max")])
def test_two_reductions_of_one_ragged_block_match_numpy(first: str, second: str) -> None:
    """Positive data (the sum and the minimum differ from what a 0 or -inf padding would give)."""
    x = np.random.default_rng(9).uniform(1, 2, (100, 200)).astype(np.float32)
    kernel = tilelang.compile(two_reductions(100, 200, first, second), out_idx=[-2, -1], target="tenstorrent")
    a, b = kernel(x)
    ref = {"sum": x.sum(1), "max": x.max(1), "min": x.min(1)}
    np.testing.assert_allclose(a, ref[first], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(b, ref[second], rtol=1e-5, atol=1e-5)
    tables = {"sum": (1.0, 0.0), "max": (0.0, -np.inf), "min": (0.0, np.inf)}  # x * table, x + table, x + table
    assert _masks(kernel) == sorted([tables[first], tables[second]])


def gemm_row_min(m: int, n: int, k: int) -> Any:
    """The row minima of A @ B with N not whole tiles: the product's padded columns hold A times B's padding columns."""

    @T.prim_func
    def main(A: T.Tensor((m, k), "bfloat16"), B: T.Tensor((k, n), "bfloat16"), R: T.Tensor((m,), "float")):
        with T.Kernel(T.ceildiv(m, 32), threads=128) as bx:
            a = T.alloc_shared((32, k), "bfloat16")
            b = T.alloc_shared((k, n), "bfloat16")
            c = T.alloc_fragment((32, n), "float")
            r = T.alloc_fragment((32,), "float")
            T.copy(A[bx * 32, 0], a)
            T.copy(B[0, 0], b)
            T.gemm(a, b, c, clear_accum=True)
            T.reduce_min(c, r, dim=1)
            T.copy(r, R[bx * 32:(bx + 1) * 32])

    return main


def test_row_minimum_of_a_ragged_gemm_product_matches_numpy() -> None:
    """N = 48: the padded columns of the product hold 0 (B's zero padding), below every positive logical element; the
    mask makes them +inf in place."""
    rng = np.random.default_rng(4)
    a = rng.uniform(0.5, 1, (64, 32)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(0.5, 1, (32, 48)).astype(ml_dtypes.bfloat16)
    kernel = tilelang.compile(gemm_row_min(64, 48, 32), out_idx=[-1], target="tenstorrent")
    want = (a.astype(np.float32) @ b.astype(np.float32)).min(1)
    np.testing.assert_allclose(kernel(a, b), want, rtol=1e-2)
    assert _masks(kernel) == [(0.0, np.inf)]


def offset_sum(m: int, n: int, dim: int) -> Any:
    """A sum of x + 1 over one [m, n] block, along its rows (dim=1) or its columns (dim=0): its padding holds pad + 1,
    which no pad value of X makes 0."""
    size = n if dim == 0 else m

    @T.prim_func
    def main(X: T.Tensor((m, n), "float"), S: T.Tensor((size,), "float")):
        with T.Kernel(1, threads=128):
            x = T.alloc_fragment((m, n), "float")
            s = T.alloc_fragment((size,), "float")
            T.copy(X[0, 0], x)
            for i, j in T.Parallel(m, n):
                x[i, j] = x[i, j] + 1.0
            T.reduce_sum(x, s, dim=dim)
            T.copy(s, S[0])

    return main


@pytest.mark.parametrize("dim,m,n", [(1, 64, 40), (0, 100, 64)])
def test_sum_of_an_offset_value_over_ragged_padding_matches_numpy(dim: int, m: int, n: int) -> None:
    """A row sum over 40 columns and a column sum (a transpose, then a row sum) over 100 rows: masked to 0 in place
    (the padding check refused both before)."""
    x = np.random.default_rng(5).uniform(-1, 1, (m, n)).astype(np.float32)
    kernel = tilelang.compile(offset_sum(m, n, dim), out_idx=[-1], target="tenstorrent")
    np.testing.assert_allclose(kernel(x), (x + 1).sum(dim), rtol=1e-5, atol=1e-4)
    assert _masks(kernel) == [(1.0, 0.0)]


def gemm_column_max(m: int, n: int, k: int) -> Any:
    """The column maxima of A @ B with M not whole tiles: the product's padded rows hold A's padding rows times B."""

    @T.prim_func
    def main(A: T.Tensor((m, k), "bfloat16"), B: T.Tensor((k, n), "bfloat16"), R: T.Tensor((n,), "float")):
        with T.Kernel(1, threads=128):
            a = T.alloc_shared((m, k), "bfloat16")
            b = T.alloc_shared((k, n), "bfloat16")
            c = T.alloc_fragment((m, n), "float")
            r = T.alloc_fragment((n,), "float")
            T.copy(A[0, 0], a)
            T.copy(B[0, 0], b)
            T.gemm(a, b, c, clear_accum=True)
            T.reduce_max(c, r, dim=0)
            T.copy(r, R[0])

    return main


def test_column_maximum_of_a_ragged_gemm_product_matches_numpy() -> None:
    """M = 40: the product's padded rows hold 0 (A's zero padding), above every negative logical element; the mask
    makes them -inf in place before the transpose."""
    rng = np.random.default_rng(6)
    a = rng.uniform(-1, -0.5, (40, 32)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(0.5, 1, (32, 64)).astype(ml_dtypes.bfloat16)
    kernel = tilelang.compile(gemm_column_max(40, 64, 32), out_idx=[-1], target="tenstorrent")
    want = (a.astype(np.float32) @ b.astype(np.float32)).max(0)
    np.testing.assert_allclose(kernel(a, b), want, rtol=1e-2)
    assert _masks(kernel) == [(0.0, -np.inf)]
