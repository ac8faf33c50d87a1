"""tt-metal's Metal 2.0 host API (ttnn 0.81.1's program factories build ProgramSpecs) on kernels of the project's own
(tests/emulator_cases/metal2/): MakeProgramFromSpec makes a CB per DFB and the kernels of each work unit, the JIT
writes each kernel's `dfb::`/`tensor::` bindings, `args::` (named CTAs, RTAs and CRTAs) and CB descriptors, and
SetProgramRunArgs orders the named values by the schema and passes each bound tensor's address. What the kernels use
with them: `get_arg`, DFBBindingToken as a CB index and a template argument, `TensorAccessor(tensor::name)`,
CoreLocalMem and CircularBuffer as Noc ends, ASSERT, a SemaphoreSpec's `sem::` token (`Semaphore s(sem::name)`, its
initial value). A bad spec or run is a host error naming it; what is not emulated
does not compile, naming itself."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tilelang.tenstorrent import emulator

CASES = Path(__file__).resolve().parents[1] / "emulator_cases" / "metal2"


@pytest.fixture(scope="module")
def host() -> Path:
    return emulator.build_host(CASES / "host.cpp")


def run(host: Path, tmp_path: Path, fault: str = "") -> tuple[np.ndarray, np.ndarray]:
    a = np.random.default_rng(7).integers(0, 1 << 16, 4 * 1024, dtype=np.uint16)
    a[(a & 0x7F80) == 0x7F80] = 0  # no NaN or infinity: the copy goes through DST
    a.tofile(tmp_path / "a.bin")
    emulator.run(host, [str(CASES), str(tmp_path), *([fault] if fault else [])])
    return a, np.fromfile(tmp_path / "c.bin", dtype=np.uint16)


def test_a_program_from_a_spec_copies_with_named_arguments_and_bindings(host: Path, tmp_path: Path) -> None:
    """4 tiles over 2 cores, each read in two halves (the CRTA `halves`) into a CoreLocalMem, copied through DST,
    written one page on (the writer's CRTA `page_offset`): page 0 stays zero, pages 1-4 are the input."""
    a, c = run(host, tmp_path)
    assert not c[:1024].any()
    np.testing.assert_array_equal(c[1024:], a)


def test_aliased_dfbs_share_l1(host: Path, tmp_path: Path) -> None:
    """alias_with (tt-metal's DataflowBufferSpec: logically distinct DFBs on one block of L1, as ttnn's matmul factories
    alias `out` and `intermed0` of one format, the latter bound to the compute kernel only): `scratch` gets `out`'s L1
    start and size, the compute kernel asserts it, and the copy through `out` is unchanged."""
    a, c = run(host, tmp_path, "ALIASED")
    np.testing.assert_array_equal(c[1024:], a)


@pytest.mark.parametrize(("fault", "message"), [
    ("ASSERT", "ASSERT(tiles > 2) failed at"),
    ("UNKNOWN_DFB", "ProgramSpec 'metal2_copy': kernel 'reader' binds DFB 'nope', which the spec does not declare"),
    ("BAD_NAME", "kernel 'reader': DFB accessor name 'in-0' is not a C++ identifier"),
    ("TWO_PRODUCERS", "DFB 'out' has more than one consumer on core (0,0) (kernel 'writer')"),
    ("MISSING_ARG", "kernel 'reader' on core (0,0): no value for 'first'"),
    ("UNKNOWN_ARG", "kernel 'compute' on core (0,0): 'bogus' is not in the kernel's runtime argument schema"),
    ("NO_TENSOR", "kernel 'writer' binds tensor 'output', but the run arguments give no tensor for it"),
    ("NOT_EMULATED", "add_int_tile (api/compute/add_int_sfpu.h) is not emulated"),
    ("UNKNOWN_SEM", "kernel 'reader' binds semaphore 'nope', which the spec does not declare"),
    ("SEM_TWICE", "kernel 'reader' binds semaphore 'reads' more than once (accessor names 'reads' and 'reads_again')"),
    ("COMPUTE_SEM", "kernel 'compute' is a compute kernel with semaphore bindings ('reads')"),
    ("ALIAS_UNKNOWN", "DFB 'out' aliases 'nope', which the spec does not declare"),
    ("ALIAS_ONE_WAY", "DFB 'scratch' is aliased with 'out' but does not name it in alias_with"),
    ("ALIAS_SIZE", "aliased DFBs 'out' and 'scratch' differ in total size (4096 and 2048 bytes)"),
    ("ALIAS_CORES", "aliased DFBs 'out' and 'scratch' are on different cores"),
])
def test_what_is_wrong_is_named(host: Path, tmp_path: Path, fault: str, message: str) -> None:
    with pytest.raises(emulator.TTEmulatorError, match=re.escape(message)):
        run(host, tmp_path, fault)
