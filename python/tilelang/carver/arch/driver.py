"""The CUDA runtime's device attributes (TileLang's `tilelang.carver.arch.driver`), read through libcudart.

Without a CUDA runtime and a device every query is a TileLangError naming it: the facts describe a GPU this machine
does not have, and no default could stand in for them. `get_num_sms()` is the exception: it answers for the target
being built for (see there), because persistent kernels size their grid with it on every target."""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

from ...engine.backend import resolve, split_device
from ...engine.compile_target import current
from ...engine.interface import runtime_of
from ...engine.lower import resolve_target
from ...engine.registry import BACKENDS
from ...errors import TileLangError

# cudaDeviceAttr values (CUDA runtime API, cudaDeviceAttr enumeration).
ATTRIBUTES = {"max_threads_per_block": 1, "shared_memory_per_block": 8, "registers_per_block": 12,
              "num_sms": 16, "compute_capability_major": 75, "compute_capability_minor": 76,
              "max_dynamic_shared_size_bytes": 97, "persisting_l2_cache_max_size": 108}


def _cudart(what: str) -> Any:
    for name in ("libcudart.so", "libcudart.so.13", "libcudart.so.12", ctypes.util.find_library("cudart")):
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise TileLangError(f"tilelang.carver.arch.driver.{what}: no CUDA runtime (libcudart) on this machine")


def get_device_attribute(attr: int, device_id: int = 0, what: str = "get_device_attribute") -> int:
    """cudaDeviceGetAttribute(attr, device_id)."""
    value = ctypes.c_int(0)
    status = _cudart(what).cudaDeviceGetAttribute(ctypes.byref(value), ctypes.c_int(attr), ctypes.c_int(device_id))
    if status != 0:
        raise TileLangError(f"tilelang.carver.arch.driver.{what}: cudaDeviceGetAttribute({attr}, device {device_id}) "
                            f"failed with CUDA error {status} (no CUDA device?)")
    return int(value.value)


def _attribute(name: str, device_id: int) -> int:
    return get_device_attribute(ATTRIBUTES[name], device_id, f"get_{name}")


def cuda_num_sms(device_id: int = 0) -> int:
    """The CUDA device's SM count (cudaDevAttrMultiProcessorCount)."""
    return _attribute("num_sms", device_id)


def get_num_sms(device_id: int = 0) -> int:
    """How many blocks run at once on the target being built for (a persistent kernel's wave size): the SM count of
    a CUDA device; the worker cores of a Tenstorrent device (its record's core grid, 64 on an n150); the host's
    cores for llvm and c. The target is the one a `@tilelang.jit` kernel is being built for while its Python code
    runs, else "auto" (the current tvm Target scope's, else llvm)."""
    target = resolve_target(current())
    backend = resolve(target, BACKENDS)
    device = split_device(target)[1] or (str(device_id) if backend.runs_on == "cuda" else "")
    return runtime_of(backend).compute_units(backend, device)


def get_shared_memory_per_block(device_id: int = 0) -> int:
    return _attribute("shared_memory_per_block", device_id)


def get_registers_per_block(device_id: int = 0) -> int:
    return _attribute("registers_per_block", device_id)


def get_max_dynamic_shared_size_bytes(device_id: int = 0) -> int:
    return _attribute("max_dynamic_shared_size_bytes", device_id)


def get_persisting_l2_cache_max_size(device_id: int = 0) -> int:
    return _attribute("persisting_l2_cache_max_size", device_id)


def get_compute_capability(device_id: int = 0) -> tuple[int, int]:
    return _attribute("compute_capability_major", device_id), _attribute("compute_capability_minor", device_id)
