"""Value selections on Tenstorrent (issue 28; tests/tt_mask_kernels.py): `T.if_then_else(a CMP b, x, c)` whose
condition compares on-chip values is the comparison of their difference with zero (eqz_tile, gtz_tile, ...: 1.0 /
0.0), then where_tile between the block and the constant filled into DST, in the emulator against numpy. The
differences of two blocks or of a block and a column vector go through the FPU (19-bit SrcA for fp32), so the data
is exact there (multiples of 1/2048 below 1); a block against a constant is an SFPU subtraction (all fp32 bits)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tt_mask_kernels import compare_blocks, drop_row_max, select_blocks, threshold

import tilelang
from tilelang.errors import TileLangError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(28)
REPO = Path(__file__).resolve().parents[2]


def _exact(shape: tuple[int, int]) -> np.ndarray:
    """Distinct multiples of 1/2048 in [0, 1): exact in the FPU's 19-bit SrcA."""
    n = shape[0] * shape[1]
    values = RNG.permutation(2048)[:n] if n <= 2048 else RNG.integers(0, 2048, n)
    return values.reshape(shape).astype("float32") / 2048


@pytest.mark.parametrize(("M", "N", "blk_m"), [(64, 32, 32), (100, 40, 64)])
def test_the_row_maximum_is_dropped_as_upstream_top_k_does(M: int, N: int, blk_m: int) -> None:
    x = _exact((M, N))
    kernel = tilelang.compile(drop_row_max(M, N, blk_m), out_idx=[-1], target="tenstorrent")
    compute = kernel.artifact.rt_mod.files["compute.cpp"]
    assert "eqz_tile(" in compute and "where_tile<DataFormat::Float32>(" in compute
    expected = np.where(x == x.max(1, keepdims=True), np.float32(-10000.0), x)
    np.testing.assert_array_equal(kernel(x), expected)


def test_a_block_against_a_constant_keeps_every_fp32_bit() -> None:
    x = RNG.standard_normal((96, 72)).astype("float32")
    kernel = tilelang.compile(threshold(96, 72, 32, 0.25), out_idx=[-1], target="tenstorrent")
    np.testing.assert_array_equal(kernel(x), np.where(x > np.float32(0.25), x, np.float32(0.0)))


def test_two_blocks_compared() -> None:
    a, b = _exact((64, 64)), _exact((64, 64))
    b[:8] = a[:8]  # equal elements select a (<=)
    kernel = tilelang.compile(compare_blocks(64, 64, 32), out_idx=[-1], target="tenstorrent")
    assert "lez_tile(" in kernel.artifact.rt_mod.files["compute.cpp"]
    np.testing.assert_array_equal(kernel(a, b), np.where(a <= b, a, np.float32(2.5)))


PROFILE_RUN = """
import numpy as np, tilelang
from tt_mask_kernels import compare_blocks
a = (np.arange(64 * 64, dtype=np.float32).reshape(64, 64) % 2048) / 2048
b = a.T.copy()
kernel = tilelang.compile(compare_blocks(64, 64, 32), out_idx=[-1], target="tenstorrent")
assert "where_fp32_tile(" in kernel.artifact.rt_mod.files["compute.cpp"]
assert np.array_equal(kernel(a, b), np.where(a <= b, a, np.float32(2.5)))
"""


def test_the_2025_profile_spells_where_fp32_tile() -> None:
    """ttnn 0.65's where.h has where_fp32_tile (its where_tile is the Float16_b form); one process, as the pass
    library reads $TILELANG_TT_API_PROFILE once."""
    env = {**os.environ, "TILELANG_TT_API_PROFILE": "tilelang_tt_2025",
           "PYTHONPATH": os.pathsep.join([str(REPO / "python"), str(REPO), str(REPO / "tests")])}
    done = subprocess.run([sys.executable, "-c", PROFILE_RUN], capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_a_selection_between_two_blocks_runs() -> None:
    """where_tile of three DST tiles (sfpu_select_block): the condition, then each block copied in its format."""
    a, b = _exact((64, 64)), _exact((64, 64))
    kernel = tilelang.compile(select_blocks(64, 64, 32), out_idx=[-1], target="tenstorrent")
    assert "where_tile<DataFormat::Float32>(0, 1, 2, 0)" in kernel.artifact.rt_mod.files["compute.cpp"]
    np.testing.assert_array_equal(kernel(a, b), np.where(a > b, a, b))


def test_a_selection_between_two_constants_is_refused_by_name() -> None:
    import tilelang.language as T

    @T.prim_func
    def main(A: T.Tensor((32, 32), "float32"), Out: T.Tensor((32, 32), "float32")):
        with T.Kernel(1, threads=128):
            a = T.alloc_shared((32, 32), "float32")
            y = T.alloc_fragment((32, 32), "float32")
            T.copy(A[0, 0], a)
            for i, j in T.Parallel(32, 32):
                y[i, j] = T.if_then_else(a[i, j] > 0.5, 1.0, 2.0)
            T.copy(y, Out[0, 0])

    with pytest.raises(TileLangError, match=r"element-wise store 'y\[\.\.\.\] = .*selects between two constants"):
        tilelang.lower(main, target="tenstorrent")
