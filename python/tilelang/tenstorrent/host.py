"""Host metadata of a lowered Tenstorrent kernel, gathered from the attributes of its role kernels."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, cast

import tvm
from tvm import tirx

from . import api_profile, attr_keys, device
from .lowered import get_attr
from .records import DEVICE, HOST_TENSOR, KERNEL, PLAN, SEMAPHORE, TENSOR, Kernel, Plan, Tensor

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
            KERNEL.NAME: gvar.name_hint,
            KERNEL.RUNTIME_ARGS: get_attr(func, attr_keys.TT_RUNTIME_ARGS, []),
            KERNEL.RUNTIME_ARG_VALUES: get_attr(func, attr_keys.TT_RUNTIME_ARG_VALUES, []),
            KERNEL.COMPILE_TIME_ARGS: get_attr(func, attr_keys.TT_COMPILE_TIME_ARGS, []),
        }
        for key in SHARED_KEYS:
            shared.setdefault(plan_key(key), get_attr(func, key))
        for sem in get_attr(func, attr_keys.TT_SEMAPHORES, []) or []:
            semaphores.setdefault(sem[SEMAPHORE.NAME], dict(sem))
    profile = api_profile()  # the one the passes lowered with
    return {PLAN.DEVICE: {DEVICE.PROFILE: profile, DEVICE.TILE: list(device.TILE)}, **shared,
            PLAN.SEMAPHORES: list(semaphores.values()), PLAN.KERNELS: kernels}


def role_kernels(plan: Plan) -> Mapping[str, Kernel]:
    """The plan's kernels by role (the kernels record's fields are the roles, KERNEL_ROLES)."""
    return cast("Mapping[str, Kernel]", plan[PLAN.KERNELS])


def plan_key(attr_key: str) -> str:
    """The key of the host plan that holds an attribute every role kernel carries: the key's last name (tt.cbs ->
    cbs, the plan record's field; tt.buffers -> buffers)."""
    return attr_key.rpartition(".")[2]


def host_layout(tensor: Tensor, tile: Sequence[int]) -> dict[str, Any]:
    """How main.cpp and run_ttnn.py place a tensor's row-major values in what DRAM holds: `lead` matrices of `rows` x
    `cols` (a 1-D tensor: one row) in matrices of `prows` x `pcols` (InferTTLayout's padded_shape: a 1-D tensor is
    row 0 of a tile row), element (r, c) at row r // er * pr + r % er and col c // ec * pc + c % ec (a dim of blocks
    that are not whole tiles lays each block out on its own run of tiles; er = pr = 1 elsewhere); the rest holds
    `fill`, the tensor's pad_value. A transposed tensor (InferTTLayout: DRAM holds its (cols, rows) transpose) is laid
    out as its transpose, which the host makes of the user's values before it places them and after it crops them."""
    shape, padded = tensor[TENSOR.SHAPE], tensor.get(TENSOR.PADDED_SHAPE, tensor[TENSOR.SHAPE])
    if tensor.get(TENSOR.TRANSPOSED):  # its last two dims' matrices transposed
        shape = [*shape[:-2], shape[-1], shape[-2]]
    blocks = tensor.get(TENSOR.BLOCKS)
    blocks = blocks or [0] * len(shape)

    def run(e: int, t: int) -> tuple[int, int]:
        return (e, -(-e // t) * t) if e else (1, 1)

    if tensor[TENSOR.PAGE_LAYOUT] == "row_major":  # rows of the last dim; padded in one dim k (tile_padding.cc):
        k = next((d for d in range(len(shape) - 1) if padded[d] != shape[d]), 0)  # matrices of the dims from k on
        lead, rows, cols = math.prod(shape[:k]), math.prod(shape[k:-1]), shape[-1]
        prows, pcols = math.prod(padded[k:-1]), padded[-1]  # the last dim padded to whole tiles
        (er, pr), (ec, pc) = (1, 1), (1, 1)
    elif len(shape) == 1:
        lead, rows, cols, prows, pcols = 1, 1, shape[0], tile[0], padded[0]
        (er, pr), (ec, pc) = (1, 1), run(blocks[0], tile[1])
    else:
        lead, rows, cols, prows, pcols = math.prod(shape[:-2]), shape[-2], shape[-1], padded[-2], padded[-1]
        (er, pr), (ec, pc) = run(blocks[-2], tile[0]), run(blocks[-1], tile[1])
    h = HOST_TENSOR
    return {h.LEAD: lead, h.ROWS: rows, h.COLS: cols, h.PROWS: prows, h.PCOLS: pcols, h.ER: er, h.PR: pr, h.EC: ec,
            h.PC: pc, h.ELEMS: math.prod(shape), h.PADDED_ELEMS: lead * prows * pcols,
            h.PADDED: (rows, cols) != (prows, pcols)}
