"""Where the parts of the package live.

Installed from a wheel, `tilelang` is one folder: the hand-written modules, the modules rendered from the specs, the
C++ libraries built at install time (`lib/`) and the emulator's two include roots (`emulator/include/` hand-written,
`emulator/rendered/` rendered) side by side. In a source checkout the hand-written modules are imported where they
are edited (`python/tilelang`), the rendered ones from `generated/tilelang`; the packages present in both trees list
both folders in their `__path__` (`merged_path`). The libraries are where CMake builds them (`BUILD_DIR`, the
`build-dir` of pyproject.toml that `make install` and `python -m tilelang.cpp` build), the emulator headers where
they are written.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parents[1]
IN_CHECKOUT = PACKAGE.parent.name == "python" and (CHECKOUT / "generated" / "tilelang").is_dir()
_TREES = (CHECKOUT / "python", CHECKOUT / "generated") if IN_CHECKOUT else ()
# The CMake build directory of a checkout (`[tool.scikit-build] build-dir` in pyproject.toml).
BUILD_DIR = CHECKOUT / "build" / "cpp"


def merged_path(path: list[str], name: str) -> list[str]:
    """`__path__` of package `name` extended with its folder in the other tree of a checkout."""
    relative = Path(*name.split("."))
    for tree in _TREES:
        folder = tree / relative
        if folder.is_dir() and str(folder) not in path:
            path.append(str(folder))
    return path


def library_dir() -> Path:
    """Where the C++ libraries are: the checkout's build directory, or `lib/` of the installed package."""
    return BUILD_DIR / "lib" if IN_CHECKOUT else PACKAGE / "lib"


def emulator_include_dirs() -> tuple[Path, ...]:
    """Include roots of emulated programs and kernels: the hand-written host/kernel API headers, and the
    per-profile kernel headers rendered from the intrinsic specs (`<root>/<profile>/...`)."""
    if IN_CHECKOUT:
        return (CHECKOUT / "src" / "emulator" / "include", CHECKOUT / "generated" / "emulator" / "include")
    return (PACKAGE / "emulator" / "include", PACKAGE / "emulator" / "rendered")


def cuda_include_dir() -> Path:
    """The root of the device headers the cuda backend's kernels call (`tl_cuda/...`, hand-written): src/cuda/include
    in a checkout, cuda/include of the installed package."""
    return CHECKOUT / "src" / "cuda" / "include" if IN_CHECKOUT else PACKAGE / "cuda" / "include"
