"""Build and load the C++ renderings of the passes (the sources next to this file).

The library is compiled on first use with the system C++ compiler against tvm-ffi's headers only, cached
under the user's cache directory by a hash of every source, the compiler and the flags (so editing a spec and
regenerating rebuilds it, and nothing else does), and loaded into the process with RTLD_GLOBAL so the passes
register their global functions ("tl.cpp.transform.<Pass>").
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import tvm_ffi
import tvm_ffi.libinfo

from .._layout import CHECKOUT
from ..errors import TileLangError

# The hand-written engines and the sources rendered from the specs.
SOURCE_DIRS = (CHECKOUT / "src" / "transform", CHECKOUT / "generated" / "cpp")
LIBRARY = "libtilelang_passes.so"
FLAGS = ("-std=c++17", "-O2", "-fPIC", "-fvisibility=hidden")
_lock = threading.Lock()
_loaded: Path | None = None


class CppBuildError(TileLangError):
    """The C++ passes could not be built (no compiler, or a compiler error)."""


def compiler() -> str:
    """$CXX, else the first of g++, clang++, c++ on PATH."""
    chosen = os.environ.get("CXX")
    candidates = [chosen] if chosen else ["g++", "clang++", "c++"]
    for name in candidates:
        path = shutil.which(name)
        if path:
            return path
    wanted = f"$CXX={chosen!r}" if chosen else "g++, clang++ or c++"
    raise CppBuildError(f"the C++ passes need a C++17 compiler, but {wanted} was not found on PATH; install one "
                        "(e.g. apt install g++) or set CXX")


def _tree() -> list[tuple[Path, Path]]:
    return sorted((path, root) for root in SOURCE_DIRS for path in root.rglob("*") if path.suffix in (".h", ".cc"))


def sources() -> list[Path]:
    return [path for path, _ in _tree() if path.suffix == ".cc"]


def _cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tilelang" / "cpp_passes"


def _digest(cxx: str) -> str:
    h = hashlib.sha256()
    for part in (cxx, *FLAGS, tvm_ffi.__version__):
        h.update(part.encode() + b"\0")
    for path, root in _tree():
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def _run(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise CppBuildError(f"building the C++ passes failed:\n$ {' '.join(cmd)}\n{done.stderr[-6000:]}")


def library_path() -> Path:
    """The built library, compiling it first when the cache has none for these sources."""
    cxx = compiler()
    target = _cache_root() / _digest(cxx) / LIBRARY
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    include = ["-I" + tvm_ffi.libinfo.find_include_path(), "-I" + tvm_ffi.libinfo.find_dlpack_include_path(),
               *("-I" + str(d) for d in SOURCE_DIRS)]
    libffi = Path(tvm_ffi.libinfo.find_libtvm_ffi())
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        # The generated pass sources are small and share one heavy header: one translation unit for all of
        # them (each lives in its own namespace) saves most of the build time.
        unity = Path(tmp) / "passes_unity.cc"
        unity.write_text("".join(f'#include "{src}"\n' for src in sources() if src.parent.name == "passes"))
        units = [src for src in sources() if src.parent.name != "passes"] + [unity]
        objects = []
        jobs = []
        for i, src in enumerate(units):
            obj = Path(tmp) / f"{i}_{src.stem}.o"
            objects.append(str(obj))
            jobs.append([cxx, *FLAGS, *include, "-c", str(src), "-o", str(obj)])
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            list(pool.map(_run, jobs))
        partial = Path(tmp) / LIBRARY
        _run([cxx, "-shared", *objects, "-o", str(partial), f"-L{libffi.parent}", "-ltvm_ffi",
              f"-Wl,-rpath,{libffi.parent}"])
        os.replace(partial, target)  # atomic: a concurrent build of the same sources writes the same bytes
    return target


def load() -> Path:
    """Build (if needed) and load the library once per process."""
    global _loaded
    with _lock:
        if _loaded is None:
            from .. import tenstorrent  # noqa: F401  (registers the tt.* ops the passes build calls of)

            path = library_path()
            try:
                ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
            except OSError as exc:  # e.g. a source declares an engine no source defines
                raise CppBuildError(f"cannot load the C++ passes {path}: {exc}") from None
            _loaded = path
        return _loaded


def make_pass(name: str, options: dict[str, Any]) -> Any:
    """The C++ pass `name` constructed with `options` (its spec options and context values)."""
    return call(f"tl.transform.{name}", options)


def call(name: str, *args: Any) -> Any:
    """Call a global function the C++ library registers."""
    load()
    return tvm_ffi.get_global_func(name)(*args)
