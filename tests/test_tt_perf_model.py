"""The Tenstorrent performance model (tilelang.tenstorrent.perf_model) on hand-computed cases and on a real run.

The hand-computed cases use the Wormhole n150 facts of specs/backends/tenstorrent.yaml (`device.perf`): 1 GHz,
64 worker cores, DRAM 288e9 B/s, NoC 32 B/cycle, tile matmul 16/32/48/64 cycles (LoFi/HiFi2/HiFi3/HiFi4),
element-wise 8, SFPU 32, copy 8 and pack 8 cycles per tile. Every expected number is derived in a comment.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from tilelang.tenstorrent import device, perf_model

TILE_BYTES = 2048  # one bf16 32x32 tile


def plan(fidelity: str | None, pages: dict[str, int]) -> dict[str, Any]:
    compute = {"name": "main_compute"} if fidelity is None else {"name": "main_compute", "math_fidelity": fidelity}
    return {"device": {"tile": [32, 32]}, "kernels": {"compute": compute},
            "tensors": [{"name": n, "pages": p, "page_bytes": TILE_BYTES} for n, p in pages.items()]}


def core(x: int, y: int, **counters: int) -> dict[str, Any]:
    return {"core": [x, y], **counters}


def test_device_perf_facts_come_from_the_spec() -> None:
    perf = device.PERF
    assert perf["clock_hz"] == 1_000_000_000 and perf["worker_cores"] == 64
    assert perf["dram_bytes_per_second"] == 288_000_000_000 and perf["noc_bytes_per_cycle"] == 32
    assert perf["matmul_tile_cycles"] == {"LoFi": 16, "HiFi2": 32, "HiFi3": 48, "HiFi4": 64}
    # 2*32^3 FLOP / 16 cycles = 4096 FLOP/cycle at LoFi: the matrix engine's 8x16 x 16x16 per cycle.
    assert 2 * 32 ** 3 // perf["matmul_tile_cycles"]["LoFi"] == 8 * 16 * 16 * 2
    # 1024 elements / 8 cycles = 128 elements/cycle: the FPU's 8x16.
    assert 1024 // perf["eltwise_tile_cycles"] == 8 * 16
    assert "section 6" in device.PERF_DOC


def test_noc_bound_two_cores_hifi2() -> None:
    p = plan("HiFi2", {"A": 4, "B": 4, "C": 4})  # compulsory: 12 tiles * 2048 = 24576 B
    report = {"cores": [
        # compute: 8*32 + 4*8 = 288 cycles; NoC: (16384 + 4096) / 32 = 640 cycles
        core(0, 0, matmul_tiles=8, pack_tiles=4, dram_bytes_read=16384, dram_bytes_written=4096),
        # compute: 8*32 + 4*8 (pack) + 4*8 (copy) + 2*8 (eltwise) + 1*32 (sfpu) = 368 cycles; NoC: 640 cycles
        core(1, 0, matmul_tiles=8, pack_tiles=4, copy_tiles=4, eltwise_tiles=2, sfpu_tiles=1,
             dram_bytes_read=16384, dram_bytes_written=4096),
    ]}
    e = perf_model.estimate(p, report)
    assert e.fidelity == "HiFi2"
    assert [(c.compute_cycles, c.noc_cycles, c.dram_bytes) for c in e.cores] == [(288, 640, 20480), (368, 640, 20480)]
    assert [c.bound for c in e.cores] == ["noc", "noc"]
    assert e.compute_seconds == pytest.approx(368e-9)
    assert e.noc_seconds == pytest.approx(640e-9)
    assert e.core_seconds == pytest.approx(640e-9)
    # DRAM: 2 * 20480 = 40960 B / 288e9 B/s = 142.2 ns < 640 ns, so the slowest core's NoC stream sets the time.
    assert e.dram_bytes == 40960
    assert e.dram_seconds == pytest.approx(40960 / 288e9)
    assert e.modelled_seconds == pytest.approx(640e-9)
    assert e.bound == "noc"
    # FLOPs: 16 tile matmuls * 65536 + (2 eltwise + 1 sfpu) tiles * 1024 = 1048576 + 3072
    assert e.flops == 1_051_648
    # Roofline compute: (16*32 + 2*8 + 1*32) = 560 cycles over 64 cores at 1 GHz = 8.75 ns;
    # roofline DRAM: 24576 B / 288e9 = 85.33 ns; roofline = 85.33 ns; ratio = 640 / 85.33 = 7.5.
    assert e.compulsory_dram_bytes == 24576
    assert e.roofline_compute_seconds == pytest.approx(8.75e-9)
    assert e.roofline_dram_seconds == pytest.approx(24576 / 288e9)
    assert e.roofline_seconds == pytest.approx(24576 / 288e9)
    assert e.roofline_bound == "dram"
    assert e.ratio == pytest.approx(7.5)


def test_a_multicast_is_charged_once_to_its_sender() -> None:
    p = plan("HiFi4", {"A": 2, "B": 2, "C": 4})
    report = {"cores": [
        # sender: reads 2 A tiles (4096 B) and multicasts them (4096 B): NoC (4096 + 4096) / 32 = 256 cycles;
        # compute 2 matmuls * 64 = 128 cycles, so this core is NoC-bound at 256 cycles.
        core(0, 0, matmul_tiles=2, dram_bytes_read=4096, noc_multicast_bytes=4096),
        # receiver: nothing read from DRAM, the multicast is not charged to it: NoC 0, compute 128 cycles.
        core(1, 0, matmul_tiles=2),
    ]}
    e = perf_model.estimate(p, report)
    assert [(c.compute_cycles, c.noc_cycles, c.dram_bytes) for c in e.cores] == [(128, 256, 4096), (128, 0, 0)]
    assert e.core_seconds == pytest.approx(256e-9) and e.bound == "noc"
    assert e.dram_bytes == 4096  # the multicast moves L1 to L1, not DRAM


def test_dram_bound_eltwise_add_is_at_the_roofline() -> None:
    # bf16 add 2048x2048: 4096 tiles per tensor; 64 cores * 64 tiles; each core reads 2*64 and writes 64 tiles.
    p = plan(None, {"A": 4096, "B": 4096, "C": 4096})  # compulsory 3 * 4096 * 2048 = 25165824 B
    one = {"eltwise_tiles": 64, "copy_tiles": 0, "pack_tiles": 64, "dram_bytes_read": 128 * TILE_BYTES,
           "dram_bytes_written": 64 * TILE_BYTES}
    report = {"cores": [core(i % 8, i // 8, **one) for i in range(64)]}
    e = perf_model.estimate(p, report)
    assert e.fidelity == "HiFi4"  # no math_fidelity in the plan: the default
    # per core: compute 64*8 + 64*8 = 1024 cycles; NoC 192 tiles * 2048 / 32 = 12288 cycles = 12.288 us
    assert e.cores[0].compute_cycles == 1024 and e.cores[0].noc_cycles == 12288
    # DRAM: 64 * 393216 = 25165824 B / 288e9 = 87.38 us > 12.288 us: DRAM-bound, at the roofline exactly.
    assert e.dram_bytes == 25_165_824 == e.compulsory_dram_bytes
    assert e.modelled_seconds == pytest.approx(25_165_824 / 288e9)
    assert e.bound == "dram" and e.roofline_bound == "dram"
    # roofline compute: 4096 eltwise tiles * 8 cycles / 64 cores / 1e9 = 0.512 us
    assert e.roofline_compute_seconds == pytest.approx(0.512e-6)
    assert e.ratio == pytest.approx(1.0)
    assert e.flops == 4096 * 1024


def test_compute_bound_single_core_lofi() -> None:
    p = plan("LoFi", {"A": 10, "B": 100, "C": 10})  # compulsory 120 tiles = 245760 B
    # 1000 tile matmuls * 16 + 10 packs * 8 = 16080 cycles; NoC: (110 + 10) tiles * 2048 / 32 = 7680 cycles
    report = {"cores": [core(0, 0, matmul_tiles=1000, pack_tiles=10, dram_bytes_read=110 * TILE_BYTES,
                             dram_bytes_written=10 * TILE_BYTES)]}
    e = perf_model.estimate(p, report)
    assert e.cores[0].compute_cycles == 16080 and e.cores[0].noc_cycles == 7680
    assert e.modelled_seconds == pytest.approx(16.08e-6)
    assert e.bound == "compute"
    # roofline: max(1000*16 cycles / 64 cores / 1 GHz = 250 ns, 245760 B / 288e9 = 853.3 ns) = 853.3 ns
    assert e.roofline_compute_seconds == pytest.approx(250e-9)
    assert e.roofline_seconds == pytest.approx(245760 / 288e9)
    # 1000 * 65536 FLOP in 16.08 us = 4.0756 TFLOP/s (one core at LoFi peaks at 4.096)
    assert e.tflops == pytest.approx(1000 * 65536 / 16.08e-6 / 1e12)


def test_custom_perf_facts_and_bad_fidelity() -> None:
    perf = {**device.PERF, "clock_hz": 2_000_000_000, "noc_bytes_per_cycle": 64}
    p = plan("HiFi3", {"A": 1, "B": 1, "C": 1})
    report = {"cores": [core(0, 0, matmul_tiles=2, dram_bytes_read=4096, dram_bytes_written=2048)]}
    e = perf_model.estimate(p, report, perf)
    # compute 2*48 = 96 cycles at 2 GHz = 48 ns; NoC 6144 / 64 = 96 cycles = 48 ns; DRAM 6144/288e9 = 21.3 ns
    assert e.compute_seconds == pytest.approx(48e-9) and e.noc_seconds == pytest.approx(48e-9)
    assert e.modelled_seconds == pytest.approx(48e-9)
    with pytest.raises(ValueError, match="unknown math fidelity 'HiFi9'"):
        perf_model.estimate(plan("HiFi9", {}), report)
    assert "roofline" in perf_model.PerfEstimate.formula and "compulsory_bytes" in perf_model.FORMULA


@pytest.mark.skipif(shutil.which(os.environ.get("CXX", "g++")) is None, reason="no C++ compiler")
def test_emulated_gemm_256_invariants() -> None:
    from test_language_llvm import matmul

    import tilelang

    size = 256
    kernel = tilelang.compile(matmul(size, size, size, 64, 64, 32, dtype="bfloat16"), out_idx=[-1],
                              target="tenstorrent")
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    kernel(a, b)
    e = perf_model.estimate_kernel(kernel)
    total = kernel.last_report["total"]
    assert e.flops == 2 * size ** 3
    assert e.compulsory_dram_bytes == 3 * size * size * 2
    assert e.dram_bytes == total["dram_bytes_read"] + total["dram_bytes_written"] >= e.compulsory_dram_bytes
    assert len(e.cores) == (size // 64) ** 2
    assert e.modelled_seconds >= e.roofline_seconds > 0
    assert e.modelled_seconds >= e.dram_seconds and e.modelled_seconds >= e.core_seconds
    assert e.ratio >= 1.0
    assert e.fidelity == kernel.artifact.rt_mod.plan["kernels"]["compute"].get("math_fidelity", "HiFi4")
    # Each core's compute cycles at least its share of tile matmuls at the fidelity's rate.
    mm = device.PERF["matmul_tile_cycles"][e.fidelity]
    for c, counters in zip(e.cores, kernel.last_report["cores"], strict=True):
        assert c.compute_cycles >= counters["matmul_tiles"] * mm
