"""`T.transpose(src, dst)` (issue 28; tile-ai/tilelang's `test_tilelang_language_transpose.py` kernel): dst[j, i] =
src[i, j] of a shared tile, on llvm (a loop nest, src/transform/cpu_tile_ops.cc) and on Tenstorrent (the on-chip
`transpose_block`, src/transform/tile_ops_transpose.cc), at a tile multiple and a ragged 100x200 with 32x64 blocks."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError, TTLoweringError


def transpose_blocks(M, N, block_M, block_N, dtype="float16"):  # noqa: N803
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((N, M), dtype)):  # noqa: N803
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            tile = T.alloc_shared((block_M, block_N), dtype)
            tile_t = T.alloc_shared((block_N, block_M), dtype)
            T.copy(A[by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N], tile)
            T.transpose(tile, tile_t)
            T.copy(tile_t, B[bx * block_N:(bx + 1) * block_N, by * block_M:(by + 1) * block_M])

    return main


@pytest.mark.parametrize("target", [
    "llvm", pytest.param("tenstorrent", marks=pytest.mark.skipif(shutil.which("g++") is None, reason="no g++"))])
@pytest.mark.parametrize("shape", [(64, 64, 32, 32), (100, 200, 32, 64)])
def test_transpose_of_a_shared_tile_matches_numpy(target, shape):
    m, n, bm, bn = shape
    kernel = tilelang.compile(transpose_blocks(m, n, bm, bn), out_idx=[1], target=target)
    a = np.random.default_rng(28).standard_normal((m, n)).astype("float16")
    np.testing.assert_array_equal(kernel(a), a.T)


def test_transpose_shapes_are_checked():
    with pytest.raises(TileLangError, match=r"T.transpose: src tile \(32, 64\) and dst tile_t \(32, 64\) must be 2-D "
                                            r"of shapes \(M, N\) and \(N, M\)"):
        @T.prim_func
        def bad(A: T.Tensor((32, 64), "float32")):  # noqa: N803
            with T.Kernel(1) as _:
                tile = T.alloc_shared((32, 64), "float32")
                tile_t = T.alloc_shared((32, 64), "float32")
                T.transpose(tile, tile_t)

    @T.prim_func
    def dram(A: T.Tensor((32, 32), "float32"), B: T.Tensor((32, 32), "float32")):  # noqa: N803
        with T.Kernel(1) as _:
            tile = T.alloc_shared((32, 32), "float32")
            T.transpose(A, tile)
            T.copy(tile, B)

    with pytest.raises(TTLoweringError, match=r"T.transpose\(A, tile\) reads or writes a DRAM tensor"):
        tilelang.compile(dram, target="tenstorrent")
