"""The incremental CMake build of a checkout's C++ libraries (`python -m tilelang.cpp`; a dev command).

`make install` configures and first builds the build directory (pip's editable install through scikit-build-core,
`build-dir` of pyproject.toml); this runs `cmake --build` on it, configuring it first when it is missing or was
configured with tools that no longer exist (e.g. by a pip build-isolation environment), then checks the libraries
against the checkout (`tilelang.cpp.library`). Builds of the same checkout are serialised by a lock file.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path

from .. import _layout
from . import EMULATOR, PASSES, CppLibraryError, library, passes_library

# What `python -m tilelang.cpp [PART ...]` builds: CMake targets (the library and its build record).
PARTS = {"passes": ("tilelang_passes_record",), "emulator": ("tt_emu_record",)}


class CppBuildError(CppLibraryError):
    """The build could not run (no CMake, not a checkout) or failed (its output was printed)."""


def tool(name: str) -> str | None:
    """`name` from this interpreter's scripts folder (the venv's cmake/ninja packages), else from PATH."""
    scripts = sysconfig.get_path("scripts")
    return shutil.which(name, path=scripts) or shutil.which(name)


def _cache_entries(build_dir: Path) -> dict[str, str]:
    entries: dict[str, str] = {}
    cache = build_dir / "CMakeCache.txt"
    for line in cache.read_text("utf-8", errors="replace").splitlines() if cache.is_file() else ():
        name, sep, value = line.partition("=")
        if sep and not line.startswith(("#", "//")):
            entries[name.split(":", 1)[0]] = value
    return entries


# Release (-O2) unless $TILELANG_CPP_BUILD_TYPE says otherwise: Quick, for throw-away checkout copies that tests
# build (tests/projects.py), compiles the sources rendered from the specs at -O0 (about a third of the time) and the
# hand-written ones as Release, whose objects the compiler cache then holds from the checkout's own build.
BUILD_TYPE = os.environ.get("TILELANG_CPP_BUILD_TYPE", "Release")


def _needs_configure(build_dir: Path) -> str | None:
    """Why the build directory must be configured (anew), or None."""
    entries = _cache_entries(build_dir)
    if not entries:
        return "not configured yet"
    for key in ("CMAKE_COMMAND", "CMAKE_MAKE_PROGRAM", "Python_EXECUTABLE"):
        if entries.get(key) and not Path(entries[key]).exists():
            return f"configured with {key}={entries[key]}, which no longer exists"
    home = entries.get("CMAKE_HOME_DIRECTORY")
    if home and Path(home).resolve() != _layout.CHECKOUT.resolve():
        return f"configured for another source tree ({home})"
    if entries.get("CMAKE_BUILD_TYPE", BUILD_TYPE) != BUILD_TYPE:
        return f"configured as a {entries['CMAKE_BUILD_TYPE']} build, {BUILD_TYPE} asked for"
    return None


@contextlib.contextmanager
def _locked(build_dir: Path) -> Iterator[None]:
    build_dir.mkdir(parents=True, exist_ok=True)
    with open(build_dir / ".tilelang-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _run(command: list[str], what: str, env: dict[str, str] | None = None) -> None:
    print("$", " ".join(command), flush=True)
    if subprocess.run(command, env=env).returncode != 0:
        raise CppBuildError(f"{what} failed (its output is above)")


def _configure_env() -> dict[str, str]:
    """The environment of a configuration: the C++ compiler chosen as scikit-build-core chooses it for `make install`
    and `pip wheel` (the interpreter's sysconfig CXX, without its flags, unless $CXX is set). ccache keys an object
    by the compiler's name too (`c++` and `g++` are two compilers to it): with one name, the checkout's build, its
    wheel and the checkout copies the tests build share the cache entries of unchanged sources."""
    env = dict(os.environ)
    cxx = sysconfig.get_config_var("CXX")
    if "CXX" not in env and isinstance(cxx, str):
        words = list(itertools.takewhile(lambda word: not word.startswith("-"), shlex.split(cxx)))
        if words:
            env["CXX"] = " ".join(words)
    return env


def build(parts: tuple[str, ...] = tuple(PARTS), jobs: int | None = None) -> list[Path]:
    """Build `parts` of the checkout incrementally; returns the checked libraries."""
    if not _layout.IN_CHECKOUT:
        raise CppBuildError(f"{_layout.PACKAGE} is an installed package, not a checkout: its C++ libraries were "
                            "built when it was installed")
    cmake = tool("cmake")
    if cmake is None:
        raise CppBuildError("building the C++ libraries needs CMake (>= 3.21), which is neither in "
                            f"{sysconfig.get_path('scripts')} nor on PATH: run `make install` (installs it into "
                            ".venv) or `pip install cmake ninja`")
    build_dir = _layout.BUILD_DIR
    with _locked(build_dir):
        reason = _needs_configure(build_dir)
        if reason is not None:
            print(f"configuring {build_dir}: {reason}", flush=True)
            command = [cmake, "-S", str(_layout.CHECKOUT), "-B", str(build_dir), f"-DCMAKE_BUILD_TYPE={BUILD_TYPE}",
                       f"-DPython_EXECUTABLE={sys.executable}"]
            (build_dir / "CMakeCache.txt").unlink(missing_ok=True)  # configure from scratch (`--fresh` needs 3.24)
            shutil.rmtree(build_dir / "CMakeFiles", ignore_errors=True)
            ninja = tool("ninja")
            if ninja is not None:
                command += ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={ninja}"]
            _run(command, "configuring the C++ build", _configure_env())
        targets = [target for part in parts for target in PARTS[part]]
        _run([cmake, "--build", str(build_dir), "--parallel", str(jobs or os.cpu_count() or 2),
              "--target", *targets], "building the C++ libraries")
    return [passes_library() if part == "passes" else library(EMULATOR) for part in parts]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if any(arg not in PARTS for arg in args):
        print(f"usage: python -m tilelang.cpp [{'|'.join(PARTS)} ...]\n\nBuilds the checkout's C++ libraries "
              f"({PASSES}, {EMULATOR}; all without arguments) incrementally with CMake in {_layout.BUILD_DIR}.",
              file=sys.stderr)
        return 2
    start = time.perf_counter()
    try:
        built = build(tuple(args) or tuple(PARTS))
    except CppLibraryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for path in built:
        print(f"C++ library up to date: {path}")
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0
