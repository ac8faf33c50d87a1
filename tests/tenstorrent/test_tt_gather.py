"""Blocks read at a row computed from a value read from an index tensor on Tenstorrent (issue 28;
src/transform/tile_ops_gather.cc): deepseek_nsa's K/V block at `BlockIndices[...] * BS`, a paged cache's block at
`block_table[b, p] * page`. The reader reads the index's aligned chunk into the block's reservation, reads the word
(l1_word) and reads the block at first_tile + value * scale (protocol reader_block_at). Run in the emulator against
numpy; the forms the reader does not move a block by are refused by name."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from tt_data_kernels import gather_blocks, gathered_step, length_mask

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError
from tilelang.tenstorrent import INTRINSICS, api_profile

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(28)
# A mask's bound is read by the compute kernel with read_tile_value, which the 2025 profile lacks.
needs_read_tile_value = pytest.mark.skipif(api_profile() not in INTRINSICS["read_tile_value"].cpp,
                                           reason="the API profile has no read_tile_value")


def reference(x: np.ndarray, idx: np.ndarray, bs: int, scale: int) -> np.ndarray:
    return np.concatenate([x[i * bs * scale:i * bs * scale + bs] for i in idx.ravel()])


@pytest.mark.parametrize("M, N, selected, bs, index_dims, scale",
                         [(128, 64, 3, 32, 1, 1), (256, 32, 5, 32, 2, 2), (128, 64, 4, 16, 1, 1)])
def test_blocks_gathered_by_an_index_tensor(M: int, N: int, selected: int, bs: int, index_dims: int,
                                            scale: int) -> None:
    """Out's block b is X's block Idx[b] (repeats and any order); a 2-D index tensor read at [0, b], 64 rows a unit;
    blocks of 16 rows (X laid out with each padded to a tile)."""
    x = RNG.standard_normal((M, N)).astype(np.float16)
    idx = RNG.integers(0, M // (bs * scale), selected).astype(np.int32)
    idx = idx if index_dims == 1 else idx[None]
    kernel = tilelang.compile(gather_blocks(M, N, selected, bs, index_dims, scale), out_idx=[-1],
                              target="tenstorrent")
    assert "reinterpret_cast<volatile tt_l1_ptr uint32_t*>" in kernel.get_kernel_source()
    np.testing.assert_array_equal(kernel(x, idx), reference(x, idx, bs, scale))


def _refused(body_row, idx_dtype: str = "int32", bs: int = 32) -> str:
    @T.prim_func
    def main(X: T.Tensor((128, 64), "float16"), Idx: T.Tensor((4,), idx_dtype), Out: T.Tensor((4 * bs, 64), "float16")):
        with T.Kernel(4, threads=128) as bx:
            s = T.alloc_shared((bs, 64), "float16")
            row = body_row(Idx, bx)
            T.copy(X[row:row + bs, :], s)
            T.copy(s, Out[bx * bs:(bx + 1) * bs, :])

    with pytest.raises(TileLangError) as err:
        tilelang.compile(main, out_idx=[-1], target="tenstorrent")
    return str(err.value)


def test_a_gather_that_is_not_whole_tiles_is_refused() -> None:
    """A 32-row block at 16 * Idx[b] would start inside a tile (blocks of 16 rows at 16 * Idx[b] run: X is laid out
    with each 16-row block padded to a tile, the first case above's layout rule)."""
    assert "moves by 16 rows per unit of the value read from 'Idx'" in _refused(lambda i, bx: i[bx] * 16)


def test_a_gather_index_of_another_dtype_is_refused() -> None:
    assert "reads uint16 tensor 'Idx'" in _refused(lambda i, bx: T.Cast("int32", i[bx]) * 32, idx_dtype="uint16")


def test_a_gather_by_two_values_is_refused() -> None:
    assert "reads 2 values of tensors" in _refused(lambda i, bx: i[bx] * 32 + i[0] * 32)


@needs_read_tile_value
@pytest.mark.parametrize("M, N, bm, bn", [(128, 128, 32, 64), (64, 96, 64, 32)])
def test_a_mask_bound_read_from_a_tensor(M: int, N: int, bm: int, bn: int) -> None:
    """`bx * bn + j >= Len[by]` against -inf: the reader pushes Len's tile, the compute kernel reads the value
    (read_tile_value) and moves the mask table's origin by it; lengths 0, inside a block, on a block edge, past N."""
    s = RNG.standard_normal((M, N)).astype(np.float32)
    lens = RNG.choice([0, 1, bn, bn + 5, N - 3, N, N + 40], M // bm).astype(np.int32)
    kernel = tilelang.compile(length_mask(M, N, bm, bn), out_idx=[-1], target="tenstorrent")
    assert "read_tile_value(" in kernel.get_kernel_source()
    ref = np.where(np.arange(N)[None, :] >= np.repeat(lens, bm)[:, None], -np.inf, s)
    np.testing.assert_array_equal(kernel(s, lens), ref)


@needs_read_tile_value
def test_an_nsa_causal_mask_at_a_selected_block() -> None:
    """deepseek_nsa's `i_t >= BlockIndices[...] * BS + j`: query row block `by` against key block Idx[by] (32 rows
    a block), at, before and after the queries; S kept where it holds, -inf elsewhere."""
    M = N = 128
    lens = np.array([0, 1, 1, 3], np.int32)
    kernel = tilelang.compile(length_mask(M, N, 32, 32, nsa=True), out_idx=[-1], target="tenstorrent")
    rows, cols = np.arange(M)[:, None], np.arange(N)[None, :] % 32
    s = RNG.standard_normal((M, N)).astype(np.float32)
    ref = np.where(rows >= np.repeat(lens, 32)[:, None] * 32 + cols, s, -np.inf)
    np.testing.assert_array_equal(kernel(s, lens), ref)


def test_a_mask_bound_of_two_values_is_refused() -> None:
    @T.prim_func
    def main(S: T.Tensor((64, 64), "float32"), Len: T.Tensor((2,), "int32"), Out: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, 2, threads=128) as (bx, by):
            s = T.alloc_fragment((32, 64), "float32")
            T.copy(S[by * 32, 0], s)
            for i, j in T.Parallel(32, 64):
                s[i, j] = T.if_then_else(j >= Len[by] + Len[0], -T.infinity("float32"), s[i, j])
            T.copy(s, Out[by * 32, 0])

    with pytest.raises(TileLangError, match="reads 2 values of tensors; an index mask's condition may use"):
        tilelang.compile(main, out_idx=[-1], target="tenstorrent")


@needs_read_tile_value
@pytest.mark.parametrize("mask", [False, True])
def test_a_gathered_block_in_a_step_under_the_value(mask: bool) -> None:
    """deepseek_nsa's step: `i_s = Idx[b, k] * 32`, `if i_s <= b * 32 and i_s >= 0` around X's block at i_s (and its
    causal mask, the bound i_s), summed. The value is read once per kernel for the if (no reader_block_at, no
    bound CB); selected blocks before, at and after the query block, and -1 (skipped)."""
    M, N, bs = 128, 32, 32
    idx = np.array([[0, -1], [1, 0], [3, 2], [-1, 3]], np.int32)
    x = RNG.standard_normal((M, N)).astype(np.float32)
    kernel = tilelang.compile(gathered_step(M, N, 2, bs, mask), out_idx=[-1], target="tenstorrent")
    source = kernel.get_kernel_source()
    reader = source.split("==== compute.cpp")[0]
    assert reader.count("tt_l1_ptr uint32_t*>") == 1 and "Idx_bound" not in source  # one read of the value
    ref = np.zeros((M, N), np.float32)
    rows, cols = np.arange(bs)[:, None], np.arange(N)[None, :]
    for b in range(M // bs):
        for v in idx[b]:
            if 0 <= v * bs <= b * bs:
                block = x[v * bs:(v + 1) * bs]
                ref[b * bs:(b + 1) * bs] += np.where(b * bs + rows >= v * bs + cols, block, -np.inf) if mask else block
    np.testing.assert_allclose(kernel(x, idx), ref, rtol=1e-6)
