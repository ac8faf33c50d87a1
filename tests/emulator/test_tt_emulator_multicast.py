"""Multicast in the tt_emu emulator (tests/emulator_cases/mcast/): one core reads blocks from DRAM and multicasts
them to the others with tt-metal's semaphore handshake; every core must receive the exact bytes, and each way of
breaking the handshake is seeded and reported with its message, core, kernel and a state dump."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from projects import TESTS
from tilelang.tenstorrent import emulator
from tilelang.tenstorrent.emulator import DEFAULT_PROFILE, TTEmulatorError
from tilelang.tenstorrent.records import COUNTERS

CASES = TESTS / "emulator_cases"
METAL = "metal_d5f9bc4a"
TT2025 = "tilelang_tt_2025"

pytestmark = pytest.mark.skipif(shutil.which(os.environ.get("CXX", "g++")) is None, reason="no C++ compiler")

MCAST_KERNELS = CASES / "mcast"
SEM0, SEM1 = 0x16E000, 0x16E010  # L1 addresses of semaphores 0 and 1 (the region above the 1464 KiB CB space)


def noc_addr(x: int, y: int, addr: int) -> int:
    """The emulator's get_noc_addr: tag 1 in bits 60..63, y and x as 6-bit fields from bit 36, the L1 address."""
    return 1 << 60 | y << 42 | x << 36 | addr


def mcast_addr(x_start: int, y_start: int, x_end: int, y_end: int, addr: int) -> int:
    """get_noc_multicast_addr: tag 2, then tt-metal's field order (x_end, y_end, x_start, y_start from bit 36)."""
    return 2 << 60 | y_start << 54 | x_start << 48 | y_end << 42 | x_end << 36 | addr


@pytest.fixture(scope="module")
def host_mcast_mesh() -> Path:
    return emulator.build_host(CASES / "host_mcast_mesh.cpp", METAL)


@pytest.fixture(scope="module")
def host_mcast_device() -> Path:
    return emulator.build_host(CASES / "host_mcast_device.cpp", TT2025)


def run_mcast(exe: Path, data: Path, shape: str = "row", noc: int = 1, blocks: int = 2, block_tiles: int = 4, *,
              fault: tuple[str, str, int] | None = None,
              profile: str = METAL) -> tuple[dict[str, Any], np.ndarray, np.ndarray]:
    """Run the multicast program; returns (report, input bytes, output bytes per core in core order)."""
    data.mkdir(parents=True, exist_ok=True)
    inp = np.random.default_rng(blocks * 10 + block_tiles).integers(0, 256, blocks * block_tiles * 2048, np.uint8)
    inp.tofile(data / "in.bin")
    args = [shape, str(noc), str(blocks), str(block_tiles), str(MCAST_KERNELS), str(data)]
    if fault is not None:
        args += [fault[0], fault[1], str(fault[2])]
    report = emulator.run(exe, args, profile)
    out = np.fromfile(data / "out.bin", dtype=np.uint8).reshape(4, -1)
    return report, inp, out


def check_mcast_counters(report: dict[str, Any], blocks: int, block_tiles: int) -> None:
    """Only the sender (core (0,0)) reads DRAM; it multicasts each block once; each receiver signals once."""
    block = block_tiles * 2048
    c = COUNTERS
    sender = {c.DRAM_BYTES_READ: blocks * block, c.NOC_READS: blocks * block_tiles, c.NOC_MULTICAST_WRITES: blocks,
              c.NOC_MULTICAST_BYTES: blocks * block, c.SEMAPHORE_MULTICASTS: blocks, c.SEMAPHORE_INCS: 0,
              c.SEMAPHORE_WAITS: blocks, c.DRAM_BYTES_WRITTEN: blocks * block}
    receiver = {c.DRAM_BYTES_READ: 0, c.NOC_READS: 0, c.NOC_MULTICAST_WRITES: 0, c.NOC_MULTICAST_BYTES: 0,
                c.SEMAPHORE_MULTICASTS: 0, c.SEMAPHORE_INCS: blocks, c.SEMAPHORE_WAITS: blocks,
                c.DRAM_BYTES_WRITTEN: blocks * block}
    cores = report["cores"]
    assert {k: cores[0][k] for k in sender} == sender
    for core in cores[1:]:
        assert {k: core[k] for k in receiver} == receiver
    assert report["total"][COUNTERS.NOC_MULTICAST_BYTES] == blocks * block  # once per transfer, not per destination
    assert report["total"][COUNTERS.SEMAPHORE_INCS] == 3 * blocks


@pytest.mark.parametrize(("shape", "noc"), [("row", 1), ("row", 0), ("square", 0), ("square", 1)])
def test_multicast_delivers_every_block_to_every_core(host_mcast_mesh: Path, tmp_path: Path, shape: str,
                                                      noc: int) -> None:
    """1x4 row (rectangle beside the sender) or 2x2 square (sender inside it), reader on NoC 1 (its default:
    the rectangle is given end-first) or NOC_0; CB 0 double-buffers 4-tile blocks, so the handshake repeats."""
    report, inp, out = run_mcast(host_mcast_mesh, tmp_path, shape, noc, blocks=3, block_tiles=4)
    for got in out:
        assert np.array_equal(got, inp)
    expected = [[0, 0], [1, 0], [2, 0], [3, 0]] if shape == "row" else [[0, 0], [1, 0], [0, 1], [1, 1]]
    assert sorted(core["core"] for core in report["cores"]) == sorted(expected)
    report["cores"].sort(key=lambda core: expected.index(core["core"]))
    check_mcast_counters(report, 3, 4)


def test_multicast_single_device_api(host_mcast_device: Path, tmp_path: Path) -> None:
    report, inp, out = run_mcast(host_mcast_device, tmp_path, "row", 1, blocks=2, block_tiles=2, profile=TT2025)
    for got in out:
        assert np.array_equal(got, inp)
    check_mcast_counters(report, 2, 2)


def test_multicast_object_api(tmp_path: Path) -> None:
    """The same handshake in ttnn 0.81.1's object API (tests/emulator_cases/mcast_objects/, as ttnn's multicast
    matmul readers write it: Semaphore<> from an id, Noc::async_write_multicast to a MulticastEndpoint,
    set_multicast, up(noc, x, y, 1), async_atomic_barrier): every core gets every block, with the same counters."""
    exe = emulator.build_host(CASES / "host_mcast_mesh.cpp", DEFAULT_PROFILE)
    data = tmp_path / "data"
    data.mkdir()
    inp = np.random.default_rng(34).integers(0, 256, 2 * 4 * 2048, np.uint8)
    inp.tofile(data / "in.bin")
    report = emulator.run(exe, ["row", "1", "2", "4", str(CASES / "mcast_objects"), str(data)], DEFAULT_PROFILE)
    for got in np.fromfile(data / "out.bin", dtype=np.uint8).reshape(4, -1):
        assert np.array_equal(got, inp)
    report["cores"].sort(key=lambda core: core["core"])
    check_mcast_counters(report, 2, 4)


LINKED = ("a linked multicast to NoC (4,1)..(2,1) (noc_async_write_multicast with linked = true) opened a NoC "
          "transaction that only multicasts to the same rectangle may continue, and an unlinked one closes (with "
          "noc_semaphore_set_multicast, as tt-metal's senders do); on hardware any other request of the NIU "
          "meanwhile stops the NoC (NOC_CMD_VC_LINKED, tt-isa-documentation WormholeB0/NoC/MemoryMap.md)")
# (role, FAULT_<name>, core index, expected first line after "tt_emu: error: "); row of 4 cores, NoC 1, 2 blocks
# of 4 tiles. CB 0 sits at L1 0x800 on every core (a scratch CB on the sender is created first).
MCAST_FAULTS = [
    ("reader", "SKIP_HANDSHAKE", 0,
     f"core (0,0) reader_mcast: noc_async_write_multicast(0x800, {mcast_addr(4, 1, 2, 1, 0x800):#x}, 8192, 3): "
     "multicast into L1 "
     "0x800..0x2800 of core (1,0), which it has not reserved (CB 0 at L1 0x800..0x4800 there: its producer must "
     "cb_reserve_back these pages and then signal this kernel, e.g. with noc_semaphore_inc, before the "
     "multicast); it landed at noc_semaphore_set_multicast"),
    ("reader", "WRONG_NUM_DESTS", 0,
     f"core (0,0) reader_mcast: noc_async_write_multicast(0x800, {mcast_addr(4, 1, 2, 1, 0x800):#x}, 8192, 2): "
     "num_dests is 2 but "
     "the rectangle NoC (4,1)..(2,1) holds 3 destination core(s) of this program (this core excluded): (1,0) "
     "(2,0) (3,0)"),
    ("reader", "WRONG_RECT_ORDER", 0,
     f"core (0,0) reader_mcast: noc_async_write_multicast(0x800, {mcast_addr(2, 1, 4, 1, 0x800):#x}, 8192, 3): "
     "the multicast "
     "rectangle NoC (2,1)..(4,1) has its corners in the wrong order for NoC 1 (this kernel's DataMovementConfig "
     "noc): on NoC 0 the start corner is the smaller one (x_start <= x_end, y_start <= y_end), on NoC 1 the "
     "larger one"),
    ("reader", "SEMAPHORE_DEADLOCK", 2,
     f"core (2,0) reader_mcast: noc_semaphore_wait({SEM1:#x}, 2): deadlock: waits for semaphore 1 (L1 "
     f"{SEM1:#x}) to equal 2 (it is 1) and no kernel of the program can make progress (on this core: "
     "writer_mcast blocked in cb_wait_front(0, 4); on other cores: no kernel blocked)"),
    ("reader", "PENDING_MCAST_AT_END", 0,
     "core (0,0) reader_mcast: kernel_main(): returned with 1 NoC multicast(s) pending (missing "
     "noc_async_write_barrier): multicast L1 0x2800 (8192 B) -> L1 0x2800 of (1,0) (2,0) (3,0)"),
    ("reader", "LINKED_THEN_BARRIER", 0,
     "core (0,0) reader_mcast: noc_async_write_barrier(): " + LINKED + "; this call comes first"),
    ("reader", "LINKED_AT_END", 0, "core (0,0) reader_mcast: kernel_main(): returned with " + LINKED),
    ("reader", "INC_NOT_A_SEMAPHORE", 1,
     f"core (1,0) reader_mcast: noc_semaphore_inc({noc_addr(1, 1, SEM0 + 4):#x}, 1): L1 {SEM0 + 4:#x} of core (0,0) is "
     f"not a semaphore (its semaphores: 0 at {SEM0:#x}, 1 at {SEM1:#x})"),
    ("reader", "INC_LOGICAL_COORDS", 3,
     f"core (3,0) reader_mcast: noc_semaphore_inc({noc_addr(0, 0, SEM0):#x}, 1): NoC (0,0) is not a worker core "
     "(worker NoC x: 1..4, 6..9; y: 1..5, 7..9; the host maps logical cores with worker_core_from_logical_core)"),
    ("host", "SEMAPHORE_NOT_ON_CORE", 2,
     f"core (2,0) reader_mcast: get_semaphore(1): semaphore 1 does not exist on this core (the program created "
     f"ids 0..1 with CreateSemaphore; its semaphores: 0 at {SEM0:#x})"),
]


@pytest.mark.parametrize(("role", "fault", "core", "diagnosis"), MCAST_FAULTS, ids=[f[1] for f in MCAST_FAULTS])
def test_multicast_fault_is_reported(host_mcast_mesh: Path, tmp_path: Path, role: str, fault: str, core: int,
                                     diagnosis: str) -> None:
    with pytest.raises(TTEmulatorError) as info:
        run_mcast(host_mcast_mesh, tmp_path, fault=(role, fault, core))
    err = info.value
    text = str(err)
    first = text.splitlines()[0]
    assert err.returncode == emulator.EXIT_EMULATOR_ERROR
    assert first == "tt_emu: error: " + diagnosis
    # The dump of the failing core, with its NoC coordinates and semaphores.
    assert f"core ({core},0) state:\n  NoC coordinates: ({[1, 2, 3, 4][core]},1)\n  kernels:" in text
    assert "reader_mcast [riscv_1" in text and "writer_mcast [riscv_0" in text
    assert "CB 0: Float16_b, 8 x 2048 B at L1 0x800" in text
    assert f"  semaphores:\n    semaphore 0 at L1 {SEM0:#x}: " in text
    assert err.report is not None and err.report["error"] == first


def test_multicast_fault_dumps_explain_it(host_mcast_mesh: Path, tmp_path: Path) -> None:
    # The receiver that was not ready is dumped after the sender: its CB 0 is not reserved.
    with pytest.raises(TTEmulatorError) as info:
        run_mcast(host_mcast_mesh, tmp_path / "skip", fault=("reader", "SKIP_HANDSHAKE", 0))
    text = str(info.value)
    assert ("pending NoC transfers:\n    reader_mcast: multicast L1 0x800 (8192 B) -> L1 0x800 of (1,0) (2,0) "
            "(3,0)") in text
    assert "core (1,0) state:" in text
    # The deadlocked receiver's semaphores: 1 is the VALID the sender multicast, not the 2 it waits for.
    with pytest.raises(TTEmulatorError) as info:
        run_mcast(host_mcast_mesh, tmp_path / "dead", fault=("reader", "SEMAPHORE_DEADLOCK", 2))
    text = str(info.value)
    assert f"semaphore 0 at L1 {SEM0:#x}: 0\n    semaphore 1 at L1 {SEM1:#x}: 1" in text
    assert "failed in noc_semaphore_wait(0x16e010, 2), waits for semaphore 1" in text


def test_worker_core_from_logical_core(tmp_path: Path) -> None:
    exe = emulator.build_host(CASES / "noc_coords.cpp")
    rows = np.array(emulator.run(exe, [])["stdout"].split(), dtype=np.int64).reshape(64, 4)
    noc_x, noc_y = [1, 2, 3, 4, 6, 7, 8, 9], [1, 2, 3, 4, 5, 7, 8, 9]  # Wormhole b0 worker columns and rows
    assert [tuple(r) for r in rows] == [(x, y, noc_x[x], noc_y[y]) for y in range(8) for x in range(8)]
    with pytest.raises(TTEmulatorError, match=r"^tt_emu: error: host: worker_core_from_logical_core: logical core "
                                              r"\(8,0\) is outside the 8x8 worker grid$"):
        emulator.run(exe, ["8", "0"])
