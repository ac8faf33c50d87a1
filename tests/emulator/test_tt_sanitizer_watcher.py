"""Sanitizer checks tt-metal's watcher has that the emulator lacked (issue 29, item 4), each seeded into the sources
of a real compiled kernel; before, each gave wrong numbers with status ok, a schedule-dependent hang or a bare
signal 11:

1. a NoC read into an L1 address misaligned against its DRAM source (the watcher's NoC sanitizer rule, with the
   device record's alignments: specs/backends/tenstorrent.yaml noc_alignment);
2. a non-reduce pack while the packer still has reduce_init's edge mask (a missing reduce_uninit);
3. a semaphore reset before its wait (the sender's set races with the receivers' increments: vector clocks);
4. a store through an L1 offset held as an integer (named, not a bare crash; stores through the addresses the API
   gives are emulated since issue 33: tests/emulator/test_tt_emulator_l1_ptr.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_tt_sanitizer import BF16, SUB, gemm_arrays, inputs, program, seeded, sub
from tt_kernels import matmul, row_reduce

import tilelang


@pytest.fixture(scope="module")
def emulator() -> Any:
    from tilelang.tenstorrent import emulator as emu

    emu.library()
    return emu


ROW_SUM = row_reduce(64, 64, 32, "sum", accumulate=True)
MCAST_GEMM = matmul(256, 256, 128, 64, 64, 32, dtype="bfloat16")


def mcast_program() -> Any:
    import dataclasses

    rt_mod = tilelang.compile(MCAST_GEMM, target="tenstorrent").artifact.rt_mod
    return dataclasses.replace(rt_mod, files=dict(rt_mod.files))


def row_sum_arrays() -> list[np.ndarray]:
    return inputs((64, 64), (64, 64)) + [np.zeros((64,), np.float32)]


def test_unseeded_kernels_pass_the_new_rules(emulator: Any, tmp_path: Path) -> None:
    """The reduction (reduce_uninit before the transpose's pack) and the multicast GEMM (semaphores) run clean."""
    prog = program(ROW_SUM)
    a, b, out = row_sum_arrays()
    assert prog.run([a, b, out], workdir=tmp_path / "sum")["status"] == "ok"
    want = a.astype(np.float32).sum(1) + b.astype(np.float32).sum(1)
    assert float(np.abs(out - want).max()) <= 0.1
    prog = mcast_program()
    a, b = inputs((256, 128), (128, 256))
    c = np.zeros((256, 256), BF16)
    assert prog.run([a, b, c], workdir=tmp_path / "gemm")["status"] == "ok"
    want = a.astype(np.float32) @ b.astype(np.float32)
    assert float(np.abs(c.astype(np.float32) - want).max()) <= 2.0**-5 * float(np.abs(want).max())


def test_noc_read_misaligned_against_its_dram_source(emulator: Any, tmp_path: Path) -> None:
    """Half a page read 16 B into the CB page with tt-metal's raw noc_async_read (the profile's header declares only
    the calls the specs emit, so the seed names the emulator's): Wormhole's DRAM read alignment is 32 B."""
    shift = sub(r"noc_async_read_page\((.*), accessor, l1_write_addr\);",
                r"tt_emu::kapi::noc_async_read(accessor.get_noc_addr(\1), l1_write_addr + 16, 1024);")
    message = seeded(emulator, tmp_path, program(SUB), "reader.cpp", shift, gemm_arrays())
    assert re.search(r"reader: noc_async_read\(.*\): NoC alignment: the L1 destination 0x[0-9a-f]+ and the DRAM "
                     r"source \(offset 0x0 in its page\) differ modulo 32 B", message), message


def test_multicast_misaligned_against_its_destination(emulator: Any, tmp_path: Path) -> None:
    """The sender multicasts from 8 B into its block to the block's start: L1 write alignment 16 B."""
    shift = sub(r"noc_async_write_multicast\(l1_write_addr, (.*), 4096, 3, 1\);",
                r"noc_async_write_multicast(l1_write_addr + 8, \1, 4088, 3, 1);")
    a, b = inputs((256, 128), (128, 256))
    message = seeded(emulator, tmp_path, mcast_program(), "reader.cpp", shift, [a, b, np.zeros((256, 256), BF16)])
    assert re.search(r"reader: noc_async_write_multicast\(.*\): NoC alignment: the L1 source 0x[0-9a-f]*8 and the "
                     r"remote L1 destination 0x[0-9a-f]*0 differ modulo 16 B", message), message


def test_pack_left_in_reduce_mode(emulator: Any, tmp_path: Path) -> None:
    """Without the second reduce_uninit the transpose's pack keeps the reduction's edge mask (column 0 only)."""
    message = seeded(emulator, tmp_path, program(ROW_SUM), "compute.cpp", sub(r"^ *reduce_uninit\(2\);\n", ""),
                     row_sum_arrays())
    assert re.search(r"compute: pack_tile\(0, 16\): pack_tile packs DST tile 0, which no reduce_tile wrote, while "
                     r"the packer is still in reduce mode: .*missing reduce_uninit", message), message


def test_a_semaphore_reset_before_its_wait(emulator: Any, tmp_path: Path) -> None:
    """The sender zeroes its semaphore before waiting for the receivers' increments: whether one is lost depends on
    the schedule; the vector clocks see that the set and the increments are unordered whichever comes first."""
    reset_first = sub(r"noc_semaphore_wait\(sender_sem_ptr, 3\);\n( *)noc_semaphore_set\(sender_sem_ptr, 0\);",
                      r"noc_semaphore_set(sender_sem_ptr, 0);\n\1noc_semaphore_wait(sender_sem_ptr, 3);")
    a, b = inputs((256, 128), (128, 256))
    message = seeded(emulator, tmp_path, mcast_program(), "reader.cpp", reset_first,
                     [a, b, np.zeros((256, 256), BF16)])
    assert re.search(r"noc_semaphore_(set|inc)\(.*\): noc_semaphore_(set|inc) of semaphore \d+ of core \(\d+,\d+\) "
                     r"races with (an earlier write \(an increment or set\)|its last set) by a kernel this one has not "
                     r"synchronised with",
                     message), message


def test_a_store_through_an_l1_offset_held_as_an_integer(emulator: Any, tmp_path: Path) -> None:
    """The L1 offset of get_write_ptr's address (its core's window is 2 MiB aligned), as a host would print it."""
    store = sub(r"^( *)(int32_t l1_write_addr = .*\n)",
                r"\1\2\1*reinterpret_cast<volatile uint32_t*>(l1_write_addr & 0x1fffff) = 0;\n")
    message = seeded(emulator, tmp_path, program(SUB), "reader.cpp", store, gemm_arrays())
    assert re.search(r"reader.*: a load or store through L1 address 0x[0-9a-f]+ \(in CB 0 \(reserved pages\)\) held "
                     r"as an integer, in or after get_write_ptr: it is an L1 offset", message), message
