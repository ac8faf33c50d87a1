"""Integer and boolean tensors on Tenstorrent (issue 28): the data formats Metalium has for them (tt-metal's
DataFormat Int32, UInt32, UInt16, UInt8; a bool tensor is UInt8 of 0 and 1, an int8 tensor UInt8 of its two's
complement bytes, as tt-metal's typecast_tile asks of Int8 data) through the reader, the compute kernel
(1-D vectors are transposed on chip, so their tiles pass through DST) and the writer, in the emulator, compared
exactly with numpy; dtypes without a format and integer ops the backend lacks are refused by name."""

from __future__ import annotations

import shutil

import ml_dtypes
import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError
from tilelang.tenstorrent import host_args

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(28)
DTYPES = ["int32", "uint32", "uint16", "uint8", "int8", "bool"]


def _values(dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    if dtype == "bool":
        return RNG.integers(0, 2, shape).astype("bool")
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)  # the extremes included


def block_copy(M: int, N: int, bm: int, bn: int, dtype: str):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(N // bn, M // bm) as (bx, by):
            s = T.alloc_shared((bm, bn), dtype)
            T.copy(A[by * bm, bx * bn], s)
            T.copy(s, B[by * bm, bx * bn])

    return main


def vector_copy(M: int, bm: int, dtype: str):
    @T.prim_func
    def main(A: T.Tensor((M,), dtype), B: T.Tensor((M,), dtype)):
        with T.Kernel(M // bm) as bx:
            v = T.alloc_fragment((bm,), dtype)
            T.copy(A[bx * bm], v)
            T.copy(v, B[bx * bm])

    return main


@pytest.mark.parametrize("dtype", DTYPES)
def test_integer_block_copy_is_exact(dtype: str) -> None:
    a = _values(dtype, (64, 128))
    kernel = tilelang.compile(block_copy(64, 128, 32, 64, dtype), out_idx=[-1], target="tenstorrent")
    fmt = {"int32": "Int32", "uint32": "UInt32", "uint16": "UInt16"}.get(dtype, "UInt8")  # uint8, int8, bool: bytes
    lines = kernel.artifact.rt_mod.files[host_args.FILE].splitlines()
    cbs = [line.split() for line in lines if line.startswith("cbs ")]
    assert cbs and all(int(cb[2]) == host_args.DATA_FORMAT_VALUES[fmt] for cb in cbs)  # index, data format, ...
    np.testing.assert_array_equal(kernel(a), a)


@pytest.mark.parametrize("dtype", DTYPES)
def test_integer_vector_through_the_compute_kernel_is_exact(dtype: str) -> None:
    """A 1-D block is read as row tiles and transposed on chip into a column vector and back: integer tiles in DST."""
    a = _values(dtype, (128,))
    kernel = tilelang.compile(vector_copy(128, 64, dtype), out_idx=[-1], target="tenstorrent")
    source = kernel.get_kernel_source()
    files = kernel.artifact.rt_mod.files  # integers in 32-bit DST: main.cpp reads fp32_dest_acc_en from tt.host_args
    assert "transpose_tile(" in source and "compute.fp32_dest_acc_en 1" in files[host_args.FILE].splitlines()
    np.testing.assert_array_equal(kernel(a), a)


@pytest.mark.parametrize("dtype", ["int16", "int64", "float64"])
def test_dtypes_without_a_data_format_are_refused_by_name(dtype: str) -> None:
    with pytest.raises(TileLangError, match=f"tensor 'A' has dtype {dtype}; the tenstorrent backend supports"):
        tilelang.lower(block_copy(64, 64, 32, 32, dtype), target="tenstorrent")


def cast(M: int, N: int, bm: int, bn: int, src: str, dst: str):
    @T.prim_func
    def main(A: T.Tensor((M, N), src), B: T.Tensor((M, N), dst)):
        with T.Kernel(N // bn, M // bm) as (bx, by):
            a = T.alloc_shared((bm, bn), src)
            b = T.alloc_fragment((bm, bn), dst)
            T.copy(A[by * bm, bx * bn], a)
            for i, j in T.Parallel(bm, bn):
                b[i, j] = T.Cast(dst, a[i, j])
            T.copy(b, B[by * bm, bx * bn])

    return main


def test_int32_to_float32_cast_rounds_to_nearest() -> None:
    """typecast_tile<Int32, Float32>: SFPCAST rounds to nearest even, as numpy's astype does."""
    a = _values("int32", (64, 64))
    a[0, :4] = [0, -1, 2**24 + 1, -(2**31)]
    kernel = tilelang.compile(cast(64, 64, 32, 32, "int32", "float32"), out_idx=[-1], target="tenstorrent")
    assert "typecast_tile<8, 0>(0)" in kernel.get_kernel_source()
    np.testing.assert_array_equal(kernel(a), a.astype("float32"))


@pytest.mark.parametrize("src", ["float32", "bfloat16"])
def test_float_to_int32_cast_truncates_toward_zero(src: str) -> None:
    """typecast_tile<Float32/Float16_b, Int32> shifts the mantissa by the exponent: truncation, as T.Cast (C)."""
    x = RNG.standard_normal((64, 64)) * 1e6
    x[0, :6] = [0.5, -0.5, -1.7, 2.9, -0.0, 2.0**30]
    a = x.astype(ml_dtypes.bfloat16 if src == "bfloat16" else "float32")
    kernel = tilelang.compile(cast(64, 64, 32, 32, src, "int32"), out_idx=[-1], target="tenstorrent")
    np.testing.assert_array_equal(kernel(a), np.trunc(a.astype("float32")).astype("int32"))


def test_casts_the_backend_does_not_convert_are_refused_by_name() -> None:
    with pytest.raises(TileLangError, match=r"element-wise store to 'b' converts int32 'a' to bfloat16; the "
                                            r"tenstorrent backend converts int32 to and from float32, and bfloat16 to"):
        tilelang.lower(cast(64, 64, 32, 32, "int32", "bfloat16"), target="tenstorrent")
    with pytest.raises(TileLangError, match=r"converts uint8 'a' to float32"):
        tilelang.lower(cast(64, 64, 32, 32, "uint8", "float32"), target="tenstorrent")


def test_integer_cumsum_is_refused_naming_the_sfpu() -> None:
    @T.prim_func
    def main(A: T.Tensor((32, 32), "int32"), B: T.Tensor((32, 32), "int32")):
        with T.Kernel(1) as _:
            s = T.alloc_shared((32, 32), "int32")
            T.copy(A[0, 0], s)
            T.cumsum(s, dim=0)
            T.copy(s, B[0, 0])

    with pytest.raises(TileLangError, match=r"T.cumsum\(s, dim=0\) sums a int32 buffer; Metalium's cumsum_tile adds "
                                            r"in fp32"):
        tilelang.lower(main, target="tenstorrent")


def test_run_ttnn_moves_integer_tensors_as_integers(tmp_path) -> None:
    """run_ttnn.py (the ttnn host program) uploads and reads integer tensors in their own dtype: float32 would round
    int32 values beyond 2**24."""
    from tilelang.tenstorrent import ttnn_host

    out = tilelang.compile(block_copy(64, 64, 32, 32, "int32"), target="tenstorrent").save(tmp_path / "k")
    script = ttnn_host.load_script(out / "run_ttnn.py")
    assert script.TENSORS["A"]["host_dtype"] == "int32" and "ttnn.int32" in (out / "run_ttnn.py").read_text()
    a = _values("int32", (64, 64))
    a.tofile(tmp_path / "A.bin")
    values = script.read_tensor(tmp_path, "A")
    assert values.dtype == np.int32
    np.testing.assert_array_equal(values, a)
    script.write_tensor(tmp_path, "B", values)
    np.testing.assert_array_equal(np.fromfile(tmp_path / "B.bin", dtype=np.int32).reshape(64, 64), a)


def test_run_ttnn_moves_int8_as_its_two_s_complement_bytes(tmp_path) -> None:
    """An int8 tensor is a UInt8 tensor of its bytes (ttnn.uint8): uploaded and read back as those bytes."""
    from tilelang.tenstorrent import ttnn_host

    out = tilelang.compile(block_copy(32, 32, 32, 32, "int8"), target="tenstorrent").save(tmp_path / "k")
    script = ttnn_host.load_script(out / "run_ttnn.py")
    assert script.TENSORS["A"]["host_dtype"] == "uint8" and "ttnn.uint8" in (out / "run_ttnn.py").read_text()
    a = _values("int8", (32, 32))
    a.tofile(tmp_path / "A.bin")
    script.write_tensor(tmp_path, "B", script.read_tensor(tmp_path, "A"))
    np.testing.assert_array_equal(np.fromfile(tmp_path / "B.bin", dtype=np.int8).reshape(32, 32), a)
