"""Helpers that build throw-away copies of this project for generator tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent  # the checkout; tests name paths from here, not from their own file
TESTS = REPO / "tests"  # the tests' shared data (fixtures/, golden/, emulator_cases/, ...) and helper modules
PROJECT_PARTS = ("specs", "schema", "templates", "src")


def copy_project(destination: Path) -> Path:
    """Copy specs/, schema/, templates/ and the hooks' C++ declarations (the generator's inputs) to `destination`."""
    for part in PROJECT_PARTS:
        shutil.copytree(REPO / part, destination / part, ignore=shutil.ignore_patterns("__pycache__"))
    return destination


def make_checkout(root: Path) -> Path:
    """Turn a copy of the generator's inputs into a checkout the package runs from: the hand-written Python and
    the C++ build's CMake files (its libraries are built by `build_checkout`)."""
    for part in ("python", "cmake"):
        shutil.copytree(REPO / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "CMakeLists.txt"):
        shutil.copy2(REPO / name, root / name)
    return root


def copy_env(root: Path) -> dict[str, str]:
    """The environment that imports a checkout copy's `tilelang` and builds its C++ libraries as Quick: the sources
    rendered from the specs at -O0 (about a third of the build time; a copy only runs small kernels), the
    hand-written ones as this checkout's Release build (`make test` builds it first), so that every unit the copy's
    spec edits leave unchanged is a hit in the compiler cache. Copies anywhere on disk share those entries: the
    generated headers the engines include name their specs' folders, not each spec, and the compile commands name
    no path outside the tree (CMakeLists.txt)."""
    env = {**os.environ, "PYTHONPATH": str(root / "python"), "TILELANG_CPP_BUILD_TYPE": "Quick"}
    # A test run in a copy logs no CPU seconds of its own: they are in the CPU seconds of the test that ran it
    # (tests/conftest.py), and `tools/test_cpu.py` would count them twice.
    env.pop("TILELANG_TEST_CPU_LOG", None)
    return env


def build_checkout(root: Path, *targets: str) -> dict[str, str]:
    """Build the C++ libraries of a checkout copy (its specs differ from this checkout's, so do its rendered
    sources); returns the environment that imports the copy's `tilelang`."""
    env = copy_env(root)
    done = subprocess.run([sys.executable, "-m", "tilelang.cpp", *targets], cwd=root, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    return env


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (relative POSIX path -> bytes), hidden files included."""
    if not folder.exists():
        return {}
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
