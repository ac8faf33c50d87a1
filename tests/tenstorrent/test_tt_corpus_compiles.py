"""The kernel corpus (tests/tt_kernels.py CORPUS), compiled once (corpus_saved) for every test here: each
program compiles with -Wall -Werror against the emulator's headers, its three kernels (one compiler process each,
as tt-metal's JIT compiles them) and its host program main.cpp (all main.cpp in one compiler process:
host_programs_in_one_unit; under a profile whose host program is the spec's profile's, in the run under the spec's
profile only: host_program_checked_elsewhere), and its Metalium artifacts are byte-identical to the recorded ones
(tests/golden/tt_artifacts.sha256; `python tools/artifacts_digest.py --write ...` records an intended change).
`make check-metal` compiles the same corpus against tt-metal's own headers.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tt_kernels import CORPUS
from tt_profiles import DEFAULT, PROFILE

from projects import REPO
from tilelang.tenstorrent import intrinsics
from tilelang.tenstorrent.program_dirs import program_folders

sys.path.insert(0, str(REPO / "tools"))

import artifacts_digest  # noqa: E402

# One worker runs this file, so that the corpus is compiled once (by corpus_saved) and the host headers' PCH
# built once.
pytestmark = pytest.mark.xdist_group("corpus")
RECORDED = REPO / "tests" / "golden" / "tt_artifacts.sha256"


@pytest.fixture(scope="session")
def emulator() -> Any:
    from tilelang.tenstorrent import emulator as emu

    if shutil.which("g++") is None:
        pytest.fail("g++ is required: the README lists a C++ compiler as a requirement")
    emu.library()
    return emu


@pytest.fixture(scope="module")
def corpus_funcs() -> dict[str, Any]:
    """Every corpus program parsed once (name -> PrimFunc), for its default variant and the digests' others."""
    return {name: CORPUS[name]() for name in sorted(CORPUS)}


@pytest.fixture(scope="module")
def corpus_saved(corpus_funcs: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every corpus program compiled under the default pass options, its artifacts saved: name -> folder."""
    out = tmp_path_factory.mktemp("corpus")
    return {name: artifacts_digest.save(name, "default", out, func) for name, func in corpus_funcs.items()}


HOST_CHECK = ["g++", "-std=c++20", "-fsyntax-only", "-Wall", "-Werror", "-Winvalid-pch"]


@pytest.fixture(scope="module")
def host_headers(emulator: Any, corpus_saved: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The headers every main.cpp of this profile includes first, precompiled once (most of a main.cpp's syntax
    check is parsing them): flags that make g++ read them from the PCH (-Winvalid-pch with -Werror: a PCH g++
    cannot use fails the check instead of slowing it down)."""
    main = (corpus_saved[sorted(CORPUS)[0]] / "main.cpp").read_text()
    includes = [line for line in main.splitlines() if line.startswith("#include <")]
    folder = tmp_path_factory.mktemp("host_pch")
    header = folder / "host_headers.hpp"
    header.write_text("\n".join(includes) + "\n")
    include = [f"-I{d / PROFILE}" for d in emulator.INCLUDE_DIRS] + [f"-I{d}" for d in emulator.INCLUDE_DIRS]
    flags = [flag for flag in HOST_CHECK if flag != "-fsyntax-only"] + include
    done = subprocess.run([*flags, "-x", "c++-header", str(header), "-o", f"{header}.gch"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    return [*include, "-include", str(header)]


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_every_generated_kernel_compiles_with_wall_werror(emulator: Any, corpus_saved: dict[str, Path],
                                                          name: str) -> None:
    include = [f"-I{d / PROFILE}" for d in emulator.INCLUDE_DIRS] + [f"-I{d}" for d in emulator.INCLUDE_DIRS]
    for out in program_folders(corpus_saved[name]):  # a function of several T.Kernel launches: one per program
        plan = json.loads((out / "tt.plan.json").read_text())
        for role in ("reader", "compute", "writer"):
            ct = [2, plan["tensors"][0]["page_bytes"]] * len(plan["kernels"][role]["compile_time_args"])
            cmd = ["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", *include,
                   f"-DKERNEL_COMPILE_TIME_ARGS={','.join(map(str, ct))}", str(out / f"{role}.cpp")]
            result = subprocess.run(cmd, capture_output=True, text=True)
            assert result.returncode == 0, f"{out.name}/{role}.cpp:\n{result.stderr}"


_SYSTEM_INCLUDE = re.compile(r"\s*#\s*include\s*<[^>]+>\s*")
_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)", re.MULTILINE)


def host_programs_in_one_unit(mains: dict[str, str]) -> str:
    """One translation unit holding every main.cpp of `mains` (name -> text), so that one compiler process checks
    them all: the system headers they include come first (from the PCH), then each program in a namespace of its
    own under `#line 1 "<name>/main.cpp"` (a diagnostic names the program and its line), its system includes
    blanked (its line numbers kept), the macros it defines undefined after it. What this does not see, the
    emulator's own build of a main.cpp does (at global scope, its includes alone): the tests that run a program."""
    headers = dict.fromkeys(line.strip() for text in mains.values() for line in text.splitlines()
                            if _SYSTEM_INCLUDE.fullmatch(line))
    unit = [*headers]
    for index, (name, text) in enumerate(sorted(mains.items())):
        body = ["" if _SYSTEM_INCLUDE.fullmatch(line) else line for line in text.splitlines()]
        unit += [f"namespace host_program_{index} {{", f'#line 1 "{name}/main.cpp"', *body, "}"]
        unit += [f"#undef {macro}" for macro in dict.fromkeys(_DEFINE.findall(text))]
    return "\n".join(unit) + "\n"


def test_every_generated_host_program_compiles_with_wall_werror(emulator: Any, corpus_saved: dict[str, Path],
                                                                request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """Every corpus program's main.cpp with -Wall -Werror, all in one compiler process (host_programs_in_one_unit):
    loading the host headers' PCH is most of a main.cpp's check, paid once instead of once per program."""
    if host_program_checked_elsewhere(emulator):
        pytest.skip(f"main.cpp under {PROFILE} is {DEFAULT}'s, checked in the run under {DEFAULT}")
    mains = {(name if program == folder else f"{name}/{program.name}"): (program / "main.cpp").read_text()
             for name, folder in corpus_saved.items() for program in program_folders(folder)}
    unit = tmp_path / "host_programs.cpp"
    unit.write_text(host_programs_in_one_unit(mains))
    host_headers = request.getfixturevalue("host_headers")
    result = subprocess.run([*HOST_CHECK, *host_headers, str(unit)], capture_output=True, text=True)
    assert result.returncode == 0, f"main.cpp of the corpus programs named below:\n{result.stderr}"


def test_one_unit_of_host_programs_names_the_program_of_a_diagnostic(emulator: Any, corpus_saved: dict[str, Path],
                                                                    request: pytest.FixtureRequest,
                                                                    tmp_path: Path) -> None:
    """A warning in one program of the unit fails the check naming that program and its line."""
    if host_program_checked_elsewhere(emulator):
        pytest.skip(f"main.cpp under {PROFILE} is {DEFAULT}'s, checked in the run under {DEFAULT}")
    main = (corpus_saved[sorted(CORPUS)[0]] / "main.cpp").read_text()
    start = next(line for line in main.splitlines() if line.startswith("int main("))
    bad = main.replace(start, f"{start}\n    int unused_local = 0;", 1)
    unit = tmp_path / "host_programs.cpp"
    unit.write_text(host_programs_in_one_unit({"good": main, "bad": bad}))
    host_headers = request.getfixturevalue("host_headers")
    result = subprocess.run([*HOST_CHECK, *host_headers, str(unit)], capture_output=True, text=True)
    assert result.returncode != 0
    line = bad.splitlines().index("    int unused_local = 0;") + 1
    assert f"bad/main.cpp:{line}:" in result.stderr and "good/main.cpp" not in result.stderr, result.stderr


def host_program_checked_elsewhere(emulator: Any) -> bool:
    """Under a profile other than the spec's with the spec's host API and no host headers of its own, main.cpp is
    the spec's profile's main.cpp (`make check-metal` fails when a corpus program's main.cpp differs between two
    profiles with the same host API: tools/check_metal/host.py same_host_program) checked against the same
    headers, which the run under the spec's profile does (most of this test's cost is main.cpp's syntax check)."""
    own_headers = any((d / PROFILE / "tt-metalium").exists() for d in emulator.INCLUDE_DIRS)
    return PROFILE != DEFAULT and intrinsics.PROFILES[PROFILE].host_api == intrinsics.PROFILES[DEFAULT].host_api \
        and not own_headers


@pytest.mark.skipif(PROFILE != DEFAULT, reason=f"the digests are of the spec's API profile ({DEFAULT}); this run "
                                               f"emits {PROFILE}")
def test_every_artifact_of_the_corpus_is_as_recorded(corpus_funcs: dict[str, Any], corpus_saved: dict[str, Path],
                                                     tmp_path: Path) -> None:
    found = artifacts_digest.digests(tmp_path, {f"{name}.default": folder for name, folder in corpus_saved.items()},
                                     corpus_funcs)
    recorded = artifacts_digest.read(RECORDED)
    assert sorted(found) == sorted(recorded)
    assert [name for name in found if found[name] != recorded[name]] == []
