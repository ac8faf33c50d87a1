"""N-D tensors and 3-D grids on Tenstorrent.

Tiles are of a tensor's last two dims; leading dims (batch, heads) fold into the rows of its tiled matrix, so
`Q[bz, by, rows, :]` (flash attention's BHSD slices) addresses the tiles of one (batch, head) matrix. A 3-D grid
is partitioned over the cores as the 2-D grid of x and (z, y) rows. Results against numpy: bf16 inputs from
U(-1, 1), fp32 accumulation, |got - ref| <= 2^-7 * max|ref| (the final bf16 rounding, fp32 sums in another order).
"""

from __future__ import annotations

import shutil

import ml_dtypes
import numpy as np
import pytest
from tt_kernels import attention_pv, attention_scores, batched_matmul

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError
from tilelang.tenstorrent.records import COUNTERS

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def uniform(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(BF16)


def check(got: np.ndarray, ref: np.ndarray) -> None:
    err = float(np.abs(got.astype(np.float32) - ref).max())
    assert err <= 2.0**-7 * float(np.abs(ref).max()), err


@pytest.mark.parametrize("mode", ["auto", "global"])
def test_batched_gemm_on_a_3d_grid(mode: str) -> None:
    batch, m, n, k = 3, 64, 64, 96
    kernel = tilelang.compile(batched_matmul(batch, m, n, k, 32, 32, 32), out_idx=[-1], target="tenstorrent",
                              pass_configs={"tl.PartitionTTWork.mode": mode, "tl.PartitionTTWork.core_grid": [2, 3]})
    a, b = uniform((batch, m, k), 1), uniform((batch, k, n), 2)
    c = kernel(a, b)
    assert c.shape == (batch, m, n)
    check(c, np.matmul(a.astype(np.float32), b.astype(np.float32)))
    plan = kernel.artifact.rt_mod.plan
    assert plan["grid_blocks"] == [2, 2, 3]
    assert kernel.last_report["total"][COUNTERS.MATMUL_TILES] == batch * (m // 32) * (n // 32) * (k // 32)


def test_attention_pv_in_the_bhsd_layout() -> None:
    batch, heads, seq, dim = 2, 2, 128, 64
    kernel = tilelang.compile(attention_pv(batch, heads, seq, dim, 64, 32), out_idx=[-1], target="tenstorrent")
    p, v = uniform((batch, heads, seq, seq), 3), uniform((batch, heads, seq, dim), 4)
    o = kernel(p, v)
    assert o.shape == (batch, heads, seq, dim)
    check(o, np.matmul(p.astype(np.float32), v.astype(np.float32)))


def test_attention_scores_with_clear_accum_and_transposed_keys() -> None:
    """Flash attention's first GEMM: a new product per key block (clear_accum=True inside a loop that is not its
    K loop), K transposed on chip, Q re-read per block."""
    batch, heads, seq, dim = 2, 2, 64, 64
    kernel = tilelang.compile(attention_scores(batch, heads, seq, dim, 32, 32), out_idx=[-1], target="tenstorrent")
    q, k = uniform((batch, heads, seq, dim), 5), uniform((batch, heads, seq, dim), 6)
    s = kernel(q, k)
    check(s, np.matmul(q.astype(np.float32), np.swapaxes(k.astype(np.float32), -1, -2)))
    blocks = batch * heads * (seq // 32) * (seq // 32)
    assert kernel.last_report["total"][COUNTERS.MATMUL_TILES] == blocks * (dim // 32)


def dram_copy(batch: int, M: int, N: int, block_M: int, block_N: int) -> object:
    """B[b] = A[b] block by block, tensor to tensor (TileLang's DRAM-to-DRAM T.copy)."""

    @T.prim_func
    def main(A: T.Tensor((batch, M, N), "bfloat16"), B: T.Tensor((batch, M, N), "bfloat16")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), batch, threads=128) as (bx, by, bz):
            T.copy(A[bz, by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N],
                   B[bz, by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N])
    return main


def test_a_dram_to_dram_copy_goes_through_a_cb_of_its_own() -> None:
    kernel = tilelang.compile(dram_copy(2, 64, 96, 32, 32), out_idx=[-1], target="tenstorrent")
    a = uniform((2, 64, 96), 7)
    assert np.array_equal(kernel(a).view(np.uint16), a.view(np.uint16))  # raw pages: bit-exact
    plan = kernel.artifact.rt_mod.plan
    assert [(cb["buffer"], cb["producer"], cb["consumer"]) for cb in plan["cbs"]] == [("A_to_B", "reader", "writer")]


def bshd_copy(batch: int, seq: int, heads: int, dim: int, block_M: int) -> object:
    @T.prim_func
    def main(Q: T.Tensor((batch, seq, heads, dim), "bfloat16"), Out: T.Tensor((batch, seq, heads, dim), "bfloat16")):
        with T.Kernel(T.ceildiv(seq, block_M), heads, batch, threads=128) as (bx, by, bz):
            Q_shared = T.alloc_shared((block_M, dim), "bfloat16")
            O_local = T.alloc_fragment((block_M, dim), "bfloat16")
            T.copy(Q[bz, bx * block_M:(bx + 1) * block_M, by, :], Q_shared)
            for i, j in T.Parallel(block_M, dim):
                O_local[i, j] = T.exp(Q_shared[i, j])
            T.copy(O_local, Out[bz, bx * block_M:(bx + 1) * block_M, by, :])
    return main


def test_a_block_across_a_non_tiled_dim_is_refused_naming_the_layout() -> None:
    """A block spanning (seq, heads) at one element of dim: neither tiles of the last two dims nor whole rows."""

    @T.prim_func
    def main(Q: T.Tensor((1, 64, 32, 64), "bfloat16"), Out: T.Tensor((1, 64, 32, 64), "bfloat16")):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            Q_shared = T.alloc_shared((32, 32), "bfloat16")
            T.copy(Q[0, 0:32, 0:32, 5], Q_shared)
            T.copy(Q_shared, Out[0, 0:32, 0:32, 5])

    with pytest.raises(TileLangError, match=r"tensor 'Q' \(shape \[1, 64, 32, 64\]\).*spans dims \[1, 2\].*"
                                            r"last two dims \(2, 3\).*row-major instead"):
        tilelang.lower(main, target="tenstorrent")


def test_a_1d_tensor_is_a_row_vector() -> None:
    """A 1-D tensor is laid out as row 0 of one tile row (InferTTLayout): (64,) is 2 pages, not refused."""

    @T.prim_func
    def main(A: T.Tensor((64,), "bfloat16"), B: T.Tensor((64, 64), "bfloat16")):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            B_shared = T.alloc_shared((64, 64), "bfloat16")
            T.copy(B[0, 0], B_shared)
            T.copy(B_shared, B[0, 0])
    plan = tilelang.lower(main, target="tenstorrent").rt_mod.plan
    (a,) = [t for t in plan["tensors"] if t["name"] == "A"]
    assert (a["shape"], a["pages"], a["role"]) == ([64], 2, "unused")
