"""Layer norm backward on Tenstorrent (issue 28), in the form of TileLang's examples/norm/layernorm.py
`_layernorm_bwd` (tests/tt_norm_kernels.py `layer_norm_bwd`): every program adds its dgamma and dbeta column sums
onto the same two fp32 vectors with element-wise T.atomic_adds in one T.Parallel loop. The adds are 1-D (a column
vector fragment onto a row-vector tensor: summed in row tiles, tile_ops_atomic.cc) and ordered by program
(PartitionTTWork's streamk mode: a target that depends on no block index; tile_ops_turns.cc), so the result does not
depend on timing; gamma, read at the column index inside the rows loop, is transposed into row tiles once before
that loop (tile_ops_hoist.cc). Run in the emulator against numpy at a tile multiple and at a ragged shape.

Tolerances: DX is bf16 (one rounding of values up to ~10: 2^-8 relative); dgamma/dbeta are fp32 sums of bf16
products over N rows in another order than numpy's."""

from __future__ import annotations

import shutil

import ml_dtypes
import numpy as np
import pytest
from tt_norm_kernels import layer_norm_bwd

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

BF16 = ml_dtypes.bfloat16
F32 = np.float32
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def _inputs(n: int, d: int) -> list[np.ndarray]:
    rng = np.random.default_rng(n * d)
    x = rng.uniform(-1, 1, (n, d)).astype(BF16)
    x32 = x.astype(F32)
    mean = x32.mean(1).astype(F32)
    rstd = (1 / np.sqrt(x32.var(1) + 1e-5)).astype(F32)
    return [rng.uniform(-1, 1, (n, d)).astype(BF16), x, rng.uniform(-1, 1, d).astype(BF16), mean, rstd,
            rng.uniform(-1, 1, d).astype(F32), rng.uniform(-1, 1, d).astype(F32)]


def _reference(dy, x, g, mean, rstd, dgamma, dbeta) -> list[np.ndarray]:
    dy, x, g = (a.astype(F32) for a in (dy, x, g))
    x_hat = (x - mean[:, None]) * rstd[:, None]
    dx_hat = dy * g
    d = x.shape[1]
    c1, c2 = (dx_hat * x_hat).sum(1, keepdims=True) / d, dx_hat.sum(1, keepdims=True) / d
    return [rstd[:, None] * (dx_hat - c2 - x_hat * c1), dgamma + (dy * x_hat).sum(0), dbeta + dy.sum(0)]


@pytest.mark.parametrize("n,d,blk_m", [(64, 128, 32), (100, 200, 25)])
def test_layer_norm_backward_matches_numpy(n: int, d: int, blk_m: int) -> None:
    inputs = _inputs(n, d)
    want_dx, want_dg, want_db = _reference(*[a.copy() for a in inputs])
    kernel = tilelang.compile(layer_norm_bwd(n, d, blk_m), out_idx=[5], target="tenstorrent")
    dx = kernel(*inputs)  # DGamma and DBeta (inputs[5], inputs[6]) are added onto in place
    assert dx.shape == (n, d)
    np.testing.assert_allclose(inputs[5], want_dg, rtol=1e-3, atol=2e-3)
    np.testing.assert_allclose(inputs[6], want_db, rtol=1e-3, atol=2e-3)
    np.testing.assert_allclose(dx.astype(F32), want_dx, rtol=2e-2, atol=3e-2)


def _rank_mismatch(n: int = 64):
    @T.prim_func
    def main(A: T.Tensor((32, n), "float32"), Out: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=128):
            a = T.alloc_fragment((32, n), "float32")
            T.copy(A, a)
            for i, j in T.Parallel(32, n):
                T.atomic_add(Out[j], a[i, j])

    return main


def test_an_element_atomic_add_of_another_rank_is_refused() -> None:
    with pytest.raises(TileLangError, match=r"T.atomic_add into Out\[j\] in a T.Parallel loop: .*whole 1-D fragment"):
        tilelang.lower(_rank_mismatch(), target="tenstorrent")
