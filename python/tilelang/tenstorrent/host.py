"""Host metadata of a lowered Tenstorrent kernel, gathered from the attributes of its role kernels."""

from __future__ import annotations

from typing import Any

import tvm
from tvm import tirx

from . import device
from .lowered import get_attr

SHARED_KEYS = ("tt.core_grid", "tt.grid_blocks", "tt.partition_mode", "tt.work_partition", "tt.core_ranges",
               "tt.cbs", "tt.buffers")


def host_plan(mod: tvm.IRModule) -> dict[str, Any]:
    """{core grid, work, CBs, tensors, and per kernel its role, runtime and compile-time arguments}."""
    kernels = {}
    shared: dict[str, Any] = {}
    semaphores: dict[str, Any] = {}  # name -> semaphore, in the order kernels declare them
    for gvar, func in sorted(mod.functions.items(), key=lambda item: item[0].name_hint):
        if not isinstance(func, tirx.PrimFunc):
            continue
        role = get_attr(func, "tt.kernel_role")
        if role is None:
            continue
        kernels[role] = {
            "name": gvar.name_hint,
            "runtime_args": get_attr(func, "tt.runtime_args", []),
            "runtime_arg_values": get_attr(func, "tt.runtime_arg_values", []),
            "compile_time_args": get_attr(func, "tt.compile_time_args", []),
        }
        for key in SHARED_KEYS:
            shared.setdefault(key[len("tt."):], get_attr(func, key))
        for sem in get_attr(func, "tt.semaphores", []) or []:
            semaphores.setdefault(sem["name"], dict(sem))
    return {"device": {"profile": device.PROFILE, "tile": list(device.TILE)}, **shared,
            "semaphores": list(semaphores.values()), "kernels": kernels}
