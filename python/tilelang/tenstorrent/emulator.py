"""Driver of the tt_emu host emulator of the TT-Metalium API: build host programs with the system C++ compiler
against the emulator's runtime library, run them, and return the emulator's JSON report.

The runtime library (`libtt_emu.so`) is built when the package is installed, with the C++ passes
(`tilelang.cpp`, CMakeLists.txt); its include roots are found through `tilelang._layout`. Host programs are
compiled at run time and link against it; kernels are compiled by the emulator itself when a program is enqueued,
like tt-metal's JIT (it finds the include roots in $TT_EMU_INCLUDE). Host programs and kernels are cached under
`cache_dir()` by a hash of their inputs and published atomically, so parallel test processes share the cache
safely. Importing this module compiles nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .. import _layout, cpp
from . import cache, host_pch, host_source, intrinsics
from .cache import cache_dir
from .records import REPORT
from .templates import templates

INCLUDE_DIRS = _layout.emulator_include_dirs()
# The API profile of the backend spec (the library has it compiled in as the default of $TT_EMU_PROFILE, from the
# same spec line); `run` always passes the profile it is given.
DEFAULT_PROFILE = intrinsics.TENSTORRENT_PROFILE
# -Og: a host program's build is most of what a cold test run pays (generating the code of the templates it
# instantiates), and -Og makes that about a fifth cheaper than -O1 while the program's own run, a few file and buffer
# copies around the emulated kernels, stays a few milliseconds (docs/building.md, "Where a test's time goes").
HOST_FLAGS = ("-std=c++20", "-Og", "-pthread")

# Exit codes of an emulated program (see include/tt-metalium/host_api.hpp).
EXIT_COMPILE_ERROR = 2
EXIT_EMULATOR_ERROR = 3


class TTEmulatorError(RuntimeError):
    """A build failed or an emulated program reported an error; the message is the emulator's report."""

    def __init__(self, message: str, returncode: int | None = None, report: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.returncode = returncode
        self.report = report


def _compiler() -> str:
    cxx = os.environ.get("CXX", "g++")
    found = shutil.which(cxx)
    if found is None:
        raise TTEmulatorError(f"no C++ compiler: '{cxx}' is not on PATH (install g++ or set CXX)")
    return found


def _digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()[:24]


def _tree_digest(*dirs: Path) -> str:
    parts: list[str | bytes] = []
    for d in dirs:
        for f in sorted(p for p in d.rglob("*") if p.is_file()):
            parts += [f.relative_to(d).as_posix(), f.read_bytes()]
    return _digest(*parts)


def _compile(command: list[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise TTEmulatorError(f"compiling {what} failed:\n$ {shlex.join(command)}\n{done.stdout}{done.stderr}")


DIGEST_SUFFIX = ".sha256"  # beside each published host program: "<size> <sha256 of its bytes>"


def _file_digest(path: Path) -> str:
    data = path.read_bytes()
    return f"{len(data)} {hashlib.sha256(data).hexdigest()}"


def _publish(built: Path, target: Path) -> Path:
    """Into the cache: the executable bit checked and the content digest recorded before the atomic rename, so
    what appears under `target` is always a complete program with its digest beside it."""
    mode = built.stat().st_mode
    if not mode & 0o100:
        os.chmod(built, mode | 0o755)
    digest = target.with_name(target.name + DIGEST_SUFFIX)
    digest_tmp = digest.with_name(f"{digest.name}.{_unique()}")
    digest_tmp.write_text(_file_digest(built))
    os.replace(digest_tmp, digest)
    os.replace(built, target)
    return target


def _verified(exe: Path) -> str:
    """'' when the cached program matches its recorded digest, else what is wrong with it."""
    digest = exe.with_name(exe.name + DIGEST_SUFFIX)
    try:
        recorded = digest.read_text().strip()
        actual = _file_digest(exe)
    except OSError as err:
        return f"cannot be read ({err.strerror})"
    if recorded != actual:
        return f"does not match its recorded digest ({actual.split()[0]} bytes, {recorded.split()[0]} recorded)"
    if not os.access(exe, os.X_OK):
        return "is not executable"
    return ""


def _unique() -> str:
    """A temporary-file suffix unique per process and thread."""
    return f"tmp{os.getpid()}.{threading.get_ident()}"


def library() -> Path:
    """libtt_emu.so, built when the package was installed (in a checkout: checked against its sources; see
    `tilelang.cpp.library`). Nothing is compiled here."""
    return cpp.library(cpp.EMULATOR)


CMAKE_PACKAGE = "TT-Metalium"  # find_package(TT-Metalium), as tt-metal's programs and the saved CMakeLists.txt ask


def cmake_prefix() -> Path:
    """A CMake prefix whose `lib/cmake/TT-Metalium/` package makes `find_package(TT-Metalium)` and `TT::Metalium`
    resolve to this emulator: the library, and the include root of the host API (`tt-metalium/*.hpp`, `tt_stl`).
    Written under `cache_dir()/cmake/<key>` (keyed by the library's and the headers' paths and the profile), only
    when its files change; returns the prefix."""
    lib = library()
    profile = intrinsics.PROFILES[DEFAULT_PROFILE]
    values = {"package": str(Path(__file__).resolve().parents[1]), "library": str(lib), "library_name": lib.name,
              "include": str(INCLUDE_DIRS[0]), "profile": DEFAULT_PROFILE, "version": profile.ttnn_wheel}
    prefix = cache_dir() / "cmake" / _digest(*(f"{k}={v}" for k, v in sorted(values.items())))
    folder = prefix / "lib" / "cmake" / CMAKE_PACKAGE
    folder.mkdir(parents=True, exist_ok=True)
    for name in (f"{CMAKE_PACKAGE}Config.cmake", f"{CMAKE_PACKAGE}ConfigVersion.cmake"):
        text = templates().get_template(f"{name}.j2").render(**values)
        target = folder / name
        if not target.exists() or target.read_text() != text:
            tmp = folder / f"{name}.tmp{os.getpid()}"
            tmp.write_text(text)
            os.replace(tmp, target)
    return prefix


def _host_entry(main_cpp: Path) -> tuple[Path, list[str], host_pch.Header | None, str]:
    """Where the host program of `main_cpp` is cached, the command that builds it (`{out}` for the output), the
    PCH of its leading includes and the text it is built from (host_source: the comments blanked, so that main.cpps
    that differ only there share one build). The API profile is not part of the key: the program is the same for
    every profile (a run's TT_EMU_PROFILE selects the kernel headers), so the runs of one main.cpp under several
    profiles (the emulator tests, `make test-profiles`) share one build (issue 35)."""
    lib = library()
    cxx = _compiler()
    # Keyed by what is compiled, never by where it lies (every run writes its artifacts to a new folder): the
    # source without its comments, the headers next to it (reachable with -I), the host API headers, the library
    # (rebuilt in place in a checkout), the compiler and its flags.
    local = sorted(p for p in main_cpp.parent.iterdir() if p.suffix in (".h", ".hpp"))
    host_api = _tree_digest(INCLUDE_DIRS[0])  # tt-metalium/, tt_emu/ and what they include (fmt/, tt_stl/, ...)
    source = main_cpp.read_text("utf-8", errors="surrogateescape")
    code = host_source.canonical(source)
    key = _digest(cxx, *HOST_FLAGS, str(lib), lib.read_bytes(), host_api, source if code is None else code,
                  *(part for p in local for part in (p.name, p.read_bytes())))
    exe = cache_dir() / "host" / key / main_cpp.stem
    built_from = exe.with_name(f"{main_cpp.stem}.cpp")  # the text compiled, kept in the entry
    command = [cxx, *HOST_FLAGS, f"-I{INCLUDE_DIRS[0]}", f"-I{main_cpp.parent}", str(built_from), "-o", "{out}",
               f"-L{lib.parent}", "-ltt_emu", f"-Wl,-rpath,{lib.parent}"]
    pch = host_pch.header_for(main_cpp, [cxx, *HOST_FLAGS, f"-I{INCLUDE_DIRS[0]}"],
                              _digest(cxx, *HOST_FLAGS, host_api), cache_dir() / "pch")
    return exe, command, pch, host_source.build_text(source, str(main_cpp))


def _write_source(target: Path, text: str) -> None:
    tmp = target.with_name(f"{target.name}.{_unique()}")
    tmp.write_text(text, "utf-8", errors="surrogateescape")
    os.replace(tmp, target)


def _ensure_built(exe: Path, command: list[str], what: str, pch: host_pch.Header | None, text: str) -> None:
    """The program at `exe`, built from `text` unless a verified copy is there (the caller holds `cache.in_use`),
    reading its leading includes from `pch` when given (host_pch)."""
    built_now = False
    with cache.building(exe.parent):  # one builder per key, across threads and processes
        problem = _verified(exe) if exe.exists() else None
        if problem:
            warnings.warn(f"tt_emu cache: host program {exe} {problem}; it is rebuilt (the cache is "
                          f"{cache_dir()}, $TT_EMU_CACHE)", stacklevel=3)
        if problem is None or problem:
            built = exe.with_name(f"{exe.name}.{_unique()}")
            _write_source(exe.with_name(f"{exe.name}.cpp"), text)
            try:
                with host_pch.flags(pch) as forced:  # g++ applies -include wherever it stands
                    _compile([*(str(built) if part == "{out}" else part for part in command), *forced], what)
                _publish(built, exe)
            finally:
                built.unlink(missing_ok=True)
            built_now = True
    cache.touch(exe.parent)  # recently used: the bounded cache keeps it
    if built_now:
        cache.prune()


def build_host(main_cpp: Path, profile: str = DEFAULT_PROFILE) -> Path:
    """A host program (main.cpp using <tt-metalium/...>) linked against the library; returns the executable.

    The host API is the same for every profile (the profile selects kernel headers at run time, `run`'s
    `profile`), so `profile` does not change the program: every profile gets the one cached executable of
    `main_cpp` (it is accepted so that callers name the profile they run under). Built once per key under any mix of
    threads and processes; a cached program that does not match its recorded digest is rebuilt (with a warning
    naming the cache). `host_program` also keeps it from being pruned while it runs.
    """
    main_cpp = Path(main_cpp).resolve()
    exe, command, pch, text = _host_entry(main_cpp)
    with cache.in_use(exe.parent):
        _ensure_built(exe, command, str(main_cpp), pch, text)
    return exe


@contextlib.contextmanager
def host_program(main_cpp: Path, profile: str = DEFAULT_PROFILE) -> Iterator[Path]:
    """`with host_program(main_cpp) as exe: run(exe, ...)`: `build_host`, and the cache entry protected from
    pruning (by other threads and processes) until the block ends."""
    main_cpp = Path(main_cpp).resolve()
    exe, command, pch, text = _host_entry(main_cpp)
    with cache.in_use(exe.parent):
        _ensure_built(exe, command, str(main_cpp), pch, text)
        yield exe


DEFAULT_TIMEOUT = 600.0  # seconds an emulated program may run; $TT_EMU_TIMEOUT overrides it
# Beyond the run's own limit (the emulator's watchdog enforces it and names a spinning kernel), the process may take
# this long to compile its kernels before the run starts; only then is it stopped from outside.
STARTUP_ALLOWANCE = 300.0
# A finite limit (a year): the watchdog and subprocess need a number of seconds, not inf.
MAX_TIMEOUT = 365 * 24 * 3600.0


def run_timeout() -> float:
    """The time limit of an emulated program: $TT_EMU_TIMEOUT (seconds), else DEFAULT_TIMEOUT."""
    text = os.environ.get("TT_EMU_TIMEOUT", "")
    if not text:
        return DEFAULT_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < MAX_TIMEOUT:
        raise TTEmulatorError(f"TT_EMU_TIMEOUT={text!r} is not a positive number of seconds below {MAX_TIMEOUT:g}")
    return value


def run(executable: Path, args: list[str], profile: str = DEFAULT_PROFILE, report: Path | None = None,
        timeout: float | None = None, cwd: Path | None = None, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run an emulated host program and return its report (plus `stdout`, the program's own output).

    Raises TTEmulatorError with the emulator's stderr report when the program exits non-zero (2: a kernel
    failed to compile, 3: a host or kernel error such as a CB protocol violation or a deadlock, or a run longer
    than `timeout` seconds, default run_timeout(): the emulator names the kernels still running, with their core
    and last API call).
    """
    timeout = run_timeout() if timeout is None else timeout
    if not 0 < timeout < MAX_TIMEOUT:
        raise TTEmulatorError(f"timeout={timeout!r} is not a positive number of seconds below {MAX_TIMEOUT:g}")
    with tempfile.TemporaryDirectory() as tmp:
        report_path = Path(report) if report is not None else Path(tmp) / "report.json"
        report_path.unlink(missing_ok=True)  # never mistake an earlier run's report for this one's
        full_env = {**os.environ, **(env or {}), "TT_EMU_INCLUDE": ":".join(map(str, INCLUDE_DIRS)),
                    "TT_EMU_PROFILE": profile, "TT_EMU_REPORT": str(report_path), "TT_EMU_TIMEOUT": f"{timeout:g}"}
        try:
            entry = Path(executable).parent
            cached = entry.parent == cache_dir() / "host"
            with cache.in_use(entry) if cached else contextlib.nullcontext():  # a prune leaves it alone
                done = subprocess.run([str(executable), *args], capture_output=True, text=True,
                                      timeout=timeout + STARTUP_ALLOWANCE, cwd=cwd, env=full_env)
        except subprocess.TimeoutExpired as exc:
            raise TTEmulatorError(f"{executable} did not finish within {timeout + STARTUP_ALLOWANCE:g} s (a run of "
                                  f"{timeout:g} s after {STARTUP_ALLOWANCE:g} s for compiling its kernels) and was "
                                  "stopped; set TT_EMU_TIMEOUT (seconds) to allow a longer run") from exc
        parsed: dict[str, Any] = json.loads(report_path.read_text()) if report_path.exists() else {}
        if done.returncode != 0:
            message = done.stderr.strip() or f"{executable} exited with code {done.returncode}"
            raise TTEmulatorError(message, done.returncode, parsed or None)
        parsed[REPORT.STDOUT] = done.stdout
        return parsed


USAGE = """\
Run any TT-Metalium host program on the emulator, without a device.

Build it with CMake against the emulator's package (find_package(TT-Metalium) and TT::Metalium resolve to it):

  cmake -B build -DCMAKE_PREFIX_PATH="$(python -m tilelang.tenstorrent.emulator --cmake-prefix)"
  cmake --build build
  ./build/<program> [its arguments]

or by hand: g++ -std=c++20 -I"$(python -m tilelang.tenstorrent.emulator --include)" main.cpp -L<dir of
libtt_emu.so> -ltt_emu -pthread (python -m tilelang.tenstorrent.emulator --library prints the library).

The program runs as on a Wormhole n150 (one device, an 8x8 worker grid, 12 DRAM banks). Kernels are compiled with
the host compiler ($CXX, default g++, -Wall -Werror) when the program creates them, like tt-metal's JIT, and run on
emulated cores; a kernel path is read as tt-metal reads it: absolute, else relative to the program's kernel prefix,
$TT_METAL_HOME or the working directory. Misuse of the API or of a circular buffer, a deadlock, or what the
sanitizer reports stops the program with `tt_emu: error: core (x,y) <kernel>: <call>: <what>` and a state dump on
stderr; the exit code is 2 when a kernel does not compile, 3 for any other error.

Environment:
  TT_EMU_PROFILE   the kernel API profile ({profiles}; default {default})
  TT_EMU_THREADS   threads running the emulated cores (default: the machine's cores)
  TT_EMU_TIMEOUT   seconds a run may take before its watchdog stops it (default 600)
  TT_EMU_REPORT    a file to write the run's JSON report to (DRAM bytes, NoC transactions, tile operations per core)
  TT_EMU_CACHE     where compiled kernels are kept (default ~/.cache/tilelang/tt_emu)
  TT_EMU_INCLUDE   the kernel include roots, ':'-separated (default: those next to the library)
  TT_METAL_HOME    the root relative kernel paths are read from (tt-metal's source tree for its examples)
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tilelang.tenstorrent.emulator", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=USAGE.format(profiles=", ".join(intrinsics.PROFILES), default=DEFAULT_PROFILE))
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--cmake-prefix", action="store_true",
                      help="print a folder to pass as -DCMAKE_PREFIX_PATH (find_package(TT-Metalium))")
    what.add_argument("--include", action="store_true", help="print the include root of the host API headers")
    what.add_argument("--library", action="store_true", help="print the path of libtt_emu.so")
    args = parser.parse_args(argv)
    try:
        if args.cmake_prefix:
            print(cmake_prefix())
        elif args.include:
            print(INCLUDE_DIRS[0])
        else:
            print(library())
    except (TTEmulatorError, cpp.CppLibraryError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
