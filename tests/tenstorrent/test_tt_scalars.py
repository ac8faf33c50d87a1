"""Scalar state on Tenstorrent (issue 28): T.Parallel bodies of several stores, each a nest of its own
(`src/transform/loop_fission.cc`: TileLang's layernorm computes its row statistics and writes them to DRAM in one
body over the block's rows), and values named per element in such a body (`norm = ...`), folded into their one read
(`src/transform/scalars.cc`). Run in the emulator against numpy at tile multiples and ragged shapes, with row blocks
of one row (blk_m = 1, the example's default: [1] statistics) and of 32.

Tolerances: Y is bf16 (one rounding of a value of magnitude up to ~4: 2^-8 relative) computed from fp32 statistics;
Mean and Rstd are fp32 sums over the row in another order than numpy's."""

from __future__ import annotations

import shutil

import ml_dtypes
import numpy as np
import pytest
from tt_norm_kernels import layer_norm_stats

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def _reference(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    x32 = x.astype(np.float32)
    mean = x32.mean(1)
    rstd = 1 / np.sqrt(x32.var(1) + 1e-5)
    y = (x32 - mean[:, None]) * rstd[:, None] * w.astype(np.float32) + b.astype(np.float32)
    return [y, mean, rstd]


@pytest.mark.parametrize("m,n,blk_m", [(64, 128, 1), (100, 200, 1), (100, 200, 32)])
def test_layer_norm_with_row_statistics_matches_numpy(m: int, n: int, blk_m: int) -> None:
    rng = np.random.default_rng(m * n + blk_m)
    x = rng.uniform(-2, 2, (m, n)).astype(BF16)
    w, b = rng.uniform(-1, 1, n).astype(BF16), rng.uniform(-1, 1, n).astype(BF16)
    kernel = tilelang.compile(layer_norm_stats(m, n, blk_m), out_idx=[-3, -2, -1], target="tenstorrent")
    y, mean, rstd = kernel(x, w, b)
    want_y, want_mean, want_rstd = _reference(x, w, b)
    assert y.shape == (m, n) and mean.shape == (m,) and rstd.shape == (m,)
    np.testing.assert_allclose(mean, want_mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rstd, want_rstd, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(y.astype(np.float32), want_y, rtol=1e-2, atol=2e-2)


def _other_iteration(n: int = 64):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=128):
            a = T.alloc_fragment((n,), "float32")
            s = T.alloc_fragment((n,), "float32")
            t = T.alloc_fragment((n,), "float32")
            T.copy(A, a)
            for i in T.Parallel(n):
                s[i] = a[i] * 2.0
                t[i] = s[(i + 1) % n]
            T.copy(t, B)

    return main


def _clobbered(n: int = 64):
    @T.prim_func
    def main(A: T.Tensor((32, n), "float32"), B: T.Tensor((32, n), "float32")):
        with T.Kernel(1, threads=128):
            a = T.alloc_fragment((32, n), "float32")
            b = T.alloc_fragment((32, n), "float32")
            T.copy(A, a)
            for i, j in T.Parallel(32, n):
                old = a[i, j]
                a[i, j] = a[i, j] * 2.0
                b[i, j] = old + a[i, j]
            T.copy(b, B)

    return main


def test_a_body_reading_another_iterations_element_stays_whole_and_is_refused() -> None:
    """`t[i] = s[(i + 1) % n]` reads an element another iteration writes: splitting the body would change what it
    reads, so the body stays one nest, which the backend refuses naming the store and the loop."""
    with pytest.raises(TileLangError, match=r"store s\[i\] = a\[i\] \* T.float32\(2.0\) in loop \(i\) is one of "
                                            r"several statements .* one index naming each iteration's own element"):
        tilelang.lower(_other_iteration(), target="tenstorrent")


def test_a_named_value_whose_operand_is_rewritten_before_its_read_is_not_folded() -> None:
    """`old = a[i, j]` then `a[i, j] = ...` then a read of `old`: the value of `old` is not `a[i, j]` where it is
    read, so it is no temporary (refused as a scalar assigned a value read from a buffer)."""
    with pytest.raises(TileLangError, match=r"scalar 'old' is assigned a\[i, j\]"):
        tilelang.lower(_clobbered(), target="tenstorrent")


def _carried_rows(m: int, n: int, bm: int, steps: int):
    """Each block copies `steps` row blocks from A to B, walking them with a loop-carried index scalar."""

    @T.prim_func
    def main(A: T.Tensor((m, n), "float32"), B: T.Tensor((m, n), "float32")):
        with T.Kernel(T.ceildiv(m, bm * steps), threads=128) as bx:
            a = T.alloc_shared((bm, n), "float32")
            b = T.alloc_fragment((bm, n), "float32")
            row = T.alloc_var("int32")
            row = bx * steps
            for _ in T.serial(steps):
                T.copy(A[row * bm, 0], a)
                for i, j in T.Parallel(bm, n):
                    b[i, j] = a[i, j] * 2.0
                T.copy(b, B[row * bm, 0])
                row = row + 1

    return main


@pytest.mark.parametrize("m,n", [(128, 64), (100, 72)])
def test_a_loop_carried_index_scalar_is_computed_by_every_kernel(m: int, n: int) -> None:
    """`row = bx * steps` then `row = row + 1` in the loop: an integer scalar assigned again and again (stream-K's
    kind of work range), which the reader, compute and writer kernels each keep as a variable of their own."""
    a = np.random.default_rng(m + n).standard_normal((m, n)).astype(np.float32)
    kernel = tilelang.compile(_carried_rows(m, n, 32, 2), out_idx=[-1], target="tenstorrent")
    np.testing.assert_allclose(kernel(a), a * 2, rtol=1e-6, atol=1e-6)
    files = kernel.artifact.rt_mod.files
    for role in ("reader", "writer"):
        assert "row = row + 1;" in files[f"{role}.cpp"]
