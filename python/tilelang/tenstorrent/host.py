"""Host metadata of a lowered Tenstorrent kernel, gathered from the attributes of its role kernels."""

from __future__ import annotations

from typing import Any

import tvm
from tvm import tirx

from . import attr_keys, device
from .lowered import get_attr

# Attributes every role kernel carries; the plan holds each once, under the key's last name ("cbs").
SHARED_KEYS = (attr_keys.TT_CORE_GRID, attr_keys.TT_GRID_BLOCKS, attr_keys.TT_PARTITION_MODE,
               attr_keys.TT_WORK_PARTITION, attr_keys.TT_CORE_RANGES, attr_keys.TT_CBS, attr_keys.TT_BUFFERS,
               attr_keys.TT_CONSTANTS)


def host_plan(mod: tvm.IRModule) -> dict[str, Any]:
    """{core grid, work, CBs, tensors, and per kernel its role, runtime and compile-time arguments}."""
    kernels = {}
    shared: dict[str, Any] = {}
    semaphores: dict[str, Any] = {}  # name -> semaphore, in the order kernels declare them
    for gvar, func in sorted(mod.functions.items(), key=lambda item: item[0].name_hint):
        if not isinstance(func, tirx.PrimFunc):
            continue
        role = get_attr(func, attr_keys.TT_KERNEL_ROLE)
        if role is None:
            continue
        kernels[role] = {
            "name": gvar.name_hint,
            "runtime_args": get_attr(func, attr_keys.TT_RUNTIME_ARGS, []),
            "runtime_arg_values": get_attr(func, attr_keys.TT_RUNTIME_ARG_VALUES, []),
            "compile_time_args": get_attr(func, attr_keys.TT_COMPILE_TIME_ARGS, []),
        }
        for key in SHARED_KEYS:
            shared.setdefault(key.rpartition(".")[2], get_attr(func, key))
        for sem in get_attr(func, attr_keys.TT_SEMAPHORES, []) or []:
            semaphores.setdefault(sem["name"], dict(sem))
    from . import api_profile

    profile = api_profile()  # the one the passes lowered with
    return {"device": {"profile": profile, "tile": list(device.TILE)}, **shared,
            "semaphores": list(semaphores.values()), "kernels": kernels}
