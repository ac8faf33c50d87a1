"""T.cumsum on Tenstorrent (issue 28): TileLang's block cumsum (tests/language/test_tilelang_examples.py cumsum_kernel,
the tile primitive of upstream's examples/cumsum), lowered to tt-metal's SFPU cumsum_tile (fp32 adds down every column
of a tile, the running row carried in SFPU registers from one tile of a column of tiles to the next); along dim 1 the
block is transposed on chip, summed and transposed back. The adds run in row order in fp32, numpy's order, so fp32
results are bit-exact; reverse=True is the column total less the inclusive sum plus x (exact in integers, fp32 within
rounding); integer blocks are refused naming why."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
import test_tilelang_examples as examples

import tilelang
from tilelang.errors import TileLangError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(281)


def _block_cumsum(a: np.ndarray, bm: int, bn: int, dim: int) -> np.ndarray:
    m, n = a.shape
    tiles = a.reshape(m // bm, bm, n // bn, bn).transpose(0, 2, 1, 3)
    return np.cumsum(tiles, 2 + dim).transpose(0, 2, 1, 3).reshape(m, n)


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("shape", [(64, 128, 32, 64), (128, 64, 64, 32)])
def test_block_cumsum_fp32_is_bit_exact(dim: int, shape: tuple[int, int, int, int]) -> None:
    m, n, bm, bn = shape
    a = RNG.standard_normal((m, n)).astype("float32")
    kernel = tilelang.compile(examples.cumsum_kernel.__wrapped__(m, n, bm, bn, dim, False), out_idx=[-1],
                              target="tenstorrent")
    source = kernel.get_kernel_source()
    assert "cumsum_tile(0, " in source and "pack_tile<true>(" in source
    assert ("transpose_tile(" in source) == (dim == 1)
    np.testing.assert_array_equal(kernel(a), _block_cumsum(a, bm, bn, dim))


def test_block_cumsum_bf16_carries_fp32_and_rounds_each_result() -> None:
    """16-bit DST: each sum is stored rounded to bf16, the running row the SFPU carries stays fp32."""
    a = RNG.standard_normal((64, 64)).astype(ml_dtypes.bfloat16)
    kernel = tilelang.compile(examples.cumsum_kernel.__wrapped__(64, 64, 64, 32, 0, False, "bfloat16"),
                              out_idx=[-1], target="tenstorrent")
    ref = _block_cumsum(a.astype("float32"), 64, 32, 0).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(kernel(a).astype("float32"), ref.astype("float32"))


def _reverse_block_cumsum(a: np.ndarray, bm: int, bn: int, dim: int) -> np.ndarray:
    flip = 1 + 2 * dim  # the axis of the block rows (dim 0) or columns (dim 1) in the tiled view
    m, n = a.shape
    tiles = a.reshape(m // bm, bm, n // bn, bn)
    return np.flip(np.cumsum(np.flip(tiles, flip), flip), flip).reshape(m, n)


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("shape", [(64, 96, 64, 32), (128, 64, 32, 64)])
def test_reverse_block_cumsum_fp32(dim: int, shape: tuple[int, int, int, int]) -> None:
    """reverse=True is T - inclusive + x (T the column's total, carried by cumsum_tile over a first pass): exact in
    integers, in fp32 within rounding of the column's magnitude (not numpy's bottom-up order)."""
    m, n, bm, bn = shape
    a = RNG.standard_normal((m, n)).astype("float32")
    kernel = tilelang.compile(examples.cumsum_kernel.__wrapped__(m, n, bm, bn, dim, True), out_idx=[-1],
                              target="tenstorrent")
    source = kernel.get_kernel_source()
    # a first pass without a pack (the carry ends as the column total), then the negated block continuing from it
    assert source.count("cumsum_tile(0, ") == 2 and "cumsum_tile(0, 0)" in source and "mul_unary_tile(" in source
    out, ref = kernel(a), _reverse_block_cumsum(a, bm, bn, dim)
    magnitude = np.abs(_reverse_block_cumsum(np.abs(a), bm, bn, dim)).max()  # the largest column total
    np.testing.assert_allclose(out, ref, rtol=0, atol=max(bm, bn) * np.finfo(np.float32).eps * magnitude)


def test_reverse_block_cumsum_of_integers_is_exact() -> None:
    """Integer-valued fp32 data: every partial sum is exact, so the reverse scan equals numpy's bit for bit."""
    a = RNG.integers(-50, 50, (64, 64)).astype("float32")
    kernel = tilelang.compile(examples.cumsum_kernel.__wrapped__(64, 64, 64, 32, 0, True), out_idx=[-1],
                              target="tenstorrent")
    np.testing.assert_array_equal(kernel(a), _reverse_block_cumsum(a, 64, 32, 0))


@pytest.mark.parametrize("dim", [0, 1])
def test_reverse_block_cumsum_ragged_sums_zero_padding(dim: int) -> None:
    """A 100x72 tensor in 32x32 blocks: the last blocks hang over the end; their padded rows (dim 0) or columns (dim
    1) are summed into the totals, so the reverse scan needs them 0 (the padding engine picks it)."""
    a = RNG.integers(-50, 50, (100, 72)).astype("float32")
    kernel = tilelang.compile(examples.cumsum_kernel.__wrapped__(100, 72, 32, 32, dim, True), out_idx=[-1],
                              target="tenstorrent")
    padded = np.zeros((128, 96), "float32")
    padded[:100, :72] = a
    np.testing.assert_array_equal(kernel(a), _reverse_block_cumsum(padded, 32, 32, dim)[:100, :72])


def test_emulator_rejects_a_carry_another_sfpu_call_overwrote(tmp_path: Path) -> None:
    """cumsum_tile(first = false) after another SFPU tile call: the running row is gone from the SFPU registers."""
    from tilelang.tenstorrent import emulator

    rt_mod = tilelang.compile(examples.cumsum_kernel.__wrapped__(64, 32, 64, 32, 0, False),
                              target="tenstorrent").artifact.rt_mod
    prog = dataclasses.replace(rt_mod, files=dict(rt_mod.files))
    source = prog.files["compute.cpp"]
    prog.files["compute.cpp"] = source.replace(
        '#include "api/compute/cumsum.h"',
        '#include "api/compute/cumsum.h"\n#include "api/compute/eltwise_unary/exp.h"'
    ).replace("cumsum_tile_init();\n",
              "exp_tile_init();\n            exp_tile(0);\n            cumsum_tile_init();\n", 1)
    assert prog.files["compute.cpp"] != source
    arrays = [RNG.standard_normal((64, 32)).astype("float32"), np.zeros((64, 32), "float32")]
    with pytest.raises(emulator.TTEmulatorError, match=r"cumsum_tile\(first = false\) continues a running row no "
                                                        r"cumsum_tile left"):
        prog.run(arrays, workdir=tmp_path)


def test_reverse_cumsum_and_row_max_of_one_ragged_block_are_refused() -> None:
    """The reverse scan needs the block's padding 0 (the engine picks it), a row maximum needs it -inf: no pad value
    serves both (without the scan's need the kernel would lower, with -inf summed into the totals)."""
    import tilelang.language as T

    @T.prim_func
    def main(A: T.Tensor((100, 72), "float32"), B: T.Tensor((100, 72), "float32"), M: T.Tensor((100,), "float32")):
        with T.Kernel(3, 4, threads=128) as (bx, by):
            A_s = T.alloc_shared((32, 32), "float32")
            row = T.alloc_fragment((32,), "float32")
            T.copy(A[by * 32, bx * 32], A_s)
            T.reduce_max(A_s, row, dim=1)
            T.copy(row, M[by * 32])
            T.cumsum(src=A_s, dim=0, reverse=True)
            T.copy(A_s, B[by * 32, bx * 32])

    with pytest.raises(TileLangError, match=r"T.reduce_max into 'row' reads the padding of 'A_s' .* which holds "
                                            r"tensor 'A''s padding, 0, not the -inf"):
        tilelang.lower(main, target="tenstorrent")


def _chunk_cumsum_seq_second(B: int, S: int, H: int, block_S: int):  # noqa: ANN202 (a TileLang prim_func)
    """upstream examples/gdn/example_cumsum.py with head_first=False: G is (B, S, H), and each block reads one column
    of a (S, H) matrix, `G[bb, s0:s1, bh]`, into a [1, block_S] row."""
    import tilelang.language as T

    @T.prim_func
    def kernel(G: T.Tensor((B, S, H), "float16"), G_new: T.Tensor((B, S, H), "float32")):
        with T.Kernel(T.ceildiv(S, block_S), B * H, threads=128) as (bs, bbh):
            bb, bh = bbh // H, bbh % H
            G_shared = T.alloc_shared((1, block_S), "float32")
            T.copy(G[bb, bs * block_S:(bs + 1) * block_S, bh], G_shared)
            T.cumsum(G_shared, dim=1)
            T.copy(G_shared, G_new[bb, bs * block_S:(bs + 1) * block_S, bh])

    return kernel


def test_one_column_of_an_nd_tensor_moves_as_a_row_of_its_transpose() -> None:
    # DRAM holds G and G_new as (B, H, S): each of the B (S, H) matrices transposed (main.cpp transpose_values per
    # matrix), S = 100 padded to 128 there, so the column G[bb, s0:s1, bh] is row bh of matrix bb
    B, S, H, block = 2, 100, 3, 64
    g = RNG.standard_normal((B, S, H)).astype(np.float16)
    kernel = tilelang.compile(_chunk_cumsum_seq_second(B, S, H, block), out_idx=[1], target="tenstorrent")
    want = np.concatenate([np.cumsum(g[:, s:s + block].astype(np.float32), 1) for s in range(0, S, block)], 1)
    np.testing.assert_allclose(kernel(g), want, rtol=1e-5, atol=1e-5)


def test_one_column_of_an_nd_tensor_into_a_1d_buffer_scales_rows() -> None:
    """upstream gdn's `Beta_shared[i_s] = Beta[bb, s0 + i_s, bh]` of a (B, S, H) tensor into a [block_S] vector, then
    `K[i, j] * Beta_shared[i]`: Beta is held transposed as for a [1, L] row (each (S, H) matrix as (H, S))."""
    import tilelang.language as T

    B, S, H, D, block = 2, 64, 3, 32, 32

    @T.prim_func
    def kernel(K: T.Tensor((B, S, D), "float32"), Beta: T.Tensor((B, S, H), "float32"),  # noqa: N803
               Out: T.Tensor((B, H, S, D), "float32")):  # noqa: N803
        with T.Kernel(S // block, B * H, threads=128) as (bs, bbh):
            bb, bh = bbh // H, bbh % H
            k_s = T.alloc_shared((block, D), "float32")
            beta_s = T.alloc_shared((block,), "float32")
            out_l = T.alloc_fragment((block, D), "float32")
            T.copy(K[bb, bs * block, 0], k_s)
            for i in T.Parallel(block):
                beta_s[i] = Beta[bb, bs * block + i, bh]
            for i, j in T.Parallel(block, D):
                out_l[i, j] = k_s[i, j] * beta_s[i]
            T.copy(out_l, Out[bb, bh, bs * block, 0])

    k = RNG.standard_normal((B, S, D)).astype(np.float32)
    beta = RNG.standard_normal((B, S, H)).astype(np.float32)
    got = tilelang.compile(kernel, out_idx=[2], target="tenstorrent")(k, beta)
    want = k[:, None, :, :] * beta.transpose(0, 2, 1)[:, :, :, None]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
