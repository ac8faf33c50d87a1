"""A T.copy from DRAM that converts dtype (issue 28: GDN's chunk cumsum loads float16 `G` into a float32
`G_shared`): the reader moves raw tile pages into a staging CB of the tensor's dtype, and the compute kernel converts
them into the on-chip buffer (unpack one data format, pack the other), as an on-chip T.copy(acc_s, acc_s_cast)
does. Kernels written as upstream writes them, run in the emulator against numpy."""

from __future__ import annotations

import shutil

import ml_dtypes
import numpy as np
import pytest

import tilelang
import tilelang.language as T

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(2828)


def chunk_cumsum(b: int, h: int, s: int, block_s: int, reverse: bool) -> T.PrimFunc:
    """examples/gdn/example_cumsum.py's kernel (head_first=True, use_fragment=False) at its dtypes."""

    @T.prim_func
    def kernel(G: T.Tensor((b, h, s), "float16"), G_new: T.Tensor((b, h, s), "float32")) -> None:
        with T.Kernel(T.ceildiv(s, block_s), b * h, threads=128) as (bs, bbh):
            bb, bh = bbh // h, bbh % h
            G_shared = T.alloc_shared((1, block_s), "float32")
            T.copy(G[bb, bh, bs * block_s:(bs + 1) * block_s], G_shared)
            T.cumsum(G_shared, dim=1, reverse=reverse)
            T.copy(G_shared, G_new[bb, bh, bs * block_s:(bs + 1) * block_s])

    return kernel


def test_a_float16_chunk_loaded_into_a_float32_buffer_is_summed_in_float32() -> None:
    reverse = True  # the example's reverse cumsum (the forward one is tests/tenstorrent/test_tt_cumsum.py's)
    g = RNG.uniform(-1, 1, (1, 2, 128)).astype(np.float16)
    kernel = tilelang.compile(chunk_cumsum(1, 2, 128, 64, reverse), out_idx=[-1], target="tenstorrent")
    source = kernel.get_kernel_source()
    assert "G_shared_float16" in source  # the staging CB the reader fills
    chunks = g.astype(np.float32).reshape(1, 2, 2, 64)
    chunks = np.flip(chunks, -1) if reverse else chunks
    want = np.cumsum(chunks, -1)
    want = (np.flip(want, -1) if reverse else want).reshape(1, 2, 128)
    np.testing.assert_allclose(kernel(g), want, atol=1e-5, rtol=1e-5)


def scale_rows(m: int, n: int, block_m: int) -> T.PrimFunc:
    """A bfloat16 block loaded into a float32 fragment, scaled in float32 and stored as float32."""

    @T.prim_func
    def main(A: T.Tensor((m, n), "bfloat16"), B: T.Tensor((m, n), "float32")) -> None:
        with T.Kernel(T.ceildiv(m, block_m), threads=128) as bx:
            a = T.alloc_fragment((block_m, n), "float32")
            T.copy(A[bx * block_m, 0], a)
            for i, j in T.Parallel(block_m, n):
                a[i, j] = a[i, j] * 3.0
            T.copy(a, B[bx * block_m, 0])

    return main


def test_a_bfloat16_block_loaded_into_a_float32_fragment_keeps_its_values() -> None:
    a = RNG.uniform(-2, 2, (64, 96)).astype(ml_dtypes.bfloat16)
    kernel = tilelang.compile(scale_rows(64, 96, 32), out_idx=[-1], target="tenstorrent")
    np.testing.assert_allclose(kernel(a), a.astype(np.float32) * 3, rtol=1e-6)


def dram_to_dram(b: int, h: int, s: int, d: int, blk: int) -> T.PrimFunc:
    """examples/flash_attention/example_mha_bwd_bhsd.py's flashattn_bwd_postprocess (without its T.Layout, which
    only the CUDA backend reads): float32 dQ copied block by block into float16 dQ_out, DRAM to DRAM."""
    shape = [b, h, s, d]

    @T.prim_func
    def post(dQ: T.Tensor(shape, "float32"), dQ_out: T.Tensor(shape, "float16")) -> None:
        with T.Kernel(T.ceildiv(s, blk), h, b, threads=128) as (bx, by, bz):
            T.copy(dQ[bz, by, bx * blk:(bx + 1) * blk, :], dQ_out[bz, by, bx * blk:(bx + 1) * blk, :])

    return post


def test_a_dram_to_dram_copy_converts_float32_to_float16_rounding_once() -> None:
    # S = 200: a ragged last block; values whose float16 rounding differs from a bfloat16 one first (a 16-bit DST
    # would hold them as bfloat16 and the packer would round again).
    dq = RNG.uniform(-2, 2, (1, 2, 200, 64)).astype(np.float32)
    kernel = tilelang.compile(dram_to_dram(1, 2, 200, 64, 64), out_idx=[-1], target="tenstorrent")
    assert "dQ_to_dQ_out_float16" in kernel.get_kernel_source()  # the CB the compute kernel packs into
    np.testing.assert_array_equal(kernel(dq), dq.astype(np.float16))
