"""Upstream top-k's index selection on Tenstorrent (issue 28; tests/tt_mask_kernels.py `topk_index`):
`expand_max_idx[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], j, expand_max_idx[i, j])` reads the column
index j from an int32 index table AddTTConstants adds (tile t holds jj + 32 t; the host fills it), copied per block
tile on chip (mask_block), and selects between it and the running int32 block with where_tile<Int32> of three DST
tiles (sfpu_select_block); `T.fill(expand_max_idx, -1)` is fill_tile_int; the int32 row maximum picks the index. In
the emulator against numpy, at tile multiples and with ragged rows, with a tie (the larger column wins)."""

import shutil

import numpy as np
import pytest
from tt_mask_kernels import topk_columns, topk_index, topk_rows

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(2828)


def _exact(M: int, N: int) -> np.ndarray:
    """Distinct multiples of 1/2048 in [0, 1) per row: exact in the FPU's 19-bit SrcA, which the row maximum and the
    broadcast difference it is compared through read."""
    return np.stack([RNG.permutation(2048)[:N] for _ in range(M)]).astype("float32") / 2048


def _reference(x: np.ndarray) -> np.ndarray:
    """The largest column holding the row's maximum (upstream's reduce_max over the selected indices)."""
    hit = x == x.max(axis=1, keepdims=True)
    return np.where(hit, np.arange(x.shape[1]), -1).max(axis=1).astype(np.int32)


@pytest.mark.parametrize(("M", "N", "blk_m"), [(64, 32, 32), (100, 64, 64)])
def test_the_column_index_of_the_row_maximum_matches_numpy(M: int, N: int, blk_m: int) -> None:
    x = _exact(M, N)
    x[3, [5, N - 2]] = 1.0  # a tie: the larger column wins, as upstream's int32 row maximum picks it
    kernel = tilelang.compile(topk_index(M, N, blk_m), out_idx=[-1], target="tenstorrent")
    compute = kernel.artifact.rt_mod.files["compute.cpp"]
    assert "where_tile<DataFormat::Int32>(" in compute and "fill_tile_int<DataFormat::Int32>(" in compute
    np.testing.assert_array_equal(kernel(x), _reference(x))


@pytest.mark.parametrize(("M", "N", "blk_m"), [(64, 32, 64), (100, 64, 64)])
def test_upstream_topk_body_carries_logits_across_its_k_loop(M: int, N: int, blk_m: int) -> None:
    """Upstream's k loop reads and rewrites `logits_frag`, which starts as a T.copy from DRAM: the reader reads it into
    a CB of its own and an on-chip copy makes the carried value (copy_in_carried). Outputs stored as rows."""
    x, topk = _exact(M, N), 4
    kernel = tilelang.compile(topk_rows(M, N, topk, blk_m), out_idx=[1, 2], target="tenstorrent")
    gates, indices = kernel(x)
    order = np.argsort(-x, axis=1, kind="stable")[:, :topk].astype(np.int32)
    np.testing.assert_array_equal(indices.T, order)
    np.testing.assert_array_equal(gates.T, np.take_along_axis(x, order, 1))


def test_upstream_topk_column_stores_run_on_llvm_and_are_refused_by_name_on_tenstorrent() -> None:
    """Upstream's `topk_gates[bx * blk_m + i, k] = max_val[i]` writes one column of an [M, topk] output per k."""
    x = _exact(64, 32)
    gates, indices = tilelang.compile(topk_columns(64, 32, 4, 64), out_idx=[1, 2], target="llvm")(x)
    order = np.argsort(-x, axis=1, kind="stable")[:, :4].astype(np.int32)
    np.testing.assert_array_equal(indices, order)
    np.testing.assert_array_equal(gates, np.take_along_axis(x, order, 1))
    with pytest.raises(TileLangError, match=r"T\.copy between 1-D on-chip buffer 'max_val' and one column of tensor "
                       r"'gates' \(shape \[64, 4\]\) is not supported yet: .* keep such a vector in a row of a "
                       r"\(4, 64\) tensor instead"):
        tilelang.lower(topk_columns(64, 32, 4, 64), target="tenstorrent")


def test_columns_that_are_not_whole_tiles_are_refused_by_the_padding_check() -> None:
    """T.fill(expand_max_idx, -1) leaves -1 in the padded columns, where the int32 row maximum needs INT32_MIN."""
    with pytest.raises(TileLangError, match=r"T\.reduce_max into 'max_idx' reads the padding of 'expand_max_idx' .*"
                       r"which holds -1, not the -inf"):
        tilelang.lower(topk_index(100, 40, 64), target="tenstorrent")


def test_an_index_selected_into_a_float16_store_is_refused_by_name() -> None:
    @T.prim_func
    def main(A: T.Tensor((32, 32), "float16"), Out: T.Tensor((32, 32), "float16")):
        with T.Kernel(1, threads=128):
            a = T.alloc_shared((32, 32), "float16")
            y = T.alloc_fragment((32, 32), "float16")
            T.copy(A[0, 0], a)
            T.fill(y, 0)
            for i, j in T.Parallel(32, 32):
                y[i, j] = T.if_then_else(a[i, j] > 0.5, j, y[i, j])
            T.copy(y, Out[0, 0])

    with pytest.raises(TileLangError, match=r"selects the element index j as a value into a float16 store; the "
                       r"tenstorrent backend selects indices of 2-D int32 or float32 stores"):
        tilelang.lower(main, target="tenstorrent")
