"""Transposed GEMMs on Tenstorrent (TileLang's `T.gemm(A, B, C, transpose_A, transpose_B)`).

A transposed operand is made on chip: its block is read in its own tile order, then `transpose_block` transposes
every tile on the unpacker (`transpose_tile`) into an intermediate CB in the transposed tile order, which the matmul
reads. Results are compared with numpy (bf16 inputs from U(-1, 1), fp32 accumulation: |got - ref| <= 2^-7 *
max|ref|, the final bf16 rounding plus a different fp32 summation order).
"""

from __future__ import annotations

import shutil
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from tt_kernels import matmul_transposed
from tt_profiles import counterpart, spelling

import tilelang
from tilelang.tenstorrent.records import COUNTERS

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")

# (M, N, K, block_M, block_N, block_K): one block per core; several blocks and K steps per core; non-square tiles.
SHAPES = [(64, 96, 128, 32, 96, 64), (128, 64, 256, 32, 32, 64), (96, 64, 64, 96, 32, 32)]
MODES = [(False, True), (True, False), (True, True)]


def operands(m: int, n: int, k: int, trans_a: bool, trans_b: bool) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(m + 7 * n + 13 * k)
    a = rng.uniform(-1, 1, (k, m) if trans_a else (m, k)).astype(BF16)
    b = rng.uniform(-1, 1, (n, k) if trans_b else (k, n)).astype(BF16)
    return a, b


@pytest.mark.parametrize("trans", MODES, ids=["nt", "tn", "tt"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_transposed_gemm_matches_numpy(shape: tuple[int, ...], trans: tuple[bool, bool]) -> None:
    m, n, k, bm, bn, bk = shape
    ta, tb = trans
    kernel = tilelang.compile(matmul_transposed(m, n, k, bm, bn, bk, ta, tb), out_idx=[-1], target="tenstorrent")
    a, b = operands(m, n, k, ta, tb)
    c = kernel(a, b)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    ref = (a32.T if ta else a32) @ (b32.T if tb else b32)
    err = float(np.abs(c.astype(np.float32) - ref).max())
    assert err <= 2.0**-7 * float(np.abs(ref).max()), err
    report = kernel.last_report
    assert report["status"] == "ok"
    assert report["total"][COUNTERS.MATMUL_TILES] == (m // 32) * (n // 32) * (k // 32)
    # copy_tiles counts the unpacker's copies: every operand tile transposed once per block that uses it, plus the
    # partial sums reloaded (a transposed gemm accumulates through a partial CB): with packer L1 accumulation (on by
    # default) the middle K steps pack onto L1 and only the last step reloads; with 2 steps or fewer, each step after
    # the first reloads.
    transposed = (m // 32) * (k // 32) * (n // bn) * ta + (k // 32) * (n // 32) * (m // bm) * tb
    reloads = (m // 32) * (n // 32) * min(k // bk - 1, 1)
    assert report["total"][COUNTERS.COPY_TILES] == transposed + reloads


def test_the_transposed_operand_gets_its_own_cb_and_transpose_calls() -> None:
    art = tilelang.lower(matmul_transposed(64, 96, 128, 32, 96, 64, False, True), target="tenstorrent")
    plan: dict[str, Any] = art.rt_mod.plan
    cbs = {cb["buffer"]: cb for cb in plan["cbs"]}
    assert cbs["B_shared_T"]["class"] == "intermediate"
    assert cbs["B_shared_T"]["producer"] == cbs["B_shared_T"]["consumer"] == "compute"
    assert cbs["B_shared"]["consumer"] == "compute"
    source = art.kernel_source
    for call in ("transpose_tile", "transpose_init"):
        assert f"{spelling(counterpart(call))}(" in source
