"""The C++ libraries of the package: finding them, checking them, loading the C++ passes.

`libtilelang_passes.so` (the C++ renderings of the passes: src/transform + generated/cpp, against tvm-ffi's headers
only) and `libtt_emu.so` (the Metalium emulator runtime, used by `tilelang.tenstorrent.emulator`) are compiled by
CMake (CMakeLists.txt) when the package is installed - `pip install` of a wheel, `make install` in a checkout -
never on first use. Installed, they are in `tilelang/lib`; in a checkout, in its build directory, where
`python -m tilelang.cpp` rebuilds them incrementally (`make generate` and `make test` run it).

In a checkout, a library is compared with the record CMake writes next to it after every build
(`<library>.inputs`: the SHA-256 of every source it was built from, and the tvm-ffi version of the passes); a
library built from other sources than the checkout has is an error that says what changed and what to run, never a
silent mismatch between the Python wrappers and the C++ passes. Loading the passes registers their global functions
(`tl.transform.<Pass>`).
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tvm_ffi

from .. import _layout, language  # noqa: F401  (language registers the intrinsic ops the passes build calls of)
from ..errors import TileLangError

PASSES = "libtilelang_passes.so"
EMULATOR = "libtt_emu.so"
RECORD_SUFFIX = ".inputs"  # cmake/BuildRecord.cmake
BUILD_COMMAND = "python -m tilelang.cpp"
_lock = threading.Lock()
_loaded: Path | None = None


class CppLibraryError(TileLangError):
    """A C++ library of the package is missing, stale or cannot be loaded."""


class CppLibraryMissing(CppLibraryError):
    """The library was never built (checkout) or is not in the installed package."""


class CppLibraryStale(CppLibraryError):
    """In a checkout: the library was built from other sources than the checkout has now."""


def _shown(path: Path) -> str:
    """`path` relative to the checkout when it is in it."""
    return str(path.relative_to(_layout.CHECKOUT)) if _layout.CHECKOUT in path.parents else str(path)


def record_path(library: Path) -> Path:
    return library.with_name(library.name + RECORD_SUFFIX)


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def differences(library: Path, facts: dict[str, str] | None = None, root: Path | None = None) -> list[str]:
    """How the sources under `root` (the checkout) differ from those `library` was built from, by its record:
    files changed, new (matched by the record's scan patterns) or removed, and each of `facts` (e.g. the tvm-ffi
    version) that differs from the recorded one. Empty when the library is up to date."""
    root = _layout.CHECKOUT if root is None else root
    record = record_path(library)
    if not record.is_file():
        return [f"it has no build record ({record.name})"]
    built: dict[str, str] = {}
    built_facts: dict[str, str] = {}
    patterns: list[str] = []
    for line in record.read_text("utf-8").splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "fact":
            key, _, value = rest.partition(" ")
            built_facts[key] = value
        elif kind == "scan":
            patterns.append(rest)
        elif kind == "file":
            digest, _, relative = rest.partition(" ")
            built[relative] = digest
    found: list[str] = []
    for key, value in sorted((facts or {}).items()):
        if built_facts.get(key, value) != value:
            found.append(f"built against {key} {built_facts[key]}, this process has {value}")
    current = sorted({p.relative_to(root).as_posix() for pattern in patterns for p in root.glob(pattern)
                      if p.is_file()})
    for relative in current:
        if relative not in built:
            found.append(f"new: {relative}")
        elif built[relative] != _file_digest(root / relative):
            found.append(f"changed: {relative}")
    found += [f"removed: {relative}" for relative in sorted(set(built) - set(current))]
    return found


def library(name: str, facts: dict[str, str] | None = None) -> Path:
    """The built library `name` (PASSES or EMULATOR). Raises CppLibraryMissing when it was not built and, in a
    checkout, CppLibraryStale when its sources changed since it was built."""
    path = _layout.library_dir() / name
    if not path.is_file():
        if _layout.IN_CHECKOUT:
            raise CppLibraryMissing(
                f"the C++ library {name} is not built ({_shown(path)} does not exist): run `make install` "
                f"(creates .venv, installs the project and builds it) or `{BUILD_COMMAND}` in {_layout.CHECKOUT}")
        raise CppLibraryMissing(f"the installed tilelang package has no {path}: reinstall the package "
                                "(its libraries are built when it is installed)")
    if _layout.IN_CHECKOUT:
        found = differences(path, facts)
        if found:
            shown = "; ".join(found[:6]) + (f"; and {len(found) - 6} more" if len(found) > 6 else "")
            raise CppLibraryStale(
                f"the C++ library {_shown(path)} is stale, the checkout changed since it was built ({shown}): run "
                f"`{BUILD_COMMAND}` (`make generate` and `make test` run it) to rebuild it")
    return path


def passes_library() -> Path:
    """The C++ passes library, checked (see `library`)."""
    return library(PASSES, {"tvm-ffi": tvm_ffi.__version__})


def load() -> Path:
    """Load the C++ passes into the process (once); returns the library's path."""
    global _loaded
    with _lock:
        if _loaded is None:
            path = passes_library()
            try:
                ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
            except OSError as exc:  # e.g. a source declares an engine no source defines
                raise CppLibraryError(f"cannot load the C++ passes {path}: {exc}") from None
            _loaded = path
        return _loaded


def make_pass(name: str, options: dict[str, Any]) -> Any:
    """The C++ pass `name` constructed with `options` (its spec options and context values)."""
    return call(f"tl.transform.{name}", options)


def call(name: str, *args: Any) -> Any:
    """Call a global function the C++ library registers."""
    load()
    return tvm_ffi.get_global_func(name)(*args)


@contextlib.contextmanager
def device_scope(device: str) -> Iterator[None]:
    """The C++ passes plan for `device` (one of the device backend's devices; their `device` facts are its) inside
    the block, on this thread; "" leaves the device as it is."""
    if not device:
        yield
        return
    previous = str(call("tl.Device"))
    call("tl.SetDevice", device)
    try:
        yield
    finally:
        call("tl.SetDevice", previous)


def current_device() -> str:
    """The device the C++ passes plan for on this thread (the device backend's default outside a device_scope)."""
    return str(call("tl.Device"))
