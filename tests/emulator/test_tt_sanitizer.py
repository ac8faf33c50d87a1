"""Faults the emulator's sanitizer must catch (issue 19): each is seeded into the generated sources of a real compiled
kernel (as a wrong emitter, a wrong plan or a hand edit would leave them) and, where it used to give wrong numbers
with status ok, must now fail the run with a diagnosis naming the call, the CB, the tensor or the argument.

1. matmul_tiles operands that differ from the CBs given to matmul_init (swapped);
2. an element-wise operation (sub_tiles) whose operands differ from its init's;
3. packing a DST tile that no math call wrote since tile_regs_acquire;
4. the reader pushing CB pages that no NoC read wrote (reported where the compute kernel reads them: pushing a page
   unwritten is legal, as ttnn's layernorm pushes a block's unused tail; issue 33);
5. the compute kernel pushing CB pages that no pack_tile wrote (the all-zero output of issue 19; reported at the
   writer's NoC write of them);
6. a reader whose accessor for A was built with B's address (reads another tensor's pages);
7. per-core runtime arguments swapped between two cores, and 7b. the tensor addresses of one core swapped;
8. a kernel spinning without API calls, stopped at the user's limit and named with its core, role and last call.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from tt_kernels import elementwise_binary, matmul

import tilelang
from tilelang.tenstorrent import host_args

BF16 = ml_dtypes.bfloat16
NO_MCAST = {"tl.PlanTTMulticast.enabled": False}  # plain reads: every reader reads its own blocks from DRAM


@pytest.fixture(scope="module")
def emulator() -> Any:
    from tilelang.tenstorrent import emulator as emu

    if shutil.which("g++") is None:
        pytest.fail("g++ is required: the README lists a C++ compiler as a requirement")
    emu.library()
    return emu


def program(func: Any) -> Any:
    """A private copy of the kernel's artifacts (compiled kernels are cached and shared)."""
    rt_mod = tilelang.compile(func, target="tenstorrent", pass_configs=NO_MCAST).artifact.rt_mod
    return dataclasses.replace(rt_mod, files=dict(rt_mod.files))


def inputs(*shapes: tuple[int, int]) -> list[np.ndarray]:
    rng = np.random.default_rng(19)
    return [rng.uniform(-1, 1, shape).astype(BF16) for shape in shapes]


def seeded(emulator: Any, tmp_path: Path, prog: Any, file: str, edit: Callable[[str], str],
           arrays: list[np.ndarray], timeout: float | None = None) -> str:
    """Run `prog` with `file` edited; the emulator's error (the edit must change the file)."""
    before = prog.files[file]
    prog.files[file] = edit(before)
    assert prog.files[file] != before, f"the seed did not change {file}"
    with pytest.raises(emulator.TTEmulatorError) as caught:
        prog.run(arrays, workdir=tmp_path, timeout=timeout)
    return str(caught.value)


def sub(pattern: str, replacement: str, count: int = 1) -> Callable[[str], str]:
    return lambda text: re.sub(pattern, replacement, text, count=count, flags=re.M)


GEMM = matmul(64, 64, 64, 32, 32, 32, dtype="bfloat16")
GEMM_BF16_ACC = matmul(64, 64, 64, 64, 64, 32, dtype="bfloat16", accum_dtype="bfloat16")  # DST sections of 8 tiles
SUB = elementwise_binary(64, 64, 32, 32, "sub")


def gemm_arrays() -> list[np.ndarray]:
    return inputs((64, 64), (64, 64)) + [np.zeros((64, 64), BF16)]


def test_unseeded_kernels_pass_the_sanitizer(emulator: Any, tmp_path: Path) -> None:
    """The seeds below are the only difference: the kernels as generated run clean and right."""
    for func, ref in ((GEMM, lambda a, b: a @ b), (GEMM_BF16_ACC, lambda a, b: a @ b), (SUB, lambda a, b: a - b)):
        prog = program(func)
        a, b, c = gemm_arrays()
        assert prog.run([a, b, c], workdir=tmp_path / prog.plan["kernel"])["status"] == "ok"
        want = ref(a.astype(np.float32), b.astype(np.float32))
        assert float(np.abs(c.astype(np.float32) - want).max()) <= 2.0**-5 * float(np.abs(want).max())


def test_matmul_operands_swapped(emulator: Any, tmp_path: Path) -> None:
    swap = sub(r"matmul_tiles\(0, 1,", "matmul_tiles(1, 0,")
    message = seeded(emulator, tmp_path, program(GEMM), "compute.cpp", swap, gemm_arrays())
    assert re.search(r"compute: matmul_tiles\(1, 0, .*\): matmul_tiles reads CBs 1 and 0, but its last init "
                     r"configured the unpacker for CBs 0 and 1", message), message


def test_eltwise_operands_differ_from_the_init(emulator: Any, tmp_path: Path) -> None:
    message = seeded(emulator, tmp_path, program(SUB), "compute.cpp", sub(r"sub_tiles\(0, 1,", "sub_tiles(1, 0,"),
                     gemm_arrays())
    assert re.search(r"sub_tiles reads CBs 1 and 0, but its last init configured the unpacker for CBs 0 and 1",
                     message), message


def test_packing_a_dst_tile_no_math_wrote(emulator: Any, tmp_path: Path) -> None:
    message = seeded(emulator, tmp_path, program(GEMM_BF16_ACC), "compute.cpp",
                     sub(r"pack_tile\(t, 16\)", "pack_tile(t + 4, 16)"), gemm_arrays())
    assert re.search(r"pack_tile\(4, 16\): pack_tile packs DST tile 4, which no math call wrote since "
                     r"tile_regs_acquire", message), message


def test_reader_pushing_pages_no_read_wrote(emulator: Any, tmp_path: Path) -> None:
    """The reader reserves B's page and pushes it without reading it."""
    skip_read = sub(r"^( *)noc_async_read_(page|tile)\(.*accessor_1.*\n",
                    r"\1(void)accessor_1, (void)l1_write_addr_1;\n")
    message = seeded(emulator, tmp_path, program(SUB), "reader.cpp", skip_read, gemm_arrays())
    assert re.search(r"compute: sub_tiles\(0, 1, 0, 0, 0\): sub_tiles reads page 0 of CB 1, which its producer "
                     r"pushed without writing it since cb_reserve_back: no NoC read or multicast landed in it",
                     message), message


def test_compute_pushing_pages_no_pack_wrote(emulator: Any, tmp_path: Path) -> None:
    """Before issue 19 this gave an all-zero output with status ok."""
    message = seeded(emulator, tmp_path, program(SUB), "compute.cpp", sub(r"^ *pack_tile\(0, 16\);\n", ""),
                     gemm_arrays())
    assert re.search(r"writer: .*the NoC write's source 0x[0-9a-f]+\.\.0x[0-9a-f]+ is waited page 0 of CB 16, "
                     r"which its producer pushed without writing it since cb_reserve_back: .* no pack_tile wrote it",
                     message), message


def test_reader_accessor_built_with_another_tensors_address(emulator: Any, tmp_path: Path) -> None:
    swap = sub(r"TensorAccessor\(accessor_args, A_addr([\s\S]*?)TensorAccessor\(accessor_args_1, B_addr",
               r"TensorAccessor(accessor_args, B_addr\1TensorAccessor(accessor_args_1, A_addr")
    message = seeded(emulator, tmp_path, program(GEMM), "reader.cpp", swap, gemm_arrays())
    assert re.search(r"reader: noc_async_read_page\(.*\): the accessor of TensorAccessorArgs<0> is tensor A's in "
                     r".*tt\.plan\.json, but this transfer reaches page \d+ of DRAM buffer 0x[0-9a-f]+ \(tensor B, ",
                     message), message


def test_runtime_args_swapped_between_cores(emulator: Any, tmp_path: Path) -> None:
    edit = lambda text: text.replace("reader.runtime_args 0 0 ", "SWAP").replace(  # noqa: E731 (tt.host_args lines:
        "reader.runtime_args 1 0 ", "reader.runtime_args 0 0 ").replace("SWAP", "reader.runtime_args 1 0 ")  # x, y)
    message = seeded(emulator, tmp_path, program(GEMM), host_args.FILE, edit, gemm_arrays())
    assert re.search(r"host: EnqueueMeshWorkload: runtime argument \d+ \(col0\) of reader on core \(0,0\) is 1, but "
                     r".*tt\.plan\.json says 0 \(the core's arguments do not follow the plan", message), message


def test_tensor_addresses_swapped_in_one_cores_arguments(emulator: Any, tmp_path: Path) -> None:
    tensor = host_args.ARG_KINDS["tensor"]  # core (1, 1)'s first two arguments, tensors 0 (A) and 1 (B), swapped
    edit = sub(rf"^(reader\.runtime_args 1 1 \d+ ){tensor} 0 0 {tensor} 1 0 ", rf"\g<1>{tensor} 1 0 {tensor} 0 0 ")
    message = seeded(emulator, tmp_path, program(GEMM), host_args.FILE, edit, gemm_arrays())
    assert re.search(r"runtime argument 0 \(A_addr\) of reader on core \(1,1\) is \d+, but .*tt\.plan\.json says \d+",
                     message), message


def test_a_spinning_kernel_is_named_at_the_users_limit(emulator: Any, tmp_path: Path) -> None:
    spin = sub(r"^( *)(cb_wait_front\(16, \d+\);)\n",
               r"\1\2\n\1for (volatile uint32_t spin = 0;; spin = spin + 1) {}\n")
    message = seeded(emulator, tmp_path, program(GEMM), "writer.cpp", spin, gemm_arrays(), timeout=3)
    assert re.search(r"tt_emu: error: core \(\d,\d\) writer \[riscv_\d\] spins without calling the API: still running "
                     r"after 3 s, its last API call was cb_wait_front\(16, \d+\); set TT_EMU_TIMEOUT", message), message
