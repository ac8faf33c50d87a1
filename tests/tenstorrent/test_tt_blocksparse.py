"""Gemm K steps under a condition read from a DRAM tensor on Tenstorrent (issue 28; src/transform/tile_ops_flag.cc):
TileLang's block-sparse GEMM (`if BlockMask[by, bx, k]:` around the loads and the gemm of a K step, the body of
upstream's examples/blocksparse_gemm/example_blocksparse_gemm.py). The reader reads the mask's tile holding the value
and the operands, and the compute kernel reads the value (read_tile_value) and runs the step's tile products only
where the condition holds. Run in the emulator against numpy at 128^3 and at a ragged shape; an int32 tensor tested
by a comparison; the forms the backend does not test are refused by name."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tt_data_kernels import blocksparse

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError
from tilelang.tenstorrent import INTRINSICS, api_profile

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler"),
              pytest.mark.skipif(api_profile() not in INTRINSICS["read_tile_value"].cpp,
                                 reason="the API profile has no read_tile_value (the 2025 test below)")]
RNG = np.random.default_rng(28)


def reference(a: np.ndarray, b: np.ndarray, run: np.ndarray, bm: int, bn: int, bk: int) -> np.ndarray:
    c = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for i, j, k in zip(*np.nonzero(run), strict=True):
        rows, cols, ks = slice(i * bm, (i + 1) * bm), slice(j * bn, (j + 1) * bn), slice(k * bk, (k + 1) * bk)
        c[rows, cols] += a[rows, ks].astype(np.float32) @ b[ks, cols].astype(np.float32)
    return c


@pytest.mark.parametrize("M, N, K, bm, bn, bk", [(128, 128, 128, 64, 64, 32), (100, 72, 80, 32, 32, 32)])
def test_blocksparse_gemm_skips_the_masked_steps(M: int, N: int, K: int, bm: int, bn: int, bk: int) -> None:
    """128^3 as upstream's test shape (blocks 64x64x32, a (2, 2, 4) mask); ragged 100x72x80 with a (4, 3, 3) one."""
    a = RNG.standard_normal((M, K)).astype(np.float16)
    b = RNG.standard_normal((K, N)).astype(np.float16)
    mask = RNG.random((-(-M // bm), -(-N // bn), -(-K // bk))) > 0.4
    kernel = tilelang.compile(blocksparse(M, N, K, bm, bn, bk), out_idx=[-1], target="tenstorrent")
    assert "read_tile_value(" in kernel.get_kernel_source()
    np.testing.assert_allclose(kernel(a, b, mask).astype(np.float32), reference(a, b, mask, bm, bn, bk),
                               rtol=1e-2, atol=1e-2)


def test_an_int32_value_compared_with_a_constant() -> None:
    """A signed comparison of the whole word: steps whose value is above 0 run (-1 and 0 do not)."""
    M = N = K = 64
    a = RNG.standard_normal((M, K)).astype(np.float16)
    b = RNG.standard_normal((K, N)).astype(np.float16)
    sel = RNG.integers(-1, 3, (2, 2, 2)).astype(np.int32)
    kernel = tilelang.compile(blocksparse(M, N, K, 32, 32, 32, "int32", lambda v: v > 0), out_idx=[-1],
                              target="tenstorrent")
    np.testing.assert_allclose(kernel(a, b, sel).astype(np.float32), reference(a, b, sel > 0, 32, 32, 32),
                               rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("test, run", [(lambda v: v != 0, lambda s: s != 0), (lambda v: v == -1, lambda s: s == -1)])
def test_an_int8_row_copied_into_a_fragment_is_read_from_the_tensor(test, run) -> None:
    """Upstream's block-sparse attention form: the row of an int8 mask is copied into a fragment before the loop
    and the condition reads the fragment; the condition reads the tensor's element instead (the copy goes), and the
    byte is tested unsigned (-1 is the byte 255)."""
    M = N = K = 64
    a = RNG.standard_normal((M, K)).astype(np.float16)
    b = RNG.standard_normal((K, N)).astype(np.float16)
    sel = np.array([-1, 0, 2, -1, 0, -1, 2, 0], np.int8).reshape(2, 2, 2)
    kernel = tilelang.compile(blocksparse(M, N, K, 32, 32, 32, "int8", test, staged=True), out_idx=[-1],
                              target="tenstorrent")
    assert "mask_row" not in kernel.get_kernel_source()
    np.testing.assert_allclose(kernel(a, b, sel).astype(np.float32), reference(a, b, run(sel), 32, 32, 32),
                               rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("dtype", ["int8", "uint8"])
def test_a_byte_of_128_or_more_at_a_words_top_byte_in_the_k_step_form(dtype: str) -> None:
    """The K-step form takes a byte from its word bound as an int32 (`flag_word // scale % modulus`): a byte of
    128-255 (int8 -1) at the word's top byte makes the word negative, and a division toward zero misread that byte
    and the three below it (mask [1, 0, 1, -1] ran no step). Floor division and modulus read each byte right."""
    a = RNG.standard_normal((32, 128)).astype(np.float16)
    b = RNG.standard_normal((128, 32)).astype(np.float16)
    sel = np.array([1, 0, 1, -1], np.int8).astype(dtype).reshape(1, 1, 4)
    kernel = tilelang.compile(blocksparse(32, 32, 128, 32, 32, 32, dtype, lambda v: v != 0), out_idx=[-1],
                              target="tenstorrent")
    np.testing.assert_allclose(kernel(a, b, sel).astype(np.float32), reference(a, b, sel != 0, 32, 32, 32),
                               rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("dtype, test, message", [
    ("uint16", None, r"reads uint16 tensor 'BlockMask'; the tenstorrent backend tests bool, int8, uint8 and int32"),
    ("int8", lambda v: v > 0, r"orders an int8 value of 'BlockMask'"),
    ("int32", lambda v: v % 3 == 1, r"is not a comparison of the value of 'BlockMask' with an integer constant"),
])
def test_conditions_the_backend_does_not_test_are_refused_by_name(dtype: str, test, message: str) -> None:
    with pytest.raises(TileLangError, match=message):
        tilelang.lower(blocksparse(64, 64, 64, 32, 32, 32, dtype, test), target="tenstorrent")


def test_a_block_larger_than_dst_is_refused_naming_dst() -> None:
    """Upstream's default 128x128 fp32 block is 16 tiles; one DST section holds 4 fp32 tiles."""
    with pytest.raises(TileLangError, match=r"needs the whole 4x4-tile output block in one DST section \(4 tiles"):
        tilelang.lower(blocksparse(128, 128, 64, 128, 128, 32), target="tenstorrent")


PROFILE_RUN = """
import tilelang
from tilelang.errors import TileLangError
from tt_data_kernels import blocksparse, masked_step
for kernel in (blocksparse(64, 64, 64, 32, 32, 32), masked_step(64)):
    try:
        tilelang.lower(kernel, target="tenstorrent")
    except TileLangError as e:
        assert "read_tile_value, which API profile tilelang_tt_2025 does not have" in str(e), str(e)
    else:
        raise AssertionError("lowered")
"""


def test_the_2025_profile_without_read_tile_value_refuses_it_by_name() -> None:
    """ttnn 0.65's compute cb_api.h has only cb_get_tile (an L1 pointer): gemm K steps and a whole step under the
    condition are refused; one process, as the pass library reads $TILELANG_TT_API_PROFILE once."""
    env = {**os.environ, "TILELANG_TT_API_PROFILE": "tilelang_tt_2025",
           "PYTHONPATH": os.pathsep.join([str(REPO / "python"), str(REPO), str(REPO / "tests")])}
    done = subprocess.run([sys.executable, "-c", PROFILE_RUN], capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_a_scalar_computed_from_tensor_data_is_refused_naming_it() -> None:
    """Grouped GEMM's group index: an integer scalar carried through a loop from a tensor's values, then an index of
    a DRAM block (examples/grouped_gemm); named as a scalar, not as an element-wise index mask."""
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float16"), Offsets: T.Tensor((2,), "int32"), C: T.Tensor((64, 64), "float16")):
        with T.Kernel(2, threads=128) as bx:
            A_shared = T.alloc_shared((32, 64), "float16")
            group = T.alloc_var(dtype="int32")
            group = 0
            for i in range(2):
                group = T.if_then_else(bx * 32 >= Offsets[i], i, group)
            T.copy(A[group * 32, 0], A_shared)
            T.copy(A_shared, C[bx * 32, 0])

    with pytest.raises(TileLangError, match=r"scalar 'group' is assigned .*not values read from 'Offsets' \(a scalar "
                                            r"computed from tensor data"):
        tilelang.lower(main, target="tenstorrent")
