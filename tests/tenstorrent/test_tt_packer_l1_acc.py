"""Packer L1 accumulation of a GEMM's partial sums (issue 31), as tt-metal's matmul does with PACKER_L1_ACC
(bmm_large_block_zm_fused_bias_activation.cpp): a 4x4-tile output block does not fit one fp32 DST section, so it
goes through the partial-sum CB in sub-blocks. Without L1 accumulation every K step after the first reloads the
partial sums into DST with copy_tile; with it (the default, pass_configs "tl.tt.packer_l1_acc") the packer adds each
middle step's sub-blocks onto the sums in L1 and only the last step reloads them. The emulator's packer accumulates
(kapi_l1_acc.cpp): a packer that overwrote would leave only the last two steps' products, far from numpy. Both
variants of one 128x128x256 GEMM (8 K steps, one core) compile and run once."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from test_language_llvm import matmul

import tilelang
from tilelang.tenstorrent import device, perf_model
from tilelang.tenstorrent.records import COUNTERS

BF16 = ml_dtypes.bfloat16
M, N, K, BLOCK_K = 128, 128, 256, 32
BLOCK_TILES, STEPS = 16, K // BLOCK_K


@pytest.fixture(scope="module")
def arrays() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(31)
    return rng.uniform(-1, 1, (M, K)).astype(BF16), rng.uniform(-1, 1, (K, N)).astype(BF16)


@pytest.fixture(scope="module", params=[True, False], ids=["l1_acc", "reload"])
def run(request: pytest.FixtureRequest, arrays: Any) -> tuple[bool, Any, np.ndarray]:
    kernel = tilelang.compile(matmul(M, N, K, M, N, BLOCK_K, dtype="bfloat16"), out_idx=[-1], target="tenstorrent",
                              pass_configs={"tl.tt.packer_l1_acc": request.param})
    return request.param, kernel, kernel(*arrays).astype(np.float32)


def test_gemm_matches_numpy(run: Any, arrays: Any) -> None:
    _, _, got = run
    ref = arrays[0].astype(np.float32) @ arrays[1].astype(np.float32)
    assert float(np.abs(got - ref).max()) <= 2.0**-7 * float(np.abs(ref).max())  # fp32 sums, one bf16 rounding


def test_partial_sums_are_reloaded_once_with_l1_accumulation(run: Any) -> None:
    l1_acc, kernel, _ = run
    compute = kernel.artifact.rt_mod.files["compute.cpp"]
    assert ("pack_reconfig_l1_acc(1)" in compute) == l1_acc
    (core,) = kernel.last_report["cores"]
    reloads = 1 if l1_acc else STEPS - 1  # steps whose sub-blocks copy the partial sums back into DST
    assert core[COUNTERS.COPY_TILES] == reloads * BLOCK_TILES
    assert core[COUNTERS.PACK_TILES] == STEPS * BLOCK_TILES


def test_the_model_charges_the_reloads_only_without_l1_accumulation(run: Any) -> None:
    l1_acc, kernel, _ = run
    est = perf_model.estimate_kernel(kernel)
    (core,) = est.cores
    perf = device.PERF
    matmul_cycles = perf_model.matmul_cycles(est.data_format, est.fidelity, perf)
    copies = (1 if l1_acc else STEPS - 1) * BLOCK_TILES
    math = STEPS * BLOCK_TILES * (BLOCK_K // 32) * matmul_cycles + copies * perf["copy_tile_cycles"]
    assert core.compute_cycles == pytest.approx(max(math, STEPS * BLOCK_TILES * perf["pack_tile_cycles"]))
