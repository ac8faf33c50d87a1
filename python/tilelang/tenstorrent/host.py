"""Host metadata of a lowered Tenstorrent kernel, gathered from the attributes of its role kernels."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import tvm
from tvm import tirx

from . import api_profile, attr_keys, device
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
    profile = api_profile()  # the one the passes lowered with
    return {"device": {"profile": profile, "tile": list(device.TILE)}, **shared,
            "semaphores": list(semaphores.values()), "kernels": kernels}


def host_layout(tensor: dict[str, Any], tile: Sequence[int]) -> dict[str, Any]:
    """How main.cpp and run_ttnn.py place a tensor's row-major values in what DRAM holds: `lead` matrices of `rows` x
    `cols` (a 1-D tensor: one row) in matrices of `prows` x `pcols` (InferTTLayout's padded_shape: a 1-D tensor is
    row 0 of a tile row), element (r, c) at row r // er * pr + r % er and col c // ec * pc + c % ec (a dim of blocks
    that are not whole tiles lays each block out on its own run of tiles; er = pr = 1 elsewhere); the rest holds
    `fill`, the tensor's pad_value."""
    shape, padded, blocks = tensor["shape"], tensor.get("padded_shape", tensor["shape"]), tensor.get("blocks")
    blocks = blocks or [0] * len(shape)

    def run(e: int, t: int) -> tuple[int, int]:
        return (e, -(-e // t) * t) if e else (1, 1)

    if tensor["page_layout"] == "row_major":  # rows of the last dim; padded in one dim k (tile_padding.cc):
        k = next((d for d in range(len(shape) - 1) if padded[d] != shape[d]), 0)  # matrices of the dims from k on
        lead, rows, cols = math.prod(shape[:k]), math.prod(shape[k:-1]), shape[-1]
        prows, pcols = math.prod(padded[k:-1]), shape[-1]
        (er, pr), (ec, pc) = (1, 1), (1, 1)
    elif len(shape) == 1:
        lead, rows, cols, prows, pcols = 1, 1, shape[0], tile[0], padded[0]
        (er, pr), (ec, pc) = (1, 1), run(blocks[0], tile[1])
    else:
        lead, rows, cols, prows, pcols = math.prod(shape[:-2]), shape[-2], shape[-1], padded[-2], padded[-1]
        (er, pr), (ec, pc) = run(blocks[-2], tile[0]), run(blocks[-1], tile[1])
    return {"lead": lead, "rows": rows, "cols": cols, "prows": prows, "pcols": pcols, "er": er, "pr": pr, "ec": ec,
            "pc": pc, "elems": math.prod(shape), "padded_elems": lead * prows * pcols,
            "padded": (rows, cols) != (prows, pcols)}
