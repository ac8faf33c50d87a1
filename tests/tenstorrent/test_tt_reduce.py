"""Row reductions on Tenstorrent: T.reduce_sum / T.reduce_max over the rows of a 2-D on-chip block into a 1-D
fragment held as a column vector (column 0 of M/32 tiles), written to a 1-D DRAM tensor (a row vector: the column
vector is transposed on chip). reduce_tile reads tt-metal's scaler tile from a constant DRAM tensor the passes
add (reduce_scaler) and main.cpp fills.

Numerics: bf16 inputs from U(-2, 2) (U(-2, -0.5) for the all-negative max), fp32 accumulation in DST
(fp32_dest_acc_en: the result is an fp32 fragment). Sums are compared with numpy's fp32 sum within 1e-5 * N * max|A|
(a different fp32 summation order); maxima exactly (no rounding is involved).
"""

from __future__ import annotations

import re
import shutil
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from tt_kernels import col_reduce, row_reduce

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError
from tilelang.tenstorrent.emulator import TTEmulatorError

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def inputs(m: int, n: int, low: float = -2.0, high: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(m * 31 + n)
    return rng.uniform(low, high, (m, n)).astype(BF16), rng.uniform(low, high, (m, n)).astype(BF16)


def reference(kind: str, a: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    fold = np.sum if kind == "sum" else np.max
    out = fold(a.astype(np.float32), axis=1)
    if b is not None:
        other = fold(b.astype(np.float32), axis=1)
        out = out + other if kind == "sum" else np.maximum(out, other)
    return out


def check(kind: str, got: np.ndarray, ref: np.ndarray, n: int) -> None:
    if kind == "max":
        np.testing.assert_array_equal(got, ref)
    else:
        assert float(np.abs(got - ref).max()) <= 1e-5 * n * 2.0


@pytest.mark.parametrize("kind", ["sum", "max"])
@pytest.mark.parametrize("shape", [(64, 64, 32), (256, 96, 64)], ids=["2blocks", "4blocks"])
def test_row_reduction_matches_numpy(kind: str, shape: tuple[int, int, int]) -> None:
    m, n, bm = shape
    kernel = tilelang.compile(row_reduce(m, n, bm, kind), out_idx=[-1], target="tenstorrent")
    a, b = inputs(m, n)
    out = kernel(a, b)
    assert out.shape == (m,)
    check(kind, out, reference(kind, a), n)
    assert kernel.last_report["status"] == "ok"


def test_row_max_of_negative_rows_is_not_zero() -> None:
    """DST is zero after tile_regs_acquire; max must start from the row's own values, not from 0."""
    kernel = tilelang.compile(row_reduce(64, 64, 32, "max"), out_idx=[-1], target="tenstorrent")
    a, b = inputs(64, 64, -2.0, -0.5)
    out = kernel(a, b)
    assert float(out.max()) < 0
    np.testing.assert_array_equal(out, reference("max", a))


@pytest.mark.parametrize("kind", ["sum", "max"])
def test_clear_false_accumulates_onto_the_previous_value(kind: str) -> None:
    kernel = tilelang.compile(row_reduce(128, 64, 64, kind, accumulate=True), out_idx=[-1], target="tenstorrent")
    a, b = inputs(128, 64)
    out = kernel(a, b)
    check(kind, out, reference(kind, a, b), 2 * 64)


def test_several_blocks_per_core() -> None:
    kernel = tilelang.compile(row_reduce(256, 64, 32, "sum"), out_idx=[-1], target="tenstorrent",
                              pass_configs={"tl.PartitionTTWork.core_grid": [2, 1]})
    a, b = inputs(256, 64)
    out = kernel(a, b)
    check("sum", out, reference("sum", a), 64)
    assert kernel.last_report["status"] == "ok"


def test_the_scaler_is_a_constant_the_host_fills() -> None:
    art = tilelang.lower(row_reduce(64, 64, 32, "sum"), target="tenstorrent")
    plan: dict[str, Any] = art.rt_mod.plan
    scaler = next(t for t in plan["tensors"] if t["name"] == "reduce_scaler")
    assert scaler["parameter"] == -1 and scaler["constant"] == {"value": 1.0, "rows": [0, 16]}
    assert scaler["shape"] == [32, 32] and scaler["dtype"] == "bfloat16"
    assert [p.name for p in art.params] == ["A", "B", "Out"]  # not a user parameter
    assert "reduce_init<PoolType::SUM, ReduceDim::REDUCE_ROW>" in art.kernel_source
    assert "reduce_uninit(" in art.kernel_source


def _kernel(body: Any) -> Any:
    @T.prim_func
    def main(A: T.Tensor((64, 64), "bfloat16"), Out: T.Tensor((64,), "float")):
        with T.Kernel(1, threads=128) as _:
            A_s = T.alloc_shared((64, 64), "bfloat16")
            r = T.alloc_fragment((64,), "float")
            T.copy(A[0, 0], A_s)
            body(A_s, r)
            T.copy(r, Out[0:64])
    return main


@pytest.mark.parametrize(("body", "message"), [
    (lambda a, r: T.reduce_absmax(a, r, dim=1), r"T\.reduce_absmax\(A_s, r\) is not supported .* T\.reduce_sum, "
                                                r"T\.reduce_max and T\.reduce_min are"),
    (lambda a, r: T.reduce_sum(a, T.alloc_fragment((64, 1), "float"), dim=1),
     r"into \[64, 1\]; .*reduces a 2-D on-chip buffer \[M, N\] over its rows \(dim=1 or -1\) into a 1-D buffer "
     r"\[M\], or over its columns \(dim=0\) into a 1-D buffer \[N\]"),
], ids=["absmax", "2d_result"])
def test_refused_reductions_name_the_construct(body: Any, message: str) -> None:
    with pytest.raises(TileLangError, match=message):
        tilelang.lower(_kernel(body), target="tenstorrent")


def _seeded(edit: Any) -> str:
    program = tilelang.lower(row_reduce(64, 64, 32, "sum"), target="tenstorrent").rt_mod
    edit(program.files)
    a, b = inputs(64, 64)
    with pytest.raises(TTEmulatorError) as err:
        program(a, b, np.zeros((64,), np.float32))
    return str(err.value)


def _every_row(host_args: str) -> str:
    """The scaler constant in all 32 rows of its tile instead of rows 0 and 16 (main.cpp reads them at run time)."""
    edited, count = re.subn(r"^(\S+\.constant_rows) 0 16$", r"\1 " + " ".join(map(str, range(32))), host_args,
                            flags=re.MULTILINE)
    assert count == 1
    return edited


def test_sanitizer_rejects_an_all_ones_scaler_tile() -> None:
    def fill_every_row(files: dict[str, str]) -> None:
        files["tt.host_args"] = _every_row(files["tt.host_args"])

    message = _seeded(fill_every_row)
    assert "the scaler tile (tile 0 of CB 1) does not have tt-metal's scaler layout" in message
    assert "element (1, 0) is 1.0" in message


def test_a_max_reduction_is_held_to_the_scaler_rows_it_reads() -> None:
    """tt-metal's reduce_max programming example feeds reduce_tile<MAX> an all-ones scaler tile: only rows 0 and 16
    (the first row of each face) must hold the scaler for a MAX reduction; a sum still needs the zeros."""
    program = tilelang.lower(row_reduce(64, 64, 32, "max"), target="tenstorrent").rt_mod
    program.files["tt.host_args"] = _every_row(program.files["tt.host_args"])
    a, b = inputs(64, 64)
    out = np.zeros((64,), np.float32)
    program(a, b, out)
    check("max", out, reference("max", a), 64)


def test_sanitizer_rejects_reduce_tile_cbs_other_than_reduce_init() -> None:
    def other_scaler(files: dict[str, str]) -> None:
        compute = files["compute.cpp"]
        call = "reduce_tile<PoolType::SUM, ReduceDim::REDUCE_ROW>(0, 1,"
        assert call in compute
        files["compute.cpp"] = compute.replace(call, "reduce_tile<PoolType::SUM, ReduceDim::REDUCE_ROW>(0, 0,")

    message = _seeded(other_scaler)
    assert ("reduce_tile<SUM> reads CB 0 with scaler CB 0, but the last reduce_init was <SUM> for CB 0 with "
            "scaler CB 1") in message


# ---------------------------------------------------------------------------------------------- column reductions

@pytest.mark.parametrize("kind", ["sum", "max"])
@pytest.mark.parametrize(("shape", "accumulate"), [((64, 64, 32), False), ((96, 256, 64), False),
                                                   ((64, 128, 64), True)], ids=["2blocks", "4blocks", "clear_false"])
def test_column_reduction_matches_numpy(kind: str, shape: tuple[int, int, int], accumulate: bool) -> None:
    m, n, bn = shape
    kernel = tilelang.compile(col_reduce(m, n, bn, kind, accumulate), out_idx=[-1], target="tenstorrent")
    a, b = inputs(m, n)
    out = kernel(a, b)
    assert out.shape == (n,)
    check(kind, out, reference(kind, a.T, b.T if accumulate else None), m * (2 if accumulate else 1))
    assert kernel.last_report["status"] == "ok"


def test_column_reduction_transposes_the_block_then_reduces_its_rows() -> None:
    source = tilelang.lower(col_reduce(64, 64, 32, "max"), target="tenstorrent").kernel_source
    assert "transpose_tile(0, r, 0)" in source  # every tile of the block, before the reduction
    assert "reduce_tile<PoolType::MAX, ReduceDim::REDUCE_ROW>" in source
