"""While loops on Tenstorrent (issue 28): a `while` over index scalars (stream-K's `while start_iter[0] < last_iter`)
is a loop of every kernel: the reader, compute and writer keep the scalars (tests/tenstorrent/test_tt_scalars.py) and
each evaluates the condition itself, so all three run the body equally often and agree on every tile they push and pop.
Run in the emulator against numpy at a tile multiple and a ragged shape whose blocks walk ranges of different lengths; a
condition read from a buffer is refused naming it."""

import shutil

import ml_dtypes
import numpy as np
import pytest
from tt_loop_kernels import streamk_whole_tiles, while_rows

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


@pytest.mark.parametrize("m,n,steps", [(128, 64, 2), (100, 72, 3)])
def test_a_while_loop_over_an_index_scalar_runs_in_every_kernel(m: int, n: int, steps: int) -> None:
    """(100, 72) in row blocks of 32 over ranges of 3: block 0 walks rows 0-2, block 1 row 3 only."""
    a = np.random.default_rng(m + n).standard_normal((m, n)).astype(np.float32)
    kernel = tilelang.compile(while_rows(m, n, 32, steps), out_idx=[-1], target="tenstorrent")
    np.testing.assert_allclose(kernel(a), a * 2, rtol=1e-6, atol=1e-6)
    files = kernel.artifact.rt_mod.files
    for role in ("reader", "compute", "writer"):
        assert "while (row < " in files[f"{role}.cpp"], role


def test_streamk_walk_of_whole_tiles_matches_numpy() -> None:
    """Stream-K's while loop, tiles and K ranges from `start_iter`, and its K loop of run-time extent `end_iter -
    start_iter` (B transposed), where every program's range is whole tiles (no fix-up): ragged 100x72x80 in 32-blocks
    (12 tiles of 3 K steps) over 5 programs of 3 tiles (the last one empty) on 3 cores (two programs on a core walk
    one after the other)."""
    m, n, k = 100, 72, 80
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (m, k)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-1, 1, (n, k)).astype(ml_dtypes.bfloat16)
    kernel = tilelang.compile(streamk_whole_tiles(m, n, k, 32, 32, 32, 5), out_idx=[-1], target="tenstorrent",
                              pass_configs={"tl.PartitionTTWork.core_grid": [3, 1]})
    want = a.astype(np.float32) @ b.astype(np.float32).T
    np.testing.assert_allclose(kernel(a, b), want, rtol=1e-5, atol=1e-5)


def _while_on_data(n: int = 64):
    @T.prim_func
    def main(A: T.Tensor((32, n), "float32"), B: T.Tensor((32, n), "float32")):
        with T.Kernel(1, threads=128):
            a = T.alloc_fragment((32, n), "float32")
            T.copy(A, a)
            while a[0, 0] < 10.0:
                for i, j in T.Parallel(32, n):
                    a[i, j] = a[i, j] * 2.0
            T.copy(a, B)

    return main


def test_a_while_loop_on_data_is_refused_naming_the_buffer() -> None:
    """The reader and writer kernels never see on-chip values, so they could not run such a loop in step."""
    with pytest.raises(TileLangError, match=r"a while loop \(while a\[0, 0\] < T.float32\(10.0\)\) has a condition "
                                            r"read from 'a'"):
        tilelang.lower(_while_on_data(), target="tenstorrent")


def _gemm_over_while():
    @T.prim_func
    def main(A: T.Tensor((32, 128), "bfloat16"), B: T.Tensor((128, 32), "bfloat16"), C: T.Tensor((32, 32), "float")):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((32, 32), "bfloat16")
            B_s = T.alloc_shared((32, 32), "bfloat16")
            C_l = T.alloc_fragment((32, 32), "float")
            k = T.alloc_var("int32")
            k = 0
            T.clear(C_l)
            while k < 4:
                T.copy(A[0, k * 32], A_s)
                T.copy(B[k * 32, 0], B_s)
                T.gemm(A_s, B_s, C_l)
                k = k + 1
            T.copy(C_l, C[0, 0])

    return main


def test_a_gemm_accumulating_over_a_while_loop_is_refused() -> None:
    """Its last step packs the result, and no kernel knows which step of a while loop is the last before it ends."""
    with pytest.raises(TileLangError, match=r"T.gemm into 'C_l' accumulates over the while loop \(while k < 4\), "
                                            r"whose trip count is known only as it ends"):
        tilelang.lower(_gemm_over_while(), target="tenstorrent")
