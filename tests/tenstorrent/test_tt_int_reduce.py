"""Row maxima of int32 blocks on Tenstorrent (issue 28; src/transform/tile_ops_int_reduce.cc): T.reduce_max of an
int32 block is the SFPU's signed row maximum of its Int32 tiles in 32-bit DST (sfpu_reduce<MAX, Int32, REDUCE_ROW>,
protocol reduce_block with sfpu_int32), run in the emulator against numpy at tile multiples and at a ragged shape
whose padding holds INT32_MIN (the maximum's identity, -inf as the host writes it for an int32 tensor)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(2028)
REPO = Path(__file__).resolve().parents[2]
I32 = np.iinfo(np.int32)


def row_max(M: int, N: int, blk_m: int, dim: int = 1, clear: bool = True, kind: str = "max"):
    out_len = M if dim == 1 else N
    blk_out = blk_m if dim == 1 else N

    @T.prim_func
    def main(A: T.Tensor((M, N), "int32"), Out: T.Tensor((out_len,), "int32")):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            a = T.alloc_shared((blk_m, N), "int32")
            mx = T.alloc_fragment((blk_out,), "int32")
            T.copy(A[bx * blk_m, 0], a)
            if kind == "max":
                T.reduce_max(a, mx, dim=dim, clear=clear)
            else:
                T.reduce_sum(a, mx, dim=dim, clear=clear)
            T.copy(mx, Out[bx * blk_m if dim == 1 else 0])

    return main


def _data(M: int, N: int) -> np.ndarray:
    x = RNG.integers(I32.min, I32.max, (M, N), dtype=np.int64, endpoint=True).astype(np.int32)
    x[1] = I32.min  # a row of the least int32 (signed compare: not 0x80000000 as unsigned)
    x[2] = -RNG.integers(1, 1000, N)  # all negative: the padding (INT32_MIN) must not win
    return x


@pytest.mark.parametrize(("M", "N", "blk_m"), [(64, 64, 32), (100, 40, 64)])
def test_int32_row_maxima_match_numpy(M: int, N: int, blk_m: int) -> None:
    x = _data(M, N)
    kernel = tilelang.compile(row_max(M, N, blk_m), out_idx=[-1], target="tenstorrent")
    assert "sfpu_reduce<PoolType::MAX, DataFormat::Int32, ReduceDim::REDUCE_ROW>(" in (
        kernel.artifact.rt_mod.files["compute.cpp"])
    np.testing.assert_array_equal(kernel(x), x.max(axis=1))


@pytest.mark.parametrize(("kind", "clear", "match"), [
    ("sum", True, r"T\.reduce_sum\(a, mx\) sums an int32 block"),
    ("max", False, r"T\.reduce_max\(a, mx\) accumulates onto the previous value of 'mx' \(clear=False\)"),
])
def test_other_int32_reductions_are_refused_by_name(kind: str, clear: bool, match: str) -> None:
    with pytest.raises(TileLangError, match=match):
        tilelang.lower(row_max(64, 64, 32, clear=clear, kind=kind), target="tenstorrent")


def test_a_row_wider_than_a_dst_section_is_refused() -> None:
    with pytest.raises(TileLangError, match=r"reduces rows 5 tiles wide; .* at most 4 tiles \(128 columns\)"):
        tilelang.lower(row_max(32, 160, 32), target="tenstorrent")


PROFILE_RUN = """
import tilelang
from tilelang.errors import TileLangError
from test_tt_int_reduce import row_max
try:
    tilelang.lower(row_max(64, 64, 32), target="tenstorrent")
except TileLangError as e:
    print(e)
"""


def test_the_2025_profile_refuses_it_naming_the_missing_call() -> None:
    """ttnn 0.65's sfpu_reduce reduces columns only; one process, as the pass library reads the profile once."""
    env = {**os.environ, "TILELANG_TT_API_PROFILE": "tilelang_tt_2025",
           "PYTHONPATH": os.pathsep.join([str(REPO / "python"), str(REPO), str(REPO / "tests"),
                                          str(REPO / "tests" / "tenstorrent")])}
    done = subprocess.run([sys.executable, "-c", PROFILE_RUN], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "sfpu_reduce_max_int32_rows), which API profile tilelang_tt_2025 does not offer" in done.stdout
