"""The `@tilelang.testing.requires_*` marks TileLang's tests carry: pytest skip marks for hardware and packages this
machine lacks, so a test module written for CUDA imports (and its CPU kernels run) where no GPU is."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from typing import Any

_MODES = {"ge": lambda a, b: a >= b, "gt": lambda a, b: a > b, "le": lambda a, b: a <= b,
          "lt": lambda a, b: a < b, "eq": lambda a, b: a == b}


def _cuda_capability() -> tuple[int, int] | None:
    """The compute capability of the first CUDA device torch sees, or None (no torch, or no CUDA device)."""
    torch = sys.modules.get("torch")
    if torch is None and importlib.util.find_spec("torch") is not None:
        torch = importlib.import_module("torch")  # optional: only where installed, when a test asks for a device
    try:
        if torch is None or not torch.cuda.is_available():
            return None
        major, minor = torch.cuda.get_device_capability()
        return int(major), int(minor)
    except Exception:  # noqa: BLE001 - a torch without a CUDA runtime: no device
        return None


def _skip_unless(condition: bool, reason: str) -> Callable[[Any], Any]:
    """pytest's skipif mark where pytest is installed (a development dependency); the function unchanged elsewhere."""
    def mark(func: Any) -> Any:
        if importlib.util.find_spec("pytest") is None:
            return func
        import pytest  # a development dependency, absent from an installed wheel's environment

        return pytest.mark.skipif(not condition, reason=reason)(func)
    return mark


def requires_cuda(func: Any) -> Any:
    """Skip unless a CUDA device is present."""
    return _skip_unless(_cuda_capability() is not None, "requires a CUDA device")(func)


def requires_cuda_compute_version(major_version: int, minor_version: int = 0,
                                  mode: str = "ge") -> Callable[[Any], Any]:
    """Skip unless a CUDA device's compute capability compares with (major, minor) as `mode` says."""
    if mode not in _MODES:
        raise ValueError(f"requires_cuda_compute_version: mode {mode!r} is not one of {sorted(_MODES)}")
    have = _cuda_capability()
    want = (major_version, minor_version)
    ok = have is not None and _MODES[mode](have, want)
    return _skip_unless(ok, f"requires CUDA compute capability {mode} {want[0]}.{want[1]}, have {have}")


def requires_cuda_compute_version_ge(major_version: int, minor_version: int = 0) -> Callable[[Any], Any]:
    return requires_cuda_compute_version(major_version, minor_version, "ge")


def requires_cuda_compute_version_gt(major_version: int, minor_version: int = 0) -> Callable[[Any], Any]:
    return requires_cuda_compute_version(major_version, minor_version, "gt")


def requires_cuda_compute_version_le(major_version: int, minor_version: int = 0) -> Callable[[Any], Any]:
    return requires_cuda_compute_version(major_version, minor_version, "le")


def requires_cuda_compute_version_lt(major_version: int, minor_version: int = 0) -> Callable[[Any], Any]:
    return requires_cuda_compute_version(major_version, minor_version, "lt")


def requires_cuda_compute_version_eq(major_version: int, minor_version: int = 0) -> Callable[[Any], Any]:
    return requires_cuda_compute_version(major_version, minor_version, "eq")


def requires_package(*names: str) -> Callable[[Any], Any]:
    """Skip unless every named package imports."""
    missing = [n for n in names if importlib.util.find_spec(n) is None]
    return _skip_unless(not missing, f"requires the package(s) {', '.join(missing)}")


def requires_metal(func: Any) -> Any:
    """Skip: this project has no Metal backend."""
    return _skip_unless(False, "requires Apple Metal (no backend in this project)")(func)


def requires_gfx950(func: Any) -> Any:
    """Skip: AMD gfx950 (no ROCm device is probed here)."""
    return _skip_unless(False, "requires an AMD gfx950 device")(func)


def requires_metal4(func: Any) -> Any:
    """Skip: this project has no Metal backend."""
    return _skip_unless(False, "requires Apple Metal 4 (no backend in this project)")(func)


def requires_rocm(func: Any) -> Any:
    """Skip: no ROCm device is probed here."""
    return _skip_unless(False, "requires a ROCm device")(func)


def requires_cdna(func: Any) -> Any:
    """Skip: no AMD CDNA device is probed here."""
    return _skip_unless(False, "requires an AMD CDNA device")(func)


def requires_cuda_or_cdna(func: Any) -> Any:
    """Skip unless a CUDA device is present (no CDNA device is probed here)."""
    return _skip_unless(_cuda_capability() is not None, "requires a CUDA or AMD CDNA device")(func)


def requires_llvm(func: Any) -> Any:
    """Run: the llvm (CPU) backend is part of this project."""
    return func
