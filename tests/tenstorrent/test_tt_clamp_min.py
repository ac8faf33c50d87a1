"""Bounds and minima on Tenstorrent: T.max / T.min of a value and a constant are clamp_tile with the other bound
infinite (the op map's sfpu_clamp entries), T.clamp(x, lo, hi) = T.min(T.max(x, lo), hi) is one clamp_tile call,
after an operation with a constant in the same DST pass (`T.clamp(x * 2, lo, hi)`); T.max / T.min with one element
s[0] of a [1] buffer broadcast it into a block for binary_max_tile / binary_min_tile; T.reduce_min is -max(-x) (the
FPU reduce has no MIN pool), the tensor's padding +inf. fp32 data: every step is exact, results equal numpy's."""

from __future__ import annotations

import re
import shutil

import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError
from tilelang.tenstorrent.records import COUNTERS

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(11)


def bounded(m: int, n: int, bm: int, lo: float, hi: float):  # type: ignore[no-untyped-def]
    """B = clamp(2 A, lo, hi) and C = max(min(A, hi), lo) + 1 (a minimum, then a maximum, then a sum)."""

    @T.prim_func
    def main(A: T.Tensor((m, n), "float32"), B: T.Tensor((m, n), "float32"), C: T.Tensor((m, n), "float32")):
        with T.Kernel(T.ceildiv(m, bm), threads=128) as bx:
            a = T.alloc_shared((bm, n), "float32")
            b = T.alloc_fragment((bm, n), "float32")
            c = T.alloc_fragment((bm, n), "float32")
            T.copy(A[bx * bm, 0], a)
            for i, j in T.Parallel(bm, n):
                b[i, j] = T.clamp(a[i, j] * 2, lo, hi)
            for i, j in T.Parallel(bm, n):
                c[i, j] = T.max(T.min(a[i, j], hi), lo) + 1
            T.copy(b, B[bx * bm, 0])
            T.copy(c, C[bx * bm, 0])

    return main


def block_range(m: int, n: int, bm: int):  # type: ignore[no-untyped-def]
    """Out = clamp(A, min(A row block) / 2, max(A row block) / 2) per block of rows, and the rows' minima (upstream
    clamp_value_range's form: T.reduce_min / T.reduce_max into [1] fragments, T.clamp by their elements)."""

    @T.prim_func
    def main(A: T.Tensor((m, n), "float32"), Out: T.Tensor((m, n), "float32"), Mins: T.Tensor((m,), "float32")):
        with T.Kernel(T.ceildiv(m, bm), threads=128) as bx:
            a = T.alloc_fragment((bm, n), "float32")
            lo = T.alloc_fragment((bm,), "float32")
            hi = T.alloc_fragment((bm,), "float32")
            T.copy(A[bx * bm, 0], a)
            T.reduce_min(a, lo, dim=1)
            T.reduce_max(a, hi, dim=1)
            T.copy(lo, Mins[bx * bm])
            for i, j in T.Parallel(bm, n):
                a[i, j] = T.clamp(a[i, j], lo[i] * 0.5, hi[i] * 0.5)
            T.copy(a, Out[bx * bm, 0])

    return main


def row_min(m: int, n: int, bm: int, dtype: str = "float32"):  # type: ignore[no-untyped-def]
    """Out = min over the rows of A and of B (T.reduce_min, then onto it with clear=False)."""

    @T.prim_func
    def main(A: T.Tensor((m, n), dtype), B: T.Tensor((m, n), dtype), Out: T.Tensor((m,), dtype)):
        with T.Kernel(T.ceildiv(m, bm), threads=128) as bx:
            a = T.alloc_shared((bm, n), dtype)
            b = T.alloc_shared((bm, n), dtype)
            row = T.alloc_fragment((bm,), dtype)
            T.copy(A[bx * bm, 0], a)
            T.reduce_min(a, row, dim=1)
            T.copy(B[bx * bm, 0], b)
            T.reduce_min(b, row, dim=1, clear=False)
            T.copy(row, Out[bx * bm])

    return main


def test_clamp_by_constants_is_one_clamp_tile_call() -> None:
    kernel = tilelang.compile(bounded(64, 64, 32, -0.5, 0.75), out_idx=[1, 2], target="tenstorrent")
    a = RNG.uniform(-2, 2, (64, 64)).astype(np.float32)
    b, c = kernel(a)
    np.testing.assert_array_equal(b, np.clip(a * 2, -0.5, 0.75))
    np.testing.assert_array_equal(c, np.maximum(np.minimum(a, np.float32(0.75)), np.float32(-0.5)) + 1)
    source = tilelang.lower(bounded(64, 64, 32, -0.5, 0.75), target="tenstorrent").kernel_source
    bits = [int(np.array(v, np.float32).view(np.uint32)) for v in (-0.5, 0.75)]
    assert re.search(rf"clamp_tile\(0, {bits[0]}u?, {bits[1]}u?\)", source)  # 2 * x, then both bounds in one call
    assert source.count("clamp_tile(") == 2  # the second store's min and max are one call too
    # per block of 2 tiles: the scalar product and the clamp in one pass, the clamp, the sum
    assert kernel.last_report["total"][COUNTERS.SFPU_TILES] == 2 * (2 + 1 + 1) * 2


def test_clamp_by_block_minima_and_maxima() -> None:
    """Ragged rows (40 of 64: the second block's padding); the columns are whole tiles (the minimum and the maximum
    of one block need +inf and -inf padding: ragged columns are refused naming both)."""
    kernel = tilelang.compile(block_range(40, 64, 32), out_idx=[1, 2], target="tenstorrent")
    a = RNG.uniform(-3, 3, (40, 64)).astype(np.float32)
    out, mins = kernel(a)
    lo, hi = a.min(1, keepdims=True), a.max(1, keepdims=True)
    np.testing.assert_array_equal(mins, a.min(1))
    np.testing.assert_array_equal(out, np.minimum(np.maximum(a, lo * 0.5), hi * 0.5))


def test_row_minimum_onto_a_previous_minimum() -> None:
    """80 columns: 16 of padding per row, which holds +inf (the maximum of the negated block reads -inf there)."""
    kernel = tilelang.compile(row_min(64, 80, 32), out_idx=[-1], target="tenstorrent")
    a, b = RNG.uniform(0.5, 2, (64, 80)).astype(np.float32), RNG.uniform(0.5, 2, (64, 80)).astype(np.float32)
    np.testing.assert_array_equal(kernel(a, b), np.minimum(a.min(1), b.min(1)))


def test_an_integer_row_minimum_is_refused_by_name() -> None:
    with pytest.raises(TileLangError, match=r"T.reduce_min\(a, row\) takes the minimum of a int32 block"):
        tilelang.lower(row_min(64, 64, 32, "int32"), target="tenstorrent")
