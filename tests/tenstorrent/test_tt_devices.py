"""Devices as records (issue 34): the Tenstorrent backend spec holds one record per device (Wormhole n150, the
default, and Blackhole p150); a target names one ("tenstorrent:p150" or {"kind": "tenstorrent", "device": "p150"}),
the passes plan for its grid and L1, tt.plan.json names it, and the emulator runs it (its grid, DRAM banks, L1 and
alignment rules), chosen at run time. Kernels run on both devices against numpy (and the device-parametrised
suite, tests/tenstorrent/test_tt_device_suite.py)."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from test_language_llvm import matmul
from tt_kernels import elementwise_binary

import tilelang
from tilelang.engine.backend import TargetError, resolve
from tilelang.engine.registry import BACKENDS
from tilelang.errors import TileLangError
from tilelang.tenstorrent import device, perf_model

BF16 = ml_dtypes.bfloat16
SUB = elementwise_binary(64, 64, 32, 32, "sub")
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def test_each_device_record_states_its_facts() -> None:
    """The records the spec holds (specs/backends/tenstorrent.yaml, device.devices), as device.py renders them; the
    default device's constants are n150's, and the roofline's core count is its compute grid."""
    assert (device.DEVICE, device.ARCH) == ("n150", "wormhole_b0") and set(device.DEVICES) >= {"n150", "p150"}
    n150, p150 = device.DEVICES["n150"], device.DEVICES["p150"]
    assert (n150.arch, n150.core_grid, n150.dram_banks, n150.dram_alignment, n150.perf) == ("wormhole_b0", (8, 8),
                                                                                           12, 32, True)
    assert (p150.arch, p150.core_grid, p150.dram_banks, p150.dram_alignment, p150.perf) == ("blackhole", (13, 10),
                                                                                           8, 64, True)
    assert p150.clock_hz == 1_350_000_000 and n150.clock_hz == device.PERF["clock_hz"]
    assert device.CORE_GRID == n150.core_grid and device.L1_BYTES == n150.l1_bytes
    assert device.PERF["worker_cores"] == 8 * 8


@pytest.mark.parametrize("target", ["tenstorrent:p150", {"kind": "tenstorrent", "device": "p150"}])
def test_a_target_names_a_device(target: object) -> None:
    """The tvm Target's `model` is the device's architecture (n150's target is the one it always was)."""
    backend = resolve(target, BACKENDS)
    assert backend.name == "tenstorrent" and backend.device_of(target) == "p150"
    assert str(backend.make_target(device="p150").attrs["model"]) == "blackhole"
    assert str(backend.make_target().attrs["model"]) == "wormhole_b0"
    assert backend.device_of("tenstorrent") == backend.device_of(backend.make_target()) == "n150"


@pytest.mark.parametrize("target,message", [
    ("tenstorrent:p999", "target 'tenstorrent' has no device 'p999' (devices of specs/backends/tenstorrent.yaml: "
                         "n150, p150, p100; systems: n300, t3k, galaxy, p150x4)"),
    ("llvm:p150", "target 'llvm' has no device 'p150'"),
    ("tenstorrent:", "names no device after ':'"),
    ({"kind": "tenstorrent", "chip": "p150"}, "a target dict has a string 'kind'"),
])
def test_an_unknown_device_is_refused(target: object, message: str) -> None:
    with pytest.raises(TargetError, match=None) as caught:
        resolve(target, BACKENDS)
    assert message in str(caught.value)


def _plan(artifact: object) -> dict:
    return json.loads(artifact.rt_mod.files["tt.plan.json"])  # type: ignore[attr-defined]


def test_the_plan_names_the_device_and_the_partition_uses_its_grid() -> None:
    """A 13x10 block grid: the whole p150 compute grid, one block per core; on n150 the 8x8 grid."""
    func = matmul(320, 416, 64, 32, 32, 32, dtype="bfloat16")
    p150 = _plan(tilelang.lower(func, target="tenstorrent:p150"))
    n150 = _plan(tilelang.lower(func, target="tenstorrent"))
    assert (p150["device"]["name"], p150["device"]["core_grid"], p150["core_grid"]) == ("p150", [13, 10], [13, 10])
    assert len(p150["work_partition"]) == 130
    assert (n150["device"]["name"], n150["device"]["core_grid"], n150["core_grid"]) == ("n150", [8, 8], [8, 8])
    # The model charges a plan the rates of the device it names; a device without a perf record is refused.
    assert perf_model.estimate(p150, {}).clock_hz == device.PERF_BY_DEVICE["p150"]["measured"]["clock_hz"]
    assert perf_model.estimate(n150, {}).clock_hz == device.PERF["measured"]["clock_hz"]
    p100 = _plan(tilelang.lower(func, target="tenstorrent:p100"))
    with pytest.raises(TileLangError, match="compiled for device 'p100'; the performance model has facts for "
                                            "n150, p150 only"):
        perf_model.estimate(p100, {})


def test_a_core_grid_beyond_the_device_is_refused() -> None:
    """core_grid [13, 10] fits p150, not n150 (PartitionTTWork's check against the device's CORE_GRID)."""
    func = matmul(320, 416, 64, 32, 32, 32, dtype="bfloat16")
    configs = {"tl.PartitionTTWork.core_grid": [13, 10]}
    with pytest.raises(TileLangError, match=r"core_grid \[13, 10\] does not fit the device's \(8, 8\) worker grid"):
        tilelang.compile(func, out_idx=[-1], target="tenstorrent", pass_configs=configs)


def test_a_harvested_blackhole_is_one_record() -> None:
    """p100: p150's record less two worker columns, one DRAM bank and two Ethernet cores (the harvested ones, last in
    translated coordinates); its 11x10 compute grid is tt-metal's 2xharvested core descriptor."""
    p100, p150 = device.DEVICES["p100"], device.DEVICES["p150"]
    assert (p100.arch, p100.core_grid, p100.dram_banks, p100.perf) == ("blackhole", (11, 10), 7, False)
    assert (p100.l1_bytes, p100.clock_hz, p100.dram_alignment) == (p150.l1_bytes, p150.clock_hz, p150.dram_alignment)


@needs_gxx
@pytest.mark.parametrize("name", ["n150", "p150", "p100"])
def test_gemm_runs_on_the_device(name: str) -> None:
    m, n, k = 320, 416, 64
    kernel = tilelang.compile(matmul(m, n, k, 32, 32, 32, dtype="bfloat16"), out_idx=[-1],
                              target={"kind": "tenstorrent", "device": name})
    rng = np.random.default_rng(34)
    a = rng.uniform(-1, 1, (m, k)).astype(BF16)
    b = rng.uniform(-1, 1, (k, n)).astype(BF16)
    c = kernel(a, b)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    assert float(np.abs(c.astype(np.float32) - ref).max()) <= 2.0**-7 * float(np.abs(ref).max())
    report = kernel.last_report
    assert report["status"] == "ok" and report["device"] == name
    assert len(report["cores"]) == {"n150": 64, "p150": 130, "p100": 110}[name]


@needs_gxx
def test_a_dram_read_misaligned_for_blackhole_is_named(tmp_path: Path) -> None:
    """A read 32 B into its CB page: within Wormhole's 32 B DRAM read alignment, not Blackhole's 64 B (the p150
    record's noc_alignment.dram_read, from tt-metal's blackhole noc_parameters.h); the sanitizer names it."""
    from tilelang.tenstorrent import emulator

    rt_mod = tilelang.compile(SUB, target="tenstorrent:p150").artifact.rt_mod
    prog = dataclasses.replace(rt_mod, files=dict(rt_mod.files))
    before = prog.files["reader.cpp"]
    prog.files["reader.cpp"] = re.sub(
        r"noc_async_read_page\((.*), accessor, l1_write_addr\);",
        r"tt_emu::kapi::noc_async_read(accessor.get_noc_addr(\1), l1_write_addr + 32, 1024);", before, count=1)
    assert prog.files["reader.cpp"] != before
    rng = np.random.default_rng(19)
    arrays = [rng.uniform(-1, 1, (64, 64)).astype(BF16) for _ in range(2)] + [np.zeros((64, 64), BF16)]
    with pytest.raises(emulator.TTEmulatorError) as caught:
        prog.run(arrays, workdir=tmp_path)
    assert re.search(r"reader: noc_async_read\(.*\): NoC alignment: the L1 destination 0x[0-9a-f]+ and the DRAM "
                     r"source \(offset 0x0 in its page\) differ modulo 64 B", str(caught.value)), str(caught.value)
