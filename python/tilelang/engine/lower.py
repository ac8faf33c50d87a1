"""`tilelang.lower`: dispatch to the backend the target names (see tilelang/engine/registry.py)."""

from __future__ import annotations

from typing import Any

import tvm

from ..errors import TileLangError
from .backend import TARGET_DEVICE, TARGET_KIND, TARGET_MESH, resolve, split_device
from .lowering import kernel_params
from .param import CompiledArtifact
from .registry import BACKENDS


def resolve_target(target: Any) -> Any:
    """`"auto"` (or None) is the tvm Target of the enclosing `with tvm.target.Target(...)`, else "llvm"."""
    if target is None or (isinstance(target, str) and target == "auto"):
        current = tvm.target.Target.current(allow_none=True)
        return current if current is not None else "llvm"
    return target


def lower(func_or_mod: Any, target: Any = "auto", target_host: Any = None, *, runtime_only: bool = False,
          enable_host_codegen: bool = True, enable_device_compile: bool = True) -> CompiledArtifact:
    """Lower a TileLang kernel for `target` (a registered name, "<name>:<device>", {"kind": name, "device":
    device}, or a tvm Target; "auto": the current `with tvm.target.Target(...)` scope's, else llvm) and generate its
    code."""
    _check_no_empty_buffers(func_or_mod)
    target = resolve_target(target)
    backend = resolve(target, BACKENDS)
    device = split_device(target)[1]  # "<backend>:<device>" or {"kind": ..., "device": ...}
    module = backend.load()
    named = (f"{backend.name}:{device}" if device else backend.name) if isinstance(target, (str, dict)) else target
    if backend.mesh_of(target) != (1, 1) and isinstance(target, dict):  # a mesh of chips: the dict carries it
        named = {TARGET_KIND: backend.name, TARGET_DEVICE: device, TARGET_MESH: list(backend.mesh_of(target))}
    result: CompiledArtifact = module.lower(
        func_or_mod, target=named, target_host=target_host,
        runtime_only=runtime_only, enable_host_codegen=enable_host_codegen,
        enable_device_compile=enable_device_compile)
    return result


def _check_no_empty_buffers(func_or_mod: Any) -> None:
    """A tensor with a zero-size dimension holds nothing to compute: refused here, naming it, before a backend
    divides by its extent."""
    funcs = func_or_mod.functions.values() if isinstance(func_or_mod, tvm.IRModule) else [func_or_mod]
    for func in funcs:
        if not isinstance(func, tvm.tirx.PrimFunc):
            continue
        try:
            params = kernel_params(func)
        except TileLangError:
            continue  # a dynamic shape: the backend says so
        for param in params:
            if 0 in param.shape:
                raise TileLangError(f"tensor '{param.name}' has shape {param.shape}, with a zero-size dimension; "
                                    "every dimension needs at least one element")
