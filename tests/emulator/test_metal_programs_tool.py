"""tools/metal_programs.py's decisions that need no build: which kernel API profile an example runs under (the next
one when its kernels call what the default release removed), which printed lines are its check failing, and how an
example whose CMakeLists.txt is a subdirectory of tt-metal's build is configured. The executables are shell
scripts that answer as the emulator does."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
try:
    import metal_programs
finally:
    sys.path.remove(str(REPO / "tools"))

PROFILES = ["ttnn_0_81", "metal_d5f9bc4a", "tilelang_tt_2025"]
# What the emulator's JIT prints when a kernel calls what the profile's headers do not declare.
COMPILE_ERROR = ("tt_emu: error: kernel compilation failed: k/add.cpp\n"
                 "add.cpp:19:5: error: 'binary_op_init_common' was not declared in this scope")


def _exe(tmp_path: Path, script: str) -> Path:
    exe = tmp_path / "example"
    exe.write_text("#!/bin/sh\n" + script)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return exe


def _run(tmp_path: Path, script: str) -> tuple[bool, metal_programs.Result]:
    result = metal_programs.Result("ex")
    ok = metal_programs._run_executable(_exe(tmp_path, script), tmp_path, dict(os.environ), 30.0, PROFILES, result)
    return ok, result


def test_an_example_for_an_older_api_runs_under_the_next_profile_and_says_so(tmp_path: Path) -> None:
    ok, result = _run(tmp_path, f"""
if [ "$TT_EMU_PROFILE" = ttnn_0_81 ]; then printf '%s\\n' "{COMPILE_ERROR}"; exit 2; fi
echo "profile $TT_EMU_PROFILE"; echo "Test Passed"
""")
    assert ok and result.profile == "metal_d5f9bc4a"
    assert result.reason.startswith("under metal_d5f9bc4a (after ttnn_0_81: tt_emu: error: kernel compilation failed")
    assert "binary_op_init_common" in result.reason


def test_a_failure_other_than_compilation_is_not_retried(tmp_path: Path) -> None:
    ok, result = _run(tmp_path, 'echo "tt_emu: error: core (0,0) k: pack_tile(0, 16): ..."; exit 3\n')
    assert not ok and result.profile == "ttnn_0_81" and result.stage == "run" and "exit code 3" in result.reason


def test_a_kernel_no_profile_compiles_fails_with_every_profiles_error(tmp_path: Path) -> None:
    ok, result = _run(tmp_path, f'printf "%s\\n" "{COMPILE_ERROR}"; exit 2\n')
    assert not ok and result.profile == "tilelang_tt_2025" and "exit code 2" in result.reason
    assert "(after ttnn_0_81: " in result.reason and "; metal_d5f9bc4a: " in result.reason


def test_a_kernel_of_an_era_no_profile_follows_is_named(tmp_path: Path) -> None:
    """The stream DPRINT (removed in ttnn 0.77.0) with api/ include paths (absent from 0.65.0): reduce_max's and the
    older hello_world kernels; a commented-out stream print, or one with the older include paths, is no such era."""
    kernel = tmp_path / "kernels" / "k.cpp"
    kernel.parent.mkdir()
    kernel.write_text('#include "api/dataflow/dataflow_api.h"\nvoid kernel_main() {\n  DPRINT << 1 << ENDL();\n}\n')
    assert metal_programs.era_reason(tmp_path).startswith("no API profile follows its kernels' tt-metal")
    kernel.write_text('#include "api/dataflow/dataflow_api.h"\nvoid kernel_main() {\n  // DPRINT << 1;\n}\n')
    assert metal_programs.era_reason(tmp_path) == ""
    kernel.write_text('#include "dataflow_api.h"\nvoid kernel_main() {\n  DPRINT << 1 << ENDL();\n}\n')
    assert metal_programs.era_reason(tmp_path) == ""


@pytest.mark.parametrize(("printed", "passes"), [
    ("Number of mismatches: 0 / 640", True),  # tt-metal's reduce_max prints its count either way
    ("0 mismatches", True),
    ("Mismatch at row   3: golden=-1.0  result=0.0", False),
    ("Number of mismatches: 12 / 640", False),
    ("Test Failed", False),
    ("Success: Result matches expected value!", True),
])
def test_a_printed_count_of_no_mismatches_is_no_failure(tmp_path: Path, printed: str, passes: bool) -> None:
    ok, result = _run(tmp_path, f'echo "{printed}"\n')
    assert ok == passes, result.reason
    assert passes or result.stage == "check"


def test_an_example_without_project_is_configured_as_tt_metals_tree_adds_it(tmp_path: Path) -> None:
    """tt-metal's reduce_max/ and softmax/ examples: add_executable and TT::Metalium, no project() (tt-metal's
    programming_examples/CMakeLists.txt adds them with add_subdirectory)."""
    sub = tmp_path / "reduce_max" / "single"
    sub.mkdir(parents=True)
    (sub / "CMakeLists.txt").write_text("add_executable(x)\ntarget_link_libraries(x PRIVATE TT::Metalium)\n")
    top = metal_programs._project_source(sub, tmp_path / "builds" / "reduce_max__single")
    text = (top / "CMakeLists.txt").read_text()
    assert top != sub and "cmake_minimum_required(" in text and "project(reduce_max__single CXX)" in text
    assert f'add_subdirectory("{sub.as_posix()}" example)' in text
    (sub / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.22)\nproject(x)\n" +
                                        (sub / "CMakeLists.txt").read_text())
    assert metal_programs._project_source(sub, tmp_path / "builds" / "other") == sub


def test_the_shared_library_its_parent_adds_first_is_added_before_the_example(tmp_path: Path) -> None:
    """tt-metal's matmul/ examples link Matmul::Common, which matmul/CMakeLists.txt defines by adding matmul_common
    before them: the top-level project adds that library folder first, and neither an example after it nor a
    folder that builds an executable."""
    matmul = tmp_path / "matmul"
    for name, text in [("matmul_common", "add_library(matmul_common INTERFACE)\n"),
                       ("single", "add_executable(a)\ntarget_link_libraries(a PRIVATE TT::Metalium Matmul::Common)\n"),
                       ("multi", "add_executable(b)\ntarget_link_libraries(b PRIVATE TT::Metalium Matmul::Common)\n")]:
        (matmul / name).mkdir(parents=True)
        (matmul / name / "CMakeLists.txt").write_text(text)
    (matmul / "CMakeLists.txt").write_text("project(m)\nadd_subdirectory(matmul_common)\nadd_subdirectory(single)\n"
                                           "add_subdirectory(multi)\n")
    assert metal_programs.shared_siblings(matmul / "multi") == [(matmul / "matmul_common").resolve()]
    top = metal_programs._project_source(matmul / "multi", tmp_path / "builds" / "multi")
    text = (top / "CMakeLists.txt").read_text()
    shared = f'add_subdirectory("{(matmul / "matmul_common").resolve().as_posix()}" shared_0)'
    assert shared in text and text.index(shared) < text.index(" example)") and "single" not in text
    assert metal_programs.shared_siblings(tmp_path / "nowhere" / "x") == []
