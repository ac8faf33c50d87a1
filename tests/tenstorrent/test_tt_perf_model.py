"""The Tenstorrent performance model (tilelang.tenstorrent.perf_model) on hand-computed cases and on a real run.

The hand-computed cases use the Wormhole n150 facts of specs/backends/tenstorrent.yaml (`device.perf`). Roofline
(peaks): 1 GHz, 64 worker cores, DRAM 288e9 B/s, tile matmul 16/32/48/64 cycles (LoFi/HiFi2/HiFi3/HiFi4),
element-wise 8, SFPU 32, copy 8 and pack 8 cycles per tile. Modelled time (`measured`): clock 0.906e9 Hz, DRAM
267e9 B/s, per core DRAM read 22, DRAM write 21, multicast 15 (linked 22), L1 read 28, L1 write 29 B/cycle,
bf16 tile matmul 44.9 (LoFi, HiFi2) / 54.0 (HiFi3) / 70.0 (HiFi4) cycles, 236 cycles per semaphore wait, 2 us
program launch, host dispatch 99.4 us (139.9 us with block-float operands), chip DRAM write-back of the writers'
last blocks 118e9 B/s. Every expected number is derived in a comment.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from tilelang.tenstorrent import device, perf_model
from tilelang.tenstorrent.records import COUNTERS

TILE_BYTES = 2048  # one bf16 32x32 tile
F = 0.906e9  # measured clock
LAUNCH = 2e-6
WRITE_BACK = 118e9  # bytes/s of all writers draining their last block at once


def plan(fidelity: str | None, pages: dict[str, int], cbs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    compute = {"name": "main_compute"} if fidelity is None else {"name": "main_compute", "math_fidelity": fidelity}
    return {"device": {"tile": [32, 32]}, "kernels": {"compute": compute}, "cbs": cbs or [],
            "tensors": [{"name": n, "pages": p, "page_bytes": TILE_BYTES} for n, p in pages.items()]}


def cb(producer: str, consumer: str, pages: int, fmt: str = "Float16_b", klass: str = "input") -> dict[str, Any]:
    return {"producer": producer, "consumer": consumer, "block_pages": pages, "page_bytes": TILE_BYTES,
            "data_format": fmt, "class": klass}


def core(x: int, y: int, **counters: int) -> dict[str, Any]:
    return {"core": [x, y], **counters}


def test_device_perf_facts_come_from_the_spec() -> None:
    perf = device.PERF
    assert perf["clock_hz"] == 1_000_000_000 and perf["worker_cores"] == 64
    assert perf["dram_bytes_per_second"] == 288_000_000_000 and perf["noc_bytes_per_cycle"] == 32
    assert perf["matmul_tile_cycles"] == {"LoFi": 16, "HiFi2": 32, "HiFi3": 48, "HiFi4": 64}
    # 2*32^3 FLOP / 16 cycles = 4096 FLOP/cycle at LoFi: the matrix engine's 8x16 x 16x16 per cycle.
    assert 2 * 32 ** 3 // perf["matmul_tile_cycles"]["LoFi"] == 8 * 16 * 16 * 2
    assert 1024 // perf["eltwise_tile_cycles"] == 8 * 16  # the FPU's 8x16 elements per cycle
    measured = perf["measured"]
    assert measured["dram_read_bytes_per_cycle"] == 22 and measured["multicast_bytes_per_cycle"] == 15
    assert measured["dram_bytes_per_second"] == 267_000_000_000 < perf["dram_bytes_per_second"]
    assert measured["clock_hz"] < perf["clock_hz"]
    for fmt, by_fidelity in measured["matmul_tile_cycles"].items():  # sustained rates never beat the engine
        assert all(cycles >= perf["matmul_tile_cycles"][fid] for fid, cycles in by_fidelity.items()), fmt
    scalar = [k for k in measured if k != "matmul_tile_cycles"]
    cited = set(device.PERF_SOURCES)
    assert set(scalar) <= cited and all("tenstorrent/tt-metal" in device.PERF_SOURCES[k] for k in cited)
    assert {f"matmul_tile_cycles.Float16_b.{f}" for f in ("LoFi", "HiFi2", "HiFi3", "HiFi4")} <= cited


def test_noc_bound_two_cores_hifi2() -> None:
    p = plan("HiFi2", {"A": 4, "B": 4, "C": 4})  # compulsory: 12 tiles * 2048 = 24576 B; no CBs: no fill/drain
    report = {"cores": [
        # compute: max(math 8*44.9 = 359.2, pack 4*8 = 32) = 359.2 cycles (the packer runs alongside);
        # NoC: 16384/22 + 4096/21 = 744.73 + 195.05 = 939.77 cycles
        core(0, 0, matmul_tiles=8, pack_tiles=4, dram_bytes_read=16384, dram_bytes_written=4096),
        # compute: max(8*44.9 + 4*8 (copy) + 2*8 (eltwise) + 1*32 (sfpu) = 439.2, 4*8 (pack)); same NoC
        core(1, 0, matmul_tiles=8, pack_tiles=4, copy_tiles=4, eltwise_tiles=2, sfpu_tiles=1,
             dram_bytes_read=16384, dram_bytes_written=4096),
    ]}
    e = perf_model.estimate(p, report)
    noc = 16384 / 22 + 4096 / 21
    assert e.fidelity == "HiFi2" and e.data_format == "Float16_b"
    assert [(c.compute_cycles, c.noc_cycles, c.dram_bytes) for c in e.cores] == [
        (pytest.approx(359.2), pytest.approx(noc), 20480), (pytest.approx(439.2), pytest.approx(noc), 20480)]
    assert [c.bound for c in e.cores] == ["noc", "noc"]
    assert e.compute_seconds == pytest.approx(439.2 / F) and e.noc_seconds == pytest.approx(noc / F)
    # DRAM: 40960 B / 267e9 B/s = 153.4 ns < 939.77 cycles / 0.906 GHz = 1037.3 ns: the NoC stream, plus launch.
    assert e.dram_bytes == 40960 and e.dram_seconds == pytest.approx(40960 / 267e9)
    assert e.modelled_seconds == pytest.approx(noc / F + LAUNCH) and e.bound == "noc"
    assert e.host_bound_seconds == pytest.approx(99.4e-6)  # without trace the host's 99.4 us enqueue is slower
    # FLOPs: 16 tile matmuls * 65536 + (2 eltwise + 1 sfpu) tiles * 1024 = 1048576 + 3072
    assert e.flops == 1_051_648
    # Roofline at the peaks: compute (16*32 + 2*8 + 1*32) = 560 cycles / 64 cores / 1 GHz = 8.75 ns;
    # DRAM 24576 B / 288e9 = 85.33 ns.
    assert e.roofline_compute_seconds == pytest.approx(8.75e-9)
    assert e.roofline_seconds == pytest.approx(24576 / 288e9) and e.roofline_bound == "dram"
    assert e.ratio == pytest.approx((noc / F + LAUNCH) / (24576 / 288e9))


def test_a_multicast_is_charged_once_to_its_sender_at_its_rate() -> None:
    p = plan("HiFi4", {"A": 2, "B": 2, "C": 4})
    report = {"cores": [
        # sender: reads 2 A tiles (4096 B / 22) and multicasts them unlinked (4096 B / 15): 186.2 + 273.1 cycles;
        # compute 2 matmuls * 70.0 = 140 cycles; one semaphore wait (236 cycles) on top of the slower stream.
        core(0, 0, matmul_tiles=2, dram_bytes_read=4096, noc_multicast_bytes=4096, semaphore_waits=1),
        # receiver: nothing read, the multicast is not charged to it: NoC 0, compute 140 cycles, one wait.
        core(1, 0, matmul_tiles=2, semaphore_waits=1),
    ]}
    e = perf_model.estimate(p, report)
    sender = 4096 / 22 + 4096 / 15
    assert [(c.compute_cycles, c.noc_cycles, c.wait_cycles) for c in e.cores] == [
        (140, pytest.approx(sender), 236), (140, 0, 236)]
    assert e.core_seconds == pytest.approx((sender + 236) / F) and e.bound == "noc"
    assert e.dram_bytes == 4096  # the multicast moves L1 to L1, not DRAM
    linked = perf_model.estimate(p, {"cores": [core(0, 0, noc_multicast_linked_bytes=4096)]})
    assert linked.cores[0].noc_cycles == pytest.approx(4096 / 22)  # linked multicasts run at 22 B/cycle


def test_fill_and_drain_come_from_the_plan_cbs() -> None:
    # The reader feeds two 8-tile blocks (A and B), the writer drains a 4-tile block. Fill: 16 tiles * 2048 B
    # / 22 = 1489.5 cycles, plus / 15 = 2184.5 cycles when the kernel multicasts; drain: 8192 B / 21 = 390.1.
    cbs = [cb("reader", "compute", 8), cb("reader", "compute", 8), cb("compute", "writer", 4, klass="output"),
           cb("compute", "compute", 4, "Float32", "intermediate")]
    p = plan("HiFi4", {"A": 16, "B": 16, "C": 4}, cbs)
    fill, drain = perf_model.pipeline_cycles(p, None, device.PERF)
    assert fill == pytest.approx(32768 / 22) and drain == pytest.approx(8192 / 21)
    fill_mc, _ = perf_model.pipeline_cycles(p, 15.0, device.PERF)
    assert fill_mc == pytest.approx(32768 / 22 + 32768 / 15)
    # One core, 64 tile matmuls: compute 64*70 = 4480 + fill + drain = 6359.6 cycles > NoC 65536/22 = 2978.9.
    e = perf_model.estimate(p, {"cores": [core(0, 0, matmul_tiles=64, dram_bytes_read=65536)]})
    assert e.cores[0].cycles == pytest.approx(4480 + 32768 / 22 + 8192 / 21) and e.bound == "compute"
    # 64 writers drain their last 4-tile block at once through the chip's write-back: 64 * 8192 B / 118e9 B/s
    # = 4.44 us = 4025.7 cycles, more than one core's 390.1.
    _, drain64 = perf_model.pipeline_cycles(p, None, device.PERF, writers=64)
    assert drain64 == pytest.approx(64 * 8192 / WRITE_BACK * F)
    # With 64 cores writing C, each core's compute stream carries that drain, and so does its NoC stream (its own
    # writes at 21 B/cycle, the last block's excess over them at the chip's rate): the writes of a NoC-bound core.
    writing = {COUNTERS.MATMUL_TILES: 64, COUNTERS.DRAM_BYTES_READ: 65536, COUNTERS.DRAM_BYTES_WRITTEN: 8192 * 8}
    e64 = perf_model.estimate(p, {"cores": [core(i % 8, i // 8, **writing) for i in range(64)]})
    assert e64.cores[0].pipeline_cycles == pytest.approx(32768 / 22 + drain64)
    assert e64.cores[0].noc_cycles == pytest.approx(65536 / 22 + 65536 / 21 + drain64 - 8192 / 21)
    # Two readers feeding the compute kernel run on two RISC-V cores: the slower one sets the fill.
    split = plan("HiFi4", {}, [cb("reader", "compute", 8), cb("writer", "compute", 4)])
    assert perf_model.pipeline_cycles(split, None, device.PERF)[0] == pytest.approx(16384 / 22)


def test_host_dispatch_depends_on_the_operand_format() -> None:
    # Without trace a tiny op is set by the host: 99.4 us per op, 139.9 us when the matmul operands are block-float.
    report = {"cores": [core(0, 0, matmul_tiles=1)]}
    bf16 = perf_model.estimate(plan("LoFi", {"A": 1}, [cb("reader", "compute", 1)]), report)
    bfp8 = perf_model.estimate(plan("LoFi", {"A": 1}, [cb("reader", "compute", 1, "Bfp8_b")]), report)
    assert (bf16.data_format, bfp8.data_format) == ("Float16_b", "Bfp8_b")
    assert bf16.host_bound_seconds == pytest.approx(99.4e-6) and bfp8.host_bound_seconds == pytest.approx(139.9e-6)
    assert bfp8.modelled_seconds < bf16.modelled_seconds  # the device time follows the format's matmul rate


def test_dram_bound_eltwise_add() -> None:
    # bf16 add 2048x2048: 4096 tiles per tensor; 64 cores * 64 tiles; each core reads 2*64 and writes 64 tiles.
    p = plan(None, {"A": 4096, "B": 4096, "C": 4096})  # compulsory 3 * 4096 * 2048 = 25165824 B
    one = {COUNTERS.ELTWISE_TILES: 64, COUNTERS.PACK_TILES: 64, COUNTERS.DRAM_BYTES_READ: 128 * TILE_BYTES,
           COUNTERS.DRAM_BYTES_WRITTEN: 64 * TILE_BYTES}
    e = perf_model.estimate(p, {"cores": [core(i % 8, i // 8, **one) for i in range(64)]})
    assert e.fidelity == "HiFi4"  # no math_fidelity in the plan: the default
    # per core: compute max(64*8 adds, 64*8 packs) = 512 cycles; NoC 262144/22 + 131072/21 = 18157.0 cycles
    assert e.cores[0].compute_cycles == 512
    assert e.cores[0].noc_cycles == pytest.approx(262144 / 22 + 131072 / 21)
    # DRAM: 25165824 B / 267e9 = 94.25 us > 20.04 us: DRAM-bound, 288/267 = 1.079 of the peak bound (+ launch).
    assert e.dram_bytes == 25_165_824 == e.compulsory_dram_bytes and e.bound == "dram"
    assert e.modelled_seconds == pytest.approx(25_165_824 / 267e9 + LAUNCH)
    assert e.roofline_compute_seconds == pytest.approx(0.512e-6)  # 4096 * 8 cycles / 64 cores / 1 GHz
    assert e.ratio == pytest.approx((25_165_824 / 267e9 + LAUNCH) / (25_165_824 / 288e9))
    assert e.flops == 4096 * 1024


def test_compute_bound_single_core_lofi_and_another_fidelity() -> None:
    p = plan("LoFi", {"A": 10, "B": 100, "C": 10})  # compulsory 120 tiles = 245760 B
    # 1000 tile matmuls * 44.9 (bf16 LoFi runs at the bf16 operand bound) = 44900 cycles (10 packs alongside);
    # NoC: 110 tiles * 2048 / 22 + 10 tiles * 2048 / 21 = 10240 + 975.2 cycles
    report = {"cores": [core(0, 0, matmul_tiles=1000, pack_tiles=10, dram_bytes_read=110 * TILE_BYTES,
                             dram_bytes_written=10 * TILE_BYTES)]}
    e = perf_model.estimate(p, report)
    assert e.cores[0].compute_cycles == pytest.approx(44900) and e.bound == "compute"
    assert e.modelled_seconds == pytest.approx(44900 / F + LAUNCH)
    # roofline: max(1000*16 cycles / 64 cores / 1 GHz = 250 ns, 245760 B / 288e9 = 853.3 ns) = 853.3 ns
    assert e.roofline_compute_seconds == pytest.approx(250e-9) and e.roofline_seconds == pytest.approx(245760 / 288e9)
    assert e.tflops == pytest.approx(1000 * 65536 / (44900 / F + LAUNCH) / 1e12)
    hifi4 = perf_model.estimate(p, report, fidelity="HiFi4")  # the same counters at HiFi4: 1000 * 70.0
    assert hifi4.fidelity == "HiFi4" and hifi4.cores[0].compute_cycles == pytest.approx(70000)
    assert hifi4.roofline_compute_seconds == pytest.approx(1e-6)  # 1000 * 64 / 64 / 1 GHz


def test_custom_perf_facts_and_errors() -> None:
    perf = {**device.PERF, "measured": {**device.PERF["measured"], "clock_hz": 2_000_000_000,
                                        "dram_read_bytes_per_cycle": 64}}
    p = plan("HiFi3", {"A": 1, "B": 1, "C": 1})
    report = {"cores": [core(0, 0, matmul_tiles=2, dram_bytes_read=4096, dram_bytes_written=2048)]}
    e = perf_model.estimate(p, report, perf)
    # compute 2*54.0 = 108 cycles at 2 GHz = 54 ns; NoC 4096/64 + 2048/21 = 161.5 cycles = 80.8 ns
    assert e.compute_seconds == pytest.approx(54e-9) and e.noc_seconds == pytest.approx((64 + 2048 / 21) / 2e9)
    with pytest.raises(ValueError, match="unknown math fidelity 'HiFi9'"):
        perf_model.estimate(plan("HiFi9", {}), report)
    bfp8 = plan("HiFi4", {}, [cb("reader", "compute", 1, "Bfp8_b")])
    with pytest.raises(ValueError, match=r"no measured tile-matmul rate for Bfp8_b operands at HiFi4; measured: \["):
        perf_model.estimate(bfp8, report)
    fp16 = plan("HiFi4", {}, [cb("reader", "compute", 1, "Float16")])
    assert perf_model.estimate(fp16, report).data_format == "Float16_b"  # the same 2-byte operand path
    assert "roofline" in perf_model.PerfEstimate.formula and "semaphore_waits" in perf_model.FORMULA
    with pytest.raises(ValueError, match="has not run yet"):
        perf_model.estimate_kernel(object())


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
    dram_bytes = total[COUNTERS.DRAM_BYTES_READ] + total[COUNTERS.DRAM_BYTES_WRITTEN]
    assert e.dram_bytes == dram_bytes >= e.compulsory_dram_bytes
    assert len(e.cores) == (size // 64) ** 2
    assert e.modelled_seconds >= e.roofline_seconds > 0
    assert e.modelled_seconds >= e.dram_seconds and e.modelled_seconds >= e.core_seconds
    assert e.ratio >= 1.0 and e.data_format == "Float16_b"
    assert e.fidelity == kernel.artifact.rt_mod.plan["kernels"]["compute"].get("math_fidelity", "HiFi4")
    # Each core's compute cycles at least its tile matmuls at the measured rate; multicast cores wait on semaphores.
    mm = device.PERF["measured"]["matmul_tile_cycles"]["Float16_b"][e.fidelity]
    for c, counters in zip(e.cores, kernel.last_report["cores"], strict=True):
        assert c.compute_cycles >= counters[COUNTERS.MATMUL_TILES] * mm
        assert c.wait_cycles == counters[COUNTERS.SEMAPHORE_WAITS] * device.PERF["measured"]["semaphore_wait_cycles"]
    assert e.cores[0].pipeline_cycles > 0  # the reader's first A and B blocks, the writer's last C block
