"""tools/metal_programs.py on programs of the project's own, laid out as tt-metal's programming examples are
(tests/metal_programs/): each is built unmodified with its own CMakeLists.txt against the emulator's CMake package
and run from the examples' folder; the table says which passed, which failed where and why, and which were skipped
for what the emulator does not model (SFPI)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from projects import REPO, TESTS

# Builds with CMake (each test module's fixture once, on one worker: --dist loadgroup keeps the group together).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("metal_programs")]
EXAMPLES = TESTS / "metal_programs"


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("builds")


@pytest.fixture(scope="module")
def run(builds: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, str(REPO / "tools" / "metal_programs.py"), str(EXAMPLES), "--jobs", "2",
                           "--build-dir", str(builds)], capture_output=True, text=True, env=env, timeout=900)


def _row(output: str, name: str) -> str:
    return next(line for line in output.splitlines() if line.startswith(name + " "))


def test_a_program_with_tt_metal_host_headers_passes(run: subprocess.CompletedProcess[str]) -> None:
    """copy_tiles uses the mesh API, TensorAccessorArgs, bfloat16, tt::constants, TT_FATAL, log_info and fmt."""
    assert " PASS " in _row(run.stdout, "copy_tiles"), run.stdout + run.stderr


@pytest.mark.parametrize(("cores", "lines"), [("0,0", 8), ("(0,0)", 8), ("all", 8), ("1,1", 0), ("", 0)])
def test_dprint_lines_appear_for_the_cores_tt_metal_dprint_cores_names(
        run: subprocess.CompletedProcess[str], builds: Path, cores: str, lines: int) -> None:
    """The reader prints one DPRINT_DATA1 line per tile (NC: it runs on RISCV_1); its DPRINT_MATH line is compiled
    for TRISC1 only, so a data-movement kernel never prints it. The writer (BR) prints its core, from
    get_absolute_logical_x / get_relative_logical_y, and its CB's page size, from get_tile_size."""
    assert " PASS " in _row(run.stdout, "copy_tiles"), run.stdout
    env = {k: v for k, v in os.environ.items() if not k.startswith("TT_")}
    env["TT_METAL_DPRINT_CORES"] = cores
    done = subprocess.run([str(builds / "copy_tiles" / "metal_example_copy_tiles")], capture_output=True, text=True,
                          cwd=EXAMPLES, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    printed = [line for line in done.stdout.splitlines() if line.startswith("0:(x=0,y=0):")]
    reader = [line for line in printed if ":NC: " in line]  # in order: one kernel's lines
    assert reader == [f"0:(x=0,y=0):NC: read tile {i} of 8" for i in range(lines)]
    writer = [line for line in printed if ":BR: " in line]
    assert writer == (["0:(x=0,y=0):BR: writer on core 0,0, pages of 2048 B"] if lines else [])
    assert len(printed) == len(reader) + len(writer)


def test_an_l1_buffer_is_kernel_scratch(run: subprocess.CompletedProcess[str]) -> None:
    """l1_scratch copies DRAM -> L1 buffer -> DRAM as tt-metal's loopback does (no CB: the L1 buffer's range is a
    valid NoC destination and source on every core)."""
    assert " PASS " in _row(run.stdout, "l1_scratch"), run.stdout


def test_a_kernel_that_does_not_compile_fails_the_run_with_the_reason(run: subprocess.CompletedProcess[str]) -> None:
    row = _row(run.stdout, "broken_kernel")
    assert "FAIL (run)" in row and "exit code 2" in row and "kernel compilation failed" in row, row


def test_sfpi_kernels_are_skipped_with_the_reason(run: subprocess.CompletedProcess[str]) -> None:
    row = _row(run.stdout, "sfpi_kernel")
    assert " SKIP " in row and "SFPI" in row, row


def test_the_summary_counts_and_the_exit_status(run: subprocess.CompletedProcess[str]) -> None:
    assert "2 passed, 1 failed, 1 skipped, of 4 examples" in run.stdout
    assert run.returncode == 1  # an example failed


def test_a_folder_without_examples_is_a_usage_error(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, str(REPO / "tools" / "metal_programs.py"), str(tmp_path)],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "no CMakeLists.txt there links TT::Metalium" in done.stderr


@pytest.mark.parametrize(("source", "sfpi"), [
    ('#include "sfpi.h"\n', True),
    ("sfpi::vFloat x = sfpi::dst_reg[0];\n", True),
    ("v_if (x < 0.0f) { x = -x; } v_endif;\n", True),
    ("constexpr uint32_t dst_reg = 0;\nadd_tiles(cb_in0, cb_in1, 0, 0, dst_reg);\n", False),  # eltwise_binary's name
])
def test_sfpi_is_recognised_by_its_constructs_not_by_a_variable_name(tmp_path: Path, source: str, sfpi: bool) -> None:
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import metal_programs
    finally:
        sys.path.remove(str(REPO / "tools"))
    (tmp_path / "ex" / "kernels").mkdir(parents=True)
    (tmp_path / "ex" / "kernels" / "k.cpp").write_text(source)
    assert ("SFPI" in metal_programs.skip_reason(tmp_path / "ex", tmp_path)) == sfpi
