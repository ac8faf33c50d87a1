"""InterleavedAddrGen<true> and get_noc_addr(page, addrgen) (issue 33; tt-metal's add_2_integers_in_riscv): pages of
a size below the DRAM allocator's alignment lie in their banks at the aligned page size (the device record's
dram_alignment), as tt-metal's allocator and InterleavedAddrGen's aligned_page_size lay them; a transfer past its page
and L1-interleaved generators are refused by name. get_noc_addr(x, y, addr) at a DRAM bank's NoC endpoint (the device
record's noc_endpoints, from tt-metal's Wormhole soc descriptor) reaches that bank; an Ethernet core is named
(tests/emulator_cases/addrgen/)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from projects import TESTS
from tilelang.tenstorrent import emulator

CASES = TESTS / "emulator_cases" / "addrgen"
PAGE, PAGES = 20, 30


@pytest.fixture(scope="module")
def host() -> Path:
    return emulator.build_host(CASES / "host.cpp")


def run(host: Path, tmp_path: Path, *fault: str) -> tuple[np.ndarray, np.ndarray]:
    data = np.random.default_rng(33).integers(0, 2**32, PAGE * PAGES // 4, dtype=np.uint32)
    data.tofile(tmp_path / "in.bin")
    emulator.run(host, [str(CASES), str(tmp_path), *fault])
    return data.view(np.uint8).reshape(PAGES, PAGE), np.fromfile(tmp_path / "out.bin", np.uint8).reshape(PAGES, PAGE)


def test_pages_below_the_dram_alignment_are_addressed_at_the_aligned_stride(host: Path, tmp_path: Path) -> None:
    pages, out = run(host, tmp_path)
    np.testing.assert_array_equal(out, pages[::-1])


def _dprint(host: Path, tmp_path: Path, case: str, profile: str = emulator.DEFAULT_PROFILE) -> list[str]:
    np.zeros(PAGE * PAGES // 4, dtype=np.uint32).tofile(tmp_path / "in.bin")
    done = emulator.run(host, [str(CASES), str(tmp_path), case], profile=profile, env={"TT_METAL_DPRINT_CORES": "0,0"})
    return done["stdout"].splitlines()


def test_dprint_comes_with_the_dataflow_api_and_prints_typed_values(host: Path, tmp_path: Path) -> None:
    """tt-metal's dataflow_api.h includes the print header (its sanitizer's include); F32, U32 and BF16 of the 2025
    print API (the stream form, ttnn 0.65.0: profile tilelang_tt_2025); tt::CB, the CB names older kernels use (ttnn
    0.81.1 kernel_structs.h still has them)."""
    printed = _dprint(host, tmp_path, "DPRINT", "tilelang_tt_2025")
    assert "0:(x=0,y=0):BR: CB 16 1.5 7 1.5" in printed, printed


def test_dprint_takes_a_format_where_tt_metal_removed_the_stream_form(host: Path, tmp_path: Path) -> None:
    """ttnn 0.77.0 and 0.81.1 api/debug/dprint.h: DPRINT(format, ...) with {fmt} fields, each '\\n' ending a line;
    DPRINT_DATA0/1 print on the kernel's NoC only (this writer is on NoC 0: WriterDataMovementConfig)."""
    printed = [line for line in _dprint(host, tmp_path, "DPRINT_FORMAT") if line.startswith("0:(x=0,y=0):")]
    assert printed == ["0:(x=0,y=0):BR: CB 16 30 0xff 1.50", "0:(x=0,y=0):BR: next line",
                       "0:(x=0,y=0):BR: on NoC 0"], printed


def test_device_print_is_what_dprint_forwards_to(host: Path, tmp_path: Path) -> None:
    """ttnn 0.81.1 api/debug/device_print.h: DEVICE_PRINT(format, ...) and DEVICE_PRINT_DATA0/1, which tt-metal's
    hello_world examples call since the stream DPRINT was removed (its dprint.h includes it and forwards DPRINT)."""
    printed = [line for line in _dprint(host, tmp_path, "DEVICE_PRINT") if line.startswith("0:(x=0,y=0):")]
    assert printed == ["0:(x=0,y=0):BR: My logical coordinates are 0,0", "0:(x=0,y=0):BR: on NoC 0"], printed


def test_device_print_is_refused_where_tt_metal_had_only_the_stream_form(host: Path, tmp_path: Path) -> None:
    with pytest.raises(emulator.TTEmulatorError, match="DEVICE_PRINT came with ttnn 0.77.0"):
        _dprint(host, tmp_path, "DEVICE_PRINT", "tilelang_tt_2025")


def test_the_stream_form_does_not_compile_where_tt_metal_removed_it(host: Path, tmp_path: Path) -> None:
    """ttnn 0.81.1's static_assert, as its dprint.h words it."""
    with pytest.raises(emulator.TTEmulatorError, match="Old style DPRINT is deprecated. Use DPRINT\\(format, ...\\) "
                                                       "instead"):
        _dprint(host, tmp_path, "DPRINT")


def test_a_read_past_its_page_is_named(host: Path, tmp_path: Path) -> None:
    expected = (r"noc_async_read\(.*, 24\): transfer of 24 B at offset 0 does not fit in a page of DRAM buffer "
                r"0x[0-9a-f]+ \(30 pages of 20 B\)")
    with pytest.raises(emulator.TTEmulatorError, match=expected):
        run(host, tmp_path, "PAST_PAGE")


def test_an_l1_interleaved_generator_does_not_compile(host: Path, tmp_path: Path) -> None:
    with pytest.raises(emulator.TTEmulatorError, match=r"InterleavedAddrGen<false> \(L1-interleaved tensors\) is not "
                                                       r"emulated"):
        run(host, tmp_path, "L1")


def test_a_dram_bank_is_reached_at_its_noc_endpoints(host: Path, tmp_path: Path) -> None:
    pages, out = run(host, tmp_path, "ENDPOINTS")
    np.testing.assert_array_equal(out, pages[::-1])


def test_an_ethernet_core_is_no_dram_endpoint(host: Path, tmp_path: Path) -> None:
    expected = (r"get_noc_addr\(1, 0, .*\): NoC \(1,0\) is an Ethernet core \(the emulator does not model Ethernet "
                r"cores' L1\), not a DRAM endpoint \(DRAM endpoints of the device: bank 0: \(0,0\) \(0,1\) \(0,11\) "
                r"from 0x0, bank 1: \(0,0\) \(0,1\) \(0,11\) from 0x40000000, ")
    with pytest.raises(emulator.TTEmulatorError, match=expected):
        run(host, tmp_path, "ETH")
