"""A block of CB pages whose tail is pushed unwritten (issue 33): ttnn's layernorm reserves, pushes and pops whole
blocks of `block_size` pages while a row holds fewer valid tiles, and reads only those. On hardware that is legal:
cb_push_back and cb_pop_front move counters, and one cb_push_back moves the producer's count at once, so a consumer
that waited for a block's first page may pop the whole block. The emulator reports what would go wrong: reading a
page its producer pushed without writing (by tile math or as a NoC write's source), and popping a page that neither
a wait nor the push of a waited page made known. Kernels of the project's own (tests/emulator_cases/cb_tail/)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from projects import TESTS
from tilelang.tenstorrent import emulator

CASES = TESTS / "emulator_cases" / "cb_tail"


@pytest.fixture(scope="module")
def host() -> Path:
    return emulator.build_host(CASES / "host.cpp")


def run(host: Path, tmp_path: Path, mode: str) -> dict:
    a = (np.random.default_rng(33).uniform(-4, 4, 2 * 1024).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    a.tofile(tmp_path / "a.bin")
    report = emulator.run(host, [str(CASES), str(tmp_path), mode])
    np.testing.assert_array_equal(np.fromfile(tmp_path / "c.bin", dtype=np.uint16), a)
    return report


def test_a_block_pushed_and_popped_with_its_tail_unwritten(host: Path, tmp_path: Path) -> None:
    """Reader and compute kernel each push 2-page blocks with one page written; the compute kernel and the writer
    wait for the first page, use it and pop the block: the copy is exact, nothing is reported."""
    assert "done: 2 tiles" in run(host, tmp_path, "TAIL")["stdout"]


def test_zero_pages_and_constant_descriptors(host: Path, tmp_path: Path) -> None:
    """cb_wait_front and cb_pop_front of 0 pages return at once on hardware (ttnn's 2-D multicast matmul writers pop
    their 0 padding pages so): no error; and a data-movement kernel made with CreateKernel gets the CB descriptors,
    so get_tile_size and get_dataformat are constants (the writer static_asserts them)."""
    assert "done: 2 tiles" in run(host, tmp_path, "ZERO")["stdout"]


@pytest.mark.parametrize(("mode", "message"), [
    ("WRITE_IFACE", r"writer: get_local_cb_interface\(16\): the kernel wrote CB c_16's interface"),
    ("READ_TAIL", r"compute: copy_tile\(0, 1, 0\): copy_tile reads page 1 of CB 0, which its producer pushed without "
                  r"writing it since cb_reserve_back"),
    ("WRITE_TAIL", r"writer: .*the NoC write's source 0x[0-9a-f]+\.\.0x[0-9a-f]+ is waited page 1 of CB 16, which its "
                   r"producer pushed without writing it"),
    ("POP_AHEAD", r"compute: cb_pop_front\(0, 2\): popping 2 pages but only 1 waited on CB 0 \(cb_wait_front must "
                  r"cover every popped page, or the cb_push_back that delivered it\)"),
])
def test_reading_or_popping_a_tail_page_unknown(host: Path, tmp_path: Path, mode: str, message: str) -> None:
    with pytest.raises(emulator.TTEmulatorError, match=message):
        run(host, tmp_path, mode)
