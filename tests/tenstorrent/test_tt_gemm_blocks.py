"""The GEMM block picker per device (issue 34): tilelang.tenstorrent.gemm_blocks reads the device record's grid, L1
and rates, so p150's 1024^3 fills its 13x10 grid where Wormhole's blocks use 64 of its 130 cores.

The picks are compiled for their device and the plan's partition is checked against the picker's (uniform shard,
its cores, multicast semaphores); the p150 1024^3 blocking (128x96: a partial last block column) runs at a reduced
shape in the emulator against numpy."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from test_language_llvm import matmul

import tilelang
from tilelang.errors import TileLangError
from tilelang.tenstorrent import device, gemm_blocks


def compiled(size_m: int, size_n: int, size_k: int, blocks: tuple[int, int, int], device_name: str) -> object:
    bm, bn, bk = blocks
    return tilelang.compile(matmul(size_m, size_n, size_k, bm, bn, bk, dtype="bfloat16"), out_idx=[-1],
                            target=f"tenstorrent:{device_name}")


def test_the_picker_follows_the_device_grid() -> None:
    n150 = gemm_blocks.ranked(1024, 1024, 1024, "n150")[0]
    p150 = gemm_blocks.ranked(1024, 1024, 1024, "p150")[0]
    assert (n150.block_m, n150.block_n, n150.cores) == (128, 128, (8, 8))  # Wormhole's tuned blocks
    assert p150.cores[0] * p150.cores[1] > 64 and p150.cores[0] <= device.DEVICES["p150"].core_grid[0]
    assert p150.seconds < gemm_blocks.estimate(1024, 1024, 1024, n150.config, "p150").seconds
    for size in (2048, 4096):  # the larger shapes use the whole 13x10 grid
        assert gemm_blocks.ranked(size, size, size, "p150")[0].cores == device.DEVICES["p150"].core_grid
    found = gemm_blocks.candidates(4096, 4096, 4096, "p150")  # 416x320 blocks fit p150's L1 with 128-wide K blocks
    assert (416, 320, 128) in found and (416, 320, 256) not in found  # and overflow it with 256-wide ones


@pytest.mark.parametrize("device_name", ["n150", "p150"])
def test_the_pick_compiles_to_the_partition_it_assumed(device_name: str) -> None:
    pick = gemm_blocks.ranked(1024, 1024, 1024, device_name)[0]
    plan = compiled(1024, 1024, 1024, pick.config, device_name).artifact.rt_mod.plan  # type: ignore[attr-defined]
    assert plan["device"]["name"] == device_name and plan["partition_mode"] == "shard"
    assert len(plan["work_partition"]) == pick.cores[0] * pick.cores[1]
    assert plan["semaphores"], "the shard partition's rows and columns share blocks by multicast"


def test_p150_blocking_at_a_reduced_shape_matches_numpy() -> None:
    """p150's 1024^3 blocks (block_N 96 leaves a partial last block column) on a 256x224x256 GEMM."""
    bm, bn, bk = gemm_blocks.ranked(1024, 1024, 1024, "p150")[0].config
    assert 1024 % bn, "the p150 pick does not divide 1024: the partial block is what this test checks"
    m, n, k = 2 * bm, 2 * bn + 32, 2 * bk
    kernel = compiled(m, n, k, (bm, bn, bk), "p150")
    rng = np.random.default_rng(34)
    a = rng.uniform(-1, 1, (m, k)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-1, 1, (k, n)).astype(ml_dtypes.bfloat16)
    c = np.asarray(kernel(a, b), dtype=np.float32)  # type: ignore[operator]
    expected = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c, expected, atol=0.1, rtol=0.02)
    assert kernel.artifact.rt_mod.plan["partition_mode"] == "shard"  # type: ignore[attr-defined]


def test_the_picker_refuses_what_it_cannot_place() -> None:
    with pytest.raises(TileLangError, match="unknown Tenstorrent device 'p999'"):
        gemm_blocks.ranked(1024, 1024, 1024, "p999")
    with pytest.raises(TileLangError, match="dtype 'complex64'"):
        gemm_blocks.ranked(1024, 1024, 1024, "p150", dtype="complex64")
    with pytest.raises(TileLangError, match="p150: no measured tile-matmul rate for Float32 operands at HiFi4"):
        gemm_blocks.ranked(1024, 1024, 1024, "p150", dtype="float32")
    with pytest.raises(TileLangError, match="p100 has no perf record"):
        gemm_blocks.ranked(1024, 1024, 1024, "p100")
    assert gemm_blocks.ranked(1024, 1024, 1024, "p150", dtype="float16")  # Float16 takes Float16_b's rate
    with pytest.raises(TileLangError, match="no block of 1 to 16 tiles"):
        gemm_blocks.ranked(1024, 1024, 1056, "p150")  # 33 K tiles: no whole number of 2-, 4- or 8-tile K blocks
