"""Faults of broadcast arithmetic the emulator's sanitizer must catch (issue 16), each seeded into the generated
compute kernel of a real compiled kernel: a *_tiles_bcast_cols call after another operation's init, its operands in
another order than its init's, and a vector of the other kind (a 1-D tensor's row vector given to a column broadcast,
a reduction's column vector given to a row broadcast), which hardware would silently broadcast as one value and
zeros."""

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
from tt_norm_kernels import row_broadcast, row_tensor

import tilelang

BF16 = ml_dtypes.bfloat16


@pytest.fixture(scope="module")
def emulator() -> Any:
    from tilelang.tenstorrent import emulator as emu

    if shutil.which("g++") is None:
        pytest.fail("g++ is required: the README lists a C++ compiler as a requirement")
    emu.library()
    return emu


def program(func: Any) -> Any:
    """A private copy of the kernel's artifacts (compiled kernels are cached and shared)."""
    rt_mod = tilelang.compile(func, target="tenstorrent").artifact.rt_mod
    return dataclasses.replace(rt_mod, files=dict(rt_mod.files))


def cols_arrays() -> list[np.ndarray]:
    a = np.random.default_rng(16).uniform(0.5, 2.0, (64, 64)).astype(BF16)
    return [a, np.zeros((64, 64), np.float32)]


# The seeds edit call names without their `(`: the 2025 API spells the inits *_init_short.


def rows_arrays() -> list[np.ndarray]:
    rng = np.random.default_rng(17)
    return [rng.uniform(0.5, 2.0, (64, 96)).astype(np.float32), rng.uniform(0.5, 2.0, 96).astype(np.float32),
            np.zeros((64, 96), np.float32)]


def seeded(emulator: Any, tmp_path: Path, prog: Any, edit: Callable[[str], str], arrays: list[np.ndarray]) -> str:
    """Run `prog` with its compute kernel edited; the emulator's error (the edit must change the kernel)."""
    before = prog.files["compute.cpp"]
    prog.files["compute.cpp"] = edit(before)
    assert prog.files["compute.cpp"] != before, "the seed did not change compute.cpp"
    with pytest.raises(emulator.TTEmulatorError) as caught:
        prog.run(arrays, workdir=tmp_path)
    return str(caught.value)


def sub(*pairs: tuple[str, str]) -> Callable[[str], str]:
    def edit(text: str) -> str:
        for pattern, replacement in pairs:
            text = re.sub(pattern, replacement, text, flags=re.M)
        return text
    return edit


def test_unseeded_broadcasts_pass_the_sanitizer(emulator: Any, tmp_path: Path) -> None:
    for func, arrays in ((row_broadcast(64, 64, 32, "sub"), cols_arrays()), (row_tensor(64, 96, 32, "mul"),
                                                                             rows_arrays())):
        prog = program(func)
        assert prog.run(arrays, workdir=tmp_path / prog.plan["kernel"])["status"] == "ok"


def test_broadcast_after_another_operations_init(emulator: Any, tmp_path: Path) -> None:
    message = seeded(emulator, tmp_path, program(row_broadcast(64, 64, 32, "sub")),
                     sub((r"sub_bcast_cols_init", "mul_bcast_cols_init")), cols_arrays())
    assert re.search(r"missing math init: sub_tiles_bcast_cols needs sub_bcast_cols_init \(or "
                     r"sub_bcast_cols_init_short\) since the last init of another operation \(last FPU init: "
                     r"mul_bcast_cols_init", message), message


def test_broadcast_operands_differ_from_the_init(emulator: Any, tmp_path: Path) -> None:
    message = seeded(emulator, tmp_path, program(row_broadcast(64, 64, 32, "sub")),
                     sub((r"sub_tiles_bcast_cols\((\d+), (\d+),", r"sub_tiles_bcast_cols(\2, \1,")), cols_arrays())
    assert re.search(r"sub_tiles_bcast_cols reads CBs (\d+) and (\d+), but its last init configured the unpacker for "
                     r"CBs \2 and \1", message), message


def test_row_vector_given_to_a_column_broadcast(emulator: Any, tmp_path: Path) -> None:
    edit = sub((r"mul_bcast_rows_init", "mul_bcast_cols_init"), (r"mul_tiles_bcast_rows\(", "mul_tiles_bcast_cols("))
    message = seeded(emulator, tmp_path, program(row_tensor(64, 96, 32, "mul")), edit, rows_arrays())
    assert re.search(r"mul_tiles_bcast_cols broadcasts column 0 of tile 0 of CB \d+, but the tile is a row vector",
                     message), message


def test_column_vector_given_to_a_row_broadcast(emulator: Any, tmp_path: Path) -> None:
    edit = sub((r"mul_bcast_cols_init", "mul_bcast_rows_init"), (r"mul_tiles_bcast_cols\(", "mul_tiles_bcast_rows("))
    message = seeded(emulator, tmp_path, program(row_broadcast(64, 64, 32, "mul")), edit, cols_arrays())
    assert re.search(r"mul_tiles_bcast_rows broadcasts row 0 of tile 0 of CB \d+, but the tile is a column vector",
                     message), message
