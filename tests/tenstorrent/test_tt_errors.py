"""Kernels the tenstorrent backend cannot lower: each raises a TileLangError naming the buffer or op and the
limit or rule it breaks (never a traceback from deep inside a pass)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
import tt_bad_kernels as bad
from tt_kernels import elementwise_add, elementwise_unary, matmul
from tt_norm_kernels import row_tensor

import tilelang
from tilelang.language import TileLangError

CASES: list[tuple[str, Any, str]] = [
    ("unsupported dtype", lambda: elementwise_unary(64, 64, 32, 32, "exp", "int16"),
     r"tensor 'A' has dtype int16; the tenstorrent backend supports the dtypes Metalium has a data format for: "
     r"bfloat16, float16, float32, int32, uint32, uint16, uint8, and int8 and bool as UInt8 bytes"),
    ("integer arithmetic", lambda: elementwise_unary(64, 64, 32, 32, "exp", "int32"),
     r"element-wise store to 'C_local' computes on the int32 buffer 'A_shared'; the tenstorrent backend moves "
     r"integer and boolean blocks"),
    ("float64", lambda: elementwise_add(64, 64, 32, 32, "float64", "float64"), r"tensor 'A' has dtype float64"),
    ("padding of a derived value reduced", lambda: bad.sum_of_sqrt_offset(100, 200),
     r"T.reduce_sum into 's' reads the padding of 'x' \(its columns beyond the logical extent: .*\), which holds 1, "
     r"not the 0 that keeps its result exact; the tenstorrent backend masks padding \(index masks, issue 28\) only "
     r"before a row reduction over ragged columns \(a column reduction over ragged rows\) of a gemm's product "
     r"\(max, min\), of a value computed from a per-row \(per-column\) vector or not 0 where its operands are 0, "
     r"such as x \+ 1 \(sum\), or of a value that reductions of different identities read"),
    ("sub-tile blocks of two extents", bad.two_block_extents,
     r"tensor 'A' \(shape \[64, 64\]\) is copied in blocks of \[8, 16\] elements along dim 0; blocks that are not "
     r"whole 32-element tiles are laid out one per run of tiles, so every block of a dim must have one extent"),
    ("L1 overflow", lambda: matmul(512, 512, 512, 512, 512, 32, "bfloat16", "float"),
     r"circular buffers need \d+ B of L1 per core, more than the 1499136 B available \(largest: 'C_local' \(CB 16\)"),
    ("too many input CBs", lambda: "many_inputs",
     r"too many input CBs: 17 on-chip values \(S0, .*S16\) but CBs 0-15 hold only 16"),
    ("gemm without clear", bad.gemm_without_clear, r"T.gemm accumulates into 'C_l', which must be cleared first"),
    ("atomic_add into one head", bad.atomic_into_one_head,
     r"T.atomic_add into Out\[0, 0, by, 0\]: the target spans dim 1 \(extents \[1, 64, 1, 32\]\); the fragment's "
     r"rows and columns are the tensor's last two dims"),
    ("unaligned block offset", bad.unaligned_block_offset,
     r"block of 'A' starts at \(by \* 48 \+ 16, 0\), not on a tile"),
    ("transposed operand", lambda: bad.eltwise("transpose"),
     r"operand A_s\[j, i\] reads 'A_s' at other indices than the loop variables \(i, j\)"),
    ("unsupported function", lambda: bad.eltwise("erf"),  # named, with the op map's forms (sqrt was misreported)
     r"operand T.erf\(A_s\[i, j\]\) calls T.erf \(tirx.erf\), which has no tenstorrent element-wise lowering "
     r"\(supported: the functions T.max\(x, 0\), 1 / x, T.exp\(x\), T.exp2\(x\), T.log\(x\), T.log2\(x\), "
     r"T.sqrt\(x\), .*; "
     r"a \+ b, a - b, a \* b, T.max\(a, b\), T.min\(a, b\) and a / b of two buffers, a \+ b, a - b, a \* b also of a "
     r"block x\[i, j\] and a \[block_M\] column vector v\[i\], a \+ b, a \* b of a block and a 1-D tensor read whole "
     r"as w\[j\]; x \+ c, .*; nested in any order"),
    ("disjunction in a selection", lambda: bad.eltwise("or", "float32"),
     r"selects by A_s\[i, j\] <= B_s\[i, j\] or j < i, which is not a comparison the op map has"),
    ("1-D tensor subtracted in a store", lambda: row_tensor(64, 96, 32, "sub"),
     r"operand x\[i, j\] - W\[j\] combines a block and a row vector \(v\[j\]\) by a - b with the vector on the "
     r"right, which has no broadcast form \(broadcasts: a \+ b, a \* b with the vector as b\)"),
    ("float64 accumulator", lambda: matmul(64, 64, 64, 32, 32, 32, "bfloat16", "float64"),
     r"on-chip buffer 'C_local' has dtype float64; the tenstorrent backend computes in .*float32, .*uint8 only"),
    ("gemm alpha", bad.gemm_alpha, r"T.gemm into 'C_l' scales the product by T.float32\(2(.0)?\); only 1.0"),
    ("unused input", bad.unused_input, r"on-chip buffer 'B_s' is written but its value is never used"),
    ("read before write", bad.read_before_write, r"reads on-chip buffer 'A_s' before anything writes it"),
    ("conditional tile op", bad.conditional_copy,
     r"on-chip buffer 'A_s' is written in the then branch of \(if 0 < by\) by T.copy from 'A' and read outside the "
     r"if/else by T.copy to 'C'"),
    ("block across a non-tiled dim", bad.block_across_heads,
     r"tensor 'Q' \(shape \[1, 64, 32, 32\]\) and 'Q_s' spans dims \[1, 2\]; tiles are of the tensor's last two dims "
     r"\(2, 3\).*row-major instead"),
]


def _load_many_inputs(tmp_path: Path, count: int, factory: Any = bad.many_inputs) -> Any:
    source, _ = factory(count)
    path = tmp_path / f"{factory.__name__}_{count}.py"
    path.write_text(source, "utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main


@pytest.mark.parametrize("factory,message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_kernel_is_rejected(factory: Any, message: str, tmp_path: Path) -> None:
    kernel = factory()
    if kernel == "many_inputs":
        kernel = _load_many_inputs(tmp_path, 17)
    with pytest.raises(TileLangError, match=message):
        tilelang.lower(kernel, target="tenstorrent")


def test_at_least_twenty_cases() -> None:
    assert len(CASES) >= 20


def test_sixteen_inputs_still_fit(tmp_path: Path) -> None:
    art = tilelang.lower(_load_many_inputs(tmp_path, 16), target="tenstorrent")
    assert [c["index"] for c in art.host_mod["cbs"]] == list(range(16))


def test_intermediate_values_beyond_every_free_cb_are_refused(tmp_path: Path) -> None:
    """Row maxima read by one store are live together: with the block, the scaler tile and the output in 3 CBs, 29 are
    left for them and the store's running sums (27 maxima fit; 30 do not)."""
    fits = _load_many_inputs(tmp_path, 27, bad.many_vectors)
    art = tilelang.lower(fits, target="tenstorrent")
    assert len({c["index"] for c in art.host_mod["cbs"]}) == len(art.host_mod["cbs"]) <= 32
    with pytest.raises(TileLangError, match=r"too many intermediate CBs: \d+ on-chip values \(V0, V1, .*\) but CBs "
                       r"24-31 hold only 8 \(with the \d+ CBs of other ranges the kernel leaves free, \d+; values "
                       r"whose blocks are freed before another of their size is made already share a CB\)"):
        tilelang.lower(_load_many_inputs(tmp_path, 30, bad.many_vectors), target="tenstorrent")


def test_core_grid_larger_than_the_device() -> None:
    from test_tt_pipeline import gemm, run_until

    from tilelang import transform

    mod = run_until(gemm(), "AttachTTAccessors")
    with pytest.raises(TileLangError, match=re.escape("core_grid [9, 8] does not fit the device's (8, 8) worker grid")):
        transform.PartitionTTWork(core_grid=[9, 8])(mod)
