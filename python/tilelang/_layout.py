"""Where the parts of the package live.

Installed from a wheel, `tilelang` is one folder: the hand-written modules, the modules rendered from the specs,
the built C++ libraries and the emulator headers side by side. In a source checkout the hand-written modules are
imported where they are edited (`python/tilelang`), the rendered ones from `generated/tilelang`; the packages
present in both trees list both folders in their `__path__` (`merged_path`).
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parents[1]
IN_CHECKOUT = PACKAGE.parent.name == "python" and (CHECKOUT / "generated" / "tilelang").is_dir()
_TREES = (CHECKOUT / "python", CHECKOUT / "generated") if IN_CHECKOUT else ()


def merged_path(path: list[str], name: str) -> list[str]:
    """`__path__` of package `name` extended with its folder in the other tree of a checkout."""
    relative = Path(*name.split("."))
    for tree in _TREES:
        folder = tree / relative
        if folder.is_dir() and str(folder) not in path:
            path.append(str(folder))
    return path


def emulator_sources() -> Path:
    """The emulator runtime's C++ sources (`src/*.cpp`, built into libtt_emu)."""
    return CHECKOUT / "src" / "emulator" if IN_CHECKOUT else PACKAGE / "emulator"


def emulator_include_dirs() -> tuple[Path, ...]:
    """Include roots of emulated programs and kernels: the hand-written host/kernel API headers, and the
    per-profile kernel headers rendered from the intrinsic specs (`<root>/<profile>/...`)."""
    if IN_CHECKOUT:
        return (CHECKOUT / "src" / "emulator" / "include", CHECKOUT / "generated" / "emulator" / "include")
    return (PACKAGE / "emulator" / "include",)
