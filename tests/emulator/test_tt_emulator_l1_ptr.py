"""L1 as memory kernels dereference (issue 33): tt-metal's kernels read and write L1 through the addresses
get_write_ptr, get_read_ptr and get_semaphore give (`reinterpret_cast<volatile tt_l1_ptr uint32_t*>(addr)`,
CoreLocalMem). Each core's L1 is a window of its own in the kernels' address space: 4 cores store different data at
the same L1 address at once (tests/emulator_cases/l1_ptr/), the NoC calls take the pointers' addresses back to L1
offsets, Noc::async_write_zeros zeroes L1 at its barrier, an L1 buffer's address given as a runtime argument reaches
each kernel as its core's address, and an L1 offset dereferenced as a pointer is named."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from projects import TESTS
from tilelang.tenstorrent import emulator

CASES = TESTS / "emulator_cases" / "l1_ptr"


@pytest.fixture(scope="module")
def host() -> Path:
    return emulator.build_host(CASES / "host.cpp")


def run(host: Path, tmp_path: Path, *fault: str) -> np.ndarray:
    emulator.run(host, [str(CASES), str(tmp_path), *fault])
    return np.fromfile(tmp_path / "out.bin", dtype=np.uint32).reshape(4, 512)


def test_each_core_reads_and_writes_its_own_l1_through_pointers(host: Path, tmp_path: Path) -> None:
    pages = run(host, tmp_path)
    for core in range(4):
        expected = np.zeros(512, np.uint32)  # zeroed by Noc::async_write_zeros, the first half stored through pointers
        expected[:256] = (core << 16) | np.arange(256, dtype=np.uint32)
        expected[1], expected[2] = 0xA000 + core, 0xB000 + core  # CoreLocalMem's [] and * stores
        expected[0] = 40 + core  # the semaphore the drain kernel set, read back through get_semaphore's pointer
        expected[510] = 0xC000 + core  # the word the fill kernel stored at the L1 buffer's address (a runtime argument)
        expected[511] = np.arange(3, 256).sum()  # the sum of the low halves the drain kernel read through the pointer
        np.testing.assert_array_equal(pages[core], expected, err_msg=f"core {core}")


def test_an_l1_offset_dereferenced_as_a_pointer_is_named(host: Path, tmp_path: Path) -> None:
    with pytest.raises(emulator.TTEmulatorError) as err:
        run(host, tmp_path, "fill", "OFFSET")
    assert re.search(r"fill.*: a load or store through L1 address 0x[0-9a-f]+ \(in CB 0 \(reserved pages\)\) held as "
                     r"an integer, in or after noc_async_read_barrier: it is an L1 offset, not an address of this "
                     r"core's L1",
                     str(err.value)), str(err.value)


def test_the_cb_contract_still_holds_for_pointer_writes(host: Path, tmp_path: Path) -> None:
    with pytest.raises(emulator.TTEmulatorError,
                       match=re.escape("cb_push_back(0, 1): pushing 1 page but only 0 reserved on CB 0")):
        run(host, tmp_path, "fill", "UNWRITTEN")


def test_zeros_pushed_before_their_barrier_are_reported(host: Path, tmp_path: Path) -> None:
    with pytest.raises(emulator.TTEmulatorError,
                       match=re.escape("cb_push_back(0, 1): missing read barrier: fill's NoC read of zeros -> L1 ")):
        run(host, tmp_path, "fill", "NO_ZERO_BARRIER")
