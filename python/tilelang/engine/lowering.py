"""The generic body of every backend's `lower()`: legalize -> optimize -> split -> codegen.

Each backend's generated `tilelang/engine/<backend>/lower.py` supplies its own phase functions
(`LowerAndLegalize`, `OptimizeFor<Backend>`, `Split<Backend>Kernels`) from its specs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tvm
import tvm_ffi
from tvm import tirx
from tvm.tirx import is_buffer_var

from ..cpp import device_scope
from ..errors import TileLangError
from .backend import Backend, TargetError
from .interface import runtime_of
from .param import CompiledArtifact, KernelParam
from .pass_config import target_options
from .pass_options import PASS_OPTIONS

# The pass option a target's mesh of chips sets (specs/passes/partition_tt_mesh.yaml).
MESH_PASS, MESH_OPTION = "PartitionTTMesh", "mesh"
assert MESH_OPTION in PASS_OPTIONS[MESH_PASS]

Phase = Callable[[tvm.IRModule, tvm.target.Target], tvm.IRModule]
Split = Callable[[tvm.IRModule], tuple[tvm.IRModule, Any]]
# The programs of a kernel in launch order, each a module of its own and its entry (a backend spec's `programs`).
Programs = Callable[[tvm.IRModule, str], list[tuple[tvm.IRModule, str]]]


def as_module(func_or_mod: Any) -> tuple[tvm.IRModule, str]:
    """An IRModule holding the kernel, and the name of its entry function."""
    if isinstance(func_or_mod, tirx.PrimFunc):
        attrs = func_or_mod.attrs
        name = str(attrs["global_symbol"]) if attrs is not None and "global_symbol" in attrs else "main"
        return tvm.IRModule({name: func_or_mod}), name
    if isinstance(func_or_mod, tvm.IRModule):
        names = [gv.name_hint for gv, f in func_or_mod.functions.items() if isinstance(f, tirx.PrimFunc)]
        if len(names) != 1:
            raise TileLangError(f"lower() needs a module with exactly one PrimFunc, got {len(names)}: {names}")
        return func_or_mod, names[0]
    raise TileLangError(f"lower() takes a T.prim_func or an IRModule, got {type(func_or_mod).__name__}")


def kernel_params(func: tirx.PrimFunc) -> list[KernelParam]:
    """Name, dtype and static shape of each parameter (scalars get shape ())."""
    params = []
    for p in func.params:
        if not is_buffer_var(p):
            params.append(KernelParam(str(p.name), str(p.ty.dtype), ()))
            continue
        shape = []
        for dim in p.ty.shape:
            if not isinstance(dim, tirx.IntImm):
                raise TileLangError(f"parameter '{p.name}' has a dynamic shape ({dim}); only static shapes are "
                                    "supported")
            shape.append(int(dim.value))
        params.append(KernelParam(str(p.name), str(p.dtype), tuple(shape)))
    return params


def refuse_unsupported_tile_ops(backend: Backend, func: tirx.PrimFunc, entry: str) -> None:
    """A tile primitive the backend spec lists under `unsupported_tile_ops` is an error naming it and the reason."""
    refused = dict(backend.unsupported_tile_ops)
    if not refused:
        return
    hit = tvm_ffi.structural_walk(func.body, (tirx.TilePrimitiveCall, lambda call: tvm_ffi.VisitInterrupt(
        call.op.name) if call.op.name in refused else None), order="pre")
    if hit is not None:
        name = str(hit.value)
        raise TileLangError(f"kernel '{entry}': T.{name.rsplit('.', 1)[-1]} ({name}) is not supported by the "
                            f"'{backend.name}' backend: {refused[name]} ({backend.spec})")


def lower_phases(backend: Backend, func_or_mod: Any, target: Any, target_host: Any, *,
                 legalize: Phase, optimize: Phase, split: Split, runtime_only: bool,
                 enable_host_codegen: bool, enable_device_compile: bool,
                 programs: Programs | None = None) -> CompiledArtifact:
    mod, entry = as_module(func_or_mod)
    params = kernel_params(mod[entry])
    refuse_unsupported_tile_ops(backend, mod[entry], entry)
    device = backend.device_of(target)  # "" without devices; a target string may name one ("tenstorrent:p150")
    tvm_target = target if isinstance(target, tvm.target.Target) else backend.make_target(target_host, device)
    mesh = backend.mesh_of(target)  # (1, 1): a single chip
    options = {MESH_PASS: {MESH_OPTION: list(mesh)}} if mesh != (1, 1) else {}
    # The passes, the split and the code generator plan for the device (a backend with devices) and its mesh.
    with device_scope(device), target_options(options, repr(target)):
        parts = programs(mod, entry) if programs is not None else [(mod, entry)]
        device_mods, host_mods = [], []
        for part, _ in parts:
            with tvm_target:
                part = optimize(legalize(part, tvm_target), tvm_target)
            device_part, host_part = split(part)
            device_mods.append(device_part)
            host_mods.append(host_part)
        rt_mod, source = None, ""
        if len(parts) == 1:
            device_mod, host_mod = device_mods[0], host_mods[0]
            if enable_device_compile:
                rt_mod, source = build(backend, device_mod, tvm_target, params=params, entry=entry)
        else:  # one program per launch, run in order: the device modules in that order, each with its own params
            device_mod = tvm.IRModule({gv: f for m in device_mods for gv, f in m.functions.items()})
            host_mod = host_mods
            if enable_device_compile:
                rt_mod, source = build(backend, [(m, kernel_params(p[e]), e) for m, (p, e) in zip(
                    device_mods, parts, strict=True)], tvm_target, params=params, entry=entry)
    if runtime_only:
        device_mod = host_mod = None
    elif not enable_host_codegen:
        host_mod = None
    return CompiledArtifact(host_mod=host_mod, device_mod=device_mod, params=params, kernel_source=source,
                            rt_mod=rt_mod, entry_name=entry, target=backend.name)


def build(backend: Backend, mod: tvm.IRModule, target: tvm.target.Target, *, params: list[KernelParam] | None = None,
          entry: str = "main") -> tuple[Any, str]:
    """Run the backend's code generator (its runtime's `build`); a backend without one is a TargetError."""
    if not backend.codegen:
        raise TargetError(f"backend '{backend.name}' has no code generator yet ({backend.spec})")
    return runtime_of(backend).build(backend, mod, target, params or [], entry)
