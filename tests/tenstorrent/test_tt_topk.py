"""Upstream top-k's index selection on Tenstorrent (issue 28; tests/tt_mask_kernels.py `topk_index`):
`expand_max_idx[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], j, expand_max_idx[i, j])` reads the column
index j from an int32 index table AddTTConstants adds (tile t holds jj + 32 t; the host fills it), copied per block
tile on chip (mask_block), and selects between it and the running int32 block with where_tile<Int32> of three DST
tiles (sfpu_select_block); `T.fill(expand_max_idx, -1)` is fill_tile_int; the int32 row maximum picks the index. In
the emulator against numpy, at tile multiples and with ragged rows and columns, with a tie (the larger column wins).
Upstream's `[M, topk]` column stores run with the outputs laid out transposed in DRAM (InferTTLayout's transposed)."""

import shutil

import numpy as np
import pytest
from tt_mask_kernels import topk_columns, topk_index, topk_rows

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError
from tilelang.tenstorrent import ttnn_host

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


@pytest.mark.parametrize(("M", "N", "blk_m"), [(64, 32, 32), (100, 40, 64)])
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


@pytest.mark.parametrize(("M", "N"), [(64, 32), (100, 40)])
def test_upstream_topk_column_stores_match_numpy_on_llvm_and_tenstorrent(M: int, N: int) -> None:
    """Upstream's `topk_gates[bx * blk_m + i, k] = max_val[i]` writes one column of an [M, topk] output per k: DRAM
    holds the outputs transposed ((topk, M), each k on a tile row of its own), which the host transposes back. N = 40:
    the padded columns of `expand_max_idx` hold its fill, -1, below every column index, so its row maximum is exact."""
    x, topk = _exact(M, N), 4
    order = np.argsort(-x, axis=1, kind="stable")[:, :topk].astype(np.int32)
    for target in ("llvm", "tenstorrent"):
        gates, indices = tilelang.compile(topk_columns(M, N, topk, 64), out_idx=[1, 2], target=target)(x)
        assert (gates.shape, indices.shape, indices.dtype) == ((M, topk), (M, topk), np.int32)
        np.testing.assert_array_equal(indices, order)
        np.testing.assert_array_equal(gates, np.take_along_axis(x, order, 1))


def test_column_stored_outputs_are_laid_out_transposed_in_the_plan(tmp_path) -> None:
    """tt.plan.json records the user's shape and the transpose's padded shape; main.cpp transposes what it crops, and
    run_ttnn.py reads the user's [M, topk] back out of the transposed matrix ttnn returns."""
    kernel = tilelang.compile(topk_columns(100, 40, 4, 64), out_idx=[1, 2], target="tenstorrent")
    tensors = {t["name"]: t for t in kernel.artifact.rt_mod.plan["tensors"]}
    gates, logits = tensors["gates"], tensors["logits"]
    assert (gates["shape"], gates["padded_shape"], gates["blocks"], gates["transposed"]) == (
        [100, 4], [4 * 32, 128], [1, 0], True)
    assert "transposed" not in logits and logits["padded_shape"] == [128, 64]
    assert "transpose_values(crop_tensor(values, layout)" in kernel.artifact.rt_mod.files["main.cpp"]
    script = ttnn_host.load_script(kernel.save(tmp_path / "topk") / ttnn_host.SCRIPT)
    matrix = np.full((4 * 32, 128), np.nan, np.float32)  # what DRAM holds: row 32 k is column k, M padded to 128
    values = RNG.random((100, 4), dtype=np.float32)
    matrix[::32, :100] = values.T
    np.testing.assert_array_equal(script.logical("gates", matrix), values)


def test_columns_read_and_written_one_per_iteration_round_trip_through_transposed_tensors() -> None:
    """An input read column by column is laid out transposed too: main.cpp transposes the user's values before it pads
    them. Ragged rows (100 in blocks of 64), columns read in one order and written in the reverse one."""

    @T.prim_func
    def main(X: T.Tensor((100, 4), "float32"), Y: T.Tensor((100, 4), "float32")):
        with T.Kernel(T.ceildiv(100, 64), threads=128) as bx:
            v = T.alloc_fragment((64,), "float32")
            w = T.alloc_fragment((64,), "float32")
            for k in T.serial(4):
                for i in T.Parallel(64):
                    v[i] = X[bx * 64 + i, k]
                for i in T.Parallel(64):
                    w[i] = v[i] * 2.0
                for i in T.Parallel(64):
                    Y[bx * 64 + i, 3 - k] = w[i]

    x = RNG.random((100, 4), dtype=np.float32)
    kernel = tilelang.compile(main, out_idx=[1], target="tenstorrent")
    assert all(t["transposed"] for t in kernel.artifact.rt_mod.plan["tensors"] if t["name"] in ("X", "Y"))
    np.testing.assert_array_equal(kernel(x), 2 * x[:, ::-1])


def test_a_column_store_into_a_tensor_also_copied_as_a_block_is_refused_naming_the_tensor() -> None:
    """A tensor read as a 2-D block keeps its layout (it is not laid out transposed), so its column stays refused:
    a block of 4 columns and one of 1 in one dim, by the padded layout."""

    @T.prim_func
    def main(X: T.Tensor((64, 32), "float32"), G: T.Tensor((64, 4), "float32")):
        with T.Kernel(1, threads=128):
            x = T.alloc_fragment((64, 32), "float32")
            g = T.alloc_fragment((64, 4), "float32")
            m = T.alloc_fragment((64,), "float32")
            T.copy(X[0, 0], x)
            T.copy(G[0, 0], g)
            T.reduce_max(x, m, dim=1)
            for i in T.Parallel(64):
                G[i, 1] = m[i]

    with pytest.raises(TileLangError, match=r"tensor 'G' \(shape \[64, 4\]\) is copied in blocks of \[1, 4\] "
                       r"elements along dim 1"):
        tilelang.lower(main, target="tenstorrent")


def test_a_fill_above_an_index_it_selects_is_refused_by_the_padding_check() -> None:
    """T.fill(expand_max_idx, 5) leaves 5 in the padded columns, above the column indices 0..4 a row maximum may
    pick, so the int32 row maximum would read it: refused, naming the padding."""
    with pytest.raises(TileLangError, match=r"T\.reduce_max into 'max_idx' reads the padding of 'expand_max_idx' .*"
                       r"which holds 5, not the -inf"):
        tilelang.lower(topk_index(100, 40, 64, fill=5), target="tenstorrent")


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
