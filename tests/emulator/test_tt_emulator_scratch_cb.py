"""A CB used as L1 scratch (issue 33): on hardware get_write_ptr / get_read_ptr return the CB interface's fifo_wr_ptr /
fifo_rd_ptr unchecked (ttnn 0.81.1 api/dataflow/dataflow_api.h), and ttnn's pad reader takes them of its pad and
alignment CBs, which it never reserves or waits on. Such a CB is scratch: pointer stores and NoC transfers may use all
of it (tests/emulator_cases/scratch_cb/, also the host's tt_metal.hpp detail calls and util.hpp's TileSize), and a FIFO
call on it afterwards is reported, since scratch writes would overwrite the FIFO's pages. And a unicast noc_async_write
into another core's L1 (tt-metal's NoC_tile_transfer): it lands in the page the receiver reserved and signalled, and
one into a page the receiver never reserved is reported, as a multicast is; the receiver copies the tile through DST
after copy_tile_to_dst_init_short (tt-metal's matmul example calls that older name of copy_tile_init)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from projects import TESTS
from tilelang.tenstorrent import emulator

CASES = TESTS / "emulator_cases" / "scratch_cb"
PAD = 0x40004000


@pytest.fixture(scope="module")
def host() -> Path:
    return emulator.build_host(CASES / "host.cpp")


def test_scratch_cb_pointers_and_noc_transfers(host: Path, tmp_path: Path) -> None:
    data = np.arange(1, 17, dtype=np.uint32) * 3
    data.tofile(tmp_path / "in.bin")
    out = emulator.run(host, [str(CASES), str(tmp_path), "scratch"])["stdout"]
    assert "tile sizes: 2048 1088" in out, out
    pages = np.fromfile(tmp_path / "out.bin", dtype=np.uint32).reshape(2, 16)
    expected = data + np.uint32(PAD)
    expected[15] = 1  # get_noc_addr(addr) is this core's NoC address of addr
    np.testing.assert_array_equal(pages[0], expected)
    np.testing.assert_array_equal(pages[1], data)  # read into scratch and written back from it by the NoC


def test_fifo_use_of_a_scratch_cb_is_reported(host: Path, tmp_path: Path) -> None:
    np.zeros(16, np.uint32).tofile(tmp_path / "in.bin")
    with pytest.raises(emulator.TTEmulatorError) as err:
        emulator.run(host, [str(CASES), str(tmp_path), "scratch", "FIFO_AFTER_SCRATCH"])
    assert re.search(r"scratch: cb_reserve_back\(1, 1\): CB 1 is L1 scratch \(a kernel took its pointer before any "
                     r"cb_reserve_back or cb_wait_front\) and now a FIFO", str(err.value)), str(err.value)


def bf16_tile() -> np.ndarray:
    values = np.random.default_rng(3).uniform(-4, 4, 1024).astype(np.float32)
    return (values.view(np.uint32) >> 16).astype(np.uint16)


def test_unicast_write_into_another_cores_reserved_page(host: Path, tmp_path: Path) -> None:
    tile = bf16_tile()
    tile.tofile(tmp_path / "in.bin")
    emulator.run(host, [str(CASES), str(tmp_path), "unicast"])
    np.testing.assert_array_equal(np.fromfile(tmp_path / "out.bin", dtype=np.uint16), tile)


def test_unicast_write_into_an_unreserved_page_is_reported(host: Path, tmp_path: Path) -> None:
    bf16_tile().tofile(tmp_path / "in.bin")
    with pytest.raises(emulator.TTEmulatorError) as err:
        emulator.run(host, [str(CASES), str(tmp_path), "unicast", "WRITE_BEFORE_RESERVE"])
    assert re.search(r"send: noc_async_write\(.*\): multicast into L1 0x[0-9a-f]+\.\.0x[0-9a-f]+ of core \(0,1\), "
                     r"which it has not reserved", str(err.value)), str(err.value)
